"""Who may do what: the keys of a session, checked before anything is read or written."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.database import READS_ONLY
from scorekeeper.extensions import db
from scorekeeper.keys import Access, SessionKeys, access
from scorekeeper.models import GameSession
from scorekeeper.services.errors import NotFoundError, write_use_case
from scorekeeper.services.rows import LARGEST_ID, SESSIONS, CheckedGame, read_game_rows

# Which key the client holds for the session with this public id (None: it holds none).
KeyFor = Callable[[str], str | None]


# The players joined in one query: every page of a session opens with this (0.3 ms less),
# and the statement is built once.
_SESSION_WITH_PLAYERS = (
    sa.select(GameSession)
    .where(GameSession.public_id == sa.bindparam("public_id"))
    .options(so.joinedload(GameSession.players))
)


def access_to_session(
    public_id: str, key_for: KeyFor, need: Access = Access.VIEW, *, reads_only: bool = False
) -> tuple[GameSession, Access]:
    """Return the session behind a public id and what the client's key may do there.

    A missing session and a key that may not do ``need`` are the same NotFoundError.
    """
    _connection(reads_only)
    session = (
        db.session.scalars(_SESSION_WITH_PLAYERS, {"public_id": public_id}).unique().one_or_none()
    )
    granted = _let_in(session, public_id, key_for, need, "no_session")
    assert session is not None
    return session, granted


class Opened(NamedTuple):
    """A session a key opened: its ids, what the key may do, and the session's version."""

    session_id: int
    public_id: str
    access: Access
    version: int
    # What the key check read of a game (``access_to_game``), for the use case to take.
    game: CheckedGame | None = None


def access_to_session_id(
    public_id: str, key_for: KeyFor, need: Access = Access.VIEW, *, reads_only: bool = False
) -> Opened:
    """Return the session behind a public id, as ``access_to_session`` checks it.

    One prebuilt statement and no objects: for requests that need the id only.
    """
    connection = _connection(reads_only)
    door = connection.execute(_SESSION_DOOR, {"public_id": public_id}).one_or_none()
    granted = _let_in(door, public_id, key_for, need, "no_session")
    assert door is not None
    return Opened(door.id, public_id, granted, door.version)


def access_to_game(
    game_id: int, key_for: KeyFor, need: Access = Access.VIEW, *, reads_only: bool = False
) -> Opened:
    """Return the session of a game, what the client's key may do there, and the rows read.

    The key is checked on the game's own rows, which the use case the request calls takes as
    its ``checked`` instead of reading them again (``rows.game_state``); a request that writes
    reads them with the lock that read would take.
    """
    door, checked = None, None
    if 0 < game_id <= LARGEST_ID:
        checked = read_game_rows(_connection(reads_only), game_id, lock=not reads_only)
        door = checked.rows[0] if checked.rows else None
    public_id = door.public_id if door is not None else ""
    granted = _let_in(door, public_id, key_for, need, "no_game")
    assert door is not None
    return Opened(door.session_id, public_id, granted, door.version, checked)


def _connection(reads_only: bool) -> sa.Connection:
    """Return the request's connection; a request that only reads asks for no write lock."""
    session = db.session()
    if reads_only and not session.in_transaction():
        return session.connection(execution_options={READS_ONLY: True})
    return session.connection()


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
    """Return the sessions these keys (session id: key) still open.

    The running sessions come first, each part the latest started first.
    """
    if not held:
        return []
    sessions = db.session.scalars(
        sa.select(GameSession)
        .where(GameSession.public_id.in_(list(held)))
        .options(so.selectinload(GameSession.players))
        .order_by(
            (GameSession.status == "finished").asc(),
            GameSession.created_at.desc(),
            GameSession.id.desc(),
        )
    )
    return [
        session
        for session in sessions
        if access(held[session.public_id], session.edit_key_digest, session.view_key_digest)
    ]


@write_use_case
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


# The key check of every request about a session by its public id: a statement built once.
_SESSION_DOOR = sa.select(
    SESSIONS.c.id, SESSIONS.c.edit_key_digest, SESSIONS.c.view_key_digest, SESSIONS.c.version
).where(SESSIONS.c.public_id == sa.bindparam("public_id"))
