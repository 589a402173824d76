"""Fixtures: an app on a fresh SQLite file, upgraded through the real migrations."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """Return an app whose database is a new SQLite file built by the migrations."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """Return a test client of the app."""
    return app.test_client()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """Run ``scorekeeper serve`` on a free loopback port with its own SQLite file; yield its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}"}
    command = Path(sys.executable).with_name("scorekeeper")
    process = subprocess.Popen(
        [str(command), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        if process.poll() is not None:
            pytest.fail(f"the server stopped: {process.communicate()[1]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                process.communicate()
                pytest.fail("the server did not start")
            time.sleep(0.05)
    yield base
    process.terminate()
    process.communicate(timeout=10)
