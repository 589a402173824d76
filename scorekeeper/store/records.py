"""The records of requests answered once: a key, the request it was used for, the answer.

A record is written in the transaction of the change its request makes (``scorekeeper.http.once``
adds it just before the commit), so a change and its record stand or fall together; the answer
is added right after.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.models import utcnow
from scorekeeper.store.tables import IDEMPOTENCY_RECORDS as RECORDS

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork


class RecordRow(NamedTuple):
    """The first answer to a request sent with a key, to give again on a repeat."""

    key: str
    request: str
    # Empty until the answer is remembered (a record without one: still answering, or lost).
    status: int | None
    body: str | None
    created_at: datetime


class Records:
    """The records of requests answered once, read and written in the request's transaction."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def queue_behind(self, key: str) -> None:
        """On PostgreSQL, hold a lock on the key until this transaction ends.

        SQLite: every transaction already holds the write lock from its start (database.py).
        """
        if self._uow.connection().dialect.name == "postgresql":
            number = zlib.crc32(key.encode()) - 2**31
            self._uow.read(sa.select(sa.func.pg_advisory_xact_lock(number)))

    def find(self, key: str) -> RecordRow | None:
        """Return the record of a key, or None."""
        row = self._uow.read(_FIND, {"key": key}).one_or_none()
        return RecordRow(**row._mapping) if row is not None else None

    def answer(self, key: str, status: int, body: str) -> bool:
        """Remember the answer of a key's record, and commit it; False: the database refused."""
        try:
            self._uow.write(_ANSWER, {"record": key, "status": status, "body": body})
            self._uow.commit()
        except sa.exc.SQLAlchemyError:
            self._uow.rollback()
            return False
        return True

    def forget_older_than(self, before: datetime, at_once: int) -> bool:
        """Delete at most ``at_once`` records made before a time, the oldest first, and commit.

        Rows that another request is deleting are skipped (PostgreSQL), so nobody waits.
        False: the database refused (the next answer tries again).
        """
        try:
            self._uow.write(_FORGET_OLD, {"before": before, "at_once": at_once})
            self._uow.commit()
        except sa.exc.SQLAlchemyError:
            self._uow.rollback()
            log.warning("Old idempotency records were not deleted this time.", exc_info=True)
            return False
        return True


class Pending(NamedTuple):
    """The record a request will write with its change: its key and the request's fingerprint."""

    key: str
    request: str


def write_with_each_change(
    pending: Callable[[], Pending | None], written: Callable[[bool], None]
) -> None:
    """Write the record of the request being answered in the transaction of its change.

    ``pending`` gives the record the request in progress has to write (None: none); just
    before a transaction commits it is written and ``written(True)`` said; when a transaction
    rolls back, ``written(False)``: the next commit writes it again.
    """

    @sa.event.listens_for(so.Session, "before_commit")
    def _write_record_with_the_change(session: so.Session) -> None:
        record = pending()
        if record is None:
            return
        session.execute(
            _INSERT, {"key": record.key, "request": record.request, "created_at": utcnow()}
        )
        written(True)

    @sa.event.listens_for(so.Session, "after_rollback")
    def _forget_record_on_rollback(_session: so.Session, *_args: Any) -> None:
        written(False)


log = logging.getLogger(__name__)


_FIND = sa.select(
    RECORDS.c.key, RECORDS.c.request, RECORDS.c.status, RECORDS.c.body, RECORDS.c.created_at
).where(RECORDS.c.key == sa.bindparam("key"))
_ANSWER = (
    sa.update(RECORDS)
    .where(RECORDS.c.key == sa.bindparam("record"))
    .values(status=sa.bindparam("status"), body=sa.bindparam("body"))
)
_INSERT = sa.insert(RECORDS)
_FORGET_OLD = sa.delete(RECORDS).where(
    RECORDS.c.id.in_(
        sa.select(RECORDS.c.id)
        .where(RECORDS.c.created_at < sa.bindparam("before"))
        .order_by(RECORDS.c.created_at)
        .limit(sa.bindparam("at_once"))
        .with_for_update(skip_locked=True)
    )
)
