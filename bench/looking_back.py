"""Looking back on a group's load: 100 sessions of 20 games, and what reading one of them costs.

Run from the project folder: ``.venv/bin/python bench/looking_back.py`` (about half a minute).
It fills a fresh SQLite database with ``--sessions`` sessions of four players and ``--games``
finished games each (two melds and a settlement per game, written as the services write them),
then asks for the score sheet, the chart, the CSV and the export of one session in the middle,
through the app in process: the SQL statements each answer sends and the median time of
``--runs`` answers. It prints a Markdown table and appends it to
``docs/performance-looking-back.md``. Another row is one more entry in ``REQUESTS``.
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

from scorekeeper import create_app, rules, services
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys
from scorekeeper.models import Entry, Game, GameSession, SettlementLine, TableCard

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "docs" / "performance-looking-back.md"
NAMES = ["Annemarie", "Bartholomäus", "Christiane", "Dorothea"]
# Each game: the winner melds a sequence, the next player a set; the others' hands are counted.
MELDS = ("Q♣ K♣ A♣", "7♥ 7♦ 7♠")


class Seeded:
    """The sessions written: each one's public id and edit key, in the order they were started.

    ``group`` is the public id and edit key of the group they all belong to.
    """

    def __init__(self) -> None:
        self.sessions: list[tuple[str, str]] = []
        self.group: tuple[str, str] = ("", "")


def seed(app: Flask, sessions: int, games: int) -> Seeded:
    """Write ``sessions`` Treppenrommé sessions of ``games`` finished games each, in one group."""
    seeded = Seeded()
    with app.app_context():
        group_keys = SessionKeys.new()
        group = services.create_group("Donnerstagsrunde", group_keys)
        seeded.group = (group.public_id, group_keys.edit)
        for number in range(sessions):
            keys = SessionKeys.new()
            session = services.create_session(NAMES, target=10**6, keys=keys, group=group.id)
            # The games are written straight into the tables, as the use cases would book them.
            _play(db.session.get(GameSession, session.id), number, games)
            db.session.commit()
            seeded.sessions.append((session.public_id, keys.edit))
    return seeded


def _play(session: Any, offset: int, games: int) -> None:
    """Add finished games to a session as the services would have booked them."""
    players = session.players
    banked = dict.fromkeys((player.id for player in players), 0)
    for number in range(1, games + 1):
        winner = players[(number + offset) % len(players)]
        other = players[(number + offset + 1) % len(players)]
        game = Game(
            number=number,
            dealer=players[(number - 1) % len(players)],
            status="finished",
            winner=winner,
            romme=False,
            ended_at=datetime.now(UTC),
        )
        session.games.append(game)
        db.session.flush()
        table: rules.Table[int] = rules.Table()
        melded = dict.fromkeys(banked, 0)
        for position, (player, text) in enumerate(zip((winner, other), MELDS, strict=True), 1):
            meld = table.meld(position, rules.parse_cards(text))
            melded[player.id] += meld.value
            cards = zip(meld.cards, meld.values, strict=True)
            db.session.add(
                Entry(
                    game_id=game.id,
                    position=position,
                    kind="meld",
                    player=player,
                    meld_kind=meld.kind.value,
                    value=meld.value,
                    cards=[
                        TableCard(game_id=game.id, card=card.code, position=at, value=value)
                        for at, (card, value) in enumerate(cards)
                    ],
                )
            )
        hands = {
            player.id: 5 + (number * 7 + player.id) % 40 for player in players if player != winner
        }
        for player in players:
            gain = sum(hands.values()) if player == winner else 0
            db.session.add(
                SettlementLine(
                    game_id=game.id,
                    player_id=player.id,
                    hand_points=hands.get(player.id),
                    gain=gain,
                    meld_points=melded[player.id],
                )
            )
            banked[player.id] += gain + melded[player.id]
    for player in players:
        player.banked = banked[player.id]


# What is measured: a label, the address, and whether it is the API (the key as a header).
REQUESTS: list[tuple[str, str, bool]] = [
    ("score sheet page", "/sessions/{id}/sheet", False),
    ("chart (SVG)", "/sessions/{id}/chart.svg", False),
    ("CSV download", "/sessions/{id}/sheet.csv", False),
    ("export download (JSON)", "/sessions/{id}/export.json", False),
    ("session page (with the chart)", "/sessions/{id}", False),
    ("GET /api/v1/sessions/<id>/sheet", "/api/v1/sessions/{id}/sheet", True),
    ("GET /api/v1/sessions/<id>/sheet.csv", "/api/v1/sessions/{id}/sheet.csv", True),
    ("GET /api/v1/sessions/<id>/export", "/api/v1/sessions/{id}/export", True),
    # The group of all the sessions: its statistics, as a page and in JSON (the group's key).
    ("group page (statistics)", "/groups/{group}", False),
    ("GET /api/v1/groups/<id>/statistics", "/api/v1/groups/{group}/statistics", True),
]


def measure(app: Flask, call: Callable[[], Any], runs: int) -> tuple[int, float, int]:
    """Return the statements one answer sends, the median milliseconds, and its size in bytes."""
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
    size = len(answer.get_data())
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call().close()
        times.append((time.perf_counter() - started) * 1000)
    return len(statements), statistics.median(times), size


def main() -> None:
    """Seed, measure, print the table and append it to the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--output", type=Path, default=REPORT)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-looking-back-") as folder:
        url = f"sqlite:///{Path(folder) / 'group.sqlite3'}"
        app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade()
        started = time.perf_counter()
        seeded = seed(app, args.sessions, args.games)
        seeding = time.perf_counter() - started
        public_id, key = seeded.sessions[len(seeded.sessions) // 2]
        client: FlaskClient = app.test_client()
        assert client.get(f"/sessions/{public_id}?key={key}").status_code == 302
        group, group_key = seeded.group
        assert client.get(f"/groups/{group}?key={group_key}").status_code == 302
        rows = []
        for label, address, api in REQUESTS:
            path = address.format(id=public_id, group=group)
            bearer = group_key if "{group}" in address else key
            headers = {"Authorization": f"Bearer {bearer}"} if api else {}
            call = functools.partial(client.get, path, headers=headers)
            statements, median, size = measure(app, call, args.runs)
            rows.append(f"| {label} | {statements} | {median:.1f} | {size / 1024:.1f} |")
        with app.app_context():
            db.engine.dispose()
    command = "`.venv/bin/python bench/looking_back.py`"
    options = f"--sessions {args.sessions} --games {args.games} --runs {args.runs}"
    lines = [
        f"## {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"{command} ({options}) on {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"SQLite: {args.sessions} sessions of four players with {args.games} finished games "
        f"each, seeded in {seeding:.1f} s; one session in the middle read through the app in "
        f"process (the test client), the median of {args.runs} answers after one to warm up.",
        "",
        "| answer | SQL statements | median ms | KB |",
        "|---|---|---|---|",
        *rows,
        "",
    ]
    table = "\n".join(lines)
    print(table)
    if not args.output.exists():
        args.output.write_text(
            "# Performance: looking back (the score sheet, the chart, the files)\n\n"
            "Each run of `bench/looking_back.py` appends its figures here. The statements do "
            "not grow with the games or the sessions "
            "(`tests/web/test_sheet_query_counts.py` checks "
            "it for the sheet, the chart and the files).\n\n",
            encoding="utf-8",
        )
    with args.output.open("a", encoding="utf-8") as report:
        report.write(table + "\n")


if __name__ == "__main__":
    main()
