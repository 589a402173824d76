"""POST /api/v1/games/<id>/check: an entry checked against the game as it lies, nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


class Game:
    """A German Rummy game of Ann and Bob through the API (opening at 40, two packs)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        body = {"players": ["Ann", "Bob"], "variant": "german_rummy"}
        self.session = ok(client.post(f"{API}/sessions", json=body), 201)
        self.ann, self.bob = (player["id"] for player in self.session["players"])
        self.id = ok(client.post(f"{API}/sessions/{self.session['id']}/games"), 201)["id"]

    def record(self, player: int, *melds: str) -> dict[str, Any]:
        body = {"player": player, "melds": list(melds)}
        return ok(self.client.post(f"{API}/games/{self.id}/melds", json=body), 201)

    def check(self, **body: Any) -> dict[str, Any]:
        return ok(self.client.post(f"{API}/games/{self.id}/check?lang=de", json=body))

    def entries(self) -> list[Any]:
        game = ok(self.client.get(f"{API}/games/{self.id}"))
        return list(game["entries"])


def test_an_opening_under_the_minimum_is_no_tick_and_says_what_recording_would(
    client: FlaskClient,
) -> None:
    game = Game(client)
    low = game.check(player=game.ann, cards="qc kc ac")
    assert low["valid"] is False
    assert low["opening_value"] == 31
    assert low["cards"] == ["Q♣", "K♣", "A♣"]
    assert "40" in low["error"]
    both = game.check(player=game.ann, melds=["Q♣ K♣ A♣", "3♦ 3♥ 3♠"])
    assert both["valid"] is True
    assert both["opening_value"] == 40
    assert [meld["cards"] for meld in both["melds"]] == [["Q♣", "K♣", "A♣"], ["3♠", "3♥", "3♦"]]
    assert game.entries() == []


def test_a_card_whose_copies_are_on_the_table_is_refused_as_recording_refuses_it(
    client: FlaskClient,
) -> None:
    game = Game(client)
    game.record(game.ann, "K♣ K♦ K♥ K♠")
    game.record(game.ann, "J♣ Q♣ K♣")
    answer = game.check(player=game.ann, cards="kc kd ks")
    assert answer["valid"] is False
    recorded = client.post(
        f"{API}/games/{game.id}/melds?lang=de", json={"player": game.ann, "cards": "kc kd ks"}
    )
    assert answer["error"] == refused(recorded, 422)
    assert "K♣" in answer["error"]


def test_a_layoff_before_the_opening_and_a_swap_are_checked_on_the_table(
    client: FlaskClient,
) -> None:
    game = Game(client)
    opening = game.record(game.ann, "6♠ 6♥ JKR", "9♣ 10♣ J♣ Q♣")
    onto = opening["melds"][1]["id"]
    before = game.check(player=game.bob, onto=onto, cards="kc")
    assert before["valid"] is False
    assert "Bob" in before["error"]
    assert before["added"] == ["K♣"]
    laid = game.check(player=game.ann, onto=onto, cards="kc")
    assert laid["valid"] is True
    assert laid["cards"] == ["9♣", "10♣", "J♣", "Q♣", "K♣"]
    swapped = game.check(
        player=game.ann, onto=opening["melds"][0]["id"], cards="6c", new_meld="8h jkr 10h"
    )
    assert swapped["valid"] is True
    assert swapped["new_meld"]["cards"] == ["8♥", "JKR", "10♥"]
    nowhere = {"player": game.ann, "onto": 99999, "cards": "kc"}
    assert "Tisch" in refused(
        client.post(f"{API}/games/{game.id}/check?lang=de", json=nowhere), 422
    )
    assert len(game.entries()) == 1


def test_the_view_key_may_check_and_a_stranger_learns_nothing(client: FlaskClient) -> None:
    game = Game(client)
    view = {"Authorization": f"Bearer {game.session['view_key']}"}
    answer = client.post(
        f"{API}/games/{game.id}/check", json={"player": game.ann, "cards": "qc kc ac"}, headers=view
    )
    assert ok(answer)["valid"] is False
    stranger = {"Authorization": "Bearer nothing"}
    refused(
        client.post(f"{API}/games/{game.id}/check", json={"cards": "qc"}, headers=stranger), 404
    )


def test_bad_input_is_a_clear_422(client: FlaskClient) -> None:
    game = Game(client)
    check = f"{API}/games/{game.id}/check"
    assert "player" in refused(client.post(check, json={"player": "Ann", "cards": "qc"}), 422)
    refused(client.post(check, json={"player": 99999, "cards": "qc kc ac"}), 422)
    refused(client.post(check, json={"player": game.ann, "cards": "Herz Elf"}), 422)
    refused(client.post(check, json={"player": game.ann, "cards": "qc", "melds": ["kc"]}), 422)
