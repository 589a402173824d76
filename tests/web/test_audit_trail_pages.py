"""The audit trail in the history: each change in words, with its time, among the entries."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import sqlalchemy as sa
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import AuditLine, Entry
from tests.helpers import PageTable as Table
from tests.helpers import book, finish_data, meld, meld_id, start, text


def history(client: FlaskClient, table: Table, language: str = "en") -> str:
    response = client.get(
        f"/sessions/{table.session}/history", headers={"Accept-Language": language}
    )
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client: FlaskClient, path: str, data: dict[str, object] | None = None) -> None:
    response = client.post(path, data=data or {})
    assert response.status_code == 302, response.get_data(as_text=True)


def at_times(client: FlaskClient, rows: list[tuple[str, int]]) -> None:
    """Put entries and audit lines a minute apart from 18:10 UTC, in the order given."""
    with client.application.app_context():
        for minute, (kind, row) in enumerate(rows):
            moment = datetime(2026, 7, 1, 18, 10 + minute, tzinfo=UTC)
            if kind == "entry":
                change = sa.update(Entry).where(Entry.id == row).values(created_at=moment)
            else:
                change = sa.update(AuditLine).where(AuditLine.id == row).values(at=moment)
            db.session.execute(change)
        db.session.commit()


def line_ids(client: FlaskClient) -> list[int]:
    with client.application.app_context():
        return list(db.session.scalars(sa.select(AuditLine.id).order_by(AuditLine.id)))


def test_the_history_shows_each_change_with_its_time_between_the_entries(
    client: FlaskClient,
) -> None:
    table = start(client)
    app = client.application
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "6c 6h 6d")
    sixes = meld_id(app, table, 2)
    post(
        client,
        f"/games/{table.game}/entries/{sixes}/edit",
        {"player": table.players["Cid"], "cards": "6s 6h 6d"},
    )
    meld(client, table, "Ann", "2h 3h 4h")
    hearts = meld_id(app, table, 3)
    post(client, f"/games/{table.game}/entries/{hearts}/delete")
    queens = meld_id(app, table, 1)
    corrected, deleted = line_ids(client)
    at_times(
        client,
        [
            ("entry", queens),
            ("entry", sixes),
            ("line", corrected),
            ("entry", hearts),
            ("line", deleted),
        ],
    )

    page = text(history(client, table))
    # Europe/Berlin in July: two hours after UTC.
    first = page.index("20:10 Ann sequence Q♣ K♣ A♣")
    second = page.index("20:11 Cid set 6♠ 6♥ 6♦")
    correction = page.index("20:12 corrected: 6♥ 6♦ 6♣ → 6♠ 6♥ 6♦, Bob → Cid")
    delete = page.index("20:14 deleted: Ann's meld 2♥ 3♥ 4♥ (9)")
    assert first < second < correction < delete
    assert "4♥ 9 points" not in page  # the deleted meld is no entry any more
    assert "Points: Ann 30 · Bob 0 · Cid 18" in page


def test_an_undo_and_a_reopen_show_after_the_entries_and_in_german_with_german_cards(
    client: FlaskClient,
) -> None:
    table = start(client, ("Ann", "Bob"))
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "jd qd kd")
    post(client, f"/games/{table.game}/undo")
    book(client, table, finish_data(table, "Ann", {"Bob": "9s 2s"}))
    post(client, f"/games/{table.game}/reopen")

    page = history(client, table)
    audit = re.findall(r'<li class="audit">(.*?)</li>', page, flags=re.S)
    assert [text(line) for line in audit] == [
        AnyTime("undone: Bob's meld J♦ Q♦ K♦ (30)"),
        AnyTime("reopened: Ann had won; hands: Bob 9♠ 2♠ (11); points: Ann +41, Bob +0"),
    ]
    assert "Being played." in text(page)

    german = history(client, table, "de")
    audit = [text(line) for line in re.findall(r'<li class="audit">(.*?)</li>', german, flags=re.S)]
    assert len(audit) == 2
    # The cards in German letters (Bube, Dame), each line with its time.
    assert "B♦ D♦ K♦" in audit[0]
    assert "Bob 9♠ 2♠ (11)" in audit[1]
    assert all(re.match(r"\d\d:\d\d ", line) for line in audit)
    assert '<span class="card red">D♦</span>' in german


def test_a_game_whose_entries_were_all_undone_says_so_and_shows_the_undo(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    post(client, f"/games/{table.game}/undo")
    page = text(history(client, table))
    assert "No melds or layoffs." in page
    assert re.search(r"\d\d:\d\d undone: Ann's meld Q♣ K♣ A♣ \(30\)", page)


class AnyTime(str):
    """A line's words after any time of day: ``12:41 corrected: …`` equals ``corrected: …``."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, str)
            and re.fullmatch(r"\d\d:\d\d " + re.escape(self), other) is not None
        )

    __hash__ = str.__hash__
