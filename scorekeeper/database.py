"""Connection settings the database needs, and retrying a write that lost a race."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import sqlalchemy as sa

P = ParamSpec("P")
R = TypeVar("R")

ATTEMPTS = 5


def configure_engine(engine: sa.Engine) -> None:
    """Make every SQLite transaction take the write lock at its start, in WAL mode.

    pysqlite would begin a transaction only at the first write, so two requests could both
    read the table and then both write; ``BEGIN IMMEDIATE`` makes the second one wait instead.
    """
    if engine.dialect.name != "sqlite":
        return

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL skips the fsync of every commit, yet a commit survives the
        # process being killed (it is in the WAL file); only a power cut may lose the last ones.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def retry_on_race(
    session: Callable[[], Any], conflict: Callable[[], Exception]
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Run a use case again when the database refused it for a concurrent write.

    A unique constraint (a card twice, two entries in one place) or a serialization failure
    means another request got there first; a fresh attempt sees its result and either
    succeeds or is refused by the rules with a plain message.
    """

    def decorate(use_case: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(use_case)
        def attempt(*args: P.args, **kwargs: P.kwargs) -> R:
            for _ in range(ATTEMPTS):
                try:
                    return use_case(*args, **kwargs)
                except (sa.exc.IntegrityError, sa.exc.OperationalError) as error:
                    session().rollback()
                    if not _is_race(error):
                        raise
            raise conflict()

        return attempt

    return decorate


def _is_race(error: sa.exc.DBAPIError) -> bool:
    text = str(error.orig).lower()
    return any(
        sign in text
        for sign in ("unique", "duplicate key", "locked", "busy", "could not serialize", "deadlock")
    )
