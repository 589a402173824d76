"""Melds, layoffs and joker swaps with jokers, for a rule system that plays them (G1, G2, G4).

A joker stands for one natural card: in a set for the set's rank in a missing suit, in a
sequence for the card its place needs. A meld holds at least as many natural cards as jokers;
two jokers lie side by side only in a sequence of four cards or more, three never, while a set,
which has no order, may hold two beside two natural cards. A joker at
the end of a sequence that could stand for either neighbour is in doubt, and the recorder says
which (``JKR=7♠``); the scorekeeper never guesses.

>>> from scorekeeper.rules.cards import cards_text, parse_pieces
>>> from scorekeeper.rules.variants.german_rummy import GermanRummy
>>> meld = classify_pieces(parse_pieces("J♣ Q♣ JKR A♣"), GermanRummy())
>>> cards_text(meld.cards), meld.jokers, meld.opening_value
('J♣ Q♣ JKR=K♣ A♣', (JokerPlace(index=2, stands_for=(Card.from_code('K♣'),)),), 41)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper.rules.cards import Card, Joker, Piece, Rank, Suit
from scorekeeper.rules.errors import (
    CornerNotAllowedError,
    GapInSequenceError,
    InvalidLayoffError,
    InvalidMeldError,
    JokerError,
    JokerInDoubtError,
    NotASequenceError,
    NotASetError,
    SwapError,
)
from scorekeeper.rules.melds import (
    BOTH_ACES,
    RANKS_IN_SUIT,
    JokerPlace,
    Layoff,
    Meld,
    MeldKind,
    ace_positions,
    card_values,
    classify,
    explain_mixed,
    laid_off_places,
    lay_off,
    refuse_card_twice,
    refuse_laid_off_twice,
    refuse_onto_set,
    refuse_onto_whole_suit,
    second_ace,
    too_few,
)
from scorekeeper.rules.messages import OneOf
from scorekeeper.rules.variants import AcePosition, Variant

# Ranks in playing order: a sequence is a window of them (1 is the ace, also after the king).
Window = tuple[int, ...]


@dataclass(frozen=True)
class Swap(Layoff):
    """A joker swap (G4): cards put in a joker's place, and the new meld the joker went into.

    ``meld`` is the meld as it lies after the swap, ``cards`` the cards put in and ``values``
    what they score there; ``value`` adds what the new meld scores.
    """

    new_meld: Meld

    @property
    def value(self) -> int:
        """Return what the swap scores: the cards put in and the new meld."""
        return sum(self.values) + self.new_meld.value


def refuse_jokers(variant: Variant) -> None:
    """Refuse a joker in a rule system that is played without jokers."""
    if variant.jokers == 0:
        raise InvalidMeldError("meld.no_jokers", variant=variant)


def classify_pieces(pieces: Sequence[Piece], variant: Variant) -> Meld:
    """Return the set or sequence that cards and jokers form, in playing order, or raise why not.

    Natural cards alone are classified as :func:`~scorekeeper.rules.melds.classify` does.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> str(classify_pieces(parse_pieces("6♠ 6♥ JKR"), GermanRummy()).jokers[0].stands_for[1])
    '6♣'
    """
    naturals = [piece for piece in pieces if isinstance(piece, Card)]
    jokers = [piece for piece in pieces if isinstance(piece, Joker)]
    if not jokers:
        return classify(naturals, variant)
    refuse_jokers(variant)
    shown = tuple(pieces)
    smallest = min(variant.set_sizes[0], variant.min_sequence)
    if len(shown) < smallest:
        raise too_few(shown, smallest)
    refuse_card_twice(naturals, variant, len(shown))
    if len(naturals) < len(jokers):
        raise JokerError("joker.too_many", cards=shown)
    ranks = Counter(card.rank for card in naturals)
    suits = Counter(card.suit for card in naturals)
    if len(ranks) == 1:
        return _set_with_joker(naturals, jokers, shown, variant)
    if len(suits) == 1:
        return _sequence_with_jokers(naturals, jokers, shown, variant)
    explain_mixed(naturals, ranks, suits, shown)
    raise AssertionError("unreachable")  # pragma: no cover


def lay_off_pieces(meld_cards: Sequence[Piece], added: Sequence[Piece], variant: Variant) -> Layoff:
    """Add cards and jokers to a meld on the table; value each by its place afterwards (R2).

    The meld's jokers stay what they stand for; a joker laid off at an end that could be
    either neighbour is in doubt (G2) until it is written ``JKR=<card>``.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> layoff = lay_off_pieces(parse_pieces("A♠ 2♠ 3♠"), parse_pieces("JKR"), GermanRummy())
    >>> str(layoff.meld), layoff.cards
    ('A♠ 2♠ 3♠ JKR=4♠', (Joker.from_code('JKR=4♠'),))
    """
    before = classify_pieces(meld_cards, variant)
    if not added:
        raise InvalidLayoffError("layoff.no_cards")
    cards = [piece for piece in added if isinstance(piece, Card)]
    jokers = [piece for piece in added if isinstance(piece, Joker)]
    if not jokers and not before.jokers:
        lying = [piece for piece in before.cards if isinstance(piece, Card)]
        return lay_off(lying, cards, variant)
    refuse_jokers(variant)
    refuse_laid_off_twice(before, added, variant)
    already = [
        card
        for card in cards
        if card in before.cards and not second_ace(card, before, len(added), variant)
    ]
    if already:
        raise InvalidLayoffError(
            "layoff.already_in_meld", cards=already, meld=before.cards, count=len(already)
        )
    if before.kind is MeldKind.SET:
        refuse_onto_set(before, cards, len(added), variant)
        # A natural card laid off for the suit a joker was named for: the joker takes another.
        renamed = [
            Joker() if isinstance(piece, Joker) and piece.stands_for in cards else piece
            for piece in before.cards
        ]
        after = classify_pieces([*renamed, *added], variant)
        # A set's jokers lie after its natural cards: the new ones are the last.
        new_jokers = {place.index for place in after.jokers[len(before.jokers) :]}
    else:
        _refuse_onto_sequence(before, added, variant)
        try:
            after = classify_pieces([*before.cards, *added], variant)
        except NotASequenceError as error:
            raise InvalidLayoffError(
                "layoff.does_not_fit",
                cards=tuple(added),
                meld=before.cards,
                reason=error.reason_message,
                count=len(added),
            ) from error
        new_jokers = _new_jokers(before, after)
    placed = sorted({*new_jokers, *laid_off_places(before, after, cards)})
    return Layoff(
        meld=after,
        cards=tuple(after.cards[index] for index in placed),
        values=tuple(after.values[index] for index in placed),
    )


def swap_joker(
    meld_cards: Sequence[Piece],
    put_in: Sequence[Piece],
    new_meld: Sequence[Piece],
    variant: Variant,
) -> Swap:
    """Take a joker from a meld for the natural card it stands for, into a new meld (G4).

    In a set the card put in is one of the missing suits; where the table plays the stricter
    house rule, the joker leaves a set only when the set becomes four natural cards. The new
    meld holds the joker taken, written ``JKR``.

    >>> from scorekeeper.rules.cards import parse_cards, parse_pieces
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> swap = swap_joker(parse_pieces("6♠ 6♥ JKR"), parse_cards("6♣"),
    ...                   parse_pieces("8♥ JKR 10♥"), GermanRummy())
    >>> str(swap.meld), str(swap.new_meld)
    ('6♠ 6♥ 6♣', '8♥ JKR=9♥ 10♥')
    """
    if not variant.swaps_jokers():
        raise SwapError("swap.not_played", variant=variant)
    before = classify_pieces(meld_cards, variant)
    if not before.jokers:
        raise SwapError("swap.no_joker", meld=before.cards)
    if not put_in:
        raise SwapError("swap.no_cards", meld=before.cards)
    cards = [piece for piece in put_in if isinstance(piece, Card)]
    if len(cards) < len(put_in):
        raise SwapError("swap.joker_for_joker")
    # Two jokers of a sequence of both aces (G9) may stand for the same ace.
    standing = Counter(place.stands_for[0] for place in before.jokers)
    room = standing if before.kind is MeldKind.SEQUENCE else Counter()
    twice = next(
        (card for at, card in enumerate(cards) if cards[: at + 1].count(card) > max(1, room[card])),
        None,
    )
    if twice is not None:
        raise SwapError("layoff.card_twice", card=twice)
    if before.kind is MeldKind.SET:
        after_pieces, taken = _swap_in_set(before, cards, variant)
    else:
        after_pieces = _swap_in_sequence(before, cards)
        taken = len(cards)
    if sum(isinstance(piece, Joker) for piece in new_meld) < taken:
        raise SwapError("swap.joker_not_in_new_meld")
    new = classify_pieces(new_meld, variant)
    after = classify_pieces(after_pieces, variant)
    put = set(cards)
    placed = [
        index for index, piece in enumerate(after.cards) if isinstance(piece, Card) and piece in put
    ]
    return Swap(
        meld=after,
        cards=tuple(after.cards[index] for index in placed),
        values=tuple(after.values[index] for index in placed),
        new_meld=new,
    )


# --- sets ------------------------------------------------------------------------------------


def _set_with_joker(
    naturals: Sequence[Card], jokers: Sequence[Joker], shown: tuple[Piece, ...], variant: Variant
) -> Meld:
    """Return a set of natural cards and jokers, which stand for the missing suits (G1, G2).

    A set has no order, so two jokers beside two natural cards make a set of four. A joker the
    recorder wrote ``JKR=<card>`` keeps that card; the others stand for the suits still
    missing: for the one left, not in doubt, or, where more are left, each for any of them.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> str(classify_pieces(parse_pieces("6♠ 6♥ JKR=6♦ JKR"), GermanRummy()))
    '6♠ 6♥ JKR=6♦ JKR=6♣'
    """
    largest = variant.set_sizes[1]
    suits = {card.suit for card in naturals}
    if len(shown) > largest:
        raise NotASetError("set.too_many", cards=shown, largest=largest)
    rank = naturals[0].rank
    missing = tuple(Card(suit=suit, rank=rank) for suit in Suit if suit not in suits)
    said = [joker.stands_for for joker in jokers if joker.stands_for is not None]
    for at, card in enumerate(said):
        if card not in missing or card in said[:at]:
            choices = OneOf(tuple(spot for spot in missing if spot not in said[:at]))
            raise JokerError("joker.cannot_stand_for", cards=shown, card=card, choices=choices)
    ordered = sorted(naturals)
    left = tuple(card for card in missing if card not in said)
    placed: list[Joker] = []
    places: list[JokerPlace] = []
    for joker in jokers:
        index = len(ordered) + len(places)
        if joker.stands_for is not None:
            # The card said first; in a set of three the joker still stands for any missing suit.
            others = left if len(jokers) == 1 else ()
            placed.append(joker)
            places.append(JokerPlace(index=index, stands_for=(joker.stands_for, *others)))
        elif len(left) == 1:
            placed.append(Joker(stands_for=left[0]))
            places.append(JokerPlace(index=index, stands_for=left))
        else:
            at = len(places) - len(said)
            placed.append(Joker())
            places.append(JokerPlace(index=index, stands_for=left[at:] + left[:at]))
    positions = (AcePosition.IN_SET if rank == Rank.ACE else None,) * len(shown)
    standing = [place.stands_for[0] for place in places]
    joker_at = [place.index for place in places]
    values, opening_values = card_values([*ordered, *standing], positions, variant, joker_at)
    return Meld(
        kind=MeldKind.SET,
        cards=(*ordered, *placed),
        values=values,
        ace_positions=positions,
        jokers=tuple(places),
        opening_values=opening_values,
    )


def _swap_in_set(before: Meld, cards: Sequence[Card], variant: Variant) -> tuple[list[Piece], int]:
    """Return the set with jokers replaced by the cards put in, and how many left, or raise.

    Each card put in takes one joker's place (a set of two natural cards and two jokers may
    give up one or both, G1); by the stricter house rule every joker leaves at once, when the
    set becomes four natural cards.
    """
    missing = tuple(sorted({card for place in before.jokers for card in place.stands_for}))
    wrong = [card for card in cards if card not in missing]
    if wrong:
        raise SwapError(
            "swap.wrong_card",
            cards=wrong,
            meld=before.cards,
            choices=OneOf(missing),
            count=len(wrong),
        )
    if variant.swap_needs_full_set():
        if len(cards) != len(missing):
            raise SwapError("swap.set_needs_four", missing=missing)
    elif len(cards) > len(before.jokers):
        raise SwapError("swap.one_card", meld=before.cards, choices=OneOf(missing))
    taken = len(before.jokers) if variant.swap_needs_full_set() else len(cards)
    staying = [piece for piece in before.cards if isinstance(piece, Joker)]
    for card in cards[:taken]:
        # The card takes the joker that stands for it, else one the recorder did not name.
        named = [joker for joker in staying if joker.stands_for == card]
        unnamed = [joker for joker in staying if joker.stands_for is None]
        staying.remove((named or unnamed or staying)[0])
    return [*(piece for piece in before.cards if isinstance(piece, Card)), *cards, *staying], taken


# --- sequences -------------------------------------------------------------------------------


def _sequence_with_jokers(
    naturals: Sequence[Card], jokers: Sequence[Joker], shown: tuple[Piece, ...], variant: Variant
) -> Meld:
    """Return a sequence of natural cards and jokers, each joker standing for its place."""
    suit = naturals[0].suit
    # Ranks with their numbers: a sequence of both aces (G9) holds the ace twice.
    have = Counter(int(card.rank) for card in naturals)
    fitting = [window for window in _windows(len(shown), variant) if have <= Counter(window)]
    if not fitting:
        raise _no_room(naturals, len(jokers), shown, variant)
    spaced = [window for window in fitting if not _three_jokers_side_by_side(window, have)]
    if not spaced:
        raise JokerError("joker.three_side_by_side", cards=shown)
    said = [joker.stands_for for joker in jokers if joker.stands_for is not None]
    possible = spaced
    for at, card in enumerate(said):
        narrowed = [window for window in possible if _fits(window, have, suit, said[: at + 1])]
        if not narrowed:
            choices = [
                spot
                for spot in _ordered_union(_spots(window, have, suit) for window in possible)
                if spot not in said[:at]
            ]
            raise JokerError(
                "joker.cannot_stand_for", cards=shown, card=card, choices=OneOf(tuple(choices))
            )
        possible = narrowed
    spot_sets = {frozenset(_spots(window, have, suit)) for window in possible}
    if len(spot_sets) > 1:
        common = frozenset.intersection(*spot_sets)
        choices = [
            spot
            for spot in _ordered_union(_spots(window, have, suit) for window in possible)
            if spot not in common
        ]
        raise JokerInDoubtError("joker.in_doubt", choices=choices, cards=shown, choice=choices[-1])
    # Only a whole suit with its ace from a joker lies two ways (A 2 ... K or 2 ... K A); its
    # ace is the highest card, as R1 has it for Treppenrommé.
    return _sequence_in(possible[-1], have, suit, variant)


def _new_jokers(before: Meld, after: Meld) -> set[int]:
    """Return where the jokers laid off onto a sequence lie in it afterwards.

    A joker stands for the same card before and after a layoff, though it may move to the
    other end (a whole suit's ace lies high, R1); of two jokers for the same ace (G9), the
    new one lies at the end the old one did not.
    """
    old = Counter(
        (place.stands_for[0], before.ace_positions[place.index]) for place in before.jokers
    )
    moved = []
    for place in after.jokers:
        at = (place.stands_for[0], after.ace_positions[place.index])
        if old[at]:
            old[at] -= 1
        else:
            moved.append(place)
    left = Counter(card for card, _ in old.elements())
    new = set()
    for place in moved:
        if left[place.stands_for[0]]:
            left[place.stands_for[0]] -= 1
        else:
            new.add(place.index)
    return new


def _refuse_onto_sequence(before: Meld, added: Sequence[Piece], variant: Variant) -> None:
    """Refuse cards of another suit, a card a joker stands for, or cards onto a whole suit.

    The second ace of a sequence that may hold both (G9) goes to the free end, even where a
    joker stands for the first.
    """
    cards = [piece for piece in added if isinstance(piece, Card)]
    suit = before.as_cards[0].suit
    strangers = [card for card in cards if card.suit != suit]
    if strangers:
        raise InvalidLayoffError(
            "layoff.sequence_other_suit",
            cards=strangers,
            meld=before.cards,
            suit=suit,
            count=len(strangers),
        )
    standing = {place.stands_for[0] for place in before.jokers}
    swapped = [
        card
        for card in cards
        if card in standing and not second_ace(card, before, len(added), variant)
    ]
    if swapped:
        raise InvalidLayoffError(
            "layoff.joker_there", cards=swapped, meld=before.cards, count=len(swapped)
        )
    refuse_onto_whole_suit(before, added, variant)


def _swap_in_sequence(before: Meld, cards: Sequence[Card]) -> list[Piece]:
    """Return the sequence with each joker the cards stand for replaced by its card."""
    places: dict[Card, list[int]] = {}
    for place in before.jokers:
        places.setdefault(place.stands_for[0], []).append(place.index)
    wrong = [card for card in cards if card not in places]
    if wrong:
        raise SwapError(
            "swap.wrong_card",
            cards=wrong,
            meld=before.cards,
            choices=OneOf(tuple(places)),
            count=len(wrong),
        )
    # Of two jokers for the same ace (G9), the high one is taken first.
    put = {places[card].pop(): card for card in cards}
    return [put.get(index, piece) for index, piece in enumerate(before.cards)]


def _windows(length: int, variant: Variant) -> list[Window]:
    """Return every run of ``length`` ranks a sequence can be, each in playing order.

    Without the corner an ace lies below the 2 or above the king; with it, anywhere on the
    circle, and a whole suit lies 2 ... K A (R1). Where a sequence may hold both aces (G9),
    the whole suit and one more card lies A 2 ... K A.

    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> _windows(13, GermanRummy())[1][-2:], len(_windows(3, GermanRummy()))
    ((13, 1), 12)
    >>> _windows(14, GermanRummy())[0][:2], _windows(14, GermanRummy())[0][-2:]
    ((1, 2), (13, 1))
    """
    if length == BOTH_ACES and variant.both_aces_in_sequence:
        return [(*range(1, RANKS_IN_SUIT + 1), 1)]
    if length > RANKS_IN_SUIT:
        return []
    if variant.ace_turns_corner:
        starts = range(2, 3) if length == RANKS_IN_SUIT else range(1, RANKS_IN_SUIT + 1)
    else:
        starts = range(1, RANKS_IN_SUIT + 3 - length)
    return [
        tuple((start + step - 1) % RANKS_IN_SUIT + 1 for step in range(length)) for start in starts
    ]


def _filled(window: Window, have: Counter[int]) -> list[bool]:
    """Tell for each place of a window whether a natural card takes it (the rest are jokers)."""
    left = Counter(have)
    filled = []
    for rank in window:
        filled.append(left[rank] > 0)
        left[rank] -= 1
    return filled


def _spots(window: Window, have: Counter[int], suit: Suit) -> list[Card]:
    """Return the cards the jokers stand for in a window, in playing order."""
    return [
        Card(suit=suit, rank=Rank(rank))
        for rank, filled in zip(window, _filled(window, have), strict=True)
        if not filled
    ]


def _fits(window: Window, have: Counter[int], suit: Suit, said: Sequence[Card]) -> bool:
    """Tell whether jokers said to stand for these cards all have a place in the window."""
    return Counter(said) <= Counter(_spots(window, have, suit))


def _three_jokers_side_by_side(window: Window, have: Counter[int]) -> bool:
    run = 0
    for filled in _filled(window, have):
        run = 0 if filled else run + 1
        if run == 3:
            return True
    return False


def _ordered_union(groups: Iterable[Iterable[Card]]) -> list[Card]:
    """Return the cards of several lists once each, in the order they first appear."""
    seen: list[Card] = []
    for group in groups:
        for card in group:
            if card not in seen:
                seen.append(card)
    return seen


def _sequence_in(window: Window, have: Counter[int], suit: Suit, variant: Variant) -> Meld:
    """Return the sequence lying in a window, jokers in the places no natural card takes.

    Of both aces (G9), a natural ace takes the low end and a joker the high one.
    """
    cards = tuple(Card(suit=suit, rank=Rank(rank)) for rank in window)
    positions = ace_positions(cards)
    filled = _filled(window, have)
    pieces: tuple[Piece, ...] = tuple(
        card if natural else Joker(stands_for=card)
        for card, natural in zip(cards, filled, strict=True)
    )
    joker_at = [index for index, natural in enumerate(filled) if not natural]
    values, opening_values = card_values(cards, positions, variant, joker_at)
    return Meld(
        kind=MeldKind.SEQUENCE,
        cards=pieces,
        values=values,
        ace_positions=positions,
        jokers=tuple(
            JokerPlace(index=index, stands_for=(card,))
            for index, (card, natural) in enumerate(zip(cards, filled, strict=True))
            if not natural
        ),
        opening_values=opening_values,
    )


def _no_room(
    naturals: Sequence[Card], jokers: int, shown: tuple[Piece, ...], variant: Variant
) -> InvalidMeldError:
    """Return why cards of one suit and jokers make no sequence of their number."""
    suit = naturals[0].suit
    have = Counter(int(card.rank) for card in naturals)
    if variant.both_aces_in_sequence and len(shown) > BOTH_ACES:
        return NotASequenceError("sequence.too_long_both_aces", cards=shown)
    if len(shown) > RANKS_IN_SUIT and not variant.both_aces_in_sequence:
        return NotASequenceError("sequence.too_long", cards=shown)
    if not variant.ace_turns_corner:
        around = [
            tuple((start + step - 1) % RANKS_IN_SUIT + 1 for step in range(len(shown)))
            for start in range(1, RANKS_IN_SUIT + 1)
        ]
        if any(have <= Counter(window) for window in around):
            return CornerNotAllowedError("sequence.corner", cards=shown, variant=variant)
    for length in range(len(have), RANKS_IN_SUIT + 1):
        for window in _windows(length, variant):
            if have <= Counter(window):
                missing = _spots(window, have, suit)
                return GapInSequenceError(
                    "sequence.jokers_short", cards=shown, missing=missing, count=jokers
                )
    raise AssertionError("a suit holds every rank")  # pragma: no cover
