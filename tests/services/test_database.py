"""SQLite transactions of one process queue on a lock, and every way a transaction ends frees it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from scorekeeper import database


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    """An engine on a real SQLite file, configured as the app configures its own."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'lock.sqlite3'}")
    database.configure_engine(engine)
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE turns (thread INTEGER, step TEXT)")
    yield engine
    engine.dispose()


def _lock_of(engine: sa.Engine) -> threading.Lock:
    return database._write_lock(engine.url.database or "")


def test_the_connections_are_in_line_and_share_one_lock_per_file(engine: sa.Engine) -> None:
    with engine.connect() as first, engine.connect() as second:
        a = first.connection.dbapi_connection
        b = second.connection.dbapi_connection
        assert isinstance(a, database.InLineConnection)
        assert isinstance(b, database.InLineConnection)
        assert a.write_lock is b.write_lock is _lock_of(engine)


def test_transactions_of_many_threads_take_turns_and_none_is_refused(engine: sa.Engine) -> None:
    threads_count, rounds = 8, 5
    barrier = threading.Barrier(threads_count)
    errors: list[BaseException] = []

    def write(number: int) -> None:
        barrier.wait()
        try:
            for _ in range(rounds):
                with engine.begin() as connection:
                    insert = "INSERT INTO turns VALUES (?, ?)"
                    connection.exec_driver_sql(insert, (number, "in"))
                    connection.exec_driver_sql(insert, (number, "out"))
        except BaseException as error:  # reported below
            errors.append(error)

    workers = [threading.Thread(target=write, args=(n,)) for n in range(threads_count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert errors == []
    with engine.connect() as connection:
        steps = connection.exec_driver_sql("SELECT thread, step FROM turns ORDER BY rowid").all()
    assert len(steps) == threads_count * rounds * 2
    # Each transaction's two rows lie together: no other transaction wrote between them.
    for opened, closed in zip(steps[::2], steps[1::2], strict=True):
        assert (opened.step, closed.step) == ("in", "out")
        assert opened.thread == closed.thread
    assert not _lock_of(engine).locked()


@pytest.mark.parametrize("ending", ["commit", "rollback", "error", "close"])
def test_every_end_of_a_transaction_lets_the_next_one_in(engine: sa.Engine, ending: str) -> None:
    lock = _lock_of(engine)
    connection = engine.connect()
    transaction = connection.begin()
    assert lock.locked()
    if ending == "commit":
        transaction.commit()
    elif ending == "rollback":
        transaction.rollback()
    elif ending == "error":
        with pytest.raises(sa.exc.OperationalError):
            connection.exec_driver_sql("INSERT INTO no_such_table VALUES (1)")
        transaction.rollback()
    else:  # the driver's connection is closed in the middle of the transaction
        dbapi_connection = connection.connection.dbapi_connection
        assert dbapi_connection is not None
        dbapi_connection.close()
        connection.invalidate()
    # Freed by the ending itself, not later by the pool's reset when the connection goes back.
    assert not lock.locked()
    connection.close()
    with engine.begin() as again:
        again.exec_driver_sql("INSERT INTO turns VALUES (1, 'after')")


def test_a_begin_refused_by_another_process_frees_the_lock(engine: sa.Engine) -> None:
    # Another process (here: a plain connection) holds the database's write lock.
    other = sqlite3.connect(engine.url.database or "", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with engine.connect() as connection:
            connection.connection.dbapi_connection.execute("PRAGMA busy_timeout=50")  # type: ignore[union-attr]
            with pytest.raises(sa.exc.OperationalError, match="locked"):
                connection.begin()
            assert not _lock_of(engine).locked()
    finally:
        other.execute("ROLLBACK")
        other.close()
    with engine.begin() as connection:
        connection.exec_driver_sql("INSERT INTO turns VALUES (1, 'after')")


def test_a_transaction_that_waits_too_long_in_line_is_refused_as_locked(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "WAIT_SECONDS", 0.05)
    holder = engine.connect()
    holder.begin()
    outcome: list[BaseException] = []

    def wait_in_line() -> None:
        try:
            with engine.begin():
                pass
        except BaseException as error:  # checked below
            outcome.append(error)

    waiter = threading.Thread(target=wait_in_line)
    waiter.start()
    waiter.join(30)
    holder.rollback()
    holder.close()
    assert len(outcome) == 1
    assert isinstance(outcome[0], sa.exc.OperationalError)
    assert "locked" in str(outcome[0])
    assert database._is_race(outcome[0])
    assert not _lock_of(engine).locked()


def test_a_transaction_that_only_reads_waits_for_no_writer(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A GET (the version a watching phone asks, a page) reads a snapshot while a table records.
    monkeypatch.setattr(database, "WAIT_SECONDS", 0.05)
    writer = engine.connect()
    writer.begin()
    writer.exec_driver_sql("INSERT INTO turns VALUES (1, 'not yet committed')")
    try:
        reads_only = engine.connect().execution_options(**{database.READS_ONLY: True})
        with reads_only as reader, reader.begin():
            assert reader.exec_driver_sql("SELECT count(*) FROM turns").scalar() == 0
        assert _lock_of(engine).locked()  # still the writer's
    finally:
        writer.rollback()
        writer.close()
    assert not _lock_of(engine).locked()
