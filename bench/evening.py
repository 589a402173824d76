"""A club evening under load: 20 tables of 4 recording, 60 phones watching, one board.

Run from the project folder: ``.venv/bin/python bench/evening.py [--seconds 30] [--pace 1]``.
An evening of 80 players is started through the API (tables of 4, games enough for the whole
run); each table's client records the bench's game (``load.GAME_SCRIPT``: melds, layoffs, an
undo, the finish) through the API with its table's edit key, one request every ``--pace``
seconds; three phones per table watch its session as live.js does (``load.watch``), and one
board asks for the evening's version as the board page does and reads the board again when it
changed. Once on the SQLite default (``scorekeeper serve``), once on PostgreSQL with gunicorn's
threaded workers (``run.POSTGRES_WORKERS``). Printed: the p99 of a record, and the board's delay
from a game settled (its finish answered) to the board's answer showing it (the winner's games
won counted up in the ranking). Nothing is written; the figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # the clients, the watching phones and the measured time
import run  # the bench's servers and measurements

from scorekeeper.keys import SessionKeys
from scorekeeper.web.evenings import BOARD_SECONDS

TABLES = 20
SEATS = 4
# An evening seats at most 60 players (rules/evenings.py): the 20 tables are two evenings of 40.
EVENINGS = 2
WATCHERS_PER_TABLE = 3
# A row of the board's ranking: the player, then (after the series' totals) the games won.
_ROW = re.compile(
    r'<th scope="row"><bdi>([^<]*)</bdi></th>.*?<td class="num">(\d+)</td></tr>', re.S
)
ENGLISH = {"Accept-Language": "en"}


@dataclass
class Settled:
    """The games settled at the tables and what the board showed, to tell the board's delay."""

    # (the winner, their games won after it, when its finish was answered)
    games: list[tuple[str, int, float]] = field(default_factory=list)
    # (when the board's answer arrived, each player's games won in it)
    boards: list[tuple[float, dict[str, int]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def delays(self) -> tuple[list[float], int]:
        """Return each game's delay until a board showed it, and how many no board showed."""
        delays, unseen = [], 0
        for winner, won, at in self.games:
            shown = [
                answered
                for answered, wins in self.boards
                if answered >= at and wins.get(winner, 0) >= won
            ]
            if shown:
                delays.append(min(shown) - at)
            else:
                unseen += 1
        return delays, unseen


def start_evening(port: int, number: int) -> dict[str, Any]:
    """Start an evening of 40 players at 10 tables of 4; return it as its creator has it."""
    client = load.Client(port, load.Results())
    tables = range(1, TABLES // EVENINGS + 1)
    players = [f"E{number}T{table:02}P{seat}" for table in tables for seat in range(1, SEATS + 1)]
    body = {
        "name": f"Bench evening {number}",
        "players": players,
        "series": 1,
        "games_per_series": 100,
        "table_size": SEATS,
        "seating": "standing",
    }
    evening = client.call("POST", "/api/v1/evenings", body, expect=201)
    if evening is None or "edit_key" not in evening:
        raise SystemExit(f"the evening could not be started: {evening}")
    return dict(evening)


def record_table(
    port: int,
    table: dict[str, Any],
    results: load.Results,
    settled: Settled,
    window: load.Window,
    pace: float,
    on_board: bool,
) -> None:
    """Record the bench's games at one table through the API, a request every ``pace`` s."""
    client = load.Client(port, results)
    client.headers["Authorization"] = f"Bearer {table['edit_key']}"
    names = table["players"]
    players = table["player_ids"]
    window.ready()
    won = 0
    next_at = time.monotonic() + random.uniform(0, pace)

    def paced() -> bool:
        nonlocal next_at
        time.sleep(max(0.0, next_at - time.monotonic()))
        next_at += pace
        return window.open()

    while paced():
        game = client.call("POST", f"/api/v1/sessions/{table['session']}/games", expect=201)
        if game is None or "id" not in game:
            return
        melds: list[int] = []
        for kind, seat, cards, onto in load.GAME_SCRIPT:
            if not paced():
                return
            if kind == "meld":
                meld = {"player": players[seat], "cards": cards}
                made = client.call("POST", f"/api/v1/games/{game['id']}/melds", meld, expect=201)
                melds.append(made["id"] if made else 0)
            elif kind == "layoff":
                layoff = {"player": players[seat], "meld": melds[onto], "cards": cards}
                client.call("POST", f"/api/v1/games/{game['id']}/layoffs", layoff, expect=201)
            else:
                client.call("POST", f"/api/v1/games/{game['id']}/undo")
        if not paced():
            return
        hands = {str(players[seat]): cards for seat, cards in load.FINISH_HANDS.items()}
        hands[str(players[3])] = "Q♥"
        finish = {"winner": players[0], "hands": hands, "romme": False}
        answer = client.call("POST", f"/api/v1/games/{game['id']}/finish", finish)
        if on_board and answer is not None and "error" not in answer:
            won += 1
            with settled.lock:
                settled.games.append((names[0], won, time.perf_counter()))


def watch_board(
    port: int, evening: dict[str, Any], results: load.Results, settled: Settled, window: load.Window
) -> None:
    """Ask for the evening's version as the board does; read the board when it changed."""
    board = load.Phone(port)
    path = f"/evenings/{evening['id']}"
    opened = board.send("GET", f"{path}/board?key={evening['view_key']}", headers=ENGLISH)[0]
    seen = "v"
    window.ready()
    if opened != 302:
        return
    while window.open():
        started = time.perf_counter()
        status, _, body = board.send(
            "GET", f"{path}/version", headers={"If-None-Match": f'"{seen}"'}
        )
        results.add(time.perf_counter() - started, status in (200, 304), status)
        if status == 200:
            status, _, page = board.send("GET", f"{path}/board", headers=ENGLISH)
            answered = time.perf_counter()
            results.add(answered - started, status == 200, status)
            if status == 200:
                seen = "v" + str(json.loads(body)["version"])
                wins = {name: int(won) for name, won in _ROW.findall(page)}
                with settled.lock:
                    settled.boards.append((answered, wins))
        time.sleep(max(0.0, BOARD_SECONDS - (time.perf_counter() - started)))


def evening_load(port: int, pid: int, seconds: float, pace: float) -> dict[str, float]:
    """Run the evening's load against the server ``pid`` for ``seconds``; return its figures.

    The server's CPU over the measured time tells what the app costs from what waiting for
    the machine's cores (shared with the load and anything else running) adds.
    """
    evenings = [start_evening(port, number) for number in range(1, EVENINGS + 1)]
    # Each table with whether the board shows it (the board shows the first evening).
    tables: list[tuple[dict[str, Any], bool]] = []
    for evening in evenings:
        client = load.Client(port, load.Results())
        client.headers["Authorization"] = f"Bearer {evening['edit_key']}"
        seated = client.call("GET", f"/api/v1/evenings/{evening['id']}")["series"][0]["tables"]
        tables += [(table, evening is evenings[0]) for table in seated]
    # Each session's players by their seat (the first deals first), as the API numbers them;
    # asked one at a time: a session's answer is a long read, of which few run at once.
    for table, _ in tables:
        client = load.Client(port, load.Results())
        client.headers["Authorization"] = f"Bearer {table['edit_key']}"
        session = client.call("GET", f"/api/v1/sessions/{table['session']}")
        by_name = {player["name"]: player["id"] for player in session["players"]}
        table["player_ids"] = [by_name[name] for name in table["players"]]
    records, watching, boards = load.Results(), load.Results(), load.Results()
    settled = Settled()
    cpu = [0.0]

    def started() -> None:
        cpu[0] = run.cpu_seconds(pid)

    window = load.Window(len(tables) * (1 + WATCHERS_PER_TABLE) + 2, seconds, started)
    threads = [
        threading.Thread(
            target=record_table,
            args=(port, table, records, settled, window, pace, on_board),
            daemon=True,
        )
        for table, on_board in tables
    ]
    for table, _ in tables:
        session = {
            "id": table["session"],
            "view_key": SessionKeys.from_edit_key(table["edit_key"]).view,
        }
        threads += [
            threading.Thread(
                target=load.watch,
                args=(port, session, watching, window, load.WATCH_SECONDS),
                daemon=True,
            )
            for _ in range(WATCHERS_PER_TABLE)
        ]
    threads.append(
        threading.Thread(
            target=watch_board, args=(port, evenings[0], boards, settled, window), daemon=True
        )
    )
    for thread in threads:
        thread.start()
    window.ready()
    for thread in threads:
        thread.join(seconds + 60)
    used = run.cpu_seconds(pid) - cpu[0]
    delays, unseen = settled.delays()
    answered = len(watching.latencies) + len(boards.latencies)
    recorded = run.summarize(records, seconds)
    watched = run.summarize(watching, seconds)
    return {
        "tables": len(tables),
        "records": recorded["requests"],
        "record_failures": recorded["failures"],
        "record_p50": recorded["p50"],
        "record_p99": recorded["p99"],
        "watch_requests": watched["requests"],
        "watch_failures": watched["failures"],
        "watch_p99": watched["p99"],
        "games_settled": len(settled.games),
        "board_reads": len(settled.boards),
        "board_unseen": unseen,
        "board_delay_median": run.percentile(delays or [0.0], 0.5),
        "board_delay_max": max(delays or [0.0]),
        "server_cpu_share_of_a_core": used / seconds,
        "server_cpu_ms_per_answer": used * 1000 / max(1, len(records.latencies) + answered),
    }


def on_sqlite(workdir: Path, seconds: float, pace: float) -> dict[str, float]:
    """Serve the app as ``scorekeeper serve`` does on a fresh SQLite file and run the load."""
    url = f"sqlite:///{workdir / 'evening.sqlite3'}"
    port = run.free_port()
    with run.server(run.serve_ours(port, url), port, {"DATABASE_URL": url}) as process:
        run.warm_up(port)
        return evening_load(port, process.pid, seconds, pace)


def on_postgres(workdir: Path, seconds: float, pace: float) -> dict[str, float] | None:
    """Serve the app with gunicorn's threaded workers on PostgreSQL and run the load."""
    with run.postgres(workdir) as url:
        if url is None:
            return None
        run.upgrade(url)
        port = run.free_port()
        workers = run.POSTGRES_WORKERS["3 workers x 4 threads"]
        command = [str(run.VENV_BIN / "gunicorn"), *workers, "--bind", f"127.0.0.1:{port}"]
        served = [*command, "scorekeeper:create_app()"]
        with run.server(served, port, {"DATABASE_URL": url}) as process:
            run.warm_up(port)
            return evening_load(port, process.pid, seconds, pace)


def main() -> None:
    """Run the evening on SQLite and on PostgreSQL; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's records")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.platform()}")
    # The machine may be shared: what else ran says how far the figures are the app's own.
    print(f"{os.cpu_count()} cores, load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="scorekeeper-evening-") as folder:
        figures = {"SQLite, scorekeeper serve": on_sqlite(Path(folder), args.seconds, args.pace)}
        on_pg = on_postgres(Path(folder), args.seconds, args.pace)
        if on_pg is not None:
            figures["PostgreSQL, gunicorn 3 workers x 4 threads"] = on_pg
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    for name, each in figures.items():
        print(name)
        for key, value in each.items():
            print(f"  {key}: {value:.3f}" if isinstance(value, float) else f"  {key}: {value}")


if __name__ == "__main__":
    main()
