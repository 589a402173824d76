"""The rows the use cases read and write, the statements built once, and the shared steps."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol, TypeVar

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import (
    Entry,
    Game,
    GameSession,
    Player,
    SettlementLine,
    TableCard,
    utcnow,
)
from scorekeeper.services.errors import ConflictError, InvalidRequestError, NotFoundError

# How a joker is stored in table_cards.card; what it stands for is in table_cards.stands_for.
JOKER = rules.Joker().code

# Ids beyond a 64-bit integer cannot exist; refuse them before the database overflows.
LARGEST_ID = 2**63 - 1


def variant_of(session: GameSession) -> rules.Variant:
    """Return the rule system a session is played by, with its house rules."""
    return rule_system(session.variant, session.house_rules)


@functools.lru_cache(maxsize=256)
def rule_system(name: str, house_rules: str) -> rules.Variant:
    """Return a rule system with the house rules stored for a session (JSON text).

    Every read of a game builds its rule system: the same few stored texts come back.
    """
    return rules.find_variant(name, json.loads(house_rules))


class GameSummary(NamedTuple):
    """What a list of games shows of each: read as plain rows, not as whole games."""

    id: int
    number: int
    dealer_id: int
    status: str
    winner_id: int | None
    romme: bool | None


class Seat(Protocol):
    """A player of a session as the deal sees them: who, and the games they joined and left at."""

    @property
    def id(self) -> int: ...

    @property
    def joined_game(self) -> int: ...

    @property
    def left_game(self) -> int | None: ...


def dealer_of(
    variant: rules.Variant,
    first_dealer_seat: int,
    players: Sequence[Seat],
    last: GameSummary | None,
) -> int:
    """Return the id of who deals the game in progress, or the next game when none is open.

    ``players`` are everyone of the session in seat order, those who left included; the rules'
    seating decides (``rules.Seating.dealer``).
    """
    places = {player.id: place for place, player in enumerate(players)}
    seating = seating_of((player.joined_game, player.left_game) for player in players)
    dealt = None
    if last is not None:
        winner = places.get(last.winner_id) if last.winner_id is not None else None
        dealt = rules.DealtGame(
            last.number, places[last.dealer_id], winner, still_open=last.status == "open"
        )
    return players[seating.dealer(variant, first_dealer_seat, dealt)].id


def seating_of(stays: Iterable[tuple[int, int | None]]) -> rules.Seating:
    """Return the rules' seating of a session from its players' (joined, left) in seat order."""
    return rules.Seating(tuple(rules.Stay(joined, left) for joined, left in stays))


class Deal(NamedTuple):
    """How a game is dealt: the cards each player gets and who plays first."""

    cards_dealt: int
    first_player: int


def deal_of(game: GameState) -> Deal:
    """Ask the rule system how many cards a game deals and who plays first."""
    variant, seats = game.variant, [player.id for player in game.players]
    dealer_seat = seats.index(game.dealer_id)
    first = variant.first_player_seat(dealer_seat, len(seats))
    return Deal(variant.cards_dealt(len(seats)), seats[first])


def table_of(game: GameState, before: int | None = None) -> rules.Table[int]:
    """Rebuild the table of a game from its entries, keyed by meld entry id.

    ``before`` stops at the entry in that position: the table as it lay when it was recorded.
    """
    entries = game.entries
    if before is not None:
        entries = [entry for entry in entries if entry.position < before]
    return rules.replay(table_entries(entries), game.variant)


def table_entries(entries: Sequence[EntryRow]) -> list[rules.TableEntry[int]]:
    """Return the rows of a game as the rules replay them: a swap with its new meld as one."""
    return rules.GameRecord(entries).table_entries()


def record_of(game: GameState) -> rules.GameRecord:
    """Return the game's entries as the rules judge a delete or a correction of one."""
    names = {player.id: player.name for player in game.players}
    return rules.GameRecord(game.entries, game.variant, names)


def melds_as_they_lay(entries: Sequence[EntryRow], variant: rules.Variant) -> dict[int, rules.Meld]:
    """Return the meld each layoff or swap row went onto, as it lay when it went on."""
    lay = rules.melds_as_they_lay(table_entries(entries), variant)
    # A swap replays under its new meld's row; the swap's own row names the meld it went onto.
    swaps = {entry.id for entry in entries if entry.kind == "swap"}
    swap_of = {
        entry.id: entry.group_id
        for entry in entries
        if entry.group_id in swaps and entry.kind != "swap"
    }
    return {swap_of.get(key, key): meld for key, meld in lay.items()}


def pieces_of(entry: EntryRow) -> tuple[rules.Piece, ...]:
    """Return the cards and jokers of an entry as stored, a joker with what it stood for."""
    return entry.pieces


GAMES = Game.__table__


SESSIONS = GameSession.__table__


PLAYERS = Player.__table__


ENTRIES = Entry.__table__


TABLE_CARDS = TableCard.__table__


SETTLEMENT_LINES = SettlementLine.__table__


class CardRow(NamedTuple):
    """A card or joker an entry put on the table, with the value written for it.

    ``copy`` tells the two copies of a card apart (G8); ``stands_for`` is what a joker stood
    for where it stood for one card.
    """

    id: int
    card: str
    value: int
    copy: int = 0
    stands_for: str | None = None

    @property
    def piece(self) -> rules.Piece:
        """Return the card, or the joker with the card it stands for."""
        if self.card == JOKER:
            stands_for = rules.Card.from_code(self.stands_for) if self.stands_for else None
            return rules.Joker(stands_for=stands_for)
        return rules.Card.from_code(self.card)


class EntryRow(NamedTuple):
    """An entry as stored, with its cards in order."""

    id: int
    position: int
    kind: str
    player_id: int
    meld_id: int | None
    meld_kind: str | None
    value: int
    created_at: datetime
    # The first meld of the entry this meld was recorded with, when that entry has several.
    group_id: int | None
    cards: list[CardRow]

    @property
    def entry_id(self) -> int:
        """Return the id of the entry this row belongs to: its own, or its first meld's."""
        return self.group_id if self.group_id is not None else self.id

    @property
    def pieces(self) -> tuple[rules.Piece, ...]:
        """Return the cards and jokers of the entry, a joker with what it stood for."""
        return tuple(card.piece for card in self.cards)


class PlayerRow(NamedTuple):
    """A player of a session as stored, with the games they joined and left at."""

    id: int
    seat: int
    name: str
    banked: int
    joined_game: int = 1
    left_game: int | None = None

    @property
    def seated(self) -> bool:
        """Tell whether the player sits at the table now (has not left)."""
        return self.left_game is None

    def plays_in(self, number: int) -> bool:
        """Tell whether the player was dealt in the game of this number (the rules say)."""
        return rules.Stay(self.joined_game, self.left_game).plays_in(number)


class AuditRow(NamedTuple):
    """A line of a game's audit trail as stored: a change after the fact, with its time.

    ``before`` and ``after`` are the entry as it was and as it became (``after`` is empty
    for a delete, an undo and a reopen); for a reopen ``before`` is the result taken back.
    """

    id: int
    game_id: int
    at: datetime
    action: str
    entry_id: int | None
    player_id: int | None
    kind: str | None
    before: dict[str, Any]
    after: dict[str, Any] | None


@dataclass(frozen=True)
class GameState:
    """A game with its session's players and its entries, as a write reads them."""

    id: int
    session_id: int
    number: int
    dealer_id: int
    status: str
    winner_id: int | None
    romme: bool | None
    variant: rules.Variant
    session_status: str
    # The game's players: those at the table when it was dealt, in seating order.
    players: list[PlayerRow]
    entries: list[EntryRow]
    session_public_id: str
    first_dealer_seat: int
    # What the settlement booked for each player (melds and settlement), once the game ended.
    booked: dict[int, int] | None = None
    # The session's other players: who joined after the game was dealt, or left before.
    others: list[PlayerRow] = field(default_factory=list)
    # The game's audit trail in time order, where an answer shows it (None: not read).
    audit: list[AuditRow] | None = None

    @property
    def everyone(self) -> list[PlayerRow]:
        """Return every player of the session in seat order, those who left included."""
        return sorted([*self.players, *self.others], key=lambda player: player.seat)

    @property
    def dealer(self) -> PlayerRow:
        """Return the player who dealt the game."""
        return next(player for player in self.players if player.id == self.dealer_id)

    def points(self) -> dict[int, int]:
        """Return each player's points: booked once the game ended, else from the entries."""
        if self.booked is not None:
            return dict(self.booked)
        points = dict.fromkeys((player.id for player in self.players), 0)
        for entry in self.entries:
            points[entry.player_id] += entry.value
        return points


def game_state(
    connection: sa.Connection,
    game_id: int,
    *,
    lock: bool = True,
    checked: CheckedGame | None = None,
) -> GameState:
    """Read a game, for a write with the lock that makes writers to one game wait in line.

    SQLite transactions hold the database's write lock from their start (database.py); on
    PostgreSQL the game row is locked (FOR UPDATE) before its entries are read, so a writer
    that waited sees the entries written meanwhile. ``lock=False`` reads for an answer.
    ``checked`` is what the key check read of the game (``read_game_rows``): its rows are
    taken instead of read again where they are this game's, read in this transaction with
    the lock this read needs.
    """
    if not 0 < game_id <= LARGEST_ID:
        raise NotFoundError("no_game")
    if checked is not None and checked.serves(game_id, lock):
        rows = checked.rows
    else:
        statement = _GAME_ROWS_LOCKED if lock else _GAME_ROWS
        rows = connection.execute(statement, {"game_id": game_id}).all()
    if not rows:
        raise NotFoundError("no_game")
    first = rows[0]
    entries: list[EntryRow] = []
    for row in connection.execute(ENTRY_ROWS, {"game_id": game_id}):
        add_entry_row(entries, row)
    everyone = [player_row(row) for row in rows]
    players = [player for player in everyone if player.plays_in(first.number)]
    booked = None
    if first.status != "open":
        booked = dict.fromkeys((player.id for player in players), 0)
        for player_id, points in connection.execute(_BOOKED, {"game_id": game_id}):
            booked[player_id] += points
    return GameState(
        id=first.id,
        session_id=first.session_id,
        number=first.number,
        dealer_id=first.dealer_id,
        status=first.status,
        winner_id=first.winner_id,
        romme=first.romme,
        booked=booked,
        variant=rule_system(first.variant, first.house_rules),
        session_status=first.session_status,
        players=players,
        entries=entries,
        session_public_id=first.public_id,
        first_dealer_seat=first.first_dealer_seat,
        others=[player for player in everyone if not player.plays_in(first.number)],
    )


def player_row(row: sa.Row[*tuple[Any, ...]]) -> PlayerRow:
    """Return a player as a row read with the columns named as ``PlayerRow`` names them."""
    return PlayerRow(
        id=row.player_id,
        seat=row.seat,
        name=row.name,
        banked=row.banked,
        joined_game=row.joined_game,
        left_game=row.left_game,
    )


_GAME_ROWS = (
    sa.select(
        GAMES.c.id,
        GAMES.c.session_id,
        GAMES.c.number,
        GAMES.c.dealer_id,
        GAMES.c.status,
        GAMES.c.winner_id,
        GAMES.c.romme,
        SESSIONS.c.variant,
        SESSIONS.c.status.label("session_status"),
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.seat,
        PLAYERS.c.name,
        PLAYERS.c.banked,
        SESSIONS.c.public_id,
        SESSIONS.c.first_dealer_seat,
        SESSIONS.c.house_rules,
        PLAYERS.c.joined_game,
        PLAYERS.c.left_game,
        # For the key check, which reads these rows first (read_game_rows).
        SESSIONS.c.edit_key_digest,
        SESSIONS.c.view_key_digest,
        SESSIONS.c.version,
    )
    .select_from(
        GAMES.join(SESSIONS, SESSIONS.c.id == GAMES.c.session_id).join(
            PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id
        )
    )
    .where(GAMES.c.id == sa.bindparam("game_id"))
    .order_by(PLAYERS.c.seat)
)
_GAME_ROWS_LOCKED = _GAME_ROWS.with_for_update(of=GAMES)
# A row of _GAME_ROWS, as SQLAlchemy types a row of more than ten columns.
GameRow = sa.Row[Any, Any, Any, Any, Any, Any, Any, Any, Any, Any, *tuple[Any, ...]]


@dataclass(frozen=True)
class CheckedGame:
    """A game's rows as the key check read them, handed to the use case of the same request.

    They hold for the transaction they were read in only: a use case run again after a race
    (``write_use_case`` rolls back first) reads the game again.
    """

    game_id: int
    rows: Sequence[GameRow]
    # Whether they were read with the lock a write takes (FOR UPDATE on PostgreSQL).
    locked: bool
    # The database session's transaction they were read in.
    transaction: object

    def serves(self, game_id: int, lock: bool) -> bool:
        """Tell whether a read of this game, with or without the lock, may take these rows."""
        return (
            game_id == self.game_id
            and (self.locked or not lock)
            and self.transaction is not None
            and self.transaction is db.session().get_transaction()
        )


def read_game_rows(connection: sa.Connection, game_id: int, *, lock: bool) -> CheckedGame:
    """Read a game's rows with its session's and players' (none if there is no such game).

    The key check reads them; the use case it lets in takes them (``game_state``'s
    ``checked``) instead of asking the database again.
    """
    statement = _GAME_ROWS_LOCKED if lock else _GAME_ROWS
    rows = connection.execute(statement, {"game_id": game_id}).all()
    return CheckedGame(game_id, rows, lock, db.session().get_transaction())


# What the settlement of an ended game booked for each player.
_BOOKED = sa.select(
    SETTLEMENT_LINES.c.player_id, SETTLEMENT_LINES.c.meld_points + SETTLEMENT_LINES.c.gain
).where(SETTLEMENT_LINES.c.game_id == sa.bindparam("game_id"))


ENTRY_ROWS = (
    sa.select(
        ENTRIES.c.id,
        ENTRIES.c.position,
        ENTRIES.c.kind,
        ENTRIES.c.player_id,
        ENTRIES.c.meld_id,
        ENTRIES.c.meld_kind,
        ENTRIES.c.value,
        ENTRIES.c.created_at,
        ENTRIES.c.group_id,
        TABLE_CARDS.c.id.label("card_id"),
        TABLE_CARDS.c.card,
        TABLE_CARDS.c.value.label("card_value"),
        TABLE_CARDS.c.copy,
        TABLE_CARDS.c.stands_for,
    )
    .select_from(ENTRIES.outerjoin(TABLE_CARDS, TABLE_CARDS.c.entry_id == ENTRIES.c.id))
    .where(ENTRIES.c.game_id == sa.bindparam("game_id"))
    .order_by(ENTRIES.c.position, TABLE_CARDS.c.position)
)


def add_entry_row(entries: list[EntryRow], row: sa.Row[*tuple[Any, ...]]) -> None:
    """Add a row of ``ENTRY_ROWS`` (an entry with one of its cards) to the entries read so far."""
    if not entries or entries[-1].id != row.id:
        entries.append(
            EntryRow(
                id=row.id,
                position=row.position,
                kind=row.kind,
                player_id=row.player_id,
                meld_id=row.meld_id,
                meld_kind=row.meld_kind,
                value=row.value,
                created_at=row.created_at,
                group_id=row.group_id,
                cards=[],
            )
        )
    if row.card_id is not None:
        entries[-1].cards.append(
            CardRow(
                id=row.card_id,
                card=row.card,
                value=row.card_value,
                copy=row.copy,
                stands_for=row.stands_for,
            )
        )


def time_as_read(connection: sa.Connection, moment: datetime) -> datetime:
    """Return a time as the database gives it back once stored (SQLite keeps no time zone)."""
    stored, read = _time_processors(connection.dialect)
    return read(stored(moment))  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=8)
def _time_processors(dialect: sa.Dialect) -> tuple[Any, Any]:
    kind = dialect.type_descriptor(ENTRIES.c.created_at.type)
    stored = kind.bind_processor(dialect) or (lambda value: value)
    read = kind.result_processor(dialect, None) or (lambda value: value)
    return stored, read


# A session or group that got no game or session within a day was started and left (or
# started by a script): it goes when the next one starts, so that such rows cannot pile up.
NEVER_PLAYED_FOR = timedelta(days=1)


def forget_never_played(*deletes: sa.Delete) -> None:
    """Run deletes of what was started over a day ago and never played (``:before``)."""
    before = {"before": utcnow() - NEVER_PLAYED_FOR}
    for delete in deletes:
        db.session.execute(delete, before)


def open_state(
    connection: sa.Connection, game_id: int, checked: CheckedGame | None = None
) -> GameState:
    state = game_state(connection, game_id, checked=checked)
    refuse_closed(state)
    return state


def player_of(state: GameState, player_id: int) -> PlayerRow:
    player = next((player for player in state.players if player.id == player_id), None)
    if player is None:
        raise InvalidRequestError("no_such_player")
    return player


def insert_row(connection: sa.Connection, insert: sa.Insert, values: dict[str, object]) -> int:
    """Insert one row and return its id."""
    key = connection.execute(insert, values).inserted_primary_key
    assert key is not None
    return int(key[0])


_BUMP_VERSION = (
    sa.update(SESSIONS)
    .where(SESSIONS.c.id == sa.bindparam("session"))
    .values(version=SESSIONS.c.version + 1)
)


def commit(session_id: int) -> None:
    """Count the change in the session's version, and commit the change with it."""
    db.session.connection().execute(_BUMP_VERSION, {"session": session_id})
    db.session.commit()
    # The rows changed around the ORM: objects this session loaded before must read them again.
    db.session.expire_all()


# The games of a session, and the points of those that ended (the lines of their settlement).
GAMES_OF = (
    sa.select(
        GAMES.c.id,
        GAMES.c.number,
        GAMES.c.dealer_id,
        GAMES.c.status,
        GAMES.c.winner_id,
        GAMES.c.romme,
    )
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .order_by(GAMES.c.number)
)


def read_game(game_id: int, checked: CheckedGame | None = None) -> GameState:
    """Return a game with its players and entries as the answers show it, or raise NotFound.

    ``checked`` is what the request's key check read of the game (``game_state``).
    """
    return game_state(db.session.connection(), game_id, lock=False, checked=checked)


def refuse_closed(game: GameState) -> None:
    """Refuse a change to a game that is over: its entries are final."""
    if game.status != "open":
        raise ConflictError("game_over", number=game.number)


class _Identified(Protocol):
    @property
    def id(self) -> int: ...


E = TypeVar("E", bound=_Identified)


def entry_in(entries: Sequence[E], entry_id: int) -> E:
    """Return the entry with this id among a game's entries, or raise NotFoundError."""
    entry = next((entry for entry in entries if entry.id == entry_id), None)
    if entry is None:
        raise NotFoundError("no_entry")
    return entry
