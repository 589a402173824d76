"""Backups: consistent copies of a busy SQLite database, the daily ones, and a restore."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scorekeeper import PROJECT_ROOT, cli, create_app
from scorekeeper.backup import (
    back_up_today,
    backup_folder,
    backup_name,
    copy_database,
    keep_daily_backup,
    sqlite_file,
)
from tests.live import Acknowledged, Server, burst, check_survivors, integrity, send

BURST_THREADS = 4


def entry_ids(database: Path) -> set[int]:
    """Return the ids of the entries in a database file."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return {row[0] for row in connection.execute("SELECT id FROM entries")}


def backup_command(database: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run ``scorekeeper backup`` as its own process on the database."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("scorekeeper")), "backup", *arguments],
        env={**os.environ, "DATABASE_URL": f"sqlite:///{database}"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def wait_for(acknowledged: Acknowledged, count: int) -> None:
    """Wait until the burst has had this many writes acknowledged."""
    # A guard against a stuck server, not a measurement: the burst reaches it in about a second.
    deadline = time.monotonic() + 60
    while acknowledged.count() < count:
        assert time.monotonic() < deadline, "the burst was too slow"
        time.sleep(0.01)


def restore(backup: Path, database: Path) -> None:
    """Restore a backup as the README says: the old write-ahead log goes, the backup comes."""
    for leftover in ("-wal", "-shm"):
        database.with_name(database.name + leftover).unlink(missing_ok=True)
    shutil.copyfile(backup, database)


class Burst:
    """A server on a new database, recorded on by several threads until stopped."""

    def __init__(self, folder: Path) -> None:
        self.server = Server(folder, f"sqlite:///{folder / 'served.sqlite3'}")
        base = self.server.start()
        self.acknowledged = Acknowledged()
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=burst, args=(base, self.acknowledged, self.stopping))
            for _ in range(BURST_THREADS)
        ]
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        """Stop recording, then kill the server."""
        self.stopping.set()
        for thread in self.threads:
            thread.join(30)
        self.server.kill()


@pytest.fixture
def busy_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Burst]:
    """Return a server on tmp_path/served.sqlite3 under a burst of writes; stopped at the end."""
    monkeypatch.setenv("SESSION_LIMIT", "off")  # the burst starts a session every ten writes
    running = Burst(tmp_path)
    yield running
    running.stop()


def test_a_backup_taken_while_the_server_records_holds_every_entry_acknowledged_before_it(
    tmp_path: Path, busy_server: Burst
) -> None:
    database = tmp_path / "served.sqlite3"
    acknowledged = busy_server.acknowledged
    taken: list[tuple[Path, set[int]]] = []
    for number in range(1, 4):
        wait_for(acknowledged, 40 * number)
        with acknowledged.lock:
            before = set(acknowledged.entries)
        copy = tmp_path / f"copy-{number}.sqlite3"
        done = backup_command(database, str(copy))
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [f"Backed up {database} to {copy}."]
        taken.append((copy, before))
    busy_server.stop()
    for copy, before in taken:
        assert integrity(copy) == "ok"
        assert before <= entry_ids(copy), f"{copy.name} lacks entries acknowledged before it"
        assert not copy.with_name(copy.name + "-wal").exists()  # one self-contained file
        assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert [path.name for path in tmp_path.glob(".partial-*")] == []


def test_a_backup_restored_as_the_readme_says_holds_exactly_what_was_copied(
    tmp_path: Path, busy_server: Burst
) -> None:
    database = tmp_path / "served.sqlite3"
    copy = tmp_path / "copy.sqlite3"
    acknowledged = busy_server.acknowledged
    wait_for(acknowledged, 40)
    with acknowledged.lock:
        before = Acknowledged(
            dict(acknowledged.sessions), dict(acknowledged.games), dict(acknowledged.entries)
        )
    assert backup_command(database, str(copy)).returncode == 0
    wait_for(acknowledged, acknowledged.count() + 40)
    busy_server.stop()  # killed: what it wrote since the backup lies in its write-ahead log
    server = busy_server.server
    copied = entry_ids(copy)
    assert set(acknowledged.entries) - copied, "nothing was recorded after the backup"
    assert database.with_name(database.name + "-wal").exists()

    restore(copy, database)
    base = server.start()
    check_survivors(base, before)
    server.kill()
    assert integrity(database) == "ok"
    assert entry_ids(database) == copied  # nothing of the old log came back with it


def test_serve_takes_the_backup_of_the_day_beside_the_database_when_it_starts(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path, f"sqlite:///{tmp_path / 'served.sqlite3'}")
    server.start()
    try:
        deadline = time.monotonic() + 20  # a guard, not a measurement
        while not list((tmp_path / "backups").glob("served.sqlite3-*Z.sqlite3")):
            assert time.monotonic() < deadline, "no backup of the day appeared"
            time.sleep(0.05)
    finally:
        server.kill()
    [daily] = (tmp_path / "backups").glob("served.sqlite3-*Z.sqlite3")
    assert daily.name.startswith(f"served.sqlite3-{datetime.now(UTC):%Y-%m-%d}T")
    assert integrity(daily) == "ok"
    assert stat.S_IMODE((tmp_path / "backups").stat().st_mode) == 0o700


@pytest.fixture
def database_in_env(sqlite_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Return a migrated SQLite file that DATABASE_URL names, as the command line reads it."""
    database = tmp_path / "club" / "scorekeeper.sqlite3"
    database.parent.mkdir()
    shutil.copyfile(sqlite_template, database)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("SECRET_KEY", "backup-test")
    return database


def test_backup_without_a_path_writes_a_copy_named_by_the_database_and_the_time_beside_it(
    database_in_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["backup"]) == 0
    [written] = (database_in_env.parent / "backups").iterdir()
    assert written.name.startswith(f"scorekeeper.sqlite3-{datetime.now(UTC):%Y-%m-%d}T")
    assert written.name.endswith("Z.sqlite3")
    assert capsys.readouterr().out == f"Backed up {database_in_env} to {written}.\n"
    assert integrity(written) == "ok"


def test_the_default_database_is_backed_up_into_instance_backups() -> None:
    app = create_app({"SECRET_KEY": "backup-test"})
    database = sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    assert backup_folder(database) == PROJECT_ROOT / "instance" / "backups"


def test_backup_copies_the_database_as_it_is_without_upgrading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "older.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as connection, connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
        connection.execute("INSERT INTO notes VALUES ('before any migration')")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("SECRET_KEY", "backup-test")

    assert cli.main(["backup", str(tmp_path / "copy.sqlite3")]) == 0

    for path in (database, tmp_path / "copy.sqlite3"):
        with contextlib.closing(sqlite3.connect(path)) as connection:
            tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
            assert tables == ["notes"]  # no alembic_version: nothing was migrated


@pytest.mark.parametrize(
    "url", ["postgresql://scorekeeper@127.0.0.1:1/scorekeeper", "postgres://club@db/scores"]
)
def test_backup_refuses_postgresql_and_names_pg_dump(
    url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "backup-test")
    assert cli.main(["backup"]) == 1
    refusal = capsys.readouterr().err
    assert refusal.startswith("scorekeeper backup: ") and "pg_dump" in refusal


def test_backup_refuses_to_write_over_the_database_itself(
    database_in_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["backup", str(database_in_env)]) == 1
    assert "the database itself" in capsys.readouterr().err
    assert integrity(database_in_env) == "ok"


def test_backup_of_a_database_that_is_not_there_fails_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'missing.sqlite3'}")
    monkeypatch.setenv("SECRET_KEY", "backup-test")
    assert cli.main(["backup"]) == 1
    assert cli.main(["backup", str(tmp_path / "copy.sqlite3")]) == 1
    assert capsys.readouterr().err.count("cannot open the database") == 2
    assert list(tmp_path.iterdir()) == []


def test_backup_into_a_folder_names_the_copy_by_the_database_and_the_time(
    database_in_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["backup", str(tmp_path)]) == 0
    [written] = tmp_path.glob("scorekeeper.sqlite3-*Z.sqlite3")
    assert capsys.readouterr().out == f"Backed up {database_in_env} to {written}.\n"
    assert integrity(written) == "ok"


def test_backup_into_a_folder_that_is_not_there_says_so(
    database_in_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["backup", str(tmp_path / "no-such-folder" / "copy.sqlite3")]) == 1
    assert "there is no folder" in capsys.readouterr().err
    assert not (tmp_path / "no-such-folder").exists()


def test_daily_backups_keep_the_last_seven_days_and_none_twice_a_day(
    sqlite_template: Path, tmp_path: Path
) -> None:
    database = tmp_path / "scorekeeper.sqlite3"
    shutil.copyfile(sqlite_template, database)
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "before-the-move.sqlite3").touch()  # not one of ours: left alone
    # Named by earlier versions, without the database: neither today's backup nor deleted.
    (folder / "scorekeeper-2026-10-01T0130Z.sqlite3").touch()
    (folder / "scorekeeper-2026-11-01T0100Z.sqlite3").touch()
    first = datetime(2026, 11, 1, 1, 30, 5, tzinfo=UTC)
    for day in range(10):
        morning = first + timedelta(days=day)
        made = f"scorekeeper.sqlite3-2026-11-{day + 1:02d}T013005Z.sqlite3"
        assert keep_daily_backup(database, morning) == folder / made
        assert keep_daily_backup(database, morning + timedelta(hours=22)) is None
    assert sorted(path.name for path in folder.iterdir()) == [
        "before-the-move.sqlite3",
        "scorekeeper-2026-10-01T0130Z.sqlite3",
        "scorekeeper-2026-11-01T0100Z.sqlite3",
        *(f"scorekeeper.sqlite3-2026-11-{day:02d}T013005Z.sqlite3" for day in range(4, 11)),
    ]


def test_daily_backups_after_a_long_pause_keep_the_week_before_it(
    sqlite_template: Path, tmp_path: Path
) -> None:
    database = tmp_path / "scorekeeper.sqlite3"
    shutil.copyfile(sqlite_template, database)
    for day in range(1, 8):
        keep_daily_backup(database, datetime(2026, 10, day, 20, 0, tzinfo=UTC))
    keep_daily_backup(database, datetime(2026, 11, 24, 1, 30, tzinfo=UTC))
    assert sorted(path.name for path in (tmp_path / "backups").iterdir()) == [
        *(f"scorekeeper.sqlite3-2026-10-{day:02d}T200000Z.sqlite3" for day in range(2, 8)),
        "scorekeeper.sqlite3-2026-11-24T013000Z.sqlite3",
    ]


def test_a_daily_backup_that_fails_is_logged_and_raises_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "missing.sqlite3"
    with caplog.at_level(logging.ERROR, logger="scorekeeper.backup"):
        assert back_up_today(missing, datetime(2026, 11, 24, 1, 30, tzinfo=UTC)) is None
    assert str(missing) in caplog.text and "cannot open the database" in caplog.text
    assert not (tmp_path / "backups").exists()


def club_database(path: Path, name: str) -> Path:
    """Make a small SQLite file that says which club it belongs to."""
    path.parent.mkdir(exist_ok=True)
    with contextlib.closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("CREATE TABLE club (name TEXT)")
        connection.execute("INSERT INTO club VALUES (?)", (name,))
    return path


def club_of(path: Path) -> str:
    """Return the club a copy of a club's database belongs to."""
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("SELECT name FROM club").fetchone()[0])


def test_two_databases_in_one_folder_each_keep_their_own_daily_backups(tmp_path: Path) -> None:
    first = club_database(tmp_path / "instance" / "first.sqlite3", "first club")
    second = club_database(tmp_path / "instance" / "second.sqlite3", "second club")
    start = datetime(2026, 11, 1, 1, 30, tzinfo=UTC)
    for day in range(10):
        morning = start + timedelta(days=day)
        assert keep_daily_backup(first, morning) is not None
        made = keep_daily_backup(second, morning + timedelta(minutes=1))
        assert made is not None, f"day {day + 1}: the first club's backup counted as the second's"
        assert keep_daily_backup(first, morning + timedelta(hours=2)) is None
    kept = sorted((tmp_path / "instance" / "backups").iterdir())
    assert len(kept) == 14  # the last 7 days of each
    assert sorted(club_of(path) for path in kept) == ["first club"] * 7 + ["second club"] * 7
    for path in kept:
        assert path.name.startswith(f"{club_of(path).split()[0]}.sqlite3-")


def test_two_servers_on_two_databases_in_one_folder_each_take_their_daily_backup(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "backups"
    servers = []
    try:
        for number, name in enumerate(("first.sqlite3", "second.sqlite3"), start=1):
            server = Server(tmp_path, f"sqlite:///{tmp_path / name}")
            servers.append(server)
            server.start()
            deadline = time.monotonic() + 20  # a guard, not a measurement
            while len(finished(folder)) < number:
                assert time.monotonic() < deadline, f"the server on {name} took no daily backup"
                time.sleep(0.05)
    finally:
        for server in servers:
            server.kill()
    backups = sorted(path.name for path in finished(folder))
    assert [name.split("-")[0] for name in backups] == ["first.sqlite3", "second.sqlite3"]


def finished(folder: Path) -> list[Path]:
    """Return the backups in a folder, not the copy still being written (``.partial-…``)."""
    return [path for path in folder.glob("*.sqlite3") if not path.name.startswith(".")]


def test_backups_of_two_databases_in_one_folder_in_the_same_minute_replace_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SECRET_KEY", "backup-test")
    clubs = {
        "first club": club_database(tmp_path / "instance" / "first.sqlite3", "first club"),
        "second club": club_database(tmp_path / "instance" / "second.sqlite3", "second club"),
    }
    told = []
    for club in ("first club", "second club", "first club", "first club"):
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{clubs[club]}")
        assert cli.main(["backup"]) == 0
        [line] = capsys.readouterr().out.splitlines()
        assert line.startswith(f"Backed up {clubs[club]} to ")
        told.append((club, Path(line.removeprefix(f"Backed up {clubs[club]} to ")[:-1])))
    assert len({written for _, written in told}) == 4, "a backup replaced another one"
    for club, written in told:
        assert club_of(written) == club, f"{written} was said to hold the {club}"
    assert len(list((tmp_path / "instance" / "backups").iterdir())) == 4


@pytest.mark.parametrize(
    ("ending", "what"),
    [
        ("-wal", "the database's write-ahead log"),
        ("-shm", "the database's shared-memory file"),
        ("-journal", "the database's rollback journal"),
    ],
)
def test_a_backup_onto_the_databases_own_files_is_refused_and_the_database_stays_whole(
    ending: str,
    what: str,
    database_in_env: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    wal = database_in_env.with_name(database_in_env.name + "-wal")
    with contextlib.closing(sqlite3.connect(database_in_env)) as open_connection:
        # As under a running server: the database open, its latest writes only in the log.
        open_connection.execute("PRAGMA journal_mode=WAL")
        open_connection.execute("PRAGMA wal_autocheckpoint=0")
        with open_connection:
            open_connection.execute("CREATE TABLE club (name TEXT)")
            open_connection.execute("INSERT INTO club VALUES ('the club')")
        logged = wal.read_bytes()
        target = database_in_env.with_name(database_in_env.name + ending)

        assert cli.main(["backup", str(target)]) == 1

        assert capsys.readouterr().err == (
            f"scorekeeper backup: {target} is {what}; name another file\n"
        )
        assert wal.read_bytes() == logged
    assert integrity(database_in_env) == "ok"
    assert club_of(database_in_env) == "the club"
    assert list((database_in_env.parent).glob("*.sqlite3")) == [database_in_env]


def test_a_backup_onto_a_running_servers_write_ahead_log_is_refused_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    database = tmp_path / "served.sqlite3"
    server = Server(tmp_path, f"sqlite:///{database}")
    base = server.start()
    try:
        status, session = send(base, "POST", "/api/v1/sessions", {"players": ["Ann", "Bob"]})
        assert status == 201
        done = backup_command(database, str(tmp_path / "served.sqlite3-wal"))
    finally:
        server.kill()  # what the server wrote last is still only in its write-ahead log
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"scorekeeper backup: {tmp_path / 'served.sqlite3-wal'} is the database's write-ahead "
        "log; name another file"
    ]
    assert integrity(database) == "ok"
    with contextlib.closing(sqlite3.connect(database)) as connection:
        stored = connection.execute("SELECT public_id FROM sessions").fetchall()
    assert stored == [(session["id"],)]


def started_clubs(tmp_path: Path) -> tuple[Server, Server, list[str]]:
    """Start club 1's and club 2's servers in one folder; club 2 acknowledges 25 sessions."""
    first = Server(tmp_path, f"sqlite:///{tmp_path / 'club1.sqlite3'}")
    second = Server(tmp_path, f"sqlite:///{tmp_path / 'club2.sqlite3'}")
    first.start()
    base = second.start()
    sessions = []
    for number in range(25):
        status, session = send(base, "POST", "/api/v1/sessions", {"players": ["Ann", f"B{number}"]})
        assert status == 201
        sessions.append(session["id"])
    return first, second, sessions


def stored_sessions(database: Path) -> list[str]:
    """Return the ids of the sessions a database file holds (after its log is read in)."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return sorted(row[0] for row in connection.execute("SELECT public_id FROM sessions"))


@pytest.mark.parametrize("ending", ["-wal", "", "-shm"])
def test_a_backup_onto_another_running_servers_files_is_refused_and_its_sessions_stay(
    ending: str, tmp_path: Path
) -> None:
    first, second, sessions = started_clubs(tmp_path)
    target = tmp_path / f"club2.sqlite3{ending}"
    logged = (tmp_path / "club2.sqlite3-wal").read_bytes()
    try:
        done = backup_command(tmp_path / "club1.sqlite3", str(target))
        assert (tmp_path / "club2.sqlite3-wal").read_bytes() == logged
    finally:
        second.kill()  # what club 2 acknowledged last is still only in its write-ahead log
        first.kill()
    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"scorekeeper backup: {target} ")
    assert integrity(tmp_path / "club2.sqlite3") == "ok"
    assert stored_sessions(tmp_path / "club2.sqlite3") == sorted(sessions)


@pytest.mark.parametrize(
    "name",
    [
        "notes.txt",  # any file that is there
        "other.sqlite3",  # another database, closed
        "empty.sqlite3",  # an empty file, which SQLite opens as an empty database
    ],
)
def test_a_backup_onto_any_file_that_is_there_is_refused_and_leaves_it_as_it_was(
    name: str, database_in_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / name
    if name == "other.sqlite3":
        club_database(target, "another club")
    else:
        target.write_bytes(b"" if name == "empty.sqlite3" else b"the club's notes\n")
    before = target.read_bytes()

    assert cli.main(["backup", str(target)]) == 1

    assert capsys.readouterr().err == (
        f"scorekeeper backup: {target} is there already; a backup only ever creates a new file: "
        "name another one\n"
    )
    assert target.read_bytes() == before
    assert [path.name for path in tmp_path.glob(".partial-*")] == []


@pytest.mark.parametrize("ending", ["-wal", "-shm", "-journal", "-WAL"])
def test_a_backup_named_like_a_file_sqlite_keeps_beside_a_database_is_refused(
    ending: str, database_in_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / f"club2.sqlite3{ending}"

    assert cli.main(["backup", str(target)]) == 1

    assert capsys.readouterr().err == (
        f"scorekeeper backup: {target} ends in {ending}, as the files SQLite keeps beside a "
        "database do; name another file\n"
    )
    assert not target.exists()


@pytest.mark.parametrize("ending", ["-wal", "-journal"])
def test_a_backup_beside_another_databases_leftover_log_is_refused(
    ending: str, database_in_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # SQLite would read a leftover log or journal of that name into the new file when it opens it.
    target = tmp_path / "copy.sqlite3"
    leftover = tmp_path / f"copy.sqlite3{ending}"
    leftover.write_bytes(b"left by a database that was here before")

    assert cli.main(["backup", str(target)]) == 1

    assert capsys.readouterr().err == (
        f"scorekeeper backup: {leftover} lies beside {target}, and SQLite would read it into the "
        "backup; name another file\n"
    )
    assert not target.exists()


def test_a_backup_into_a_folder_skips_a_name_that_is_taken_or_has_a_log_beside_it(
    sqlite_template: Path, tmp_path: Path
) -> None:
    database = tmp_path / "scorekeeper.sqlite3"
    shutil.copyfile(sqlite_template, database)
    folder = tmp_path / "backups"
    folder.mkdir()
    taken = datetime(2026, 11, 24, 1, 30, 5, tzinfo=UTC)
    first = folder / backup_name(database, taken)
    first.write_bytes(b"someone's file")
    (folder / (backup_name(database, taken, 2) + "-journal")).write_bytes(b"a leftover journal")

    written = copy_database(database, folder, now=taken)

    assert written == folder / backup_name(database, taken, 3)
    assert first.read_bytes() == b"someone's file"
    assert not (folder / backup_name(database, taken, 2)).exists()
    assert integrity(written) == "ok"
