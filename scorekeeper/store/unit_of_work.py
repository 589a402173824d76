"""The unit of work: the request's transaction, the repositories that read and write in it.

A use case reads ``with store.unit_of_work() as uow:``, loads through ``uow.games`` or
``uow.sessions``, asks the rules, saves through them and ends with ``uow.commit(...)``: every
change is one transaction, and one that raises is rolled back. There is one unit of work per
database session, so per request: what the key check read of a game or a session in a
transaction is kept, and handed to the use case that loads it in the same transaction instead
of asking the database again.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.database import READS_ONLY, retry_on_race
from scorekeeper.extensions import db
from scorekeeper.store.audit import AuditTrail
from scorekeeper.store.errors import ConflictError
from scorekeeper.store.evenings import Evenings
from scorekeeper.store.games import Games
from scorekeeper.store.groups import Groups
from scorekeeper.store.reads import Reads
from scorekeeper.store.records import Records
from scorekeeper.store.sessions import Sessions
from scorekeeper.store.tables import SESSIONS


class _Kept(NamedTuple):
    rows: Sequence[Any]
    # Whether they were read with the lock a write takes (FOR UPDATE on PostgreSQL).
    locked: bool
    # The database session's transaction they were read in: they hold for it only.
    transaction: object


_BUMP_VERSION = (
    sa.update(SESSIONS)
    .where(SESSIONS.c.id == sa.bindparam("session"))
    .values(version=SESSIONS.c.version + 1)
)


class UnitOfWork:
    """The request's transaction and the repositories that read and write in it."""

    def __init__(self, session: so.Session) -> None:
        self._session = session
        self._kept: dict[tuple[str, object], _Kept] = {}
        self.games = Games(self)
        self.sessions = Sessions(self)
        self.groups = Groups(self)
        self.evenings = Evenings(self)
        self.audit = AuditTrail(self)
        self.reads = Reads(self)
        self.records = Records(self)

    def __enter__(self) -> UnitOfWork:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if error is not None:
            self.rollback()

    def connection(self, *, reads_only: bool = False) -> sa.Connection:
        """Return the transaction's connection; one begun to read only asks for no write lock.

        On SQLite every other transaction takes the write lock at its start (database.py).
        """
        if reads_only and not self._session.in_transaction():
            return self._session.connection(execution_options={READS_ONLY: True})
        return self._session.connection()

    def read(
        self, statement: sa.Executable, parameters: Mapping[str, Any] | None = None
    ) -> sa.CursorResult[*tuple[Any, ...]]:
        """Run a statement that reads, in the transaction."""
        return self.connection().execute(statement, parameters)

    def write(
        self,
        statement: sa.Executable,
        parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    ) -> sa.CursorResult[*tuple[Any, ...]]:
        """Run a statement that writes: the rows kept from before it no longer hold."""
        self._kept.clear()
        return self.connection().execute(statement, parameters)

    def commit(self, session_id: int | None = None) -> None:
        """Commit the transaction; a change to a session counts in its version (``session_id``).

        The version, counted in the same transaction, tells a watching phone that it moved.
        """
        if session_id is not None:
            self.write(_BUMP_VERSION, {"session": session_id})
        self._session.commit()
        self._kept.clear()
        # Rows changed around the ORM: objects loaded before (a test's) must read them again.
        self._session.expire_all()

    def rollback(self) -> None:
        """End the transaction and keep nothing of it."""
        self._kept.clear()
        self._session.rollback()

    def time_as_read(self, moment: datetime) -> datetime:
        """Return a time as the database gives it back once stored (SQLite keeps no time zone)."""
        stored, read = _time_processors(self.connection().dialect)
        return read(stored(moment))  # type: ignore[no-any-return]

    def keep(self, kind: str, key: object, rows: Sequence[Any], *, locked: bool) -> None:
        """Keep rows the key check read, for the use case of the same transaction."""
        self._kept[kind, key] = _Kept(rows, locked, self._session.get_transaction())

    def kept(self, kind: str, key: object, *, lock: bool) -> Sequence[Any] | None:
        """Return rows kept in this transaction, if read with the lock this read needs."""
        kept = self._kept.get((kind, key))
        if kept is None or (lock and not kept.locked):
            return None
        transaction = self._session.get_transaction()
        if transaction is None or kept.transaction is not transaction:
            return None
        return kept.rows


@functools.lru_cache(maxsize=8)
def _time_processors(dialect: sa.Dialect) -> tuple[Any, Any]:
    kind = dialect.type_descriptor(SESSIONS.c.created_at.type)
    stored = kind.bind_processor(dialect) or (lambda value: value)
    read = kind.result_processor(dialect, None) or (lambda value: value)
    return stored, read


_UNIT_OF_WORK = "scorekeeper.unit_of_work"


def unit_of_work() -> UnitOfWork:
    """Return the request's unit of work: the one of its database session."""
    session = db.session()
    found = session.info.get(_UNIT_OF_WORK)
    if found is None:
        found = session.info[_UNIT_OF_WORK] = UnitOfWork(session)
    assert isinstance(found, UnitOfWork)
    return found


def rollback() -> None:
    """End the request's transaction without keeping anything (a refusal, an error page)."""
    unit_of_work().rollback()


def _raced() -> ConflictError:
    return ConflictError("raced")


# Run a write again when a concurrent write got there first (see database.retry_on_race).
write_use_case = retry_on_race(unit_of_work, _raced)
