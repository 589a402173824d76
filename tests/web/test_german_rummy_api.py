"""German Rummy through the JSON API: jokers, copies, openings, swaps, minus points, the limit."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


class Table:
    """A German Rummy session at the table, its players by name and its current game."""

    def __init__(self, client: FlaskClient, names: list[str], **extra: Any) -> None:
        self.client = client
        body = {"players": names, "variant": "german_rummy", **extra}
        self.session = ok(client.post(f"{API}/sessions", json=body), 201)
        self.ids = {player["name"]: player["id"] for player in self.session["players"]}
        self.game = self.start()

    def start(self) -> dict[str, Any]:
        self.game = ok(self.client.post(f"{API}/sessions/{self.session['id']}/games"), 201)
        return self.game

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"{API}/games/{self.game['id']}/{path}", json=body)

    def melds(self, name: str, *melds: str, status: int = 201) -> dict[str, Any]:
        response = self.post("melds", {"player": self.ids[name], "melds": list(melds)})
        if status < 400:
            return ok(response, status)
        return {"error": refused(response, status)}

    def meld(self, name: str, cards: str) -> dict[str, Any]:
        return ok(self.post("melds", {"player": self.ids[name], "cards": cards}), 201)

    def read(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/games/{self.game['id']}"))

    def finish(self, winner: str, hands: dict[str, str | int], **extra: Any) -> dict[str, Any]:
        body = {
            "winner": self.ids[winner],
            "hands": {str(self.ids[name]): hand for name, hand in hands.items()},
            **extra,
        }
        return ok(self.post("finish", body))

    def by_id(self, points: dict[str, int]) -> dict[str, int]:
        return {str(self.ids[name]): value for name, value in points.items()}


def check(client: FlaskClient, **body: Any) -> dict[str, Any]:
    return ok(client.post(f"{API}/check", json={"variant": "german_rummy", **body}))


# --- the session and its house rules ---------------------------------------------------------


def test_a_german_rummy_session_answers_its_house_rules_and_the_distance_to_the_limit(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    session = table.session
    assert session["variant"] == "german_rummy"
    assert session["rules"] == {
        "end": {"limit": -500},
        "opening": 40,
        "joker_in_hand": 30,
        "hand_romme_doubles": False,
        "joker_swap_from_set": "any",
    }
    assert session["target"] is None
    assert session["to_go"] == {str(player_id): 500 for player_id in table.ids.values()}
    assert table.game["cards_dealt"] == 13


@pytest.mark.parametrize(
    "rules",
    [
        {"opening": -1},
        {"joker_in_hand": 40},
        {"joker_swap_from_set": "two"},
        {"end": {"limit": 500}},
        {"romme_doubling": "loser"},
    ],
)
def test_a_house_rule_german_rummy_does_not_have_is_refused(
    client: FlaskClient, rules: dict[str, Any]
) -> None:
    body = {"players": ["Ann", "Bob"], "variant": "german_rummy", "rules": rules}
    refused(client.post(f"{API}/sessions", json=body), 422)


def test_seven_players_are_refused_and_six_are_seated(client: FlaskClient) -> None:
    names = ["Ann", "Bob", "Cid", "Dora", "Eve", "Fay", "Gus"]
    body = {"players": names, "variant": "german_rummy"}
    refused(client.post(f"{API}/sessions", json=body), 422)
    ok(client.post(f"{API}/sessions", json={**body, "players": names[:6]}), 201)


# --- the check -----------------------------------------------------------------------------


def test_the_check_lists_a_joker_as_jkr_and_says_what_it_stands_for(client: FlaskClient) -> None:
    answer = check(client, cards="J♣ Q♣ JKR A♣")
    assert answer["valid"] is True
    assert answer["cards"] == ["J♣", "Q♣", "JKR", "A♣"]
    assert answer["jokers"] == [{"index": 2, "as": ["K♣"]}]
    assert answer["opening_value"] == 41
    sixes = check(client, cards="6♠ 6♥ joker")
    assert sixes["jokers"] == [{"index": 2, "as": ["6♦", "6♣"]}]
    assert sixes["opening_value"] == 18


def test_a_joker_in_doubt_answers_the_check_with_its_choices(client: FlaskClient) -> None:
    answer = check(client, cards="5♠ 6♠ JKR")
    assert answer["valid"] is False
    assert answer["joker_choices"] == ["4♠", "7♠"]
    assert "4♠" in answer["error"] and "7♠" in answer["error"]
    said = check(client, cards="5♠ 6♠ JKR=7♠")
    assert said["valid"] is True and said["jokers"] == [{"index": 2, "as": ["7♠"]}]


def test_the_check_of_treppenromme_keeps_its_shape_and_refuses_jokers(
    client: FlaskClient,
) -> None:
    answer = ok(client.post(f"{API}/check", json={"cards": "Q♣ K♣ A♣"}))
    assert "jokers" not in answer and "opening_value" not in answer
    assert answer["cards"] == ["Q♣", "K♣", "A♣"]
    refused(client.post(f"{API}/check", json={"cards": "Q♣ K♣ JKR"}), 422)


def test_the_check_of_a_swap_shows_both_melds(client: FlaskClient) -> None:
    answer = check(client, onto="6♠ 6♥ JKR", cards="6♣", new_meld="8♥ JKR 10♥")
    assert answer["valid"] is True
    assert sorted(answer["meld"]["cards"]) == sorted(["6♠", "6♥", "6♣"])
    assert answer["new_meld"]["cards"] == ["8♥", "JKR", "10♥"]
    assert answer["new_meld"]["jokers"] == [{"index": 1, "as": ["9♥"]}]
    four = check(
        client,
        onto="6♠ 6♥ JKR",
        cards="6♣",
        new_meld="8♥ JKR 10♥",
        rules={"joker_swap_from_set": "four"},
    )
    assert four["valid"] is False and "four" in four["error"]


# --- openings, copies and jokers on the table ------------------------------------------------


def test_an_opening_of_thirty_one_is_refused_and_two_melds_open_with_forty(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    low = table.melds("Ann", "Q♣ K♣ A♣", status=422)
    assert "31" in low["error"] and "40" in low["error"]
    assert table.read()["entries"] == []
    opening = table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠")
    assert [sorted(meld["cards"]) for meld in opening["melds"]] == [
        sorted(["Q♣", "K♣", "A♣"]),
        sorted(["3♦", "3♥", "3♠"]),
    ]
    assert opening["value"] == 0  # melds score nothing in German Rummy
    entries = table.read()["entries"]
    assert len(entries) == 1
    assert entries[0]["melds"] == [meld["id"] for meld in opening["melds"]]
    # After the opening a single meld of any value is fine.
    assert table.meld("Ann", "5♥ 6♥ 7♥")["cards"] == ["5♥", "6♥", "7♥"]


def test_the_opening_minimum_is_the_session_s_house_rule(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"opening": 0})
    assert table.meld("Ann", "2♣ 3♣ 4♣")["value"] == 0


def test_a_layoff_or_a_swap_before_the_opening_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    opening = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")
    sixes = opening["melds"][0]["id"]
    layoff = table.post("layoffs", {"player": table.ids["Bob"], "meld": sixes, "cards": "6♦"})
    assert "Bob has not opened yet" in refused(layoff, 422)
    swap = table.post(
        "swaps",
        {"player": table.ids["Bob"], "meld": sixes, "cards": "6♣", "new_meld": "8♥ JKR 10♥"},
    )
    assert "Bob has not opened yet" in refused(swap, 422)
    assert len(table.read()["entries"]) == 1


def test_every_card_lies_twice_at_most_and_jokers_six_times(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"], rules={"opening": 0})
    table.meld("Ann", "7♥ 8♥ 9♥")
    table.meld("Bob", "7♥ 8♥ 9♥")
    third = table.post("melds", {"player": table.ids["Cid"], "cards": "7♥ 7♠ 7♦"})
    assert "7♥" in refused(third, 422)
    for cards in ("2♣ JKR 4♣", "2♦ JKR 4♦", "2♠ JKR 4♠", "5♣ JKR 7♣", "5♦ JKR 7♦", "5♠ JKR 7♠"):
        table.meld("Cid", cards)
    seventh = table.post("melds", {"player": table.ids["Ann"], "cards": "10♣ JKR Q♣"})
    assert "6 jokers" in refused(seventh, 422)


def test_a_meld_or_layoff_with_a_joker_in_doubt_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"opening": 0})
    doubt = table.post("melds", {"player": table.ids["Ann"], "cards": "5♠ 6♠ JKR"})
    assert "4♠" in refused(doubt, 422)
    meld = table.meld("Ann", "5♠ 6♠ JKR=7♠")
    assert meld["cards"] == ["5♠", "6♠", "JKR"]
    assert meld["jokers"] == [{"index": 2, "as": ["7♠"]}]
    layoff = table.post("layoffs", {"player": table.ids["Ann"], "meld": meld["id"], "cards": "JKR"})
    assert "4♠" in refused(layoff, 422)
    laid = ok(
        table.post("layoffs", {"player": table.ids["Ann"], "meld": meld["id"], "cards": "JKR=8♠"}),
        201,
    )
    assert laid["meld"]["cards"] == ["5♠", "6♠", "JKR", "JKR"]
    assert laid["meld"]["jokers"] == [{"index": 2, "as": ["7♠"]}, {"index": 3, "as": ["8♠"]}]
    # What the jokers stand for is kept: the game read back shows the same.
    assert table.read()["melds"][0]["jokers"] == laid["meld"]["jokers"]


# --- the joker swap --------------------------------------------------------------------------


def swap_body(table: Table, name: str, meld: int, cards: str, new_meld: str) -> dict[str, Any]:
    return {"player": table.ids[name], "meld": meld, "cards": cards, "new_meld": new_meld}


def test_a_swap_is_one_entry_and_undo_takes_it_back_whole(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    sixes = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")["melds"][0]["id"]
    table.melds("Bob", "10♠ J♠ Q♠ K♠")
    swap = ok(table.post("swaps", swap_body(table, "Bob", sixes, "6♣", "8♥ JKR 10♥")), 201)
    assert swap["meld"]["id"] == sixes
    assert sorted(swap["meld"]["cards"]) == sorted(["6♠", "6♥", "6♣"])
    assert swap["meld"]["jokers"] == []
    new = swap["new_meld"]
    assert (new["kind"], new["cards"], new["value"]) == ("sequence", ["8♥", "JKR", "10♥"], 0)
    assert new["jokers"] == [{"index": 1, "as": ["9♥"]}]
    game = table.read()
    entry = game["entries"][-1]
    assert entry["type"] == "swap"
    assert entry["id"] == swap["entry"]
    assert entry["meld"] == sixes
    assert entry["melds"] == [new["id"]]
    assert entry["cards"] == ["6♣", "8♥", "JKR", "10♥"]
    assert [meld["id"] for meld in game["melds"]][-1] == new["id"]
    # A layoff onto the new meld names it like any other.
    ok(table.post("layoffs", {"player": table.ids["Ann"], "meld": new["id"], "cards": "J♥"}), 201)
    undone = ok(table.post("undo", {}))
    assert undone["undone"] != swap["entry"]
    assert ok(table.post("undo", {}))["undone"] == swap["entry"]
    after = table.read()
    assert [entry["type"] for entry in after["entries"]] == ["meld", "meld"]
    assert after["melds"][0]["cards"] == ["6♠", "6♥", "JKR"]


def test_a_swap_is_deleted_by_its_id_and_a_meld_under_it_stays(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    sixes = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")["melds"][0]["id"]
    swap = ok(table.post("swaps", swap_body(table, "Ann", sixes, "6♣", "8♥ JKR 10♥")), 201)
    delete = client.delete(f"{API}/games/{table.game['id']}/entries/{swap['entry']}")
    assert delete.status_code == 204
    assert [meld["id"] for meld in table.read()["melds"]] == [sixes, sixes + 1]


def test_the_meld_the_joker_left_cannot_be_deleted_under_the_swap(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    opening = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")
    table.melds("Bob", "10♠ J♠ Q♠ K♠")
    sixes = opening["melds"][0]["id"]
    ok(table.post("swaps", swap_body(table, "Bob", sixes, "6♣", "8♥ JKR 10♥")), 201)
    delete = client.delete(f"{API}/games/{table.game['id']}/entries/{opening['entry']}")
    refused(delete, 409)


@pytest.mark.parametrize(
    ("cards", "new_meld", "words"),
    [
        ("6♦ 6♣", "8♥ JKR 10♥", "one card"),
        ("7♣", "8♥ JKR 10♥", "7♣"),
        ("6♣", "8♥ 9♥ 10♥", "JKR"),
        ("6♣", "8♥ JKR 2♣", ""),
    ],
)
def test_a_swap_against_g4_is_refused_and_changes_nothing(
    client: FlaskClient, cards: str, new_meld: str, words: str
) -> None:
    table = Table(client, ["Ann", "Bob"])
    sixes = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")["melds"][0]["id"]
    answer = refused(table.post("swaps", swap_body(table, "Ann", sixes, cards, new_meld)), 422)
    assert words in answer
    assert len(table.read()["entries"]) == 1


def test_by_the_house_rule_four_a_set_gives_its_joker_up_for_both_missing_cards(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"joker_swap_from_set": "four"})
    sixes = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")["melds"][0]["id"]
    one = refused(table.post("swaps", swap_body(table, "Ann", sixes, "6♣", "8♥ JKR 10♥")), 422)
    assert "four natural cards" in one
    swap = ok(table.post("swaps", swap_body(table, "Ann", sixes, "6♣ 6♦", "8♥ JKR 10♥")), 201)
    assert sorted(swap["meld"]["cards"]) == sorted(["6♠", "6♥", "6♣", "6♦"])


def test_a_swap_into_a_meld_of_another_game_or_none_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")
    answer = table.post("swaps", swap_body(table, "Ann", 999_999, "6♣", "8♥ JKR 10♥"))
    assert answer.status_code in (404, 422)


# --- corrections and deletes keep the opening whole ------------------------------------------


def test_deleting_an_opening_that_a_later_layoff_of_the_player_needs_is_refused(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    opening = table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠")
    table.melds("Bob", "10♠ J♠ Q♠ K♠")
    bob_meld = table.read()["melds"][-1]["id"]
    ok(table.post("layoffs", {"player": table.ids["Ann"], "meld": bob_meld, "cards": "9♠"}), 201)
    delete = client.delete(f"{API}/games/{table.game['id']}/entries/{opening['entry']}")
    answer = refused(delete, 409)
    assert "Ann" in answer and "9♠" in answer and "40" in answer
    assert len(table.read()["entries"]) == 3


def test_a_correction_that_leaves_an_opening_under_its_minimum_is_refused(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    meld = table.meld("Ann", "10♣ J♣ Q♣ K♣")
    path = f"{API}/games/{table.game['id']}/entries/{meld['id']}"
    low = refused(client.patch(path, json={"cards": "2♣ 3♣ 4♣"}), 422)
    assert "9" in low and "40" in low
    fine = ok(client.patch(path, json={"cards": "J♣ Q♣ K♣ A♣"}))
    assert fine["cards"] == ["J♣", "Q♣", "K♣", "A♣"]


def test_a_correction_keeps_a_joker_and_its_copies(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"opening": 0})
    table.meld("Ann", "7♥ 8♥ 9♥")
    meld = table.meld("Bob", "7♣ 8♣ 9♣")
    path = f"{API}/games/{table.game['id']}/entries/{meld['id']}"
    # The second copy of 7♥ 8♥ 9♥ is free; a third would not be.
    fine = ok(client.patch(path, json={"cards": "7♥ JKR 9♥"}))
    assert fine["cards"] == ["7♥", "JKR", "9♥"]
    table.meld("Ann", "2♥ 3♥ 4♥")
    again = ok(client.patch(path, json={"cards": "7♥ 8♥ 9♥"}))
    assert again["cards"] == ["7♥", "8♥", "9♥"]
    third = client.post(
        f"{API}/games/{table.game['id']}/melds",
        json={"player": table.ids["Bob"], "cards": "7♥ 7♠ 7♦"},
    )
    refused(third, 422)


# --- the settlement and the session's limit --------------------------------------------------


def test_every_loser_books_minus_their_hand_and_a_joker_costs_thirty(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"])
    # All 13 cards dealt put down in one go: a Hand-Rommé.
    table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠", "5♠ 6♠ 7♠ 8♠", "9♥ 9♦ 9♣")
    finish = table.finish("Ann", {"Bob": "A♠ JKR", "Cid": "7♥"})
    assert finish["settlement"] == table.by_id({"Ann": 0, "Bob": -41, "Cid": -7})
    assert finish["hand_points"] == table.by_id({"Bob": 41, "Cid": 7})
    assert finish["romme"] is True  # all put down in one go, nothing earlier
    assert finish["session"]["totals"] == table.by_id({"Ann": 0, "Bob": -41, "Cid": -7})
    assert finish["session"]["to_go"] == table.by_id({"Ann": 500, "Bob": 459, "Cid": 493})


def test_a_hand_romme_of_the_dealer_needs_twelve_of_the_thirteen_cards_dealt(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"hand_romme_doubles": True})
    table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠", "5♠ 6♠ 7♠ 8♠")
    hands = {str(table.ids["Bob"]): "A♠ JKR"}
    body = {"winner": table.ids["Ann"], "hands": hands}
    error = refused(table.post("finish", {**body, "romme": True}), 422)
    assert "Ann played first and put down 10 cards" in error
    assert "at least 12 of the 13 cards dealt" in error
    finish = table.finish("Ann", {"Bob": "A♠ JKR"})
    assert (finish["romme"], finish["settlement"]) == (False, table.by_id({"Ann": 0, "Bob": -41}))


def test_the_house_rules_price_the_joker_and_double_a_hand_romme(client: FlaskClient) -> None:
    rules = {"joker_in_hand": 20, "hand_romme_doubles": True}
    table = Table(client, ["Ann", "Bob"], rules=rules)
    table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠", "5♠ 6♠ 7♠ 8♠", "9♥ 9♦ 9♣")
    finish = table.finish("Ann", {"Bob": "A♠ JKR"})
    assert finish["hand_points"] == table.by_id({"Bob": 31})
    assert finish["settlement"] == table.by_id({"Ann": 0, "Bob": -62})
    assert finish["factors"][str(table.ids["Bob"])] == 2


def test_a_hand_with_a_card_whose_copies_both_lie_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"], rules={"opening": 0})
    table.meld("Ann", "7♥ 8♥ 9♥")
    table.meld("Bob", "7♥ 8♥ 9♥")
    body = {"winner": table.ids["Ann"], "hands": {str(table.ids["Bob"]): "7♥"}}
    refused(
        table.post("finish", {**body, "hands": {**body["hands"], str(table.ids["Cid"]): 5}}), 422
    )
    # One copy lying leaves the other for a hand.
    ok(
        table.post(
            "finish",
            {
                "winner": table.ids["Ann"],
                "hands": {str(table.ids["Bob"]): "10♥", str(table.ids["Cid"]): "2♣ 2♣"},
            },
        )
    )


def test_a_whole_session_is_played_to_its_limit_and_the_fewest_minus_points_win(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"], rules={"end": {"limit": -100}})
    games = 0
    while True:
        games += 1
        table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠")
        table.melds("Bob", "10♠ J♠ Q♠ K♠")
        finish = table.finish("Ann", {"Bob": "K♥ JKR", "Cid": "5♦ 4♦"})
        session = finish["session"]
        if session["status"] == "finished":
            break
        table.start()
    # Bob books -40 a game: -120 after three games reaches the limit of -100.
    assert games == 3
    assert session["totals"] == table.by_id({"Ann": 0, "Bob": -120, "Cid": -27})
    assert session["to_go"] == table.by_id({"Ann": 100, "Bob": 0, "Cid": 73})
    assert session["winner"] == table.ids["Ann"]
    refused(client.post(f"{API}/sessions/{table.session['id']}/games"), 409)


def test_a_session_of_a_number_of_games_counts_them_down(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"end": {"games": 2}})
    assert table.session["games_left"] == 2
    table.melds("Ann", "Q♣ K♣ A♣", "3♦ 3♥ 3♠")
    finish = table.finish("Ann", {"Bob": "2♣"})
    assert finish["session"]["games_left"] == 1


def test_a_swap_that_a_later_swap_builds_on_cannot_be_deleted(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    sixes = table.melds("Ann", "6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦")["melds"][0]["id"]
    table.melds("Bob", "10♠ J♠ Q♠ K♠")
    first = ok(table.post("swaps", swap_body(table, "Bob", sixes, "6♣", "8♥ JKR 10♥")), 201)
    # Ann takes the same joker again, now from the new meld, for the 9♥ it stands for.
    again = swap_body(table, "Ann", first["new_meld"]["id"], "9♥", "2♣ JKR 4♣")
    second = ok(table.post("swaps", again), 201)
    assert second["meld"]["cards"] == ["8♥", "9♥", "10♥"]
    delete = client.delete(f"{API}/games/{table.game['id']}/entries/{first['entry']}")
    answer = refused(delete, 409)
    assert "Ann" in answer and "2♣" in answer
    assert len(table.read()["entries"]) == 4


def test_a_correction_that_takes_away_the_joker_a_later_swap_took_names_the_swap(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"opening": 0})
    sixes = table.meld("Ann", "6♠ 6♥ JKR")
    table.meld("Bob", "2♣ 3♣ 4♣")
    ok(table.post("swaps", swap_body(table, "Bob", sixes["id"], "6♣", "8♥ JKR 10♥")), 201)
    path = f"{API}/games/{table.game['id']}/entries/{sixes['id']}"
    answer = refused(client.patch(path, json={"cards": "6♠ 6♥ 6♦"}), 409)
    assert "Bob" in answer and "8♥" in answer
    assert table.read()["melds"][0]["cards"] == ["6♠", "6♥", "6♣"]
