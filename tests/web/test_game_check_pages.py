"""The game page's live check (POST /games/<id>/check): the entry begun, checked on the table."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

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
