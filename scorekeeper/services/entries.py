"""Use cases of the entries of a game: record, correct, delete and undo melds, layoffs, swaps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import utcnow
from scorekeeper.services.audit import entry_as_it_stood, game_audit, write_line
from scorekeeper.services.errors import (
    ConflictError,
    InvalidRequestError,
    ServiceError,
    write_use_case,
)
from scorekeeper.services.rows import (
    ENTRIES,
    JOKER,
    TABLE_CARDS,
    CardRow,
    CheckedGame,
    EntryRow,
    GameState,
    PlayerRow,
    commit,
    entry_in,
    game_state,
    insert_row,
    open_state,
    pieces_of,
    player_of,
    record_of,
    refuse_closed,
    table_of,
    time_as_read,
)


@dataclass(frozen=True)
class Recorded:
    """An entry just written, and the meld it made or extended as that meld lies now."""

    entry: EntryRow
    meld_entry: EntryRow
    meld: rules.Meld
    variant: rules.Variant

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
    variant: rules.Variant

    @property
    def id(self) -> int:
        """Return the id of the entry: the id of its first meld."""
        return self.melds[0][0].id

    @property
    def value(self) -> int:
        """Return the value written for the entry, its melds' together."""
        return sum(row.value for row, _meld in self.melds)


@dataclass(frozen=True)
class RecordedSwap:
    """A joker swap just written (G4): the meld the joker left and the new meld it went into."""

    entry: EntryRow
    meld_entry: EntryRow
    meld: rules.Meld
    new_meld_row: EntryRow
    new_meld: rules.Meld
    variant: rules.Variant

    @property
    def id(self) -> int:
        """Return the id of the entry: the swap's."""
        return self.entry.id


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


# RETURNING gives the rows in no set order, so the cards are matched by card and copy.
_INSERT_CARDS = sa.insert(TABLE_CARDS).returning(
    TABLE_CARDS.c.card, TABLE_CARDS.c.copy, TABLE_CARDS.c.id
)


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
def record_meld(
    game_id: int,
    player_id: int,
    cards: str,
    restores: int | None = None,
    *,
    checked: CheckedGame | None = None,
) -> Recorded:
    """Record a player's new meld and the value written for it.

    ``restores`` names an entry undone or deleted a moment ago that this one records again
    ("Restore"): the trail keeps a line of it beside the undo. ``checked`` is what the
    request's key check read of the game (``rows.game_state``), as every use case of a game
    takes it.
    """
    recorded = _record_melds(game_id, player_id, [cards], restores, checked)
    row, meld = recorded.melds[0]
    return Recorded(row, row, meld, recorded.variant)


@write_use_case
def record_melds(
    game_id: int,
    player_id: int,
    melds: list[str],
    restores: int | None = None,
    *,
    checked: CheckedGame | None = None,
) -> RecordedMelds:
    """Record the melds a player put down in one go as one entry (e.g. an opening, G3)."""
    return _record_melds(game_id, player_id, melds, restores, checked)


def _record_melds(
    game_id: int,
    player_id: int,
    melds: list[str],
    restores: int | None,
    checked: CheckedGame | None,
) -> RecordedMelds:
    if not melds:
        raise InvalidRequestError("no_melds")
    connection = db.session.connection()
    state = open_state(connection, game_id, checked)
    player = player_of(state, player_id)
    table = table_of(state)
    read = state.variant.read_cards
    # Each meld is checked against the table with the melds before it: copies are counted.
    played = [table.meld(-1 - at, read(cards)) for at, cards in enumerate(melds)]
    _refuse_turn(state, player, "meld", played)
    written: list[tuple[EntryRow, rules.Meld]] = []
    for meld in played:
        group = written[0][0].id if written else None
        row = _write(connection, state, "meld", player.id, meld, group_id=group)
        state = replace(state, entries=[*state.entries, row])
        written.append((row, meld))
    _note_restored(connection, state, restores, written[0][0])
    commit(state.session_id)
    return RecordedMelds(written, state.variant)


@write_use_case
def record_layoff(
    game_id: int,
    player_id: int,
    meld_id: int,
    cards: str,
    restores: int | None = None,
    *,
    checked: CheckedGame | None = None,
) -> Recorded:
    """Record cards a player lays off onto a meld on the table, valued where they lie (R2)."""
    connection = db.session.connection()
    state = open_state(connection, game_id, checked)
    player = player_of(state, player_id)
    meld_entry = _meld_on_table(state, meld_id)
    _refuse_turn(state, player, "layoff")
    table = table_of(state)
    layoff = table.lay_off(-1, meld_entry.id, state.variant.read_cards(cards))
    entry = _write(connection, state, "layoff", player.id, layoff, meld_id=meld_entry.id)
    state = replace(state, entries=[*state.entries, entry])
    _note_restored(connection, state, restores, entry)
    commit(state.session_id)
    return Recorded(entry, meld_entry, layoff.meld, state.variant)


@write_use_case
def record_swap(
    game_id: int,
    player_id: int,
    meld_id: int,
    cards: str,
    new_meld: str,
    restores: int | None = None,
    *,
    checked: CheckedGame | None = None,
) -> RecordedSwap:
    """Record a joker swap (G4): cards put in a joker's place, the joker in a new meld."""
    connection = db.session.connection()
    state = open_state(connection, game_id, checked)
    player = player_of(state, player_id)
    meld_entry = _meld_on_table(state, meld_id)
    _refuse_turn(state, player, "swap")
    table = table_of(state)
    read = state.variant.read_cards
    swap = table.swap(-1, meld_entry.id, read(cards), read(new_meld))
    put_in = rules.Layoff(meld=swap.meld, cards=swap.cards, values=swap.values)
    swap_row = _write(connection, state, "swap", player.id, put_in, meld_id=meld_entry.id)
    state = replace(state, entries=[*state.entries, swap_row])
    meld_row = _write(connection, state, "meld", player.id, swap.new_meld, group_id=swap_row.id)
    state = replace(state, entries=[*state.entries, meld_row])
    _note_restored(connection, state, restores, swap_row)
    commit(state.session_id)
    return RecordedSwap(swap_row, meld_entry, swap.meld, meld_row, swap.new_meld, state.variant)


@dataclass(frozen=True)
class Checked:
    """What recording an entry would put on the table, and the refusal it would meet, if any.

    ``melds`` for a meld or several, ``layoff`` for a layoff, ``swap`` for a joker swap.
    """

    melds: list[rules.Meld]
    layoff: rules.Layoff | None
    swap: rules.Swap | None
    refusal: rules.RulesError | None
    variant: rules.Variant


def read_cards(game_id: int, text: str) -> list[rules.Piece]:
    """Read typed cards as the game's rule system reads them ("Herz As" is A♥), writing nothing.

    What the finish and correction pages show for a hand or an entry typed in words: the script
    reads no words itself. Cards that cannot be read raise as on recording.
    """
    return game_state(db.session.connection(), game_id).variant.read_cards(text)


def check_entry(
    game_id: int,
    player_id: int | None,
    *,
    melds: Sequence[str] = (),
    onto: int | None = None,
    cards: str = "",
    new_meld: str | None = None,
    checked: CheckedGame | None = None,
) -> Checked:
    """Check an entry against the game as it lies, as recording it would, and write nothing.

    A card on the table, a copy too many and a meld that is no meld raise as on recording; a
    refusal of the turn (the opening, G3) is returned with what the cards would make, so the
    answer can say both ("31 of 40").
    """
    state = open_state(db.session.connection(), game_id, checked)
    player = player_of(state, player_id) if player_id is not None else None
    table = table_of(state)
    read = state.variant.read_cards
    played: list[rules.Meld] = []
    layoff: rules.Layoff | None = None
    swap: rules.Swap | None = None
    if onto is None:
        if not melds:
            raise InvalidRequestError("no_melds")
        played = [table.meld(-1 - at, read(text)) for at, text in enumerate(melds)]
        kind = "meld"
    elif new_meld is None:
        layoff = table.lay_off(-1, _meld_on_table(state, onto).id, read(cards))
        kind = "layoff"
    else:
        swap = table.swap(-1, _meld_on_table(state, onto).id, read(cards), read(new_meld))
        kind = "swap"
    refusal = None
    if player is not None:
        try:
            _refuse_turn(state, player, kind, played)
        except rules.RulesError as error:
            refusal = error
    return Checked(played, layoff, swap, refusal, state.variant)


def _meld_on_table(state: GameState, meld_id: int) -> EntryRow:
    """Return the meld row a layoff or a swap names, or refuse a meld not in this game."""
    meld = next(
        (entry for entry in state.entries if entry.id == meld_id and entry.kind == "meld"), None
    )
    if meld is None:
        raise InvalidRequestError("no_such_meld")
    return meld


def _refuse_turn(
    state: GameState, player: PlayerRow, kind: str, melds: Sequence[rules.Meld] = ()
) -> None:
    """Refuse an entry the opening rule forbids (G3): a player's first must open."""
    record_of(state).refuse_turn(player.id, kind, melds)


def _note_restored(
    connection: sa.Connection, state: GameState, restores: int | None, entry: EntryRow
) -> None:
    """Write the trail's line of an entry recorded again by "Restore", after its undo or delete.

    Refused when the trail has no undo or delete of the entry named, so a line never claims a
    restore that did not happen.
    """
    if restores is None:
        return
    taken_back = {
        line.entry_id for line in game_audit(connection, state.id) if line.action in TAKEN_BACK
    }
    if restores not in taken_back:
        raise ConflictError("nothing_to_restore", entry=restores)
    write_line(connection, state.id, "restored", entry_as_it_stood(entry, state.entries))


# The trail's actions that take an entry off the table, which "Restore" can bring back.
TAKEN_BACK = ("undone", "deleted")


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
        created_at=time_as_read(connection, utcnow()),
        group_id=group_id,
        cards=[],
    )
    stored = entry._asdict()
    del stored["id"], stored["cards"]
    entry_id = insert_row(connection, _INSERT_ENTRY, {**stored, "game_id": state.id})
    laid = _lay_cards(connection, state, entry_id, played.cards, played.values)
    return entry._replace(id=entry_id, cards=laid)


def _lay_cards(
    connection: sa.Connection,
    state: GameState,
    entry_id: int,
    pieces: Sequence[rules.Piece],
    values: Sequence[int],
) -> list[CardRow]:
    """Insert the cards of an entry in one statement, each as a copy not yet in the game."""
    rows = [_card_row(piece, value) for piece, value in zip(pieces, values, strict=True)]
    lying = (
        (card.card, card.copy)
        for entry in state.entries
        if entry.id != entry_id
        for card in entry.cards
    )
    copies = rules.next_copies([row.card for row in rows], lying)
    rows = [row._replace(copy=copy) for row, copy in zip(rows, copies, strict=True)]
    ids = {
        (card, copy): card_id
        for card, copy, card_id in connection.execute(
            _INSERT_CARDS,
            [
                {
                    "entry_id": entry_id,
                    "game_id": state.id,
                    "card": row.card,
                    "copy": row.copy,
                    "stands_for": row.stands_for,
                    "position": at,
                    "value": row.value,
                }
                for at, row in enumerate(rows)
            ],
        ).all()
    }
    return [row._replace(id=ids[row.card, row.copy]) for row in rows]


@write_use_case
def delete_entry(game_id: int, entry_id: int, *, checked: CheckedGame | None = None) -> None:
    """Delete an entry of the open game when nothing on the table depends on it."""
    connection = db.session.connection()
    state = game_state(connection, game_id, checked=checked)
    entry = entry_in(state.entries, entry_id)
    refuse_closed(state)
    _delete(connection, state, entry)
    write_line(connection, state.id, "deleted", entry_as_it_stood(entry, state.entries))
    commit(state.session_id)


@write_use_case
def undo_last_entry(
    game_id: int, seen_last: int | None = None, *, checked: CheckedGame | None = None
) -> Undone:
    """Delete the latest entry of the open game and return what it was, with the game after.

    ``seen_last`` is the latest entry as the recorder's page showed it: when another entry
    came since, or it was undone already (a double tap), nothing is deleted.
    """
    connection = db.session.connection()
    state = open_state(connection, game_id, checked)
    if not state.entries:
        raise ConflictError("nothing_to_undo")
    last = state.entries[-1]
    if seen_last is not None and seen_last not in (last.id, last.entry_id):
        raise ConflictError("undo_out_of_date")
    after = _delete(connection, state, last)
    write_line(connection, state.id, "undone", entry_as_it_stood(last, state.entries))
    # Read for the answer now: after the commit it would be a second transaction.
    after = replace(after, audit=game_audit(connection, state.id))
    commit(state.session_id)
    return Undone(last, after)


def _delete(connection: sa.Connection, state: GameState, entry: EntryRow) -> GameState:
    """Delete an entry (all its melds) and its cards if nothing builds on it.

    Return the game without it.
    """
    rows = [other for other in state.entries if other.entry_id == entry.entry_id]
    remaining = [other for other in state.entries if other.entry_id != entry.entry_id]
    refusal = record_of(state).delete_refusal(entry.id)
    if refusal is not None:
        raise _refusal(state, refusal)
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
    *,
    checked: CheckedGame | None = None,
) -> Corrected:
    """Replace the cards of an entry when nothing on the table depends on the old ones.

    ``player_id`` gives the entry to another player (a tap on the wrong name); the rules do not
    ask who played a card, so only the cards are checked against the table. ``meld_id`` moves
    a layoff onto another meld that lay on the table by then. ``cards=None`` keeps the cards.
    """
    connection = db.session.connection()
    state = game_state(connection, game_id, checked=checked)
    entry = entry_in(state.entries, entry_id)
    refuse_closed(state)
    player = entry.player_id if player_id is None else player_of(state, player_id).id
    new_cards = None if cards is None else state.variant.read_cards(cards)
    correction = record_of(state).correction(entry.id, new_cards, meld_id, player)
    if isinstance(correction, rules.EntryRefusal):
        raise _refusal(state, correction)
    corrected, onto = correction.played, correction.onto
    meld_kind = correction.meld_kind or entry.meld_kind
    values = corrected.values
    mended = entry._replace(
        player_id=player,
        meld_id=onto,
        value=corrected.value,
        meld_kind=meld_kind,
        cards=[
            _card_row(piece, value) for piece, value in zip(corrected.cards, values, strict=True)
        ],
    )
    # Delete the old cards first: the new ones may repeat them, and each copy lies once a game.
    connection.execute(_DELETE_CARDS, {"entry": entry.id})
    laid = _lay_cards(connection, state, entry.id, corrected.cards, values)
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
    mended = mended._replace(cards=laid)
    after = [mended if other.id == entry.id else other for other in state.entries]
    was, became = entry_as_it_stood(entry, state.entries), entry_as_it_stood(mended, after)
    if was != became:  # a correction to what it was already changed nothing
        write_line(connection, state.id, "corrected", was, became)
    # Read for the answer now: after the commit it would be a second transaction.
    audit = game_audit(connection, state.id)
    commit(state.session_id)
    return Corrected(mended, replace(state, entries=after, audit=audit))


# The refusals of a correction that are about the request, not about the table.
_INVALID = frozenset({"meld_is_no_layoff", "no_such_meld", "meld_recorded_later"})


def _refusal(state: GameState, refusal: rules.EntryRefusal) -> ServiceError:
    """Return the rules' refusal of a delete or correction as an error, naming a later entry.

    The later entry in the way is named by whose it is, its cards and its place.
    """
    if refusal.reason in _INVALID:
        return InvalidRequestError(refusal.reason)
    if refusal.entry is None:
        return ConflictError(refusal.reason)
    rows = [entry for entry in state.entries if entry.entry_id == refusal.entry]
    params = {} if refusal.minimum is None else {"minimum": refusal.minimum}
    return ConflictError(
        refusal.reason,
        name=player_of(state, rows[0].player_id).name,
        cards=tuple(piece for row in rows for piece in pieces_of(row)),
        position=rows[0].position,
        **params,
    )


def _card_row(piece: rules.Piece, value: int) -> CardRow:
    """Return how a card or joker is stored, before its row and copy are given."""
    if isinstance(piece, rules.Joker):
        stands_for = piece.stands_for.code if piece.stands_for is not None else None
        return CardRow(0, JOKER, value, stands_for=stands_for)
    return CardRow(0, piece.code, value)
