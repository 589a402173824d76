"""A load generator: simulated tables that post to a server on loopback for a fixed time."""

from __future__ import annotations

import http.client
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

# One game as a table records it: (kind, player seat, cards, index of the meld for layoffs).
GAME_SCRIPT: list[tuple[str, int, str, int]] = [
    ("meld", 0, "2♠ 3♠ 4♠", -1),
    ("meld", 1, "7♥ 7♦ 7♣", -1),
    ("layoff", 2, "5♠", 0),
    ("meld", 0, "J♦ Q♦ K♦", -1),
    ("layoff", 1, "7♠", 1),
    ("undo", 1, "", -1),
    ("layoff", 1, "7♠", 1),
    ("layoff", 2, "A♦", 2),
    ("meld", 2, "9♣ 10♣ J♣", -1),
    ("layoff", 0, "6♠", 0),
]
FINISH_HANDS = {1: "A♥ 8♥", 2: "K♣"}


@dataclass
class Results:
    """Latencies in seconds per request, and failures."""

    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, ok: bool) -> None:
        """Record one request."""
        with self.lock:
            self.latencies.append(seconds)
            if not ok:
                self.failures += 1


class Client:
    """A keep-alive HTTP connection that times each request."""

    def __init__(self, port: int, results: Results) -> None:
        self.port = port
        self.results = results
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        # Sent with every request once a session has answered with an edit key.
        self.headers: dict[str, str] = {}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        """Send one request and return the decoded JSON answer (None for no body)."""
        payload = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if payload is not None:
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.results.add(time.perf_counter() - started, False)
            return None
        self.results.add(time.perf_counter() - started, response.status == expect)
        return json.loads(data) if data else None


def play_table(port: int, results: Results, stop_at: float) -> None:
    """Play games through the scorekeeper's API until the time is up."""
    client = Client(port, results)
    session = client.call(
        "POST",
        "/api/v1/sessions",
        {"players": ["Ann", "Bob", "Cid"], "target": 10**9},
        expect=201,
    )
    if session is None:
        return
    client.headers["Authorization"] = f"Bearer {session['edit_key']}"
    players = [player["id"] for player in session["players"]]
    while time.monotonic() < stop_at:
        game = client.call("POST", f"/api/v1/sessions/{session['id']}/games", expect=201)
        if game is None:
            return
        melds: list[int] = []
        for kind, seat, cards, onto in GAME_SCRIPT:
            if time.monotonic() >= stop_at:
                return
            if kind == "meld":
                answer = client.call(
                    "POST",
                    f"/api/v1/games/{game['id']}/melds",
                    {"player": players[seat], "cards": cards},
                    expect=201,
                )
                melds.append(answer["id"] if answer else 0)
            elif kind == "layoff":
                client.call(
                    "POST",
                    f"/api/v1/games/{game['id']}/layoffs",
                    {"player": players[seat], "meld": melds[onto], "cards": cards},
                    expect=201,
                )
            else:
                client.call("POST", f"/api/v1/games/{game['id']}/undo")
        hands = {str(players[seat]): cards for seat, cards in FINISH_HANDS.items()}
        client.call(
            "POST",
            f"/api/v1/games/{game['id']}/finish",
            {"winner": players[0], "hands": hands, "romme": False},
        )


def insert_loop(port: int, results: Results, stop_at: float) -> None:
    """Post to the reference app's one endpoint until the time is up."""
    client = Client(port, results)
    while time.monotonic() < stop_at:
        client.call("POST", "/insert", {"cards": "2♠ 3♠ 4♠"}, expect=201)


def run_load(port: int, tables: int, seconds: float, *, reference: bool) -> Results:
    """Run ``tables`` simulated tables at once against a server and return the results."""
    results = Results()
    stop_at = time.monotonic() + seconds
    target = insert_loop if reference else play_table
    threads = [
        threading.Thread(target=target, args=(port, results, stop_at), daemon=True)
        for _ in range(tables)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    return results
