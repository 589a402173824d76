"""Measure what a change costs: two or more checkouts side by side under the bench's loads.

Run from the project folder, each version a folder holding a checkout (its ``scorekeeper/``,
``templates/`` and ``migrations/``, e.g. from ``git archive``), put first on its server's
PYTHONPATH::

    .venv/bin/python bench/versions.py --versions before=/tmp/a after=/tmp/b --loads api phone

The rounds take the versions (and, for the API load, the reference through Flask-SQLAlchemy)
in a new order each, so a drift of a shared machine falls on all alike; the ratios are taken
round by round. ``--pages N`` also times the pages of a game in progress, the versions' servers
answering in turn. Prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run

from scorekeeper.cli import THREADS

# The reference's requests go through Flask-SQLAlchemy, as the held-out floor compares.
REFERENCE = "reference_sqlalchemy"


def main() -> None:
    """Run the rounds and print the medians, the ratios and the page timings."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", nargs="+", required=True, help="name=folder")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--loads", nargs="+", default=["api"], choices=["api", "phone"])
    parser.add_argument("--pages", type=int, default=0, help="page timing repeats (0: none)")
    args = parser.parse_args()
    versions = dict(item.split("=", 1) for item in args.versions)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-versions-") as folder:
        workdir = Path(folder)
        runs = load_rounds(versions, args.loads, args.rounds, args.seconds, workdir)
        summary: dict[str, Any] = {
            name: {key: statistics.median(run[key] for run in done) for key in ("rps", "cpu_ms")}
            for name, done in runs.items()
        }
        if "api" in args.loads:
            for version in versions:
                ratios = [
                    ours["rps"] / theirs["rps"]
                    for ours, theirs in zip(runs[f"{version}:api"], runs[REFERENCE], strict=True)
                ]
                summary[f"{version}:api / {REFERENCE}"] = {
                    "median": round(statistics.median(ratios), 2),
                    "rounds": [round(ratio, 2) for ratio in ratios],
                }
        if args.pages:
            summary["pages (median ms)"] = page_timing(versions, workdir, args.pages)
    print(json.dumps(summary, indent=1))


def load_rounds(
    versions: dict[str, str], loads: list[str], rounds: int, seconds: float, workdir: Path
) -> dict[str, list[dict[str, float]]]:
    """Run each version under each load once a round, the order changing from round to round."""
    names = [f"{version}:{load}" for load in loads for version in versions]
    if "api" in loads:
        names.append(REFERENCE)
    orders = list(itertools.permutations(names))
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    for number in range(rounds):
        for name in orders[number * 7 % len(orders)]:
            port = run.free_port()
            if name == REFERENCE:
                command = [sys.executable, str(run.ROOT / "bench" / "reference_app.py")]
                command += ["--port", str(port), "--database", str(workdir / f"ref-{number}.db")]
                command += ["--threads", str(THREADS), "--through", "sqlalchemy"]
                with run.server(command, port, {}) as process:
                    runs[name].append(run.measured(process, port, seconds, reference=True))
            else:
                version, load = name.split(":")
                url = f"sqlite:///{workdir / f'{version}-{load}-{number}.sqlite3'}"
                env = {"DATABASE_URL": url, "PYTHONPATH": versions[version]}
                extra = {"phone": True} if load == "phone" else {}
                with run.server(run.serve_ours(port, url), port, env) as process:
                    runs[name].append(run.measured(process, port, seconds, **extra))
            print(number, name, {k: round(v, 2) for k, v in runs[name][-1].items()}, flush=True)
    return runs


def page_timing(versions: dict[str, str], workdir: Path, repeats: int) -> dict[str, Any]:
    """Time the pages of a game in progress on each version, the versions answering in turn."""
    tables = {}
    with contextlib.ExitStack() as stack:
        for version, folder in versions.items():
            url = f"sqlite:///{workdir / f'pages-{version}.sqlite3'}"
            run.upgrade(url)
            port = run.free_port()
            env = {"DATABASE_URL": url, "PYTHONPATH": folder}
            stack.enter_context(run.server(run.serve_ours(port, url), port, env))
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            session_id, game_id, key = run._treppenromme_game(connection, run.FINISHED_BEFORE)
            cookie = run._open_edit_link(connection, session_id, key)
            paths = {
                "session page": f"/sessions/{session_id}",
                "finish page": f"/games/{game_id}/finish",
                "history": f"/sessions/{session_id}/history",
                "GET game (API)": f"/api/v1/games/{game_id}",
            }
            tables[version] = (connection, key, cookie, paths)
        samples: dict[str, dict[str, list[float]]] = {version: {} for version in versions}
        for _ in range(repeats):
            for version, (connection, key, cookie, paths) in tables.items():
                for name, path in paths.items():
                    started = time.perf_counter()
                    run._request(connection, "GET", path, key=key, cookie=cookie)
                    samples[version].setdefault(name, []).append(time.perf_counter() - started)
    return {
        version: {name: round(statistics.median(times) * 1000, 2) for name, times in by.items()}
        for version, by in samples.items()
    }


if __name__ == "__main__":
    main()
