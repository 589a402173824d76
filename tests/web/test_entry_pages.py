"""Entries on the game page: melds and layoffs recorded or refused, undone, deleted, corrected."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.i18n import LANGUAGE_COOKIE
from tests.helpers import (
    entries,
    lay_off,
    meld,
    meld_id,
    start,
    text,
    totals,
)

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
