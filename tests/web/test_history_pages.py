"""The history page: each game with its settlement, in the set time zone, a page at a time."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys
from scorekeeper.models import Entry
from tests.helpers import book, finish_data, lay_off, meld, meld_id, start, text

PAGE = services.HISTORY_GAMES
# A link to another page of the history (the sheet's button goes elsewhere).
LINK = re.compile(
    r'<a class="button"(?: rel="(?:prev|next)")? href="([^"]*/history[^"]*)">([^<]+)</a>'
)


def played(app: Flask, client: FlaskClient, games: int, open_game: bool = False) -> str:
    """Write a session of Ann, Bob and Cid with finished games; the client may open its pages."""
    keys = SessionKeys.new()
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], target=10**6, keys=keys)
        public_id = session.public_id
        ann, bob, cid = (player.id for player in session.players)
        for _ in range(games):
            game_id = services.start_game(session.id).id
            services.record_meld(game_id, ann, "Q♣ K♣ A♣")
            services.finish_game(game_id, ann, {bob: "K♥ 9♦", cid: "A♠"})
        if open_game:
            services.record_meld(services.start_game(session.id).id, bob, "7♥ 7♦ 7♠")
    assert client.get(f"/sessions/{public_id}?key={keys.edit}").status_code == 302
    return public_id


def history(client: FlaskClient, address: str, language: str = "en") -> str:
    """Return a page of the history, as HTML."""
    response = client.get(address, headers={"Accept-Language": language})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def numbers(page: str) -> list[int]:
    """Return the numbers of the games a page of the history shows, in its order."""
    return [int(number) for number in re.findall(r'id="game-(\d+)"', page)]


def links(page: str) -> dict[str, str]:
    """Return the page's links to other pages of the history, by their words."""
    return {words: address.replace("&amp;", "&") for address, words in LINK.findall(page)}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_history_shows_the_latest_games_and_links_lead_through_the_earlier_ones(
    app: Flask, client: FlaskClient
) -> None:
    session = played(app, client, 2 * PAGE + 4, open_game=True)  # games 1 to 25, 25 open
    latest = history(client, f"/sessions/{session}/history")
    assert numbers(latest) == list(range(PAGE + 6, 2 * PAGE + 6))
    assert "Being played." in latest
    assert "Later games" not in latest and "Latest games" not in latest
    assert links(latest)["Earlier games"] == f"/sessions/{session}/history?before={PAGE + 6}"
    assert text(latest).count("Earlier games") == 2  # above the games and below them

    shown = numbers(latest)
    page = latest
    while "Earlier games" in links(page):
        page = history(client, links(page)["Earlier games"])
        shown = numbers(page) + shown
        assert links(page)["Latest games"] == f"/sessions/{session}/history"
    assert shown == list(range(1, 2 * PAGE + 6))  # every game once, in order
    assert numbers(page) == [1, 2, 3, 4, 5]

    back = [numbers(page)]
    while "Later games" in links(page):
        page = history(client, links(page)["Later games"])
        back.append(numbers(page))
    assert back[-1] == numbers(latest)
    assert [number for part in back for number in part] == list(range(1, 2 * PAGE + 6))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_every_page_of_the_history_shows_the_totals_of_the_whole_session(
    app: Flask, client: FlaskClient
) -> None:
    session = played(app, client, PAGE + 2, open_game=True)
    latest = text(history(client, f"/sessions/{session}/history"))
    earliest = text(history(client, f"/sessions/{session}/history?before=3"))
    assert numbers(history(client, f"/sessions/{session}/history?before=3")) == [1, 2]
    # 12 games Ann won, each with 30 points melded and 34 from the others' hands; Bob's set
    # of 21 in the game being played, which is not on the earlier page.
    assert "Totals: Ann 768 · Bob 21 · Cid 0 " in latest
    assert "Totals: Ann 768 · Bob 21 · Cid 0 " in earliest


def test_the_links_between_the_pages_of_the_history_are_in_german(
    app: Flask, client: FlaskClient
) -> None:
    session = played(app, client, 2 * PAGE + 1)
    middle = history(client, f"/sessions/{session}/history?before={PAGE + 2}", "de")
    assert set(links(middle)) == {"Frühere Spiele", "Spätere Spiele", "Letzte Spiele"}
    assert 'aria-label="Seiten des Verlaufs"' in middle


@pytest.mark.parametrize("before", ["abc", "0", "1", "-5", "99999999999999999999"])
def test_a_history_asked_for_games_before_no_game_number_shows_the_latest(
    app: Flask, client: FlaskClient, before: str
) -> None:
    session = played(app, client, PAGE + 1)
    page = history(client, f"/sessions/{session}/history?before={before}")
    assert numbers(page) == list(range(2, PAGE + 2))


def test_the_history_of_400_games_is_about_as_large_as_that_of_10(
    app: Flask, client: FlaskClient
) -> None:
    short = history(client, f"/sessions/{played(app, client, 10)}/history")
    long = history(client, f"/sessions/{played(app, client, 400)}/history")
    assert len(numbers(long)) == len(numbers(short)) == PAGE
    # The long one adds the links to the earlier games and longer numbers, nothing per game.
    assert len(long.encode()) < 1.1 * len(short.encode())


def test_the_score_sheet_and_its_csv_keep_every_game_and_link_each_to_its_page_of_the_history(
    app: Flask, client: FlaskClient
) -> None:
    session = played(app, client, PAGE + 5)
    sheet = client.get(f"/sessions/{session}/sheet").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(client.get(f"/sessions/{session}/sheet.csv").text)))
    assert [row[0] for row in rows[1 : PAGE + 6]] == [str(n) for n in range(1, PAGE + 6)]
    addresses = re.findall(r'<a href="([^"]*/history[^"]*)#game-(\d+)"', sheet)
    assert [int(number) for _, number in addresses] == list(range(1, PAGE + 6))
    for address, number in addresses:
        assert int(number) in numbers(history(client, address.replace("&amp;", "&")))
    assert addresses[0][0] == f"/sessions/{session}/history?before=2"
    assert addresses[-1][0] == f"/sessions/{session}/history"  # the latest games' page


# --- history ---------------------------------------------------------------------------------


def test_history_shows_each_game_its_entries_in_order_and_its_settlement(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob"))
    meld(client, table, "Bob", "6c 6h 6d")
    meld(client, table, "Ann", "qc kc ac")
    lay_off(client, table, "Bob", meld_id(app, table, 2), "jc")
    data = finish_data(table, "Ann", {"Bob": "9s 2s"})
    book(client, table, data)
    client.post(f"/sessions/{table.session}/games")
    page = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    first = page.index("Bob set 6♥ 6♦ 6♣ 18 points")
    second = page.index("Ann sequence Q♣ K♣ A♣ 30 points")
    third = page.index("Bob layoff J♣ → Q♣ K♣ A♣ 10 points")
    assert first < second < third
    assert re.search(r"\d\d:\d\d Bob set", page)
    assert "Ann went out." in page
    assert "Points: Ann 41 · Bob 28" in page
    assert "Bob 9♠ 2♠ = 11" in page
    assert "Ann went out: +11" in page
    assert "Game 2" in page
    assert "Being played." in page


def test_history_marks_the_doubling_of_a_romme_hand(client: FlaskClient, app: Flask) -> None:
    table = start(client, ("Ann", "Bob"))
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    data = finish_data(table, "Ann", {"Bob": "9s"}, romme="yes")
    book(client, table, data)
    page = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "Ann went out with a Rommé hand." in page
    assert "Bob 9♠ = 9 × 2 (Rommé hand)" in page
    assert "Ann went out: +18" in page


def test_history_shows_a_hand_given_as_points_as_counted_and_no_settlement_for_an_abandon(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    data = {
        **finish_data(table, "Ann", {"Bob": "9s"}, romme="yes"),
        f"points_{table.players['Cid']}": "12",
    }
    book(client, table, data)
    client.post(f"/sessions/{table.session}/games")
    client.post(f"/games/{table.game + 1}/abandon")
    page = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "Cid counted = 12 × 2 (Rommé hand)" in page
    assert "Ann went out: +42" in page
    assert page.count("went out:") == 1
    assert "Abandoned: the melds stand, nobody won it." in page
    assert page.count("Settlement") == 1


@pytest.mark.parametrize(
    ("zone", "shown"), [("Europe/Berlin", "20:15"), ("Europe/Vienna", "20:15"), ("UTC", "18:15")]
)
def test_entry_times_are_shown_in_the_configured_time_zone(
    app_with: Callable[..., Flask], zone: str, shown: str
) -> None:
    client = app_with(TIMEZONE=zone).test_client()
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    with client.application.app_context():
        db.session.execute(
            sa.update(Entry).values(created_at=datetime(2026, 7, 1, 18, 15, tzinfo=UTC))
        )
        db.session.commit()
    page = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert f"{shown} Ann sequence Q♣ K♣ A♣" in page


def test_the_time_zone_is_read_from_the_environment(
    app_from_environment: Callable[..., Flask],
) -> None:
    app = app_from_environment(TIMEZONE="Europe/Vienna")
    assert app.config["BABEL_DEFAULT_TIMEZONE"] == "Europe/Vienna"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "Berlin"])
def test_an_unknown_time_zone_stops_the_start_with_a_plain_reason(zone: str) -> None:
    with pytest.raises(ValueError, match="TIMEZONE must be a time zone name such as Europe/Berlin"):
        create_app({"SECRET_KEY": "test", "TIMEZONE": zone})
