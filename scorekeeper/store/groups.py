"""The groups of people who play together, their keys and their merged names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from scorekeeper.keys import SessionKeys
from scorekeeper.models import utcnow
from scorekeeper.store.rows import GroupRow, MergeRow, SessionRow
from scorekeeper.store.sessions import NEVER_PLAYED_FOR, session_columns, session_of
from scorekeeper.store.tables import GAMES, GROUPS, MERGED_NAMES, PLAYERS, SESSIONS

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork


class Groups:
    """The groups, as the use cases and the read side load and save them."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def find(self, public_id: str, *, reads_only: bool = False) -> GroupRow | None:
        """Return the group with this public id, or None.

        Read ``reads_only``, it begins a transaction that asks for no write lock.
        """
        connection = self._uow.connection(reads_only=reads_only)
        row = connection.execute(_BY_PUBLIC_ID, {"public_id": public_id}).one_or_none()
        return GroupRow(**row._mapping) if row is not None else None

    def opened_by(self, public_ids: Iterable[str]) -> list[GroupRow]:
        """Return the groups of these public ids, the newest first."""
        rows = self._uow.read(_OPENED_BY, {"public_ids": list(public_ids)})
        return [GroupRow(**row._mapping) for row in rows]

    def session_through(self, public_id: str) -> tuple[SessionRow, Any] | None:
        """Return a session that is in a group, with its group's public id and key digests.

        None when there is no such session, or it is in no group.
        """
        rows = self._uow.read(_SESSION_THROUGH, {"public_id": public_id}).all()
        session = session_of(rows)
        return (session, rows[0]) if session is not None else None

    def add(self, public_id: str, name: str, keys: SessionKeys) -> GroupRow:
        """Start a group; return it as stored (with its id)."""
        now = utcnow()
        values: dict[str, Any] = {
            "public_id": public_id,
            "name": name,
            "edit_key_digest": keys.edit_digest,
            "view_key_digest": keys.view_digest,
            "created_at": now,
        }
        key = self._uow.write(_INSERT_GROUP, values).inserted_primary_key
        assert key is not None
        values["created_at"] = self._uow.time_as_read(now)
        return GroupRow(id=int(key[0]), **values)

    def forget_never_played(self) -> None:
        """Delete the groups older than a day that never got a session, with their merges."""
        before = {"before": utcnow() - NEVER_PLAYED_FOR}
        self._uow.write(_FORGET_MERGES, before)
        self._uow.write(_FORGET_GROUPS, before)

    def lock(self, group_id: int, *, share: bool = False) -> None:
        """Lock a group's row until the transaction ends (PostgreSQL), or read it for share.

        Merges of one group wait for each other; a merge waits for a session being written
        into the group (which reads it for share). SQLite's write lock does it there.
        """
        self._uow.read(_LOCK_FOR_SHARE if share else _LOCK, {"group": group_id})

    def merges(self, group_id: int) -> list[MergeRow]:
        """Return a group's merged names in the order they were merged."""
        return [MergeRow(*row) for row in self._uow.read(_MERGES, {"group": group_id})]

    def seats(self, group_id: int) -> list[Any]:
        """Return every name that sat at a session of the group, with whether a game was dealt.

        Rows of ``public_id``, ``name`` and ``dealt``.
        """
        return list(self._uow.read(_SEATS, {"group": group_id}))

    def merge(self, group_id: int, name: str, same_as: str, keys: tuple[str, str]) -> MergeRow:
        """Write two names as one person; ``keys`` are their keys as the statistics count."""
        values = {
            "group_id": group_id,
            "name": name,
            "same_as": same_as,
            "name_key": keys[0],
            "same_as_key": keys[1],
            "created_at": utcnow(),
        }
        key = self._uow.write(_INSERT_MERGE, values).inserted_primary_key
        assert key is not None
        return MergeRow(int(key[0]), name, same_as)


_GROUP_COLUMNS = [GROUPS.c[name] for name in GroupRow._fields]
_BY_PUBLIC_ID = sa.select(*_GROUP_COLUMNS).where(GROUPS.c.public_id == sa.bindparam("public_id"))
_OPENED_BY = (
    sa.select(*_GROUP_COLUMNS)
    .where(GROUPS.c.public_id.in_(sa.bindparam("public_ids", expanding=True)))
    .order_by(GROUPS.c.created_at.desc(), GROUPS.c.id.desc())
)

# A session of a group with its players, and the group's public id and key digests.
_SESSION_THROUGH = (
    sa.select(
        *session_columns(),
        GROUPS.c.public_id.label("group_public_id"),
        GROUPS.c.edit_key_digest.label("group_edit_key_digest"),
        GROUPS.c.view_key_digest.label("group_view_key_digest"),
    )
    .select_from(
        SESSIONS.join(GROUPS, GROUPS.c.id == SESSIONS.c.group_id).join(
            PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id
        )
    )
    .where(SESSIONS.c.public_id == sa.bindparam("public_id"))
    .order_by(PLAYERS.c.seat)
)

_INSERT_GROUP = sa.insert(GROUPS)
_EMPTY_GROUPS = sa.select(GROUPS.c.id).where(
    GROUPS.c.created_at < sa.bindparam("before"),
    ~sa.exists().where(SESSIONS.c.group_id == GROUPS.c.id),
)
_FORGET_MERGES = sa.delete(MERGED_NAMES).where(MERGED_NAMES.c.group_id.in_(_EMPTY_GROUPS))
_FORGET_GROUPS = sa.delete(GROUPS).where(GROUPS.c.id.in_(_EMPTY_GROUPS))

_LOCK = sa.select(GROUPS.c.id).where(GROUPS.c.id == sa.bindparam("group")).with_for_update()
_LOCK_FOR_SHARE = (
    sa.select(GROUPS.c.id).where(GROUPS.c.id == sa.bindparam("group")).with_for_update(read=True)
)

_MERGES = (
    sa.select(MERGED_NAMES.c.id, MERGED_NAMES.c.name, MERGED_NAMES.c.same_as)
    .where(MERGED_NAMES.c.group_id == sa.bindparam("group"))
    .order_by(MERGED_NAMES.c.id)
)
_INSERT_MERGE = sa.insert(MERGED_NAMES)

# Every name that sat at a session of the group, and whether a game was dealt with them.
_SEATS = (
    sa.select(
        SESSIONS.c.public_id,
        PLAYERS.c.name,
        sa.exists()
        .where(GAMES.c.session_id == SESSIONS.c.id, GAMES.c.number >= PLAYERS.c.joined_game)
        .label("dealt"),
    )
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .where(SESSIONS.c.group_id == sa.bindparam("group"))
)
