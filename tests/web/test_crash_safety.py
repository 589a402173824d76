"""Pulling the plug: a server killed mid-burst loses no acknowledged entry and corrupts nothing.

A real ``scorekeeper serve`` on a SQLite file takes writes from several threads; once enough
of them have been acknowledged with 201 it is killed with SIGKILL. Restarted on the same file,
the database must pass ``PRAGMA integrity_check``, and every acknowledged entry must be there
with the cards and the value it was acknowledged with, no card lying twice in a game.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live import Acknowledged, Server, burst, check_survivors, integrity

CYCLES = 3
THREADS = 6


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """Return a server on a new SQLite file, not yet started; killed at the end for sure."""
    running = Server(tmp_path, f"sqlite:///{tmp_path / 'crash.sqlite3'}")
    yield running
    running.kill()


def test_a_server_killed_in_the_middle_of_a_burst_of_writes_loses_nothing_it_acknowledged(
    server: Server, tmp_path: Path
) -> None:
    rng = random.Random(20261122)
    everything = Acknowledged()
    checked = 0
    base = server.start()
    for cycle in range(CYCLES):
        acknowledged = Acknowledged()
        stop = threading.Event()
        threads = [
            threading.Thread(target=burst, args=(base, acknowledged, stop)) for _ in range(THREADS)
        ]
        for thread in threads:
            thread.start()
        kill_after = rng.randint(25, 60)  # 201s acknowledged before the plug is pulled
        deadline = time.monotonic() + 10
        while acknowledged.count() < kill_after and time.monotonic() < deadline:
            time.sleep(0.002)
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(15)
        assert acknowledged.count() >= kill_after, "the burst was too slow to reach the kill"
        with acknowledged.lock:
            everything.sessions.update(acknowledged.sessions)
            everything.games.update(acknowledged.games)
            everything.entries.update(acknowledged.entries)

        assert integrity(tmp_path / "crash.sqlite3") == "ok", f"corrupt after kill {cycle + 1}"
        base = server.start()
        # Everything acknowledged in every cycle so far is still there; the server restarted
        # for this check takes the next cycle's burst (a start costs seconds).
        checked = check_survivors(base, everything)
    server.kill()
    assert integrity(tmp_path / "crash.sqlite3") == "ok"
    print(f"\ncrash safety: {CYCLES} kills, {checked} acknowledged writes checked, 0 lost")
