"""Layoffs onto melds on the table, valued where they lie right after the layoff (R1-R3)."""

import re

import pytest

from scorekeeper.rules import (
    AcePosition,
    GermanRummy,
    InvalidLayoffError,
    InvalidMeldError,
    MeldKind,
    RulesError,
    TableEntry,
    Treppenromme,
    cards_text,
    classify,
    lay_off,
    melds_as_they_lay,
    parse_cards,
    parse_pieces,
)

THREE_TO_KING = "3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"
WHOLE_SUIT = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"


def lay(meld: str, added: str) -> dict[str, int]:
    """Lay cards off and return each laid-off card's value by its canonical code."""
    layoff = lay_off(parse_cards(meld), parse_cards(added))
    return {card.code: value for card, value in zip(layoff.cards, layoff.values, strict=True)}


def test_a_fourth_card_is_laid_off_onto_a_set_of_three():
    layoff = lay_off(parse_cards("6♠ 6♥ 6♦"), parse_cards("6♣"))
    assert layoff.value == 6
    assert layoff.meld.kind is MeldKind.SET
    assert cards_text(layoff.meld.cards) == "6♠ 6♥ 6♦ 6♣"


def test_a_fifth_card_is_refused_by_a_set_of_four():
    # With one pack the fifth card of a rank can only be one already in the set.
    with pytest.raises(InvalidLayoffError, match=re.escape("6♠ already lies in 6♠ 6♥ 6♦ 6♣")):
        lay_off(parse_cards("6♠ 6♥ 6♦ 6♣"), parse_cards("6♠"))


def test_two_cards_onto_a_set_of_three_are_refused():
    with pytest.raises(InvalidLayoffError):
        lay_off(parse_cards("6♠ 6♥ 6♦"), parse_cards("6♣ 6♠"))


class SetsOfThree(Treppenromme):
    """A made-up rule system whose sets hold exactly three cards."""

    name = "sets-of-three"
    set_sizes = (3, 3)


def test_the_largest_set_comes_from_the_rule_system():
    with pytest.raises(InvalidLayoffError, match="a set has at most 3 cards"):
        lay_off(parse_cards("6♠ 6♥ 6♦"), parse_cards("6♣"), SetsOfThree())


def test_a_card_is_laid_off_at_the_low_end_of_a_sequence():
    layoff = lay_off(parse_cards("5♠ 6♠ 7♠"), parse_cards("4♠"))
    assert layoff.value == 4
    assert cards_text(layoff.meld.cards) == "4♠ 5♠ 6♠ 7♠"


def test_a_card_is_laid_off_at_the_high_end_of_a_sequence():
    layoff = lay_off(parse_cards("5♠ 6♠ 7♠"), parse_cards("8♠"))
    assert layoff.value == 8
    assert cards_text(layoff.meld.cards) == "5♠ 6♠ 7♠ 8♠"


def test_cards_are_laid_off_at_both_ends_at_once():
    layoff = lay_off(parse_cards("5♠ 6♠ 7♠"), parse_cards("8♠ 4♠"))
    assert cards_text(layoff.cards) == "4♠ 8♠"
    assert layoff.values == (4, 8)
    assert layoff.value == 12
    assert cards_text(layoff.meld.cards) == "4♠ 5♠ 6♠ 7♠ 8♠"


def test_several_cards_are_laid_off_at_one_end():
    layoff = lay_off(parse_cards("5♠ 6♠ 7♠"), parse_cards("10♠ 8♠ 9♠"))
    assert cards_text(layoff.cards) == "8♠ 9♠ 10♠"
    assert layoff.value == 27


def test_cards_are_laid_off_across_the_corner():
    assert lay("2♠ 3♠ 4♠", "K♠ A♠") == {"K♠": 10, "A♠": 5}
    assert lay("Q♠ K♠ A♠", "2♠ 3♠") == {"2♠": 2, "3♠": 3}
    assert lay("K♠ A♠ 2♠", "Q♠ 3♠") == {"Q♠": 10, "3♠": 3}


@pytest.mark.parametrize(
    ("meld", "added", "values"),
    [
        pytest.param("A♠ A♥ A♦", "A♣", {"A♣": 15}, id="ace onto a set: 15"),
        pytest.param("J♥ Q♥ K♥", "A♥", {"A♥": 10}, id="ace after a king: 10"),
        pytest.param("2♥ 3♥ 4♥", "A♥", {"A♥": 1}, id="ace before a two: 1"),
        pytest.param(
            "J♥ Q♥ K♥", "A♥ 2♥", {"A♥": 5, "2♥": 2}, id="ace between K and 2 (with the 2): 5"
        ),
        pytest.param(
            "2♥ 3♥ 4♥", "K♥ A♥", {"K♥": 10, "A♥": 5}, id="ace between K and 2 (with the K): 5"
        ),
    ],
)
def test_a_laid_off_ace_is_valued_where_it_lies_after_the_layoff(meld, added, values):
    assert lay(meld, added) == values


def test_an_ace_and_a_two_laid_off_in_two_entries_score_twelve():
    ace = lay_off(parse_cards("J♠ Q♠ K♠"), parse_cards("A♠"))
    two = lay_off(ace.meld.cards, parse_cards("2♠"))
    assert ace.value == 10
    assert two.value == 2
    assert ace.value + two.value == 12


def test_an_ace_and_a_two_laid_off_in_one_entry_score_seven():
    layoff = lay_off(parse_cards("J♠ Q♠ K♠"), parse_cards("A♠ 2♠"))
    assert layoff.values == (5, 2)
    assert layoff.value == 7


def test_a_layoff_never_revalues_the_cards_already_on_the_table():
    meld = classify(parse_cards("Q♠ K♠ A♠"))
    layoff = lay_off(meld.cards, parse_cards("2♠"))
    # The melder keeps 30; the 2 scores 2 for whoever lays it off (R3).
    assert meld.value == 30
    assert layoff.value == 2
    # The meld as it now lies has the ace in the corner, but that is nobody's new score.
    assert layoff.meld.values == (10, 10, 5, 2)
    assert layoff.meld.ace_positions[2] is AcePosition.CORNER


def test_ace_and_two_laid_off_together_onto_three_to_king_score_ten_and_two():
    assert lay(THREE_TO_KING, "A♠ 2♠") == {"A♠": 10, "2♠": 2}
    assert lay(THREE_TO_KING, "2♠ A♠") == {"A♠": 10, "2♠": 2}


def test_the_thirteenth_card_makes_the_ace_the_highest_card():
    layoff = lay_off(parse_cards(THREE_TO_KING), parse_cards("A♠ 2♠"))
    assert cards_text(layoff.meld.cards) == "2♠ " + THREE_TO_KING + " A♠"
    assert layoff.meld.ace_positions[-1] is AcePosition.HIGH


@pytest.mark.parametrize(
    ("meld", "added", "values"),
    [
        pytest.param(
            "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠", "A♠", {"A♠": 10}, id="the ace comes last"
        ),
        pytest.param(
            "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠", "K♠", {"K♠": 10}, id="the king comes last"
        ),
        pytest.param(
            "K♠ A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠", "Q♠", {"Q♠": 10}, id="the queen comes last"
        ),
        pytest.param(
            "Q♠ K♠ A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", "J♠", {"J♠": 10}, id="the jack comes last"
        ),
    ],
)
def test_the_thirteenth_card_is_valued_in_the_complete_suit(meld, added, values):
    assert lay(meld, added) == values


@pytest.mark.parametrize(
    ("meld", "added", "message"),
    [
        pytest.param("5♠ 6♠ 7♠", "5♠", "5♠ already lies in 5♠ 6♠ 7♠", id="already in the meld"),
        pytest.param("6♠ 6♥ 6♦", "6♥", "6♥ already lies in 6♠ 6♥ 6♦", id="already in the set"),
        pytest.param("6♠ 6♥ 6♦", "6♣ 6♣", "6♣ is entered twice", id="entered twice"),
        pytest.param(
            "5♠ 6♠ 7♠", "8♥", "8♥ cannot go onto 5♠ 6♠ 7♠: a sequence takes only ♠", id="suit"
        ),
        pytest.param(
            "5♠ 6♠ 7♠", "4♠ 8♥", "8♥ cannot go onto 5♠ 6♠ 7♠", id="one card of a wrong suit"
        ),
        pytest.param(
            "6♠ 6♥ 6♦", "7♣", "7♣ cannot go onto the set 6♠ 6♥ 6♦: only a 6 fits", id="rank"
        ),
        pytest.param("5♠ 6♠ 7♠", "9♠", "8♠ is missing between 7♠ and 9♠", id="gap of one card"),
        pytest.param(
            "5♠ 6♠ 7♠",
            "10♠ J♠",
            "8♠ 9♠ are missing between 7♠ and 10♠",
            id="gap of two cards",
        ),
        pytest.param(
            "5♠ 6♠ 7♠",
            "K♠",
            "A♠ 2♠ 3♠ 4♠ are missing between K♠ and 5♠",
            id="gap across the corner",
        ),
        pytest.param("5♠ 6♠ 7♠", "", "at least one card", id="no cards"),
        pytest.param(WHOLE_SUIT, "A♥", "A♥ already lies in", id="complete suit: same suit"),
        pytest.param(WHOLE_SUIT, "5♣", "a sequence takes only ♥", id="complete suit: other suit"),
    ],
)
def test_a_layoff_that_does_not_fit_is_refused_with_a_reason(meld, added, message):
    with pytest.raises(InvalidLayoffError, match=re.escape(message)):
        lay_off(parse_cards(meld), parse_cards(added))


def test_a_gap_in_a_layoff_names_the_cards_and_the_meld():
    with pytest.raises(InvalidLayoffError) as caught:
        lay_off(parse_cards("5♠ 6♠ 7♠"), parse_cards("9♠"))
    assert str(caught.value) == (
        "9♠ cannot be laid off onto 5♠ 6♠ 7♠: 8♠ is missing between 7♠ and 9♠."
    )


@pytest.mark.parametrize("card", parse_cards("A♥ 2♥ 7♥ K♥ A♣ 2♣ 7♣ K♣"), ids=str)
def test_nothing_can_be_laid_off_onto_a_complete_thirteen_card_sequence(card):
    with pytest.raises(InvalidLayoffError):
        lay_off(parse_cards(WHOLE_SUIT), [card])


def test_a_layoff_error_is_a_rules_error():
    assert issubclass(InvalidLayoffError, RulesError)


def test_a_layoff_onto_cards_that_are_no_meld_is_refused():
    with pytest.raises(InvalidMeldError):
        lay_off(parse_cards("6♠ 6♥"), parse_cards("6♦"))


def test_a_layoff_returns_the_laid_off_cards_in_playing_order():
    layoff = lay_off(parse_cards("5♦ 6♦ 7♦"), parse_cards("9♦ 3♦ 8♦ 4♦"))
    assert cards_text(layoff.cards) == "3♦ 4♦ 8♦ 9♦"
    assert layoff.values == (3, 4, 8, 9)


def test_a_layoff_after_a_joker_swap_went_onto_the_meld_without_its_joker():
    entries = [
        TableEntry(1, tuple(parse_pieces("5♠ 6♠ JKR=7♠"))),
        TableEntry(2, tuple(parse_pieces("J♦ Q♦ K♦"))),
        TableEntry(
            4, tuple(parse_pieces("7♠")), onto=1, new_meld=tuple(parse_pieces("8♥ JKR 10♥"))
        ),
        TableEntry(5, tuple(parse_pieces("4♠ 8♠")), onto=1),
        TableEntry(6, tuple(parse_pieces("9♠")), onto=1),
        TableEntry(7, tuple(parse_pieces("A♦")), onto=2),
    ]

    lay = melds_as_they_lay(entries, GermanRummy())

    assert {key: cards_text(meld.cards) for key, meld in lay.items()} == {
        4: "5♠ 6♠ JKR=7♠",
        5: "5♠ 6♠ 7♠",
        6: "4♠ 5♠ 6♠ 7♠ 8♠",
        7: "J♦ Q♦ K♦",
    }
