"""The melds lying on the table during one game, built up entry by entry."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, TypeVar

from scorekeeper.rules.cards import Card
from scorekeeper.rules.errors import CardAlreadyPlayedError, InvalidLayoffError, RulesError
from scorekeeper.rules.melds import Layoff, Meld, classify, lay_off
from scorekeeper.rules.variants import TREPPENROMME, Variant

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class TableEntry(Generic[K]):
    """One recorded entry: a meld (``onto`` is None) or a layoff onto the meld keyed ``onto``."""

    key: K
    cards: tuple[Card, ...]
    onto: K | None = None


class Table(Generic[K]):
    """The melds on the table, keyed by the entry that melded them; every card lies once.

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
        self.cards: set[Card] = set()

    def meld(self, key: K, cards: Sequence[Card]) -> Meld:
        """Put a new meld on the table and return it valued."""
        self._refuse_on_table(cards)
        meld = _classified(tuple(cards), self.variant)
        self.melds[key] = meld
        self.cards.update(meld.cards)
        return meld

    def lay_off(self, key: K, onto: K, cards: Sequence[Card]) -> Layoff:
        """Lay cards off onto a meld on the table and return the layoff valued (R2, R3)."""
        if onto not in self.melds:
            raise InvalidLayoffError("layoff.meld_not_on_table")
        self._refuse_on_table(cards)
        layoff = _laid_off(self.melds[onto].cards, tuple(cards), self.variant)
        self.melds[onto] = layoff.meld
        self.cards.update(layoff.cards)
        return layoff

    def play(self, entry: TableEntry[K]) -> Meld | Layoff:
        """Apply one recorded entry."""
        if entry.onto is None:
            return self.meld(entry.key, entry.cards)
        return self.lay_off(entry.key, entry.onto, entry.cards)

    def _refuse_on_table(self, cards: Iterable[Card]) -> None:
        taken = sorted(card for card in set(cards) if card in self.cards)
        if taken:
            raise CardAlreadyPlayedError("table.already_on_table", cards=taken, count=len(taken))


# Rebuilding a game's table at every entry values the same melds again and again; both are
# pure, so the recent answers are kept (refusals are raised afresh each time).
@lru_cache(maxsize=4096)
def _classified(cards: tuple[Card, ...], variant: Variant) -> Meld:
    return classify(cards, variant)


@lru_cache(maxsize=4096)
def _laid_off(meld: tuple[Card, ...], cards: tuple[Card, ...], variant: Variant) -> Layoff:
    return lay_off(meld, cards, variant)


def replay(entries: Iterable[TableEntry[K]], variant: Variant = TREPPENROMME) -> Table[K]:
    """Build the table from entries in the order they were recorded; raise if one is illegal."""
    table: Table[K] = Table(variant)
    for entry in entries:
        table.play(entry)
    return table


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
