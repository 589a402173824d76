"""Talk JSON to a live server (``scorekeeper serve`` or gunicorn) over HTTP, as a client would.

Also a server process a test may kill, and a burst of writes whose acknowledged ones are checked.
"""

from __future__ import annotations

import http.client
import http.cookies
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest


def send(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    key: str = "",
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, Any]:
    """Send one JSON request with the session's key; return the status and the decoded answer.

    An error status is returned like any other, with its JSON body (None for an empty one).
    """
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", "Authorization": f"Bearer {key}", **(headers or {})}
    request = urllib.request.Request(base + path, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read() or b"null")


class Browser:
    """A browser's cookie over HTTP, for posting a live server's forms; redirects are not followed.

    ``at_once`` sends the same form from several threads with the same cookie, as a phone does
    when a tap is repeated before the first answer arrived.
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}

    def get(self, path: str) -> tuple[int, str, str]:
        """Return the status, the Location header and the page."""
        return self._send("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        """Send a form; return the status, the Location header and the page."""
        return self._send("POST", path, urllib.parse.urlencode(fields).encode())

    def at_once(self, path: str, fields: dict[str, str], times: int) -> list[tuple[int, str]]:
        """Send one form ``times`` times from as many threads, released together."""
        barrier = threading.Barrier(times)
        answers: list[tuple[int, str]] = [(0, "")] * times
        cookie = self._cookie()

        def send(index: int) -> None:
            barrier.wait()
            status, location, _ = self._send(
                "POST", path, urllib.parse.urlencode(fields).encode(), cookie
            )
            answers[index] = (status, location)

        threads = [threading.Thread(target=send, args=(index,)) for index in range(times)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        return answers

    def _cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def _send(
        self, method: str, path: str, body: bytes | None = None, cookie: str | None = None
    ) -> tuple[int, str, str]:
        address = urllib.parse.urlsplit(self.base)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        headers = {"Cookie": self._cookie() if cookie is None else cookie}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        if cookie is None:  # the threads of at_once leave the cookie as it was
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in http.cookies.SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        return response.status, response.headers.get("Location", ""), page


# --- a server killed mid-burst -----------------------------------------------------------------


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
        deadline = time.monotonic() + 60  # a busy machine: migrating a new file takes a while
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


def call(base: str, method: str, path: str, body: Any = None, key: str = "") -> tuple[int, Any]:
    """Send one JSON request; return the status and the answer (status 0: no answer)."""
    try:
        return send(base, method, path, body, key, timeout=10)
    except (OSError, ValueError, http.client.HTTPException):
        return 0, None  # refused, reset, or cut off mid-answer by the kill: not acknowledged


def api(base: str, method: str, path: str, body: Any = None, key: str = "") -> Any:
    """Send one request to a live server's API; return its answer, failing on an error."""
    status, answer = call(base, method, path, body, key)
    assert status < 400, (status, answer)
    return answer


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


# --- `scorekeeper serve` with options of its own ------------------------------------------------


def free_port() -> int:
    """Return a loopback port that is free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Served:
    """A ``scorekeeper serve`` process started with options; its port and its trust port."""

    process: subprocess.Popen[str]
    port: int
    trust_port: int
    database_url: str

    def stop(self) -> tuple[str, str]:
        """Stop the server; return what it printed and its errors."""
        self.process.terminate()
        try:
            return self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.communicate()


def serve_with(folder: Path, *options: str, seconds: float = 30) -> Served:
    """Start ``scorekeeper serve`` on loopback with options, a database of its own; wait for it."""
    port, trust_port = free_port(), free_port()
    command = [
        str(Path(sys.executable).with_name("scorekeeper")),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *options,
        *([] if "--trust-port" in options else ["--trust-port", str(trust_port)]),
    ]
    database_url = f"sqlite:///{folder / 'served.sqlite3'}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "served",
        "SESSION_LIMIT": "off",
        "PYTHONUNBUFFERED": "1",
    }
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    served = Served(process, port, trust_port, database_url)
    deadline = time.monotonic() + seconds
    while True:
        if process.poll() is not None:
            stdout, stderr = process.communicate()
            pytest.fail(f"the server stopped ({process.returncode}):\n{stdout}\n{stderr}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return served
        except OSError:
            if time.monotonic() > deadline:
                served.stop()
                pytest.fail("the server did not start")
            time.sleep(0.05)


def play_a_table(
    base: str, session: str, key: str, players: list[int], start_at: float
) -> list[int]:
    """Play a game at a table of an evening from its own process: deal, meld, settle.

    ``players`` are the ids of the table's players, the first going out. Waits until
    ``start_at`` (time.time()) so that the tables record at once; returns the statuses of its
    requests.
    """
    time.sleep(max(0.0, start_at - time.time()))
    statuses = []
    status, game = send(base, "POST", f"/api/v1/sessions/{session}/games", key=key)
    statuses.append(status)
    for player, cards in zip(players, ["Q♣ K♣ A♣", "4♥ 5♥ 6♥", "8♦ 8♠ 8♥"], strict=False):
        body = {"player": player, "cards": cards}
        status, _ = send(base, "POST", f"/api/v1/games/{game['id']}/melds", body, key)
        statuses.append(status)
    hands = {
        str(player): card for player, card in zip(players[1:], ["2♠", "3♦", "9♣"], strict=False)
    }
    finish = {"winner": players[0], "hands": hands, "romme": False}
    status, _ = send(base, "POST", f"/api/v1/games/{game['id']}/finish", finish, key)
    statuses.append(status)
    return statuses
