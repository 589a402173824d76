"""The read side: sessions, games and scores as the pages and the API show them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Game, GameSession, Player
from scorekeeper.services.errors import NotFoundError
from scorekeeper.services.rows import (
    ENTRIES,
    ENTRY_ROWS,
    GAMES,
    GAMES_OF,
    LARGEST_ID,
    SETTLEMENT_LINES,
    TABLE_CARDS,
    EntryRow,
    GameState,
    GameSummary,
    Seat,
    add_entry_row,
    dealer_of,
    read_game,
    seating_of,
    variant_of,
)


def get_session(session_id: int) -> GameSession:
    """Return a session with its players, or raise NotFoundError."""
    session: GameSession | None = None
    if 0 < session_id <= LARGEST_ID:
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
    if 0 < game_id <= LARGEST_ID:
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


@dataclass(frozen=True)
class SessionScores:
    """Games of a session with their points per player, the totals and the standing (R7).

    The standing is among the players at the table; those who left keep their totals apart.
    """

    games: list[GameSummary]
    game_points: dict[int, dict[int, int]]
    standing: rules.SessionStanding[int]
    # The totals of the players who left the table: theirs, but out of the standing.
    left_totals: dict[int, int] = field(default_factory=dict)

    @property
    def totals(self) -> dict[int, int]:
        """Return each player's total over all games, of those who left too."""
        return {**self.standing.totals, **self.left_totals}


class Scored(Protocol):
    """A player as the scores read them: a session's player, or a game's player row."""

    @property
    def id(self) -> int: ...

    @property
    def banked(self) -> int: ...

    @property
    def seated(self) -> bool: ...

    def plays_in(self, number: int) -> bool: ...


def session_scores(session: GameSession) -> SessionScores:
    """Return the totals and the points of every game (the latest: ``scores_with_game``).

    Ended games carry their points (settlement lines) and players their banked totals, so
    the number of queries and the rows read for the totals do not grow with the session.
    """
    variant = variant_of(session)
    return _all_scores(db.session.connection(), session.id, session.players, variant)


def scores_with_game(session: GameSession, latest: int) -> tuple[SessionScores, GameState | None]:
    """Return the scores of the ``latest`` games and the game in progress, if there is one.

    The game's entries, read for the game, give its points too (the session page).
    """
    games, ended = _latest_games(session, latest)
    game = read_game(games[-1].id) if games and games[-1].status == "open" else None
    entries = [(entry.player_id, entry.value) for entry in game.entries] if game else None
    return _scores(session.players, variant_of(session), games, ended, entries), game


def _latest_games(
    session: GameSession, latest: int
) -> tuple[list[GameSummary], Sequence[Sequence[int]]]:
    """Return the ``latest`` games' summaries and the points booked in those that ended.

    The points are read for the games numbered as those read: on PostgreSQL each statement
    sees the latest commit, and a game dealt meanwhile is not among them.
    """
    assert latest >= 1
    games = game_summaries(session, latest)
    if not games:
        return games, ()
    numbers = {"session": session.id, "first": games[0].number, "last": games[-1].number}
    return games, db.session.connection().execute(_ENDED_POINTS_OF_NUMBERS, numbers).all()


# The latest games of a session, newest first; built once (a statement built per request
# cost more than its query).
_LATEST_GAMES = (
    sa.select(*GAMES_OF.selected_columns)
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .order_by(GAMES.c.number.desc())
    .limit(sa.bindparam("latest"))
)


def _all_scores(
    connection: sa.Connection,
    session_id: int,
    players: Sequence[Scored],
    variant: rules.Variant,
) -> SessionScores:
    """Return the scores of all games: two prebuilt statements, a third while one is open."""
    games = [
        GameSummary(**row._mapping) for row in connection.execute(GAMES_OF, {"session": session_id})
    ]
    ended = connection.execute(_ENDED_POINTS, {"session": session_id}).all()
    return _scores(players, variant, games, ended)


def scores_of_games(session: GameSession, games: Sequence[PlayedGame]) -> SessionScores:
    """Return the scores of a session from every game of it read by ``games_of``: no query."""
    ended = [
        (line.game_id, line.player_id, line.meld_points + line.gain)
        for played in games
        for line in played.lines
    ]
    entries = [(entry.player_id, entry.value) for played in games[-1:] for entry in played.entries]
    summaries = [played.game for played in games]
    return _scores(session.players, variant_of(session), summaries, ended, entries)


def _scores(
    players: Sequence[Scored],
    variant: rules.Variant,
    games: list[GameSummary],
    ended: Iterable[Sequence[int]],
    open_entries: Iterable[tuple[int, int]] | None = None,
) -> SessionScores:
    """Add up the points of ``ended`` games, the open game's entries and the banked totals.

    ``players`` are everyone of the session in seat order; each game counts its own players.
    ``open_entries`` are the open game's (player, value) where they were read already.
    """
    current = next((game for game in games if game.status == "open"), None)
    game_points = {
        game.id: {player.id: 0 for player in players if player.plays_in(game.number)}
        for game in games
    }
    for game_id, player_id, points in ended:
        game_points[game_id][player_id] += points
    current_points: dict[int, int] = {}
    if current is not None:
        dealt_in = [player.id for player in players if player.plays_in(current.number)]
        current_points = game_points[current.id] = _open_game_points(
            current, dealt_in, open_entries
        )
    totals = {player.id: player.banked + current_points.get(player.id, 0) for player in players}
    ended_games = sum(1 for game in games if game.status != "open")
    if games and len(games) < games[-1].number:  # only the latest games were read
        ended_games = games[-1].number - (current is not None)
    seated = {player.id: totals[player.id] for player in players if player.seated}
    standing = variant.standing(seated, ended_games, game_in_progress=current is not None)
    left = {player.id: totals[player.id] for player in players if not player.seated}
    return SessionScores(games, game_points, standing, left)


def _open_game_points(
    game: GameSummary, player_ids: list[int], entries: Iterable[tuple[int, int]] | None
) -> dict[int, int]:
    points = dict.fromkeys(player_ids, 0)
    if entries is None:
        connection = db.session.connection()
        entries = [
            (int(player), int(value))
            for player, value in connection.execute(_OPEN_GAME_POINTS, {"game": game.id})
        ]
    for player_id, value in entries:
        points[player_id] += value
    return points


def game_summaries(session: GameSession, latest: int | None = None) -> list[GameSummary]:
    """Return the summaries of a session's games in order, or of the ``latest`` ones."""
    connection = db.session.connection()
    if latest is None:
        return [
            GameSummary(**row._mapping)
            for row in connection.execute(GAMES_OF, {"session": session.id})
        ]
    newest = connection.execute(_LATEST_GAMES, {"session": session.id, "latest": latest}).all()
    return [GameSummary(**row._mapping) for row in reversed(newest)]


class BookedLine(NamedTuple):
    """What the settlement of an ended game booked for one player."""

    game_id: int
    player_id: int
    hand: str | None
    hand_points: int | None
    factor: int
    gain: int
    meld_points: int


class PlayedGame(NamedTuple):
    """A game of the history: its summary, its entries with their cards, its settlement."""

    game: GameSummary
    entries: list[EntryRow]
    lines: list[BookedLine]


# Every entry of a session's games numbered ``first`` to ``last`` with its cards, game by game
# in the order recorded.
_SESSION_ENTRIES = (
    sa.select(ENTRIES.c.game_id, *ENTRY_ROWS.selected_columns)
    .select_from(
        ENTRIES.join(GAMES, GAMES.c.id == ENTRIES.c.game_id).outerjoin(
            TABLE_CARDS, TABLE_CARDS.c.entry_id == ENTRIES.c.id
        )
    )
    .where(
        GAMES.c.session_id == sa.bindparam("session"),
        GAMES.c.number.between(sa.bindparam("first"), sa.bindparam("last")),
    )
    .order_by(ENTRIES.c.game_id, ENTRIES.c.position, TABLE_CARDS.c.position)
)
# Every settlement line of those games, its columns named as BookedLine's fields.
_SESSION_LINES = (
    sa.select(*(SETTLEMENT_LINES.c[name] for name in BookedLine._fields))
    .select_from(SETTLEMENT_LINES.join(GAMES, GAMES.c.id == SETTLEMENT_LINES.c.game_id))
    .where(
        GAMES.c.session_id == sa.bindparam("session"),
        GAMES.c.number.between(sa.bindparam("first"), sa.bindparam("last")),
    )
    .order_by(SETTLEMENT_LINES.c.game_id, SETTLEMENT_LINES.c.id)
)
# The latest games of a session numbered below ``before``, newest first.
_GAMES_BEFORE = (
    sa.select(*GAMES_OF.selected_columns)
    .where(GAMES.c.session_id == sa.bindparam("session"), GAMES.c.number < sa.bindparam("before"))
    .order_by(GAMES.c.number.desc())
    .limit(sa.bindparam("latest"))
)
# The history shows this many games at a time: the latest, then the earlier ones page by page,
# so that a page costs the same in a session of 10 games and in one of 2,000.
HISTORY_GAMES = 10


def history_before(number: int, latest: int, count: int = HISTORY_GAMES) -> int | None:
    """Return the ``before`` of the history page that shows game ``number``, ``latest`` the last.

    None: the game is on the page of the latest games. An earlier game is on the page of the
    games before the one after it, where it comes last.

    >>> history_before(12, 12), history_before(3, 12), history_before(2, 12)
    (None, None, 3)
    """
    return number + 1 if number <= latest - count else None


class HistoryPage(NamedTuple):
    """A page of the history: some games in order, the session's scores, the way to the others.

    ``earlier`` is the ``before`` of the page of the games before these (None: there are none);
    ``later`` is whether newer games exist, and ``later_before`` the ``before`` of their page
    (None: the page of the latest games).
    """

    games: list[PlayedGame]
    scores: SessionScores
    earlier: int | None
    later: bool
    later_before: int | None


def history_page(
    session: GameSession, before: int | None = None, count: int = HISTORY_GAMES
) -> HistoryPage:
    """Return the ``count`` latest games numbered below ``before`` (or of all), for the history.

    Each with its entries, cards and settlement: three statements whatever the length of the
    session, a fourth (and a fifth while a game is open) for the totals on an earlier page.
    """
    connection = db.session.connection()
    parameters = {"session": session.id, "latest": count + 1}
    if before is None:
        newest = connection.execute(_LATEST_GAMES, parameters).all()
    else:
        newest = connection.execute(_GAMES_BEFORE, {**parameters, "before": before}).all()
    games = [GameSummary(**row._mapping) for row in reversed(newest)]
    if len(games) > count:  # one more than shown: there are earlier games
        del games[0]
    earlier = games[0].number if len(newest) > count else None
    played = _played(connection, session, games)
    latest = games[-1:] if before is None else game_summaries(session, latest=1)
    if not latest or (games and latest[-1].id == games[-1].id):
        return HistoryPage(played, scores_of_games(session, played), earlier, False, None)
    ended = [
        (line.game_id, line.player_id, line.meld_points + line.gain)
        for item in played
        for line in item.lines
    ]
    scores = _scores(session.players, variant_of(session), [*games, *latest], ended)
    last = games[-1].number if games else 0
    later_before = last + count + 1 if last + count < latest[-1].number else None
    return HistoryPage(played, scores, earlier, True, later_before)


def _played(
    connection: sa.Connection, session: GameSession, games: list[GameSummary]
) -> list[PlayedGame]:
    """Return the games with their entries, cards and settlement lines: two statements."""
    if not games:
        return []
    parameters = {"session": session.id, "first": games[0].number, "last": games[-1].number}
    entries: dict[int, list[EntryRow]] = {game.id: [] for game in games}
    # On PostgreSQL each statement sees the latest commit: a game dealt after the games were
    # read may have entries and lines already, and is left for the next page.
    for row in connection.execute(_SESSION_ENTRIES, parameters):
        if row.game_id in entries:
            add_entry_row(entries[row.game_id], row)
    lines: dict[int, list[BookedLine]] = {game.id: [] for game in games}
    for line in connection.execute(_SESSION_LINES, parameters):
        if line[0] in lines:
            lines[line[0]].append(BookedLine(*line))
    return [PlayedGame(game, entries[game.id], lines[game.id]) for game in games]


class Hand(Protocol):
    """A booked hand: a settlement line (``BookedLine``, or the ORM's)."""

    @property
    def player_id(self) -> int: ...

    @property
    def hand(self) -> str | None: ...


def hand_groupings(variant: rules.Variant, lines: Iterable[Hand]) -> dict[int, rules.Grouping]:
    """Return how each booked hand split into matched and paid-for cards, where that matters."""
    groupings = {}
    for line in lines:
        grouping = variant.hand_grouping(variant.read_cards(line.hand)) if line.hand else None
        if grouping is not None:
            groupings[line.player_id] = grouping
    return groupings


def game_points(game: GameState) -> dict[int, int]:
    """Return each player's points in one game, settlement included once it has ended."""
    return game.points()


def history_points(played: PlayedGame, player_ids: Iterable[int]) -> dict[int, int]:
    """Return each player's points in a game of the history (``games_of``), as ``game_points``."""
    points = dict.fromkeys(player_ids, 0)
    if played.game.status != "open":
        for line in played.lines:
            points[line.player_id] += line.meld_points + line.gain
        return points
    for entry in played.entries:
        points[entry.player_id] += entry.value
    return points


def open_game(session: GameSession) -> Game | None:
    """Return the session's game in progress, if there is one."""
    return db.session.scalar(
        sa.select(Game).where(Game.session_id == session.id, Game.status == "open")
    )


def next_dealer(session: GameSession, games: Sequence[GameSummary] | None = None) -> Player:
    """Return the player who deals the next game (or the one in progress).

    ``games`` are the session's games in order, or at least its latest; read when not given.
    """
    if games is None:
        games = game_summaries(session, latest=1)
    last = games[-1] if games else None
    dealer = dealer_of(variant_of(session), session.first_dealer_seat, session.players, last)
    return next(player for player in session.players if player.id == dealer)


def reopen_possible(session: GameSession, game: GameState | None) -> bool:
    """Tell whether the session's last ended game can be reopened; ``game`` is the open one.

    The rules say (``rules.Seating.reopen_refusal``), as when the reopen is asked for: the
    game dealt after it goes with it while nothing was recorded there and the seating lets it.
    """
    if game is None:
        return True
    later = [rules.LaterGame(game.number, still_open=True, played=bool(game.entries))]
    seating = seating_of((player.joined_game, player.left_game) for player in session.players)
    return seating.reopen_refusal(game.number - 1, later) is None


_ENDED_POINTS = (
    sa.select(
        SETTLEMENT_LINES.c.game_id,
        SETTLEMENT_LINES.c.player_id,
        SETTLEMENT_LINES.c.meld_points + SETTLEMENT_LINES.c.gain,
    )
    .select_from(SETTLEMENT_LINES.join(GAMES, GAMES.c.id == SETTLEMENT_LINES.c.game_id))
    .where(GAMES.c.session_id == sa.bindparam("session"))
)


# The points of a session's ended games numbered ``first`` to ``last``.
_ENDED_POINTS_OF_NUMBERS = _ENDED_POINTS.where(
    GAMES.c.number.between(sa.bindparam("first"), sa.bindparam("last"))
)


# The points of a game in progress, from its entries.
_OPEN_GAME_POINTS = (
    sa.select(ENTRIES.c.player_id, sa.func.sum(ENTRIES.c.value))
    .where(ENTRIES.c.game_id == sa.bindparam("game"))
    .group_by(ENTRIES.c.player_id)
)


@dataclass(frozen=True)
class SessionSummary:
    """A session as its answers show it: players, scores and the next dealer, read at once.

    ``players`` are those at the table now, in seating order; ``left`` those who left it.
    """

    public_id: str
    status: str
    rule_system: rules.Variant
    players: list[tuple[int, str]]
    scores: SessionScores
    dealer_id: int
    left: list[tuple[int, str]] = field(default_factory=list)

    @property
    def variant(self) -> str:
        """Return the name the registry knows the rule system by."""
        return self.rule_system.name

    @property
    def target(self) -> int | None:
        """Return the total the session is played to, if it ends at one."""
        return self.scores.standing.target


# How many games of each session ended and how many are open, in one statement for a list.
_GAMES_COUNTED = (
    sa.select(
        GAMES.c.session_id,
        sa.func.count().filter(GAMES.c.status != "open").label("ended"),
        sa.func.count().filter(GAMES.c.status == "open").label("open"),
    )
    .where(GAMES.c.session_id.in_(sa.bindparam("sessions", expanding=True)))
    .group_by(GAMES.c.session_id)
)


def standings_of(sessions: Sequence[GameSession]) -> dict[int, rules.SessionStanding[int]]:
    """Return each session's standing after its ended games, by session id, in one statement.

    The totals are the points banked as each game ended: a list of sessions says who leads
    or won without replaying an open game.
    """
    if not sessions:
        return {}
    counted = {
        row.session_id: row
        for row in db.session.execute(_GAMES_COUNTED, {"sessions": [s.id for s in sessions]})
    }
    standings = {}
    for session in sessions:
        row = counted.get(session.id)
        banked = {player.id: player.banked for player in session.seated}
        standings[session.id] = variant_of(session).standing(
            banked, row.ended if row else 0, game_in_progress=bool(row and row.open)
        )
    return standings


def summarize_session(session: GameSession) -> SessionSummary:
    """Read what a session's answer shows, in the current transaction."""
    return _summary(
        session.public_id,
        session.status,
        variant_of(session),
        session.players,
        session_scores(session),
        session.first_dealer_seat,
    )


def summary_after(connection: sa.Connection, game: GameState) -> SessionSummary:
    """Read the session of a game just finished for the answer: ``game`` holds the rest."""
    return _summary(
        game.session_public_id,
        game.session_status,
        game.variant,
        game.everyone,
        _all_scores(connection, game.session_id, game.everyone, game.variant),
        game.first_dealer_seat,
    )


class _Named(Seat, Protocol):
    @property
    def name(self) -> str: ...

    @property
    def seated(self) -> bool: ...


def _summary(
    public_id: str,
    status: str,
    variant: rules.Variant,
    players: Sequence[_Named],
    scores: SessionScores,
    first_dealer_seat: int,
) -> SessionSummary:
    """Put a session's summary together; who deals next follows from its latest game."""
    last = scores.games[-1] if scores.games else None
    dealer = dealer_of(variant, first_dealer_seat, players, last)
    return SessionSummary(
        public_id,
        status,
        variant,
        [(player.id, player.name) for player in players if player.seated],
        scores,
        dealer_id=dealer,
        left=[(player.id, player.name) for player in players if not player.seated],
    )
