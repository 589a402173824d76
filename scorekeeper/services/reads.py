"""The read side: sessions, games and scores as the pages and the API show them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Game, GameSession, Player, SettlementLine
from scorekeeper.services.errors import NotFoundError
from scorekeeper.services.rows import (
    ENTRIES,
    GAMES,
    GAMES_OF,
    LARGEST_ID,
    SETTLEMENT_LINES,
    GameState,
    GameSummary,
    seat_that_deals,
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
    games = [GameSummary(*row) for row in connection.execute(GAMES_OF, {"session": session_id})]
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
        sa.select(*GAMES_OF.selected_columns)
        .where(GAMES.c.session_id == session.id)
        .order_by(GAMES.c.number.desc())
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
        grouping = variant.hand_grouping(variant.read_cards(line.hand)) if line.hand else None
        if grouping is not None:
            groupings[line.player_id] = grouping
    return groupings


def game_points(game: GameState) -> dict[int, int]:
    """Return each player's points in one game, settlement included once it has ended."""
    return game.points()


def history_points(game: Game, player_ids: Iterable[int]) -> dict[int, int]:
    """Return each player's points in a game of the history (``games_of``), as ``game_points``.

    The history reads the ORM games of a session with their settlement lines loaded.
    """
    points = dict.fromkeys(player_ids, 0)
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
    seat = seat_that_deals(
        variant_of(session),
        session.first_dealer_seat,
        [(player.id, player.seat) for player in session.players],
        games[-1] if games else None,
    )
    return session.players[seat]


_ENDED_POINTS = (
    sa.select(
        SETTLEMENT_LINES.c.game_id,
        SETTLEMENT_LINES.c.player_id,
        SETTLEMENT_LINES.c.meld_points + SETTLEMENT_LINES.c.gain,
    )
    .select_from(SETTLEMENT_LINES.join(GAMES, GAMES.c.id == SETTLEMENT_LINES.c.game_id))
    .where(GAMES.c.session_id == sa.bindparam("session"))
)


# The points of a game in progress, from its entries.
_OPEN_GAME_POINTS = (
    sa.select(ENTRIES.c.player_id, sa.func.sum(ENTRIES.c.value))
    .where(ENTRIES.c.game_id == sa.bindparam("game"))
    .group_by(ENTRIES.c.player_id)
)


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


def summary_after(connection: sa.Connection, game: GameState) -> SessionSummary:
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
    seat = seat_that_deals(variant, first_dealer_seat, seats, last)
    return SessionSummary(public_id, status, variant, players, scores, dealer_id=players[seat][0])
