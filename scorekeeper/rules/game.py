"""A game's entries as recorded: what a delete or a correction may change, and card copies.

The entries are rows as stored (a swap is two rows: the swap and the new meld that names it
as its group), read through the ``RecordedRow`` protocol, so a service hands its rows over as
they are. ``GameRecord`` replays them and answers whether an entry can go or be corrected
without changing what a later entry put on the table (R3) or breaking the opening (G3).

>>> from scorekeeper.rules.cards import parse_cards
>>> game = GameRecord((
...     RecordedEntry(1, 1, "meld", 7, None, 30, parse_cards("J♦ Q♦ K♦")),
...     RecordedEntry(2, 2, "layoff", 8, 1, 10, parse_cards("A♦")),
... ))
>>> game.delete_refusal(1)
EntryRefusal(reason='meld_has_layoffs', entry=None, minimum=None)
>>> game.delete_refusal(2) is None
True
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from scorekeeper.rules.cards import Piece
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.jokers import Swap
from scorekeeper.rules.melds import Layoff, Meld
from scorekeeper.rules.opening import Turn, first_broken_turn, refuse_turn
from scorekeeper.rules.table import (
    Table,
    TableEntry,
    first_entry_changed,
    refuse_copies_beside,
    replay,
    replay_correction,
)
from scorekeeper.rules.variants import TREPPENROMME, Variant

__all__ = [
    "Correction",
    "EntryRefusal",
    "GameRecord",
    "RecordedEntry",
    "RecordedRow",
    "next_copies",
]

H = TypeVar("H", bound=Hashable)


class RecordedRow(Protocol):
    """An entry row as stored, as the rules read it.

    ``meld_id`` is the meld a layoff or a swap went onto; ``group_id`` the first meld of the
    entry a row was recorded with (a swap's new meld names the swap's row).
    """

    @property
    def id(self) -> int: ...

    @property
    def position(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def player_id(self) -> int: ...

    @property
    def meld_id(self) -> int | None: ...

    @property
    def value(self) -> int: ...

    @property
    def group_id(self) -> int | None: ...

    @property
    def entry_id(self) -> int: ...

    @property
    def pieces(self) -> tuple[Piece, ...]: ...


@dataclass(frozen=True)
class RecordedEntry:
    """An entry row as the rules keep it, e.g. one as a correction would leave it."""

    id: int
    position: int
    kind: str
    player_id: int
    meld_id: int | None
    value: int
    pieces: tuple[Piece, ...]
    group_id: int | None = None

    @property
    def entry_id(self) -> int:
        """Return the id of the entry this row belongs to: its own, or its first meld's."""
        return self.group_id if self.group_id is not None else self.id


@dataclass(frozen=True)
class EntryRefusal:
    """Why an entry cannot go or be corrected so: ``reason`` names it (a message id).

    ``entry`` is the later entry in the way, by its id, where the answer names it;
    ``minimum`` what an opening needs, where the change would break one (G3).
    """

    reason: str
    entry: int | None = None
    minimum: int | None = None


@dataclass(frozen=True)
class Correction:
    """An entry as corrected: the meld or layoff it makes now and the meld it lies on."""

    played: Meld | Layoff
    onto: int | None

    @property
    def meld_kind(self) -> str | None:
        """Return the kind of the meld the entry makes (None for a layoff)."""
        return self.played.kind.value if isinstance(self.played, Meld) else None


@dataclass(frozen=True)
class GameRecord:
    """The entries of one game in the order recorded, replayed by the game's rule system.

    ``names`` are the players' names by id, for a refusal the rules word themselves.
    """

    entries: Sequence[RecordedRow]
    variant: Variant = TREPPENROMME
    names: Mapping[int, str] = field(default_factory=dict)

    def entry(self, entry_id: int) -> RecordedRow:
        """Return the row with this id."""
        return next(entry for entry in self.entries if entry.id == entry_id)

    def table_entries(self) -> list[TableEntry[int]]:
        """Return the rows as the rules replay them: a swap with its new meld as one.

        A swap is keyed by its new meld's row, under which the table keeps the new meld.
        """
        return table_entries(self.entries)

    def written(self) -> dict[int, int]:
        """Return the value written for each entry as ``table_entries`` keys them (R3).

        A swap's value joins its new meld's, under whose row the swap replays.
        """
        swaps = {entry.id: entry.value for entry in self.entries if entry.kind == "swap"}
        return {
            entry.id: entry.value + swaps.get(entry.group_id or 0, 0)
            for entry in self.entries
            if entry.kind != "swap"
        }

    def table(self) -> Table[int]:
        """Return the table as the entries leave it; raise if one no longer fits."""
        return replay(self.table_entries(), self.variant)

    def turns(self) -> list[Turn[int]] | None:
        """Return each entry as the opening rule sees it, or None if the entries no longer replay.

        The melds recorded together are one turn, keyed by the entry's id; a swap's turn holds
        its new meld.
        """
        rows = {entry.id: entry for entry in self.entries}
        table: Table[int] = Table(self.variant)
        turns: dict[int, Turn[int]] = {}
        try:
            for played in self.table_entries():
                row = rows[played.key]
                result = table.play(played)
                melds: tuple[Meld, ...]
                if isinstance(result, Swap):
                    kind, melds = "swap", (result.new_meld,)
                elif isinstance(result, Meld):
                    kind, melds = "meld", (result,)
                else:
                    kind, melds = "layoff", ()
                turn = turns.get(row.entry_id)
                if turn is None:
                    turns[row.entry_id] = Turn(row.entry_id, row.player_id, kind, melds)
                else:
                    turns[row.entry_id] = replace(turn, melds=turn.melds + melds)
        except RulesError:
            return None
        return list(turns.values())

    def refuse_turn(self, player: int, kind: str, melds: Sequence[Meld] = ()) -> None:
        """Raise if a new entry of the player's breaks the opening rule (G3).

        ``kind`` is ``"meld"`` (``melds`` put down together), ``"layoff"`` or ``"swap"``; the
        player's entries before count by their first row (a swap's new meld is the swap's).

        >>> from scorekeeper.rules.variants import find_variant
        >>> GameRecord((), find_variant("german_rummy"), {7: "Ann"}).refuse_turn(7, "layoff")
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.OpeningError: Ann has not opened yet: there is no layoff \
before the opening.
        """
        earlier = [
            entry.kind
            for entry in self.entries
            if entry.player_id == player and entry.group_id is None
        ]
        turn = Turn(0, player, kind, tuple(melds))
        refuse_turn(turn, earlier, self.variant, self.names.get(player, ""))

    def without(self, entry_id: int) -> GameRecord:
        """Return the game without an entry (all the melds recorded with it)."""
        entries = [entry for entry in self.entries if entry.entry_id != entry_id]
        return replace(self, entries=entries)

    def delete_refusal(self, entry_id: int) -> EntryRefusal | None:
        """Return why the entry of this id (all its melds) cannot go, or None when it can.

        Not when a later entry builds on it: a layoff or a swap onto a meld of it, or a later
        entry whose value would change without it (R3); nor when it leaves an entry breaking
        the opening rule (G3).
        """
        entry = self.entry(entry_id).entry_id
        rows = [row for row in self.entries if row.entry_id == entry]
        after = self.without(entry)
        for row in rows:
            refusal = after._dependants_refusal(row)
            if refusal is not None:
                return refusal
        return after.opening_refusal()

    def _dependants_refusal(self, removed: RecordedRow) -> EntryRefusal | None:
        """Return why the game cannot do without ``removed``: a later entry built on it."""
        later = [other for other in self.entries if other.position > removed.position]
        building = [other for other in later if other.meld_id == removed.id]
        if removed.kind == "meld" and any(other.kind == "layoff" for other in building):
            return EntryRefusal("meld_has_layoffs")
        if removed.kind == "meld" and building:  # a joker swapped out of it (G4)
            return EntryRefusal("later_entry_builds_on_it", building[0].entry_id)
        changed = first_entry_changed(self.table_entries(), self.written(), self.variant)
        if changed is None:
            return None
        row = self.entry(changed)
        if row.group_id is not None or row.kind != "layoff":
            return EntryRefusal("later_entry_builds_on_it", row.entry_id)
        return EntryRefusal("later_layoff_builds_on_it")

    def opening_refusal(self, changed: int | None = None) -> EntryRefusal | None:
        """Return the refusal of a change that leaves an entry breaking the opening rule (G3).

        The entry ``changed`` itself is refused with the rule's own reason (it raises).
        """
        broken = first_broken_turn(self.turns() or [], self.variant)
        if broken is None:
            return None
        if broken.key == changed:
            name = self.names.get(broken.player, "") if isinstance(broken.player, int) else ""
            refuse_turn(broken, [], self.variant, name)
        return EntryRefusal("opening_broken", broken.key, self.variant.opening_minimum())

    def correction(
        self,
        entry_id: int,
        pieces: Sequence[Piece] | None = None,
        onto: int | None = None,
        player: int | None = None,
    ) -> Correction | EntryRefusal:
        """Return an entry as corrected, or why it cannot be corrected so.

        ``pieces`` are the new cards (None keeps them), ``onto`` another meld for a layoff
        that lay on the table by then, ``player`` another player (whose opening it is then).
        Cards whose copies lie elsewhere and cards that make no meld or layoff raise as on
        recording (G8); so does a correction that breaks the entry's own opening (G3).
        """
        entry = self.entry(entry_id)
        if entry.group_id is not None or any(row.group_id == entry.id for row in self.entries):
            return EntryRefusal("several_melds")
        lies_on = entry.meld_id
        if onto is not None:
            if entry.kind != "layoff":
                return EntryRefusal("meld_is_no_layoff")
            meld = next((e for e in self.entries if e.id == onto and e.kind == "meld"), None)
            if meld is None:
                return EntryRefusal("no_such_meld")
            if meld.position > entry.position:
                return EntryRefusal("meld_recorded_later")
            lies_on = onto
        cards = entry.pieces if pieces is None else tuple(pieces)
        elsewhere = [piece for row in self.entries if row.id != entry.id for piece in row.pieces]
        refuse_copies_beside(elsewhere, cards, self.variant)
        played, changed = replay_correction(
            self.table_entries(),
            self.written(),
            TableEntry(entry.id, cards, lies_on),
            self.variant,
        )
        if changed is not None:
            # A swap replays under its new meld's row: name the entry that row belongs to.
            return EntryRefusal("later_entry_builds_on_it", self.entry(changed.key).entry_id)
        mended = RecordedEntry(
            entry.id,
            entry.position,
            entry.kind,
            entry.player_id if player is None else player,
            lies_on,
            played.value,
            tuple(played.cards),
            entry.group_id,
        )
        after = [mended if row.id == entry.id else row for row in self.entries]
        refusal = replace(self, entries=after).opening_refusal(entry.id)
        if refusal is not None:
            return refusal
        return Correction(played, lies_on)


def table_entries(entries: Sequence[RecordedRow]) -> list[TableEntry[int]]:
    """Return rows as the rules replay them: a swap with its new meld as one entry.

    A swap is keyed by its new meld's row, under which the table keeps the new meld.
    """
    replayed: list[TableEntry[int]] = []
    swaps: dict[int, RecordedRow] = {}
    for entry in entries:
        if entry.kind == "swap":
            swaps[entry.id] = entry
            continue
        swap = swaps.pop(entry.group_id, None) if entry.group_id is not None else None
        if swap is None:
            replayed.append(TableEntry(entry.id, entry.pieces, entry.meld_id))
            continue
        replayed.append(TableEntry(entry.id, swap.pieces, onto=swap.meld_id, new_meld=entry.pieces))
    return replayed


def next_copies(cards: Sequence[H], lying: Iterable[tuple[H, int]]) -> list[int]:
    """Number each card by the first copy of it not lying in the game yet (G8), from 0.

    ``lying`` are the (card, copy) pairs on the table already; cards the same twice get two
    copies.

    >>> next_copies(["7♥", "7♥", "8♥"], [("7♥", 0)])
    [1, 2, 0]
    """
    used = set(lying)
    copies: list[int] = []
    for card in cards:
        copy = next(number for number in itertools.count() if (card, number) not in used)
        used.add((card, copy))
        copies.append(copy)
    return copies
