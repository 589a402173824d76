"""Sessions and their scores as the pages and the API show them: totals, summaries, history.

The totals never replay a long session: ended games carry their points (settlement lines) and
players their banked totals, so a read is a fixed number of statements (``store.reads``)
however many games were played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from scorekeeper import rules
from scorekeeper.queries.games import read_game
from scorekeeper.store import (
    BookedLine,
    EntryRow,
    GameState,
    GameSummary,
    PlayerRow,
    SessionRow,
    dealer_of,
    seating_of,
    unit_of_work,
    variant_of,
)

# The history shows this many games at a time: the latest, then the earlier ones page by page,
# so that a page costs the same in a session of 10 games and in one of 2,000.
HISTORY_GAMES = 10


def get_session(session_id: int) -> SessionRow:
    """Return a session with its players, or raise NotFoundError.

    The session the request's key check read is taken without asking the database again.
    """
    return unit_of_work().sessions.get(session_id)


def every_session() -> list[SessionRow]:
    """Return every session with its players, the oldest first."""
    return unit_of_work().sessions.every()


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


def session_scores(session: SessionRow) -> SessionScores:
    """Return the totals and the points of every game (the latest: ``scores_with_game``).

    Ended games carry their points (settlement lines) and players their banked totals, so
    the number of queries and the rows read for the totals do not grow with the session.
    """
    return _all_scores(session.id, session.players, variant_of(session))


def scores_with_game(session: SessionRow, latest: int) -> tuple[SessionScores, GameState | None]:
    """Return the scores of the ``latest`` games and the game in progress, if there is one.

    The game's entries, read for the game, give its points too (the session page).
    """
    assert latest >= 1
    games = game_summaries(session, latest)
    # The points are read for the games numbered as those read: on PostgreSQL each statement
    # sees the latest commit, and a game dealt meanwhile is not among them.
    ended = (
        unit_of_work().reads.ended_points(session.id, (games[0].number, games[-1].number))
        if games
        else []
    )
    game = read_game(games[-1].id) if games and games[-1].status == "open" else None
    entries = [(entry.player_id, entry.value) for entry in game.entries] if game else None
    return _scores(session.players, variant_of(session), games, ended, entries), game


def _all_scores(
    session_id: int, players: Sequence[PlayerRow], variant: rules.Variant
) -> SessionScores:
    """Return the scores of all games: two prebuilt statements, a third while one is open."""
    reads = unit_of_work().reads
    return _scores(players, variant, reads.games(session_id), reads.ended_points(session_id))


def _scores(
    players: Sequence[PlayerRow],
    variant: rules.Variant,
    games: list[GameSummary],
    ended: Iterable[tuple[int, int, int]],
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
        current_points = dict.fromkeys(
            (player.id for player in players if player.plays_in(current.number)), 0
        )
        if open_entries is None:
            open_entries = unit_of_work().reads.open_game_points(current.id)
        for player_id, value in open_entries:
            current_points[player_id] += value
        game_points[current.id] = current_points
    totals = {player.id: player.banked + current_points.get(player.id, 0) for player in players}
    ended_games = sum(1 for game in games if game.status != "open")
    if games and len(games) < games[-1].number:  # only the latest games were read
        ended_games = games[-1].number - (current is not None)
    seated = {player.id: totals[player.id] for player in players if player.seated}
    standing = variant.standing(seated, ended_games, game_in_progress=current is not None)
    left = {player.id: totals[player.id] for player in players if not player.seated}
    return SessionScores(games, game_points, standing, left)


def game_summaries(session: SessionRow, latest: int | None = None) -> list[GameSummary]:
    """Return the summaries of a session's games in order, or of the ``latest`` ones."""
    reads = unit_of_work().reads
    if latest is None:
        return reads.games(session.id)
    return list(reversed(reads.latest_games(session.id, latest)))


class PlayedGame(NamedTuple):
    """A game of the history: its summary, its entries with their cards, its settlement."""

    game: GameSummary
    entries: list[EntryRow]
    lines: list[BookedLine]


def scores_of_games(session: SessionRow, games: Sequence[PlayedGame]) -> SessionScores:
    """Return the scores of a session from every game of it read by ``history_page``: no query."""
    ended = [
        (line.game_id, line.player_id, line.meld_points + line.gain)
        for played in games
        for line in played.lines
    ]
    entries = [(entry.player_id, entry.value) for played in games[-1:] for entry in played.entries]
    summaries = [played.game for played in games]
    return _scores(session.players, variant_of(session), summaries, ended, entries)


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
    session: SessionRow, before: int | None = None, count: int = HISTORY_GAMES
) -> HistoryPage:
    """Return the ``count`` latest games numbered below ``before`` (or of all), for the history.

    Each with its entries, cards and settlement: three statements whatever the length of the
    session, a fourth (and a fifth while a game is open) for the totals on an earlier page.
    """
    reads = unit_of_work().reads
    newest = reads.latest_games(session.id, count + 1, before=before)
    games = list(reversed(newest))
    if len(games) > count:  # one more than shown: there are earlier games
        del games[0]
    earlier = games[0].number if len(newest) > count else None
    entries, lines = reads.played(session.id, games)
    played = [PlayedGame(game, entries[game.id], lines[game.id]) for game in games]
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


def history_points(played: PlayedGame, player_ids: Iterable[int]) -> dict[int, int]:
    """Return each player's points in a game of the history, as ``game_points``."""
    points = dict.fromkeys(player_ids, 0)
    if played.game.status != "open":
        for line in played.lines:
            points[line.player_id] += line.meld_points + line.gain
        return points
    for entry in played.entries:
        points[entry.player_id] += entry.value
    return points


def open_game(session: SessionRow) -> GameSummary | None:
    """Return the session's game in progress, if there is one."""
    return unit_of_work().reads.open_game(session.id)


def next_dealer(session: SessionRow, games: Sequence[GameSummary] | None = None) -> PlayerRow:
    """Return the player who deals the next game (or the one in progress).

    ``games`` are the session's games in order, or at least its latest; read when not given.
    """
    if games is None:
        games = game_summaries(session, latest=1)
    last = games[-1] if games else None
    dealer = dealer_of(variant_of(session), session.first_dealer_seat, session.players, last)
    return next(player for player in session.players if player.id == dealer)


def reopen_possible(session: SessionRow, game: GameState | None) -> bool:
    """Tell whether the session's last ended game can be reopened; ``game`` is the open one.

    The rules say (``rules.Seating.reopen_refusal``), as when the reopen is asked for: the
    game dealt after it goes with it while nothing was recorded there and the seating lets it.
    """
    if game is None:
        return True
    later = [rules.LaterGame(game.number, still_open=True, played=bool(game.entries))]
    seating = seating_of((player.joined_game, player.left_game) for player in session.players)
    return seating.reopen_refusal(game.number - 1, later) is None


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


def standings_of(sessions: Sequence[SessionRow]) -> dict[int, rules.SessionStanding[int]]:
    """Return each session's standing after its ended games, by session id, in one statement.

    The totals are the points banked as each game ended: a list of sessions says who leads
    or won without replaying an open game.
    """
    if not sessions:
        return {}
    counted = unit_of_work().reads.games_counted(session.id for session in sessions)
    standings = {}
    for session in sessions:
        ended, in_progress = counted.get(session.id, (0, 0))
        banked = {player.id: player.banked for player in session.seated}
        standings[session.id] = variant_of(session).standing(
            banked, ended, game_in_progress=bool(in_progress)
        )
    return standings


def summarize_session(session: SessionRow) -> SessionSummary:
    """Read what a session's answer shows, in the current transaction."""
    return _summary(
        session.public_id,
        session.status,
        variant_of(session),
        session.players,
        session_scores(session),
        session.first_dealer_seat,
    )


def summary_after(game: GameState) -> SessionSummary:
    """Read the session of a game just finished for the answer: ``game`` holds the rest."""
    return _summary(
        game.session_public_id,
        game.session_status,
        game.variant,
        game.everyone,
        _all_scores(game.session_id, game.everyone, game.variant),
        game.first_dealer_seat,
    )


def _summary(
    public_id: str,
    status: str,
    variant: rules.Variant,
    players: Sequence[PlayerRow],
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
