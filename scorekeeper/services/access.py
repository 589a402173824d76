"""Who may do what: the keys of a session, checked before anything is read or written."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from scorekeeper.keys import Access, SessionKeys, access
from scorekeeper.store import NotFoundError, SessionRow, unit_of_work, write_use_case

# Which key the client holds for the session with this public id (None: it holds none).
KeyFor = Callable[[str], str | None]


def access_to_session(
    public_id: str, key_for: KeyFor, need: Access = Access.VIEW, *, reads_only: bool = False
) -> tuple[SessionRow, Access]:
    """Return the session behind a public id and what the client's key may do there.

    A missing session and a key that may not do ``need`` are the same NotFoundError. The
    session is read with its players in one statement, and kept for the request: a use case
    or a page that reads it again in the same transaction takes it.
    """
    session = unit_of_work().sessions.find(public_id, reads_only=reads_only)
    granted = _let_in(session, public_id, key_for, need, "no_session")
    assert session is not None
    return session, granted


class Opened(NamedTuple):
    """A session a key opened: its ids, what the key may do, and the session's version."""

    session_id: int
    public_id: str
    access: Access
    version: int


def access_to_session_id(
    public_id: str, key_for: KeyFor, need: Access = Access.VIEW, *, reads_only: bool = False
) -> Opened:
    """Return the session behind a public id, as ``access_to_session`` checks it.

    One prebuilt statement: for requests that need the id only.
    """
    door = unit_of_work().sessions.door(public_id, reads_only=reads_only)
    granted = _let_in(door, public_id, key_for, need, "no_session")
    assert door is not None
    return Opened(door.id, public_id, granted, door.version)


def access_to_game(
    game_id: int, key_for: KeyFor, need: Access = Access.VIEW, *, reads_only: bool = False
) -> Opened:
    """Return the session of a game, what the client's key may do there, and its version.

    The key is checked on the game's own rows, which the store keeps for the request: the use
    case or the read of the game in the same transaction takes them instead of reading them
    again. A request that writes reads them with the lock that read would take.
    """
    door = unit_of_work().games.check(game_id, reads_only=reads_only)
    public_id = door.public_id if door is not None else ""
    granted = _let_in(door, public_id, key_for, need, "no_game")
    assert door is not None
    return Opened(door.session_id, public_id, granted, door.version)


def _let_in(door: Any, public_id: str, key_for: KeyFor, need: Access, missing: str) -> Access:
    """Return what the key opens; a missing row and a key too weak are the same error.

    ``door`` is the row read (its ``edit_key_digest`` and ``view_key_digest``), or None.
    """
    granted = Access.NONE
    if door is not None:
        granted = access(key_for(public_id), door.edit_key_digest, door.view_key_digest)
    if door is None or granted < need:
        raise NotFoundError(missing)
    return granted


def sessions_opened_by(held: Mapping[str, str]) -> list[SessionRow]:
    """Return the sessions these keys (session id: key) still open.

    The running sessions come first, each part the latest started first.
    """
    if not held:
        return []
    return [
        session
        for session in unit_of_work().sessions.opened_by(held)
        if access(held[session.public_id], session.edit_key_digest, session.view_key_digest)
    ]


@write_use_case
def replace_keys(public_id: str) -> SessionKeys:
    """Hand out new keys for a session whose keys were lost; the old ones stop working."""
    with unit_of_work() as uow:
        keys = SessionKeys.new()
        if not uow.sessions.replace_keys(public_id, keys):
            raise NotFoundError("no_session")
        uow.commit()
    return keys
