"""German Rummy's amended rulings through the JSON API: two jokers in a set (G1), the dealer's
Hand-Rommé (G6) and both aces of a suit in one sequence (G9)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

SPADES_2_TO_K = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"
# Twelve cards worth 60 towards the opening: what a dealer puts down going out at once.
TWELVE = ["9♥ 10♥ J♥ Q♥ K♥ A♥", "5♠ 5♥ 5♦", "7♣ 8♣ 9♣"]


class Rommé:
    """A German Rummy game of Ann, Bob and Cid through the API; Ann deals and plays first."""

    def __init__(self, client: FlaskClient, **extra: Any) -> None:
        self.client = client
        body = {"players": ["Ann", "Bob", "Cid"], "variant": "german_rummy", **extra}
        session = ok(client.post(f"{API}/sessions", json=body), 201)
        self.ids = {player["name"]: player["id"] for player in session["players"]}
        self.game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"{API}/games/{self.game['id']}/{path}", json=body)

    def melds(self, name: str, *melds: str) -> dict[str, Any]:
        return ok(self.post("melds", {"player": self.ids[name], "melds": list(melds)}), 201)

    def layoff(self, name: str, meld: int, cards: str) -> dict[str, Any]:
        body = {"player": self.ids[name], "meld": meld, "cards": cards}
        return ok(self.post("layoffs", body), 201)

    def read(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/games/{self.game['id']}"))

    def hands(self, **hands: str) -> dict[str, str]:
        return {str(self.ids[name]): cards for name, cards in hands.items()}


def check(client: FlaskClient, **body: Any) -> dict[str, Any]:
    return ok(client.post(f"{API}/check", json={"variant": "german_rummy", **body}))


# --- G1: two jokers beside two natural cards ---------------------------------------------------


def test_the_check_takes_two_jokers_beside_two_natural_cards_as_a_set_worth_24(
    client: FlaskClient,
) -> None:
    checked = check(client, cards="6♠ 6♥ JKR JKR")
    assert checked["valid"], checked
    assert (checked["kind"], checked["cards"], checked["opening_value"]) == (
        "set",
        ["6♠", "6♥", "JKR", "JKR"],
        24,
    )
    assert not check(client, cards="6♠ JKR JKR")["valid"]


def test_a_set_of_two_jokers_is_recorded_and_gives_up_one_joker_in_a_swap(
    client: FlaskClient,
) -> None:
    table = Rommé(client)
    opened = table.melds("Ann", "6♠ 6♥ JKR JKR", "10♦ J♦ Q♦")
    set_id = opened["melds"][0]["id"]
    assert opened["melds"][0]["cards"] == ["6♠", "6♥", "JKR", "JKR"]
    body = {"player": table.ids["Ann"], "meld": set_id, "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    ok(table.post("swaps", body), 201)
    lying = {meld["id"]: meld["cards"] for meld in table.read()["melds"]}
    assert lying[set_id] == ["6♠", "6♥", "6♣", "JKR"]


def test_a_joker_said_in_a_set_of_two_jokers_is_kept_and_a_swap_takes_the_other(
    client: FlaskClient,
) -> None:
    table = Rommé(client)
    opened = table.melds("Ann", "6♠ 6♥ JKR=6♦ JKR", "10♦ J♦ Q♦")
    set_id = opened["melds"][0]["id"]
    said = [{"index": 2, "as": ["6♦"]}, {"index": 3, "as": ["6♣"]}]
    assert opened["melds"][0]["jokers"] == said
    assert table.read()["melds"][0]["jokers"] == said
    body = {"player": table.ids["Ann"], "meld": set_id, "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    ok(table.post("swaps", body), 201)
    lying = {meld["id"]: meld["cards"] for meld in table.read()["melds"]}
    assert lying[set_id] == ["6♠", "6♥", "6♣", "JKR"]
    assert table.read()["melds"][0]["jokers"] == [{"index": 3, "as": ["6♦"]}]


# --- G6: the dealer's Hand-Rommé ---------------------------------------------------------------


def test_the_dealer_who_goes_out_at_once_with_twelve_cards_has_a_hand_rommé(
    client: FlaskClient,
) -> None:
    table = Rommé(client, rules={"hand_romme_doubles": True})
    assert table.game["first_player"] == table.ids["Ann"]
    table.melds("Ann", *TWELVE)
    body = {"winner": table.ids["Ann"], "hands": table.hands(Bob="9♣", Cid="4♦")}
    preview = ok(table.post("settlement", body))
    assert preview["romme_possible"], preview["romme_reason"]
    finished = ok(table.post("finish", body))
    assert finished["romme"] is True
    assert finished["settlement"] == table.hands(Ann=0, Bob=-18, Cid=-8)  # type: ignore[arg-type]


def test_eleven_cards_of_the_dealer_are_no_hand_rommé_and_say_why(client: FlaskClient) -> None:
    table = Rommé(client)
    table.melds("Ann", "8♥ 9♥ 10♥ J♥ Q♥", "5♠ 5♥ 5♦", "7♣ 8♣ 9♣")
    body = {"winner": table.ids["Ann"], "hands": table.hands(Bob="9♣", Cid="4♦"), "romme": True}
    error = refused(table.post("finish", body), 422)
    assert "at least 12 of the 13 cards dealt" in error


def test_twelve_cards_of_a_player_who_did_not_play_first_are_no_hand_rommé(
    client: FlaskClient,
) -> None:
    table = Rommé(client)
    table.melds("Bob", *TWELVE)
    body = {"winner": table.ids["Bob"], "hands": table.hands(Ann="9♣", Cid="4♦")}
    preview = ok(table.post("settlement", body))
    assert not preview["romme_possible"]
    assert "at least the 13 cards dealt" in preview["romme_reason"]


# --- G9: both aces of a suit in one sequence ---------------------------------------------------

BOTH_ACES = ["A♠", *SPADES_2_TO_K.split(), "A♠"]


def test_the_check_takes_both_aces_of_a_suit_as_a_sequence_worth_96(client: FlaskClient) -> None:
    checked = check(client, cards=" ".join(BOTH_ACES))
    assert checked["valid"], checked
    assert (checked["cards"], checked["opening_value"]) == (BOTH_ACES, 96)
    assert [ace["position"] for ace in checked["aces"]] == ["low", "high"]


def test_the_check_refuses_fifteen_cards_of_a_suit_saying_a_sequence_holds_at_most_14(
    client: FlaskClient,
) -> None:
    checked = check(client, cards=" ".join([*BOTH_ACES, "JKR"]))
    assert not checked["valid"]
    assert "a sequence holds at most 14 cards" in checked["error"]
    assert "13" not in checked["error"]
    body = {"variant": "german_rummy", "cards": " ".join([*BOTH_ACES, "JKR"])}
    german = ok(client.post(f"{API}/check?lang=de", json=body))
    assert "eine Folge hat höchstens 14 Karten" in german["error"]


def test_a_sequence_of_both_aces_is_melded_as_an_opening(client: FlaskClient) -> None:
    table = Rommé(client)
    melded = table.melds("Ann", " ".join(BOTH_ACES))
    assert melded["melds"][0]["cards"] == BOTH_ACES
    assert table.read()["melds"][0]["cards"] == BOTH_ACES


@pytest.mark.parametrize(
    "layoffs",
    [
        pytest.param(["A♠", "A♠"], id="one ace after the other"),
        pytest.param(["A♠ A♠"], id="both aces at once"),
    ],
)
def test_an_ace_laid_off_at_each_end_of_two_to_king_lies_there(
    client: FlaskClient, layoffs: list[str]
) -> None:
    table = Rommé(client)
    meld_id = table.melds("Ann", SPADES_2_TO_K, "5♥ 5♦ 5♣")["melds"][0]["id"]
    for cards in layoffs:
        table.layoff("Ann", meld_id, cards)
    lying = {meld["id"]: meld["cards"] for meld in table.read()["melds"]}
    assert lying[meld_id] == BOTH_ACES
    # Both copies lie on the table: a third A♠ is not in the packs.
    body = {"player": table.ids["Ann"], "cards": "A♠ A♥ A♦"}
    assert "A♠" in refused(table.post("melds", body), 422)
