"""Connection settings the database needs, and retrying a write that lost a race."""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import sqlalchemy as sa

P = ParamSpec("P")
R = TypeVar("R")

ATTEMPTS = 5
# How long a transaction waits for the write lock before it gives up ("database is locked").
WAIT_SECONDS = 10.0
# The execution option of a connection whose transaction only reads (a GET's): on SQLite it
# begins without the write lock, since in WAL mode a reader sees a snapshot and stops no writer.
READS_ONLY = "scorekeeper_reads_only"

# One lock per SQLite file in this process (see InLineConnection).
_WRITE_LOCKS: dict[str, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def _write_lock(database: str) -> threading.Lock:
    if not database or database == ":memory:":
        return threading.Lock()  # each in-memory database is a database of its own
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(os.path.abspath(database), threading.Lock())


class InLineConnection(sqlite3.Connection):
    """A SQLite connection whose transactions queue on a lock shared in this process.

    SQLite makes a second writer poll for its lock, sleeping up to 100 ms between tries, so
    under load some requests waited long after the lock was free. Threads of one process
    wait here instead and are woken as soon as the transaction before them ends; other
    processes still wait in SQLite's busy handler.
    """

    write_lock: threading.Lock
    holds_write_lock = False

    def wait_in_line(self) -> None:
        """Wait for this process's turn to write; raise "database is locked" after a while."""
        if not self.write_lock.acquire(timeout=WAIT_SECONDS):
            raise sa.exc.OperationalError(
                "BEGIN IMMEDIATE", None, sqlite3.OperationalError("database is locked")
            )
        self.holds_write_lock = True

    def commit(self) -> None:
        """Commit, then let the next transaction of this process begin."""
        try:
            super().commit()
        finally:
            self.let_next_in()

    def rollback(self) -> None:
        """Roll back, then let the next transaction of this process begin."""
        try:
            super().rollback()
        finally:
            self.let_next_in()

    def close(self) -> None:
        """Close, letting the next transaction begin if this one was still open."""
        try:
            super().close()
        finally:
            self.let_next_in()

    def let_next_in(self) -> None:
        """Let the next transaction of this process begin (once per turn)."""
        if self.holds_write_lock:
            self.holds_write_lock = False
            self.write_lock.release()


def configure_engine(engine: sa.Engine) -> None:
    """Make every SQLite transaction take the write lock at its start, in WAL mode.

    pysqlite would begin a transaction only at the first write, so two requests could both
    read the table and then both write; ``BEGIN IMMEDIATE`` makes the second one wait instead.
    A transaction that only reads (``READS_ONLY``) waits for no writer.
    """
    if engine.dialect.name != "sqlite":
        return
    database = engine.url.database or ""
    write_lock = _write_lock(database)

    @sa.event.listens_for(engine, "do_connect")
    def _in_line(_dialect: Any, _record: Any, _args: Any, options: dict[str, Any]) -> None:
        options["factory"] = InLineConnection
        if not options.get("uri"):
            create_private_file(database)

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself, below
        dbapi_connection.write_lock = write_lock
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
        dbapi_connection = connection.connection.dbapi_connection
        assert isinstance(dbapi_connection, InLineConnection)
        if connection.get_execution_options().get(READS_ONLY):
            _begin(dbapi_connection, "BEGIN")
            return
        dbapi_connection.wait_in_line()
        try:
            _begin(dbapi_connection, "BEGIN IMMEDIATE")
        except BaseException:
            dbapi_connection.let_next_in()
            raise


def _begin(dbapi_connection: sqlite3.Connection, statement: str) -> None:
    """Begin a transaction on the driver's connection, its refusal said as SQLAlchemy says it.

    Through SQLAlchemy's execution path the BEGIN cost every request a statement's overhead;
    a "database is locked" must still reach the use cases as the error they retry.
    """
    try:
        dbapi_connection.execute(statement)
    except sqlite3.OperationalError as error:
        raise sa.exc.OperationalError(statement, None, error) from error


def create_private_file(database: str) -> None:
    """Create a SQLite database file that does not exist yet readable by its owner only (0600).

    SQLite would create it on the first connection with the process's umask (usually 0644),
    and the file holds the digests of every session's keys. SQLite gives its WAL and shared
    memory files the database file's mode. An existing file is left as it is.
    """
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    # Already there, or its folder is missing (SQLite says so itself): nothing to do.
    with contextlib.suppress(OSError):
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


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
