"""Time the API's answers that build the most JSON, in process, for one or more checkouts.

Run from the project folder::

    .venv/bin/python bench/answers.py --versions before=/tmp/a after=/tmp/b --rounds 6

Each version is a folder holding a checkout (its ``scorekeeper/``, ``templates/`` and
``migrations/``, e.g. from ``git archive``). Each round runs every version in a process of its
own (the versions taking turns, in a new order each round), with the checkout first on its
``PYTHONPATH``: it plays a session of three through Flask's test client on a fresh SQLite file
(``--games`` finished games, then an open game of ``--entries`` entries with corrections, so
the game's answer holds an audit trail) and times each kind of request by this thread's CPU
time, median of ``--repeats``. Without ``--versions`` it times the checkout it runs from once.
Prints the medians of the rounds' medians in ms, and every round's, as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SUITS = "♠♥♦♣"


def measure(games: int, entries: int, repeats: int) -> dict[str, float]:
    """Play the session in this process and return each request's median CPU ms."""
    from flask_migrate import upgrade

    from scorekeeper import create_app

    with tempfile.TemporaryDirectory(prefix="scorekeeper-answers-") as folder:
        database = Path(folder) / "answers.sqlite3"
        settings = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "SESSION_LIMIT": "off"}
        app = create_app({**settings, "SECRET_KEY": "answers"})
        with app.app_context():
            upgrade()
        client = app.test_client()
        body = {"players": ["Ann", "Bob", "Cid"], "target": 10**9}
        session = client.post("/api/v1/sessions", json=body).get_json()
        headers = {"Authorization": f"Bearer {session['edit_key']}"}
        ann, bob, cid = (player["id"] for player in session["players"])

        def call(method: str, path: str, body: Any = None) -> Any:
            answer = client.open(path, method=method, json=body, headers=headers)
            assert answer.status_code < 300, answer.get_data(as_text=True)
            return answer.get_json()

        session_path = f"/api/v1/sessions/{session['id']}"
        for _ in range(games):
            game = call("POST", f"{session_path}/games")
            path = f"/api/v1/games/{game['id']}"
            call("POST", f"{path}/melds", {"player": ann, "cards": "Q♣ K♣ A♣"})
            call("POST", f"{path}/melds", {"player": bob, "melds": ["5♠ 5♥ 5♦", "7♥ 8♥ 9♥"]})
            hands = {str(bob): "2♦ 3♠", str(cid): "K♥"}
            call("POST", f"{path}/finish", {"winner": ann, "hands": hands, "romme": False})
        game = call("POST", f"{session_path}/games")
        path = f"/api/v1/games/{game['id']}"
        # Sets of three from 2 up, then the fourth card of each laid off and put to another
        # player afterwards: each correction is a line of the game's audit trail.
        ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        sets = min(entries, len(ranks))
        melds = []
        for rank in ranks[:sets]:
            cards = " ".join(f"{rank}{suit}" for suit in SUITS[:3])
            melds.append(call("POST", f"{path}/melds", {"player": ann, "cards": cards})["id"])
        laid_off = min(entries - sets, sets - 1)
        for rank, meld in zip(ranks[:laid_off], melds, strict=False):
            layoff = {"player": bob, "meld": meld, "cards": rank + SUITS[3]}
            laid = call("POST", f"{path}/layoffs", layoff)
            call("PATCH", f"{path}/entries/{laid['id']}", {"player": cid})
        last = ranks[sets - 1]
        check = {"player": ann, "cards": last + SUITS[3], "onto": melds[sets - 1]}
        preview = {"winner": ann, "hands": {str(bob): 5, str(cid): 7}, "romme": False}
        kinds = {
            "GET game (open, entries and audit)": ("GET", path, None),
            "GET session": ("GET", session_path, None),
            "GET sheet": ("GET", f"{session_path}/sheet", None),
            "POST game check": ("POST", f"{path}/check", check),
            "POST settlement (preview)": ("POST", f"{path}/settlement", preview),
            "GET variants": ("GET", "/api/v1/variants", None),
            "POST check": ("POST", "/api/v1/check", {"cards": "Q♣ K♣ A♣ 2♣"}),
        }
        timings: dict[str, list[float]] = defaultdict(list)
        order = list(kinds)
        for _ in range(repeats + 5):
            random.shuffle(order)
            for kind in order:
                method, where, sent = kinds[kind]
                started = time.thread_time()
                call(method, where, sent)
                timings[kind].append(time.thread_time() - started)
        # The first five of each warm the caches up.
        return {kind: statistics.median(values[5:]) * 1000 for kind, values in timings.items()}


def main() -> None:
    """Time the answers of each version, round by round, and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", nargs="*", default=[], help="name=folder")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--entries", type=int, default=24)
    parser.add_argument("--repeats", type=int, default=60)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one or not args.versions:
        print(json.dumps(measure(args.games, args.entries, args.repeats)))
        return
    versions = dict(item.split("=", 1) for item in args.versions)
    rounds: dict[str, list[dict[str, float]]] = defaultdict(list)
    names = list(versions)
    for number in range(args.rounds):
        for name in names[number % len(names) :] + names[: number % len(names)]:
            environment = {**os.environ, "PYTHONPATH": versions[name]}
            command = [sys.executable, str(Path(__file__).resolve()), "--one"]
            command += ["--games", str(args.games), "--entries", str(args.entries)]
            command += ["--repeats", str(args.repeats)]
            done = subprocess.run(
                command, env=environment, cwd=versions[name], capture_output=True, check=True
            )
            rounds[name].append(json.loads(done.stdout.decode().strip().splitlines()[-1]))
    kinds = list(rounds[names[0]][0])
    summary = {
        kind: {
            name: {
                "median": round(statistics.median(run[kind] for run in rounds[name]), 3),
                "rounds": [round(run[kind], 3) for run in rounds[name]],
            }
            for name in names
        }
        for kind in kinds
    }
    print(json.dumps(summary, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
