"""The sessions with their players: read one (for the key check, locked for a change of the
seating or a deal), start one, and write what changes between games. The statements are built
once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from scorekeeper.keys import SessionKeys, new_public_id
from scorekeeper.models import utcnow
from scorekeeper.store.errors import NotFoundError
from scorekeeper.store.games import player_row
from scorekeeper.store.rows import LARGEST_ID, PlayerRow, SessionRow
from scorekeeper.store.tables import EVENING_TABLES, GAMES, PLAYERS, SESSIONS

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork

# A session or group that got no game or session within a day was started and left (or
# started by a script): it goes when the next one starts, so that such rows cannot pile up.
NEVER_PLAYED_FOR = timedelta(days=1)


class Sessions:
    """The sessions and their players, as the use cases and the read side load and save them."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    # --- reading ---------------------------------------------------------------------------------

    def door(self, public_id: str, *, reads_only: bool) -> Any | None:
        """Read what the key check needs of a session by its public id: one row, or None.

        The row has the session's ``id``, its key digests and its ``version``.
        """
        connection = self._uow.connection(reads_only=reads_only)
        return connection.execute(_SESSION_DOOR, {"public_id": public_id}).one_or_none()

    def find(self, public_id: str, *, reads_only: bool) -> SessionRow | None:
        """Read a session with its players by its public id (the key check of a page), or None.

        It is kept: a read of the same session in this transaction takes it (``get``).
        """
        connection = self._uow.connection(reads_only=reads_only)
        rows = connection.execute(_BY_PUBLIC_ID, {"public_id": public_id}).all()
        session = session_of(rows)
        if session is not None:
            self._uow.keep("session", session.id, [session], locked=False)
        return session

    def get(self, session_id: int) -> SessionRow:
        """Return a session with its players, or raise NotFoundError.

        The session the key check read in this transaction is taken without asking again.
        """
        if not 0 < session_id <= LARGEST_ID:
            raise NotFoundError("no_session")
        kept = self._uow.kept("session", session_id, lock=False)
        if kept:
            session: SessionRow = kept[0]
            return session
        found = session_of(self._uow.read(_BY_ID, {"session_id": session_id}).all())
        if found is None:
            raise NotFoundError("no_session")
        return found

    def locked(self, session_id: int) -> SessionRow | None:
        """Lock a session's row (PostgreSQL), then read it with its players, or None.

        The lock makes a start of the next game, and another change of the seating, wait; the
        read after it sees what the one before it committed.
        """
        if not 0 < session_id <= LARGEST_ID or not self.lock(session_id):
            return None
        return session_of(self._uow.read(_BY_ID, {"session_id": session_id}).all())

    def for_the_deal(self, session_id: int) -> SessionRow | None:
        """Read a session with its players to deal its next game, its row locked (PostgreSQL).

        A start waits for a reopening of the session's last game (``reopen_game``).
        """
        if not 0 < session_id <= LARGEST_ID:
            return None
        return session_of(self._uow.read(_BY_ID_LOCKED, {"session_id": session_id}).all())

    def lock(self, session_id: int) -> bool:
        """Lock a session's row until the transaction ends (PostgreSQL); False: there is none."""
        found = self._uow.read(_LOCK_SESSION, {"session": session_id}).one_or_none()
        return found is not None

    def games_dealt(self, session_id: int) -> tuple[int, int]:
        """Return how many games a session dealt, and how many of them are open."""
        dealt, open_games = self._uow.read(_GAMES_DEALT, {"session": session_id}).one()
        return int(dealt), int(open_games)

    def stays(self, session_id: int) -> list[tuple[int, int | None]]:
        """Return when each player of a session joined and left, as the seating counts it."""
        return [
            (joined, left) for joined, left in self._uow.read(_STAYS, {"session": session_id}).all()
        ]

    def opened_by(self, public_ids: Iterable[str]) -> list[SessionRow]:
        """Return the sessions of these public ids, the running ones first, the latest first."""
        return _sessions_of(self._uow.read(_OPENED_BY, {"public_ids": list(public_ids)}))

    def every(self) -> list[SessionRow]:
        """Return every session with its players, the oldest first (the command line lists them)."""
        return _sessions_of(self._uow.read(_EVERY))

    # --- writing ---------------------------------------------------------------------------------

    def add(
        self,
        *,
        variant: str,
        house_rules: str,
        first_dealer_seat: int,
        names: Sequence[str],
        keys: SessionKeys,
        group_id: int | None,
    ) -> SessionRow:
        """Start a session with its players seated in this order; return it as stored."""
        now = utcnow()
        values: dict[str, Any] = {
            "public_id": new_public_id(),
            "edit_key_digest": keys.edit_digest,
            "view_key_digest": keys.view_digest,
            "variant": variant,
            "house_rules": house_rules,
            "first_dealer_seat": first_dealer_seat,
            "status": "open",
            "version": 0,
            "created_at": now,
            "group_id": group_id,
        }
        key = self._uow.write(_INSERT_SESSION, values).inserted_primary_key
        assert key is not None
        session_id = int(key[0])
        seats = {
            seat: player_id
            for player_id, seat in self._uow.write(
                _INSERT_PLAYERS,
                [
                    {"session_id": session_id, "seat": seat, "name": name, "banked": 0}
                    for seat, name in enumerate(names)
                ],
            ).all()
        }
        players = tuple(PlayerRow(seats[seat], seat, name, 0) for seat, name in enumerate(names))
        values["created_at"] = self._uow.time_as_read(now)
        return SessionRow(id=session_id, players=players, **values)

    def forget_never_played(self) -> None:
        """Delete the sessions older than a day that never got a game, with their players."""
        before = {"before": utcnow() - NEVER_PLAYED_FOR}
        self._uow.write(_FORGET_PLAYERS, before)
        self._uow.write(_FORGET_SESSIONS, before)

    def rename(self, player_id: int, name: str) -> None:
        """Give a player another name."""
        self._uow.write(_RENAME, {"player": player_id, "name": name})

    def seat(self, session_id: int, name: str, joined_game: int, seat: int) -> int:
        """Seat a new player at a seat free now, dealt in from a game; return their id."""
        values = {
            "session_id": session_id,
            "name": name,
            "joined_game": joined_game,
            "banked": 0,
            "seat": seat,
        }
        key = self._uow.write(_INSERT_PLAYER, values).inserted_primary_key
        assert key is not None
        return int(key[0])

    def leave(self, player_id: int, left_game: int) -> None:
        """Let a player leave the table: they are not dealt in from this game on."""
        self._uow.write(_LEAVE, {"player": player_id, "left_game": left_game})

    def remove(self, player_id: int) -> None:
        """Delete a player who joined and played no game."""
        self._uow.write(_REMOVE_PLAYER, {"player": player_id})

    def reseat(self, seats: Mapping[int, int]) -> None:
        """Give players (by id) these seats, changed one row at a time."""
        self._uow.write(
            _RESEAT, [{"player": player, "seat": seat} for player, seat in seats.items()]
        )

    def set_first_dealer(self, session_id: int, seat: int) -> None:
        """Write the seat the session's first game was dealt from, as the seating counts it."""
        self._uow.write(_FIRST_DEALER, {"session": session_id, "seat": seat})

    def set_house_rules(self, session_id: int, house_rules: str) -> None:
        """Write a session's house rules (JSON text)."""
        self._uow.write(_HOUSE_RULES, {"session": session_id, "house_rules": house_rules})

    def bank(self, totals: Mapping[int, int]) -> None:
        """Write each player's total of the games ended (by player id)."""
        self._uow.write(
            _BANK, [{"player": player, "total": total} for player, total in totals.items()]
        )

    def set_status(self, session_id: int, status: str) -> None:
        """Write whether a session is open or finished."""
        self._uow.write(_STATUS, {"session": session_id, "status": status})

    def replace_keys(self, public_id: str, keys: SessionKeys) -> bool:
        """Write new key digests for a session; False: there is no such session."""
        written = self._uow.write(
            _REPLACE_KEYS,
            {"session": public_id, "edit": keys.edit_digest, "view": keys.view_digest},
        )
        return bool(written.rowcount)


_SESSION_FIELDS = (
    "id",
    "public_id",
    "variant",
    "house_rules",
    "first_dealer_seat",
    "status",
    "version",
    "created_at",
    "group_id",
    "edit_key_digest",
    "view_key_digest",
)


def session_of(rows: Sequence[Any]) -> SessionRow | None:
    """Return a session from its rows joined with its players (``session_columns``), or None."""
    if not rows:
        return None
    first = rows[0]._mapping
    return SessionRow(
        **{name: first[name] for name in _SESSION_FIELDS},
        players=tuple(player_row(row) for row in rows),
    )


def _sessions_of(rows: Iterable[Any]) -> list[SessionRow]:
    """Return the sessions of rows joined with their players, in the order of their first rows."""
    by_session: dict[int, list[Any]] = {}
    for row in rows:
        by_session.setdefault(row.id, []).append(row)
    return [session for group in by_session.values() if (session := session_of(group))]


def session_columns() -> list[sa.ColumnElement[Any]]:
    """Return the columns ``session_of`` reads: the session's, then each player's."""
    return [
        *(SESSIONS.c[name] for name in _SESSION_FIELDS),
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.seat,
        PLAYERS.c.name,
        PLAYERS.c.banked,
        PLAYERS.c.joined_game,
        PLAYERS.c.left_game,
    ]


# --- the statements ------------------------------------------------------------------------------

# The key check of every request about a session by its public id.
_SESSION_DOOR = sa.select(
    SESSIONS.c.id, SESSIONS.c.edit_key_digest, SESSIONS.c.view_key_digest, SESSIONS.c.version
).where(SESSIONS.c.public_id == sa.bindparam("public_id"))

# A session with everyone who played in it, in seat order: one statement.
_WITH_PLAYERS = (
    sa.select(*session_columns())
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .order_by(PLAYERS.c.seat)
)
_BY_PUBLIC_ID = _WITH_PLAYERS.where(SESSIONS.c.public_id == sa.bindparam("public_id"))
_BY_ID = _WITH_PLAYERS.where(SESSIONS.c.id == sa.bindparam("session_id"))
# PostgreSQL: a start waits for a reopening of the session's last game (reopen_game).
_BY_ID_LOCKED = _BY_ID.with_for_update(of=SESSIONS)

_OPENED_BY = (
    sa.select(*session_columns())
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .where(SESSIONS.c.public_id.in_(sa.bindparam("public_ids", expanding=True)))
    .order_by(
        (SESSIONS.c.status == "finished").asc(),
        SESSIONS.c.created_at.desc(),
        SESSIONS.c.id.desc(),
        PLAYERS.c.seat,
    )
)

_EVERY = (
    sa.select(*session_columns())
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .order_by(SESSIONS.c.created_at, SESSIONS.c.id, PLAYERS.c.seat)
)

_LOCK_SESSION = (
    sa.select(SESSIONS.c.id).where(SESSIONS.c.id == sa.bindparam("session")).with_for_update()
)

# How many games a session dealt, and how many of them are open (one read, however many).
_GAMES_DEALT = sa.select(sa.func.count(), sa.func.count().filter(GAMES.c.status == "open")).where(
    GAMES.c.session_id == sa.bindparam("session")
)

# When each player of a session joined and left, as the seating counts it.
_STAYS = sa.select(PLAYERS.c.joined_game, PLAYERS.c.left_game).where(
    PLAYERS.c.session_id == sa.bindparam("session")
)

_INSERT_SESSION = sa.insert(SESSIONS)
# RETURNING gives the rows in no set order, so the players are matched by seat.
_INSERT_PLAYERS = sa.insert(PLAYERS).returning(PLAYERS.c.id, PLAYERS.c.seat)
_INSERT_PLAYER = sa.insert(PLAYERS)

_NEVER_PLAYED = sa.select(SESSIONS.c.id).where(
    SESSIONS.c.created_at < sa.bindparam("before"),
    ~sa.exists().where(GAMES.c.session_id == SESSIONS.c.id),
    # A table of an evening waits for its series, however long: the evening holds it.
    ~sa.exists().where(EVENING_TABLES.c.session_id == SESSIONS.c.id),
)
_FORGET_PLAYERS = sa.delete(PLAYERS).where(PLAYERS.c.session_id.in_(_NEVER_PLAYED))
_FORGET_SESSIONS = sa.delete(SESSIONS).where(SESSIONS.c.id.in_(_NEVER_PLAYED))

_PLAYER = PLAYERS.c.id == sa.bindparam("player")
_RENAME = sa.update(PLAYERS).where(_PLAYER).values(name=sa.bindparam("name"))
_LEAVE = sa.update(PLAYERS).where(_PLAYER).values(left_game=sa.bindparam("left_game"))
_REMOVE_PLAYER = sa.delete(PLAYERS).where(_PLAYER)
_RESEAT = sa.update(PLAYERS).where(_PLAYER).values(seat=sa.bindparam("seat"))
_BANK = sa.update(PLAYERS).where(_PLAYER).values(banked=sa.bindparam("total"))

_SESSION = SESSIONS.c.id == sa.bindparam("session")
_FIRST_DEALER = sa.update(SESSIONS).where(_SESSION).values(first_dealer_seat=sa.bindparam("seat"))
_HOUSE_RULES = sa.update(SESSIONS).where(_SESSION).values(house_rules=sa.bindparam("house_rules"))
_STATUS = sa.update(SESSIONS).where(_SESSION).values(status=sa.bindparam("status"))
_REPLACE_KEYS = (
    sa.update(SESSIONS)
    .where(SESSIONS.c.public_id == sa.bindparam("session"))
    .values(edit_key_digest=sa.bindparam("edit"), view_key_digest=sa.bindparam("view"))
)
