"""German Rummy's pages: house rules, an opening of several melds, jokers, swaps, minus points."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.models import Entry
from tests.helpers import (
    API,
    FOUR,
    book,
    finish_data,
    meld_id,
    melds,
    ok,
    opened,
    session_page,
    start_boathouse,
    text,
    totals,
)
from tests.helpers import PageTable as Table
from tests.helpers import start_german_rummy as start
from tests.rows import count


def test_the_start_page_offers_german_rummy_with_its_house_rules(client: FlaskClient):
    page = client.get("/").get_data(as_text=True)
    assert 'value="german_rummy"' in page
    assert "German Rummy 2 to 6" in text(page)
    assert 'name="end" id="end-1" value="limit"' in page
    assert 'name="limit"' in page
    assert re.search(r'<input [^>]*name="opening"[^>]*value="40"', page)
    for value in ("30", "25", "20"):
        assert 'name="joker_in_hand" id="joker_in_hand-' in page and f'value="{value}"' in page
    assert 'name="hand_romme_doubles" id="hand_romme_doubles-0" value="no" checked' in page
    assert 'name="joker_swap_from_set" id="joker_swap_from_set-1" value="four"' in page
    client.get("/language/de")
    german = text(client.get("/").get_data(as_text=True))
    assert "Rommé 2 bis 6" in german
    assert "bei einer Grenze an Minuspunkten" in german


def test_german_rummy_is_started_with_its_house_rules_and_says_them(
    client: FlaskClient, app: Flask
):
    table = start(
        client,
        names=(*FOUR, "Eve", "Fay"),
        limit="-300",
        opening="30",
        joker_in_hand="25",
        hand_romme_doubles="yes",
        joker_swap_from_set="four",
    )
    with app.app_context():
        variant = services.variant_of(services.get_session(table.session_pk))
    assert variant.house_rules == {
        "end": {"limit": -300},
        "opening": 30,
        "joker_in_hand": 25,
        "hand_romme_doubles": True,
        "joker_swap_from_set": "four",
    }
    page = session_page(client, table)
    assert "Ann deals 13 cards each and plays first." in page
    assert (
        "German Rummy · until a total reaches -300 · opening at least 30 · a joker in a hand"
        " 25 points · a Hand-Rommé doubles the minus points · a joker leaves a set only for"
        " four natural cards"
    ) in page
    client.get("/language/de")
    assert "Rommé · bis ein Stand -300 erreicht · erstes Auslegen mindestens 30" in session_page(
        client, table
    )


def test_german_rummy_left_as_it_comes_ends_at_minus_500_and_opens_at_40(
    client: FlaskClient, app: Flask
):
    table = start(client)
    with app.app_context():
        variant = services.variant_of(services.get_session(table.session_pk))
    assert variant.house_rules["end"] == {"limit": -500}
    assert variant.opening_minimum() == 40
    assert "Session until a total reaches -500" in session_page(client, table)
    assert "until a total reaches -500" in text(client.get("/").get_data(as_text=True))


def test_melds_put_down_together_are_deleted_whole_and_never_corrected(
    client: FlaskClient, app: Flask
):
    table = start(client)
    opened(client, table, "Ann", "3d 3h 3s", "qc kc ac")
    first = meld_id(app, table, 1)
    page = text(client.get(f"/games/{table.game}/entries/{first}/edit").get_data(as_text=True))
    assert "3♠ 3♥ 3♦ + Q♣ K♣ A♣ (0 points)" in page
    assert "are not corrected: delete the entry and record it anew" in page
    assert "Save the correction" not in page
    response = client.post(f"/games/{table.game}/entries/{first}/delete", follow_redirects=True)
    assert "Deleted: Ann: set 3♠ 3♥ 3♦ + sequence Q♣ K♣ A♣ — 0 points" in text(
        response.get_data(as_text=True)
    )
    assert count(app, Entry) == 0


def test_german_rummy_played_to_a_target_is_refused_with_the_reason(
    client: FlaskClient, app: Flask
):
    data = {f"names-{seat}": name for seat, name in enumerate(FOUR)}
    response = client.post(
        "/sessions", data={**data, "variant": "german_rummy", "end": "target", "target": "500"}
    )
    assert response.status_code == 422
    page = text(response.get_data(as_text=True))
    assert "German Rummy is not played to a target: choose a limit or a number of games." in page


def test_an_opening_of_two_melds_is_recorded_together_as_one_entry(client: FlaskClient, app: Flask):
    table = start(client)
    response = melds(client, table, "Ann", "3d 3h 3s", "qc kc ac")
    page = text(client.get(response.location).get_data(as_text=True))
    assert "Ann: set 3♠ 3♥ 3♦ + sequence Q♣ K♣ A♣ — 0 points" in page
    assert "Ann melds 3♠ 3♥ 3♦ + Q♣ K♣ A♣ 0 points" in page
    with app.app_context():
        rows = services.read_game(table.game).entries
    assert [row.group_id for row in rows] == [None, rows[0].id]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Q♣ K♣ A♣ is worth 31; an opening needs at least 40."),
        ("de", "das erste Auslegen braucht mindestens 40"),
    ],
)
def test_an_opening_of_31_is_refused_and_nothing_is_saved(
    client: FlaskClient, app: Flask, language: str, said: str
):
    table = start(client)
    client.get(f"/language/{language}")
    response = melds(client, table, "Ann", "qc kc ac", status=422)
    page = text(response.get_data(as_text=True))
    assert "31" in page and "40" in page
    assert said in page
    assert count(app, Entry) == 0


def test_an_opening_refused_keeps_the_melds_typed(client: FlaskClient, app: Flask):
    table = start(client)
    response = melds(client, table, "Ann", "2d 3d 4d", "jc qc kc", status=422)
    page = response.get_data(as_text=True)
    assert "2d 3d 4d</textarea>" in page
    assert '<details class="more-melds" data-more-melds open>' in page
    assert count(app, Entry) == 0


def test_a_layoff_before_the_opening_is_refused(client: FlaskClient, app: Flask):
    table = start(client)
    opened(client, table, "Ann", "10h jh qh kh")
    onto = meld_id(app, table, 1)
    response = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Bob"], "meld": onto, "cards": "9h"},
    )
    assert response.status_code == 422
    assert "Bob has not opened yet: there is no layoff before the opening." in text(
        response.get_data(as_text=True)
    )
    assert count(app, Entry) == 1


def test_a_joker_in_doubt_is_refused_with_the_cards_it_can_stand_for(
    client: FlaskClient, app: Flask
):
    table = start(client, opening="0")
    response = melds(client, table, "Ann", "5s 6s jkr", status=422)
    page = text(response.get_data(as_text=True))
    assert "a joker can stand for" in page
    assert "4♠" in page and "7♠" in page
    assert count(app, Entry) == 0
    page = opened(client, table, "Ann", "5s 6s jkr=7s")
    assert "5♠ 6♠ JKR=7♠" in page


def test_the_picker_counts_two_copies_and_the_jokers_left(client: FlaskClient, app: Flask):
    table = start(client, opening="0")
    opened(client, table, "Ann", "6s 6h jkr")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert re.search(r'data-card="6♠"[^>]*data-left="1"', page)
    assert re.search(r'data-card="7♠"[^>]*data-left="2"', page)
    assert re.search(r'data-card="JKR"[^>]*data-left="5"', page)
    opened(client, table, "Bob", "6s 6d 6c")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert re.search(r'data-card="6♠"[^>]*data-left="0" disabled', page)


def test_treppenromme_keeps_its_one_pack_picker_without_jokers(client: FlaskClient):
    table = start_boathouse(client, ("Ann", "Bob"), variant="treppenromme", target="500")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert 'data-card="JKR"' not in page
    assert "data-left" not in page
    assert "Crossed-out cards are already on the table." in page


def test_a_joker_is_swapped_from_a_set_into_a_new_meld(client: FlaskClient, app: Flask):
    table = start(client, opening="0")
    opened(client, table, "Ann", "6s 6h jkr")
    opened(client, table, "Bob", "2c 3c 4c")
    onto = meld_id(app, table, 1)
    response = client.post(
        f"/games/{table.game}/swaps",
        data={
            "player": table.players["Bob"],
            "meld": onto,
            "cards": "6c",
            "new_meld": "8h jkr 10h",
        },
        follow_redirects=True,
    )
    assert response.status_code == 200
    page = text(response.get_data(as_text=True))
    assert (
        "Bob: 6♣ put in for the joker in Ann's meld (now 6♠ 6♥ 6♣);"
        " the joker went into 8♥ JKR=9♥ 10♥" in page
    )
    assert "joker swap 6♣ → 6♠ 6♥ JKR the joker → 8♥ JKR=9♥ 10♥" in page


def test_a_swap_the_rules_refuse_says_why_before_anything_is_saved(client: FlaskClient, app: Flask):
    table = start(client, opening="0")
    opened(client, table, "Ann", "6s 6h jkr")
    onto = meld_id(app, table, 1)
    response = client.post(
        f"/games/{table.game}/swaps",
        data={
            "player": table.players["Bob"],
            "meld": onto,
            "cards": "6c",
            "new_meld": "8h jkr 10h",
        },
    )
    assert response.status_code == 422
    assert "Bob has not opened yet: there is no joker swap before the opening." in text(
        response.get_data(as_text=True)
    )
    assert count(app, Entry) == 1
    no_new_meld = client.post(
        f"/games/{table.game}/swaps",
        data={"player": table.players["Ann"], "meld": onto, "cards": "6c", "new_meld": ""},
    )
    assert no_new_meld.status_code == 422
    page = text(no_new_meld.get_data(as_text=True))
    assert "Tap or type the cards of the new meld, the joker included." in page
    assert count(app, Entry) == 1


def test_a_hand_with_a_joker_books_minus_41_and_the_settlement_explains_it(
    client: FlaskClient, app: Flask
):
    table = start(client, opening="0")
    opened(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "as jkr", "Cid": "7h 7h", "Dan": "2c"})
    response = client.post(f"/games/{table.game}/finish", data=data)
    assert response.status_code == 200, text(response.get_data(as_text=True))
    page = text(response.get_data(as_text=True))
    assert "Bob A♠ JKR = 41 -41" in page
    assert "Cid 7♥ 7♥ = 14 -14" in page
    assert (
        "every other player books minus the cards left in their hand (an ace 11, a joker 30)"
        in page
    )
    booked = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    page = text(client.get(booked.location).get_data(as_text=True))
    assert "Game 1 is over: Ann went out; Bob books -41, Cid books -14, Dan books -2." in page
    assert totals(app, table.session_pk) == {"Ann": 0, "Bob": -41, "Cid": -14, "Dan": -2}


def test_a_hand_romme_doubles_the_minus_points_by_house_rule(client: FlaskClient, app: Flask):
    table = start(client, opening="0", hand_romme_doubles="yes")
    opened(client, table, "Bob", "2c 3c 4c")
    # A Hand-Rommé puts down all 13 cards dealt in one turn.
    opened(client, table, "Ann", "qc kc ac", "2h 3h 4h 5h", "7s 7h 7d", "9c 10c jc")
    data = finish_data(table, "Ann", {"Bob": "as jkr", "Cid": "9h", "Dan": "2c"})
    page = text(client.post(f"/games/{table.game}/finish", data=data).get_data(as_text=True))
    assert "= 41 × 2 = 82 -82" in page
    assert "A Hand-Rommé: under the rules of this session the minus points count double." in page


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_standing_is_in_minus_points_with_the_fewest_at_the_top(
    client: FlaskClient, app: Flask, language: str
):
    table = start(client, opening="0")
    opened(client, table, "Ann", "qc kc ac")
    book(client, table, finish_data(table, "Ann", {"Bob": "as jkr", "Cid": "7h", "Dan": "2c"}))
    client.get(f"/language/{language}")
    page = session_page(client, table)
    to_go = "Bis -500" if language == "de" else "To -500"
    assert to_go in page
    # Bob deals the next game: the tag stands between his name and his total.
    assert re.search(r"Ann 0 500 Dan -2 498 Cid -7 493 Bob \w+ -41 459", page)
    history = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "Ann 0 · Dan -2 · Cid -7 · Bob -41" in history
    assert "A♠ JKR = 41: -41" in history


def test_the_game_shows_no_line_of_zeros_where_melds_score_nothing(client: FlaskClient) -> None:
    for variant, shown in (
        ("german_rummy", False),
        ("boathouse_rum", False),
        ("treppenromme", True),
    ):
        body = {"players": ["Ann", "Bob"], "variant": variant}
        session = ok(client.post(f"{API}/sessions", json=body), 201)
        ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
        client.get(f"/sessions/{session['id']}?key={session['edit_key']}")
        page = client.get(f"/sessions/{session['id']}").get_data(as_text=True)
        assert ("Points in this game:" in page) is shown, variant


def test_a_layoff_after_a_joker_swap_shows_its_meld_as_it_lay_without_the_joker(
    client: FlaskClient, app: Flask
):
    table = start(client, opening="0")
    opened(client, table, "Ann", "5s 6s jkr=7s")
    opened(client, table, "Bob", "2c 3c 4c")
    onto = meld_id(app, table, 1)
    swap = {"player": table.players["Bob"], "meld": onto, "cards": "7s", "new_meld": "8h jkr 10h"}
    assert client.post(f"/games/{table.game}/swaps", data=swap).status_code == 302
    layoff = {"player": table.players["Bob"], "meld": onto, "cards": "4s 8s"}
    assert client.post(f"/games/{table.game}/layoffs", data=layoff).status_code == 302

    for page in (session_page(client, table), history_page(client, table)):
        assert "joker swap 7♠ → 5♠ 6♠ JKR=7♠" in page
        assert "layoff 4♠ 8♠ → 5♠ 6♠ 7♠" in page


def history_page(client: FlaskClient, table: Table) -> str:
    """Return the words of the session's history page."""
    return text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))


@pytest.mark.parametrize(
    ("language", "app_name", "to_go"),
    [("en", "Rummy scorekeeper", "To -500"), ("de", "Rommé-Schreiber", "Bis -500")],
)
def test_the_header_names_the_app_and_the_distance_is_said_to_the_limit(
    client: FlaskClient, language: str, app_name: str, to_go: str
):
    table = start(client)
    client.get(f"/language/{language}")
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert f'<a class="brand" href="/">{app_name}</a>' in html
    assert f"· {app_name}</title>" in html
    assert "Treppenrommé" not in html
    assert f'<th scope="col" class="num">{to_go}</th>' in html
    page = text(html)
    assert "Fehlen" not in page and "To go" not in page
