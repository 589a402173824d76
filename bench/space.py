"""What sessions cost in space: 5,000 started through the API on a fresh SQLite database.

Run from the project folder: ``.venv/bin/python bench/space.py`` (a few seconds); it writes
``docs/performance-space.md``. Sessions are started as a script would start them (two players,
no game, each its own random keys), then as tables start them (four players, the first game
dealt), each kind on a database of its own.
"""

from __future__ import annotations

import argparse
import platform
import sqlite3
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fill(folder: Path, count: int, players: int, first_game: bool) -> dict[str, float]:
    """Start ``count`` sessions on a new database in ``folder``; return its size and the time."""
    from flask_migrate import upgrade

    from scorekeeper import create_app, services
    from scorekeeper.extensions import db

    path = folder / f"space-{players}-{first_game}.sqlite3"
    url = f"sqlite:///{path}"
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    names = ["Annemarie", "Bartholomäus", "Christiane", "Dorothea"][:players]
    with app.app_context():
        upgrade()
        empty = path.stat().st_size
        started = time.perf_counter()
        for _ in range(count):
            services.create_session(names, start_first_game=first_game)
        seconds = time.perf_counter() - started
        db.session.remove()
        db.engine.dispose()
    with sqlite3.connect(path) as connection:
        connection.execute("VACUUM")
    size = path.stat().st_size
    return {"empty": empty, "size": size, "seconds": seconds}


def main() -> None:
    """Measure and write the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "performance-space.md")
    args = parser.parse_args()
    rows = []
    per_session: list[float] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-space-") as folder:
        for label, players, first_game in (
            ("two players, no game (as a script starts them)", 2, False),
            ("four players, the first game dealt (as a table starts them)", 4, True),
        ):
            figures = fill(Path(folder), args.count, players, first_game)
            grown = figures["size"] - figures["empty"]
            per_session.append(grown / args.count)
            rows.append(
                f"| {label} | {args.count} | {figures['size'] / 2**20:.2f} MiB | "
                f"{grown / args.count:.0f} | {figures['seconds']:.1f} |"
            )
    lines = [
        "# Performance: what sessions cost in space",
        "",
        f"Written by `.venv/bin/python bench/space.py` on "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
        f"{platform.python_version()}: {args.count} sessions started through the services "
        "on a fresh SQLite database (after VACUUM), each with its own random keys.",
        "",
        "| sessions | count | database file | bytes per session | seconds to start them |",
        "|---|---|---|---|---|",
        *rows,
        "",
        "A session that never gets a game is removed a day later, when the next session starts "
        "(scorekeeper/services/sessions.py), and one client address may start 30 sessions a "
        "minute (SESSION_LIMIT, the default): a script can keep at most 43,200 empty sessions "
        f"alive per address and process, about {43_200 * per_session[0] / 2**20:.0f} MiB.",
        "",
    ]
    args.output.write_text("\n".join(lines), encoding="utf-8")
    print(args.output.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
