"""Melds (sets and sequences) and layoffs, valued by the variant's ace rules.

A meld may hold jokers where a rule system plays them (built in :mod:`scorekeeper.rules.jokers`);
one of natural cards only is a ``NaturalMeld``, whose ``cards`` are all cards.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from scorekeeper.rules.cards import Card, Piece, Rank, Suit, cards_text
from scorekeeper.rules.errors import (
    CardTwiceError,
    CornerNotAllowedError,
    GapInSequenceError,
    InvalidLayoffError,
    InvalidMeldError,
    MixedSuitsError,
    NotASequenceError,
    NotASetError,
    TooFewCardsError,
)
from scorekeeper.rules.messages import Message
from scorekeeper.rules.variants import TREPPENROMME, AcePosition, Variant

RANKS_IN_SUIT = len(Rank)
# G9: a sequence from the low ace to the high ace of one suit, where two packs hold both.
BOTH_ACES = RANKS_IN_SUIT + 1


class MeldKind(enum.Enum):
    """The two kinds of combination."""

    SET = "set"
    SEQUENCE = "sequence"


@dataclass(frozen=True)
class JokerPlace:
    """Where a joker lies in a meld (its index in ``cards``) and the cards it stands for (G2).

    In a sequence it stands for one card, the one its place needs; in a set for the set's rank
    in every suit that is missing (any of them, all worth the same).
    """

    index: int
    stands_for: tuple[Card, ...]


@dataclass(frozen=True)
class Meld:
    """A legal combination as it lies, each card valued by its position now.

    ``values`` are what each card scores where it lies; ``opening_values`` what it counts
    towards an opening (G3), which differs where melds score nothing but the opening has a
    minimum. A joker lies in ``cards`` as ``JKR=<card>`` when it stands for one card, as
    ``JKR`` in a set with several missing suits; ``jokers`` says where each lies and for what.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> meld = classify(parse_cards("A♣ 2♣ Q♣ K♣ 3♣"))
    >>> cards_text(meld.cards), meld.values, meld.value
    ('Q♣ K♣ A♣ 2♣ 3♣', (10, 10, 5, 2, 3), 30)
    """

    kind: MeldKind
    cards: tuple[Piece, ...]
    values: tuple[int, ...]
    ace_positions: tuple[AcePosition | None, ...]
    jokers: tuple[JokerPlace, ...] = ()
    opening_values: tuple[int, ...] = ()

    @property
    def value(self) -> int:
        """Return the sum of the card values."""
        return sum(self.values)

    @property
    def opening_value(self) -> int:
        """Return what the meld counts towards an opening (G3)."""
        return sum(self.opening_values)

    @property
    def as_cards(self) -> tuple[Card, ...]:
        """Return each place as a card: the card, or the (first) card its joker stands for.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> classify(parse_cards("6♠ 6♥ 6♦")).as_cards == tuple(parse_cards("6♠ 6♥ 6♦"))
        True
        """
        standing = {place.index: place.stands_for[0] for place in self.jokers}
        return tuple(
            piece if isinstance(piece, Card) else standing[index]
            for index, piece in enumerate(self.cards)
        )

    def __str__(self) -> str:
        return cards_text(self.cards)


@dataclass(frozen=True)
class NaturalMeld(Meld):
    """A meld of natural cards only, as every meld is where no jokers are played."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Layoff:
    """Cards added to a meld, valued by where they lie right after the layoff (R2)."""

    meld: Meld
    cards: tuple[Piece, ...]
    values: tuple[int, ...]

    @property
    def value(self) -> int:
        """Return what the layoff scores for the player who lays it off."""
        return sum(self.values)


@dataclass(frozen=True)
class NaturalLayoff(Layoff):
    """Natural cards laid off onto a meld of natural cards."""

    meld: NaturalMeld
    cards: tuple[Card, ...]


def classify(cards: Sequence[Card], variant: Variant = TREPPENROMME) -> NaturalMeld:
    """Return the set or sequence the cards form, in playing order, or raise why not.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> classify(parse_cards("6♠ 6♥ 6♦ 6♣")).value
    24
    """
    smallest = min(variant.set_sizes[0], variant.min_sequence)
    if not cards:
        raise TooFewCardsError("meld.no_cards", needed=smallest)
    refuse_card_twice(cards, variant, len(cards))
    ranks = Counter(card.rank for card in cards)
    suits = Counter(card.suit for card in cards)
    if len(ranks) == 1:
        return _as_set(cards, variant)
    if len(suits) == 1:
        return _as_sequence(cards, variant)
    if len(cards) < smallest:
        raise too_few(cards, smallest)
    explain_mixed(cards, ranks, suits)
    raise AssertionError("unreachable")  # pragma: no cover


def lay_off(
    meld_cards: Sequence[Card], added: Sequence[Card], variant: Variant = TREPPENROMME
) -> NaturalLayoff:
    """Add cards to a meld on the table and value each by its position afterwards.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> layoff = lay_off(parse_cards("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"), parse_cards("A♠ 2♠"))
    >>> layoff.values, layoff.value
    ((2, 10), 12)
    """
    before = classify(meld_cards, variant)
    if not added:
        raise InvalidLayoffError("layoff.no_cards")
    refuse_laid_off_twice(before, added, variant)
    already = [
        card
        for card in added
        if card in before.cards and not second_ace(card, before, len(added), variant)
    ]
    if already:
        raise InvalidLayoffError(
            "layoff.already_in_meld", cards=already, meld=before.cards, count=len(already)
        )
    if before.kind is MeldKind.SET:
        after = _lay_off_onto_set(before, added, variant)
    else:
        after = _lay_off_onto_sequence(before, added, variant)
    placed = laid_off_places(before, after, added)
    return NaturalLayoff(
        meld=after,
        cards=tuple(after.cards[index] for index in placed),
        values=tuple(after.values[index] for index in placed),
    )


def refuse_laid_off_twice(before: Meld, added: Sequence[Piece], variant: Variant) -> None:
    """Refuse a card laid off twice at once, but for both aces of a whole suit's ends (G9)."""
    seen: Counter[Piece] = Counter()
    for piece in added:
        seen[piece] += 1
        allowed = (
            2 if isinstance(piece, Card) and second_ace(piece, before, len(added), variant) else 1
        )
        if isinstance(piece, Card) and seen[piece] > allowed:
            raise InvalidLayoffError("layoff.card_twice", card=piece)


def second_ace(card: Card, before: Meld, added: int, variant: Variant) -> bool:
    """Tell whether a card laid off is the second ace of a sequence's suit, for its other end.

    Where two packs are played, a sequence of the whole suit holds both aces, one at each end
    (G9): the A♠ laid off onto ``2♠ … K♠ A♠`` goes below the 2, even where a joker stands for
    the A♠ already there (putting the card in the joker's place is a swap, not a layoff).
    """
    return (
        variant.both_aces_in_sequence
        and before.kind is MeldKind.SEQUENCE
        and card.rank == Rank.ACE
        and len(before.cards) + added == BOTH_ACES
    )


def laid_off_places(before: Meld, after: Meld, cards: Sequence[Piece]) -> list[int]:
    """Return where the natural cards laid off lie in the meld afterwards.

    Of two equal aces at the ends of a sequence (G9), the one laid off lies at the end the
    meld did not hold before: an ace lying high before makes the new one the low one.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> whole = classify(parse_cards("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"), GermanRummy())
    >>> both = classify([*whole.cards, Card.from_code("A♠")], GermanRummy())
    >>> laid_off_places(whole, both, parse_cards("A♠"))
    [0]
    """
    new = Counter(piece for piece in cards if isinstance(piece, Card))
    lying = {
        piece: position
        for piece, position in zip(before.cards, before.ace_positions, strict=True)
        if isinstance(piece, Card)
    }
    placed = []
    for index, (piece, position) in enumerate(zip(after.cards, after.ace_positions, strict=True)):
        if not isinstance(piece, Card) or not new[piece]:
            continue
        if piece not in lying or lying[piece] != position:
            placed.append(index)
    return placed


def _lay_off_onto_set(before: NaturalMeld, added: Sequence[Card], variant: Variant) -> NaturalMeld:
    refuse_onto_set(before, added, len(added), variant)
    return _as_set([*before.cards, *added], variant)


def refuse_onto_set(before: Meld, cards: Sequence[Card], added: int, variant: Variant) -> None:
    """Refuse cards of another rank onto a set, or more than ``added`` it has room for."""
    rank = before.as_cards[0].rank
    strangers = [card for card in cards if card.rank != rank]
    if strangers:
        raise InvalidLayoffError(
            "layoff.set_other_rank",
            cards=strangers,
            meld=before.cards,
            rank=rank,
            count=len(strangers),
        )
    largest = variant.set_sizes[1]
    if len(before.cards) + added > largest:
        room = largest - len(before.cards)
        if room == 0:
            raise InvalidLayoffError("layoff.set_complete", meld=before.cards, largest=largest)
        raise InvalidLayoffError("layoff.set_room", meld=before.cards, largest=largest, count=room)


def _lay_off_onto_sequence(
    before: NaturalMeld, added: Sequence[Card], variant: Variant
) -> NaturalMeld:
    suit = before.cards[0].suit
    strangers = [card for card in added if card.suit != suit]
    if strangers:
        raise InvalidLayoffError(
            "layoff.sequence_other_suit",
            cards=strangers,
            meld=before.cards,
            suit=suit,
            count=len(strangers),
        )
    refuse_onto_whole_suit(before, added, variant)
    try:
        return _as_sequence([*before.cards, *added], variant)
    except InvalidMeldError as error:
        reason = error.reason_message if isinstance(error, NotASequenceError) else error.as_message
        raise InvalidLayoffError(
            "layoff.does_not_fit",
            cards=tuple(added),
            meld=before.cards,
            reason=reason,
            count=len(added),
        ) from error


def refuse_onto_whole_suit(before: Meld, added: Sequence[Piece], variant: Variant) -> None:
    """Refuse cards onto a sequence of the whole suit; only its second ace may still go (G9)."""
    if len(before.cards) >= BOTH_ACES:
        raise InvalidLayoffError("layoff.sequence_both_aces", meld=before.cards)
    if len(before.cards) < RANKS_IN_SUIT:
        return
    # A joker can only stand for the ace here.
    aces = all(not isinstance(piece, Card) or piece.rank == Rank.ACE for piece in added)
    if not (variant.both_aces_in_sequence and aces and len(added) == 1):
        raise InvalidLayoffError("layoff.sequence_complete", meld=before.cards)


def _as_set(cards: Sequence[Card], variant: Variant) -> NaturalMeld:
    smallest, largest = variant.set_sizes
    if len(cards) < smallest:
        raise too_few(cards, smallest)
    suits = Counter(card.suit for card in cards)
    repeated = [suit for suit, count in suits.items() if count > 1]
    if repeated:
        raise NotASetError("set.suit_twice", cards=tuple(cards), suit=repeated[0])
    if len(cards) > largest:
        raise NotASetError("set.too_many", cards=tuple(cards), largest=largest)
    ordered = tuple(sorted(cards, key=lambda card: list(Suit).index(card.suit)))
    positions = tuple(AcePosition.IN_SET if c.rank == Rank.ACE else None for c in ordered)
    return _valued(MeldKind.SET, ordered, positions, variant)


def _as_sequence(cards: Sequence[Card], variant: Variant) -> NaturalMeld:
    if len(cards) < variant.min_sequence:
        raise too_few(cards, variant.min_sequence)
    by_rank = {int(card.rank): card for card in cards}
    if len(cards) == BOTH_ACES:
        # G9: both aces of the suit, one at each end (refuse_card_twice let only the ace twice).
        order = [*range(1, RANKS_IN_SUIT + 1), 1]
    elif len(cards) == RANKS_IN_SUIT:
        # R1: the whole suit is a sequence with the ace as its highest card.
        order = [*range(2, RANKS_IN_SUIT + 1), 1]
    else:
        order = _sequence_order(sorted(by_rank), cards, variant)
    ordered = tuple(by_rank[rank] for rank in order)
    return _valued(MeldKind.SEQUENCE, ordered, ace_positions(ordered), variant)


def ace_positions(sequence: Sequence[Card]) -> tuple[AcePosition | None, ...]:
    """Return where each ace of a sequence in playing order lies: low, high or the corner.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> ace_positions(parse_cards("K♠ A♠ 2♠"))
    (None, <AcePosition.CORNER: 'corner'>, None)
    """
    last = len(sequence) - 1
    return tuple(
        None
        if card.rank != Rank.ACE
        else AcePosition.LOW
        if index == 0
        else AcePosition.HIGH
        if index == last
        else AcePosition.CORNER
        for index, card in enumerate(sequence)
    )


def _sequence_order(ranks: list[int], cards: Sequence[Card], variant: Variant) -> list[int]:
    """Return the ranks in playing order, or raise naming the missing cards."""
    suit = cards[0].suit
    # Ranks stand on a circle A 2 ... K A. A legal sequence leaves exactly one arc of the
    # circle empty; the sequence starts right after it. The widest empty arc is taken as the
    # outside of the sequence, so the other arcs are the cards that are missing.
    arcs = []  # (missing count, index of the card after the arc)
    for index, rank in enumerate(ranks):
        previous = ranks[index - 1] if index else ranks[-1] - RANKS_IN_SUIT
        arcs.append((rank - previous - 1, index))
    # On a tie the arc across the corner is the outside, so 2 3 4 ... 8 9 10 reads naturally.
    outside = max(arcs, key=lambda arc: (arc[0], arc[1] == 0))
    start = outside[1]
    order = ranks[start:] + ranks[:start]
    crosses_corner = order[0] != 1 and order[-1] != 1 and 1 in order
    missing = [arc for arc in arcs if arc[0] > 0 and arc is not outside]
    if not missing and crosses_corner and not variant.ace_turns_corner:
        raise CornerNotAllowedError(
            "sequence.corner", cards=_in_order(suit, order), variant=variant
        )
    if not missing:
        return order
    gaps = []
    for _, index in missing:
        after = ranks[index]
        before = ranks[index - 1]
        between = [(before + step - 1) % RANKS_IN_SUIT + 1 for step in range(1, after - before)]
        if not between:  # the arc runs across the corner
            between = [
                (before + step - 1) % RANKS_IN_SUIT + 1
                for step in range(1, after + RANKS_IN_SUIT - before)
            ]
        gap = {
            "missing": _in_order(suit, between),
            "before": Card(suit=suit, rank=Rank(before)),
            "after": Card(suit=suit, rank=Rank(after)),
            "count": len(between),
        }
        gaps.append(Message("sequence.gap", gap))
    raise GapInSequenceError("sequence.missing", cards=_in_order(suit, order), gaps=gaps)


def _in_order(suit: Suit, ranks: Sequence[int]) -> tuple[Card, ...]:
    """Return the cards of one suit with these ranks, in this order."""
    return tuple(Card(suit=suit, rank=Rank(rank)) for rank in ranks)


def _valued(
    kind: MeldKind,
    cards: tuple[Card, ...],
    positions: tuple[AcePosition | None, ...],
    variant: Variant,
) -> NaturalMeld:
    values, opening_values = card_values(cards, positions, variant)
    return NaturalMeld(
        kind=kind,
        cards=cards,
        values=values,
        ace_positions=positions,
        opening_values=opening_values,
    )


def card_values(
    cards: Sequence[Card],
    positions: Sequence[AcePosition | None],
    variant: Variant,
    jokers: Collection[int] = (),
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Return what each card scores where it lies, and what it counts towards an opening.

    ``cards`` holds the card each joker stands for; ``jokers`` says at which places jokers
    lie, which score as the rule system values a joker (F6: 15 wherever it lies).
    """
    placed = list(zip(cards, positions, strict=True))
    return (
        tuple(
            variant.joker_meld_value(card, position)
            if index in jokers
            else variant.meld_value(card, position)
            for index, (card, position) in enumerate(placed)
        ),
        tuple(variant.opening_card_value(card, position) for card, position in placed),
    )


def refuse_card_twice(cards: Sequence[Card], variant: Variant, length: int) -> None:
    """Refuse a card entered twice in one meld, even where two packs hold it twice (G1).

    A meld of ``length`` pieces as long as the whole suit and one more (or longer: it is then
    refused as too long, not for its second ace) may hold its ace twice, where the rule system
    lets a sequence hold both aces (G9).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> refuse_card_twice(parse_cards("A♠ A♠ 2♠"), GermanRummy(), 3)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.CardTwiceError: A♠ is entered twice: a meld never holds two equal \
cards.
    """
    both_aces = variant.both_aces_in_sequence and length >= BOTH_ACES
    seen: Counter[Card] = Counter()
    for card in cards:
        seen[card] += 1
        if seen[card] > (2 if both_aces and card.rank == Rank.ACE else 1):
            raise CardTwiceError(
                "meld.card_twice" if variant.packs == 1 else "meld.equal_cards", card=card
            )


def too_few(cards: Sequence[Piece], needed: int) -> TooFewCardsError:
    """Return the error for a meld of fewer cards than it needs."""
    return TooFewCardsError("meld.too_few", needed=needed, cards=tuple(cards), count=len(cards))


def explain_mixed(
    cards: Sequence[Card],
    ranks: Counter[Rank],
    suits: Counter[Suit],
    shown: Sequence[Piece] | None = None,
) -> None:
    """Raise the error that best says why cards of several ranks and suits are no meld.

    ``shown`` is the meld as entered (with its jokers), if it is not just ``cards``.
    """
    shown = tuple(cards) if shown is None else tuple(shown)
    rank, rank_count = ranks.most_common(1)[0]
    suit, suit_count = suits.most_common(1)[0]
    if rank_count >= 2 and rank_count >= suit_count:
        strangers = [card for card in cards if card.rank != rank]
        raise NotASetError(
            "set.other_rank", cards=shown, strangers=strangers, rank=rank, count=len(strangers)
        )
    if suit_count >= 2:
        strangers = [card for card in cards if card.suit != suit]
        raise MixedSuitsError(
            "sequence.mixed_suits",
            cards=shown,
            strangers=strangers,
            suit=suit,
            count=len(strangers),
        )
    raise InvalidMeldError("meld.neither", cards=shown)
