"""Hostile input to the rules core: whatever comes in, only a RulesError comes out.

Every function is fed arbitrary text, arbitrary card lists (repeated cards included) and
arbitrary players; it must either answer consistently or refuse with a ``RulesError``. Any
other exception (IndexError, KeyError, AssertionError, RecursionError ...) fails the test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    TREPPENROMME,
    Card,
    MeldKind,
    RulesError,
    Table,
    cards_text,
    check_target,
    classify,
    full_pack,
    lay_off,
    parse_cards,
    seat_players,
)

T = TypeVar("T")

FUZZ = settings(deadline=None, max_examples=300)

PACK = full_pack()
cards = st.sampled_from(PACK)
# Lists of cards as anyone might send them: repeated cards, empty lists, far too many cards.
card_lists = st.lists(cards, max_size=60)
distinct_card_lists = st.lists(cards, max_size=20, unique=True)

# Characters the card notation gives meaning to, with the odd ones out around them.
NOTATION = "AaTtJjBbQqDdKk1234567890♠♤♥♡♦♢♣♧SsHhCc ,;-–\ufe0e\ufe0f\n\t"
notation_text = st.text(alphabet=NOTATION, max_size=80)
any_text = st.text(max_size=200)  # every Unicode category: controls, surrogates, emoji
control_text = st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs"]))
# Long strings: a short piece repeated up to 20,000 times (Hypothesis' own buffer stays small).
long_text = st.builds(
    lambda piece, times: piece * times,
    st.one_of(notation_text, any_text).filter(bool),
    st.integers(100, 20_000),
)
texts = st.one_of(notation_text, any_text, control_text, long_text)


def refused_or(function: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
    """Call a rules function; return None when it refuses with a RulesError.

    Any other exception is left to fail the test.
    """
    try:
        return function(*args, **kwargs)
    except RulesError as error:
        assert str(error), f"{type(error).__name__} without a message"
        assert error.message("de"), f"{type(error).__name__} without a German message"
        return None


@FUZZ
@given(texts)
def test_reading_any_text_either_gives_cards_that_read_back_the_same_or_says_why_not(text):
    read = refused_or(parse_cards, text)
    if read is not None:
        assert all(isinstance(card, Card) for card in read)
        assert parse_cards(cards_text(read)) == read


@FUZZ
@given(texts)
def test_any_text_checked_as_a_meld_is_a_meld_or_a_rules_error(text):
    read = refused_or(parse_cards, text)
    if read is not None:
        refused_or(classify, read)


@FUZZ
@given(card_lists)
def test_classify_returns_the_cards_it_was_given_valued_one_by_one_or_refuses(given_cards):
    meld = refused_or(classify, given_cards)
    if meld is None:
        return
    assert Counter(meld.cards) == Counter(given_cards)
    assert len(meld.values) == len(meld.cards) == len(meld.ace_positions)
    assert meld.value == sum(meld.values)
    assert all(value > 0 for value in meld.values)
    if meld.kind is MeldKind.SET:
        assert len({card.rank for card in meld.cards}) == 1
    else:
        assert len({card.suit for card in meld.cards}) == 1


@FUZZ
@given(card_lists, card_lists)
def test_a_layoff_adds_exactly_the_laid_off_cards_to_the_meld_or_refuses(meld_cards, added):
    layoff = refused_or(lay_off, meld_cards, added)
    if layoff is None:
        return
    assert Counter(layoff.cards) == Counter(added)
    assert Counter(layoff.meld.cards) == Counter(meld_cards) + Counter(added)
    assert len(layoff.values) == len(layoff.cards)
    assert layoff.value == sum(layoff.values)
    assert layoff.meld.value == sum(layoff.meld.values)


players = st.lists(st.text(max_size=3), min_size=0, max_size=5)
hands = st.one_of(card_lists, st.integers(-1000, 1000))


@FUZZ
@given(st.data(), players, st.booleans())
def test_settling_any_end_of_game_books_the_hands_or_refuses(data, seated, romme):
    winner = data.draw(st.one_of(st.none(), st.sampled_from(seated or [""]), st.text(max_size=3)))
    candidates = [*seated, *data.draw(st.lists(st.text(max_size=3), max_size=2))]
    hand_of = data.draw(st.dictionaries(st.sampled_from(candidates or [""]), hands, max_size=6))
    never = data.draw(st.lists(st.sampled_from(candidates or [""]), max_size=3))
    settled = refused_or(
        TREPPENROMME.settle, seated, winner, hand_of, romme=romme, never_melded=never
    )
    if settled is None:
        return
    assert set(settled.gains) == set(seated)
    if winner is None:
        assert not any(settled.gains.values())
        return
    losers = [player for player in seated if player != winner]
    assert set(settled.hand_points) == set(losers)
    for loser in losers:
        hand = hand_of[loser]
        expected = hand if isinstance(hand, int) else TREPPENROMME.hand_points(hand)
        assert settled.hand_points[loser] == expected >= 0
    owed = sum(settled.hand_points[loser] * settled.factors[loser] for loser in losers)
    assert settled.gains[winner] == owed


@FUZZ
@given(
    st.dictionaries(st.text(max_size=3), st.integers(-(10**9), 10**9), max_size=5),
    st.integers(-(10**9), 10**9),
    st.booleans(),
)
def test_the_standing_of_any_totals_names_a_sole_leader_at_the_target_or_refuses(
    totals, target, in_progress
):
    standing = refused_or(
        lambda: TREPPENROMME.with_end({"target": target}).standing(
            totals, 0, game_in_progress=in_progress
        )
    )
    if standing is None:
        assert target < 1
        return
    assert standing.totals == totals
    if standing.winner is not None:
        assert not in_progress
        assert standing.leaders == (standing.winner,)
        assert totals[standing.winner] >= target
    assert all(standing.to_go(player) >= 0 for player in totals)


@FUZZ
@given(st.lists(st.one_of(any_text, notation_text), max_size=6), st.integers())
def test_seating_any_names_and_target_gives_tidy_names_or_refuses(names, target):
    seated = refused_or(seat_players, names)
    if seated is not None:
        assert len(seated) == len(names)
        assert len({name.casefold() for name in seated}) == len(seated)
        assert all(name and name == " ".join(name.split()) for name in seated)
    if refused_or(check_target, target) is None:
        assert target < 1


@st.composite
def table_moves(draw: st.DrawFn) -> list[tuple[int, int | None, list[Card]]]:
    """Draw entries for a table: melds and layoffs onto keys that may or may not exist."""
    moves = []
    for key in range(draw(st.integers(0, 12))):
        onto = draw(st.one_of(st.none(), st.integers(-1, key)))
        moves.append((key, onto, draw(st.one_of(distinct_card_lists, card_lists))))
    return moves


@FUZZ
@given(table_moves())
def test_a_table_fed_any_entries_never_holds_a_card_twice(moves):
    table: Table[int] = Table()
    for key, onto, entry_cards in moves:
        before = {meld_key: meld.cards for meld_key, meld in table.melds.items()}
        if onto is None:
            played = refused_or(table.meld, key, entry_cards)
        else:
            played = refused_or(table.lay_off, key, onto, entry_cards)
        if played is None:  # a refused entry leaves the table as it was
            assert {k: meld.cards for k, meld in table.melds.items()} == before
        lying = [card for meld in table.melds.values() for card in meld.cards]
        assert len(lying) == len(set(lying)) == len(table.cards)
        assert set(lying) == table.cards
