"""Consistent copies of the SQLite database, taken while the server runs, and the daily ones."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

log = logging.getLogger(__name__)

# A backup's name says when it was taken, in UTC; names sort as the times do.
NAME_FORMAT = "scorekeeper-%Y-%m-%dT%H%MZ.sqlite3"
# How many days' backups `scorekeeper serve` keeps, and how often it looks whether today's exists.
DAYS_KEPT = 7
CHECK_SECONDS = 3600


class BackupError(Exception):
    """A backup that cannot be taken, with a reason for the person at the command line."""


def sqlite_file(database_url: str) -> Path:
    """Return the SQLite file a database URL names; refuse any other database."""
    url = sa.make_url(database_url)
    if url.get_backend_name() == "postgresql":
        raise BackupError(
            "the database is PostgreSQL, which this command cannot copy: back it up with "
            "pg_dump, e.g. pg_dump --format=custom --file=scorekeeper.dump "
            "postgresql://user@host/database (pg_restore reads it back)"
        )
    if url.get_backend_name() != "sqlite":
        raise BackupError(f"only SQLite databases can be backed up here, not {url.drivername}")
    if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
        raise BackupError(f"{database_url} names no database file to copy")
    return Path(url.database)


def backup_folder(database: Path) -> Path:
    """Return the folder of a database's backups: ``backups`` beside it (instance/backups)."""
    # Beside the database, not in the app's instance folder: a server on another database (a
    # test's, a second club's) must not rotate away the backups of the one in instance/.
    return database.parent / "backups"


def copy_database(database: Path, target: Path, *, make_folder: bool = False) -> Path:
    """Copy the database to target as one consistent snapshot, however busy it is.

    SQLite's online backup reads in one transaction, which in WAL mode never stops a writer.
    The copy is written beside the target first and renamed when complete, so a file with the
    target's name is always a whole backup; it is readable by its owner only, as the database is.
    A target that is a folder gets a name with the time; ``make_folder`` makes the target's
    folder (readable by its owner only) when it is missing.
    """
    with contextlib.closing(_open_existing(database)) as source:
        if make_folder:
            target.parent.mkdir(mode=0o700, exist_ok=True)
        if target.is_dir():
            target = target / datetime.now(UTC).strftime(NAME_FORMAT)
        if target.resolve() == database.resolve():
            raise BackupError(f"{target} is the database itself; name another file")
        if not target.parent.is_dir():
            raise BackupError(f"there is no folder {target.parent} to write {target.name} into")
        descriptor, partial = tempfile.mkstemp(".sqlite3", ".partial-", target.parent)
        os.close(descriptor)
        try:
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                # All pages in one step: a backup in several steps starts again whenever another
                # connection writes in between, and under a steady load might never finish.
                source.backup(copy)
                # One self-contained file: restoring it means copying that file and nothing else.
                copy.execute("PRAGMA journal_mode=DELETE")
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    return target


def _open_existing(database: Path) -> sqlite3.Connection:
    """Open the database; one that is not there is an error, not a new empty file (mode=rw)."""
    try:
        return sqlite3.connect(f"{database.resolve().as_uri()}?mode=rw", uri=True, timeout=10)
    except sqlite3.OperationalError as error:
        raise BackupError(f"cannot open the database {database}: {error}") from None


def backups_in(folder: Path) -> list[tuple[datetime, Path]]:
    """Return the backups named by time in a folder, oldest first; other files are not ours."""
    found = []
    for path in folder.glob("scorekeeper-*.sqlite3"):
        try:
            taken = datetime.strptime(path.name, NAME_FORMAT).replace(tzinfo=UTC)
        except ValueError:
            continue
        found.append((taken, path))
    return sorted(found)


def keep_daily_backup(database: Path, now: datetime, days: int = DAYS_KEPT) -> Path | None:
    """Take today's backup unless one exists, then delete those of all but the last days.

    Returns the new backup, or None when today's was there. "Today" is the UTC date, as in the
    names; the last days are the days that have a backup, so a server that was off for a
    fortnight keeps the week before it stopped.
    """
    folder = backup_folder(database)
    made = None
    if not any(taken.date() == now.date() for taken, _ in backups_in(folder)):
        made = copy_database(database, folder / now.strftime(NAME_FORMAT), make_folder=True)
    kept_days = sorted({taken.date() for taken, _ in backups_in(folder)})[-days:]
    for taken, path in backups_in(folder):
        if taken.date() not in kept_days:
            path.unlink(missing_ok=True)
    return made


def back_up_today(database: Path, now: datetime) -> Path | None:
    """Keep the daily backup as `keep_daily_backup` does; log a failure instead of raising it."""
    try:
        return keep_daily_backup(database, now)
    except Exception:
        # The server keeps serving: a missed backup must not cost the evening's game.
        log.exception("The daily backup of %s failed; the next try is in an hour.", database)
        return None


def start_daily_backups(database: Path) -> threading.Thread:
    """Keep a backup a day of the database in a background thread while the server runs."""

    def run() -> None:
        while True:
            back_up_today(database, datetime.now(UTC))
            time.sleep(CHECK_SECONDS)

    thread = threading.Thread(target=run, name="daily-backups", daemon=True)
    thread.start()
    return thread
