"""Fixtures: an app on a fresh database (SQLite, or PostgreSQL where a module asks for it)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from playwright.sync_api import Browser, sync_playwright
from werkzeug.datastructures import Headers
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.live import send

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def backend() -> str:
    """Return the database the test runs on; modules parametrize it to run on PostgreSQL too."""
    return "sqlite"


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[str]:
    """Run a throwaway PostgreSQL server for the test run; yield its URL without a database.

    A database migrated once serves as the template that each test copies.
    """
    initdb, pg_ctl = _postgres_tool("initdb"), _postgres_tool("pg_ctl")
    if not (initdb and pg_ctl):
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL (initdb, pg_ctl) is needed for the tests in CI")
        pytest.skip("PostgreSQL is not installed (initdb, pg_ctl)")
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    data = folder / "data"
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        run_as = ["runuser", "-u", "nobody", "--"]
        folder.chmod(0o755)
        data.mkdir()
        shutil.chown(data, "nobody")
    subprocess.run(
        [*run_as, initdb, "-D", str(data), "-U", "scorekeeper", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"
    log = data / "server.log"
    subprocess.run(
        [*run_as, pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"],
        check=True,
        capture_output=True,
    )
    url = f"postgresql+psycopg://scorekeeper@127.0.0.1:{port}"
    try:
        _admin(url, "CREATE DATABASE template_scorekeeper")
        template = _migrated_app(f"{url}/template_scorekeeper")
        with template.app_context():
            db.engine.dispose()
        yield url
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def _postgres_tool(name: str) -> str | None:
    """Find a PostgreSQL server program on the PATH or where Debian's package puts it."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    return str(installed[-1]) if installed else None


def _admin(url: str, statement: str) -> None:
    """Run one statement outside a transaction (CREATE or DROP DATABASE)."""
    import psycopg

    host, port = url.rsplit("@", 1)[1].split(":")
    with psycopg.connect(
        host=host, port=int(port), user="scorekeeper", dbname="postgres", autocommit=True
    ) as connection:
        connection.execute(statement)  # type: ignore[arg-type]


def _test_app(url: str, **settings: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            # The tests start hundreds of sessions from one address; the limit has its own.
            "SESSION_LIMIT": "off",
            **settings,
        }
    )


def _migrated_app(url: str) -> Flask:
    app = _test_app(url)
    with app.app_context():
        upgrade()
    return app


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a SQLite file built once by the real migrations, for each test to copy."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    app = _migrated_app(f"sqlite:///{path}")
    with app.app_context():
        db.engine.dispose()  # closing the last connection folds the WAL into the file
    return path


@pytest.fixture
def postgres_admin(postgres_cluster: str) -> Callable[[str], None]:
    """Return a function that runs one statement on the PostgreSQL server, outside transactions."""
    return lambda statement: _admin(postgres_cluster, statement)


@pytest.fixture(scope="session")
def sqlite_test_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return where each SQLite test's database lies: one place, so one app serves them all."""
    return tmp_path_factory.mktemp("database") / "test.sqlite3"


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """Return the URL of an empty, migrated database of the test's backend.

    SQLite gets a fresh copy of a file the migrations built once, always at the same place.
    PostgreSQL tests share one migrated database that is emptied after each test (TRUNCATE,
    ids restarted): much faster than a database per test.
    """
    if backend == "sqlite":
        path: Path = request.getfixturevalue("sqlite_test_file")
        # The last test's write-ahead log must not be replayed onto the fresh copy.
        for leftover in (
            path,
            path.with_name(path.name + "-wal"),
            path.with_name(path.name + "-shm"),
        ):
            leftover.unlink(missing_ok=True)
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    url = request.getfixturevalue("postgres_test_database")
    yield url
    _empty(url)


@pytest.fixture(scope="session")
def postgres_test_database(postgres_cluster: str) -> str:
    """Return the URL of the migrated database the PostgreSQL tests share."""
    _admin(postgres_cluster, "CREATE DATABASE scorekeeper_tests TEMPLATE template_scorekeeper")
    return f"{postgres_cluster}/scorekeeper_tests"


def _empty(url: str) -> None:
    """Delete every row of the app's tables and restart their ids.

    DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE makes new files for every
    table and index each time, which took about four times as long after each test.
    """
    import psycopg

    tables = [table.name for table in reversed(db.metadata.sorted_tables)]
    host, port = url.rsplit("@", 1)[1].split("/")[0].split(":")
    with psycopg.connect(
        host=host, port=int(port), user="scorekeeper", dbname="scorekeeper_tests", autocommit=True
    ) as connection:
        connection.execute("SET lock_timeout = '20s'")
        sequences = connection.execute(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
        ).fetchall()
        statements = [f'DELETE FROM "{table}"' for table in tables]
        statements += [f'ALTER SEQUENCE "{name}" RESTART' for (name,) in sequences]
        with connection.transaction():
            connection.execute("; ".join(statements))  # type: ignore[arg-type]


class KeyringClient(FlaskClient):
    """A test client that keeps the edit key of every session it starts, as an API client does.

    It sends that key with each request about the session or its games, unless the request
    brings its own Authorization header; a new client holds no keys, like a stranger's phone.
    """

    _SESSION_PATH = re.compile(r"/api/v1/sessions/([^/?]+)")
    _GAME_PATH = re.compile(r"/api/v1/games/(\d+)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keys: dict[str, str] = {}  # session id -> edit key
        self.game_sessions: dict[int, str] = {}  # game id -> session id

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        """Send the request with the session's key, then learn keys and games from the answer."""
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path")
        key = self._key_for(path) if isinstance(path, str) else None
        if key is not None:
            headers = Headers(kwargs.pop("headers", None) or {})
            headers.setdefault("Authorization", f"Bearer {key}")
            kwargs["headers"] = headers
        response = super().open(*args, **kwargs)
        if response.is_json:
            self._learn(response.get_json(silent=True))
        return response

    def _key_for(self, path: str) -> str | None:
        if match := self._SESSION_PATH.match(path):
            return self.keys.get(match.group(1))
        if match := self._GAME_PATH.match(path):
            session_id = self.game_sessions.get(int(match.group(1)))
            return self.keys.get(session_id) if session_id else None
        return None

    def _learn(self, body: object) -> None:
        if isinstance(body, list):
            for item in body:
                self._learn(item)
        if not isinstance(body, dict):
            return
        identity = body.get("id")
        if isinstance(identity, str) and isinstance(body.get("edit_key"), str):
            self.keys[identity] = body["edit_key"]
        if isinstance(identity, str) and isinstance(body.get("games"), list):
            for game in body["games"]:
                if isinstance(game, dict) and isinstance(game.get("id"), int):
                    self.game_sessions[game["id"]] = identity
        if isinstance(identity, int) and isinstance(body.get("session"), str):
            self.game_sessions[identity] = body["session"]
        for value in body.values():
            if isinstance(value, dict | list):
                self._learn(value)


@pytest.fixture(scope="session")
def test_apps() -> dict[str, Flask]:
    """Return the apps of the run, one per database URL: building one takes ~25 ms."""
    return {}


@pytest.fixture
def app(database_url: str, test_apps: dict[str, Flask]) -> Iterator[Flask]:
    """Return an app on a new database built by the real migrations (SQLite unless asked).

    The app object is shared by the tests of a backend (its database is new for each test);
    what a test changes in its settings is put back afterwards.
    """
    app = test_apps.get(database_url)
    if app is None:
        app = test_apps[database_url] = _test_app(database_url)
        app.test_client_class = KeyringClient
    settings = dict(app.config)
    yield app
    with app.app_context():
        db.engine.dispose()
    app.config.clear()
    app.config.update(settings)


@pytest.fixture
def app_with(database_url: str) -> Iterator[Callable[..., Flask]]:
    """Return a maker of the app with settings of its own (read at start) on the test's database."""
    made: list[Flask] = []

    def make(**settings: Any) -> Flask:
        made.append(_test_app(database_url, **settings))
        return made[-1]

    yield make
    for app in made:
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def app_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Flask]:
    """Return a maker of the app as the server makes it: its settings from the environment."""

    def make(**environment: str) -> Flask:
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite3'}")
        monkeypatch.setenv("SECRET_KEY", "env-test")
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        return create_app()

    return make


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client of the app."""
    return app.test_client()


@pytest.fixture
def access_log(tmp_path: Path) -> Path:
    """Return where the gunicorn workers of ``live_server`` log each answer (pid, request)."""
    return tmp_path / "access.log"


@pytest.fixture
def live_server(tmp_path: Path, database_url: str, backend: str, access_log: Path) -> Iterator[str]:
    """Run a real server of the test's own on a free loopback port on its database; yield its URL.

    On SQLite it is ``scorekeeper serve`` (one process); on PostgreSQL three gunicorn worker
    processes share the database, so nothing may rely on one process's memory; their access
    log names the worker process of each answer. A test that needs a server but neither its
    database nor a server of its own takes ``shared_server``: starting one costs seconds.
    """
    command = _server_command(backend, access_log)
    with _served(command, tmp_path, database_url, "live-server") as base:
        yield base


@pytest.fixture
def shared_server(backend: str, request: pytest.FixtureRequest) -> str:
    """Return the URL of the server this test worker shares with its other tests, of the backend.

    Such a server is started once per test worker (pytest-xdist's process, or the run without
    ``-n``) and backend, on a database of its own built by the migrations, and served as
    ``live_server`` serves: ``scorekeeper serve`` on SQLite, three gunicorn workers on PostgreSQL.
    Tests share it safely by starting sessions and groups of their own in it: what one test
    starts, another cannot reach without its keys or cookies. A test that needs the server on
    its own database (to read it with ``app`` or ``app_with``), settings of its own, or to stop
    the server, takes ``live_server`` instead.
    """
    return str(request.getfixturevalue(f"shared_{backend}_server"))


@pytest.fixture(scope="session")
def shared_sqlite_server(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[str]:
    """Run the worker's shared server on SQLite (see ``shared_server``); yield its URL."""
    folder = tmp_path_factory.mktemp("shared-sqlite-server")
    database = folder / "shared.sqlite3"
    shutil.copyfile(sqlite_template, database)
    command = _server_command("sqlite", folder / "access.log")
    with _served(command, folder, f"sqlite:///{database}", "shared-server") as base:
        yield _not_new(base)


@pytest.fixture(scope="session")
def shared_postgresql_server(
    tmp_path_factory: pytest.TempPathFactory, postgres_cluster: str
) -> Iterator[str]:
    """Run the worker's shared server on PostgreSQL (see ``shared_server``); yield its URL."""
    folder = tmp_path_factory.mktemp("shared-postgresql-server")
    _admin(postgres_cluster, "CREATE DATABASE shared_server TEMPLATE template_scorekeeper")
    command = _server_command("postgresql", folder / "access.log")
    with _served(command, folder, f"{postgres_cluster}/shared_server", "shared-server") as base:
        yield _not_new(base)


def _not_new(base: str) -> str:
    """Play a little on a shared server first; return its URL.

    Its first ids are then taken: a test that counts on the ids of a new database (player 2,
    game 1) fails every time, not only when another test happened to run before it.
    """
    names = ["Ann", "Bob", "Cid", "Dan"]
    status, session = send(base, "POST", "/api/v1/sessions", {"players": names})
    assert status == 201, session
    key, player = session["edit_key"], session["players"][0]["id"]
    status, game = send(base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    assert status == 201, game
    meld = {"player": player, "cards": "7♥ 7♦ 7♣"}
    status, answer = send(base, "POST", f"/api/v1/games/{game['id']}/melds", meld, key)
    assert status == 201, answer
    return base


def _server_command(backend: str, access_log: Path) -> list[str]:
    """Return the command that serves the app: ``scorekeeper serve`` on SQLite, else gunicorn.

    No trust port: the port after the server's would stay taken for as long as the server runs
    (the whole worker, for a shared one), and the trust page answers on the server's port too.
    """
    programs = Path(sys.executable).parent
    if backend == "sqlite":
        return [
            *(str(programs / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", "{port}"),
            *("--trust-port", "0"),
        ]
    return [
        *(str(programs / "gunicorn"), "--workers", "3", "--bind", "127.0.0.1:{port}"),
        *("--access-logfile", str(access_log), "--access-logformat", "%(p)s %(m)s %(U)s %(s)s"),
        "scorekeeper:create_app()",
    ]


def _free_port() -> int:
    """Return a loopback port that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def _served(command: list[str], folder: Path, database_url: str, secret: str) -> Iterator[str]:
    """Start a server on a free loopback port (``{port}`` in the command); yield its URL.

    The server is stopped afterwards. What it says on stderr goes to a file (a pipe nobody
    reads would fill up and stop a server that runs for the whole worker), shown if it stops
    or never listens.
    """
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret, "SESSION_LIMIT": "off"}
    log = folder / f"server-{port}.log"
    with log.open("w") as said:
        process = subprocess.Popen(
            [part.replace("{port}", str(port)) for part in command],
            cwd=folder,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=said,
            text=True,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            pytest.fail(f"the server stopped: {log.read_text()}")
        try:
            # An answer, not just a connection: gunicorn listens before its workers have loaded
            # the app, and on a busy machine a test's first page would wait too long for them.
            with urllib.request.urlopen(f"{base}/api/v1/openapi.json", timeout=5):
                break
        except urllib.error.HTTPError:
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                pytest.fail(f"the server did not start: {log.read_text()}")
            time.sleep(0.05)
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Launch Debian's Chromium once per test process: the page tests and the module tests share it.

    Playwright's sync API runs one driver per process: a second one started beside it refuses.
    """
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
