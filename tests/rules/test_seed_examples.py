"""The worked examples of the seed texts (RULES.md, "Seed examples that must hold")."""

import pytest

from scorekeeper.rules import classify, lay_off, parse_cards, refuse_repeated_cards


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        pytest.param("6♠ 6♥ 6♦ 6♣", 24, id="6-6-6-6 = 24"),
        pytest.param("A♠ A♥ A♦", 45, id="A-A-A = 45"),
        pytest.param("Q♠ K♠ A♠", 30, id="Q-K-A = 30"),
        pytest.param("Q♠ K♠ A♠ 2♠", 27, id="Q-K-A-2 = 27"),
        pytest.param("A♠ 2♠ 3♠", 6, id="A-2-3 = 6"),
        pytest.param("5♠ 6♠ 7♠ 8♠ 9♠", 35, id="5-6-7-8-9 = 35"),
    ],
)
def test_seed_example_meld_scores_as_the_seed_text_says(cards, value):
    assert classify(parse_cards(cards)).value == value


def test_four_sixes_score_twenty_four():
    assert classify(parse_cards("6♠ 6♥ 6♦ 6♣")).value == 24


def test_three_aces_score_forty_five():
    assert classify(parse_cards("A♠ A♥ A♦")).values == (15, 15, 15)


def test_queen_king_ace_scores_thirty():
    assert classify(parse_cards("Q♠ K♠ A♠")).values == (10, 10, 10)


def test_queen_king_ace_two_scores_twenty_seven():
    assert classify(parse_cards("Q♠ K♠ A♠ 2♠")).values == (10, 10, 5, 2)


def test_ace_two_three_scores_six():
    assert classify(parse_cards("A♠ 2♠ 3♠")).values == (1, 2, 3)


def test_five_to_nine_scores_thirty_five():
    assert classify(parse_cards("5♠ 6♠ 7♠ 8♠ 9♠")).values == (5, 6, 7, 8, 9)


def test_bobs_turn_is_noted_as_seventy_five():
    # Melds already on the table from earlier turns, for Bob's layoffs B, 7 and 10.
    jacks = parse_cards("J♥ J♦ J♣")
    clubs = parse_cards("4♣ 5♣ 6♣")
    diamonds = parse_cards("7♦ 8♦ 9♦")
    assert [classify(meld).value for meld in (jacks, clubs, diamonds)] == [30, 15, 24]

    # Bob's turn, written as the seed text writes it (German D = Dame, B = Bube).
    sixes = classify(parse_cards("6♠-6♥-6♦"))
    staircase = classify(parse_cards("D♥ K♥ A♥ 2♥ 3♥"))
    layoffs = [
        lay_off(jacks, parse_cards("B♠")),
        lay_off(clubs, parse_cards("7♣")),
        lay_off(diamonds, parse_cards("10♦")),
    ]

    assert sixes.value == 18
    assert staircase.value == 30
    assert staircase.values == (10, 10, 5, 2, 3)
    assert [layoff.value for layoff in layoffs] == [10, 7, 10]
    assert sum(layoff.value for layoff in layoffs) == 27
    assert sixes.value + staircase.value + sum(layoff.value for layoff in layoffs) == 75

    # Every card of the example exists once in the pack.
    refuse_repeated_cards(
        [jacks, clubs, diamonds, sixes.cards, staircase.cards, *(lay.cards for lay in layoffs)]
    )
