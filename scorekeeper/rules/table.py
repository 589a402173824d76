"""The melds lying on the table during one game, built up entry by entry."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

from scorekeeper.rules.cards import Card, Joker, Piece
from scorekeeper.rules.errors import CardAlreadyPlayedError, InvalidLayoffError, RulesError
from scorekeeper.rules.jokers import (
    Swap,
    classify_pieces,
    lay_off_pieces,
    refuse_jokers,
    swap_joker,
)
from scorekeeper.rules.melds import Layoff, Meld
from scorekeeper.rules.variants import TREPPENROMME, Variant

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class TableEntry(Generic[K]):
    """One recorded entry: a meld (``onto`` is None) or a layoff onto the meld keyed ``onto``.

    A joker swap (G4) puts ``cards`` into the meld keyed ``onto`` in its joker's place and
    melds ``new_meld``, which holds the joker, under ``key``.
    """

    key: K
    cards: tuple[Piece, ...]
    onto: K | None = None
    new_meld: tuple[Piece, ...] | None = None

    @property
    def from_hand(self) -> int:
        """Return how many cards the entry took from the player's hand.

        A swap's new meld holds the joker it took from the table.

        >>> from scorekeeper.rules.cards import parse_pieces
        >>> TableEntry(1, parse_pieces("6♣"), onto=0, new_meld=parse_pieces("8♥ JKR 10♥")).from_hand
        3
        """
        return len(self.cards) + (len(self.new_meld) - 1 if self.new_meld is not None else 0)


class Table(Generic[K]):
    """The melds on the table, keyed by the entry that melded them, with the copies lying.

    Every card lies as often as the rule system's packs hold it (once in Treppenrommé, twice
    in German Rummy), jokers as often as it has them. ``cards`` is every card lying at least
    once, ``copies`` how often each lies, ``jokers`` how many jokers lie. ``melds`` are the
    melds as they lie now, ``put_down`` each as it was put down (a swap's new meld too), which
    is what it counts towards an opening (G3).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> table = Table()
    >>> table.meld(1, parse_cards("J♦ Q♦ K♦")).value
    30
    >>> table.lay_off(2, 1, parse_cards("A♦")).value
    10
    >>> str(table.melds[1])
    'J♦ Q♦ K♦ A♦'
    """

    def __init__(self, variant: Variant = TREPPENROMME) -> None:
        self.variant = variant
        self.melds: dict[K, Meld] = {}
        self.put_down: dict[K, Meld] = {}
        self.cards: set[Card] = set()
        self.copies: Counter[Card] = Counter()
        self.jokers = 0

    def meld(self, key: K, cards: Sequence[Piece]) -> Meld:
        """Put a new meld on the table and return it valued."""
        self._refuse_on_table(cards)
        meld = _classified(tuple(cards), self.variant)
        self.melds[key] = self.put_down[key] = meld
        self._lay(meld.cards)
        return meld

    def lay_off(self, key: K, onto: K, cards: Sequence[Piece]) -> Layoff:
        """Lay cards off onto a meld on the table and return the layoff valued (R2, R3)."""
        if onto not in self.melds:
            raise InvalidLayoffError("layoff.meld_not_on_table")
        self._refuse_on_table(cards)
        layoff = _laid_off(self.melds[onto].cards, tuple(cards), self.variant)
        self.melds[onto] = layoff.meld
        self._lay(layoff.cards)
        return layoff

    def swap(self, key: K, onto: K, cards: Sequence[Piece], new_meld: Sequence[Piece]) -> Swap:
        """Put cards into a meld in its joker's place and meld the joker anew under ``key`` (G4).

        >>> from scorekeeper.rules.cards import parse_pieces
        >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
        >>> table = Table(GermanRummy())
        >>> str(table.meld(1, parse_pieces("6♠ 6♥ JKR")))
        '6♠ 6♥ JKR'
        >>> swap = table.swap(2, 1, parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"))
        >>> str(table.melds[1]), str(table.melds[2]), table.jokers
        ('6♠ 6♥ 6♣', '8♥ JKR=9♥ 10♥', 1)
        """
        if onto not in self.melds:
            raise InvalidLayoffError("layoff.meld_not_on_table")
        new_cards = [piece for piece in new_meld if isinstance(piece, Card)]
        self._refuse_copies([*(piece for piece in cards if isinstance(piece, Card)), *new_cards])
        swap = swap_joker(self.melds[onto].cards, tuple(cards), tuple(new_meld), self.variant)
        taken = len(self.melds[onto].jokers) - len(swap.meld.jokers)
        # The new meld may hold jokers from the hand besides the ones taken from the table.
        self._refuse_jokers(len(new_meld) - len(new_cards) - taken)
        self.melds[onto] = swap.meld
        self.melds[key] = self.put_down[key] = swap.new_meld
        self._lay(swap.cards)
        self._lay(swap.new_meld.cards)
        self.jokers -= taken
        return swap

    def play(self, entry: TableEntry[K]) -> Meld | Layoff:
        """Apply one recorded entry: a meld, a layoff or a joker swap (a ``Swap`` is a layoff)."""
        if entry.onto is None:
            return self.meld(entry.key, entry.cards)
        if entry.new_meld is not None:
            return self.swap(entry.key, entry.onto, entry.cards, entry.new_meld)
        return self.lay_off(entry.key, entry.onto, entry.cards)

    def lying(self) -> list[Piece]:
        """Return every card and joker on the table, each copy once, e.g. for a settlement.

        >>> from scorekeeper.rules.cards import parse_pieces
        >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
        >>> table = Table(GermanRummy())
        >>> _ = table.meld(1, parse_pieces("5♠ 6♠ JKR=7♠"))
        >>> table.lying()
        [Card.from_code('5♠'), Card.from_code('6♠'), Joker.from_code('JKR')]
        """
        return [*sorted(self.copies.elements()), *(Joker() for _ in range(self.jokers))]

    def _lay(self, pieces: Iterable[Piece]) -> None:
        """Count the cards and jokers that went onto the table."""
        for piece in pieces:
            if isinstance(piece, Card):
                self.copies[piece] += 1
                self.cards.add(piece)
            else:
                self.jokers += 1

    def _refuse_on_table(self, pieces: Sequence[Piece]) -> None:
        cards = [piece for piece in pieces if isinstance(piece, Card)]
        jokers = len(pieces) - len(cards)
        if jokers:
            refuse_jokers(self.variant)
        self._refuse_copies(cards)
        self._refuse_jokers(jokers)

    def _refuse_copies(self, cards: Sequence[Card]) -> None:
        """Refuse a card whose every copy already lies on the table (G8)."""
        packs = self.variant.packs
        new = Counter(cards)
        taken = sorted(
            card for card in new if self.copies[card] and self.copies[card] + new[card] > packs
        )
        if not taken:
            return
        if packs == 1:
            raise CardAlreadyPlayedError("table.already_on_table", cards=taken, count=len(taken))
        raise CardAlreadyPlayedError(
            "table.not_in_packs", cards=taken, copies=packs, count=len(taken)
        )

    def _refuse_jokers(self, jokers: int) -> None:
        """Refuse a joker when every joker of the packs already lies on the table (G8)."""
        if jokers and self.jokers + jokers > self.variant.jokers:
            raise CardAlreadyPlayedError("table.no_jokers_left", jokers=self.variant.jokers)


def refuse_copies_beside(
    lying: Iterable[Piece], cards: Sequence[Piece], variant: Variant = TREPPENROMME
) -> None:
    """Refuse cards whose every copy lies elsewhere on the table, e.g. for a correction (G8).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> refuse_copies_beside(parse_cards("7♥"), parse_cards("7♥ 8♥ 9♥"))
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.CardAlreadyPlayedError: 7♥ is already on the table.
    """
    table: Table[int] = Table(variant)
    table._lay(lying)
    table._refuse_copies([piece for piece in cards if isinstance(piece, Card)])


def copy_in_packs(piece: Piece, copy: int, variant: Variant = TREPPENROMME) -> bool:
    """Tell whether the rule system's packs hold this copy of a card or joker (G8).

    Copies are counted from 0: a card lies in as many copies as there are packs, a joker in
    as many as the packs have jokers.

    >>> from scorekeeper.rules.cards import Card, Joker
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> seven = Card.from_code("7♥")
    >>> copy_in_packs(seven, 1), copy_in_packs(seven, 1, GermanRummy())
    (False, True)
    >>> copy_in_packs(Joker(), 0), copy_in_packs(Joker(), 5, GermanRummy())
    (False, True)
    """
    held = variant.jokers if isinstance(piece, Joker) else variant.packs
    return 0 <= copy < held


# Rebuilding a game's table at every entry values the same melds again and again; both are
# pure, so the recent answers are kept (refusals are raised afresh each time).
@lru_cache(maxsize=4096)
def _classified(cards: tuple[Piece, ...], variant: Variant) -> Meld:
    return classify_pieces(cards, variant)


@lru_cache(maxsize=4096)
def _laid_off(meld: tuple[Piece, ...], cards: tuple[Piece, ...], variant: Variant) -> Layoff:
    return lay_off_pieces(meld, cards, variant)


def replay(entries: Iterable[TableEntry[K]], variant: Variant = TREPPENROMME) -> Table[K]:
    """Build the table from entries in the order they were recorded; raise if one is illegal."""
    table: Table[K] = Table(variant)
    for entry in entries:
        table.play(entry)
    return table


def melds_as_they_lay(
    entries: Iterable[TableEntry[K]], variant: Variant = TREPPENROMME
) -> dict[K, Meld]:
    """Return the meld each layoff or swap went onto, as it lay just before it went on.

    A joker swapped out of a meld has left it for the layoffs after the swap. The replay
    stops at an entry that no longer fits: the entries after it are not in the answer.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> entries = [
    ...     TableEntry(1, tuple(parse_pieces("5♠ 6♠ JKR=7♠"))),
    ...     TableEntry(3, tuple(parse_pieces("7♠")), onto=1,
    ...                new_meld=tuple(parse_pieces("8♥ JKR 10♥"))),
    ...     TableEntry(4, tuple(parse_pieces("4♠ 8♠")), onto=1),
    ... ]
    >>> {key: str(meld) for key, meld in melds_as_they_lay(entries, GermanRummy()).items()}
    {3: '5♠ 6♠ JKR=7♠', 4: '5♠ 6♠ 7♠'}
    """
    table: Table[K] = Table(variant)
    lay: dict[K, Meld] = {}
    for entry in entries:
        if entry.onto is not None and entry.onto in table.melds:
            lay[entry.key] = table.melds[entry.onto]
        try:
            table.play(entry)
        except RulesError:
            lay.pop(entry.key, None)
            break
    return lay


def values_after_replay(
    entries: Sequence[TableEntry[K]], variant: Variant = TREPPENROMME
) -> dict[K, int] | None:
    """Return each entry's value when replayed in order, or None if one no longer fits."""
    table: Table[K] = Table(variant)
    values: dict[K, int] = {}
    try:
        for entry in entries:
            values[entry.key] = table.play(entry).value
    except RulesError:
        return None
    return values


def first_entry_changed(
    entries: Sequence[TableEntry[K]], written: Mapping[K, int], variant: Variant = TREPPENROMME
) -> K | None:
    """Return the first entry that no longer fits, or no longer has its written value (R3).

    What a removal or a correction leaves must replay to the same values: a later layoff
    valued by a card that is gone would otherwise change its points after the fact.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> entries = [TableEntry(2, tuple(parse_cards("A♠")), onto=1)]
    >>> first_entry_changed(entries, {2: 10})
    2
    """
    table: Table[K] = Table(variant)
    for entry in entries:
        try:
            value = table.play(entry).value
        except RulesError:
            return entry.key
        if value != written[entry.key]:
            return entry.key
    return None


def replay_correction(
    entries: Sequence[TableEntry[K]],
    written: Mapping[K, int],
    corrected: TableEntry[K],
    variant: Variant = TREPPENROMME,
) -> tuple[Meld | Layoff, TableEntry[K] | None]:
    """Replay a game with one entry corrected: the entry as corrected, and what it changes.

    The corrected entry is refused with the rules' own reason; the second value is the first
    other entry whose value the correction changes (None when it changes none).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> meld = TableEntry(1, tuple(parse_cards("J♠ Q♠ K♠")))
    >>> layoff = TableEntry(2, tuple(parse_cards("A♠")), onto=1)
    >>> played, changed = replay_correction([meld, layoff], {1: 30, 2: 10},
    ...                                     TableEntry(1, tuple(parse_cards("10♠ J♠ Q♠"))))
    >>> played.value, changed.key
    (30, 2)
    """
    table: Table[K] = Table(variant)
    played: Meld | Layoff | None = None
    changed: TableEntry[K] | None = None
    for entry in entries:
        if entry.key == corrected.key:
            played = table.play(corrected)
            continue
        try:
            value: int | None = table.play(entry).value
        except RulesError:
            value = None
        if value != written[entry.key] and changed is None:
            changed = entry
    if played is None:
        raise ValueError("the corrected entry is not among the entries")
    return played, changed
