"""What typed card words mean, asked by the finish and correction pages (POST /games/<id>/read).

The script reads no words: the server reads them as recording would and the page shows that.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.i18n import LANGUAGE_COOKIE
from tests.helpers import entries, meld, meld_id, start


def test_herz_as_and_ace_of_hearts_are_read_as_the_ace_of_hearts(client: FlaskClient) -> None:
    table = start(client)
    for typed in ("Herz As", "hearts ace", "ace of hearts", "ah"):
        response = client.post(f"/games/{table.game}/read", json={"cards": typed})
        assert response.status_code == 200
        assert response.get_json() == {"cards": ["A♥"]}, typed
    hand = client.post(f"/games/{table.game}/read", json={"cards": "Pik-Dame, 7s 7h"})
    assert hand.get_json() == {"cards": ["Q♠", "7♠", "7♥"]}
    # Read by the game's rule system: Treppenrommé is played without jokers.
    joker = client.post(f"/games/{table.game}/read", json={"cards": "7s JKR"}).get_json()
    assert joker["cards"] == []
    assert "joker" in joker["error"]


def test_a_word_that_names_no_card_is_said_in_the_pages_language_and_nothing_is_written(
    client: FlaskClient, app: Flask
) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "de")
    table = start(client)
    meld(client, table, "Ann", "Q♣ K♣ A♣")
    answer = client.post(f"/games/{table.game}/read", json={"cards": "Herz Elf"}).get_json()
    assert answer["cards"] == []
    assert "Herz" in answer["error"]
    assert len(entries(app, table.game)) == 1
    assert client.post(f"/games/{table.game}/read", json={"text": 5}).status_code == 400


def test_reading_needs_the_edit_key_and_the_pages_name_where_to_ask(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "Q♣ K♣ A♣")
    finish = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    assert f'data-read="/games/{table.game}/read"' in finish
    assert "data-heard" in finish
    entry = meld_id(app, table, 1)
    correct = client.get(f"/games/{table.game}/entries/{entry}/edit").get_data(as_text=True)
    assert f'data-read="/games/{table.game}/read"' in correct
    stranger = client.application.test_client()
    assert stranger.post(f"/games/{table.game}/read", json={"cards": "ah"}).status_code == 404


def test_with_csrf_on_reading_needs_no_form_token_as_the_finish_page_has_none(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    app.config["WTF_CSRF_ENABLED"] = True  # as in production
    read = client.post(f"/games/{table.game}/read", json={"cards": "Herz As"})
    assert read.status_code == 200
    assert read.get_json() == {"cards": ["A♥"]}
    # The game's check still needs the page's token.
    check = client.post(f"/games/{table.game}/check", json={"cards": "ah"})
    assert check.status_code == 400
