"""The time an entry was tapped on the phone: stored beside its arrival, shown, answered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Entry
from tests.helpers import API, meld_id, ok, open_table, refused, start, text

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

PLAYED = datetime(2026, 11, 28, 16, 6, 5, tzinfo=UTC)  # 17:06 in Berlin
ARRIVED = datetime(2026, 11, 28, 16, 7, 40, tzinfo=UTC)  # 17:07


def stored_times(app: Flask) -> list[tuple[datetime | None, datetime]]:
    """Return each entry's tap time and arrival as stored (in UTC), in the order recorded."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Entry.tapped_at, Entry.created_at).order_by(Entry.position)
        ).all()
        return [(utc(tapped), utc(arrived)) for tapped, arrived in rows]  # type: ignore[misc]


def utc(moment: datetime | None) -> datetime | None:
    """Return a stored time in UTC (SQLite gives it back without its zone)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def arrived_at(app: Flask, moment: datetime) -> None:
    """Set every entry's arrival to ``moment``, as if the phone sent them then."""
    with app.app_context():
        db.session.execute(sa.update(Entry).values(created_at=moment))
        db.session.commit()


def test_the_use_cases_store_the_tap_time_beside_the_arrival(app: Flask) -> None:
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], target=500)
        ann, bob, _cid = (player.id for player in session.players)
        game = services.start_game(session.id).id
        meld = services.record_meld(game, ann, "Q♣ K♣ A♣", tapped_at=PLAYED)
        layoff = services.record_layoff(game, bob, meld.id, "J♣", tapped_at=PLAYED)
        services.record_meld(game, bob, "7♥ 7♦ 7♠")
        assert meld.entry.tapped_at is not None and utc(meld.entry.tapped_at) == PLAYED
        assert utc(layoff.entry.tapped_at) == PLAYED
    times = stored_times(app)
    assert [tapped for tapped, _arrived in times] == [PLAYED, PLAYED, None]
    assert all(arrived > PLAYED for _tapped, arrived in times)


def test_an_entry_sent_later_shows_when_it_was_played_and_when_it_arrived(
    app: Flask, client: FlaskClient
) -> None:
    table = start(client)
    tapped = {"tapped_at": "2026-11-28T17:06:05.120+01:00"}
    data = {"player": table.players["Ann"], "cards": "qc kc ac", **tapped}
    assert client.post(f"/games/{table.game}/melds", data=data).status_code == 302
    onto = meld_id(app, table, 1)
    data = {"player": table.players["Bob"], "meld": onto, "cards": "jc", **tapped}
    assert client.post(f"/games/{table.game}/layoffs", data=data).status_code == 302
    # One more, tapped and sent at the same minute: it shows one time only.
    data = {"player": table.players["Cid"], "cards": "7h 7d 7s"}
    data["tapped_at"] = "2026-11-28T16:07:20Z"
    assert client.post(f"/games/{table.game}/melds", data=data).status_code == 302
    assert [tapped for tapped, _ in stored_times(app)] == [
        PLAYED.replace(microsecond=120000),
        PLAYED.replace(microsecond=120000),
        datetime(2026, 11, 28, 16, 7, 20, tzinfo=UTC),
    ]
    arrived_at(app, ARRIVED)
    address = f"/sessions/{table.session}/history"
    page = text(client.get(address).get_data(as_text=True))
    assert "played 17:06, arrived 17:07 Ann sequence Q♣ K♣ A♣" in page
    assert "played 17:06, arrived 17:07 Bob layoff J♣" in page
    assert "17:07 Cid set 7♠ 7♥ 7♦" in page
    assert page.count("played ") == 2
    german = client.get(address, headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "gespielt 17:06, angekommen 17:07" in text(german)


@pytest.mark.parametrize(
    "sent",
    ["yesterday", "17:06", "2026-11-28T17:06:05", "2026-13-40T17:06:05+01:00", "9" * 80, ""],
)
def test_a_tap_time_that_cannot_be_read_is_left_out_and_the_entry_still_recorded(
    app: Flask, client: FlaskClient, sent: str
) -> None:
    table = start(client)
    data = {"player": table.players["Ann"], "cards": "qc kc ac", "tapped_at": sent}
    assert client.post(f"/games/{table.game}/melds", data=data).status_code == 302
    assert [tapped for tapped, _ in stored_times(app)] == [None]


def test_a_tap_time_ahead_of_the_server_is_left_out_and_the_entry_still_recorded(
    app: Flask, client: FlaskClient
) -> None:
    # A phone whose clock runs ahead: the entry counts, only its time is not believed.
    table = start(client)
    ahead = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    data = {"player": table.players["Ann"], "cards": "qc kc ac", "tapped_at": ahead}
    assert client.post(f"/games/{table.game}/melds", data=data).status_code == 302
    slightly = (datetime.now(UTC) + timedelta(seconds=20)).isoformat()
    data = {"player": table.players["Bob"], "cards": "7h 7d 7s", "tapped_at": slightly}
    assert client.post(f"/games/{table.game}/melds", data=data).status_code == 302
    times = stored_times(app)
    assert times[0][0] is None
    assert times[1][0] is not None  # a few seconds ahead is a clock a little fast: kept


def test_the_api_keeps_a_tap_time_sent_with_a_meld_or_a_layoff_and_answers_it(
    client: FlaskClient,
) -> None:
    table = open_table(client)
    sent = "2026-11-28T17:06:05+01:00"
    meld = ok(
        client.post(
            f"{API}/games/{table.game}/melds",
            json={"player": table.ann, "cards": "Q♣ K♣ A♣", "tapped_at": sent},
        ),
        201,
    )
    layoff = ok(
        client.post(
            f"{API}/games/{table.game}/layoffs",
            json={"player": table.bob, "meld": meld["id"], "cards": "J♣", "tapped_at": sent},
        ),
        201,
    )
    assert layoff["tapped_at"] == "2026-11-28T16:06:05+00:00"
    untimed = ok(
        client.post(
            f"{API}/games/{table.game}/melds", json={"player": table.cid, "cards": "7♥ 7♦ 7♠"}
        ),
        201,
    )
    entries = ok(client.get(f"{API}/games/{table.game}"))["entries"]
    by_id = {entry["id"]: entry for entry in entries}
    assert by_id[meld["id"]]["tapped_at"] == "2026-11-28T16:06:05+00:00"
    assert by_id[layoff["id"]]["tapped_at"] == "2026-11-28T16:06:05+00:00"
    assert by_id[untimed["id"]]["tapped_at"] is None


def test_the_api_refuses_a_tap_time_it_cannot_read_and_leaves_out_one_ahead_of_it(
    app: Flask, client: FlaskClient
) -> None:
    table = open_table(client)
    for sent in ("17:06", "2026-11-28T17:06:05", 1732810000, None):
        body = {"player": table.ann, "cards": "Q♣ K♣ A♣", "tapped_at": sent}
        said = refused(client.post(f"{API}/games/{table.game}/melds", json=body), 422)
        assert "tapped_at must be the time the entry was tapped, with its zone" in said
    assert stored_times(app) == []
    ahead = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    body = {"player": table.ann, "cards": "Q♣ K♣ A♣", "tapped_at": ahead}
    meld = ok(client.post(f"{API}/games/{table.game}/melds", json=body), 201)
    entries = ok(client.get(f"{API}/games/{table.game}"))["entries"]
    assert [entry["tapped_at"] for entry in entries if entry["id"] == meld["id"]] == [None]
