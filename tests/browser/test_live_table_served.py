"""The live table as production serves it: gunicorn's worker processes on PostgreSQL.

The workers share no memory: a phone's entry reaches another phone only through the session's
version in the database, whichever worker answers each of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import Phone, entry_and_undo_show_by_themselves, start, watching

# On PostgreSQL the conftest's live server is three gunicorn workers that log who answered.
pytestmark = pytest.mark.parametrize("backend", ["postgresql"])


def workers_that_answered(log: Path) -> set[str]:
    """Return the worker processes that answered the version questions and the entries."""
    lines = [line.split() for line in log.read_text().splitlines()]
    return {
        worker
        for worker, method, path, _status in lines
        if path.endswith("/version") or method == "POST"
    }


def test_a_watching_phone_shows_an_entry_and_its_undo_from_another_worker(
    new_phone: Callable[..., Phone], access_log: Path
) -> None:
    recorder = new_phone("en")
    start(recorder, "Ann", "Bob")
    watcher = new_phone("en")
    watching(recorder, watcher)
    entry_and_undo_show_by_themselves(recorder, watcher)
    # Each request is a connection of its own to any worker: more than one process answered.
    assert len(workers_that_answered(access_log)) >= 2
