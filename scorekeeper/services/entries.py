"""Use cases of the entries of a game: record, correct, delete and undo melds, layoffs, swaps."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from scorekeeper import rules
from scorekeeper.store import (
    CardRow,
    ConflictError,
    EntryRow,
    GameState,
    InvalidRequestError,
    PlayerRow,
    ServiceError,
    UnitOfWork,
    entry_as_it_stood,
    entry_in,
    player_of,
    record_of,
    refuse_closed,
    table_of,
    unit_of_work,
    write_use_case,
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


@write_use_case
def record_meld(
    game_id: int,
    player_id: int,
    cards: str,
    restores: int | None = None,
    *,
    tapped_at: datetime | None = None,
) -> Recorded:
    """Record a player's new meld and the value written for it.

    ``restores`` names an entry undone or deleted a moment ago that this one records again
    ("Restore"): the trail keeps a line of it beside the undo. ``tapped_at``: when the phone
    says it was tapped, stored beside its arrival (``http.taps`` says which times are kept).
    """
    with unit_of_work() as uow:
        recorded = _record_melds(uow, game_id, player_id, [cards], restores, tapped_at)
    row, meld = recorded.melds[0]
    return Recorded(row, row, meld, recorded.variant)


@write_use_case
def record_melds(
    game_id: int,
    player_id: int,
    melds: list[str],
    restores: int | None = None,
    *,
    tapped_at: datetime | None = None,
) -> RecordedMelds:
    """Record the melds a player put down in one go as one entry (e.g. an opening, G3)."""
    with unit_of_work() as uow:
        return _record_melds(uow, game_id, player_id, melds, restores, tapped_at)


def _record_melds(
    uow: UnitOfWork,
    game_id: int,
    player_id: int,
    melds: list[str],
    restores: int | None,
    tapped_at: datetime | None,
) -> RecordedMelds:
    if not melds:
        raise InvalidRequestError("no_melds")
    game = _open_game(uow, game_id)
    player = player_of(game, player_id)
    table = table_of(game)
    read = game.variant.read_cards
    # Each meld is checked against the table with the melds before it: copies are counted.
    played = [table.meld(-1 - at, read(cards)) for at, cards in enumerate(melds)]
    _refuse_turn(game, player, "meld", played)
    written: list[tuple[EntryRow, rules.Meld]] = []
    for meld in played:
        group = written[0][0].id if written else None
        row = uow.games.add_entry(
            game, "meld", player.id, meld, group_id=group, tapped_at=tapped_at
        )
        game = replace(game, entries=[*game.entries, row])
        written.append((row, meld))
    _note_restored(uow, game, restores, written[0][0])
    uow.commit(game.session_id)
    return RecordedMelds(written, game.variant)


@write_use_case
def record_layoff(
    game_id: int,
    player_id: int,
    meld_id: int,
    cards: str,
    restores: int | None = None,
    *,
    tapped_at: datetime | None = None,
) -> Recorded:
    """Record cards a player lays off onto a meld on the table, valued where they lie (R2)."""
    with unit_of_work() as uow:
        game = _open_game(uow, game_id)
        player = player_of(game, player_id)
        meld_entry = _meld_on_table(game, meld_id)
        _refuse_turn(game, player, "layoff")
        layoff = table_of(game).lay_off(-1, meld_entry.id, game.variant.read_cards(cards))
        entry = uow.games.add_entry(
            game, "layoff", player.id, layoff, meld_id=meld_entry.id, tapped_at=tapped_at
        )
        game = replace(game, entries=[*game.entries, entry])
        _note_restored(uow, game, restores, entry)
        uow.commit(game.session_id)
    return Recorded(entry, meld_entry, layoff.meld, game.variant)


@write_use_case
def record_swap(
    game_id: int,
    player_id: int,
    meld_id: int,
    cards: str,
    new_meld: str,
    restores: int | None = None,
    *,
    tapped_at: datetime | None = None,
) -> RecordedSwap:
    """Record a joker swap (G4): cards put in a joker's place, the joker in a new meld."""
    with unit_of_work() as uow:
        game = _open_game(uow, game_id)
        player = player_of(game, player_id)
        meld_entry = _meld_on_table(game, meld_id)
        _refuse_turn(game, player, "swap")
        read = game.variant.read_cards
        swap = table_of(game).swap(-1, meld_entry.id, read(cards), read(new_meld))
        put_in = rules.Layoff(meld=swap.meld, cards=swap.cards, values=swap.values)
        swap_row = uow.games.add_entry(
            game, "swap", player.id, put_in, meld_id=meld_entry.id, tapped_at=tapped_at
        )
        game = replace(game, entries=[*game.entries, swap_row])
        meld_row = uow.games.add_entry(
            game, "meld", player.id, swap.new_meld, group_id=swap_row.id, tapped_at=tapped_at
        )
        game = replace(game, entries=[*game.entries, meld_row])
        _note_restored(uow, game, restores, swap_row)
        uow.commit(game.session_id)
    return RecordedSwap(swap_row, meld_entry, swap.meld, meld_row, swap.new_meld, game.variant)


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
    with unit_of_work() as uow:
        return uow.games.get(game_id).variant.read_cards(text)


def check_entry(
    game_id: int,
    player_id: int | None,
    *,
    melds: Sequence[str] = (),
    onto: int | None = None,
    cards: str = "",
    new_meld: str | None = None,
) -> Checked:
    """Check an entry against the game as it lies, as recording it would, and write nothing.

    A card on the table, a copy too many and a meld that is no meld raise as on recording; a
    refusal of the turn (the opening, G3) is returned with what the cards would make, so the
    answer can say both ("31 of 40").
    """
    with unit_of_work() as uow:
        game = _open_game(uow, game_id)
    player = player_of(game, player_id) if player_id is not None else None
    table = table_of(game)
    read = game.variant.read_cards
    played: list[rules.Meld] = []
    layoff: rules.Layoff | None = None
    swap: rules.Swap | None = None
    if onto is None:
        if not melds:
            raise InvalidRequestError("no_melds")
        played = [table.meld(-1 - at, read(text)) for at, text in enumerate(melds)]
        kind = "meld"
    elif new_meld is None:
        layoff = table.lay_off(-1, _meld_on_table(game, onto).id, read(cards))
        kind = "layoff"
    else:
        swap = table.swap(-1, _meld_on_table(game, onto).id, read(cards), read(new_meld))
        kind = "swap"
    refusal = None
    if player is not None:
        try:
            _refuse_turn(game, player, kind, played)
        except rules.RulesError as error:
            refusal = error
    return Checked(played, layoff, swap, refusal, game.variant)


def _open_game(uow: UnitOfWork, game_id: int) -> GameState:
    """Load a game for a change, with the lock a write takes; refuse one that is over."""
    game = uow.games.get(game_id)
    refuse_closed(game)
    return game


def _meld_on_table(game: GameState, meld_id: int) -> EntryRow:
    """Return the meld row a layoff or a swap names, or refuse a meld not in this game."""
    meld = next(
        (entry for entry in game.entries if entry.id == meld_id and entry.kind == "meld"), None
    )
    if meld is None:
        raise InvalidRequestError("no_such_meld")
    return meld


def _refuse_turn(
    game: GameState, player: PlayerRow, kind: str, melds: Sequence[rules.Meld] = ()
) -> None:
    """Refuse an entry the opening rule forbids (G3): a player's first must open."""
    record_of(game).refuse_turn(player.id, kind, melds)


def _note_restored(uow: UnitOfWork, game: GameState, restores: int | None, entry: EntryRow) -> None:
    """Write the trail's line of an entry recorded again by "Restore", after its undo or delete.

    Refused when the trail has no undo or delete of the entry named, so a line never claims a
    restore that did not happen.
    """
    if restores is None:
        return
    taken_back = {line.entry_id for line in uow.audit.of_game(game.id) if line.action in TAKEN_BACK}
    if restores not in taken_back:
        raise ConflictError("nothing_to_restore", entry=restores)
    uow.audit.write(game.id, "restored", entry_as_it_stood(entry, game.entries))


# The trail's actions that take an entry off the table, which "Restore" can bring back.
TAKEN_BACK = ("undone", "deleted")


@write_use_case
def delete_entry(game_id: int, entry_id: int) -> None:
    """Delete an entry of the open game when nothing on the table depends on it."""
    with unit_of_work() as uow:
        game = uow.games.get(game_id)
        entry = entry_in(game.entries, entry_id)
        refuse_closed(game)
        _delete(uow, game, entry)
        uow.audit.write(game.id, "deleted", entry_as_it_stood(entry, game.entries))
        uow.commit(game.session_id)


@write_use_case
def undo_last_entry(game_id: int, seen_last: int | None = None) -> Undone:
    """Delete the latest entry of the open game and return what it was, with the game after.

    ``seen_last`` is the latest entry as the recorder's page showed it: when another entry
    came since, or it was undone already (a double tap), nothing is deleted.
    """
    with unit_of_work() as uow:
        game = _open_game(uow, game_id)
        if not game.entries:
            raise ConflictError("nothing_to_undo")
        last = game.entries[-1]
        if seen_last is not None and seen_last not in (last.id, last.entry_id):
            raise ConflictError("undo_out_of_date")
        after = _delete(uow, game, last)
        uow.audit.write(game.id, "undone", entry_as_it_stood(last, game.entries))
        # Read for the answer now: after the commit it would be a second transaction.
        after = replace(after, audit=uow.audit.of_game(game.id))
        uow.commit(game.session_id)
    return Undone(last, after)


def _delete(uow: UnitOfWork, game: GameState, entry: EntryRow) -> GameState:
    """Delete an entry (all its melds) and its cards if nothing builds on it.

    Return the game without it.
    """
    refusal = record_of(game).delete_refusal(entry.id)
    if refusal is not None:
        raise _refusal(game, refusal)
    uow.games.delete_entry([other for other in game.entries if other.entry_id == entry.entry_id])
    remaining = [other for other in game.entries if other.entry_id != entry.entry_id]
    return replace(game, entries=remaining)


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
    with unit_of_work() as uow:
        game = uow.games.get(game_id)
        entry = entry_in(game.entries, entry_id)
        player, correction = _correction(game, entry, cards, player_id, meld_id)
        corrected = correction.played
        mended = uow.games.correct_entry(
            game,
            entry._replace(
                player_id=player,
                meld_id=correction.onto,
                value=corrected.value,
                meld_kind=correction.meld_kind or entry.meld_kind,
            ),
            corrected,
        )
        after = [mended if other.id == entry.id else other for other in game.entries]
        was, became = entry_as_it_stood(entry, game.entries), entry_as_it_stood(mended, after)
        if was != became:  # a correction to what it was already changed nothing
            uow.audit.write(game.id, "corrected", was, became)
        # Read for the answer now: after the commit it would be a second transaction.
        audit = uow.audit.of_game(game.id)
        uow.commit(game.session_id)
    return Corrected(mended, replace(game, entries=after, audit=audit))


@dataclass(frozen=True)
class CheckedCorrection:
    """A correction as saving it would make it: the meld or layoff the entry's cards become."""

    played: rules.Meld | rules.Layoff
    variant: rules.Variant


def check_correction(
    game_id: int,
    entry_id: int,
    cards: str | None,
    player_id: int | None = None,
    meld_id: int | None = None,
) -> CheckedCorrection:
    """Check a correction of an entry as ``correct_entry`` would save it, and write nothing.

    The correction page's live check: what saving would refuse (a card on the table, an
    opening short of its minimum, a later entry in the way) raises here with the same error.
    """
    with unit_of_work() as uow:
        game = uow.games.get(game_id, lock=False)
    entry = entry_in(game.entries, entry_id)
    _player, correction = _correction(game, entry, cards, player_id, meld_id)
    return CheckedCorrection(correction.played, game.variant)


def _correction(
    game: GameState,
    entry: EntryRow,
    cards: str | None,
    player_id: int | None,
    meld_id: int | None,
) -> tuple[int, rules.Correction]:
    """Ask the rules about a correction of an entry; return whose it becomes and what it is."""
    refuse_closed(game)
    player = entry.player_id if player_id is None else player_of(game, player_id).id
    new_cards = None if cards is None else game.variant.read_cards(cards)
    correction = record_of(game).correction(entry.id, new_cards, meld_id, player)
    if isinstance(correction, rules.EntryRefusal):
        raise _refusal(game, correction)
    return player, correction


# The refusals of a correction that are about the request, not about the table.
_INVALID = frozenset({"meld_is_no_layoff", "no_such_meld", "meld_recorded_later"})


def _refusal(game: GameState, refusal: rules.EntryRefusal) -> ServiceError:
    """Return the rules' refusal of a delete or correction as an error, naming a later entry.

    The later entry in the way is named by whose it is, its cards and its place.
    """
    if refusal.reason in _INVALID:
        return InvalidRequestError(refusal.reason)
    if refusal.entry is None:
        return ConflictError(refusal.reason)
    rows = [entry for entry in game.entries if entry.entry_id == refusal.entry]
    params = {} if refusal.minimum is None else {"minimum": refusal.minimum}
    return ConflictError(
        refusal.reason,
        name=player_of(game, rows[0].player_id).name,
        cards=tuple(piece for row in rows for piece in row.pieces),
        position=rows[0].position,
        **params,
    )
