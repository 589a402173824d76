"""The live table as production serves it: gunicorn's worker processes on PostgreSQL.

The workers share no memory: a phone's entry reaches another phone only through the session's
version in the database, whichever worker answers each of them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone
from tests.browser.test_at_the_table import record
from tests.browser.test_phone_basics import start

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])

WORKERS = 3
# A bound for the wait, not a measurement: a watching phone asks every 2 s, then reloads.
SHOWN_WITHIN_MS = 8_000


@pytest.fixture
def served(tmp_path: Path, database_url: str) -> Iterator[tuple[str, Path]]:
    """Serve the app with gunicorn's sync workers on the test's database; yield URL and log.

    Each line of the access log names the worker process that answered.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "access.log"
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "--workers",
        str(WORKERS),
        "--bind",
        f"127.0.0.1:{port}",
        "--access-logfile",
        str(log),
        "--access-logformat",
        "%(p)s %(m)s %(U)s %(s)s",
        "scorekeeper:create_app()",
    ]
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "live-table",
        "SESSION_LIMIT": "off",
    }
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            pytest.fail(f"gunicorn stopped: {process.communicate()[1]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                process.communicate()
                pytest.fail("gunicorn did not start")
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", log
    process.terminate()
    process.communicate(timeout=20)


@pytest.fixture
def live_server(served: tuple[str, Path]) -> str:
    """Let the phones of this module open the app served by gunicorn."""
    return served[0]


def workers_that_answered(log: Path) -> set[str]:
    """Return the worker processes that answered the version questions and the entries."""
    lines = [line.split() for line in log.read_text().splitlines()]
    return {
        worker
        for worker, method, path, _status in lines
        if path.endswith("/version") or method == "POST"
    }


def test_a_watching_phone_shows_an_entry_and_its_undo_from_another_worker(
    new_phone: Callable[..., Phone], served: tuple[str, Path]
) -> None:
    recorder = new_phone("en")
    start(recorder, "Ann", "Bob")
    view_link = recorder.page.locator("a.share-link").last.get_attribute("href")
    assert view_link is not None
    watcher = new_phone("en")
    watcher.page.goto(view_link)
    expect(watcher.page.get_by_text("This page updates itself.")).to_be_visible()
    game = watcher.page.locator("#game")
    expect(game).not_to_contain_text("Q♣")

    # Nobody reloads the watcher by hand: it asks for the session's version and reloads itself.
    record(recorder, "Q♣", "K♣", "A♣")
    expect(game).to_contain_text("Q♣ K♣ A♣", timeout=SHOWN_WITHIN_MS)
    recorder.tap(recorder.page.get_by_role("button", name="Undo the last entry"))
    expect(game).not_to_contain_text("Q♣ K♣ A♣", timeout=SHOWN_WITHIN_MS)
    assert watcher.errors == []
    # Each request is a connection of its own to any worker: more than one process answered.
    assert len(workers_that_answered(served[1])) >= 2
