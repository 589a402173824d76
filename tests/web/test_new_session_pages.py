"""Starting a session by the home page's form: players seated, the first dealer, each mistake."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import queries, services
from scorekeeper.models import Game, GameSession
from tests.helpers import (
    meld,
    start,
    text,
)
from tests.rows import count

# --- starting a session ----------------------------------------------------------------------


def test_home_page_shows_the_session_form_with_a_label_for_every_control(
    client: FlaskClient,
) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in page
    for control in ("names-0", "names-1", "names-5", "target", "games", "dealer"):
        assert f'<label for="{control}">' in page
    assert 'placeholder="500"' in page
    assert "Drawn by lot" in page


def test_creating_a_session_seats_the_players_and_deals_game_one(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob", "Cid"), target="1000", dealer="1")
    with app.app_context():
        session = services.get_session(table.session_pk)
        assert [p.name for p in session.players] == ["Ann", "Bob", "Cid"]
        assert session.target == 1000
        names = {player.id: player.name for player in session.players}
        assert [names[game.dealer_id] for game in services.game_summaries(session)] == ["Bob"]
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Session to 1000 points" in page
    assert "Bob deals 7 cards each and plays first." in page
    assert "Ann 0 1000" in page


def test_a_dealer_drawn_by_lot_is_one_of_the_players(client: FlaskClient, app: Flask) -> None:
    table = start(client, ("Ann", "Bob"), dealer="lot")
    with app.app_context():
        assert services.get_game(table.game).dealer.name in {"Ann", "Bob"}


@pytest.mark.parametrize(
    ("names", "target", "message"),
    [
        (("Ann",), "500", "played by 2 to 4 players; 1 were entered"),
        (("A", "B", "C", "D", "E"), "500", "played by 2 to 4 players; 5 were entered"),
        (("Ann", "", "Cid"), "500", "Every player needs a name."),
        (("Ann", "ann"), "500", "“ann” is entered twice"),
        (("Ann", "Bob"), "0", "The target must be a positive number of points"),
        (("Ann", "Bob"), "-5", "The target must be a positive number of points"),
        (("Ann", "Bob"), "lots", "The target must be a whole number of points, e.g. 500."),
    ],
)
def test_an_invalid_session_is_refused_with_the_reason_and_nothing_is_created(
    client: FlaskClient, app: Flask, names: tuple[str, ...], target: str, message: str
) -> None:
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    response = client.post("/sessions", data={**data, "target": target, "dealer": "0"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in page
    assert f'value="{names[0]}"' in page
    assert count(app, GameSession) == 0
    assert count(app, Game) == 0


@pytest.mark.parametrize(
    ("names", "target", "dealer", "messages"),
    [
        (
            ("Ann", "ann"),
            "lots",
            "0",
            ["“ann” is entered twice", "The target must be a whole number of points"],
        ),
        (("Ann", "ann"), "0", "0", ["“ann” is entered twice", "must be a positive number"]),
        # A first dealer not in the list is refused plainly, also beside a wrong name.
        (("Ann", "ann"), "500", "x", ["“ann” is entered twice", "Not a valid choice"]),
        (("Ann", "ann"), "500", "8", ["“ann” is entered twice", "Not a valid choice"]),
        (("Ann", "ann"), "500", "", ["“ann” is entered twice", "Not a valid choice"]),
        (
            ("Ann", "ann"),
            "500",
            "3",
            ["“ann” is entered twice", "The first dealer must be one of the players."],
        ),
        (
            ("Ann", "Bob"),
            "-1",
            "3",
            [
                "The target must be a positive number of points",
                "The first dealer must be one of the players.",
            ],
        ),
    ],
)
def test_every_mistake_of_the_session_form_shows_at_once(
    client: FlaskClient,
    app: Flask,
    names: tuple[str, ...],
    target: str,
    dealer: str,
    messages: list[str],
) -> None:
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    response = client.post("/sessions", data={**data, "target": target, "dealer": dealer})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    for message in messages:
        assert message in page
    assert count(app, GameSession) == 0


@pytest.mark.parametrize(
    ("names", "seat", "message"),
    [
        (("Ann", "Bob", "ann "), 2, "“ann” is entered twice"),
        (("Ann", "", "Cid"), 1, "Every player needs a name."),
        (("Ann", "B" * 41), 1, "A name may have at most 40 characters."),
    ],
)
def test_a_wrong_name_is_shown_beside_its_own_field(
    client: FlaskClient, names: tuple[str, ...], seat: int, message: str
) -> None:
    data = {f"names-{index}": name for index, name in enumerate(names)}
    page = client.post("/sessions", data={**data, "target": "500", "dealer": "0"})
    html = page.get_data(as_text=True)
    assert re.search(rf'<p id="names-{seat}-error" class="error" role="alert">{message}', html)
    marked = f'aria-describedby="names-{seat}-error" aria-invalid="true" autocomplete="off"'
    assert f'{marked} id="names-{seat}"' in html


def test_a_first_dealer_outside_the_table_is_refused(client: FlaskClient, app: Flask) -> None:
    response = client.post(
        "/sessions", data={"names-0": "Ann", "names-1": "Bob", "target": "500", "dealer": "3"}
    )
    assert response.status_code == 422
    assert "The first dealer must be one of the players." in response.get_data(as_text=True)
    assert count(app, GameSession) == 0


def test_a_failure_of_the_server_shows_a_page_in_the_phones_language(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start(client)

    def broken(*_args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(queries, "scores_with_game", broken)
    response = client.get(f"/sessions/{table.session}", headers={"Accept-Language": "de"})
    assert response.status_code == 500
    page = text(response.get_data(as_text=True))
    assert "Auf dem Server ist etwas schiefgegangen; nichts wurde gespeichert." in page
    assert '<html lang="de"' in response.get_data(as_text=True)


def test_session_page_shows_totals_to_go_and_whose_deal_it_is(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob"), dealer="1")
    meld(client, table, "Ann", "6c 6h 6d")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Ann 18 482" in page
    assert "Bob deals 0 500" in page
    assert "Game 1" in page
    assert "No game has ended yet." in page
