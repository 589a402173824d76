"""The correction page's check asks the game: ✓ only for what saving the correction accepts."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import PageTable, lay_off, meld_id, opened, start, start_german_rummy

JSON = {"Accept": "application/json"}


def a_layoff_by_ann(app: Flask, client: FlaskClient) -> tuple[PageTable, int, int]:
    """German Rummy: Ann opens and lays J♣ off onto her K♣ A♣; Bob has not opened."""
    table = start_german_rummy(client)
    opened(client, table, "Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠")
    onto = meld_id(app, table, 1)
    lay_off(client, table, "Ann", onto, "J♣")
    return table, onto, meld_id(app, table, 3)


def check(client: FlaskClient, table: PageTable, entry: int, **body: object) -> dict:
    response = client.post(f"/games/{table.game}/entries/{entry}/check", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    assert isinstance(answer, dict)
    return answer


def test_the_check_says_yes_to_a_correction_saving_would_accept(
    app: Flask, client: FlaskClient
) -> None:
    table, onto, layoff = a_layoff_by_ann(app, client)
    answer = check(client, table, layoff, cards="J♣", player=table.players["Ann"], meld=onto)
    assert answer["valid"] is True
    assert answer["added"] == ["J♣"]
    assert answer["cards"] == ["J♣", "Q♣", "K♣", "A♣"]


def test_the_check_refuses_what_saving_would_refuse_the_opening_not_yet_put_down(
    app: Flask, client: FlaskClient
) -> None:
    table, onto, layoff = a_layoff_by_ann(app, client)
    # The rules alone see a good layoff; the game knows Bob has not opened (G3).
    answer = check(client, table, layoff, cards="J♣", player=table.players["Bob"], meld=onto)
    assert answer["valid"] is False
    assert "Bob" in answer["error"] and "opening" in answer["error"]
    saved = client.post(
        f"/games/{table.game}/entries/{layoff}/edit",
        data={"player": table.players["Bob"], "meld": onto, "cards": "J♣"},
    )
    assert saved.status_code in (409, 422)
    assert answer["error"] in saved.get_data(as_text=True).replace("&#39;", "'")


def test_the_check_refuses_a_card_already_on_the_table_and_cards_it_cannot_read(
    app: Flask, client: FlaskClient
) -> None:
    table = start(client)
    opened_page = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": "qc kc ac"}
    )
    assert opened_page.status_code == 302
    client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "7h 7d 7s"}
    )
    first = meld_id(app, table, 1)
    assert check(client, table, first, cards="7♥ 8♥ 9♥")["valid"] is False
    assert check(client, table, first, cards="J♣ Q♣ K♣")["valid"] is True
    unread = check(client, table, first, cards="nonsense")
    assert unread["valid"] is False and unread["error"]
    wrong = client.post(f"/games/{table.game}/entries/{first}/check", json={"player": 1.5})
    assert wrong.status_code == 422


def test_a_refused_correction_is_answered_in_place_and_a_saved_one_goes_back_to_the_game(
    app: Flask, client: FlaskClient
) -> None:
    table, onto, layoff = a_layoff_by_ann(app, client)
    address = f"/games/{table.game}/entries/{layoff}/edit"
    refused = client.post(
        address, data={"player": table.players["Bob"], "meld": onto, "cards": "J♣"}, headers=JSON
    )
    assert refused.status_code == 200
    said = refused.get_json()
    assert said["refused"] is True and "opening" in said["error"]
    saved = client.post(
        address, data={"player": table.players["Ann"], "meld": onto, "cards": "J♣"}, headers=JSON
    )
    assert saved.status_code == 200
    assert saved.get_json()["to"].endswith(f"/sessions/{table.session}#game")
