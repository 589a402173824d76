"""The JSON API with rule systems: the list of them, house rules, and Boathouse Rum end to end."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.models import GameSession
from tests.helpers import API, ok, refused
from tests.rows import count

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def boathouse(client: FlaskClient, names: list[str], **extra: Any) -> dict[str, Any]:
    body = {"players": names, "variant": "boathouse_rum", **extra}
    return ok(client.post(f"{API}/sessions", json=body), 201)


def next_game(client: FlaskClient, session: dict[str, Any]) -> dict[str, Any]:
    return ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)


def post(client: FlaskClient, game: dict[str, Any], path: str, body: Any) -> Any:
    return client.post(f"{API}/games/{game['id']}/{path}", json=body)


def ids(session: dict[str, Any]) -> list[int]:
    return [player["id"] for player in session["players"]]


# --- the rule systems and their house rules ------------------------------------------------------


def test_the_rule_systems_are_listed_with_their_players_and_house_rules(client: FlaskClient):
    response = client.get(f"{API}/variants")
    assert response.status_code == 200
    systems = {system["name"]: system for system in response.get_json()}
    assert list(systems) == ["treppenromme", "german_rummy", "boathouse_rum", "rummy_500"]
    assert systems["treppenromme"]["players"] == [2, 3, 4]
    assert systems["german_rummy"]["players"] == [2, 3, 4, 5, 6]
    german = {rule["name"]: rule for rule in systems["german_rummy"]["rules"]}
    assert german["opening"]["default"] == 40
    assert german["joker_in_hand"]["allowed"] == [20, 25, 30]
    assert german["joker_swap_from_set"] == {
        "name": "joker_swap_from_set",
        "default": "any",
        "allowed": ["any", "four"],
    }
    assert german["end"]["default"] == {"limit": -500}
    assert systems["boathouse_rum"]["players"] == [2, 3, 4, 5, 6]
    treppen = {rule["name"]: rule for rule in systems["treppenromme"]["rules"]}
    assert treppen["end"]["default"] == {"target": 500}
    assert treppen["romme_doubling"] == {
        "name": "romme_doubling",
        "default": "winner",
        "allowed": ["winner", "loser"],
    }
    boat = {rule["name"]: rule for rule in systems["boathouse_rum"]["rules"]}
    assert boat["end"]["default"] == {"target": 100}
    assert {next(iter(end)) for end in boat["end"]["allowed"]} == {"target", "games"}
    assert systems["boathouse_rum"]["title"] == "Boathouse Rum"


def test_a_session_answers_its_rule_system_and_every_house_rule(client: FlaskClient):
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    assert session["variant"] == "treppenromme"
    assert session["rules"] == {"end": {"target": 500}, "romme_doubling": "winner"}
    assert session["target"] == 500
    assert "games_left" not in session
    again = ok(client.get(f"{API}/sessions/{session['id']}"))
    assert again["rules"] == session["rules"]


def test_the_top_level_target_keeps_working(client: FlaskClient):
    session = ok(client.post(f"{API}/sessions", json={"players": ["A", "B"], "target": 1000}), 201)
    assert session["rules"]["end"] == {"target": 1000}
    assert session["target"] == 1000


def test_treppenromme_takes_seed_003s_doubling_and_a_number_of_games(client: FlaskClient):
    body = {"players": ["A", "B"], "rules": {"romme_doubling": "loser", "end": {"games": 3}}}
    session = ok(client.post(f"{API}/sessions", json=body), 201)
    assert session["rules"] == {"end": {"games": 3}, "romme_doubling": "loser"}
    assert session["target"] is None
    assert session["games_left"] == 3
    assert set(session["to_go"].values()) == {None}


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ({"variant": "skat"}, ["treppenromme", "boathouse_rum"]),
        ({"variant": 7}, ["variant"]),
        ({"variant": "boathouse_rum", "rules": {"romme_doubling": "loser"}}, ["end"]),
        ({"rules": {"opening": 40}}, ["end", "romme_doubling"]),
        ({"rules": {"romme_doubling": "both"}}, ["winner", "loser"]),
        ({"rules": {"end": {"target": 0}}}, ["target", "games"]),
        ({"rules": {"end": {"games": 1001}}}, ["games"]),
        ({"rules": {"end": {"limit": -500}}}, ["target", "games"]),
        ({"rules": {"end": {"games": 2.5}}}, ["games"]),
        ({"rules": "winner"}, ["rules"]),
        ({"target": 300, "rules": {"end": {"games": 3}}}, ["target"]),
        ({"players": ["A", "B", "C", "D", "E"]}, ["played by 2 to 4 players; 5 were entered"]),
        (
            {"variant": "boathouse_rum", "players": list("ABCDEFG")},
            ["Boathouse Rum is played by 2 to 6 players; 7 were entered"],
        ),
    ],
)
def test_an_unknown_system_rule_or_value_is_refused_naming_what_is_allowed(
    client: FlaskClient, body: dict[str, Any], names: list[str]
):
    error = refused(client.post(f"{API}/sessions", json={"players": ["A", "B"], **body}), 422)
    for name in names:
        assert name in error
    assert count(client.application, GameSession) == 0


def test_the_refusal_of_a_house_rule_speaks_german_when_asked(client: FlaskClient):
    body = {"players": ["A", "B"], "rules": {"romme_doubling": "both"}}
    error = refused(client.post(f"{API}/sessions?lang=de", json=body), 422)
    assert "Hausregel" in error


# --- /check by rule system ------------------------------------------------------------------------


def test_check_values_a_meld_by_the_rule_system_asked_for(client: FlaskClient):
    treppen = ok(client.post(f"{API}/check", json={"cards": "K♠ A♠ 2♠"}))
    assert treppen["value"] == 17
    boat = ok(client.post(f"{API}/check", json={"cards": "K♠ A♠ 2♠", "variant": "boathouse_rum"}))
    assert boat["valid"] is True
    assert boat["value"] == 0
    assert boat["values"] == [0, 0, 0]
    layoff = {"cards": "J♦", "onto": "8♦ 9♦ 10♦", "variant": "boathouse_rum"}
    assert ok(client.post(f"{API}/check", json=layoff))["value"] == 0
    refused(client.post(f"{API}/check", json={"cards": "K♠ A♠ 2♠", "variant": "x"}), 422)


# --- Boathouse Rum, a game at a time ----------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_a_boathouse_game_says_the_cards_dealt_and_who_plays_first(
    client: FlaskClient, players: int, cards: int
):
    session = boathouse(client, [f"P{seat}" for seat in range(players)], dealer=1)
    game = next_game(client, session)
    assert game["cards_dealt"] == cards
    assert game["dealer"] == ids(session)[1]
    assert game["first_player"] == ids(session)[2 % players]
    assert ok(client.get(f"{API}/games/{game['id']}"))["first_player"] == game["first_player"]


def test_a_treppenromme_game_has_the_dealer_play_first(client: FlaskClient):
    session = ok(client.post(f"{API}/sessions", json={"players": ["A", "B", "C"]}), 201)
    game = next_game(client, session)
    assert game["cards_dealt"] == 7
    assert game["first_player"] == game["dealer"] == ids(session)[0]


def test_boathouse_melds_and_layoffs_are_checked_and_score_nothing(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob", "Cid"])
    ann, bob, _cid = ids(session)
    game = next_game(client, session)
    meld = ok(post(client, game, "melds", {"player": ann, "cards": "2♠ K♠ A♠"}), 201)
    assert meld["value"] == 0
    assert meld["cards"] == ["K♠", "A♠", "2♠"]
    body = {"player": bob, "meld": meld["id"], "cards": "Q♠"}
    layoff = ok(post(client, game, "layoffs", body), 201)
    assert layoff["value"] == 0
    refused(post(client, game, "melds", {"player": bob, "cards": "Q♠ 3♦ 4♦"}), 422)
    refused(post(client, game, "melds", {"player": bob, "cards": "5♦ 6♦ 8♦"}), 422)
    state = ok(client.get(f"{API}/games/{game['id']}"))
    assert state["points"] == {str(player): 0 for player in ids(session)}


def test_a_boathouse_settlement_pays_for_the_unmatched_cards(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob", "Cid"])
    ann, bob, cid = ids(session)
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": ann, "cards": "J♥ Q♥ K♥"}), 201)
    ok(post(client, game, "melds", {"player": bob, "cards": "4♣ 5♣ 6♣"}), 201)
    hands = {str(bob): "7♠ 7♥ 7♦ 8♦ 9♦", str(cid): "K♠ A♠ 2♠ 9♥"}
    finished = ok(post(client, game, "finish", {"winner": ann, "hands": hands}))
    assert finished["romme"] is False
    assert finished["hand_points"] == {str(bob): 14, str(cid): 9}
    assert finished["paid"] == {str(bob): 14, str(cid): 9}
    assert finished["unmatched"] == {str(bob): ["7♠", "7♥"], str(cid): ["9♥"]}
    assert finished["matched"] == {str(bob): [["7♦", "8♦", "9♦"]], str(cid): [["K♠", "A♠", "2♠"]]}
    assert finished["settlement"] == {str(ann): 23, str(bob): 0, str(cid): 0}
    assert finished["session"]["totals"] == {str(ann): 23, str(bob): 0, str(cid): 0}
    assert finished["session"]["to_go"][str(ann)] == 77


def test_a_boathouse_romme_makes_every_loser_pay_double(client: FlaskClient):
    session = boathouse(client, ["P1", "P2", "P3"])
    p1, p2, p3 = ids(session)
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": p2, "cards": "4♣ 5♣ 6♣"}), 201)
    ok(post(client, game, "melds", {"player": p1, "cards": "J♥ Q♥ K♥"}), 201)
    ok(post(client, game, "melds", {"player": p1, "cards": "2♦ 3♦ 4♦ 5♦"}), 201)
    hands = {str(p2): "A♣ 5♥", str(p3): "Q♦"}
    preview = ok(post(client, game, "settlement", {"winner": p1, "hands": hands}))
    assert preview["romme"] is True
    assert preview["paid"] == {str(p2): 32, str(p3): 20}
    finished = ok(post(client, game, "finish", {"winner": p1, "hands": hands}))
    assert finished["hand_points"] == {str(p2): 16, str(p3): 10}
    assert finished["factors"] == {str(p2): 2, str(p3): 2}
    assert finished["settlement"] == {str(p1): 52, str(p2): 0, str(p3): 0}


def test_a_boathouse_romme_is_refused_after_an_earlier_entry(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob"])
    ann, bob = ids(session)
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": ann, "cards": "J♥ Q♥ K♥"}), 201)
    ok(post(client, game, "melds", {"player": bob, "cards": "4♣ 5♣ 6♣"}), 201)
    ok(post(client, game, "melds", {"player": ann, "cards": "2♦ 3♦ 4♦"}), 201)
    body = {"winner": ann, "hands": {str(bob): "9♥"}, "romme": True}
    assert "Rommé" in refused(post(client, game, "finish", body), 422)


def test_with_two_players_the_winner_deals_the_next_game(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob"], dealer=0)
    ann, bob = ids(session)
    game = next_game(client, session)
    assert game["dealer"] == ann and game["first_player"] == bob
    ok(post(client, game, "melds", {"player": bob, "cards": "J♥ Q♥ K♥"}), 201)
    finished = ok(post(client, game, "finish", {"winner": bob, "hands": {str(ann): "9♥"}}))
    assert finished["session"]["dealer"] == bob
    game = next_game(client, session)
    assert game["dealer"] == bob and game["first_player"] == ann
    # The same winner deals again.
    ok(post(client, game, "melds", {"player": bob, "cards": "J♠ Q♠ K♠"}), 201)
    ok(post(client, game, "finish", {"winner": bob, "hands": {str(ann): "9♠"}}))
    game = next_game(client, session)
    assert game["dealer"] == bob
    # An abandoned game passes the deal.
    ok(post(client, game, "finish", {"winner": None}))
    assert next_game(client, session)["dealer"] == ann


def test_with_three_players_the_deal_passes_left_whoever_wins(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob", "Cid"], dealer=2)
    ann, bob, cid = ids(session)
    game = next_game(client, session)
    assert (game["dealer"], game["first_player"]) == (cid, ann)
    ok(post(client, game, "melds", {"player": cid, "cards": "J♥ Q♥ K♥"}), 201)
    hands = {str(ann): "9♥", str(bob): "9♠"}
    ok(post(client, game, "finish", {"winner": cid, "hands": hands}))
    assert next_game(client, session)["dealer"] == ann


def test_a_whole_boathouse_session_to_its_target(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob", "Cid"])
    ann, bob, cid = ids(session)
    for number in range(1, 10):
        game = next_game(client, session)
        ok(post(client, game, "melds", {"player": ann, "cards": "J♥ Q♥ K♥"}), 201)
        ok(post(client, game, "melds", {"player": bob, "cards": "2♣ 3♣ 4♣"}), 201)
        # Bob's 10♦ and Cid's K♣ are unmatched: 20 a game for Ann.
        hands = {str(bob): "10♦ 7♠ 7♥ 7♦", str(cid): "K♣ 8♥ 9♥ 10♥" if number > 1 else "K♣"}
        finished = ok(post(client, game, "finish", {"winner": ann, "hands": hands}))
        totals = finished["session"]["totals"]
        assert totals == {str(ann): 20 * number, str(bob): 0, str(cid): 0}
        if totals[str(ann)] >= 100:
            break
    assert number == 5
    over = ok(client.get(f"{API}/sessions/{session['id']}"))
    assert over["status"] == "finished"
    assert over["winner"] == ann
    assert [game["points"][str(ann)] for game in over["games"]] == [20] * 5
    refused(client.post(f"{API}/sessions/{session['id']}/games"), 409)


def test_a_session_of_a_fixed_number_of_games_ends_after_the_last(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob"], rules={"end": {"games": 2}})
    ann, bob = ids(session)
    assert session["games_left"] == 2
    for left in (1, 0):
        game = next_game(client, session)
        ok(post(client, game, "melds", {"player": bob, "cards": "J♥ Q♥ K♥"}), 201)
        finished = ok(post(client, game, "finish", {"winner": bob, "hands": {str(ann): "9♥"}}))
        assert finished["session"]["games_left"] == left
    assert finished["session"]["status"] == "finished"
    assert finished["session"]["winner"] == bob


def test_a_tie_at_the_top_after_the_last_game_plays_another(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob"], rules={"end": {"games": 2}})
    ann, bob = ids(session)
    for winner, loser in ((ann, bob), (bob, ann)):
        game = next_game(client, session)
        ok(post(client, game, "melds", {"player": winner, "cards": "J♥ Q♥ K♥"}), 201)
        ok(post(client, game, "melds", {"player": loser, "cards": "2♣ 3♣ 4♣"}), 201)
        body = {"winner": winner, "hands": {str(loser): "9♥"}}
        finished = ok(post(client, game, "finish", body))
    assert finished["session"]["status"] == "open"
    assert finished["session"]["games_left"] == 0
    assert finished["session"]["totals"] == {str(ann): 9, str(bob): 9}
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": bob, "cards": "J♠ Q♠ K♠"}), 201)
    ok(post(client, game, "melds", {"player": ann, "cards": "2♦ 3♦ 4♦"}), 201)
    finished = ok(post(client, game, "finish", {"winner": ann, "hands": {str(bob): "5♥"}}))
    assert finished["session"]["status"] == "finished"
    assert finished["session"]["winner"] == ann


def test_reopening_the_last_game_of_a_session_of_games_plays_it_on(client: FlaskClient):
    session = boathouse(client, ["Ann", "Bob"], rules={"end": {"games": 1}})
    ann, bob = ids(session)
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": bob, "cards": "J♥ Q♥ K♥"}), 201)
    ok(post(client, game, "melds", {"player": ann, "cards": "2♣ 3♣ 4♣"}), 201)
    finished = ok(post(client, game, "finish", {"winner": bob, "hands": {str(ann): "9♥"}}))
    assert (finished["session"]["status"], finished["session"]["winner"]) == ("finished", bob)
    reopened = ok(post(client, game, "reopen", None))
    assert reopened["status"] == "open"
    again = ok(client.get(f"{API}/sessions/{session['id']}"))
    assert (again["status"], again["winner"], again["games_left"]) == ("open", None, 1)
    body = {"winner": ann, "hands": {str(bob): "9♠ 8♠"}, "romme": False}
    finished = ok(post(client, game, "finish", body))
    assert (finished["session"]["status"], finished["session"]["winner"]) == ("finished", ann)
    assert finished["session"]["totals"] == {str(ann): 17, str(bob): 0}


def test_the_highest_total_at_the_end_of_a_game_wins_not_the_first_to_cross(
    client: FlaskClient,
):
    session = boathouse(client, ["Ann", "Bob"], target=20)
    ann, bob = ids(session)
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": ann, "cards": "J♥ Q♥ K♥"}), 201)
    ok(post(client, game, "melds", {"player": bob, "cards": "2♣ 3♣ 4♣"}), 201)
    ok(post(client, game, "finish", {"winner": ann, "hands": {str(bob): "9♥ 8♥"}}))
    game = next_game(client, session)
    ok(post(client, game, "melds", {"player": ann, "cards": "J♠ Q♠ K♠"}), 201)
    ok(post(client, game, "melds", {"player": bob, "cards": "2♦ 3♦ 4♦"}), 201)
    finished = ok(post(client, game, "finish", {"winner": bob, "hands": {str(ann): "K♣ Q♦"}}))
    # Ann reached 17, Bob 20 now: Bob is the only one at the target.
    assert finished["session"]["winner"] == bob
