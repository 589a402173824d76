"""Consistent copies of the SQLite database, taken while the server runs, and the daily ones."""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import re
import sqlite3
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

log = logging.getLogger(__name__)

# A backup's name is its database's file name, then when it was taken in UTC to the second, then
# a number when another backup of that second is there:
# scorekeeper.sqlite3-2026-11-24T013005Z.sqlite3, scorekeeper.sqlite3-2026-11-24T013005Z-2.sqlite3.
# The names of one database sort as the times do; two databases in one folder never share one.
TIME_FORMAT = "%Y-%m-%dT%H%M%SZ"
_TAKEN = re.compile(r"(?P<time>\d{4}-\d{2}-\d{2}T\d{6}Z)(?:-(?P<number>[1-9]\d*))?\.sqlite3")
# The files SQLite keeps beside a database while it is open: writing a backup over one of them
# replaces what the server has not yet written into the database file itself.
OWN_FILES = ("", "-wal", "-shm", "-journal")
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


def backup_name(database: Path, taken: datetime, number: int = 1) -> str:
    """Return the name of a backup of the database taken at a time, the number-th of its second."""
    suffix = "" if number == 1 else f"-{number}"
    return f"{database.name}-{taken.astimezone(UTC).strftime(TIME_FORMAT)}{suffix}.sqlite3"


def copy_database(
    database: Path, target: Path, *, make_folder: bool = False, now: datetime | None = None
) -> Path:
    """Copy the database to target as one consistent snapshot, however busy it is.

    SQLite's online backup reads in one transaction, which in WAL mode never stops a writer.
    The copy is written beside the target first and renamed when complete, so a file with the
    target's name is always a whole backup; it is readable by its owner only, as the database is.
    A target that is a folder gets a new file named after the database and the time (``now``,
    the present by default), which never replaces another backup; ``make_folder`` makes that
    folder (readable by its owner only) when it is missing. A backup only ever creates a new
    file: a target that is there (whatever it holds), a name ending as SQLite's own files do
    (``-wal``, ``-shm``, ``-journal``) and a name with such a file left beside it are refused.
    """
    refuse_own_file(database, target)
    if not target.is_dir():
        refuse_taken_name(target)
    with contextlib.closing(_open_existing(database)) as source:
        if make_folder:
            target.mkdir(mode=0o700, exist_ok=True)
        into_folder = target.is_dir()
        folder = target if into_folder else target.parent
        if not folder.is_dir():
            raise BackupError(f"there is no folder {folder} to write {target.name} into")
        descriptor, partial = tempfile.mkstemp(".sqlite3", ".partial-", folder)
        os.close(descriptor)
        try:
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                # All pages in one step: a backup in several steps starts again whenever another
                # connection writes in between, and under a steady load might never finish.
                source.backup(copy)
                # One self-contained file: restoring it means copying that file and nothing else.
                copy.execute("PRAGMA journal_mode=DELETE")
            if into_folder:
                target = _claim_name(database, Path(partial), folder, now or datetime.now(UTC))
            elif not _place(Path(partial), target):
                # Someone made the file while the copy was being written: it stays theirs.
                refuse_taken_name(target)
        finally:
            Path(partial).unlink(missing_ok=True)
    return target


def refuse_own_file(database: Path, target: Path) -> None:
    """Refuse a target that is the database or one of the files SQLite keeps beside it."""
    for ending in OWN_FILES:
        own = database.with_name(database.name + ending)
        same = target.resolve() == own.resolve()
        with contextlib.suppress(OSError):  # a file that is not there is not the same file
            same = same or os.path.samefile(target, own)
        if same:
            what = {
                "": "the database itself",
                "-wal": "the database's write-ahead log",
                "-shm": "the database's shared-memory file",
                "-journal": "the database's rollback journal",
            }[ending]
            raise BackupError(f"{target} is {what}; name another file")


def refuse_taken_name(target: Path) -> None:
    """Refuse a target that is there, is named as SQLite's own files are, or has one beside it.

    Writing over any file that is there may destroy another database (another club's, or the
    log that holds what its server acknowledged last). A new file named ``…-wal`` or ``…-journal``
    would be read by SQLite into the database of that name; a ``-wal`` or ``-journal`` left
    beside the new file's name would be read into the backup.
    """
    for ending in OWN_FILES[1:]:
        if target.name.lower().endswith(ending):
            raise BackupError(
                f"{target} ends in {target.name[-len(ending) :]}, as the files SQLite keeps "
                "beside a database do; name another file"
            )
    if os.path.lexists(target):
        raise BackupError(
            f"{target} is there already; a backup only ever creates a new file: name another one"
        )
    for ending in OWN_FILES[1:]:
        leftover = target.with_name(target.name + ending)
        if os.path.lexists(leftover):
            raise BackupError(
                f"{leftover} lies beside {target}, and SQLite would read it into the backup; "
                "name another file"
            )


def _place(partial: Path, target: Path) -> bool:
    """Give the finished copy the target's name if no file has it; False when one has."""
    try:
        # A hard link is made only when the name is free, and the file is whole when it is.
        os.link(partial, target)
    except FileExistsError:
        return False
    except OSError:
        # A file system without hard links (a FAT stick): take the name first, then fill it.
        try:
            open(target, "xb").close()
        except FileExistsError:
            return False
        os.replace(partial, target)
    return True


def _claim_name(database: Path, partial: Path, folder: Path, taken: datetime) -> Path:
    """Give the finished copy the first free backup name of its second; replace no file."""
    number = 0
    while True:
        number += 1
        target = folder / backup_name(database, taken, number)
        try:
            refuse_taken_name(target)
        except BackupError:
            continue
        if _place(partial, target):
            return target


def _open_existing(database: Path) -> sqlite3.Connection:
    """Open the database; one that is not there is an error, not a new empty file (mode=rw)."""
    try:
        return sqlite3.connect(f"{database.resolve().as_uri()}?mode=rw", uri=True, timeout=10)
    except sqlite3.OperationalError as error:
        raise BackupError(f"cannot open the database {database}: {error}") from None


def backups_in(folder: Path, database: Path) -> list[tuple[datetime, Path]]:
    """Return the database's backups in a folder, oldest first; other files are not its own.

    Another database's backups, and the ``scorekeeper-2026-11-24T0130Z.sqlite3`` of versions
    that named backups without their database, are left out.
    """
    found = []
    for path in folder.glob(f"{glob.escape(database.name)}-*.sqlite3"):
        taken = _TAKEN.fullmatch(path.name[len(database.name) + 1 :])
        if taken is None:
            continue
        try:
            when = datetime.strptime(taken["time"], TIME_FORMAT).replace(tzinfo=UTC)
        except ValueError:
            continue
        found.append((when, int(taken["number"] or 1), path))
    return [(when, path) for when, _, path in sorted(found)]


def keep_daily_backup(database: Path, now: datetime, days: int = DAYS_KEPT) -> Path | None:
    """Take today's backup unless one exists, then delete those of all but the last days.

    Returns the new backup, or None when today's was there. "Today" is the UTC date, as in the
    names; the last days are the days that have a backup, so a server that was off for a
    fortnight keeps the week before it stopped. Only the database's own backups count and go.
    """
    folder = backup_folder(database)
    made = None
    if not any(taken.date() == now.date() for taken, _ in backups_in(folder, database)):
        made = copy_database(database, folder, make_folder=True, now=now)
    kept_days = sorted({taken.date() for taken, _ in backups_in(folder, database)})[-days:]
    for taken, path in backups_in(folder, database):
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
