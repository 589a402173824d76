"""Boathouse Rum (seed 004) and its rulings B1-B5, without a database."""

import pytest

from scorekeeper.rules import (
    BoathouseRum,
    HouseRuleError,
    SeatingError,
    SettlementError,
    Table,
    find_variant,
    parse_cards,
    seat_players,
)

BOATHOUSE = find_variant("boathouse_rum")
PLAYERS = ["Ann", "Bob", "Cid"]


def hands(**cards: str) -> dict[str, list]:
    return {name: parse_cards(text) for name, text in cards.items()}


# --- the deal (seed 004: "Das Austeilen") -------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_the_cards_dealt_depend_on_the_number_of_players(players, cards):
    assert BOATHOUSE.cards_dealt(players) == cards


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_two_to_six_players_are_seated(count):
    names = [f"P{seat}" for seat in range(count)]
    assert seat_players(names, BOATHOUSE) == names


@pytest.mark.parametrize("count", [1, 7])
def test_one_player_or_seven_are_refused(count):
    with pytest.raises(SeatingError, match="Boathouse Rum is played by 2 to 6 players"):
        seat_players([f"P{seat}" for seat in range(count)], BOATHOUSE)


# --- B5: who plays first and who deals next -------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "players", "first"), [(0, 3, 1), (2, 3, 0), (1, 2, 0), (5, 6, 0)]
)
def test_the_dealers_left_neighbour_plays_first(dealer, players, first):
    assert BOATHOUSE.first_player_seat(dealer, players) == first


@pytest.mark.parametrize("winner", [0, 1])
def test_with_two_players_the_winner_deals_the_next_game(winner):
    assert BOATHOUSE.next_dealer_seat(0, winner, 2) == winner
    assert BOATHOUSE.next_dealer_seat(1, winner, 2) == winner


def test_with_two_players_an_abandoned_game_passes_the_deal():
    assert BOATHOUSE.next_dealer_seat(0, None, 2) == 1
    assert BOATHOUSE.next_dealer_seat(1, None, 2) == 0


@pytest.mark.parametrize("winner", [None, 0, 1, 2])
def test_with_more_players_the_deal_passes_left_whoever_won(winner):
    assert BOATHOUSE.next_dealer_seat(2, winner, 3) == 0
    assert BOATHOUSE.next_dealer_seat(0, winner, 3) == 1


def test_the_dealer_of_a_game_in_progress_stays_until_it_ends():
    assert BOATHOUSE.dealer_seat(1, (0, None, True), 2) == 0
    assert BOATHOUSE.dealer_seat(1, (0, 0, False), 2) == 0
    assert BOATHOUSE.dealer_seat(1, None, 2) == 1


# --- B4: melds and layoffs are checked but score nothing ---------------------------------------


@pytest.mark.parametrize("cards", ["7♠ 7♥ 7♦", "K♠ A♠ 2♠", "Q♥ K♥ A♥ 2♥ 3♥", "A♣ A♦ A♥ A♠"])
def test_melds_are_legal_and_score_nothing(cards):
    meld = Table(BOATHOUSE).meld(1, parse_cards(cards))
    assert meld.value == 0
    assert set(meld.values) == {0}


def test_a_layoff_is_checked_and_scores_nothing():
    table = Table(BOATHOUSE)
    table.meld(1, parse_cards("10♦ 9♦ 8♦"))
    # Seed 004: "wenn 10, 9, 8 gezeigt werden, kann er J oder Q, J, 7 oder 7, 6 hinzufügen".
    assert table.lay_off(2, 1, parse_cards("Q♦ J♦")).value == 0
    assert table.lay_off(3, 1, parse_cards("7♦ 6♦")).value == 0
    assert str(table.melds[1]) == "6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦"


def test_the_ace_turns_the_corner():
    # Seed 004: "Sequenzen können um die Ecke gehen, wie in K, A, 2 oder A, K, Q."
    assert str(Table(BOATHOUSE).meld(1, parse_cards("2♣ A♣ K♣")).cards[1]) == "A♣"


# --- B1: the losers pay for their unmatched cards -------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "pays"),
    [
        ("7♥ 7♦ 7♣ K♠ A♦", 21),
        ("K♠ A♠ 2♠ 9♥", 9),
        ("7♠ 7♥ 7♦ 8♦ 9♦", 14),
        ("A♣", 11),
        ("10♠ J♠ Q♠ K♠", 0),
    ],
)
def test_a_loser_pays_the_pip_value_of_the_unmatched_cards(hand, pays):
    settled = BOATHOUSE.settle(["Ann", "Bob"], "Ann", hands(Bob=hand))
    assert settled.hand_points == {"Bob": pays}
    assert settled.paid == {"Bob": pays}
    assert settled.gains == {"Ann": pays, "Bob": 0}


def test_the_settlement_shows_what_was_matched_and_what_was_paid_for():
    settled = BOATHOUSE.settle(PLAYERS, "Ann", hands(Bob="7♠ 7♥ 7♦ 8♦ 9♦", Cid="K♠ A♠ 2♠ 9♥"))
    assert [str(card) for card in settled.unmatched["Bob"]] == ["7♠", "7♥"]
    assert [[str(card) for card in meld] for meld in settled.matched["Bob"]] == [["7♦", "8♦", "9♦"]]
    assert [[str(card) for card in meld] for meld in settled.matched["Cid"]] == [["K♠", "A♠", "2♠"]]
    assert settled.gains == {"Ann": 14 + 9, "Bob": 0, "Cid": 0}


def test_a_hand_counted_by_the_table_is_paid_as_counted():
    settled = BOATHOUSE.settle(["Ann", "Bob"], "Ann", {"Bob": 0})
    assert settled.gains == {"Ann": 0, "Bob": 0}
    assert settled.unmatched == {}


def test_a_count_beyond_the_pack_is_refused():
    with pytest.raises(SettlementError, match="0 to 380 points"):
        BOATHOUSE.settle(["Ann", "Bob"], "Ann", {"Bob": 381})


def test_the_ace_in_a_hand_is_worth_eleven():
    assert BOATHOUSE.hand_value(parse_cards("A♥")[0]) == 11


# --- B2: Rommé ---------------------------------------------------------------------------------


def test_rommé_makes_every_loser_pay_double():
    # B2's example: P2 A♣ 5♥, P3 Q♦ pay 32 and 20.
    settled = BOATHOUSE.settle(["P1", "P2", "P3"], "P1", hands(P2="A♣ 5♥", P3="Q♦"), romme=True)
    assert settled.paid == {"P2": 32, "P3": 20}
    assert settled.hand_points == {"P2": 16, "P3": 10}
    assert settled.factors == {"P2": 2, "P3": 2}
    assert settled.gains == {"P1": 52, "P2": 0, "P3": 0}


def test_rommé_is_possible_only_when_the_winner_had_no_earlier_entry():
    names = {"Ann": "Ann", "Bob": "Bob"}
    later = BOATHOUSE.finish(names, "Ann", hands(Bob="9♥"), entry_players=["Bob", "Ann", "Ann"])
    assert later.romme and later.romme_possible and later.gains["Ann"] == 18
    earlier = BOATHOUSE.finish(names, "Ann", hands(Bob="9♥"), entry_players=["Ann", "Bob", "Ann"])
    assert not earlier.romme and earlier.gains["Ann"] == 9
    with pytest.raises(SettlementError, match="no Rommé hand"):
        BOATHOUSE.finish(
            names, "Ann", hands(Bob="9♥"), entry_players=["Ann", "Bob", "Ann"], romme=True
        )


# --- B3: the session --------------------------------------------------------------------------


def test_the_session_is_played_to_100_by_default():
    assert BOATHOUSE.house_rules == {"end": {"target": 100}}
    assert BOATHOUSE.standing({"Ann": 99, "Bob": 40}, 3).winner is None
    assert BOATHOUSE.standing({"Ann": 100, "Bob": 40}, 3).winner == "Ann"


def test_a_tie_at_the_top_of_the_target_plays_on():
    standing = BOATHOUSE.standing({"Ann": 120, "Bob": 120}, 3)
    assert standing.winner is None
    assert standing.tie_at_top


def test_the_target_is_checked_only_between_games():
    assert BOATHOUSE.standing({"Ann": 150}, 3, game_in_progress=True).winner is None


def test_a_session_of_a_fixed_number_of_games_ends_after_the_last():
    variant = find_variant("boathouse_rum", {"end": {"games": 3}})
    assert variant.standing({"Ann": 500, "Bob": 40}, 2).winner is None
    assert variant.standing({"Ann": 500, "Bob": 40}, 2).games_left == 1
    assert variant.standing({"Ann": 5, "Bob": 40}, 3).winner == "Bob"
    assert variant.standing({"Ann": 40, "Bob": 40}, 3).tie_at_top
    assert variant.standing({"Ann": 40, "Bob": 40}, 3).to_go("Ann") is None


@pytest.mark.parametrize(
    "rules",
    [
        {"end": {"target": 0}},
        {"end": {"games": 0}},
        {"end": {"limit": -500}},
        {"end": {"target": 100, "games": 3}},
        {"end": 100},
        {"romme_doubling": "loser"},
        {"opening": 40},
    ],
)
def test_house_rules_it_does_not_have_or_values_it_does_not_allow_are_refused(rules):
    with pytest.raises(HouseRuleError):
        find_variant("boathouse_rum", rules)


def test_the_rule_system_describes_its_house_rules():
    described = BoathouseRum().describe()
    assert described["name"] == "boathouse_rum"
    assert described["players"] == [2, 3, 4, 5, 6]
    assert described["rules"] == [
        {
            "name": "end",
            "default": {"target": 100},
            "allowed": [
                {"target": {"min": 1, "max": 2**31 - 1}},
                {"games": {"min": 1, "max": 1000}},
            ],
        }
    ]
