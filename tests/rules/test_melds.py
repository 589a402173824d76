"""Sets and sequences: which cards make a meld, in which order they lie, what they score."""

import dataclasses
import re

import pytest

from scorekeeper.rules import (
    AcePosition,
    CardAlreadyPlayedError,
    CardNotationError,
    CardTwiceError,
    CornerNotAllowedError,
    GapInSequenceError,
    InvalidLayoffError,
    InvalidMeldError,
    MeldKind,
    MixedSuitsError,
    NotASequenceError,
    NotASetError,
    RulesError,
    SettlementError,
    TooFewCardsError,
    cards_text,
    classify,
    full_pack,
    parse_cards,
)

SPADES = [card for card in full_pack() if card.suit.symbol == "♠"]


def test_ace_turning_the_corner_scores_five():
    meld = classify(parse_cards("K♠ A♠ 2♠"))
    assert meld.values == (10, 5, 2)
    assert meld.ace_positions[1] is AcePosition.CORNER


def test_ace_as_highest_card_of_a_sequence_scores_ten():
    meld = classify(parse_cards("Q♥ K♥ A♥"))
    assert meld.values[-1] == 10
    assert meld.ace_positions[-1] is AcePosition.HIGH


def test_ace_as_lowest_card_of_a_sequence_scores_one():
    meld = classify(parse_cards("A♦ 2♦ 3♦"))
    assert meld.values[0] == 1
    assert meld.ace_positions[0] is AcePosition.LOW


def test_aces_in_a_set_score_fifteen_each():
    meld = classify(parse_cards("A♠ A♥ A♦ A♣"))
    assert meld.values == (15, 15, 15, 15)
    assert set(meld.ace_positions) == {AcePosition.IN_SET}


def test_court_cards_score_ten_and_number_cards_their_face_value():
    assert classify(parse_cards("8♣ 9♣ 10♣ J♣ Q♣ K♣")).values == (8, 9, 10, 10, 10, 10)


def test_cards_that_are_no_ace_have_no_ace_position():
    assert classify(parse_cards("5♠ 6♠ 7♠")).ace_positions == (None, None, None)


@pytest.mark.parametrize(
    ("entered", "kind", "playing_order", "values"),
    [
        pytest.param("7♥ 7♣ 7♠", MeldKind.SET, "7♠ 7♥ 7♣", (7, 7, 7), id="set of three"),
        pytest.param(
            "K♦ K♣ K♥ K♠", MeldKind.SET, "K♠ K♥ K♦ K♣", (10, 10, 10, 10), id="set of four"
        ),
        pytest.param("A♣ A♥ A♦", MeldKind.SET, "A♥ A♦ A♣", (15, 15, 15), id="three aces"),
        pytest.param("A♣ A♦ A♥ A♠", MeldKind.SET, "A♠ A♥ A♦ A♣", (15, 15, 15, 15), id="four aces"),
        pytest.param("9♠ 7♠ 8♠", MeldKind.SEQUENCE, "7♠ 8♠ 9♠", (7, 8, 9), id="unordered run"),
        pytest.param("K♥ Q♥ A♥", MeldKind.SEQUENCE, "Q♥ K♥ A♥", (10, 10, 10), id="ace high"),
        pytest.param("3♦ A♦ 2♦", MeldKind.SEQUENCE, "A♦ 2♦ 3♦", (1, 2, 3), id="ace low"),
        pytest.param("2♣ K♣ A♣", MeldKind.SEQUENCE, "K♣ A♣ 2♣", (10, 5, 2), id="K-A-2"),
        pytest.param(
            "3♣ A♣ 2♣ K♣ Q♣",
            MeldKind.SEQUENCE,
            "Q♣ K♣ A♣ 2♣ 3♣",
            (10, 10, 5, 2, 3),
            id="Q-K-A-2-3 entered unordered",
        ),
        pytest.param(
            "4♠ 3♠ 2♠ A♠",
            MeldKind.SEQUENCE,
            "A♠ 2♠ 3♠ 4♠",
            (1, 2, 3, 4),
            id="entered backwards",
        ),
        pytest.param(
            "K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠",
            MeldKind.SEQUENCE,
            "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠",
            (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),
            id="12 cards without the ace",
        ),
        pytest.param(
            "Q♠ A♠ J♠ 2♠ 10♠ 3♠ 9♠ 4♠ 8♠ 5♠ 7♠ 6♠",
            MeldKind.SEQUENCE,
            "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠",
            (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10),
            id="12 cards with the ace low",
        ),
        pytest.param(
            "J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♥ K♥",
            MeldKind.SEQUENCE,
            "K♥ A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥",
            (10, 5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10),
            id="12 cards turning the corner",
        ),
        pytest.param(
            "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦",
            MeldKind.SEQUENCE,
            "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
            (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10),
            id="13 cards: the ace counts high (R1)",
        ),
        pytest.param(
            "7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 2♣ 3♣ 4♣ 5♣ 6♣",
            MeldKind.SEQUENCE,
            "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣",
            (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10),
            id="13 cards entered around the corner: still ace high (R1)",
        ),
    ],
)
def test_a_valid_meld_is_returned_in_playing_order_and_valued(entered, kind, playing_order, values):
    meld = classify(parse_cards(entered))
    assert meld.kind is kind
    assert cards_text(meld.cards) == playing_order
    assert meld.values == values
    assert meld.value == sum(values)
    assert str(meld) == playing_order


def test_a_sequence_of_all_thirteen_cards_is_worth_ninety_four():
    meld = classify(SPADES)
    assert meld.value == 54 + 30 + 10
    assert meld.ace_positions[-1] is AcePosition.HIGH


def test_fourteen_cards_always_mean_a_card_twice():
    with pytest.raises(CardTwiceError, match="A♠ is entered twice"):
        classify([*SPADES, SPADES[0]])


@pytest.mark.parametrize(
    ("entered", "error", "message"),
    [
        pytest.param("", TooFewCardsError, "at least 3 cards", id="no cards"),
        pytest.param("5♠", TooFewCardsError, "at least 3 cards", id="one card"),
        pytest.param("5♠ 6♠", TooFewCardsError, "5♠ 6♠ are only 2", id="two of a suit"),
        pytest.param("A♠ A♥", TooFewCardsError, "A♠ A♥ are only 2", id="two of a rank"),
        pytest.param("5♠ 6♥", TooFewCardsError, "at least 3 cards", id="two unrelated cards"),
        pytest.param("6♠ 6♠ 6♥", CardTwiceError, "6♠ is entered twice", id="a card twice"),
        pytest.param(
            "5♠ 6♠ 7♠ 5♠", CardTwiceError, "5♠ is entered twice", id="a card twice in a run"
        ),
        pytest.param("5♠ 6♥ 7♠", MixedSuitsError, "6♥ is not ♠", id="mixed suits"),
        pytest.param("5♠ 6♠ 7♥ 8♦", MixedSuitsError, "7♥ 8♦ are not ♠", id="several strange suits"),
        pytest.param(
            "K♠ A♠ 3♠",
            GapInSequenceError,
            "2♠ is missing between A♠ and 3♠",
            id="gap after a corner ace",
        ),
        pytest.param("5♠ 6♠ 8♠", GapInSequenceError, "7♠ is missing between 6♠ and 8♠", id="gap"),
        pytest.param(
            "10♥ J♥ K♥", GapInSequenceError, "Q♥ is missing between J♥ and K♥", id="gap at Q"
        ),
        pytest.param(
            "K♦ 2♦ 3♦",
            GapInSequenceError,
            "A♦ is missing between K♦ and 2♦",
            id="the corner ace is missing",
        ),
        pytest.param(
            "2♣ 3♣ 6♣ 7♣",
            GapInSequenceError,
            "4♣ 5♣ are missing between 3♣ and 6♣",
            id="two missing cards",
        ),
        pytest.param(
            "10♠ J♠ Q♠ K♠ 3♠ 4♠ 5♠",
            GapInSequenceError,
            "A♠ 2♠ are missing between K♠ and 3♠",
            id="missing across the corner",
        ),
        pytest.param(
            "2♠ 3♠ 5♠ 6♠ 8♠",
            GapInSequenceError,
            "4♠ is missing between 3♠ and 5♠ and 7♠ is missing between 6♠ and 8♠",
            id="two gaps",
        ),
        pytest.param(
            "6♠ 6♥ 6♦ 7♣", NotASetError, "7♣ does not belong in a set of 6s", id="stranger in set"
        ),
        pytest.param(
            "6♠ 6♥ 7♦", NotASetError, "7♦ does not belong in a set of 6s", id="rank not in set"
        ),
        pytest.param(
            "Q♠ Q♥ K♦ A♣",
            NotASetError,
            "K♦ A♣ do not belong in a set of Qs",
            id="two ranks not in set",
        ),
        pytest.param(
            "6♠ 7♥ 8♦",
            InvalidMeldError,
            "is neither a set (cards of one rank) nor a sequence",
            id="neither set nor sequence",
        ),
    ],
)
def test_an_invalid_meld_is_refused_with_a_reason(entered, error, message):
    with pytest.raises(error, match=re.escape(message)) as caught:
        classify(parse_cards(entered))
    assert type(caught.value) is error


def test_a_gap_is_explained_in_words_for_the_card_table():
    with pytest.raises(GapInSequenceError) as caught:
        classify(parse_cards("K♠ A♠ 3♠"))
    error = caught.value
    assert str(error) == "K♠ A♠ 3♠ is not a sequence: 2♠ is missing between A♠ and 3♠."
    assert error.cards == "K♠ A♠ 3♠"
    assert error.reason == "2♠ is missing between A♠ and 3♠."


def test_a_gap_message_shows_the_cards_in_playing_order():
    with pytest.raises(GapInSequenceError) as caught:
        classify(parse_cards("8♠ 5♠ 6♠"))
    assert caught.value.cards == "5♠ 6♠ 8♠"


@pytest.mark.parametrize(
    "error",
    [
        CardNotationError,
        InvalidMeldError,
        TooFewCardsError,
        CardTwiceError,
        NotASetError,
        NotASequenceError,
        MixedSuitsError,
        GapInSequenceError,
        CornerNotAllowedError,
        InvalidLayoffError,
        CardAlreadyPlayedError,
        SettlementError,
    ],
)
def test_every_rules_failure_is_a_rules_error_and_a_value_error(error):
    assert issubclass(error, RulesError)
    assert issubclass(error, ValueError)


@pytest.mark.parametrize(
    "error",
    [TooFewCardsError, CardTwiceError, NotASetError, NotASequenceError],
)
def test_every_meld_failure_is_an_invalid_meld_error(error):
    assert issubclass(error, InvalidMeldError)


@pytest.mark.parametrize("error", [MixedSuitsError, GapInSequenceError, CornerNotAllowedError])
def test_every_sequence_failure_is_a_not_a_sequence_error(error):
    assert issubclass(error, NotASequenceError)


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)


def test_a_meld_cannot_be_changed_once_made():
    meld = classify(parse_cards("5♠ 6♠ 7♠"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        meld.values = (0, 0, 0)
