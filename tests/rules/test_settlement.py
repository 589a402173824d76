"""The end of a game (hand values, Rommé hand, R4-R6) and of a session (R7)."""

import re

import pytest

from scorekeeper.rules import (
    TREPPENROMME,
    CardAlreadyPlayedError,
    HouseRuleError,
    RulesError,
    SettlementError,
    classify,
    find_variant,
    full_pack,
    parse_cards,
    refuse_repeated_cards,
    repeated_cards,
)

PLAYERS = ["Ann", "Bob", "Cid"]


def played_to(target):
    """Return Treppenrommé played to a target (R7)."""
    return TREPPENROMME.with_end({"target": target})


# --- hand values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        ("", 0),
        ("A♠", 15),
        ("A♠ A♥ A♦ A♣", 60),
        ("K♣ Q♦ J♥", 30),
        ("B♣ D♦", 20),
        ("2♠ 10♥", 12),
        ("A♠ 7♥ K♣", 32),
        ("2♣ 3♣ 4♣", 9),
    ],
)
def test_cards_left_in_a_hand_are_worth_their_hand_value(hand, value):
    assert TREPPENROMME.hand_points(parse_cards(hand)) == value


@pytest.mark.parametrize("ace", parse_cards("A♠ A♥ A♦ A♣"), ids=str)
def test_an_ace_left_in_hand_always_scores_fifteen(ace):
    assert TREPPENROMME.hand_points([ace]) == 15


def test_an_ace_left_in_hand_scores_fifteen_even_beside_a_king_and_a_two():
    # In a sequence K-A-2 the ace would score 5; in a hand it is always 15.
    assert TREPPENROMME.hand_points(parse_cards("K♠ A♠ 2♠")) == 10 + 15 + 2


def test_the_fifty_two_cards_of_a_pack_are_worth_three_hundred_ninety_six_in_hand():
    assert TREPPENROMME.hand_points(full_pack()) == 4 * (15 + sum(range(2, 11)) + 3 * 10) == 396


# --- card conservation -----------------------------------------------------------------------


def test_no_card_is_repeated_among_different_cards():
    groups = [parse_cards("6♠ 6♥ 6♦"), parse_cards("5♣ 6♣ 7♣"), parse_cards("K♥")]
    assert repeated_cards(groups) == []
    refuse_repeated_cards(groups)


def test_a_card_in_two_places_is_named():
    groups = [parse_cards("6♠ 6♥ 6♦"), parse_cards("5♠ 6♠ 7♠")]
    assert [card.code for card in repeated_cards(groups)] == ["6♠"]


def test_several_repeated_cards_of_different_suits_are_all_named():
    groups = [parse_cards("6♠ 6♥ 7♦"), parse_cards("6♠ 6♥ 8♣"), parse_cards("2♣ 2♣")]
    assert [card.code for card in repeated_cards(groups)] == ["6♠", "6♥", "2♣"]


def test_a_repeated_card_is_refused_as_already_played():
    with pytest.raises(CardAlreadyPlayedError, match="6♠ is entered twice"):
        refuse_repeated_cards([parse_cards("6♠ 6♥ 6♦"), parse_cards("5♠ 6♠ 7♠")])


def test_several_repeated_cards_are_refused_together():
    with pytest.raises(CardAlreadyPlayedError, match="6♠ 6♥ are entered twice"):
        refuse_repeated_cards([parse_cards("6♠ 6♥ 7♦"), parse_cards("6♠ 6♥ 8♣")])


def test_a_card_repeated_within_one_group_is_found():
    assert [card.code for card in repeated_cards([parse_cards("Q♣ Q♣")])] == ["Q♣"]


# --- the Rommé hand: inferred from entry order (R4) ------------------------------------------


@pytest.mark.parametrize(
    ("entries", "winner", "possible"),
    [
        pytest.param(["Bob", "Cid", "Ann", "Ann"], "Ann", True, id="all in the last turn"),
        pytest.param(["Ann"], "Ann", True, id="a single entry"),
        pytest.param(["Ann", "Ann", "Ann"], "Ann", True, id="only the winner's entries"),
        pytest.param(["Ann", "Bob", "Ann"], "Ann", False, id="an earlier meld"),
        pytest.param(["Bob", "Ann", "Cid", "Ann"], "Ann", False, id="an earlier layoff"),
        pytest.param(["Bob", "Cid"], "Ann", False, id="the winner never put cards down"),
        pytest.param([], "Ann", False, id="no entries at all"),
    ],
)
def test_a_romme_hand_is_possible_only_if_all_winner_entries_come_last(entries, winner, possible):
    assert TREPPENROMME.romme_possible(entries, winner) is possible


def test_a_single_earlier_layoff_forfeits_the_romme_hand():
    # Ann laid off one card, then Bob melded, then Ann went out: not a Rommé hand (R4).
    assert TREPPENROMME.romme_possible(["Ann", "Bob", "Ann", "Ann"], "Ann") is False


@pytest.mark.parametrize(
    ("variant", "players", "dealt"),
    [
        pytest.param("treppenromme", 3, 7, id="Treppenrommé deals 7"),
        pytest.param("german_rummy", 4, 13, id="German Rummy deals 13"),
        pytest.param("boathouse_rum", 2, 10, id="Boathouse Rum deals 10 to two"),
        pytest.param("boathouse_rum", 4, 7, id="Boathouse Rum deals 7 to four"),
        pytest.param("boathouse_rum", 6, 6, id="Boathouse Rum deals 6 to six"),
    ],
)
def test_a_romme_hand_puts_down_at_least_the_cards_the_rule_system_deals(variant, players, dealt):
    rule_system = find_variant(variant)
    # Bob melds, then every entry of Ann's comes last: the cards she put down decide.
    order = ["Bob", "Ann", "Ann"]
    assert rule_system.romme_possible(order, "Ann", [3, 3, dealt - 3], players) is True
    assert rule_system.romme_possible(order, "Ann", [3, 3, dealt - 4], players) is False
    why = rule_system.why_romme(order, "Ann", [3, 3, dealt - 4], players, name="Ann")
    assert why.message_id == "settlement.romme_too_few_cards"
    assert why.params == {"name": "Ann", "count": dealt - 1, "dealt": dealt}


@pytest.mark.parametrize(
    ("entry_cards", "shown"),
    [
        pytest.param([3, 1], "Ann put down 1 card after", id="a single card laid off"),
        pytest.param([3, 3, 1], "Ann put down 4 cards after", id="K K K and 5♠"),
    ],
)
def test_settling_a_romme_hand_with_too_few_cards_is_refused_with_the_count(entry_cards, shown):
    names = {"Ann": "Ann", "Bob": "Bob"}
    order = ["Bob", *["Ann"] * (len(entry_cards) - 1)]
    hands = {"Bob": parse_cards("9♠")}
    with pytest.raises(SettlementError, match=re.escape(shown)) as refused:
        TREPPENROMME.finish(
            names, "Ann", hands, entry_players=order, entry_cards=entry_cards, romme=True
        )
    assert "at least the 7 cards dealt" in str(refused.value)
    inferred = TREPPENROMME.finish(
        names, "Ann", hands, entry_players=order, entry_cards=entry_cards
    )
    assert (inferred.romme, inferred.gains["Ann"]) == (False, 9)


def test_romme_hand_possible_works_with_any_player_keys():
    assert TREPPENROMME.romme_possible([2, 3, 1, 1], 1) is True
    assert TREPPENROMME.romme_possible([1, 2, 1], 1) is False


# --- settling a game ---------------------------------------------------------------------------


def test_the_winner_scores_the_cards_left_in_the_opponents_hands():
    hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    result = TREPPENROMME.settle(PLAYERS, "Ann", hands)
    assert result.winner == "Ann"
    assert result.romme is False
    assert result.hand_points == {"Bob": 22, "Cid": 10}
    assert result.factors == {"Bob": 1, "Cid": 1}
    assert result.gains == {"Ann": 32, "Bob": 0, "Cid": 0}


def test_a_romme_hand_doubles_the_opponents_hand_cards():
    hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    result = TREPPENROMME.settle(PLAYERS, "Ann", hands, romme=True)
    assert result.romme is True
    assert result.hand_points == {"Bob": 22, "Cid": 10}
    assert result.factors == {"Bob": 2, "Cid": 2}
    assert result.gains == {"Ann": 64, "Bob": 0, "Cid": 0}


def test_the_winners_own_melds_count_normally_beside_a_romme_hand():
    # Ann puts everything down in one turn: Q-K-A (30) and 6-6-6 (18), discarding the last card.
    last_turn = [classify(parse_cards("Q♠ K♠ A♠")), classify(parse_cards("6♠ 6♥ 6♦"))]
    hands = {"Bob": parse_cards("2♣ 3♣"), "Cid": parse_cards("9♥")}
    result = TREPPENROMME.settle(PLAYERS, "Ann", hands, romme=True)
    # The settlement covers only the hands; the melds keep their ordinary value (R4).
    assert result.gains["Ann"] == 2 * (5 + 9)
    assert sum(meld.value for meld in last_turn) + result.gains["Ann"] == 48 + 28


def test_aces_left_in_losers_hands_score_fifteen_each():
    hands = {"Bob": parse_cards("A♠ A♥"), "Cid": parse_cards("A♦ 2♦ 3♦")}
    result = TREPPENROMME.settle(PLAYERS, "Ann", hands)
    assert result.hand_points == {"Bob": 30, "Cid": 20}
    assert result.gains["Ann"] == 50


def test_aces_in_hand_are_doubled_by_a_romme_hand_like_any_card():
    hands = {"Bob": parse_cards("A♠ A♥")}
    assert TREPPENROMME.settle(["Ann", "Bob"], "Ann", hands, romme=True).gains == {
        "Ann": 60,
        "Bob": 0,
    }


def test_a_game_won_by_a_discard_settles_only_the_hands():
    # Ann melded 6-6-6 earlier (18), laid off 7♣ in her last turn (7) and discarded her last
    # card. Her entries stand as written; the settlement only adds the losers' hands.
    ann_entries = [classify(parse_cards("6♠ 6♥ 6♦")).value, 7]
    hands = {"Bob": parse_cards("K♥ Q♥"), "Cid": parse_cards("4♠")}
    result = TREPPENROMME.settle(PLAYERS, "Ann", hands)
    assert result.gains == {"Ann": 24, "Bob": 0, "Cid": 0}
    assert sum(ann_entries) + result.gains["Ann"] == 18 + 7 + 24


def test_losers_lose_nothing_they_have_written():
    hands = {"Bob": parse_cards("K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥")}
    result = TREPPENROMME.settle(["Ann", "Bob"], "Ann", hands, romme=True)
    assert result.gains["Bob"] == 0
    assert all(gain >= 0 for gain in result.gains.values())


def test_an_abandoned_game_has_no_winner_and_nobody_gains():
    result = TREPPENROMME.settle(PLAYERS, None, {})
    assert result.winner is None
    assert result.romme is False
    assert result.gains == {"Ann": 0, "Bob": 0, "Cid": 0}
    assert result.hand_points == {}
    assert result.factors == {}


def test_an_abandoned_game_scores_no_hand_cards_even_if_they_are_entered():
    hands = {"Ann": parse_cards("A♠"), "Bob": parse_cards("K♥"), "Cid": parse_cards("2♣")}
    assert TREPPENROMME.settle(PLAYERS, None, hands).gains == {"Ann": 0, "Bob": 0, "Cid": 0}


def test_an_abandoned_game_cannot_be_a_romme_hand():
    with pytest.raises(SettlementError, match="no winner, so no Rommé hand"):
        TREPPENROMME.settle(PLAYERS, None, {}, romme=True)


@pytest.mark.parametrize(
    ("winner", "hands", "error", "message"),
    [
        pytest.param(
            "Ann",
            {"Ann": "2♠", "Bob": "3♠", "Cid": "4♠"},
            SettlementError,
            "The player who went out has no cards left in hand.",
            id="the winner's hand entered",
        ),
        pytest.param(
            "Ann",
            {"Bob": "3♠"},
            SettlementError,
            "Enter the cards left in every other player's hand.",
            id="a loser's hand missing",
        ),
        pytest.param(
            "Ann",
            {"Bob": "3♠", "Cid": ""},
            SettlementError,
            "Only the player who went out has no cards left",
            id="a loser's hand empty",
        ),
        pytest.param(
            "Dan",
            {"Bob": "3♠", "Cid": "4♠"},
            SettlementError,
            "The player who went out does not play in this game.",
            id="an unknown winner",
        ),
        pytest.param(
            "Ann",
            {"Bob": "3♠", "Cid": "4♠", "Dan": "5♠"},
            SettlementError,
            "A hand was entered for someone who does not play in this game.",
            id="a hand for an unknown player",
        ),
        pytest.param(
            "Ann",
            {"Bob": "3♠ Q♦", "Cid": "Q♦"},
            CardAlreadyPlayedError,
            "Q♦ is entered twice",
            id="the same card in two hands",
        ),
    ],
)
def test_a_settlement_the_rules_do_not_allow_is_refused(winner, hands, error, message):
    parsed = {player: parse_cards(cards) for player, cards in hands.items()}
    with pytest.raises(error, match=re.escape(message)):
        TREPPENROMME.settle(PLAYERS, winner, parsed)


def test_settlement_errors_are_rules_errors():
    assert issubclass(SettlementError, RulesError)
    assert issubclass(CardAlreadyPlayedError, RulesError)


def test_the_default_reading_ignores_who_never_melded():
    hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    result = TREPPENROMME.settle(PLAYERS, "Ann", hands, never_melded=["Cid"])
    assert TREPPENROMME.house_rules["romme_doubling"] == "winner"
    assert result.factors == {"Bob": 1, "Cid": 1}
    assert result.gains["Ann"] == 32


def LoserNeverMelded():
    """Seed 003's reading as a house rule: each loser who never melded pays double (R5)."""
    return find_variant("treppenromme", {"romme_doubling": "loser"})


def test_the_house_rule_doubles_each_loser_who_never_melded():
    hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    result = LoserNeverMelded().settle(PLAYERS, "Ann", hands, never_melded=["Cid"])
    assert result.factors == {"Bob": 1, "Cid": 2}
    assert result.gains == {"Ann": 22 + 2 * 10, "Bob": 0, "Cid": 0}


def test_the_house_rule_ignores_the_winners_romme_hand():
    hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    result = LoserNeverMelded().settle(PLAYERS, "Ann", hands, romme=True)
    assert result.factors == {"Bob": 1, "Cid": 1}
    assert result.gains["Ann"] == 32


def test_the_house_rule_doubles_every_loser_who_never_melded():
    hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    result = LoserNeverMelded().settle(PLAYERS, "Ann", hands, never_melded=["Bob", "Cid"])
    assert result.factors == {"Bob": 2, "Cid": 2}
    assert result.gains["Ann"] == 64


# --- the session (R7) --------------------------------------------------------------------------


def test_the_only_player_at_or_above_the_target_wins_the_session():
    standing = played_to(500).standing({"Ann": 480, "Bob": 512, "Cid": 300}, 0)
    assert standing.winner == "Bob"
    assert standing.over is True
    assert standing.tie_at_top is False
    assert standing.leaders == ("Bob",)


def test_exactly_the_target_is_enough():
    assert played_to(500).standing({"Ann": 500, "Bob": 499}, 0).winner == "Ann"


def test_the_higher_total_wins_when_two_players_pass_the_target_in_one_game():
    # Ann crossed 500 first during the game (505); Bob ended the game on 540 (R7).
    during = played_to(500).standing({"Ann": 505, "Bob": 490}, 0, game_in_progress=True)
    assert during.winner is None
    after = played_to(500).standing({"Ann": 505, "Bob": 540}, 0)
    assert after.winner == "Bob"


def test_nobody_wins_while_a_game_is_in_progress():
    standing = played_to(500).standing({"Ann": 620, "Bob": 100}, 0, game_in_progress=True)
    assert standing.winner is None
    assert standing.over is True


def test_a_tie_at_the_top_plays_on():
    standing = played_to(500).standing({"Ann": 530, "Bob": 530, "Cid": 100}, 0)
    assert standing.winner is None
    assert standing.tie_at_top is True
    assert standing.leaders == ("Ann", "Bob")


def test_a_tie_below_a_higher_total_does_not_stop_the_winner():
    standing = played_to(500).standing({"Ann": 530, "Bob": 530, "Cid": 560}, 0)
    assert standing.winner == "Cid"
    assert standing.tie_at_top is False


def test_a_tie_below_the_target_is_no_tie_at_the_top():
    standing = played_to(500).standing({"Ann": 300, "Bob": 300}, 0)
    assert standing.winner is None
    assert standing.tie_at_top is False
    assert standing.over is False


def test_nobody_wins_before_anybody_reaches_the_target():
    standing = played_to(500).standing({"Ann": 499, "Bob": 12}, 0)
    assert standing.winner is None
    assert standing.over is False


@pytest.mark.parametrize("target", [0, -1, -500])
def test_the_target_must_be_positive(target):
    with pytest.raises(HouseRuleError, match=re.escape('{"target": 1…')):
        played_to(target)


@pytest.mark.parametrize("target", [1, 500, 1000, 777])
def test_any_positive_target_is_allowed(target):
    assert played_to(target).standing({"Ann": target, "Bob": 0}, 0).winner == "Ann"


def test_to_go_is_what_a_player_still_needs():
    standing = played_to(500).standing({"Ann": 480, "Bob": 512, "Cid": 0}, 0)
    assert standing.to_go("Ann") == 20
    assert standing.to_go("Bob") == 0
    assert standing.to_go("Cid") == 500


def test_the_default_target_is_five_hundred():
    assert TREPPENROMME.default_target == 500
