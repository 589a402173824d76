"""Use cases: each checks the rules, writes to the database, and commits once."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import NamedTuple, Protocol, TypeVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper import rules
from scorekeeper.database import retry_on_race
from scorekeeper.extensions import db
from scorekeeper.keys import Access, SessionKeys, access
from scorekeeper.models import Entry, Game, GameSession, Player, SettlementLine, TableCard, utcnow

# What the use cases say when they refuse: gettext msgids of the app's catalogue, as the
# rules' messages (the German is in translations/de/LC_MESSAGES/messages.po).
MESSAGES: dict[str, rules.Wording] = {
    # Said alike when the key is missing or wrong, so that nobody learns which sessions exist.
    "no_session": rules.wording(
        "There is no such session, or it needs its key (the link from the phone that started it)."
    ),
    "no_game": rules.wording(
        "There is no such game, or it needs its session's key (the link from the phone that "
        "started it)."
    ),
    "no_entry": rules.wording("There is no such entry in this game."),
    "no_such_meld": rules.wording("That meld is not on the table in this game."),
    "meld_is_no_layoff": rules.wording(
        "A meld lies on the table by itself: only laid-off cards can be moved onto another meld."
    ),
    "meld_recorded_later": rules.wording(
        "That meld was recorded after these cards were laid off: it was not on the table yet."
    ),
    "no_such_player": rules.wording("That player does not play in this session."),
    "hand_of_a_stranger": rules.wording("A hand was entered for someone who does not play here."),
    "session_over": rules.wording("This session is over: start a new session to play on."),
    "game_still_open": rules.wording("A game is still open: finish or abandon it first."),
    "game_over": rules.wording("Game %(number)s is over: its entries are final."),
    "nothing_to_undo": rules.wording("There is nothing to undo in this game yet."),
    "later_entry_builds_on_it": rules.wording(
        "A later entry builds on these cards: %(name)s's %(cards)s (entry %(position)s). Correct "
        "or delete that entry first."
    ),
    "meld_has_layoffs": rules.wording(
        "Cards were laid off onto this meld: delete those layoffs first."
    ),
    "later_layoff_builds_on_it": rules.wording(
        "A later layoff builds on these cards: delete that layoff first."
    ),
    "undo_out_of_date": rules.wording(
        "Nothing was undone: the latest entry is no longer the one this page showed (it was "
        "undone already, or someone recorded since). Look at the game again."
    ),
    "game_not_ended": rules.wording(
        "Game %(number)s is still being played: there is no settlement to take back."
    ),
    "later_game_played": rules.wording(
        "Game %(number)s was played after it: only the last game can be reopened, while the game "
        "dealt after it has nothing recorded."
    ),
    "raced": rules.wording(
        "Another phone recorded at the same moment: look at the game and try again."
    ),
}


class ServiceError(Exception):
    """A refusal of a use case, with its message in English and German."""

    def __init__(self, message_id: str, /, **params: object) -> None:
        self.message_id = message_id
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """Return the message in a language ("de" German, anything else English)."""
        return MESSAGES[self.message_id].render(language, **self.params)


class NotFoundError(ServiceError, LookupError):
    """The session, game, player, meld or entry does not exist (here)."""


class ConflictError(ServiceError):
    """The request does not fit the state things are in now (a closed game, a finished session)."""


class InvalidRequestError(ServiceError, ValueError):
    """The request names a player or meld that is not part of this game."""


def _raced() -> ConflictError:
    return ConflictError("raced")


# Run a write again when a concurrent write got there first (see database.retry_on_race).
_write_use_case = retry_on_race(lambda: db.session, _raced)

# Ids beyond a 64-bit integer cannot exist; refuse them before the database overflows.
_LARGEST_ID = 2**63 - 1
# The target is stored in an INTEGER column, 32 bits on PostgreSQL.
_LARGEST_TARGET = 2**31 - 1


# --- keys ------------------------------------------------------------------------------------

# Which key the client holds for the session with this public id (None: it holds none).
KeyFor = Callable[[str], str | None]


def access_to_session(
    public_id: str, key_for: KeyFor, need: Access = Access.VIEW
) -> tuple[GameSession, Access]:
    """Return the session behind a public id and what the client's key may do there.

    A missing session and a key that may not do ``need`` are the same NotFoundError.
    """
    session = db.session.scalar(
        sa.select(GameSession)
        .where(GameSession.public_id == public_id)
        .options(so.selectinload(GameSession.players))
    )
    granted = _let_in(session, public_id, key_for, need, "no_session")
    assert session is not None
    return session, granted


def access_to_session_id(
    public_id: str, key_for: KeyFor, need: Access = Access.VIEW
) -> tuple[int, Access]:
    """Return the id of the session behind a public id, as ``access_to_session`` checks it.

    One prebuilt statement and no objects: for requests that need the id only.
    """
    door = db.session.connection().execute(_SESSION_DOOR, {"public_id": public_id}).one_or_none()
    granted = _let_in(door, public_id, key_for, need, "no_session")
    assert door is not None
    return door.id, granted


def access_to_game(game_id: int, key_for: KeyFor, need: Access = Access.VIEW) -> tuple[str, Access]:
    """Return the public id of a game's session and what the client's key may do there."""
    door = None
    if 0 < game_id <= _LARGEST_ID:
        door = db.session.connection().execute(_GAME_DOOR, {"game_id": game_id}).one_or_none()
    public_id = door.public_id if door is not None else ""
    return public_id, _let_in(door, public_id, key_for, need, "no_game")


class _Door(Protocol):
    @property
    def edit_key_digest(self) -> str: ...
    @property
    def view_key_digest(self) -> str: ...


def _let_in(
    door: _Door | None, public_id: str, key_for: KeyFor, need: Access, missing: str
) -> Access:
    """Return what the key opens; a missing row and a key too weak are the same error."""
    granted = Access.NONE
    if door is not None:
        granted = access(key_for(public_id), door.edit_key_digest, door.view_key_digest)
    if door is None or granted < need:
        raise NotFoundError(missing)
    return granted


def sessions_opened_by(held: Mapping[str, str]) -> list[GameSession]:
    """Return the sessions these keys (session id: key) still open, the latest started first."""
    if not held:
        return []
    sessions = db.session.scalars(
        sa.select(GameSession)
        .where(GameSession.public_id.in_(list(held)))
        .options(so.selectinload(GameSession.players))
        .order_by(GameSession.created_at.desc(), GameSession.id.desc())
    )
    return [
        session
        for session in sessions
        if access(held[session.public_id], session.edit_key_digest, session.view_key_digest)
    ]


@_write_use_case
def replace_keys(public_id: str) -> SessionKeys:
    """Hand out new keys for a session whose keys were lost; the old ones stop working."""
    session = db.session.scalar(sa.select(GameSession).where(GameSession.public_id == public_id))
    if session is None:
        raise NotFoundError("no_session")
    keys = SessionKeys.new()
    session.edit_key_digest = keys.edit_digest
    session.view_key_digest = keys.view_digest
    db.session.commit()
    return keys


# --- reading ---------------------------------------------------------------------------------


def get_session(session_id: int) -> GameSession:
    """Return a session with its players, or raise NotFoundError."""
    session: GameSession | None = None
    if 0 < session_id <= _LARGEST_ID:
        session = db.session.identity_map.get(so.Session.identity_key(GameSession, session_id))
        if session is None:
            session = db.session.scalar(
                sa.select(GameSession)
                .where(GameSession.id == session_id)
                .options(so.selectinload(GameSession.players))
            )
    if session is None:
        raise NotFoundError("no_session")
    return session


def get_game(game_id: int) -> Game:
    """Return a game with its session, players, entries and cards, or raise NotFoundError."""
    game: Game | None = None
    if 0 < game_id <= _LARGEST_ID:
        # A game this request has loaded already comes from the identity map, without SQL.
        game = db.session.identity_map.get(so.Session.identity_key(Game, game_id))
        if game is None or "entries" in sa.inspect(game).unloaded:
            game = (
                db.session.scalars(sa.select(Game).where(Game.id == game_id).options(*_GAME_LOADS))
                .unique()
                .one_or_none()
            )
    if game is None:
        raise NotFoundError("no_game")
    return game


# Everything a game page or an entry needs, in two queries whatever the game holds: the game
# with its session, entries and cards joined (a game has at most 52 cards), then the players.
_GAME_LOADS = (
    so.joinedload(Game.session).selectinload(GameSession.players),
    so.joinedload(Game.entries).joinedload(Entry.cards),
)


def variant_of(session: GameSession) -> rules.Variant:
    """Return the rule system a session is played by, with its house rules."""
    return rule_system(session.variant, session.house_rules, session.target)


def rule_system(name: str, house_rules: str | None, target: int | None) -> rules.Variant:
    """Return a rule system with the house rules stored for a session.

    Sessions stored before house rules existed have none: their rule system's defaults, played
    to the target they have.
    """
    if house_rules is None:
        return rules.find_variant(name, {"end": {"target": target or 500}})
    return _rule_system(name, house_rules)


@functools.lru_cache(maxsize=256)
def _rule_system(name: str, house_rules: str) -> rules.Variant:
    # Every read of a game builds its rule system: the same few stored texts come back.
    return rules.find_variant(name, json.loads(house_rules))


class GameSummary(NamedTuple):
    """What a list of games shows of each: read as plain rows, not as whole games."""

    id: int
    number: int
    dealer_id: int
    status: str
    winner_id: int | None
    romme: bool | None


@dataclass(frozen=True)
class SessionScores:
    """Games of a session with their points per player, the totals and the standing (R7)."""

    games: list[GameSummary]
    game_points: dict[int, dict[int, int]]
    standing: rules.SessionStanding[int]

    @property
    def totals(self) -> dict[int, int]:
        """Return each player's total over all games."""
        return self.standing.totals


def session_scores(session: GameSession, latest: int | None = None) -> SessionScores:
    """Return the totals and the points of every game, or of the ``latest`` games only.

    Ended games carry their points (settlement lines) and players their banked totals, so
    the number of queries and the rows read for the totals do not grow with the session.
    A game in progress is always the newest, so it is among any ``latest`` games.
    """
    banked = {player.id: player.banked for player in session.players}
    variant = variant_of(session)
    if latest is None:
        return _all_scores(db.session.connection(), session.id, banked, variant)
    assert latest >= 1
    games = game_summaries(session, latest)
    ended = db.session.execute(
        sa.select(
            SettlementLine.game_id,
            SettlementLine.player_id,
            SettlementLine.meld_points + SettlementLine.gain,
        ).where(SettlementLine.game_id.in_([game.id for game in games]))
    ).all()
    return _scores(banked, variant, games, ended)


def _all_scores(
    connection: sa.Connection, session_id: int, banked: dict[int, int], variant: rules.Variant
) -> SessionScores:
    """Return the scores of all games: two prebuilt statements, a third while one is open."""
    games = [GameSummary(*row) for row in connection.execute(_GAMES_OF, {"session": session_id})]
    ended = connection.execute(_ENDED_POINTS, {"session": session_id}).all()
    return _scores(banked, variant, games, ended)


def _scores(
    banked: dict[int, int],
    variant: rules.Variant,
    games: list[GameSummary],
    ended: Iterable[Sequence[int]],
) -> SessionScores:
    """Add up the points of ``ended`` games, the open game's entries and the banked totals."""
    current = next((game for game in games if game.status == "open"), None)
    game_points = {game.id: dict.fromkeys(banked, 0) for game in games}
    for game_id, player_id, points in ended:
        game_points[game_id][player_id] += points
    current_points = _open_game_points(current, list(banked)) if current else {}
    if current is not None:
        game_points[current.id] = current_points
    totals = {
        player_id: total + current_points.get(player_id, 0) for player_id, total in banked.items()
    }
    ended_games = sum(1 for game in games if game.status != "open")
    if games and len(games) < games[-1].number:  # only the latest games were read
        ended_games = games[-1].number - (current is not None)
    standing = variant.standing(totals, ended_games, game_in_progress=current is not None)
    return SessionScores(games=games, game_points=game_points, standing=standing)


def _open_game_points(game: GameSummary, player_ids: list[int]) -> dict[int, int]:
    points = dict.fromkeys(player_ids, 0)
    rows = db.session.connection().execute(_OPEN_GAME_POINTS, {"game": game.id})
    for player_id, value in rows:
        points[player_id] += value
    return points


def game_summaries(session: GameSession, latest: int | None = None) -> list[GameSummary]:
    """Return the summaries of a session's games in order, or of the ``latest`` ones."""
    query = (
        sa.select(*_GAMES_OF.selected_columns)
        .where(_games.c.session_id == session.id)
        .order_by(_games.c.number.desc())
    )
    if latest is not None:
        query = query.limit(latest)
    return [GameSummary(*row) for row in reversed(db.session.execute(query).all())]


def games_of(session: GameSession) -> list[Game]:
    """Return every game of a session in order, with entries, cards and settlement loaded.

    For the history: a few queries whatever the length of the session, not a few per game.
    """
    query = (
        sa.select(Game)
        .where(Game.session_id == session.id)
        .order_by(Game.number)
        .options(
            so.selectinload(Game.entries).selectinload(Entry.cards),
            so.selectinload(Game.settlement_lines),
        )
    )
    return list(db.session.scalars(query).all())


def hand_groupings(
    variant: rules.Variant, lines: Iterable[SettlementLine]
) -> dict[int, rules.Grouping]:
    """Return how each booked hand split into matched and paid-for cards, where that matters."""
    groupings = {}
    for line in lines:
        grouping = variant.hand_grouping(rules.parse_cards(line.hand)) if line.hand else None
        if grouping is not None:
            groupings[line.player_id] = grouping
    return groupings


def game_points(game: Game | GameState) -> dict[int, int]:
    """Return each player's points in one game, settlement included once it has ended."""
    if isinstance(game, GameState):
        return game.points()
    points = dict.fromkeys((player.id for player in game.session.players), 0)
    if game.status != "open":
        for line in game.settlement_lines:
            points[line.player_id] += line.meld_points + line.gain
        return points
    for entry in game.entries:
        points[entry.player_id] += entry.value
    return points


def open_game(session: GameSession) -> Game | None:
    """Return the session's game in progress, if there is one."""
    return db.session.scalar(
        sa.select(Game).where(Game.session_id == session.id, Game.status == "open")
    )


def games_played(session: GameSession) -> int:
    """Return how many games a session has dealt, the open one included."""
    count = db.session.scalar(
        sa.select(sa.func.count()).select_from(Game).where(Game.session_id == session.id)
    )
    return int(count or 0)


def next_dealer(session: GameSession, games: Sequence[GameSummary] | None = None) -> Player:
    """Return the player who deals the next game (or the one in progress).

    ``games`` are the session's games in order, or at least its latest; read when not given.
    """
    if games is None:
        games = game_summaries(session, latest=1)
    seat = _dealer_seat(
        variant_of(session),
        session.first_dealer_seat,
        [(player.id, player.seat) for player in session.players],
        games[-1] if games else None,
    )
    return session.players[seat]


def _dealer_seat(
    variant: rules.Variant,
    first_dealer_seat: int,
    seats: Sequence[tuple[int, int]],
    last: GameSummary | None,
) -> int:
    """Ask the rule system who deals, from the latest game (its dealer, winner and status)."""
    seat_of = dict(seats)
    last_game = None
    if last is not None:
        winner = seat_of[last.winner_id] if last.winner_id is not None else None
        last_game = (seat_of[last.dealer_id], winner, last.status == "open")
    return variant.dealer_seat(first_dealer_seat, last_game, len(seats))


class Deal(NamedTuple):
    """How a game is dealt: the cards each player gets and who plays first."""

    cards_dealt: int
    first_player: int


def deal_of(game: Game | GameState) -> Deal:
    """Ask the rule system how many cards a game deals and who plays first."""
    if isinstance(game, GameState):
        variant, seats = game.variant, [player.id for player in game.players]
    else:
        variant, seats = variant_of(game.session), [player.id for player in game.session.players]
    dealer_seat = seats.index(game.dealer_id)
    first = variant.first_player_seat(dealer_seat, len(seats))
    return Deal(variant.cards_dealt(len(seats)), seats[first])


def table_of(game: Game | GameState, before: int | None = None) -> rules.Table[int]:
    """Rebuild the table of a game from its entries, keyed by meld entry id.

    ``before`` stops at the entry in that position: the table as it lay when it was recorded.
    """
    variant = game.variant if isinstance(game, GameState) else variant_of(game.session)
    entries = game.entries
    if before is not None:
        entries = [entry for entry in entries if entry.position < before]
    return rules.replay((_table_entry(entry) for entry in entries), variant)


def _table_entry(entry: Entry | EntryRow) -> rules.TableEntry[int]:
    cards = tuple(rules.Card.from_code(card.card) for card in entry.cards)
    return rules.TableEntry(key=entry.id, cards=cards, onto=entry.meld_id)


# --- the rows the writes work on -------------------------------------------------------------
# The use cases that record a game as it is played read and write plain rows through the
# session's connection (SQLAlchemy Core): the ORM's loading and unit of work cost several times
# the SQL itself. The transaction, its commit and the session's hooks stay the same.

_games = Game.__table__
_sessions = GameSession.__table__
_players = Player.__table__
_entries = Entry.__table__
_table_cards = TableCard.__table__
_settlement_lines = SettlementLine.__table__


class CardRow(NamedTuple):
    """A card an entry put on the table, with the value written for it."""

    id: int
    card: str
    value: int


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
    cards: list[CardRow]


class PlayerRow(NamedTuple):
    """A player of a session as stored."""

    id: int
    seat: int
    name: str
    banked: int


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
    target: int | None
    players: list[PlayerRow]
    entries: list[EntryRow]
    session_public_id: str
    first_dealer_seat: int

    @property
    def dealer(self) -> PlayerRow:
        """Return the player who dealt the game."""
        return next(player for player in self.players if player.id == self.dealer_id)

    def points(self) -> dict[int, int]:
        """Return each player's points from the entries (the game's points while it is open)."""
        points = dict.fromkeys((player.id for player in self.players), 0)
        for entry in self.entries:
            points[entry.player_id] += entry.value
        return points


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
        """Return the id the entry had."""
        return self.entry.id


def _game_state(connection: sa.Connection, game_id: int) -> GameState:
    """Read a game for a write, with the lock that makes writers to one game wait in line.

    SQLite transactions hold the database's write lock from their start (database.py); on
    PostgreSQL the game row is locked (FOR UPDATE) before its entries are read, so a writer
    that waited sees the entries written meanwhile.
    """
    if not 0 < game_id <= _LARGEST_ID:
        raise NotFoundError("no_game")
    rows = connection.execute(_GAME_ROWS, {"game_id": game_id}).all()
    if not rows:
        raise NotFoundError("no_game")
    first = rows[0]
    entries: list[EntryRow] = []
    for row in connection.execute(_ENTRY_ROWS, {"game_id": game_id}):
        if not entries or entries[-1].id != row[0]:
            entries.append(EntryRow(*row[:8], []))
        if row[8] is not None:
            entries[-1].cards.append(CardRow(row[8], row[9], row[10]))
    return GameState(
        *first[:7],
        variant=rule_system(first[7], first[16], first[9]),
        session_status=first[8],
        target=first[9],
        players=[PlayerRow(row[10], row[11], row[12], row[13]) for row in rows],
        entries=entries,
        session_public_id=first[14],
        first_dealer_seat=first[15],
    )


_GAME_ROWS = (
    sa.select(
        _games.c.id,
        _games.c.session_id,
        _games.c.number,
        _games.c.dealer_id,
        _games.c.status,
        _games.c.winner_id,
        _games.c.romme,
        _sessions.c.variant,
        _sessions.c.status,
        _sessions.c.target,
        _players.c.id,
        _players.c.seat,
        _players.c.name,
        _players.c.banked,
        _sessions.c.public_id,
        _sessions.c.first_dealer_seat,
        _sessions.c.house_rules,
    )
    .select_from(
        _games.join(_sessions, _sessions.c.id == _games.c.session_id).join(
            _players, _players.c.session_id == _sessions.c.id
        )
    )
    .where(_games.c.id == sa.bindparam("game_id"))
    .order_by(_players.c.seat)
    .with_for_update(of=_games)
)
_ENTRY_ROWS = (
    sa.select(
        _entries.c.id,
        _entries.c.position,
        _entries.c.kind,
        _entries.c.player_id,
        _entries.c.meld_id,
        _entries.c.meld_kind,
        _entries.c.value,
        _entries.c.created_at,
        _table_cards.c.id,
        _table_cards.c.card,
        _table_cards.c.value,
    )
    .select_from(_entries.outerjoin(_table_cards, _table_cards.c.entry_id == _entries.c.id))
    .where(_entries.c.game_id == sa.bindparam("game_id"))
    .order_by(_entries.c.position, _table_cards.c.position)
)


# The key check of every API request about a game or a session: plain statements, built once.
_GAME_DOOR = (
    sa.select(_sessions.c.public_id, _sessions.c.edit_key_digest, _sessions.c.view_key_digest)
    .select_from(_sessions.join(_games, _games.c.session_id == _sessions.c.id))
    .where(_games.c.id == sa.bindparam("game_id"))
)
_SESSION_DOOR = sa.select(
    _sessions.c.id, _sessions.c.edit_key_digest, _sessions.c.view_key_digest
).where(_sessions.c.public_id == sa.bindparam("public_id"))


def _open_state(connection: sa.Connection, game_id: int) -> GameState:
    state = _game_state(connection, game_id)
    refuse_closed(state)
    return state


def _player_of(state: GameState, player_id: int) -> PlayerRow:
    player = next((player for player in state.players if player.id == player_id), None)
    if player is None:
        raise InvalidRequestError("no_such_player")
    return player


def _insert(connection: sa.Connection, insert: sa.Insert, values: dict[str, object]) -> int:
    """Insert one row and return its id."""
    key = connection.execute(insert, values).inserted_primary_key
    assert key is not None
    return int(key[0])


# The statements of the writes, built once: building one costs more than running it.
_INSERT_GAME = sa.insert(_games)
_INSERT_ENTRY = sa.insert(_entries)
# RETURNING gives the rows in no set order, so the cards are matched by card.
_INSERT_CARDS = sa.insert(_table_cards).returning(_table_cards.c.card, _table_cards.c.id)
_DELETE_CARDS = sa.delete(_table_cards).where(_table_cards.c.entry_id == sa.bindparam("entry"))
_DELETE_ENTRY = sa.delete(_entries).where(_entries.c.id == sa.bindparam("entry"))
_CORRECT_ENTRY = (
    sa.update(_entries)
    .where(_entries.c.id == sa.bindparam("entry"))
    .values(
        player_id=sa.bindparam("player"),
        meld_id=sa.bindparam("meld"),
        value=sa.bindparam("value"),
        meld_kind=sa.bindparam("meld_kind"),
    )
)
_END_GAME = (
    sa.update(_games)
    .where(_games.c.id == sa.bindparam("game"))
    .values(
        status=sa.bindparam("status"),
        winner_id=sa.bindparam("winner"),
        romme=sa.bindparam("romme"),
        ended_at=sa.bindparam("ended_at"),
    )
)
_INSERT_SETTLEMENT_LINES = sa.insert(_settlement_lines)
_BANK = (
    sa.update(_players)
    .where(_players.c.id == sa.bindparam("player"))
    .values(banked=sa.bindparam("total"))
)
_END_SESSION = (
    sa.update(_sessions).where(_sessions.c.id == sa.bindparam("session")).values(status="finished")
)


def _commit() -> None:
    db.session.commit()
    # The rows changed around the ORM: objects this session loaded before must read them again.
    db.session.expire_all()


# --- sessions and games ----------------------------------------------------------------------


@_write_use_case
def create_session(
    names: list[str],
    target: int | None = None,
    first_dealer: int | None = 0,
    *,
    variant: str = rules.Treppenromme.name,
    house_rules: Mapping[str, object] | None = None,
    start_first_game: bool = False,
    keys: SessionKeys | None = None,
) -> GameSession:
    """Seat the players and open a session; ``first_dealer=None`` draws the dealer by lot.

    ``target`` is short for the house rule ``{"end": {"target": target}}``. Only the digests
    of ``keys`` are kept: the caller hands the keys themselves out.
    """
    chosen = dict(house_rules or {})
    if target is not None:
        rules.check_target(target)
        if target > _LARGEST_TARGET:
            raise rules.SeatingError("seating.target_too_high", largest=_LARGEST_TARGET)
        if chosen.setdefault("end", {"target": target}) != {"target": target}:
            raise rules.HouseRuleError("rules.target_and_end")
    rule_system = rules.find_variant(variant, chosen)
    problems = rules.seating_problems(names, target, first_dealer, rule_system)
    if problems:
        raise next(iter(problems.values()))
    seated = rules.seat_players(names, rule_system)
    if first_dealer is None:
        first_dealer = random.randrange(len(seated))
    keys = keys or SessionKeys.new()
    session = GameSession(
        variant=rule_system.name,
        target=rule_system.house_rules["end"].get("target"),
        house_rules=json.dumps(rule_system.house_rules, sort_keys=True),
        first_dealer_seat=first_dealer,
        status="open",
        edit_key_digest=keys.edit_digest,
        view_key_digest=keys.view_digest,
    )
    session.players = [Player(seat=seat, name=name) for seat, name in enumerate(seated)]
    db.session.add(session)
    if start_first_game:
        db.session.flush()
        seat = rule_system.dealer_seat(first_dealer, None, len(seated))
        # Set the ids: appending to session.games would load that (empty) list first.
        db.session.add(
            Game(
                session_id=session.id,
                number=1,
                dealer_id=session.players[seat].id,
                status="open",
            )
        )
    db.session.commit()
    return session


@_write_use_case
def start_game(session_id: int) -> GameState:
    """Start the next game of a session; the deal passes to the left."""
    if not 0 < session_id <= _LARGEST_ID:
        raise NotFoundError("no_session")
    connection = db.session.connection()
    rows = connection.execute(_SESSION_ROWS, {"session_id": session_id}).all()
    if not rows:
        raise NotFoundError("no_session")
    name, status, target, first_dealer_seat, public_id, house_rules = rows[0][:6]
    variant = rule_system(name, house_rules, target)
    players = [PlayerRow(row[6], row[7], row[8], row[9]) for row in rows]
    if status == "finished":
        raise ConflictError("session_over")
    row = connection.execute(_LAST_GAME, {"session": session_id}).one_or_none()
    last = GameSummary(*row) if row is not None else None
    if last is not None and last.status == "open":
        raise ConflictError("game_still_open")
    number = last.number + 1 if last is not None else 1
    seats = [(player.id, player.seat) for player in players]
    dealer = players[_dealer_seat(variant, first_dealer_seat, seats, last)]
    game = {
        "session_id": session_id,
        "number": number,
        "dealer_id": dealer.id,
        "status": "open",
        "started_at": utcnow(),
    }
    game_id = _insert(connection, _INSERT_GAME, game)
    _commit()
    return GameState(
        game_id,
        session_id,
        number,
        dealer.id,
        "open",
        None,
        None,
        variant,
        status,
        target,
        players,
        [],
        public_id,
        first_dealer_seat,
    )


_SESSION_ROWS = (
    sa.select(
        _sessions.c.variant,
        _sessions.c.status,
        _sessions.c.target,
        _sessions.c.first_dealer_seat,
        _sessions.c.public_id,
        _sessions.c.house_rules,
        _players.c.id,
        _players.c.seat,
        _players.c.name,
        _players.c.banked,
    )
    .select_from(_sessions.join(_players, _players.c.session_id == _sessions.c.id))
    .where(_sessions.c.id == sa.bindparam("session_id"))
    .order_by(_players.c.seat)
    # PostgreSQL: a start waits for a reopening of the session's last game (reopen_game).
    .with_for_update(of=_sessions)
)
# The games of a session, and the points of those that ended (the lines of their settlement).
_GAMES_OF = (
    sa.select(
        _games.c.id,
        _games.c.number,
        _games.c.dealer_id,
        _games.c.status,
        _games.c.winner_id,
        _games.c.romme,
    )
    .where(_games.c.session_id == sa.bindparam("session"))
    .order_by(_games.c.number)
)
_ENDED_POINTS = (
    sa.select(
        _settlement_lines.c.game_id,
        _settlement_lines.c.player_id,
        _settlement_lines.c.meld_points + _settlement_lines.c.gain,
    )
    .select_from(_settlement_lines.join(_games, _games.c.id == _settlement_lines.c.game_id))
    .where(_games.c.session_id == sa.bindparam("session"))
)
# The points of a game in progress, from its entries.
_OPEN_GAME_POINTS = (
    sa.select(_entries.c.player_id, sa.func.sum(_entries.c.value))
    .where(_entries.c.game_id == sa.bindparam("game"))
    .group_by(_entries.c.player_id)
)
# The latest game of a session, which says who deals the next.
_LAST_GAME = _GAMES_OF.order_by(None).order_by(_games.c.number.desc()).limit(1)


# --- entries ---------------------------------------------------------------------------------


@_write_use_case
def record_meld(game_id: int, player_id: int, cards: str) -> Recorded:
    """Record a player's new meld and the value written for it."""
    connection = db.session.connection()
    state = _open_state(connection, game_id)
    player = _player_of(state, player_id)
    table = table_of(state)
    meld = table.meld(-1, rules.parse_cards(cards))
    entry = _write(connection, state, "meld", player.id, meld)
    _commit()
    return Recorded(entry, entry, meld)


@_write_use_case
def record_layoff(game_id: int, player_id: int, meld_id: int, cards: str) -> Recorded:
    """Record cards a player lays off onto a meld on the table, valued where they lie (R2)."""
    connection = db.session.connection()
    state = _open_state(connection, game_id)
    player = _player_of(state, player_id)
    meld_entry = next(
        (entry for entry in state.entries if entry.id == meld_id and entry.kind == "meld"), None
    )
    if meld_entry is None:
        raise InvalidRequestError("no_such_meld")
    table = table_of(state)
    layoff = table.lay_off(-1, meld_entry.id, rules.parse_cards(cards))
    entry = _write(connection, state, "layoff", player.id, layoff, meld_id=meld_entry.id)
    _commit()
    return Recorded(entry, meld_entry, layoff.meld)


def _write(
    connection: sa.Connection,
    state: GameState,
    kind: str,
    player_id: int,
    played: rules.Meld | rules.Layoff,
    meld_id: int | None = None,
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
        cards=[],
    )
    stored = entry._asdict()
    del stored["id"], stored["cards"]
    entry_id = _insert(connection, _INSERT_ENTRY, {**stored, "game_id": state.id})
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


@_write_use_case
def delete_entry(game_id: int, entry_id: int) -> None:
    """Delete an entry of the open game when nothing on the table depends on it."""
    connection = db.session.connection()
    state = _game_state(connection, game_id)
    entry = entry_in(state.entries, entry_id)
    refuse_closed(state)
    _delete(connection, state, entry)
    _commit()


@_write_use_case
def undo_last_entry(game_id: int, seen_last: int | None = None) -> Undone:
    """Delete the latest entry of the open game and return what it was, with the game after.

    ``seen_last`` is the latest entry as the recorder's page showed it: when another entry
    came since, or it was undone already (a double tap), nothing is deleted.
    """
    connection = db.session.connection()
    state = _open_state(connection, game_id)
    if not state.entries:
        raise ConflictError("nothing_to_undo")
    last = state.entries[-1]
    if seen_last is not None and last.id != seen_last:
        raise ConflictError("undo_out_of_date")
    after = _delete(connection, state, last)
    _commit()
    return Undone(last, after)


def _delete(connection: sa.Connection, state: GameState, entry: EntryRow) -> GameState:
    """Delete an entry and its cards if nothing builds on it; return the game without it."""
    remaining = [other for other in state.entries if other.id != entry.id]
    _refuse_dependants(state, remaining, entry)
    connection.execute(_DELETE_CARDS, {"entry": entry.id})
    connection.execute(_DELETE_ENTRY, {"entry": entry.id})
    return replace(state, entries=remaining)


@_write_use_case
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
    state = _game_state(connection, game_id)
    entry = entry_in(state.entries, entry_id)
    refuse_closed(state)
    player = entry.player_id if player_id is None else _player_of(state, player_id).id
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
    replayed: list[rules.TableEntry[int]] = [_table_entry(other) for other in state.entries]
    written = {other.id: other.value for other in state.entries}
    corrected, changed = rules.replay_correction(
        replayed, written, rules.TableEntry(entry.id, new_cards, onto), state.variant
    )
    if changed is not None:
        later = entry_in(state.entries, changed.key)
        raise ConflictError(
            "later_entry_builds_on_it",
            name=_player_of(state, later.player_id).name,
            cards=_table_entry(later).cards,
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
    _commit()
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
    entries = [_table_entry(other) for other in remaining]
    if rules.first_entry_changed(entries, written, state.variant) is not None:
        raise ConflictError("later_layoff_builds_on_it")


# --- the end of a game -----------------------------------------------------------------------


@dataclass(frozen=True)
class SessionSummary:
    """A session as its answers show it: players, scores and the next dealer, read at once."""

    public_id: str
    status: str
    rule_system: rules.Variant
    players: list[tuple[int, str]]
    scores: SessionScores
    dealer_id: int

    @property
    def variant(self) -> str:
        """Return the name of the rule system, e.g. ``boathouse_rum``."""
        return self.rule_system.name

    @property
    def target(self) -> int | None:
        """Return the total the session is played to, if it ends at one."""
        return self.scores.standing.target


def summarize_session(session: GameSession) -> SessionSummary:
    """Read what a session's answer shows, in the current transaction."""
    return _summary(
        session.public_id,
        session.status,
        variant_of(session),
        [(player.id, player.name) for player in session.players],
        session_scores(session),
        session.first_dealer_seat,
    )


def _summary_after(connection: sa.Connection, game: GameState) -> SessionSummary:
    """Read the session of a game just finished for the answer: ``game`` holds the rest."""
    banked = {player.id: player.banked for player in game.players}
    return _summary(
        game.session_public_id,
        game.session_status,
        game.variant,
        [(player.id, player.name) for player in game.players],
        _all_scores(connection, game.session_id, banked, game.variant),
        game.first_dealer_seat,
    )


def _summary(
    public_id: str,
    status: str,
    variant: rules.Variant,
    players: list[tuple[int, str]],
    scores: SessionScores,
    first_dealer_seat: int,
) -> SessionSummary:
    """Put a session's summary together; who deals next follows from its latest game."""
    seats = [(player_id, seat) for seat, (player_id, _name) in enumerate(players)]
    last = scores.games[-1] if scores.games else None
    seat = _dealer_seat(variant, first_dealer_seat, seats, last)
    return SessionSummary(public_id, status, variant, players, scores, dealer_id=players[seat][0])


@dataclass(frozen=True)
class Finish:
    """The settlement of a game as it is (or would be) booked."""

    game: GameState
    winner: PlayerRow | None
    romme: bool
    romme_possible: bool
    hands: dict[int, list[rules.Card]]
    settlement: rules.GameSettlement[int]
    hand_points: dict[int, int] = field(default_factory=dict)
    # The session after the finish, read before its commit (None for a preview).
    session: SessionSummary | None = None


def preview_finish(
    game_id: int,
    winner_id: int | None,
    hands: Mapping[int, str | int],
    romme: bool | None = None,
) -> Finish:
    """Check and settle the end of a game without writing anything.

    A hand is the cards left in it as text, or the points the table counted (a whole number).
    """
    game = _open_state(db.session.connection(), game_id)
    if winner_id is not None:
        _player_of(game, winner_id)
    names = {player.id: player.name for player in game.players}
    parsed: dict[int, list[rules.Card] | int] = {}
    for player_id, hand in hands.items():
        if player_id not in names:
            raise InvalidRequestError("hand_of_a_stranger")
        parsed[player_id] = hand if isinstance(hand, int) else rules.parse_cards(hand)
    settlement = game.variant.finish(
        names,
        winner_id,
        parsed,
        entry_players=[entry.player_id for entry in game.entries],
        on_table=table_of(game).cards if winner_id is not None else (),
        romme=romme,
    )
    winner = _player_of(game, winner_id) if winner_id is not None else None
    hand_cards = {key: cards for key, cards in parsed.items() if not isinstance(cards, int)}
    return Finish(
        game,
        winner,
        settlement.romme,
        settlement.romme_possible,
        hand_cards,
        settlement,
        settlement.hand_points,
    )


@_write_use_case
def finish_game(
    game_id: int,
    winner_id: int | None,
    hands: Mapping[int, str | int],
    romme: bool | None = None,
) -> Finish:
    """Settle and close a game (``winner_id=None`` abandons it, R6) and check the target (R7)."""
    finish = preview_finish(game_id, winner_id, hands, romme)
    game = finish.game
    meld_points = game.points()  # while the game is open: its entries
    ended = replace(
        game,
        status="finished" if finish.winner else "abandoned",
        winner_id=finish.winner.id if finish.winner else None,
        romme=finish.romme if finish.winner else None,
    )
    connection = db.session.connection()
    connection.execute(
        _END_GAME,
        {
            "game": game.id,
            "status": ended.status,
            "winner": ended.winner_id,
            "romme": ended.romme,
            "ended_at": utcnow(),
        },
    )
    gains = finish.settlement.gains
    connection.execute(
        _INSERT_SETTLEMENT_LINES,
        [
            {
                "game_id": game.id,
                "player_id": player.id,
                "hand": (
                    rules.cards_text(finish.hands[player.id]) if player.id in finish.hands else None
                ),
                "hand_points": finish.hand_points.get(player.id),
                "factor": finish.settlement.factors.get(player.id, 1),
                "gain": gains[player.id],
                "meld_points": meld_points[player.id],
            }
            for player in game.players
        ],
    )
    players = [
        player._replace(banked=player.banked + meld_points[player.id] + gains[player.id])
        for player in game.players
    ]
    connection.execute(_BANK, [{"player": player.id, "total": player.banked} for player in players])
    # Games are numbered in order and only the latest can be open: all of them have ended now.
    standing = game.variant.standing({player.id: player.banked for player in players}, game.number)
    session_status = game.session_status
    if standing.winner is not None:
        session_status = "finished"
        connection.execute(_END_SESSION, {"session": game.session_id})
    ended = replace(ended, session_status=session_status, players=players)
    # Read the session for the answer now: after the commit it would be a second transaction,
    # waiting in line behind every other writer again.
    summary = _summary_after(connection, ended)
    _commit()
    return replace(finish, game=ended, session=summary)


def abandon_game(game_id: int) -> Finish:
    """Abandon a game (R6): its melds stand, no hand cards are scored, nobody wins it."""
    return finish_game(game_id, None, {}, None)


@_write_use_case
def reopen_game(game_id: int) -> GameState:
    """Take back the booking of a session's last ended game, and play that game on.

    For a settlement entered wrong (the winner, a hand): what it banked comes off the totals,
    the game is open again with its entries, and a session it had won plays on. A next game
    that was dealt but has no entry yet goes; one with entries keeps this game closed.
    """
    connection = db.session.connection()
    game = _game_state(connection, game_id)
    if game.status == "open":
        raise ConflictError("game_not_ended", number=game.number)
    # On PostgreSQL the session row and the later games are locked: a start of the next game,
    # or an entry into it, waits, and is then seen here.
    connection.execute(_LOCK_SESSION, {"session": game.session_id})
    later = connection.execute(
        _LATER_GAMES, {"session": game.session_id, "number": game.number}
    ).all()
    for later_id, number, status in later:
        played = connection.execute(_ENTRIES_IN, {"game": later_id}).scalar()
        if played or status != "open" or number > game.number + 1:
            raise ConflictError("later_game_played", number=number)
    for later_id, _number, _status in later:
        connection.execute(_DELETE_GAME, {"game": later_id})
    lines = connection.execute(_SETTLEMENT_OF, {"game": game.id}).all()
    booked = {line.player_id: line.meld_points + line.gain for line in lines}
    players = [
        player._replace(banked=player.banked - booked.get(player.id, 0)) for player in game.players
    ]
    connection.execute(_BANK, [{"player": player.id, "total": player.banked} for player in players])
    connection.execute(_DELETE_SETTLEMENT, {"game": game.id})
    connection.execute(
        _END_GAME,
        {"game": game.id, "status": "open", "winner": None, "romme": None, "ended_at": None},
    )
    connection.execute(_REOPEN_SESSION, {"session": game.session_id})
    _commit()
    return replace(
        game, status="open", winner_id=None, romme=None, session_status="open", players=players
    )


_LOCK_SESSION = (
    sa.select(_sessions.c.id).where(_sessions.c.id == sa.bindparam("session")).with_for_update()
)
_LATER_GAMES = (
    sa.select(_games.c.id, _games.c.number, _games.c.status)
    .where(_games.c.session_id == sa.bindparam("session"))
    .where(_games.c.number > sa.bindparam("number"))
    .order_by(_games.c.number)
    .with_for_update()
)
_ENTRIES_IN = (
    sa.select(sa.func.count())
    .select_from(_entries)
    .where(_entries.c.game_id == sa.bindparam("game"))
)
_DELETE_GAME = sa.delete(_games).where(_games.c.id == sa.bindparam("game"))
_SETTLEMENT_OF = sa.select(
    _settlement_lines.c.player_id, _settlement_lines.c.meld_points, _settlement_lines.c.gain
).where(_settlement_lines.c.game_id == sa.bindparam("game"))
_DELETE_SETTLEMENT = sa.delete(_settlement_lines).where(
    _settlement_lines.c.game_id == sa.bindparam("game")
)
_REOPEN_SESSION = (
    sa.update(_sessions).where(_sessions.c.id == sa.bindparam("session")).values(status="open")
)


# --- helpers ---------------------------------------------------------------------------------


def refuse_closed(game: Game | GameState) -> None:
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
