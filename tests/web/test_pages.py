"""The server-rendered pages, driven through the test client against a fresh database."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.models import Entry, Game, GameSession, SettlementLine
from tests.helpers import (
    book,
    entries,
    finish_data,
    lay_off,
    meld,
    meld_id,
    start,
    text,
    totals,
    win_session,
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
        assert [game.dealer.name for game in session.games] == ["Bob"]
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
        (("Ann", "ann"), "500", "7", ["“ann” is entered twice", "Not a valid choice"]),
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

    monkeypatch.setattr(services, "scores_with_game", broken)
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


# --- melds and layoffs -----------------------------------------------------------------------


def test_a_valid_meld_is_saved_and_its_value_shown_at_once(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    page = meld(client, table, "Bob", "3h ah 2h qh kh")
    assert "Bob: sequence Q♥ K♥ A♥ 2♥ 3♥ — 30 points" in page
    assert entries(app, table.game) == [("Bob", "Q♥ K♥ A♥ 2♥ 3♥", 30)]
    assert totals(app, table.session_pk)["Bob"] == 30


def test_suits_are_shown_with_their_symbol_and_hearts_in_red(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Ann", "Q♥ K♥ A♥")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert '<span class="card red">Q♥</span>' in page


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("qc kh ac", "Q♣"),
        ("qc kc", "3"),
        ("zz", "zz"),
    ],
)
def test_an_invalid_meld_is_refused_with_the_rules_message_and_the_typed_text_kept(
    client: FlaskClient, app: Flask, cards: str, message: str
) -> None:
    table = start(client)
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": cards}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'class="error" role="alert"' in page
    assert message in page
    assert f'name="cards" required spellcheck="false" type="text" value="{cards}"' in page
    assert f'name="player" id="player-0" value="{table.players["Ann"]}" checked>' in page
    assert entries(app, table.game) == []


def test_reloading_the_address_of_a_refused_entry_goes_back_to_the_game(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    refused = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": "2c 5c"}
    )
    assert refused.status_code == 422
    for kind in ("melds", "layoffs"):
        reload = client.get(f"/games/{table.game}/{kind}")
        assert reload.status_code == 302
        assert reload.location.endswith(f"/sessions/{table.session}#game")
    assert app.test_client().get(f"/games/{table.game}/melds").status_code == 404
    assert entries(app, table.game) == []


def test_reloading_the_address_of_any_refused_action_goes_back_without_a_405(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "5♠ 6♠ 7♠")
    first = meld_id(app, table, 1)
    for address in (
        f"/games/{table.game}/undo",
        f"/games/{table.game}/entries/{first}/delete",
        f"/sessions/{table.session}/games",
    ):
        reload = client.get(address)
        assert reload.status_code == 302, address
        assert reload.location.endswith(f"/sessions/{table.session}#game"), address
    start_again = client.get("/sessions")
    assert (start_again.status_code, start_again.location) == (302, "/")
    assert entries(app, table.game) == [("Ann", "5♠ 6♠ 7♠", 18)]


def test_an_empty_meld_asks_for_the_cards(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": ""}
    )
    assert response.status_code == 422
    assert "Tap or type the cards" in response.get_data(as_text=True)
    assert entries(app, table.game) == []


def test_a_meld_for_someone_outside_the_session_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    response = client.post(
        f"/games/{table.game}/melds", data={"player": "999", "cards": "qc kc ac"}
    )
    assert response.status_code == 422
    assert entries(app, table.game) == []


def test_a_card_already_on_the_table_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "qc qh qd"}
    )
    assert response.status_code == 422
    assert "Q♣ is already on the table." in text(response.get_data(as_text=True))
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]


def test_a_german_refusal_shows_its_first_card_in_its_letters_and_colour(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    client.set_cookie(LANGUAGE_COOKIE, "de")
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "qc qh qd"}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "D♣ liegt schon auf dem Tisch." in text(page)
    assert '<span class="card black">D♣</span> liegt schon auf dem Tisch.' in page


def test_the_layoff_form_shows_each_meld_as_it_lies_now_with_its_owner(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    first = meld_id(app, table, 1)
    lay_off(client, table, "Bob", first, "2c")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert f'name="meld" value="{first}" id="meld-{first}"' in page
    assert "Ann sequence Q♣ K♣ A♣ 2♣" in text(page)


def test_a_layoff_onto_a_chosen_meld_scores_for_the_player_who_lays_off(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "jd qd kd")
    meld(client, table, "Bob", "5s 5h 5c")
    response = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Cid"], "meld": meld_id(app, table, 1), "cards": "ad"},
        follow_redirects=True,
    )
    page = text(response.get_data(as_text=True))
    assert "Cid: A♦ laid off onto Ann's meld (now J♦ Q♦ K♦ A♦) — 10 points" in page
    assert "Cid layoff A♦ → J♦ Q♦ K♦ 10 points" in page  # the list says onto which meld
    assert entries(app, table.game)[-1] == ("Cid", "A♦", 10)
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 15, "Cid": 10}


def test_an_invalid_layoff_is_refused_and_keeps_the_typed_cards(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "jd qd kd")
    first = meld_id(app, table, 1)
    response = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Bob"], "meld": first, "cards": "5d"},
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="cards-error"' in page
    assert 'value="5d"' in page
    assert re.search(f'name="meld" value="{first}"[^>]*checked>', page)
    assert len(entries(app, table.game)) == 1


def test_a_layoff_onto_a_meld_not_on_the_table_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "jd qd kd")
    response = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Bob"], "meld": "12345", "cards": "ad"},
    )
    assert response.status_code == 422
    assert len(entries(app, table.game)) == 1


# --- undo, delete, correct -------------------------------------------------------------------


def test_undo_takes_back_the_last_entry_and_the_totals(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "7h 7d 7s")
    response = client.post(f"/games/{table.game}/undo", follow_redirects=True)
    assert "Undone: Bob: set" in text(response.get_data(as_text=True))
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]
    assert totals(app, table.session_pk)["Bob"] == 0


def test_a_double_tap_on_undo_takes_back_one_entry_only(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "7h 7d 7s")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    undo_url = re.search(r'action="(/games/\d+/undo\?entry=\d+)"', page)
    assert undo_url is not None
    first = client.post(undo_url.group(1))
    second = client.post(undo_url.group(1))
    assert first.status_code == 302
    assert second.status_code == 409
    assert "Nothing was undone" in text(second.get_data(as_text=True))
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]


def test_undo_with_nothing_recorded_says_so(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    response = client.post(f"/games/{table.game}/undo")
    assert response.status_code == 409
    assert "There is nothing to undo in this game yet." in response.get_data(as_text=True)


def test_an_earlier_entry_nothing_depends_on_can_be_deleted(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "7h 7d 7s")
    response = client.post(
        f"/games/{table.game}/entries/{meld_id(app, table, 1)}/delete", follow_redirects=True
    )
    assert "Deleted: Ann: sequence Q♣ K♣ A♣" in text(response.get_data(as_text=True))
    assert entries(app, table.game) == [("Bob", "7♠ 7♥ 7♦", 21)]
    assert totals(app, table.session_pk) == {"Ann": 0, "Bob": 21, "Cid": 0}


def test_deleting_is_offered_on_the_entrys_own_page_not_beside_it_in_the_list(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    first = meld_id(app, table, 1)
    session_page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert "/delete" not in session_page
    assert f'href="/games/{table.game}/entries/{first}/edit"' in session_page
    own_page = client.get(f"/games/{table.game}/entries/{first}/edit").get_data(as_text=True)
    assert f'action="/games/{table.game}/entries/{first}/delete"' in own_page
    assert "Delete the entry" in text(own_page)


def test_a_meld_with_a_layoff_on_it_cannot_be_deleted(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    first = meld_id(app, table, 1)
    lay_off(client, table, "Bob", first, "2c")
    response = client.post(f"/games/{table.game}/entries/{first}/delete")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    # Said under the button it was tapped on, on the entry's own page.
    assert "<h1>Correct or delete an entry</h1>" in page
    delete_section = page[page.index("<h2>Delete the entry</h2>") :]
    assert "Cards were laid off onto this meld: delete those layoffs first." in delete_section
    assert 'value="Q♣ K♣ A♣"' in page
    assert len(entries(app, table.game)) == 2
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 2, "Cid": 0}


def test_an_entry_no_longer_there_sends_the_phone_back_to_the_game_saying_so(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "5♠ 6♠ 7♠")
    gone = meld_id(app, table, 1)
    edit = f"/games/{table.game}/entries/{gone}/edit"
    assert client.get(edit).headers["Cache-Control"] == "no-store"  # back asks again
    client.post(f"/games/{table.game}/undo")
    sends = [
        lambda: client.get(edit),
        lambda: client.post(edit, data={"cards": "5♠ 6♠ 7♠ 8♠"}),
        lambda: client.post(f"/games/{table.game}/entries/{gone}/delete"),
        lambda: client.post(f"/games/{table.game}/entries/777/delete"),
    ]
    for send in sends:
        answer = send()
        assert answer.status_code == 302
        assert answer.location.endswith(f"/sessions/{table.session}#game")
        page = text(client.get(answer.location).get_data(as_text=True))
        assert page.count("That entry is not in the game (any more): it was deleted") == 1
    assert entries(app, table.game) == []


def test_the_correct_page_shows_the_cards_of_the_entry(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    page = client.get(f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit")
    assert page.status_code == 200
    assert 'value="Q♣ K♣ A♣"' in page.get_data(as_text=True)


def test_the_correct_pages_picker_leaves_the_entrys_own_cards_free(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "6s 6h 6d")
    page = client.get(f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit")
    taken = set(re.findall(r'data-card="([^"]+)"[^>]*data-taken', page.get_data(as_text=True)))
    assert taken == {"6♠", "6♥", "6♦"}


def test_correcting_an_entry_revalues_it_and_the_totals(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    response = client.post(
        f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit",
        data={"cards": "ac 2c 3c"},
        follow_redirects=True,
    )
    assert "Corrected: Ann: sequence A♣ 2♣ 3♣ — 6 points" in text(response.get_data(as_text=True))
    assert entries(app, table.game) == [("Ann", "A♣ 2♣ 3♣", 6)]
    assert totals(app, table.session_pk)["Ann"] == 6


def test_a_correction_gives_the_entry_to_the_player_who_played_it(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    edit = f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit"
    assert 'value="{}" checked'.format(table.players["Ann"]) in client.get(edit).get_data(
        as_text=True
    )
    response = client.post(
        edit, data={"player": table.players["Bob"], "cards": "qc kc ac"}, follow_redirects=True
    )
    assert "Corrected: Bob: sequence Q♣ K♣ A♣ — 30 points" in text(response.get_data(as_text=True))
    assert entries(app, table.game) == [("Bob", "Q♣ K♣ A♣", 30)]
    assert totals(app, table.session_pk) == {"Ann": 0, "Bob": 30, "Cid": 0}


def test_a_correction_moves_a_layoff_onto_a_meld_that_lay_there_before_it(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "5♠ 6♠ 7♠")
    meld(client, table, "Bob", "8♥ 8♦ 8♣")
    spades, eights = meld_id(app, table, 1), meld_id(app, table, 2)
    lay_off(client, table, "Ann", spades, "8♠")
    meld(client, table, "Ann", "2♣ 3♣ 4♣")
    edit = f"/games/{table.game}/entries/{meld_id(app, table, 3)}/edit"
    page = client.get(edit).get_data(as_text=True)
    offered = re.findall(r'name="meld" id="[^"]+" value="(\d+)"( checked)?', page)
    assert offered == [(str(spades), " checked"), (str(eights), "")]  # not the later 2♣ 3♣ 4♣
    # Each as it lay when the 8♠ was laid off, without it.
    assert "<span>Ann: 5♠ 6♠ 7♠</span>" in page
    response = client.post(
        edit, data={"player": table.players["Ann"], "meld": eights, "cards": "8♠"}
    )
    assert response.status_code == 302
    with app.app_context():
        lying = services.table_of(services.read_game(table.game)).melds
        assert len(lying[spades].cards) == 3
        assert len(lying[eights].cards) == 4


@pytest.mark.parametrize("chosen", ["x", "", "999999"])
def test_a_layoff_moved_onto_no_meld_on_offer_is_refused_plainly(
    client: FlaskClient, app: Flask, chosen: str
) -> None:
    table = start(client)
    meld(client, table, "Ann", "5♠ 6♠ 7♠")
    lay_off(client, table, "Bob", meld_id(app, table, 1), "8♠")
    response = client.post(
        f"/games/{table.game}/entries/{meld_id(app, table, 2)}/edit",
        data={"player": table.players["Bob"], "meld": chosen, "cards": "8♠"},
    )
    assert response.status_code == 422
    assert "Tap the meld the cards went onto." in response.get_data(as_text=True)
    assert entries(app, table.game) == [("Ann", "5♠ 6♠ 7♠", 18), ("Bob", "8♠", 8)]


def test_a_melds_correction_page_offers_no_meld_to_move_it_onto(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "5♠ 6♠ 7♠")
    page = client.get(f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit")
    assert 'name="meld"' not in page.get_data(as_text=True)


def test_a_correction_to_a_stranger_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    response = client.post(
        f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit",
        data={"player": "999999", "cards": "qc kc ac"},
    )
    assert response.status_code == 422
    assert "Not a valid choice" in response.get_data(as_text=True)
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]


def test_an_invalid_correction_is_refused_and_keeps_the_typed_cards(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    response = client.post(
        f"/games/{table.game}/entries/{meld_id(app, table, 1)}/edit", data={"cards": "qc kh"}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'class="error"' in page
    assert 'value="qc kh"' in page
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]


def test_a_correction_a_later_layoff_builds_on_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    first = meld_id(app, table, 1)
    lay_off(client, table, "Bob", first, "2c")
    response = client.post(f"/games/{table.game}/entries/{first}/edit", data={"cards": "9c 10c jc"})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "A later entry builds on these cards: Bob's 2♣ (entry 2)." in text(page)
    assert 'value="9c 10c jc"' in page  # still on the correction page, with what was typed
    assert entries(app, table.game)[0] == ("Ann", "Q♣ K♣ A♣", 30)


# --- the end of a game -----------------------------------------------------------------------


def test_the_finish_form_has_a_hand_field_for_every_player(client: FlaskClient) -> None:
    table = start(client)
    page = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    for player_id in table.players.values():
        assert f'<label for="hand_{player_id}">' in page
        assert f'<label for="points_{player_id}">' in page
    assert "<legend>Who went out?</legend>" in page
    assert 'name="romme" id="romme-0" value="auto" checked>' in page


def test_the_finish_preview_shows_the_settlement_and_writes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    response = client.post(
        f"/games/{table.game}/finish",
        data=finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}),
    )
    assert response.status_code == 200
    page = text(response.get_data(as_text=True))
    assert "The settlement, not booked yet" in page
    assert "Rommé hand: the cards left in the other hands count double." in page
    assert "Bob K♦ 7♥ = 17 × 2 = 34 +0" in page
    assert "Cid A♠ = 15 × 2 = 30 +0" in page
    assert "Ann went out +64" in page
    assert "Confirm and book the settlement" in page
    html = response.get_data(as_text=True)
    assert 'name="romme" id="romme-1" value="yes" checked>' in html
    with app.app_context():
        assert services.get_game(table.game).status == "open"
    assert count(app, SettlementLine) == 0
    assert totals(app, table.session_pk)["Ann"] == 52


def test_the_preview_says_when_no_romme_hand_is_possible(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Ann", "9d 10d jd")
    response = client.post(
        f"/games/{table.game}/finish",
        data=finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"}),
    )
    page = text(response.get_data(as_text=True))
    assert "Ann put cards down before another player's entry, so this is no Rommé hand." in page
    assert "Ann went out +12" in page
    assert 'name="romme" id="romme-2" value="no" checked>' in response.get_data(as_text=True)


def test_a_winner_whose_last_turn_laid_off_one_card_is_offered_no_romme_hand(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Bob", "4c 5c 6c")
    lay_off(client, table, "Ann", meld_id(app, table, 1), "7c")
    response = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"})
    )
    page = text(response.get_data(as_text=True))
    assert (
        "Ann put down 1 card after the other players' entries; a Rommé hand puts down at least "
        "the 7 cards dealt, so this is no Rommé hand." in page
    )
    assert "Ann went out +12" in page
    refused = client.post(
        f"/games/{table.game}/finish",
        data={**finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"}, romme="yes"), "confirm": "1"},
    )
    assert refused.status_code == 422
    assert "the 7 cards dealt" in text(refused.get_data(as_text=True))
    assert count(app, SettlementLine) == 0


def test_a_proposed_romme_hand_says_why_so_the_recorder_can_decide(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")
    response = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"})
    )
    page = text(response.get_data(as_text=True))
    assert (
        "Every entry of Ann comes after the other players' entries, with 7 cards (7 were dealt): "
        "a Rommé hand is possible. If Ann put cards down in an earlier turn, choose “No”." in page
    )
    assert "Ann went out +24" in page


def test_confirming_books_the_doubled_romme_settlement_and_the_totals(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    data = finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}, romme="yes")
    response = client.post(
        f"/games/{table.game}/finish", data={**data, "confirm": "1"}, follow_redirects=True
    )
    assert "Game 1 is over: Ann went out and gains 64 points." in text(
        response.get_data(as_text=True)
    )
    with app.app_context():
        game = services.get_game(table.game)
        assert game.status == "finished"
        assert game.romme is True
        lines = {line.player_id: line for line in game.settlement_lines}
        assert lines[table.players["Bob"]].hand == "K♦ 7♥"
        assert lines[table.players["Bob"]].factor == 2
        assert lines[table.players["Ann"]].gain == 64
    assert totals(app, table.session_pk) == {"Ann": 116, "Bob": 0, "Cid": 0}


def test_confirming_without_a_romme_hand_counts_the_hands_once(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}, romme="no")
    book(client, table, data)
    assert totals(app, table.session_pk) == {"Ann": 62, "Bob": 0, "Cid": 0}


def test_the_confirm_form_carries_exactly_the_previewed_values(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    response = client.post(
        f"/games/{table.game}/finish",
        data=finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}),
    )
    html = response.get_data(as_text=True)
    confirm = html[html.index("The settlement, not booked yet") : html.index("Change something")]
    fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', confirm))
    assert fields["confirm"] == "1"
    assert fields["romme"] == "yes"
    client.post(f"/games/{table.game}/finish", data=fields)
    assert totals(app, table.session_pk)["Ann"] == 116


def test_finishing_with_a_hand_card_on_the_table_is_refused(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kc 7h", "Cid": "as"})
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 422
    assert "K♣ is on the table, so is not in Bob's hand." in text(response.get_data(as_text=True))
    assert 'value="kc 7h"' in response.get_data(as_text=True)
    with app.app_context():
        assert services.get_game(table.game).status == "open"
    assert count(app, SettlementLine) == 0


def test_finishing_without_every_other_hand_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    response = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "Ann", {"Bob": "kd", "Cid": ""})
    )
    assert response.status_code == 422
    assert "enter the cards left in every other hand" in response.get_data(as_text=True)


def test_a_romme_hand_that_was_not_possible_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Ann", "9d 10d jd")
    data = finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"}, romme="yes")
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 422
    assert "so this is no Rommé hand" in response.get_data(as_text=True)
    assert count(app, SettlementLine) == 0


def test_abandoning_asks_first_then_keeps_the_melds_and_scores_no_hands(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    ask = client.get(f"/games/{table.game}/abandon")
    assert "Yes, abandon the game" in ask.get_data(as_text=True)
    with app.app_context():
        assert services.get_game(table.game).status == "open"
    response = client.post(f"/games/{table.game}/abandon", follow_redirects=True)
    page = text(response.get_data(as_text=True))
    assert "Game 1 was abandoned: its melds stand." in page
    assert "Game 1: abandoned" in page
    with app.app_context():
        assert services.get_game(table.game).status == "abandoned"
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 0, "Cid": 0}


def test_entries_of_a_closed_game_cannot_change(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    client.post(f"/games/{table.game}/abandon")
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "5s 5h 5c"}
    )
    assert response.status_code == 409
    assert "Game 1 is over: its entries are final." in response.get_data(as_text=True)
    assert client.post(f"/games/{table.game}/undo").status_code == 409
    assert client.get(f"/games/{table.game}/finish").status_code == 409
    assert len(entries(app, table.game)) == 1


def test_the_next_game_passes_the_deal_to_the_left(client: FlaskClient, app: Flask) -> None:
    table = start(client, ("Ann", "Bob", "Cid"), dealer="2")
    client.post(f"/games/{table.game}/abandon")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Next deal: Ann." in page
    response = client.post(f"/sessions/{table.session}/games", follow_redirects=True)
    assert "Game 2: Ann deals." in text(response.get_data(as_text=True))
    client.post(f"/games/{services_open_game(app, table.session_pk)}/abandon")
    client.post(f"/sessions/{table.session}/games")
    with app.app_context():
        dealers = [game.dealer.name for game in services.get_session(table.session_pk).games]
    assert dealers == ["Cid", "Ann", "Bob"]


def services_open_game(app: Flask, session_id: int) -> int:
    """Return the id of the session's open game."""
    with app.app_context():
        game = services.open_game(services.get_session(session_id))
        assert game is not None
        return game.id


def test_a_second_game_cannot_start_while_one_is_open(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    response = client.post(f"/sessions/{table.session}/games")
    assert response.status_code == 409
    assert "A game is still open" in response.get_data(as_text=True)
    assert count(app, Game) == 1


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


# --- the end of the session ------------------------------------------------------------------


def test_play_again_fills_in_the_same_players_and_target_for_this_phone_only(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    again = re.search(r'href="(/\?again=[^"]+)"', page)
    assert again is not None
    form = client.get(again.group(1)).get_data(as_text=True)
    assert re.search(r'<input [^>]*name="names-0"[^>]*value="Ann"', form)
    assert re.search(r'<input [^>]*name="names-1"[^>]*value="Bob"', form)
    assert re.search(r'<input [^>]*name="target"[^>]*value="35"', form)
    stranger = app.test_client().get(again.group(1)).get_data(as_text=True)
    assert 'value="Ann"' not in stranger


def test_the_winner_of_the_session_is_shown_at_the_top_and_no_form_is_left(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    page = text(html)
    assert "Ann wins the session!" in page
    assert page.index("Ann wins the session!") < page.index("Session to 35 points")
    assert "<form" not in html
    with app.app_context():
        assert services.get_session(table.session_pk).status == "finished"


def test_a_finished_session_refuses_changes_and_keeps_everything(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    before = totals(app, table.session_pk)
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "5s 5h 5c"}
    )
    assert response.status_code == 409
    assert "This session is over" in response.get_data(as_text=True)
    for url in (
        f"/sessions/{table.session}/games",
        f"/games/{table.game}/undo",
        f"/games/{table.game}/abandon",
        f"/games/{table.game}/entries/{meld_id(app, table, 1)}/delete",
        f"/games/{table.game}/finish",
    ):
        assert client.post(url).status_code == 409, url
    assert totals(app, table.session_pk) == before
    assert count(app, Game) == 1
    assert count(app, Entry) == 1


def test_a_tie_at_the_top_above_the_target_says_another_game_is_played(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob"), target="10")
    meld(client, table, "Ann", "5c 6c 7c")
    meld(client, table, "Bob", "5d 6d 7d")
    client.post(f"/games/{table.game}/abandon")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Tie at the top: another game is played." in page
    assert "wins the session" not in page
    assert "Start the next game" in page


# --- not found, CSRF, language ---------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/sessions/99",
        "/sessions/99/history",
        "/sessions/99999999999999999999999",
        "/games/99/finish",
        "/games/99999999999999999999999/abandon",
    ],
)
def test_unknown_ids_answer_with_a_not_found_page(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "This page does not exist" in response.get_data(as_text=True)


def test_posting_to_an_unknown_game_is_not_found_and_changes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    start(client)
    response = client.post("/games/99/melds", data={"player": "1", "cards": "qc kc ac"})
    assert response.status_code == 404
    assert count(app, Entry) == 0


def test_a_post_without_a_csrf_token_is_refused_and_one_with_it_works(
    app_with: Callable[..., Flask],
) -> None:
    app = app_with(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert 'name="csrf_token"' in client.get("/").get_data(as_text=True)
    response = client.post(
        "/sessions", data={"names-0": "Ann", "names-1": "Bob", "target": "500", "dealer": "0"}
    )
    assert response.status_code == 400
    assert count(app, GameSession) == 0
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    response = client.post(
        "/sessions",
        data={"csrf_token": token[1], "names-0": "Ann", "names-1": "Bob", "target": "500"},
    )
    assert response.status_code == 302
    assert count(app, GameSession) == 1


def test_the_language_switch_sets_the_cookie_and_goes_back(client: FlaskClient) -> None:
    response = client.get("/language/de?next=/sessions/1/history")
    assert response.status_code == 302
    assert response.location == "/sessions/1/history"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None
    assert cookie.value == "de"
    assert 'lang="de"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil", ""])
def test_the_language_switch_only_goes_back_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/en", query_string={"next": target})
    assert response.location == "/"


def test_an_unknown_language_is_not_found(client: FlaskClient) -> None:
    assert client.get("/language/xx").status_code == 404
    assert client.get_cookie(LANGUAGE_COOKIE) is None


def test_the_layout_links_both_languages_back_to_the_current_page(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/language/de?next=/"' in page
    assert 'href="/language/en?next=/"' in page


def test_a_refused_post_links_the_languages_back_to_the_session_page(
    client: FlaskClient,
) -> None:
    table = start(client)
    response = client.post(f"/games/{table.game}/melds", data={"player": "1", "cards": "zz"})
    assert response.status_code == 422
    assert f"/language/de?next=/sessions/{table.session}" in response.get_data(as_text=True)


# --- reopening a booked game -------------------------------------------------------------------


def test_a_won_session_reopens_its_last_game_after_asking_and_plays_on(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    reopen = f"/games/{table.game}/reopen"
    assert f'href="{reopen}"' in page
    ask = text(client.get(reopen).get_data(as_text=True))
    assert "Reopen game 1?" in ask
    assert totals(app, table.session_pk) == {"Ann": 39, "Bob": 0}

    answer = client.post(reopen, follow_redirects=True)
    shown = text(answer.get_data(as_text=True))
    assert "Game 1 is open again: finish it anew." in shown
    assert "Ann wins the session!" not in shown
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 0}  # the meld stands
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]
    assert client.post(reopen).status_code == 409  # open now: nothing to take back


def test_only_the_last_game_can_be_reopened_and_only_by_the_edit_key(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "9s", "Cid": "2h"}, romme="no")
    book(client, table, data)
    client.post(f"/sessions/{table.session}/games")
    second = table.game + 1
    meld(client, replace(table, game=second), "Bob", "7h 7d 7s")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert "/reopen" not in page  # game 2 has an entry
    refused = client.post(f"/games/{table.game}/reopen")
    assert refused.status_code == 409
    assert "Game 2 was played after it" in text(refused.get_data(as_text=True))
    assert app.test_client().post(f"/games/{table.game}/reopen").status_code == 404
    assert totals(app, table.session_pk) == {"Ann": 41, "Bob": 21, "Cid": 0}


def test_the_standing_shows_the_best_total_first_with_the_seat_breaking_a_tie(
    client: FlaskClient,
) -> None:
    table = start(client, ("Ann", "Bob", "Cid", "Dan"))
    meld(client, table, "Cid", "qc kc ac")
    meld(client, table, "Dan", "7h 8h 9h")
    book(client, table, finish_data(table, "Dan", {"Ann": "2c", "Bob": "2d", "Cid": "5s"}))
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    standing = page[page.index('<table class="standing">') : page.index("</table>")]
    rows = re.findall(r"<bdi[^>]*>(\w+)</bdi>.*?<td class=\"num\">(-?\d+)</td>", standing, re.S)
    totals = [int(total) for _name, total in rows]
    assert totals == sorted(totals, reverse=True)
    assert [name for name, _total in rows][:2] == ["Dan", "Cid"]
    # Ann and Bob paid the same: the seat decides.
    assert [name for name, _total in rows][2:] == ["Ann", "Bob"]
    assert totals[2] == totals[3]
