"""Rough edges of an evening at the table, through the pages as a phone sends them."""

from __future__ import annotations

import html
import json
import re
import urllib.parse

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import PageTable as Table
from tests.helpers import entries, finish_data, meld, meld_id, start, text, totals, win_session
from tests.pageforms import form_to, links


def preview(client: FlaskClient, table: Table, data: dict[str, str]) -> str:
    """Show the settlement as the finish form's button does (a GET); return the page."""
    answer = client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_data(as_text=True)


def confirm(client: FlaskClient, page: str, **options: bool) -> object:
    """Tap Confirm on a preview page, with the fields and tokens that page holds."""
    form = form_to(page, "/finish")
    assert form.fields.get("confirm") == "1"
    return client.post(form.action, data=form.fields, **options)


def second_phone(app: Flask, client: FlaskClient, table: Table) -> FlaskClient:
    """Return another phone that opened the session's edit link."""
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    other = app.test_client()
    assert other.get(links(page)["edit"]).status_code == 302
    return other


# --- 1. a settlement confirmed on a second phone ---------------------------------------------


def test_a_confirm_on_a_second_phone_after_the_first_booked_says_so_and_shows_the_booking(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    other = second_phone(app, client, table)
    data = finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}, romme="no")
    first, second = preview(client, table, data), preview(other, table, data)
    assert confirm(client, first).status_code == 302  # type: ignore[attr-defined]
    booked = totals(app, table.session_pk)
    answer = confirm(other, second, follow_redirects=True)
    shown = text(answer.get_data(as_text=True))  # type: ignore[attr-defined]
    assert answer.status_code == 200  # type: ignore[attr-defined]
    assert "Already booked on another phone." in shown
    assert "entries are final" not in shown
    assert "The settlement as booked" in shown
    assert "K♦ 7♥" in shown and "Ann went out" in shown
    assert totals(app, table.session_pk) == booked  # booked once


def test_a_confirm_in_german_on_a_second_phone_says_so_in_german(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    other = second_phone(app, client, table)
    other.get("/language/de")
    data = finish_data(table, "Ann", {"Bob": "kd", "Cid": "as"}, romme="no")
    first, second = preview(client, table, data), preview(other, table, data)
    confirm(client, first)
    shown = text(confirm(other, second, follow_redirects=True).get_data(as_text=True))  # type: ignore[attr-defined]
    assert "Schon auf einem anderen Handy gebucht." in shown


def test_a_double_confirm_from_the_same_phone_books_once_and_lands_on_the_session(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kd", "Cid": "as"}, romme="no")
    page = preview(client, table, data)
    one, two = confirm(client, page), confirm(client, page)
    assert one.headers["Location"].split("#")[0] == two.headers["Location"].split("#")[0]  # type: ignore[attr-defined]
    assert f"/sessions/{table.session}" in two.headers["Location"]  # type: ignore[attr-defined]
    assert totals(app, table.session_pk)["Ann"] == 30 + 25


# --- 2. back after booking -------------------------------------------------------------------


def test_showing_the_settlement_is_a_get_that_writes_nothing(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    page = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    assert re.search(r'<form method="get" action="/games/\d+/finish"', page)
    assert 'name="show" value="1"' in page
    shown = text(preview(client, table, finish_data(table, "Ann", {"Bob": "kd", "Cid": "as"})))
    assert "The settlement, not booked yet" in shown


def test_back_to_the_preview_after_booking_shows_the_booked_settlement_not_an_open_one(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}, romme="no")
    page = preview(client, table, data)
    confirm(client, page)
    again = client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"})
    shown = text(again.get_data(as_text=True))
    assert again.status_code == 200
    assert "not booked yet" not in shown and "Confirm" not in shown
    assert "Game 1 is booked" in shown and "K♦ 7♥" in shown


def test_a_get_with_confirm_in_its_address_books_nothing(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kd", "Cid": "as"}, romme="no")
    client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1", "confirm": "1"})
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 0, "Cid": 0}


# --- 7. reopening fills in the hands as booked -----------------------------------------------


def test_reopening_opens_the_finish_page_with_the_hands_as_they_were_booked(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Bob", "qc kc ac")
    data = finish_data(table, "Bob", {"Ann": "kd 7h"}, romme="no")
    data[f"points_{table.players['Cid']}"] = "12"
    confirm(client, preview(client, table, data))
    answer = client.post(f"/games/{table.game}/reopen")
    assert answer.status_code == 302
    address = urllib.parse.unquote(answer.headers["Location"])
    assert f"/games/{table.game}/finish?" in address
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Game 1 is open again: finish it anew." in text(page)
    bob, ann, cid = (table.players[name] for name in ("Bob", "Ann", "Cid"))
    assert re.search(rf'name="winner" id="winner-\d" value="{bob}" checked', page)
    assert re.search(rf'name="hand_{ann}"[^>]*value="K♦ 7♥"', page)
    assert re.search(rf'name="points_{cid}"[^>]*value="12"', page)
    assert "not booked yet" not in text(page)  # filled in, not shown as a settlement


# --- 3. undo in reach, and the undone entry's player chosen ----------------------------------


def test_undo_sits_in_the_sticky_bar_beside_the_record_button(client: FlaskClient) -> None:
    table = start(client)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    # Nothing to undo yet: Undo keeps its place, disabled, so nothing moves once it can.
    assert 'form="undo" class="undo-now" disabled>' in page
    meld(client, table, "Ann", "qc kc ac")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    bar = page[page.index('<div class="action-bar sticky">') :]
    bar = bar[: bar.index("</form>")]
    assert re.search(r'<button type="submit" form="undo" class="undo-now">Undo', bar)
    assert re.search(
        r'<form method="post" action="/games/\d+/undo\?entry=\d+" class="inline" id="undo">', page
    )


def test_after_an_undo_the_undone_entrys_player_is_chosen(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Cid", "9d 10d jd")
    client.post(f"/games/{table.game}/undo")  # Cid's meld
    meld(client, table, "Ann", "2h 3h 4h")  # Ann recorded last ...
    answer = client.post(f"/games/{table.game}/undo")  # ... and her meld was the slip
    assert answer.location.endswith("#entry")
    page = client.get(answer.location).get_data(as_text=True)
    ann = table.players["Ann"]
    assert re.search(rf'name="player" id="player-\d" value="{ann}" checked', page)
    assert entries(app, table.game)[-1][0] == "Bob"


# --- 4. after recording the page opens at the entry form ------------------------------------


def test_after_recording_the_page_opens_at_the_entry_form_with_the_message_there(
    client: FlaskClient,
) -> None:
    table = start(client)
    answer = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": "qc kc ac"}
    )
    assert answer.location.endswith(f"/sessions/{table.session}#entry")
    page = client.get(answer.location).get_data(as_text=True)
    form = text(page[page.index(">", page.index('id="entry"')) + 1 :])
    assert form.index("Ann: sequence Q♣ K♣ A♣") < form.index("Whose entry?")


# --- 5. the language switch keeps the entry begun --------------------------------------------


def test_the_session_page_starts_the_entry_with_the_player_and_cards_of_its_address(
    client: FlaskClient,
) -> None:
    table = start(client)
    bob = table.players["Bob"]
    page = client.get(
        f"/sessions/{table.session}", query_string={"player": bob, "cards": "D♥ K♥"}
    ).get_data(as_text=True)
    assert re.search(rf'name="player" id="player-\d" value="{bob}" checked', page)
    assert re.search(r'name="cards"[^>]*value="D♥ K♥"', page)
    stranger = client.get(f"/sessions/{table.session}", query_string={"player": 99999})
    assert stranger.status_code == 200  # someone outside the game is not chosen


# --- 6. the correction page checks as the game page does ------------------------------------


def test_the_correction_page_has_the_live_check_of_the_game_page(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "jd qd kd")
    client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Bob"], "meld": meld_id(app, table, 1), "cards": "ad"},
    )
    layoff = meld_id(app, table, 2)
    page = client.get(f"/games/{table.game}/entries/{layoff}/edit").get_data(as_text=True)
    # It asks the game, as saving the correction would (not the cards alone).
    assert f'data-check="/games/{table.game}/entries/{layoff}/check"' in page
    assert "data-preview" in page and 'data-t-layoff="Layoff {cards} → {meld}: {value}"' in page
    onto = re.search(r'data-onto="([^"]*)"', page)
    assert onto is not None
    lying = json.loads(html.unescape(onto.group(1)))
    assert list(lying.values()) == ["J♦ Q♦ K♦"]  # the meld as it lay then, without the A♦


# --- 8. play again continues the deal -------------------------------------------------------


def test_play_again_chooses_as_first_dealer_whoever_would_have_dealt_next(
    client: FlaskClient,
) -> None:
    table = win_session(client)  # Ann dealt game 1
    form = client.get(f"/?again={table.session}").get_data(as_text=True)
    assert re.search(r'<option selected value="1">Player 2</option>', form)


# --- 9. without JavaScript: a meld chosen and "Record meld" tapped --------------------------


def test_record_meld_with_a_meld_chosen_on_the_table_says_to_use_record_layoff(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "jd qd kd")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    form = form_to(page, "/melds")
    assert any(action.endswith("/layoffs") for action in form.button_actions)
    onto = meld_id(app, table, 1)
    answer = client.post(
        form.action,
        data={**form.fields, "player": table.players["Bob"], "meld": onto, "cards": "ad"},
    )
    assert answer.status_code == 422
    shown = answer.get_data(as_text=True)
    assert "tap “Record layoff” to lay these cards off onto it" in text(shown)
    assert re.search(rf'name="meld" value="{onto}" id="meld-{onto}"[^>]*checked', shown)
    assert re.search(r'name="cards"[^>]*value="ad"', shown)
    assert len(entries(app, table.game)) == 1


# --- 10. words -------------------------------------------------------------------------------


def alerts(page: str) -> list[str]:
    found = re.findall(r'role="alert">([^<]*)<', page)
    return [" ".join(html.unescape(said).split()) for said in found]


def test_a_target_of_two_and_a_half_is_refused_in_one_sentence(client: FlaskClient) -> None:
    answer = client.post("/sessions", data={"names-0": "Ann", "names-1": "Bob", "target": "2.5"})
    assert answer.status_code == 422
    assert alerts(answer.get_data(as_text=True)) == [
        "The target must be a whole number of points, e.g. 500."
    ]


def test_the_form_takes_the_targets_the_api_takes(client: FlaskClient) -> None:
    api = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"], "target": 2_000_000})
    assert api.status_code == 201
    answer = client.post(
        "/sessions", data={"names-0": "Ann", "names-1": "Bob", "target": "2000000"}
    )
    assert answer.status_code == 302, alerts(answer.get_data(as_text=True))


def test_an_empty_session_form_asks_for_the_players_once(client: FlaskClient) -> None:
    answer = client.post("/sessions", data={"target": ""})
    assert answer.status_code == 422
    assert alerts(answer.get_data(as_text=True)) == ["Enter the players' names, in seating order."]


def test_a_layoff_onto_ones_own_meld_says_their_own_meld(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "jd qd kd")
    answer = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Ann"], "meld": meld_id(app, table, 1), "cards": "ad"},
        follow_redirects=True,
    )
    said = text(answer.get_data(as_text=True))
    assert "Ann: A♦ laid off onto their own meld (now J♦ Q♦ K♦ A♦)" in said
    assert "onto Ann's meld" not in said


def test_a_layoff_onto_ones_own_meld_in_german_says_die_eigene_kombination(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    client.get("/language/de")
    meld(client, table, "Ann", "jd qd kd")
    answer = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Ann"], "meld": meld_id(app, table, 1), "cards": "ad"},
        follow_redirects=True,
    )
    assert "an die eigene Kombination angelegt" in text(answer.get_data(as_text=True))


def test_the_live_check_has_words_for_several_aces_in_a_set(client: FlaskClient) -> None:
    table = start(client)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert 'data-t-aces-set="{count} aces in a set: {value} each"' in page


# --- 11. a session off this phone's list ----------------------------------------------------


def test_a_session_can_be_taken_off_this_phones_list_and_stays_for_the_others(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    other = second_phone(app, client, table)
    home = client.get("/").get_data(as_text=True)
    forget = form_to(home, f"/sessions/{table.session}/forget")
    answer = client.post(forget.action, data=forget.fields, follow_redirects=True)
    page = answer.get_data(as_text=True)
    assert "The session is off this phone's list." in text(page)
    assert f"/sessions/{table.session}" not in page
    assert client.get(f"/sessions/{table.session}").status_code == 404  # no key here now
    assert other.get(f"/sessions/{table.session}").status_code == 200  # the other phone keeps it
