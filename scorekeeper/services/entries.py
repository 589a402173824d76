"""Use cases of the entries of a game: record, correct, delete and undo melds and layoffs."""

from __future__ import annotations

from dataclasses import dataclass, replace

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import utcnow
from scorekeeper.services.errors import ConflictError, InvalidRequestError, write_use_case
from scorekeeper.services.rows import (
    ENTRIES,
    TABLE_CARDS,
    CardRow,
    EntryRow,
    GameState,
    commit,
    entry_in,
    game_state,
    insert_row,
    open_state,
    player_of,
    refuse_closed,
    table_entry,
    table_of,
)


@dataclass(frozen=True)
class Recorded:
    """An entry just written, and the meld it made or extended as that meld lies now."""

    entry: EntryRow
    meld_entry: EntryRow
    meld: rules.Meld

    @property
    def id(self) -> int:
        """Return the id of the entry."""
        return self.entry.id

    @property
    def value(self) -> int:
        """Return the value written for the entry."""
        return self.entry.value

    @property
    def cards(self) -> list[CardRow]:
        """Return the cards the entry put down."""
        return self.entry.cards


@dataclass(frozen=True)
class RecordedMelds:
    """An entry of one or more melds just written: each meld's row and the meld as it lies."""

    melds: list[tuple[EntryRow, rules.Meld]]

    @property
    def id(self) -> int:
        """Return the id of the entry: the id of its first meld."""
        return self.melds[0][0].id

    @property
    def value(self) -> int:
        """Return the value written for the entry, its melds' together."""
        return sum(row.value for row, _meld in self.melds)


@dataclass(frozen=True)
class Corrected:
    """The entry as corrected, and the game after it."""

    entry: EntryRow
    game: GameState


@dataclass(frozen=True)
class Undone:
    """The entry taken back, and the game after it."""

    entry: EntryRow
    game: GameState

    @property
    def id(self) -> int:
        """Return the id the entry had (of its first meld, for several melds at once)."""
        return self.entry.entry_id


_INSERT_ENTRY = sa.insert(ENTRIES)


# RETURNING gives the rows in no set order, so the cards are matched by card.
_INSERT_CARDS = sa.insert(TABLE_CARDS).returning(TABLE_CARDS.c.card, TABLE_CARDS.c.id)


_DELETE_CARDS = sa.delete(TABLE_CARDS).where(TABLE_CARDS.c.entry_id == sa.bindparam("entry"))


_DELETE_ENTRY = sa.delete(ENTRIES).where(ENTRIES.c.id == sa.bindparam("entry"))


_CORRECT_ENTRY = (
    sa.update(ENTRIES)
    .where(ENTRIES.c.id == sa.bindparam("entry"))
    .values(
        player_id=sa.bindparam("player"),
        meld_id=sa.bindparam("meld"),
        value=sa.bindparam("value"),
        meld_kind=sa.bindparam("meld_kind"),
    )
)


@write_use_case
def record_meld(game_id: int, player_id: int, cards: str) -> Recorded:
    """Record a player's new meld and the value written for it."""
    connection = db.session.connection()
    state = open_state(connection, game_id)
    player = player_of(state, player_id)
    table = table_of(state)
    meld = table.meld(-1, rules.parse_cards(cards))
    entry = _write(connection, state, "meld", player.id, meld)
    commit()
    return Recorded(entry, entry, meld)


@write_use_case
def record_melds(game_id: int, player_id: int, melds: list[str]) -> RecordedMelds:
    """Record several melds a player put down in one go as one entry (e.g. an opening)."""
    if not melds:
        raise InvalidRequestError("no_melds")
    connection = db.session.connection()
    state = open_state(connection, game_id)
    player = player_of(state, player_id)
    table = table_of(state)
    # Each meld is checked against the table with the melds before it: a card lies once.
    played = [table.meld(-1 - at, rules.parse_cards(cards)) for at, cards in enumerate(melds)]
    written: list[tuple[EntryRow, rules.Meld]] = []
    for meld in played:
        group = written[0][0].id if written else None
        row = _write(connection, state, "meld", player.id, meld, group_id=group)
        state = replace(state, entries=[*state.entries, row])
        written.append((row, meld))
    commit()
    return RecordedMelds(written)


@write_use_case
def record_layoff(game_id: int, player_id: int, meld_id: int, cards: str) -> Recorded:
    """Record cards a player lays off onto a meld on the table, valued where they lie (R2)."""
    connection = db.session.connection()
    state = open_state(connection, game_id)
    player = player_of(state, player_id)
    meld_entry = next(
        (entry for entry in state.entries if entry.id == meld_id and entry.kind == "meld"), None
    )
    if meld_entry is None:
        raise InvalidRequestError("no_such_meld")
    table = table_of(state)
    layoff = table.lay_off(-1, meld_entry.id, rules.parse_cards(cards))
    entry = _write(connection, state, "layoff", player.id, layoff, meld_id=meld_entry.id)
    commit()
    return Recorded(entry, meld_entry, layoff.meld)


def _write(
    connection: sa.Connection,
    state: GameState,
    kind: str,
    player_id: int,
    played: rules.Meld | rules.Layoff,
    meld_id: int | None = None,
    group_id: int | None = None,
) -> EntryRow:
    """Insert an entry and its cards after the game's latest entry; return it as stored."""
    entry = EntryRow(
        id=0,
        position=(state.entries[-1].position + 1) if state.entries else 1,
        kind=kind,
        player_id=player_id,
        meld_id=meld_id,
        meld_kind=played.kind.value if isinstance(played, rules.Meld) else None,
        value=played.value,
        created_at=utcnow(),
        group_id=group_id,
        cards=[],
    )
    stored = entry._asdict()
    del stored["id"], stored["cards"]
    entry_id = insert_row(connection, _INSERT_ENTRY, {**stored, "game_id": state.id})
    return entry._replace(id=entry_id, cards=_lay_cards(connection, state.id, entry_id, played))


def _lay_cards(
    connection: sa.Connection, game_id: int, entry_id: int, played: rules.Meld | rules.Layoff
) -> list[CardRow]:
    """Insert the cards of an entry in one statement; return them as stored."""
    codes = [card.code for card in played.cards]
    card_ids: dict[str, int] = dict(
        connection.execute(
            _INSERT_CARDS,
            [
                {
                    "entry_id": entry_id,
                    "game_id": game_id,
                    "card": code,
                    "position": at,
                    "value": value,
                }
                for at, (code, value) in enumerate(zip(codes, played.values, strict=True))
            ],
        ).all()
    )
    return [
        CardRow(card_ids[code], code, value)
        for code, value in zip(codes, played.values, strict=True)
    ]


@write_use_case
def delete_entry(game_id: int, entry_id: int) -> None:
    """Delete an entry of the open game when nothing on the table depends on it."""
    connection = db.session.connection()
    state = game_state(connection, game_id)
    entry = entry_in(state.entries, entry_id)
    refuse_closed(state)
    _delete(connection, state, entry)
    commit()


@write_use_case
def undo_last_entry(game_id: int, seen_last: int | None = None) -> Undone:
    """Delete the latest entry of the open game and return what it was, with the game after.

    ``seen_last`` is the latest entry as the recorder's page showed it: when another entry
    came since, or it was undone already (a double tap), nothing is deleted.
    """
    connection = db.session.connection()
    state = open_state(connection, game_id)
    if not state.entries:
        raise ConflictError("nothing_to_undo")
    last = state.entries[-1]
    if seen_last is not None and seen_last not in (last.id, last.entry_id):
        raise ConflictError("undo_out_of_date")
    after = _delete(connection, state, last)
    commit()
    return Undone(last, after)


def _delete(connection: sa.Connection, state: GameState, entry: EntryRow) -> GameState:
    """Delete an entry (all its melds) and its cards if nothing builds on it.

    Return the game without it.
    """
    rows = [other for other in state.entries if other.entry_id == entry.entry_id]
    remaining = [other for other in state.entries if other.entry_id != entry.entry_id]
    for row in rows:
        _refuse_dependants(state, remaining, row)
    # The later melds name the first: they go first.
    for row in reversed(rows):
        connection.execute(_DELETE_CARDS, {"entry": row.id})
        connection.execute(_DELETE_ENTRY, {"entry": row.id})
    return replace(state, entries=remaining)


@write_use_case
def correct_entry(
    game_id: int,
    entry_id: int,
    cards: str | None,
    player_id: int | None = None,
    meld_id: int | None = None,
) -> Corrected:
    """Replace the cards of an entry when nothing on the table depends on the old ones.

    ``player_id`` gives the entry to another player (a tap on the wrong name); the rules do not
    ask who played a card, so only the cards are checked against the table. ``meld_id`` moves
    a layoff onto another meld that lay on the table by then. ``cards=None`` keeps the cards.
    """
    connection = db.session.connection()
    state = game_state(connection, game_id)
    entry = entry_in(state.entries, entry_id)
    refuse_closed(state)
    if entry.group_id is not None or any(other.group_id == entry.id for other in state.entries):
        raise ConflictError("several_melds")
    player = entry.player_id if player_id is None else player_of(state, player_id).id
    onto = entry.meld_id
    if meld_id is not None:
        if entry.kind != "layoff":
            raise InvalidRequestError("meld_is_no_layoff")
        meld = next((e for e in state.entries if e.id == meld_id and e.kind == "meld"), None)
        if meld is None:
            raise InvalidRequestError("no_such_meld")
        if meld.position > entry.position:
            raise InvalidRequestError("meld_recorded_later")
        onto = meld_id
    if cards is None:
        new_cards = tuple(rules.Card.from_code(card.card) for card in entry.cards)
    else:
        new_cards = tuple(rules.parse_cards(cards))
    elsewhere = {
        card.card for other in state.entries if other.id != entry.id for card in other.cards
    }
    taken = [card for card in new_cards if card.code in elsewhere]
    if taken:
        raise rules.CardAlreadyPlayedError("table.already_on_table", cards=taken, count=len(taken))
    replayed: list[rules.TableEntry[int]] = [table_entry(other) for other in state.entries]
    written = {other.id: other.value for other in state.entries}
    corrected, changed = rules.replay_correction(
        replayed, written, rules.TableEntry(entry.id, new_cards, onto), state.variant
    )
    if changed is not None:
        later = entry_in(state.entries, changed.key)
        raise ConflictError(
            "later_entry_builds_on_it",
            name=player_of(state, later.player_id).name,
            cards=table_entry(later).cards,
            position=later.position,
        )
    meld_kind = corrected.kind.value if isinstance(corrected, rules.Meld) else entry.meld_kind
    # Delete the old cards first: the new ones may repeat them, and each card lies once a game.
    connection.execute(_DELETE_CARDS, {"entry": entry.id})
    laid = _lay_cards(connection, state.id, entry.id, corrected)
    connection.execute(
        _CORRECT_ENTRY,
        {
            "entry": entry.id,
            "player": player,
            "meld": onto,
            "value": corrected.value,
            "meld_kind": meld_kind,
        },
    )
    commit()
    mended = entry._replace(
        player_id=player, meld_id=onto, value=corrected.value, meld_kind=meld_kind, cards=laid
    )
    after = [mended if other.id == entry.id else other for other in state.entries]
    return Corrected(mended, replace(state, entries=after))


def _refuse_dependants(state: GameState, remaining: list[EntryRow], removed: EntryRow) -> None:
    later = [other for other in remaining if other.position > removed.position]
    if removed.kind == "meld" and any(other.meld_id == removed.id for other in later):
        raise ConflictError("meld_has_layoffs")
    written = {other.id: other.value for other in remaining}
    entries = [table_entry(other) for other in remaining]
    if rules.first_entry_changed(entries, written, state.variant) is not None:
        raise ConflictError("later_layoff_builds_on_it")
