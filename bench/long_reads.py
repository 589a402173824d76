"""Another table's meld while one view link reads a session of 2,000 games as fast as it can.

Run from the project folder::

    .venv/bin/python bench/long_reads.py [--versions before=/tmp/a after=.] [--servers serve]

For each version (a folder holding a checkout, put first on its server's PYTHONPATH; this one
by default) and each server (``serve``: ``scorekeeper serve`` with its 8 threads, cheroot
serving HTTPS and plain HTTP on one port, asked over plain HTTP; ``waitress``: ``scorekeeper
serve --http``; ``gthread``: gunicorn, 2 workers of 4 threads; ``sync``: gunicorn, 3 sync
workers), a fresh SQLite database gets one session of ``--games`` finished games (written as
``bench/looking_back.py`` writes them) and, through the API, another table's session. Then, for
``--seconds`` each, one load after the other:

- ``quiet``: nothing but the other table;
- ``export burst``: 32 clients ask ``GET /api/v1/sessions/<id>/export`` with the long
  session's view key at the same moment, the other table records a meld 0.2 s later, and
  again once all are answered;
- ``sheet burst``: 64 clients ask the score sheet page with the view key's cookie, likewise;
- ``exports`` and ``sheets``: the same clients ask again as soon as they are answered, whatever
  the answer (a hostile script, which does not wait for ``Retry-After``), while the other table
  records a meld every 0.1 s.

The other table records through the API (sets of three, a new game after thirteen; the game's
end and start are not timed); each meld's time from sending to its answer is taken. It prints
a Markdown table and writes it into ``docs/performance.md`` as its own section (``bench/run.py``
keeps it); ``--output -`` only prints. A quoted load name (``"export burst"``) picks loads.
A version given as ``name=folder@waitress,sync`` is served by those servers alone. A meld not
answered within the client's 30 s counts as failed, with 30 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import KeptAlive
from looking_back import seed  # the bench's sessions
from run import free_port, percentile, wait_until_up

from scorekeeper import create_app, services
from scorekeeper.cli import THREADS

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "docs" / "performance.md"
# The section's title: bench/run.py keeps the section under it when it rewrites the report.
TITLE = "## Another table's meld while one view link reads a long session"
PYTHON = sys.executable
SERVERS = {
    # The default server: cheroot, HTTPS and plain HTTP on one port (asked over plain HTTP here).
    "serve": ["-m", "scorekeeper.cli", "serve", "--threads", str(THREADS), "--trust-port", "0"],
    "waitress": ["-m", "scorekeeper.cli", "serve", "--threads", str(THREADS), "--http"],
    "gthread": ["-m", "gunicorn", "--workers", "2", "--threads", "4"],
    "sync": ["-m", "gunicorn", "--workers", "3", "--worker-class", "sync"],
}
SERVER_WORDS = {
    "serve": f"`scorekeeper serve` (cheroot, {THREADS} threads)",
    "waitress": f"`scorekeeper serve --http` (waitress, {THREADS} threads)",
    "gthread": "gunicorn, 2 workers × 4 threads",
    "sync": "gunicorn, 3 sync workers",
}
LOADS = {"quiet": 0, "export burst": 32, "sheet burst": 64, "exports": 32, "sheets": 64}
MELD_EVERY = 0.1
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SETS = [f"{rank}♠ {rank}♥ {rank}♦" for rank in RANKS]


def main() -> None:
    """Measure each version on each server and write the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", nargs="+", default=[f"this={ROOT}"], help="name=folder")
    parser.add_argument("--servers", nargs="+", default=["serve"], choices=list(SERVERS))
    parser.add_argument("--loads", nargs="+", default=list(LOADS), choices=list(LOADS))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--output", default=str(REPORT), help="the report, or - to only print")
    args = parser.parse_args()
    versions = dict(item.split("=", 1) for item in args.versions)
    rows = []
    for name, spec in versions.items():
        # name=folder@waitress,sync serves that version by those servers alone.
        folder, _, only = spec.partition("@")
        for server in only.split(",") if only else args.servers:
            with tempfile.TemporaryDirectory(prefix="scorekeeper-long-reads-") as workdir:
                for load, figures in measure(Path(folder), server, args, Path(workdir)):
                    rows.append({"version": name, "server": server, "load": load, **figures})
                    print(json.dumps(rows[-1]), flush=True)
    table = report(rows, args)
    print(table)
    if args.output != "-":
        write_section(Path(args.output), table)


def measure(
    folder: Path, server: str, args: argparse.Namespace, workdir: Path
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Seed a database, serve it from a checkout and yield each load's figures."""
    url = f"sqlite:///{workdir / 'long.sqlite3'}"
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": "bench",
        "SESSION_LIMIT": "off",
        "PYTHONPATH": str(folder.resolve()),
    }
    subprocess.run(
        [PYTHON, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        cwd=folder,
        env=environment,
        check=True,
        capture_output=True,
    )
    public_id, view_key = seed_long_session(url, args.games)
    port = free_port()
    command = [PYTHON, *SERVERS[server]]
    if server in ("serve", "waitress"):
        command += ["--host", "127.0.0.1", "--port", str(port)]
    else:
        command += ["--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"]
    with serving(command, folder, environment, port):
        table = OtherTable(port)
        for load in args.loads:
            yield load, run_load(port, table, load, public_id, view_key, args.seconds)


def seed_long_session(url: str, games: int) -> tuple[str, str]:
    """Write the long session with this checkout's code; return its id and a view key."""
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    [(public_id, _edit)] = seed(app, 1, games).sessions
    with app.app_context():
        keys = services.replace_keys(public_id)
    return public_id, keys.view


@contextlib.contextmanager
def serving(
    command: list[str], folder: Path, environment: dict[str, str], port: int
) -> Iterator[None]:
    """Run the server from the checkout for the duration of a block."""
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until_up(port, process)
        yield
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class OtherTable(KeptAlive):
    """Another table recording through the API: its melds are timed."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        body = {"players": ["Cid", "Dan"], "rules": {"end": {"target": 10**6}}}
        answer = self.json("POST", "/api/v1/sessions", body)
        self.session = answer["id"]
        self.player = answer["players"][0]["id"]
        self.headers = {"Authorization": f"Bearer {answer['edit_key']}"}
        self.game = 0
        self.next = len(SETS)

    def json(self, method: str, path: str, body: Any = None) -> Any:
        """Send an untimed request, again until it is answered (a busy server may time out)."""
        headers = {"Content-Type": "application/json", **getattr(self, "headers", {})}
        payload = None if body is None else json.dumps(body).encode()
        for _ in range(3):
            answer = self.exchange(method, path, payload, headers)
            if answer is not None and answer[0].status < 500:
                return json.loads(answer[1] or b"null")
        raise RuntimeError(f"{method} {path}: no answer")

    def meld(self) -> tuple[float, int]:
        """Record the next meld; return its seconds and status (a new game first when due)."""
        if self.next == len(SETS):
            started = time.perf_counter()
            try:
                if self.game:
                    self.json("POST", f"/api/v1/games/{self.game}/finish", {"winner": None})
                self.game = self.json("POST", f"/api/v1/sessions/{self.session}/games")["id"]
            except (RuntimeError, KeyError):
                return time.perf_counter() - started, 0  # no new game: counted as failed
            self.next = 0
        body = json.dumps({"player": self.player, "cards": SETS[self.next]}).encode()
        self.next += 1
        # Sent again once on a connection the server closed while idle (gunicorn's after 2 s):
        # the key makes the second sending the same request.
        headers = {
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
            **self.headers,
        }
        started = time.perf_counter()
        answer = self.exchange("POST", f"/api/v1/games/{self.game}/melds", body, headers)
        if answer is None and time.perf_counter() - started < 1:
            answer = self.exchange("POST", f"/api/v1/games/{self.game}/melds", body, headers)
        took = time.perf_counter() - started
        status = answer[0].status if answer is not None else 0
        if status != 201:
            self.next = len(SETS)  # a meld maybe applied after all: go on in a new game
        return took, status


def reader(
    port: int, load: str, public_id: str, view_key: str
) -> tuple[KeptAlive, str, dict[str, str]]:
    """Return a client of the long session ready to ask: its connection, address and headers."""
    client = KeptAlive(port)
    if load.startswith("export"):
        path = f"/api/v1/sessions/{public_id}/export"
        return client, path, {"Authorization": f"Bearer {view_key}"}
    opened = client.exchange("GET", f"/sessions/{public_id}?key={view_key}", None, {})
    cookie = opened[0].getheader("Set-Cookie", "") if opened else ""
    return client, f"/sessions/{public_id}/sheet", {"Cookie": cookie.split(";", 1)[0]}


class Reads:
    """The long reads' answers: how many of each status, and the time of each one answered."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.answered: list[float] = []

    def ask(self, client: KeptAlive, path: str, headers: dict[str, str]) -> None:
        started = time.perf_counter()
        answer = client.exchange("GET", path, None, headers)
        took = time.perf_counter() - started
        with self.lock:
            self.statuses[answer[0].status if answer else 0] += 1
            if answer and answer[0].status == 200:
                self.answered.append(took)


def once(
    together: threading.Barrier, reads: Reads, client: KeptAlive, path: str, headers: dict[str, str]
) -> None:
    """Ask once, at the moment every other reader of the burst asks."""
    together.wait()
    reads.ask(client, path, headers)


def run_load(
    port: int, table: OtherTable, load: str, public_id: str, view_key: str, seconds: float
) -> dict[str, Any]:
    """Run one load for some seconds while the other table records; return the figures.

    A load that asks without pause keeps its readers asking while the table records a meld
    every MELD_EVERY seconds; a burst sends one request from every reader at once, then the
    table's meld 0.2 s later, and again once all are answered.
    """
    reads = Reads()
    readers = [reader(port, load, public_id, view_key) for _ in range(LOADS[load])]
    melds: list[float] = []
    failed = 0
    statuses: Counter[int] = Counter()  # the melds' answers
    deadline = time.monotonic() + seconds
    if load.endswith("burst"):
        while time.monotonic() < deadline:
            together = threading.Barrier(len(readers) + 1)
            threads = [
                threading.Thread(target=once, args=(together, reads, *one), daemon=True)
                for one in readers
            ]
            for thread in threads:
                thread.start()
            together.wait()
            time.sleep(0.2)
            took, status = table.meld()
            melds.append(took)
            failed += status != 201
            statuses[status] += 1
            for thread in threads:
                thread.join(300)
    else:
        stop = threading.Event()

        def again(client: KeptAlive, path: str, headers: dict[str, str]) -> None:
            while not stop.is_set():
                reads.ask(client, path, headers)

        threads = [threading.Thread(target=again, args=one, daemon=True) for one in readers]
        for thread in threads:
            thread.start()
        time.sleep(1.0 if threads else 0)  # the readers' first requests are in
        while time.monotonic() < deadline:
            took, status = table.meld()
            melds.append(took)
            failed += status != 201
            statuses[status] += 1
            time.sleep(MELD_EVERY)
        stop.set()
        for thread in threads:
            thread.join(300)
    return {
        "melds": len(melds),
        "melds_failed": failed,
        "meld_statuses": dict(sorted(statuses.items())),
        "meld_p50": statistics.median(melds) * 1000,
        "meld_p95": percentile(melds, 0.95) * 1000,
        "meld_max": max(melds) * 1000,
        "reads": dict(sorted(reads.statuses.items())),
        "read_p50": statistics.median(reads.answered) * 1000 if reads.answered else None,
    }


def report(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    """Return the section: how it was run, and a row per version, server and load."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = " ".join([".venv/bin/python bench/long_reads.py", *sys.argv[1:]])
    lines = [
        TITLE,
        "",
        f"Written by `{command}` on {when}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, SQLite: "
        f"one session of {args.games} finished games of four players (two melds and a "
        "settlement each) read through one view link, while another table records a meld "
        f"every {MELD_EVERY:g} s through the API for {args.seconds:g} s a load. The readers "
        "ask again as soon as they are answered, refused or not. A meld's time is from "
        "sending it to its answer.",
        "",
        "| version | server | load | melds | meld p50 ms | meld p95 ms | meld max ms | "
        "long reads answered | refused (429) | long read p50 ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        reads = row["reads"]
        answered = reads.get(200, 0)
        refused = reads.get(429, 0)
        others = {status: count for status, count in reads.items() if status not in (200, 429)}
        refused_text = f"{refused} (and {others})" if others else str(refused)
        read_p50 = "" if row["read_p50"] is None else f"{row['read_p50']:.0f}"
        failed = f" ({row['melds_failed']} failed)" if row["melds_failed"] else ""
        lines.append(
            f"| {row['version']} | {SERVER_WORDS[row['server']]} | {row['load']} | "
            f"{row['melds']}{failed} | {row['meld_p50']:.0f} | {row['meld_p95']:.0f} | "
            f"**{row['meld_max']:.0f}** | {answered if row['load'] != 'quiet' else ''} | "
            f"{refused_text if row['load'] != 'quiet' else ''} | {read_p50} |"
        )
    return "\n".join(lines)


def write_section(path: Path, table: str) -> None:
    """Put the section into the report, in place of its earlier figures."""
    text = path.read_text(encoding="utf-8")
    start = text.find(TITLE)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + table + "\n"
    else:
        end = text.find("\n## ", start + len(TITLE))
        rest = text[end:] if end >= 0 else "\n"
        text = text[:start] + table + "\n" + rest
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
