"""The game page's live check (POST /games/<id>/check): the entry begun, checked on the table."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.i18n import LANGUAGE_COOKIE
from tests.helpers import PageTable, entries, meld, meld_id, start


def start_german_rummy(client: FlaskClient) -> PageTable:
    """Start a German Rummy session of Ann and Bob through the start page's form."""
    return start(client, ("Ann", "Bob"), target="", variant="german_rummy", end="limit", limit="")


def check(client: FlaskClient, table: PageTable, status: int = 200, **body: Any) -> Any:
    response = client.post(f"/games/{table.game}/check", json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def test_an_opening_of_31_of_40_is_no_tick_in_the_pages_language(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "de")
    table = start_german_rummy(client)
    low = check(client, table, player=table.players["Ann"], cards="Q♣ K♣ A♣")
    assert low["valid"] is False
    assert low["opening_value"] == 31
    assert "40" in low["error"]
    assert "erste Auslegen" in low["error"]
    both = check(client, table, player=table.players["Ann"], melds=["Q♣ K♣ A♣"], cards="3d 3h 3s")
    assert both["valid"] is True
    assert both["opening_value"] == 40


def test_cards_on_the_table_are_refused_and_the_server_reads_the_words(
    client: FlaskClient, app: Flask
) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "de")
    table = start(client)
    meld(client, table, "Ann", "K♣ K♥ K♠")
    meld(client, table, "Ann", "A♥ A♦ A♠")
    taken = check(client, table, player=table.players["Bob"], cards="kc kd ks")
    assert taken["valid"] is False
    assert "K♣" in taken["error"]
    # "Herz As" is the ace of hearts, on the table already: named so, never as A♠.
    words = check(
        client, table, player=table.players["Bob"], cards="Herz Dame, Herz König, Herz As"
    )
    assert words["valid"] is False
    assert "A♥" in words["error"]
    assert "A♠" not in words["error"]
    layoff = check(
        client, table, player=table.players["Bob"], onto=meld_id(app, table, 1), cards="K♦"
    )
    assert layoff["valid"] is True
    assert layoff["added"] == ["K♦"]
    assert len(entries(app, table.game)) == 2


def test_a_card_word_the_server_cannot_read_is_said_and_a_stranger_is_not_let_in(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    unread = check(client, table, player=table.players["Ann"], cards="Herz Elf")
    assert unread["valid"] is False
    assert unread["error"]
    stranger = app.test_client()
    answer = stranger.post(f"/games/{table.game}/check", json={"cards": "qc kc ac"})
    assert answer.status_code == 404


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"player": "²", "cards": "qc kc ac"}, "player"),  # digits int() cannot read
        ({"player": "١٢", "cards": "qc kc ac"}, "player"),  # Arabic-Indic digits
        ({"player": 10**30, "cards": "qc kc ac"}, "player"),  # more than a database holds
        ({"player": -1, "cards": "qc kc ac"}, "player"),
        ({"player": True, "cards": "qc kc ac"}, "player"),
        ({"player": 1.5, "cards": "qc kc ac"}, "player"),
        ({"onto": "③", "cards": "K♦"}, "onto"),
        ({"onto": [1], "cards": "K♦"}, "onto"),
        ({"melds": 1.5, "cards": "qc kc ac"}, "melds"),
        ({"melds": -1, "cards": "qc kc ac"}, "melds"),
        ({"melds": True}, "melds"),
        ({"melds": "Q♣ K♣ A♣"}, "melds"),
        ({"melds": ["Q♣ K♣ A♣", 3]}, "melds"),
        ({"melds": {"Q♣ K♣ A♣": 1}}, "melds"),
        ({"cards": 7}, "cards"),
        ({"cards": ["Q♣"]}, "cards"),
        ({"onto": 1, "cards": "K♦", "new_meld": 5}, "new_meld"),
    ],
)
def test_a_field_of_the_wrong_kind_is_a_422_in_plain_words_and_changes_nothing(
    client: FlaskClient, app: Flask, body: dict[str, Any], named: str
) -> None:
    table = start(client)
    meld(client, table, "Ann", "K♣ K♥ K♠")
    answer = client.post(f"/games/{table.game}/check", json=body)
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert answer.json is not None and named in answer.json["error"]
    client.set_cookie(LANGUAGE_COOKIE, "de")
    german = client.post(f"/games/{table.game}/check", json=body)
    assert german.status_code == 422
    assert german.json is not None and german.json["error"] != answer.json["error"]
    assert len(entries(app, table.game)) == 1


def test_ids_as_the_page_sends_them_are_read(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "K♣ K♥ K♠")
    onto = str(meld_id(app, table, 1))
    layoff = check(client, table, player=str(table.players["Bob"]), onto=onto, cards="K♦")
    assert layoff["valid"] is True
    several = check(client, table, player=table.players["Bob"], melds=["Q♦ K♦ A♦"], cards="")
    assert several["valid"] is True


# Any JSON value, of the kinds a hostile page or a broken script could send in each field.
ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=8)
    | st.sampled_from(["²", "③", "٣", "1", "0", "-1", "K♦", "qc kc ac", " ", "JKR"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


def test_no_body_makes_the_live_check_fail(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "K♣ K♥ K♠")
    ours = [table.players["Ann"], str(table.players["Bob"]), meld_id(app, table, 1)]
    fields = st.dictionaries(
        st.sampled_from(["player", "cards", "melds", "onto", "new_meld"]),
        ANY_JSON | st.sampled_from(ours),
        max_size=5,
    )
    answers: dict[int, int] = {}

    @settings(max_examples=1000, deadline=None, database=None)
    @given(body=fields | ANY_JSON)
    def send(body: Any) -> None:
        answer = client.post(f"/games/{table.game}/check", json=body)
        answers[answer.status_code] = answers.get(answer.status_code, 0) + 1
        assert answer.status_code in (200, 422), answer.get_data(as_text=True)
        assert answer.json is not None
        if answer.status_code != 200:
            assert answer.json["error"]

    send()
    assert len(entries(app, table.game)) == 1
    assert answers.get(200) and answers.get(422), answers
