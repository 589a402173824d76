"""Who may do what: the keys of a session, checked before anything is read or written."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.keys import Access, SessionKeys, access
from scorekeeper.models import GameSession
from scorekeeper.services.errors import NotFoundError, write_use_case
from scorekeeper.services.rows import GAMES, LARGEST_ID, SESSIONS

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


class Opened(NamedTuple):
    """A session a key opened: its ids, what the key may do, and the session's version."""

    session_id: int
    public_id: str
    access: Access
    version: int


def access_to_session_id(public_id: str, key_for: KeyFor, need: Access = Access.VIEW) -> Opened:
    """Return the session behind a public id, as ``access_to_session`` checks it.

    One prebuilt statement and no objects: for requests that need the id only.
    """
    door = db.session.connection().execute(_SESSION_DOOR, {"public_id": public_id}).one_or_none()
    granted = _let_in(door, public_id, key_for, need, "no_session")
    assert door is not None
    return Opened(door.id, public_id, granted, door.version)


def access_to_game(game_id: int, key_for: KeyFor, need: Access = Access.VIEW) -> Opened:
    """Return the session of a game and what the client's key may do there."""
    door = None
    if 0 < game_id <= LARGEST_ID:
        door = db.session.connection().execute(_GAME_DOOR, {"game_id": game_id}).one_or_none()
    public_id = door.public_id if door is not None else ""
    granted = _let_in(door, public_id, key_for, need, "no_game")
    assert door is not None
    return Opened(door.id, public_id, granted, door.version)


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


# The key check of every API request about a game or a session: plain statements, built once.
_GAME_DOOR = (
    sa.select(
        SESSIONS.c.id,
        SESSIONS.c.public_id,
        SESSIONS.c.edit_key_digest,
        SESSIONS.c.view_key_digest,
        SESSIONS.c.version,
    )
    .select_from(SESSIONS.join(GAMES, GAMES.c.session_id == SESSIONS.c.id))
    .where(GAMES.c.id == sa.bindparam("game_id"))
)


_SESSION_DOOR = sa.select(
    SESSIONS.c.id, SESSIONS.c.edit_key_digest, SESSIONS.c.view_key_digest, SESSIONS.c.version
).where(SESSIONS.c.public_id == sa.bindparam("public_id"))
