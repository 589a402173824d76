"""Boathouse Rum (B1): the grouping of a hand into melds that leaves the least to pay."""

import functools
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    AcePosition,
    Card,
    InvalidMeldError,
    Rank,
    Suit,
    cards_text,
    classify,
    full_pack,
    parse_cards,
)
from scorekeeper.rules.grouping import Grouping, least_paying_grouping

RELAXED = settings(deadline=None)
PACK = full_pack()


def pip(card: Card) -> int:
    """Value a card left in the hand: 2-10 face value, J Q K 10, ace 11."""
    return 11 if card.rank == Rank.ACE else min(int(card.rank), 10)


def pays(grouping: Grouping) -> int:
    """Return what a grouping leaves to pay."""
    return sum(pip(card) for card in grouping.unmatched)


def melds_text(grouping: Grouping) -> list[str]:
    """Return the matched melds as text, one string each."""
    return [cards_text(meld) for meld in grouping.matched]


def group(text: str, *, corner: bool = True) -> Grouping:
    """Group the hand written in the card notation."""
    return least_paying_grouping(parse_cards(text), pip, corner=corner)


@pytest.mark.parametrize(
    ("hand", "payment"),
    [
        ("7♥ 7♦ 7♣ K♠ A♦", 21),
        ("K♠ A♠ 2♠ 9♥", 9),
        ("7♠ 7♥ 7♦ 8♦ 9♦", 14),
    ],
)
def test_the_examples_of_the_ruling_pay_what_it_says(hand, payment):
    assert pays(group(hand)) == payment


def test_three_sevens_are_matched_and_the_king_and_the_ace_are_paid_for():
    grouping = group("7♥ 7♦ 7♣ K♠ A♦")
    assert melds_text(grouping) == ["7♥ 7♦ 7♣"]
    assert cards_text(grouping.unmatched) == "K♠ A♦"


def test_king_ace_two_turn_the_corner_and_leave_the_nine():
    grouping = group("9♥ 2♠ K♠ A♠")
    assert melds_text(grouping) == ["K♠ A♠ 2♠"]
    assert cards_text(grouping.unmatched) == "9♥"


def test_a_sequence_that_leaves_less_beats_a_set_of_the_same_seven():
    grouping = group("7♠ 7♥ 7♦ 8♦ 9♦")
    assert melds_text(grouping) == ["7♦ 8♦ 9♦"]
    assert cards_text(grouping.unmatched) == "7♠ 7♥"


def test_four_of_a_kind_are_matched_whole():
    grouping = group("Q♣ Q♦ Q♠ Q♥ 4♦")
    assert melds_text(grouping) == ["Q♠ Q♥ Q♦ Q♣"]
    assert pays(grouping) == 4


def test_a_set_of_four_gives_a_card_to_a_sequence_and_stays_a_set_of_three():
    grouping = group("5♠ 5♥ 5♦ 5♣ 6♣ 7♣")
    assert melds_text(grouping) == ["5♠ 5♥ 5♦", "5♣ 6♣ 7♣"]
    assert pays(grouping) == 0


def test_two_sets_of_four_each_give_a_card_to_one_sequence():
    grouping = group("9♠ 9♥ 9♦ 9♣ 10♣ J♠ J♥ J♦ J♣")
    assert melds_text(grouping) == ["9♠ 9♥ 9♦", "J♠ J♥ J♦", "9♣ 10♣ J♣"]
    assert pays(grouping) == 0


def test_two_sequences_take_two_cards_of_a_set_of_four_when_that_leaves_less():
    # The fives as a set would leave 3♠ 4♠ 6♠ (13) or 6♣ 7♣ (13); two sequences leave 10.
    grouping = group("5♠ 5♥ 5♦ 5♣ 6♣ 7♣ 4♠ 3♠ 6♠")
    assert melds_text(grouping) == ["3♠ 4♠ 5♠ 6♠", "5♣ 6♣ 7♣"]
    assert cards_text(grouping.unmatched) == "5♥ 5♦"


def test_the_whole_suit_is_one_sequence_with_the_ace_highest():
    suit = " ".join(card.code for card in PACK if card.suit.symbol == "♥")
    grouping = group(suit)
    assert melds_text(grouping) == ["2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"]
    assert grouping.unmatched == ()


def test_the_whole_suit_is_one_sequence_without_the_corner_too():
    suit = " ".join(card.code for card in PACK if card.suit.symbol == "♣")
    grouping = group(suit, corner=False)
    assert melds_text(grouping) == ["2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣"]


def test_the_whole_pack_pays_nothing():
    grouping = least_paying_grouping(PACK, pip)
    assert grouping.unmatched == ()
    assert sorted(card for meld in grouping.matched for card in meld) == sorted(PACK)


def test_runs_that_continue_each_other_lie_as_one_sequence():
    assert melds_text(group("9♠ 2♠ 5♠ 3♠ 8♠ 4♠ 7♠ 6♠")) == ["2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠"]


def test_a_sequence_round_the_corner_lies_from_its_lowest_card_before_the_corner():
    assert melds_text(group("3♦ A♦ Q♦ K♦ 2♦")) == ["Q♦ K♦ A♦ 2♦ 3♦"]


def test_without_the_corner_king_ace_two_are_all_paid_for():
    grouping = group("K♠ A♠ 2♠ 9♥", corner=False)
    assert grouping.matched == ()
    assert pays(grouping) == 10 + 11 + 2 + 9


def test_without_the_corner_the_ace_goes_low_when_that_leaves_less():
    grouping = group("K♠ A♠ 2♠ 3♠", corner=False)
    assert melds_text(grouping) == ["A♠ 2♠ 3♠"]
    assert cards_text(grouping.unmatched) == "K♠"


def test_without_the_corner_the_ace_goes_high_when_that_leaves_less():
    grouping = group("Q♠ K♠ A♠ 2♠", corner=False)
    assert melds_text(grouping) == ["Q♠ K♠ A♠"]
    assert cards_text(grouping.unmatched) == "2♠"


def test_without_the_corner_the_aces_stay_in_their_sequences_rather_than_make_a_set():
    # A♠ A♥ A♦ as a set would leave 2♠ 3♠ K♠ 2♥ 3♥ Q♦ K♦ (40).
    grouping = group("K♠ A♠ 2♠ 3♠ A♥ 2♥ 3♥ Q♦ K♦ A♦", corner=False)
    assert melds_text(grouping) == ["A♠ 2♠ 3♠", "A♥ 2♥ 3♥", "Q♦ K♦ A♦"]
    assert cards_text(grouping.unmatched) == "K♠"


def test_a_sequence_round_the_corner_is_kept_when_every_rank_is_linked_to_the_next():
    # Every two neighbouring ranks lie together in some suit, so the search has to carry
    # K♠ A♠ 2♠ round the circle; the set of twos would leave K♠ A♠ 3♣ (24).
    grouping = group("K♠ A♠ 2♠ 2♦ 2♣ 3♣ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥")
    assert melds_text(grouping) == ["K♠ A♠ 2♠", "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"]
    assert cards_text(grouping.unmatched) == "2♦ 2♣ 3♣"


def test_with_the_corner_the_same_cards_are_one_sequence():
    assert melds_text(group("K♠ A♠ 2♠ 3♠")) == ["K♠ A♠ 2♠ 3♠"]
    assert melds_text(group("Q♠ K♠ A♠ 2♠")) == ["Q♠ K♠ A♠ 2♠"]


def test_a_hand_without_melds_pays_for_every_card():
    grouping = group("2♠ 4♥ 6♦ 8♣ 10♠ Q♥ A♦")
    assert grouping.matched == ()
    assert cards_text(grouping.unmatched) == "2♠ 10♠ 4♥ Q♥ A♦ 6♦ 8♣"
    assert pays(grouping) == 2 + 4 + 6 + 8 + 10 + 10 + 11


def test_an_empty_hand_pays_nothing():
    assert least_paying_grouping([], pip) == Grouping(matched=(), unmatched=())


def test_a_card_held_twice_is_refused():
    with pytest.raises(ValueError, match="7♠ is entered twice"):
        group("7♠ 8♠ 9♠ 7♠")


def test_a_card_worth_less_than_nothing_is_refused():
    with pytest.raises(ValueError, match="less than nothing"):
        least_paying_grouping(parse_cards("7♠ 8♠ 9♠"), lambda card: -1)


@pytest.mark.parametrize("seed", range(5))
def test_the_grouping_does_not_depend_on_the_order_of_the_cards(seed):
    hand = parse_cards("5♠ 5♥ 5♦ 5♣ 6♣ 7♣ 4♠ 3♠ 6♠ K♥ A♥ 2♥ 3♥ Q♦ Q♣")
    shuffled = random.Random(seed).sample(hand, len(hand))
    assert least_paying_grouping(shuffled, pip) == least_paying_grouping(hand, pip)


# Hypothesis: hands drawn from the whole pack, or from a few neighbouring ranks (round the
# corner too) so that sets and sequences overlap.


@st.composite
def hands(draw: st.DrawFn, max_size: int = 10) -> list[Card]:
    """Draw a hand of different cards."""
    if draw(st.booleans()):
        pool = PACK
    else:
        start = draw(st.integers(1, 13))
        ranks = {(start - 1 + step) % 13 + 1 for step in range(draw(st.integers(3, 6)))}
        pool = [card for card in PACK if card.rank in ranks]
    return draw(st.lists(st.sampled_from(pool), unique=True, max_size=max_size))


def is_meld(cards: tuple[Card, ...], corner: bool) -> bool:
    """Tell whether cards are a legal set or sequence, with or without the corner."""
    try:
        meld = classify(cards)  # Treppenrommé: the corner is allowed
    except InvalidMeldError:
        return False
    return corner or AcePosition.CORNER not in meld.ace_positions


def brute_force_payment(hand: list[Card], corner: bool) -> int:
    """Return the least payment over every split of the hand into melds and unmatched cards."""

    @functools.cache
    def least(rest: frozenset[Card]) -> int:
        if not rest:
            return 0
        first = min(rest)
        others = rest - {first}
        best = pip(first) + least(others)  # the first card is unmatched, or in a meld
        # A meld is one rank (a set) or one suit (a sequence): every meld with the first card
        # lies among the cards of its rank or among those of its suit (the pack has no jokers).
        same_rank = sorted(card for card in others if card.rank == first.rank)
        same_suit = sorted(card for card in others if card.suit == first.suit)
        for kin in (same_rank, same_suit):
            for size in range(2, len(kin) + 1):
                for partners in itertools.combinations(kin, size):
                    if is_meld((first, *partners), corner):
                        best = min(best, least(others - set(partners)))
        return best

    return least(frozenset(hand))


@RELAXED
@given(hands(), st.booleans())
def test_the_grouping_pays_the_least_of_every_possible_split(hand, corner):
    assert pays(least_paying_grouping(hand, pip, corner=corner)) == brute_force_payment(
        hand, corner
    )


def exhaustive_payment(hand: list[Card], corner: bool) -> int:
    """Return the least payment over every choice among all the hand's sets and runs."""
    held = set(hand)
    melds: set[frozenset[Card]] = set()
    for rank in Rank:
        same = [card for card in hand if card.rank == rank]
        for size in (3, 4):
            melds.update(frozenset(cards) for cards in itertools.combinations(same, size))
    for suit in Suit:
        for start in range(1, 14):
            for length in range(3, 14):
                ranks = [Rank((start - 1 + step) % 13 + 1) for step in range(length)]
                run = tuple(Card(suit=suit, rank=rank) for rank in ranks)
                if held.issuperset(run) and is_meld(run, corner):
                    melds.add(frozenset(run))
    holding = {card: [meld for meld in melds if card in meld] for card in hand}

    @functools.cache
    def least(rest: frozenset[Card]) -> int:
        if not rest:
            return 0
        first = min(rest)
        best = pip(first) + least(rest - {first})
        for meld in holding[first]:
            if meld <= rest:
                best = min(best, least(rest - meld))
        return best

    return least(frozenset(hand))


# Hands this large let every two neighbouring ranks lie together in some suit, so that the
# search must carry a sequence round the corner; smaller hands hardly ever do.
large_hands = st.lists(st.sampled_from(PACK), unique=True, min_size=24, max_size=30)


@settings(deadline=None, max_examples=50)
@given(large_hands, st.booleans())
def test_a_large_hand_pays_the_least_of_every_choice_among_its_sets_and_runs(hand, corner):
    assert pays(least_paying_grouping(hand, pip, corner=corner)) == exhaustive_payment(hand, corner)


@RELAXED
@given(hands(max_size=30))
def test_every_matched_meld_is_legal_and_lies_in_playing_order(hand):
    grouping = least_paying_grouping(hand, pip)
    for meld in grouping.matched:
        assert classify(meld).cards == meld


@RELAXED
@given(hands(max_size=30), st.booleans())
def test_the_matched_and_unmatched_cards_are_exactly_the_hand(hand, corner):
    grouping = least_paying_grouping(hand, pip, corner=corner)
    cards = [card for meld in grouping.matched for card in meld] + list(grouping.unmatched)
    assert sorted(cards) == sorted(hand)
    assert list(grouping.unmatched) == sorted(grouping.unmatched)


@RELAXED
@given(hands(max_size=30), st.booleans())
def test_the_payment_is_the_value_of_the_unmatched_cards(hand, corner):
    grouping = least_paying_grouping(hand, pip, corner=corner)
    matched = {card for meld in grouping.matched for card in meld}
    assert pays(grouping) == sum(pip(card) for card in hand if card not in matched)


@RELAXED
@given(hands(max_size=30))
def test_without_the_corner_no_matched_sequence_turns_it(hand):
    for meld in least_paying_grouping(hand, pip, corner=False).matched:
        assert AcePosition.CORNER not in classify(meld).ace_positions


@RELAXED
@given(hands(max_size=30))
def test_the_corner_never_makes_a_hand_pay_more(hand):
    with_corner = pays(least_paying_grouping(hand, pip))
    assert with_corner <= pays(least_paying_grouping(hand, pip, corner=False))


@RELAXED
@given(st.data(), hands(max_size=30), st.booleans())
def test_a_shuffled_hand_is_grouped_the_same(data, hand, corner):
    shuffled = data.draw(st.permutations(hand))
    assert least_paying_grouping(shuffled, pip, corner=corner) == least_paying_grouping(
        hand, pip, corner=corner
    )
