"""The history page of a session of 10, 400 and 2,000 games: what one answer costs.

Run from the project folder: ``.venv/bin/python bench/history.py`` (about a minute). It fills a
fresh SQLite database with one session of four players for each ``--games`` size (finished
games of two melds and a settlement each, written as ``bench/looking_back.py`` writes them),
then asks through the app in process (the test client) for the history's first page (the
latest games), one of its earlier pages (``?before=`` the middle game) and, for comparison, the
score sheet, which stays whole: the SQL statements each answer sends, the median time of
``--runs`` answers and the answer's bytes. It prints a Markdown table and writes it into
``docs/performance.md`` as its own section (``bench/run.py`` keeps that section when it rewrites
the file); ``--output -`` only prints.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from looking_back import seed  # the bench's sessions

from scorekeeper import create_app
from scorekeeper.extensions import db

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "docs" / "performance.md"
# The section's title: bench/run.py keeps the section under it when it rewrites the report.
TITLE = "## The history page by the length of the session"


def main() -> None:
    """Seed, measure, print the table and write it into the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, nargs="+", default=[10, 400, 2000])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--output", default=str(REPORT), help="the report, or - to only print")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-history-") as folder:
        url = f"sqlite:///{Path(folder) / 'history.sqlite3'}"
        app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade()
        client: FlaskClient = app.test_client()
        for games in args.games:
            [(public_id, key)] = seed(app, 1, games).sessions
            assert client.get(f"/sessions/{public_id}?key={key}").status_code == 302
            asked = [
                ("history, the latest games", f"/sessions/{public_id}/history"),
                (
                    "history, an earlier page",
                    f"/sessions/{public_id}/history?before={games // 2 + 1}",
                ),
                ("score sheet (whole, for comparison)", f"/sessions/{public_id}/sheet"),
            ]
            for label, path in asked:
                call = functools.partial(client.get, path)
                statements, wall, cpu, size = measure(app, call, args.runs)
                rows.append(
                    f"| {games} | {label} | {statements} | {wall:.1f} | {cpu:.1f} | {size:,} |"
                )
        with app.app_context():
            db.engine.dispose()
    sizes = " ".join(str(games) for games in args.games)
    command = f".venv/bin/python bench/history.py --games {sizes} --runs {args.runs}"
    lines = [
        TITLE,
        "",
        f"Written by `{command}` on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, SQLite: one session of "
        "four players per size, its games finished with two melds and a settlement each, read "
        "through the app in process (the test client); the median of "
        f"{args.runs} answers after one to warm up, the median CPU time of this process per "
        "answer (the machine is shared: CPU time is what another load does not change) and "
        "the answer's bytes (not compressed).",
        "",
        "| games | answer | SQL statements | median ms | CPU ms | bytes |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    table = "\n".join(lines)
    print(table)
    if args.output != "-":
        write_section(Path(args.output), table)


def measure(app: Flask, call: Callable[[], Any], runs: int) -> tuple[int, float, float, int]:
    """Return one answer's statements, the median ms and CPU ms of ``runs``, and its bytes."""
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    answer = call()  # warm the caches (templates, compiled statements) once
    assert answer.status_code == 200, answer.status_code
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        answer = call()
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        call().close()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    return len(statements), statistics.median(walls), statistics.median(cpus), len(answer.data)


def write_section(path: Path, section: str) -> None:
    """Put the section into the report in place of its earlier version, or at its end."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    start = text.find(TITLE)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(TITLE))
        rest = "\n\n" + text[end + 1 :] if end >= 0 else ""
        text = text[:start] + section.rstrip("\n") + rest
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
