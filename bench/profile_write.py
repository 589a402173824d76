"""Show where the time of a recording request goes, through the app in this process.

Run from the project folder: ``.venv/bin/python bench/profile_write.py`` (``--profile`` adds
cProfile's top functions). It plays the bench's games (``load.GAME_SCRIPT``) through Flask's
test client on a fresh SQLite file, and through the reference's one INSERT with Flask-SQLAlchemy,
and prints the CPU milliseconds of each kind of request (this thread's CPU time: on the bench's
two cores a server's requests per second follow from it, and a wait for the disk costs none)
and its SQL statements.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqlalchemy as sa
from flask import Flask
from load import FINISH_HANDS, GAME_SCRIPT
from reference_app import create_sqlalchemy_reference_app

from scorekeeper import create_app
from scorekeeper.extensions import db


def _app(database: Path) -> Flask:
    from flask_migrate import upgrade

    # As the bench's servers run: one address starts every session.
    settings = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SESSION_LIMIT": "off"}
    app = create_app({**settings, "SECRET_KEY": "profile"})
    with app.app_context():
        upgrade()
    return app


def play(
    app: Flask, games: int, timings: dict[str, list[float]], current: list[str] | None = None
) -> None:
    """Play the bench's games through the test client, timing each request by its kind.

    ``current`` is set to the kind of each request just before it is sent (to tag its SQL).
    """
    client = app.test_client()
    body = {"players": ["Ann", "Bob", "Cid"], "target": 10**9}
    session = client.post("/api/v1/sessions", json=body).get_json()
    headers = {"Authorization": f"Bearer {session['edit_key']}"}
    players = [player["id"] for player in session["players"]]

    def call(kind: str, method: str, path: str, json: Any = None) -> Any:
        if current is not None:
            current[0] = kind
        started = time.thread_time()
        answer = client.open(path, method=method, json=json, headers=headers)
        timings[kind].append(time.thread_time() - started)
        assert answer.status_code < 300, answer.get_data(as_text=True)
        return answer.get_json()

    for _ in range(games):
        game = call("start", "POST", f"/api/v1/sessions/{session['id']}/games")
        path = f"/api/v1/games/{game['id']}"
        melds: list[int] = []
        for kind, seat, cards, onto in GAME_SCRIPT:
            if kind == "meld":
                meld = {"player": players[seat], "cards": cards}
                melds.append(call("meld", "POST", f"{path}/melds", meld)["id"])
            elif kind == "layoff":
                layoff = {"player": players[seat], "meld": melds[onto], "cards": cards}
                call("layoff", "POST", f"{path}/layoffs", layoff)
            else:
                call("undo", "POST", f"{path}/undo")
        hands = {str(players[seat]): cards for seat, cards in FINISH_HANDS.items()}
        finish = {"winner": players[0], "hands": hands, "romme": False}
        call("finish", "POST", f"{path}/finish", finish)


def reference(database: Path, requests: int) -> list[float]:
    """Time the reference's INSERT and COMMIT through Flask-SQLAlchemy, in this process."""
    client = create_sqlalchemy_reference_app(database).test_client()
    timings = []
    for _ in range(requests):
        started = time.thread_time()
        client.post("/insert", json={"cards": "2♠ 3♠ 4♠"})
        timings.append(time.thread_time() - started)
    return timings


def statements(app: Flask) -> dict[str, Counter[str]]:
    """Count the SQL statements of one game's requests, by kind of request."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    current = [""]

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen[current[0]][statement.split(None, 1)[0].upper()] += 1

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        play(app, 1, defaultdict(list), current)
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    return seen


def main() -> None:
    """Print milliseconds and statements per request of each kind, and optionally a profile."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-profile-") as folder:
        app = _app(Path(folder) / "ours.sqlite3")
        play(app, 10, defaultdict(list))  # warm up: caches, compiled statements
        timings: dict[str, list[float]] = defaultdict(list)
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        play(app, args.games, timings)
        if profiler:
            profiler.disable()
        counts = statements(app)
        reference(Path(folder) / "reference.sqlite3", 200)
        stack = reference(Path(folder) / "reference.sqlite3", args.games * 12)
    every = [value for values in timings.values() for value in values]
    stack_ms = statistics.mean(stack) * 1000
    print(f"{'request':<16} {'n':>6} {'CPU ms':>8} {'median':>8}  statements")
    for kind, values in sorted(timings.items()):
        said = ", ".join(f"{name} {number}" for name, number in sorted(counts[kind].items()))
        total = sum(counts[kind].values())
        print(
            f"{kind:<16} {len(values):>6} {statistics.mean(values) * 1000:>8.3f} "
            f"{statistics.median(values) * 1000:>8.3f}  {total} ({said})"
        )
    mean = statistics.mean(every) * 1000
    print(f"{'all (the load)':<16} {len(every):>6} {mean:>8.3f}")
    print(f"{'reference (FSA)':<16} {len(stack):>6} {stack_ms:>8.3f}")
    print(f"reference / ours in process: {stack_ms / mean:.2f}")
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
