"""What the read side reads: a session's games and points, a page of its history, a group's
sessions and records. Each is one prebuilt statement whatever the length of the session or the
size of the group (a statement built per request cost more than its query); the read side
(``scorekeeper.queries``) adds them up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from scorekeeper.store.games import ENTRY_ROWS, GAMES_OF, add_entry_row
from scorekeeper.store.rows import BookedLine, EntryRow, GameSummary
from scorekeeper.store.tables import (
    ENTRIES,
    GAMES,
    PLAYERS,
    SESSIONS,
    SETTLEMENT_LINES,
    TABLE_CARDS,
)

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork


class Reads:
    """The read side's statements, run in the request's transaction."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    # --- a session's games and points --------------------------------------------------------

    def games(self, session_id: int) -> list[GameSummary]:
        """Return the summaries of a session's games in order."""
        return [GameSummary(**row._mapping) for row in self._uow.read(GAMES_OF, _of(session_id))]

    def latest_games(
        self, session_id: int, count: int, *, before: int | None = None
    ) -> list[GameSummary]:
        """Return a session's ``count`` latest games (numbered below ``before``), newest first."""
        parameters = {"session": session_id, "latest": count}
        if before is None:
            rows = self._uow.read(_LATEST_GAMES, parameters)
        else:
            rows = self._uow.read(_GAMES_BEFORE, {**parameters, "before": before})
        return [GameSummary(**row._mapping) for row in rows]

    def open_game(self, session_id: int) -> GameSummary | None:
        """Return the session's game in progress, if there is one."""
        row = self._uow.read(_OPEN_GAME, _of(session_id)).one_or_none()
        return GameSummary(**row._mapping) if row is not None else None

    def games_counted(self, session_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """Return how many games of each session ended and how many are open, by session id."""
        rows = self._uow.read(_GAMES_COUNTED, {"sessions": list(session_ids)})
        return {row.session_id: (row.ended, row.open) for row in rows}

    def ended_points(
        self, session_id: int, numbers: tuple[int, int] | None = None
    ) -> list[tuple[int, int, int]]:
        """Return (game, player, points) of a session's ended games, or of those numbered so.

        ``numbers`` are the first and the last game's numbers.
        """
        if numbers is None:
            rows = self._uow.read(_ENDED_POINTS, _of(session_id))
        else:
            first, last = numbers
            parameters = {"session": session_id, "first": first, "last": last}
            rows = self._uow.read(_ENDED_POINTS_OF_NUMBERS, parameters)
        return [(int(game), int(player), int(points)) for game, player, points in rows]

    def open_game_points(self, game_id: int) -> list[tuple[int, int]]:
        """Return (player, points) of a game in progress, from its entries."""
        rows = self._uow.read(_OPEN_GAME_POINTS, {"game": game_id})
        return [(int(player), int(value)) for player, value in rows]

    def played(
        self, session_id: int, games: Iterable[GameSummary]
    ) -> tuple[dict[int, list[EntryRow]], dict[int, list[BookedLine]]]:
        """Return the entries (with their cards) and the settlement lines of a session's games.

        ``games`` are games of the session numbered in a row: two statements, however many.
        On PostgreSQL each statement sees the latest commit: a game dealt after the games were
        read may have entries and lines already, and is left out.
        """
        games = list(games)
        entries: dict[int, list[EntryRow]] = {game.id: [] for game in games}
        lines: dict[int, list[BookedLine]] = {game.id: [] for game in games}
        if not games:
            return entries, lines
        parameters = {"session": session_id, "first": games[0].number, "last": games[-1].number}
        for row in self._uow.read(_SESSION_ENTRIES, parameters):
            if row.game_id in entries:
                add_entry_row(entries[row.game_id], row)
        for line in self._uow.read(_SESSION_LINES, parameters):
            if line.game_id in lines:
                lines[line.game_id].append(BookedLine(*line))
        return entries, lines

    # --- a group's sessions and records -------------------------------------------------------

    def group_players(self, group_id: int) -> list[Any]:
        """Return a group's sessions, newest first, each with its players in seat order.

        Rows of the session (``session_id``, ``public_id``, ``variant``, ``house_rules``,
        ``status``, ``created_at``) and the player (``player_id``, ``name``, ``banked``,
        ``left_game``).
        """
        return list(self._uow.read(_GROUP_PLAYERS, _in(group_id)))

    def group_games(self, group_id: int) -> dict[int, Any]:
        """Return how many games of each session of a group ended, and whether one is open."""
        return {row.session_id: row for row in self._uow.read(_GROUP_GAMES, _in(group_id))}

    def games_played(self, group_id: int) -> dict[int, Any]:
        """Return what each player of a group did in the games that ended, by player id.

        Rows of ``games``, ``points``, ``won`` and ``romme``.
        """
        rows = self._uow.read(_GAMES_PLAYED, _in(group_id))
        return {row.player_id: row for row in rows}

    def in_play(self, group_id: int) -> dict[int, int]:
        """Return each player's points so far in the games of a group still in play."""
        rows = self._uow.read(_GROUP_OPEN_POINTS, _in(group_id))
        return {int(player): int(points) for player, points in rows}

    def record_melds(self, group_id: int) -> list[Any]:
        """Return each player's best meld and longest sequence in a group, card by card.

        Rows of the meld (``id``, ``player_id``, ``meld_kind``, ``value``, the game's
        ``number``, the session's ``public_id``) and one of its ``card``s, in order.
        """
        return list(self._uow.read(_RECORD_MELDS, _in(group_id)))


def _of(session_id: int) -> dict[str, int]:
    return {"session": session_id}


def _in(group_id: int) -> dict[str, int]:
    return {"group": group_id}


# --- a session's games and points ----------------------------------------------------------------

# How many games of each session ended and how many are open, for a list of sessions at once.
_GAMES_COUNTED = (
    sa.select(
        GAMES.c.session_id,
        sa.func.count().filter(GAMES.c.status != "open").label("ended"),
        sa.func.count().filter(GAMES.c.status == "open").label("open"),
    )
    .where(GAMES.c.session_id.in_(sa.bindparam("sessions", expanding=True)))
    .group_by(GAMES.c.session_id)
)
# The latest games of a session, newest first.
_LATEST_GAMES = (
    sa.select(*GAMES_OF.selected_columns)
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .order_by(GAMES.c.number.desc())
    .limit(sa.bindparam("latest"))
)
# The latest games of a session numbered below ``before``, newest first.
_GAMES_BEFORE = (
    sa.select(*GAMES_OF.selected_columns)
    .where(GAMES.c.session_id == sa.bindparam("session"), GAMES.c.number < sa.bindparam("before"))
    .order_by(GAMES.c.number.desc())
    .limit(sa.bindparam("latest"))
)
_OPEN_GAME = sa.select(*GAMES_OF.selected_columns).where(
    GAMES.c.session_id == sa.bindparam("session"), GAMES.c.status == "open"
)

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

# --- a group's sessions and records: each reads the whole group's rows of one kind ---------------

_IN_GROUP = SESSIONS.c.group_id == sa.bindparam("group")

# The sessions, newest first, each with its players in seat order.
_GROUP_PLAYERS = (
    sa.select(
        SESSIONS.c.id.label("session_id"),
        SESSIONS.c.public_id,
        SESSIONS.c.variant,
        SESSIONS.c.house_rules,
        SESSIONS.c.status,
        SESSIONS.c.created_at,
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.name,
        PLAYERS.c.banked,
        PLAYERS.c.left_game,
    )
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .where(_IN_GROUP)
    .order_by(SESSIONS.c.created_at.desc(), SESSIONS.c.id.desc(), PLAYERS.c.seat)
)

# How many games of each session ended, and whether one is in play.
_GROUP_GAMES = (
    sa.select(
        GAMES.c.session_id,
        sa.func.count().filter(GAMES.c.status != "open").label("ended"),
        sa.func.count().filter(GAMES.c.status == "open").label("open"),
    )
    .select_from(GAMES.join(SESSIONS, SESSIONS.c.id == GAMES.c.session_id))
    .where(_IN_GROUP)
    .group_by(GAMES.c.session_id)
)

# What each player did in the games that ended: every player of an ended game has a line.
_WON = GAMES.c.winner_id == SETTLEMENT_LINES.c.player_id
_GAMES_PLAYED = (
    sa.select(
        SETTLEMENT_LINES.c.player_id,
        sa.func.count().label("games"),
        sa.func.sum(SETTLEMENT_LINES.c.meld_points + SETTLEMENT_LINES.c.gain).label("points"),
        sa.func.count().filter(_WON).label("won"),
        sa.func.count().filter(sa.and_(_WON, GAMES.c.romme.is_(True))).label("romme"),
    )
    .select_from(
        SETTLEMENT_LINES.join(GAMES, GAMES.c.id == SETTLEMENT_LINES.c.game_id).join(
            SESSIONS, SESSIONS.c.id == GAMES.c.session_id
        )
    )
    .where(_IN_GROUP)
    .group_by(SETTLEMENT_LINES.c.player_id)
)

# The points of the games in play so far, from their entries (as a session's totals count them).
_GROUP_OPEN_POINTS = (
    sa.select(ENTRIES.c.player_id, sa.func.sum(ENTRIES.c.value))
    .select_from(
        ENTRIES.join(GAMES, GAMES.c.id == ENTRIES.c.game_id).join(
            SESSIONS, SESSIONS.c.id == GAMES.c.session_id
        )
    )
    .where(_IN_GROUP, GAMES.c.status == "open")
    .group_by(ENTRIES.c.player_id)
)

# Each player's best meld and longest sequence, with their cards: the melds ranked per player
# in SQL as rules.groups ranks them (best_meld_order, longest_sequence_order), so that only the
# chosen ones are read; the rules pick the best of a person's players.
_CARDS = sa.func.count(TABLE_CARDS.c.id)
_RANKED = (
    sa.select(
        ENTRIES.c.id,
        ENTRIES.c.player_id,
        ENTRIES.c.meld_kind,
        ENTRIES.c.value,
        GAMES.c.number,
        SESSIONS.c.public_id,
        sa.func.row_number()
        .over(
            partition_by=ENTRIES.c.player_id,
            order_by=(ENTRIES.c.value.desc(), _CARDS.desc(), ENTRIES.c.id),
        )
        .label("best"),
        sa.func.row_number()
        .over(
            partition_by=(ENTRIES.c.player_id, ENTRIES.c.meld_kind),
            order_by=(_CARDS.desc(), ENTRIES.c.value.desc(), ENTRIES.c.id),
        )
        .label("longest"),
    )
    .select_from(
        ENTRIES.join(TABLE_CARDS, TABLE_CARDS.c.entry_id == ENTRIES.c.id)
        .join(GAMES, GAMES.c.id == ENTRIES.c.game_id)
        .join(SESSIONS, SESSIONS.c.id == GAMES.c.session_id)
    )
    .where(_IN_GROUP, ENTRIES.c.kind == "meld")
    .group_by(
        ENTRIES.c.id,
        ENTRIES.c.player_id,
        ENTRIES.c.meld_kind,
        ENTRIES.c.value,
        GAMES.c.number,
        SESSIONS.c.public_id,
    )
    .subquery()
)
_RECORD_MELDS = (
    sa.select(
        _RANKED.c.id,
        _RANKED.c.player_id,
        _RANKED.c.meld_kind,
        _RANKED.c.value,
        _RANKED.c.number,
        _RANKED.c.public_id,
        TABLE_CARDS.c.card,
    )
    .select_from(_RANKED.join(TABLE_CARDS, TABLE_CARDS.c.entry_id == _RANKED.c.id))
    .where(
        sa.or_(
            _RANKED.c.best == 1,
            sa.and_(_RANKED.c.longest == 1, _RANKED.c.meld_kind == "sequence"),
        )
    )
    .order_by(_RANKED.c.id, TABLE_CARDS.c.position)
)
