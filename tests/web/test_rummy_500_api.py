"""500 Rum through the JSON API: values, the corner, the deal, table minus hand, nobody out."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


class Table:
    """A 500 Rum session at the table, its players by name and its current game."""

    def __init__(self, client: FlaskClient, names: list[str], **extra: Any) -> None:
        self.client = client
        body = {"players": names, "variant": "rummy_500", "dealer": 0, **extra}
        self.session = ok(client.post(f"{API}/sessions", json=body), 201)
        self.ids = {player["name"]: player["id"] for player in self.session["players"]}
        self.game = self.start()

    def start(self) -> dict[str, Any]:
        self.game = ok(self.client.post(f"{API}/sessions/{self.session['id']}/games"), 201)
        return self.game

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"{API}/games/{self.game['id']}/{path}", json=body)

    def meld(self, name: str, cards: str) -> dict[str, Any]:
        return ok(self.post("melds", {"player": self.ids[name], "cards": cards}), 201)

    def layoff(self, name: str, meld: dict[str, Any], cards: str) -> dict[str, Any]:
        body = {"player": self.ids[name], "meld": meld["id"], "cards": cards}
        return ok(self.post("layoffs", body), 201)

    def finish_body(self, winner: str | None, hands: dict[str, str | int] | None) -> dict[str, Any]:
        """Return a finish's body; ``hands=None`` sends none at all (to abandon the game)."""
        body: dict[str, Any] = {"winner": None if winner is None else self.ids[winner]}
        if hands is not None:
            body["hands"] = {str(self.ids[name]): hand for name, hand in hands.items()}
        return body

    def finish(
        self, winner: str | None, hands: dict[str, str | int] | None, **extra: Any
    ) -> dict[str, Any]:
        return ok(self.post("finish", {**self.finish_body(winner, hands), **extra}))

    def get_game(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/games/{self.game['id']}"))

    def session_now(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/sessions/{self.session['id']}"))

    def by_id(self, points: dict[str, int]) -> dict[str, int]:
        return {str(self.ids[name]): value for name, value in points.items()}


# --- the rule system and the session -----------------------------------------------------------


def test_500_rum_is_listed_among_the_rule_systems(client: FlaskClient) -> None:
    response = client.get(f"{API}/variants")
    assert response.status_code == 200
    systems = {system["name"]: system for system in response.get_json()}
    rum = systems["rummy_500"]
    assert rum["title"] == "500 Rum"
    assert rum["players"] == [2, 3, 4, 5, 6]
    assert rum["rules"] == [
        {
            "name": "end",
            "default": {"target": 500},
            "allowed": [
                {"target": {"min": 1, "max": 2147483647}},
                {"games": {"min": 1, "max": 1000}},
            ],
        },
        {"name": "with_jokers", "default": False, "allowed": [False, True]},
        {"name": "two_packs", "default": False, "allowed": [False, True]},
    ]


def test_a_500_rum_session_plays_to_500_and_deals_13_cards_to_two_players(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    assert table.session["variant"] == "rummy_500"
    assert table.session["rules"] == {
        "end": {"target": 500},
        "with_jokers": False,
        "two_packs": False,
    }
    assert table.session["target"] == 500
    assert table.game["cards_dealt"] == 13
    # The dealer (seat 0) deals; the left neighbour plays first.
    assert table.game["dealer"] == table.ids["Ann"]
    assert table.game["first_player"] == table.ids["Bob"]


def test_three_to_six_players_are_dealt_7_cards_and_seven_are_refused(client: FlaskClient) -> None:
    for names in (["A", "B", "C"], ["A", "B", "C", "D", "E", "F"]):
        assert Table(client, names).game["cards_dealt"] == 7
    body = {"players": list("ABCDEFG"), "variant": "rummy_500"}
    error = refused(client.post(f"{API}/sessions", json=body), 422)
    assert "500 Rum is played by 2 to 6 players" in error


@pytest.mark.parametrize(
    ("rules", "answer"),
    [
        ({"end": {"games": 3}}, {"end": {"games": 3}}),
        ({"end": {"target": 250}}, {"end": {"target": 250}}),
    ],
)
def test_a_table_chooses_another_target_or_a_number_of_games(
    client: FlaskClient, rules: dict[str, Any], answer: dict[str, Any]
) -> None:
    chosen = Table(client, ["Ann", "Bob"], rules=rules).session["rules"]
    assert chosen == {**answer, "with_jokers": False, "two_packs": False}


@pytest.mark.parametrize("rules", [{"end": {"limit": -500}}, {"opening": 40}])
def test_house_rules_of_other_systems_are_refused(client: FlaskClient, rules: dict) -> None:
    body = {"players": ["Ann", "Bob"], "variant": "rummy_500", "rules": rules}
    refused(client.post(f"{API}/sessions", json=body), 422)


# --- F1: values and the corner -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "value"),
    [("Q♥ K♥ A♥", 35), ("A♥ 2♥ 3♥", 6), ("A♠ A♥ A♦", 45), ("5♦ 6♦ 7♦ 8♦ 9♦", 35)],
)
def test_melds_score_for_the_player_with_an_ace_15_or_1_before_a_2(
    client: FlaskClient, cards: str, value: int
) -> None:
    table = Table(client, ["Ann", "Bob"])
    assert table.meld("Bob", cards)["value"] == value
    game = ok(client.get(f"{API}/games/{table.game['id']}"))
    assert game["points"] == table.by_id({"Ann": 0, "Bob": value})


def test_a_sequence_round_the_corner_is_refused_and_changes_nothing(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    error = refused(table.post("melds", {"player": table.ids["Bob"], "cards": "K♠ A♠ 2♠"}), 422)
    assert "may not turn the corner" in error
    german = client.post(
        f"{API}/games/{table.game['id']}/melds?lang=de",
        json={"player": table.ids["Bob"], "cards": "K♠ A♠ 2♠"},
    )
    assert "500 Rum" in refused(german, 422)
    assert ok(client.get(f"{API}/games/{table.game['id']}"))["entries"] == []


def test_layoffs_score_for_whoever_lays_them_off_where_they_lie(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    low = table.meld("Bob", "2♣ 3♣ 4♣")
    high = table.meld("Bob", "J♦ Q♦ K♦")
    assert table.layoff("Ann", low, "A♣")["value"] == 1
    assert table.layoff("Ann", high, "A♦")["value"] == 15
    game = ok(client.get(f"{API}/games/{table.game['id']}"))
    assert game["points"] == table.by_id({"Ann": 16, "Bob": 9 + 30})


# --- F2, F3: the settlement --------------------------------------------------------------------


def test_the_settlement_takes_each_hand_off_and_the_game_books_table_minus_hand(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"])
    table.meld("Bob", "Q♥ K♥ A♥")
    table.meld("Cid", "7♠ 7♥ 7♦")
    finished = table.finish("Bob", {"Ann": "A♣ K♣", "Cid": "9♦"})
    assert finished["status"] == "finished"
    assert finished["winner"] == table.ids["Bob"]
    assert finished["romme"] is False
    assert finished["settlement"] == table.by_id({"Ann": -25, "Bob": 0, "Cid": -9})
    assert finished["hand_points"] == table.by_id({"Ann": 25, "Cid": 9})
    assert finished["factors"] == table.by_id({"Ann": 1, "Cid": 1})
    session = finished["session"]
    assert session["games"][0]["points"] == table.by_id({"Ann": -25, "Bob": 35, "Cid": 21 - 9})
    assert session["totals"] == table.by_id({"Ann": -25, "Bob": 35, "Cid": 12})
    assert session["to_go"] == table.by_id({"Ann": 525, "Bob": 465, "Cid": 488})


def test_a_hand_counted_at_the_table_is_taken_off_as_given(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "10♠ J♠ Q♠ K♠ A♠")
    table.meld("Bob", "2♥ 3♥ 4♥")
    finished = table.finish("Ann", {"Bob": 90})
    assert finished["session"]["totals"] == table.by_id({"Ann": 55, "Bob": 9 - 90})


def test_a_romme_hand_is_refused_and_changes_nothing(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Bob", "Q♥ K♥ A♥")
    body = {**table.finish_body("Bob", {"Ann": "2♣"}), "romme": True}
    error = refused(table.post("finish", body), 422)
    assert error == "500 Rum has no Rommé hand: going out at once earns nothing extra."
    german = client.post(f"{API}/games/{table.game['id']}/finish?lang=de", json=body)
    assert "500 Rum kennt keine Rommé-Hand" in refused(german, 422)
    assert ok(client.get(f"{API}/games/{table.game['id']}"))["status"] == "open"


def test_the_settlement_preview_says_there_is_no_romme_hand(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Bob", "Q♥ K♥ A♥")
    preview = ok(table.post("settlement", table.finish_body("Bob", {"Ann": "2♣"})))
    assert preview["romme_possible"] is False
    assert "no Rommé hand" in preview["romme_reason"]
    assert preview["settlement"] == table.by_id({"Ann": -2, "Bob": 0})


def test_a_card_in_a_hand_that_lies_on_the_table_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Bob", "Q♥ K♥ A♥")
    refused(table.post("finish", table.finish_body("Bob", {"Ann": "A♥"})), 409, 422)


# --- F5: nobody out, or abandoned --------------------------------------------------------------


def test_a_game_nobody_went_out_of_takes_every_hand_off_with_no_winner(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"])
    table.meld("Ann", "Q♥ K♥ A♥")
    table.meld("Bob", "2♠ 3♠ 4♠")
    finished = table.finish(None, {"Ann": "5♦", "Bob": "A♣ K♣", "Cid": 30})
    assert finished["status"] == "finished"
    assert finished["winner"] is None
    assert finished["romme"] is None
    assert finished["settlement"] == table.by_id({"Ann": -5, "Bob": -25, "Cid": -30})
    assert finished["hand_points"] == table.by_id({"Ann": 5, "Bob": 25, "Cid": 30})
    assert finished["factors"] == table.by_id({"Ann": 1, "Bob": 1, "Cid": 1})
    session = finished["session"]
    assert session["totals"] == table.by_id({"Ann": 30, "Bob": 9 - 25, "Cid": -30})
    game = session["games"][0]
    assert (game["status"], game["winner"]) == ("finished", None)
    # The next game is dealt by the dealer's left neighbour.
    assert table.start()["dealer"] == table.ids["Bob"]


def test_a_game_nobody_went_out_of_is_reopened_with_its_hands_said(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "Q♥ K♥ A♥")
    table.finish(None, {"Ann": "5♦", "Bob": 3})
    reopened = ok(client.post(f"{API}/games/{table.game['id']}/reopen"))
    assert reopened["status"] == "open"
    assert reopened["audit"][-1]["text"] == (
        "reopened: nobody had gone out; hands: Ann 5♦ (5), Bob (3); points: Ann +30, Bob -3"
    )
    assert table.session_now()["totals"] == table.by_id({"Ann": 35, "Bob": 0})


def test_nobody_out_needs_the_hand_of_every_player(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"])
    table.meld("Ann", "Q♥ K♥ A♥")
    error = refused(table.post("finish", table.finish_body(None, {"Ann": "5♦", "Bob": 3})), 422)
    assert error == (
        "Nobody went out: enter the cards left in every player's hand, or abandon the game."
    )
    assert ok(client.get(f"{API}/games/{table.game['id']}"))["status"] == "open"


def test_winner_null_without_hands_abandons_the_game_and_the_melds_stand(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "Q♥ K♥ A♥")
    finished = table.finish(None, None)
    assert finished["status"] == "abandoned"
    assert finished["romme"] is None
    assert finished["winner"] is None
    assert finished["settlement"] == table.by_id({"Ann": 0, "Bob": 0})
    assert finished["hand_points"] == {}
    assert finished["booked"] == table.by_id({"Ann": 35, "Bob": 0})
    assert finished["session"]["totals"] == table.by_id({"Ann": 35, "Bob": 0})


def test_hands_sent_with_winner_null_in_another_system_still_abandon(
    client: FlaskClient,
) -> None:
    body = {"players": ["Ann", "Bob"], "variant": "treppenromme"}
    session = ok(client.post(f"{API}/sessions", json=body), 201)
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    ann, bob = (player["id"] for player in session["players"])
    finished = ok(
        client.post(
            f"{API}/games/{game['id']}/finish",
            json={"winner": None, "hands": {str(ann): "Z♠", str(bob): 12}},
        )
    )
    assert finished["status"] == "abandoned"
    assert finished["hand_points"] == {}


# --- F4: a whole session to its target ---------------------------------------------------------


def test_a_whole_session_is_played_to_its_target(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob", "Cid"], rules={"end": {"target": 100}})
    # Game 1 (Ann deals, Bob plays first): Bob goes out.
    table.meld("Bob", "Q♥ K♥ A♥")
    table.meld("Cid", "2♣ 3♣ 4♣")
    finished = table.finish("Bob", {"Ann": "K♠ 5♦", "Cid": "A♦"})
    assert finished["session"]["totals"] == table.by_id({"Ann": -15, "Bob": 35, "Cid": -6})
    assert finished["session"]["status"] == "open"
    # Game 2 (Bob deals): nobody goes out.
    assert table.start()["dealer"] == table.ids["Bob"]
    table.meld("Ann", "J♠ Q♠ K♠ A♠")
    table.meld("Bob", "10♣ J♣ Q♣ K♣ A♣")
    finished = table.finish(None, {"Ann": "2♦", "Bob": "3♦", "Cid": "4♦"})
    assert finished["session"]["totals"] == table.by_id({"Ann": 28, "Bob": 87, "Cid": -10})
    # Game 3 (Cid deals): Ann goes out.
    assert table.start()["dealer"] == table.ids["Cid"]
    table.meld("Ann", "A♥ A♠ A♦ A♣")
    table.meld("Ann", "9♦ 10♦ J♦")
    finished = table.finish("Ann", {"Bob": "2♠", "Cid": "5♠"})
    totals = finished["session"]["totals"]
    assert totals == table.by_id({"Ann": 28 + 89, "Bob": 85, "Cid": -15})
    # Ann 117 is the highest total at or above 100: she wins the session.
    assert finished["session"]["status"] == "finished"
    assert finished["session"]["winner"] == table.ids["Ann"]
    sheet = ok(client.get(f"{API}/sessions/{table.session['id']}/sheet"))
    assert [game["points"] for game in sheet["games"]] == [
        table.by_id({"Ann": -15, "Bob": 35, "Cid": -6}),
        table.by_id({"Ann": 43, "Bob": 52, "Cid": -4}),
        table.by_id({"Ann": 89, "Bob": -2, "Cid": -5}),
    ]
    refused(client.post(f"{API}/sessions/{table.session['id']}/games"), 409)


def test_a_session_of_a_number_of_games_ends_after_them_with_negative_totals(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"end": {"games": 1}})
    table.meld("Ann", "2♠ 3♠ 4♠")
    finished = table.finish(None, {"Ann": "K♦", "Bob": "Q♦ J♦"})
    session = finished["session"]
    assert session["totals"] == table.by_id({"Ann": -1, "Bob": -20})
    assert session["status"] == "finished"
    assert session["winner"] == table.ids["Ann"]


# --- the finish's contract: what was booked, no accidental abandon -----------------------------


def test_the_finish_and_its_preview_say_what_each_player_booked_table_minus_hand(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Ulf"])
    table.meld("Ann", "J♠ Q♠ K♠")
    table.meld("Ulf", "A♥ 2♥ 3♥ 4♥")
    body = table.finish_body("Ann", {"Ulf": "K♣ 8♦ 4♣"})
    preview = ok(table.post("settlement", body))
    assert preview["booked"] == table.by_id({"Ann": 30, "Ulf": 10 - 22})
    finished = table.finish("Ann", {"Ulf": "K♣ 8♦ 4♣"})
    # Every field stays as it was: the settlement minus the hand, paid the hand's value.
    assert finished["settlement"] == table.by_id({"Ann": 0, "Ulf": -22})
    assert finished["paid"] == table.by_id({"Ulf": 22})
    assert finished["booked"] == table.by_id({"Ann": 30, "Ulf": -12})
    assert finished["booked"] == finished["session"]["games"][-1]["points"]


def test_the_finish_of_a_game_nobody_went_out_of_says_what_each_player_booked(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Ulf"])
    table.meld("Ann", "J♠ Q♠ K♠")
    table.meld("Ulf", "A♥ 2♥ 3♥ 4♥")
    finished = table.finish(None, {"Ann": "5♦", "Ulf": "K♣ 8♦ 4♣"})
    assert finished["booked"] == table.by_id({"Ann": 25, "Ulf": -12})
    assert finished["session"]["games"][-1]["points"] == finished["booked"]


def test_the_game_answer_says_what_it_booked_once_it_has_ended(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Ulf"])
    table.meld("Ann", "J♠ Q♠ K♠")
    assert "booked" not in table.get_game()
    table.finish(None, {"Ann": "5♦", "Ulf": "K♣ 8♦ 4♣"})
    game = table.get_game()
    assert game["booked"] == table.by_id({"Ann": 25, "Ulf": -22})
    assert game["booked"] == game["points"]


@pytest.mark.parametrize("path", ["finish", "settlement"])
def test_winner_null_with_hands_but_none_given_is_refused_and_abandons_nothing(
    client: FlaskClient, path: str
) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "Q♥ K♥ A♥")
    error = refused(table.post(path, {"winner": None, "hands": {}}), 422)
    assert error == (
        "Nobody went out: enter the cards left in every player's hand, or abandon the game."
    )
    game = table.get_game()
    assert (game["status"], game["points"]) == ("open", table.by_id({"Ann": 35, "Bob": 0}))


def test_only_a_finish_without_hands_abandons_a_500_rum_game(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "Q♥ K♥ A♥")
    preview = ok(table.post("settlement", {"winner": None}))
    assert (preview["hand_points"], preview["romme"]) == ({}, None)
    assert ok(table.post("finish", {"winner": None}))["status"] == "abandoned"


def test_a_hand_sent_for_the_winner_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "Q♥ K♥ A♥")
    body = table.finish_body("Ann", {"Ann": "2♣", "Bob": "3♣"})
    assert refused(table.post("finish", body), 422) == (
        "The player who went out has no cards left in hand."
    )
    assert table.get_game()["status"] == "open"


def test_romme_is_null_wherever_nobody_went_out_and_a_boolean_where_somebody_did(
    client: FlaskClient,
) -> None:
    table = Table(client, ["Ann", "Bob"])
    table.meld("Ann", "Q♥ K♥ A♥")
    assert table.get_game()["romme"] is None
    first = table.finish(None, {"Ann": "2♣", "Bob": "3♣"})
    table.start()
    table.meld("Bob", "2♠ 3♠ 4♠")
    second = table.finish(None, None)
    table.start()
    table.meld("Ann", "5♦ 6♦ 7♦")
    third = table.finish("Ann", {"Bob": "9♣"})
    assert [first["romme"], second["romme"], third["romme"]] == [None, None, False]
    games = third["session"]["games"]
    assert [game["romme"] for game in games] == [None, None, False]
    sheet = ok(client.get(f"{API}/sessions/{table.session['id']}/sheet"))
    assert [row["romme"] for row in sheet["games"]] == [None, None, False]


def test_the_meld_answers_say_each_cards_value(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    high = table.meld("Bob", "Q♥ K♥ A♥")
    assert (high["cards"], high["values"], high["value"]) == (["Q♥", "K♥", "A♥"], [10, 10, 15], 35)
    low = table.meld("Ann", "3♣ A♣ 2♣")
    assert (low["cards"], low["values"]) == (["A♣", "2♣", "3♣"], [1, 2, 3])
    several = {"player": table.ids["Ann"], "melds": ["9♠ 9♦ 9♣", "5♦ 6♦ 7♦"]}
    put = ok(table.post("melds", several), 201)
    assert [meld["values"] for meld in put["melds"]] == [[9, 9, 9], [5, 6, 7]]


# --- F6, F7: jokers and two packs, as house rules ----------------------------------------------


def test_with_jokers_a_joker_scores_15_in_a_meld_a_layoff_and_a_hand(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"with_jokers": True})
    assert table.session["rules"]["with_jokers"] is True
    sevens = table.meld("Ann", "7♠ 7♥ JKR")
    assert (sevens["value"], sevens["values"], sevens["cards"]) == (
        29,
        [7, 7, 15],
        ["7♠", "7♥", "JKR"],
    )
    low = table.meld("Bob", "JKR=A♦ 2♦ 3♦")
    assert (low["value"], low["values"]) == (20, [15, 2, 3])
    assert low["jokers"] == [{"index": 0, "as": ["A♦"]}]
    laid = table.layoff("Bob", sevens, "7♦")
    assert laid["value"] == 7
    finished = table.finish("Bob", {"Ann": "K♣"})
    assert finished["booked"] == table.by_id({"Ann": 29 - 10, "Bob": 27})
    table.start()
    table.meld("Ann", "5♠ 6♠ 7♠")
    nobody = table.finish(None, {"Ann": "JKR", "Bob": "JKR 2♣"})
    assert nobody["hand_points"] == table.by_id({"Ann": 15, "Bob": 17})
    assert nobody["booked"] == table.by_id({"Ann": 18 - 15, "Bob": -17})


def test_with_jokers_a_joker_in_doubt_is_refused_with_its_choices(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"with_jokers": True})
    body = {"player": table.ids["Ann"], "cards": "JKR 2♦ 3♦"}
    assert "say which" in refused(table.post("melds", body), 422)
    checked = ok(table.post("check", body))
    assert (checked["valid"], checked["joker_choices"]) == (False, ["A♦", "4♦"])
    anywhere = {"variant": "rummy_500", "rules": {"with_jokers": True}, "cards": "7♠ 7♥ JKR"}
    assert ok(client.post(f"{API}/check", json=anywhere))["values"] == [7, 7, 15]
    assert table.meld("Ann", "JKR=4♦ 2♦ 3♦")["value"] == 20


def test_with_jokers_a_joker_is_never_swapped(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"], rules={"with_jokers": True})
    sixes = table.meld("Ann", "6♠ 6♥ JKR")
    body = {
        "player": table.ids["Bob"],
        "meld": sixes["id"],
        "cards": "6♣",
        "new_meld": "8♥ JKR 10♥",
    }
    assert refused(table.post("swaps", body), 422) == (
        "In 500 Rum a joker stays where it lies: it is never swapped."
    )
    assert len(table.get_game()["entries"]) == 1


def test_without_jokers_a_joker_is_refused(client: FlaskClient) -> None:
    table = Table(client, ["Ann", "Bob"])
    assert "without jokers" in refused(
        table.post("melds", {"player": table.ids["Ann"], "cards": "7♠ 7♥ JKR"}), 422
    )


def test_with_two_packs_eight_players_are_dealt_seven_and_a_card_lies_twice(
    client: FlaskClient,
) -> None:
    eight = [f"P{seat}" for seat in range(8)]
    big = Table(client, eight, rules={"two_packs": True})
    assert big.game["cards_dealt"] == 7
    two = Table(client, ["Ann", "Bob"], rules={"two_packs": True, "with_jokers": True})
    assert two.game["cards_dealt"] == 7
    two.meld("Ann", "7♠ 7♥ 7♦")
    two.meld("Bob", "5♥ 6♥ 7♥")
    third = {"player": two.ids["Ann"], "cards": "7♥ 8♥ 9♥"}
    assert "7♥" in refused(two.post("melds", third), 422)
    for cards in ("9♣ JKR J♣", "4♦ 4♥ JKR", "K♠ K♣ JKR", "2♠ 2♥ JKR"):
        two.meld("Ann", cards)
    fifth = {"player": two.ids["Bob"], "cards": "Q♦ Q♥ JKR"}
    assert "4 jokers" in refused(two.post("melds", fifth), 422)


def test_nine_players_are_refused_even_with_two_packs(client: FlaskClient) -> None:
    body = {"players": [f"P{seat}" for seat in range(9)], "variant": "rummy_500"}
    body["rules"] = {"two_packs": True}
    assert "500 Rum is played by 2 to 8 players" in refused(
        client.post(f"{API}/sessions", json=body), 422
    )
