"""Pulling the plug: a server killed mid-burst loses no acknowledged entry and corrupts nothing.

A real ``scorekeeper serve`` on a SQLite file takes writes from several threads; once enough
of them have been acknowledged with 201 it is killed with SIGKILL. Restarted on the same file,
the database must pass ``PRAGMA integrity_check``, and every acknowledged entry must be there
with the cards and the value it was acknowledged with, no card lying twice in a game.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.live import send

CYCLES = 3
THREADS = 6
# Melds and layoffs each thread tries in its game, in order: every one is legal when it comes.
SCRIPT = [
    ("meld", "2♠ 3♠ 4♠"),
    ("meld", "7♥ 7♦ 7♣"),
    ("layoff", "5♠"),
    ("meld", "J♦ Q♦ K♦"),
    ("layoff", "6♠"),
    ("meld", "9♣ 10♣ J♣"),
    ("layoff", "7♠"),
    ("meld", "4♥ 5♥ 6♥"),
]


class Server:
    """``scorekeeper serve`` as a subprocess on a given database, which the test may kill."""

    def __init__(self, folder: Path, database_url: str) -> None:
        self.folder = folder
        self.database_url = database_url
        self.process: subprocess.Popen[str] | None = None
        self.base = ""

    def start(self) -> str:
        """Start the server (which upgrades the database first) and wait until it listens."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = Path(sys.executable).with_name("scorekeeper")
        self.process = subprocess.Popen(
            [str(command), "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=self.folder,
            env={**os.environ, "DATABASE_URL": self.database_url},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None:
                pytest.fail("the server stopped while starting")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return self.base
            except OSError:
                if time.monotonic() > deadline:
                    self.kill()
                    pytest.fail("the server did not start")
                time.sleep(0.05)

    def kill(self) -> None:
        """Kill the server with SIGKILL: no cleanup, no checkpoint, no goodbye."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """Return a server on a new SQLite file, not yet started; killed at the end for sure."""
    running = Server(tmp_path, f"sqlite:///{tmp_path / 'crash.sqlite3'}")
    yield running
    running.kill()


def call(base: str, method: str, path: str, body: Any = None, key: str = "") -> tuple[int, Any]:
    """Send one JSON request; return the status and the answer (status 0: no answer)."""
    try:
        return send(base, method, path, body, key, timeout=10)
    except (OSError, ValueError, http.client.HTTPException):
        return 0, None  # refused, reset, or cut off mid-answer by the kill: not acknowledged


@dataclass
class Acknowledged:
    """What the server acknowledged with 201 before it was killed."""

    sessions: dict[str, str] = field(default_factory=dict)  # session id: edit key
    games: dict[int, str] = field(default_factory=dict)  # game id: session id
    entries: dict[int, tuple[int, str, list[str], int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        """Return how many 201s have been recorded."""
        with self.lock:
            return len(self.sessions) + len(self.games) + len(self.entries)


def burst(base: str, acknowledged: Acknowledged, stop: threading.Event) -> None:
    """Start sessions and games and record melds and layoffs until stopped or cut off."""
    while not stop.is_set():
        status, session = call(base, "POST", "/api/v1/sessions", {"players": ["Ann", "Bob"]})
        if status != 201:
            return
        key = session["edit_key"]
        with acknowledged.lock:
            acknowledged.sessions[session["id"]] = key
        players = [player["id"] for player in session["players"]]
        status, game = call(base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
        if status != 201:
            return
        with acknowledged.lock:
            acknowledged.games[game["id"]] = session["id"]
        first_meld = None
        for number, (kind, cards) in enumerate(SCRIPT):
            player = players[number % 2]
            if kind == "meld":
                path, body = "melds", {"player": player, "cards": cards}
            else:
                path, body = "layoffs", {"player": player, "meld": first_meld, "cards": cards}
            status, answer = call(base, "POST", f"/api/v1/games/{game['id']}/{path}", body, key)
            if status != 201:
                return
            first_meld = first_meld or answer["id"]
            entry = answer["entry"] if kind == "meld" else answer["id"]
            with acknowledged.lock:
                acknowledged.entries[entry] = (game["id"], kind, answer["cards"], answer["value"])


def check_survivors(base: str, acknowledged: Acknowledged) -> int:
    """Check every acknowledged session, game and entry on the restarted server; count them."""
    for session_id, key in acknowledged.sessions.items():
        status, _ = call(base, "GET", f"/api/v1/sessions/{session_id}", key=key)
        assert status == 200, f"session {session_id} was acknowledged and is gone"
    games: dict[int, Any] = {}
    for game_id, session_id in acknowledged.games.items():
        key = acknowledged.sessions[session_id]
        status, game = call(base, "GET", f"/api/v1/games/{game_id}", key=key)
        assert status == 200, f"game {game_id} was acknowledged and is gone"
        assert game["session"] == session_id
        games[game_id] = game
    for entry_id, (game_id, kind, cards, value) in acknowledged.entries.items():
        recorded = {entry["id"]: entry for entry in games[game_id]["entries"]}
        assert entry_id in recorded, f"{kind} {entry_id} ({cards}) was acknowledged and is gone"
        assert recorded[entry_id]["type"] == kind
        assert recorded[entry_id]["cards"] == cards
        assert recorded[entry_id]["value"] == value
    for game in games.values():
        lying = [card for meld in game["melds"] for card in meld["cards"]]
        assert len(lying) == len(set(lying)), f"a card lies twice in game {game['id']}"
        entered = [card for entry in game["entries"] for card in entry["cards"]]
        assert sorted(entered) == sorted(lying)
        assert sum(game["points"].values()) == sum(entry["value"] for entry in game["entries"])
    return len(acknowledged.sessions) + len(acknowledged.games) + len(acknowledged.entries)


def integrity(path: Path) -> str:
    """Run SQLite's own integrity check on the database file."""
    with sqlite3.connect(path) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


def test_a_server_killed_in_the_middle_of_a_burst_of_writes_loses_nothing_it_acknowledged(
    server: Server, tmp_path: Path
) -> None:
    rng = random.Random(20261122)
    everything = Acknowledged()
    checked = 0
    for cycle in range(CYCLES):
        base = server.start()
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
        # Everything acknowledged in every cycle so far is still there.
        checked = check_survivors(base, everything)
        server.kill()
    assert integrity(tmp_path / "crash.sqlite3") == "ok"
    print(f"\ncrash safety: {CYCLES} kills, {checked} acknowledged writes checked, 0 lost")
