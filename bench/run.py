"""Benchmark the scorekeeper against a reference app and write docs/performance.md.

Run from the project folder: ``.venv/bin/python bench/run.py`` (``--quick`` for a short run).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import itertools
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import WATCH_SECONDS, Phone, Results, run_load

from scorekeeper.cli import THREADS

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
TABLES = 50
# Each server first gets this much of the same load, unmeasured: gunicorn accepts connections
# before its workers have loaded the app (its first answers took 2 s), and any server's first
# requests fill its caches.
WARM_UP_SECONDS = 3.0
# The throughput run's servers; the references say how they reach SQLite (--through).
THROUGHPUT_SERVERS = {"ours": "", "reference": "sqlite3", "reference_sqlalchemy": "sqlalchemy"}
# Phones that watch each table's session, asking as live.js does: 150 for the 50 tables.
WATCHERS_PER_TABLE = 3
# The loads run against a fresh server of ours each round: the tables recording through the API
# ("ours"), recording through the session page as a phone does, and recording while phones watch.
OUR_LOADS: dict[str, dict[str, Any]] = {
    "ours": {},
    "phone": {"phone": True},
    "watched": {"watchers_per_table": WATCHERS_PER_TABLE},
}
# gunicorn on PostgreSQL: threaded workers, and the default sync workers (one request at a
# time, no kept-alive connections), which the README recommends behind a reverse proxy.
POSTGRES_WORKERS = {
    "3 workers x 4 threads": ["--workers", "3", "--threads", "4"],
    "3 sync workers": ["--workers", "3", "--worker-class", "sync"],
}


def free_port() -> int:
    """Return a free TCP port on loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Wait until a server accepts connections on a port, or fail."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped with exit code {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


@contextmanager
def server(command: list[str], port: int, env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """Run a server process for the duration of a block."""
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        # The load starts a session per simulated table at once, from one address.
        env={**os.environ, "SESSION_LIMIT": "off", **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until_up(port, process)
        yield process
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def peak_rss_mib(pid: int) -> float:
    """Return the peak resident memory of a process and its children, in MiB."""
    total = 0
    for candidate in [pid, *_children(pid)]:
        try:
            status = Path(f"/proc/{candidate}/status").read_text()
        except OSError:
            continue
        match = re.search(r"VmHWM:\s+(\d+) kB", status)
        if match:
            total += int(match.group(1))
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user and system) a process and its children have used, in seconds.

    The children are gunicorn's workers; a worker that ended meanwhile is not counted.
    """
    total = 0.0
    for candidate in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{candidate}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def percentile(values: list[float], share: float) -> float:
    """Return a percentile (share between 0 and 1) of a list of numbers."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def summarize(results: Results, seconds: float) -> dict[str, float]:
    """Return throughput and latency percentiles (ms) of one load run."""
    latencies = results.latencies or [0.0]
    return {
        "requests": len(results.latencies),
        "failures": results.failures,
        "rps": len(results.latencies) / seconds,
        "p50": percentile(latencies, 0.50) * 1000,
        "p95": percentile(latencies, 0.95) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
    }


def serve_ours(port: int, database_url: str, threads: int = THREADS) -> list[str]:
    """Return the command that serves the scorekeeper in production mode."""
    command = [str(VENV_BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    return [*command, "--threads", str(threads)]


def throughput(
    rounds: int, seconds: float, workdir: Path, threads: int = THREADS
) -> dict[str, Any]:
    """Alternate load rounds against the scorekeeper and the two reference apps; take medians.

    The ratios are taken round by round, then their median: the machine's speed drifts from
    round to round, and the runs of one round are side by side in time. Each round runs the
    servers in the next of their six orders, so every pair of servers takes both orders (3 to 2
    in five rounds) and a drift within rounds does not favour either of a pair. Our other two
    loads (the phones' taps, the watched tables) run on fresh servers of ours in the same round
    (``_round_order``).
    """
    runs: dict[str, list[dict[str, float]]] = {
        name: [] for name in [*THROUGHPUT_SERVERS, *OUR_LOADS]
    }
    peak = 0.0

    def run_ours(name: str, round_number: int) -> None:
        nonlocal peak
        env = {"DATABASE_URL": f"sqlite:///{workdir / f'{name}-{round_number}.sqlite3'}"}
        port = free_port()
        with server(serve_ours(port, env["DATABASE_URL"], threads), port, env) as process:
            runs[name].append(measured(process, port, seconds, **OUR_LOADS[name]))
            if name == "ours":
                peak = max(peak, peak_rss_mib(process.pid))

    def run_reference(name: str, round_number: int) -> None:
        port = free_port()
        database = workdir / f"{name}-{round_number}.sqlite3"
        command = [sys.executable, str(ROOT / "bench" / "reference_app.py")]
        command += ["--port", str(port), "--database", str(database), "--threads", str(threads)]
        command += ["--through", THROUGHPUT_SERVERS[name]]
        with server(command, port, {}) as process:
            runs[name].append(measured(process, port, seconds, reference=True))
        if not (runs[name][-1]["rps"] and runs[name][-1]["p99"]):
            raise SystemExit(f"The {name} app answered nothing in a round: no ratio to report.")

    orders = list(itertools.permutations(THROUGHPUT_SERVERS))
    for round_number in range(rounds):
        for name in _round_order(orders[round_number % len(orders)], round_number):
            if name in OUR_LOADS:
                run_ours(name, round_number)
            else:
                run_reference(name, round_number)

    def ratios(mine: str, theirs: str) -> dict[str, list[float]]:
        return {
            key: [a[key] / b[key] for a, b in zip(runs[mine], runs[theirs], strict=True)]
            for key in ("rps", "p99")
        }

    return {
        **{name: _medians(figures) for name, figures in runs.items()},
        "ratios": ratios("ours", "reference"),
        "stack_ratios": ratios("reference_sqlalchemy", "reference"),
        "ours_to_stack_ratios": ratios("ours", "reference_sqlalchemy"),
        "phone_ratios": ratios("phone", "reference"),
        "watched_ratios": ratios("watched", "ours"),
        "peak_rss_mib": peak,
    }


def _round_order(servers: tuple[str, ...], round_number: int) -> list[str]:
    """Return a round's runs: the servers in their order, our watched tables beside our tables.

    The watched run comes after ours in even rounds and before it in odd ones; the phones' run
    comes last in even rounds and first in odd ones.
    """
    order: list[str] = []
    for name in servers:
        if name == "ours":
            order += ["ours", "watched"] if round_number % 2 == 0 else ["watched", "ours"]
        else:
            order.append(name)
    return [*order, "phone"] if round_number % 2 == 0 else ["phone", *order]


def measured(
    process: subprocess.Popen[bytes], port: int, seconds: float, **load: Any
) -> dict[str, float]:
    """Run a load against a server; add the server's CPU milliseconds per answer.

    The CPU time is the server's over every answer it gave: a tap is two (the form's POST and
    the page), and a watched run's answers include the watching phones'.
    """
    warm_up(port, **load)
    before = [0.0]

    def started() -> None:
        before[0] = cpu_seconds(process.pid)

    results = run_load(port, TABLES, seconds, started=started, **load)
    used = cpu_seconds(process.pid) - before[0]
    figures = summarize(results, seconds)
    answers = figures["requests"] * (2 if load.get("phone") else 1)
    if load.get("watchers_per_table"):
        assert results.watching is not None
        watching = summarize(results.watching, seconds)
        answers += watching["requests"]
        figures |= {f"watch_{key}": value for key, value in watching.items()}
        figures["watch_unchanged"] = results.watching.statuses[304]
    figures["cpu_ms"] = used * 1000 / answers if answers else 0.0
    return figures


def warm_up(port: int, **load: Any) -> None:
    """Run the load for a few seconds without measuring it."""
    run_load(port, TABLES, WARM_UP_SECONDS, **load)


def _ratio_line(name: str, ratios: dict[str, list[float]]) -> str:
    """Return a report line with the median throughput and p99 ratios and their rounds."""
    rps, p99 = (statistics.median(ratios[key]) for key in ("rps", "p99"))
    return (
        f"- {name}: throughput **{rps:.2f}** (rounds {_listed(ratios['rps'])}), "
        f"p99 {p99:.2f} (rounds {_listed(ratios['p99'])})"
    )


def _listed(ratios: list[float]) -> str:
    return ", ".join(f"{ratio:.2f}" for ratio in ratios)


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def postgres_throughput(
    rounds: int, seconds: float, workdir: Path, repeats: int
) -> dict[str, dict[str, Any]] | None:
    """Run the same loads on PostgreSQL with each set of gunicorn workers, if the tools are here.

    For each set of workers: the unchanged answers one at a time, then ``rounds`` rounds of
    the tables recording through the API, recording while phones watch, and the phones' taps,
    the loads' order turned around in every other round (medians, and ratios round by round).
    """
    gunicorn = VENV_BIN / "gunicorn"
    if not gunicorn.exists():
        return None
    with postgres(workdir) as url:
        if url is None:
            return None
        upgrade(url)
        results: dict[str, dict[str, Any]] = {}
        for name, workers in POSTGRES_WORKERS.items():
            port = free_port()
            address = f"127.0.0.1:{port}"
            command = [str(gunicorn), *workers, "--bind", address, "scorekeeper:create_app()"]
            with server(command, port, {"DATABASE_URL": url}) as process:
                # The unchanged answers first, on a server not yet filled by the loads.
                warm_up(port)
                unchanged = unchanged_answers(port, process, repeats)
                runs: dict[str, list[dict[str, float]]] = {load: [] for load in OUR_LOADS}
                watched: dict[str, list[float]] = {"p99": [], "rps": []}
                for round_number in range(rounds):
                    order = list(OUR_LOADS) if round_number % 2 == 0 else list(OUR_LOADS)[::-1]
                    measured = {
                        load: measured(process, port, seconds, **OUR_LOADS[load]) for load in order
                    }
                    for load, figures in measured.items():
                        runs[load].append(figures)
                    for key in watched:
                        watched[key].append(measured["watched"][key] / measured["ours"][key])
                loads = {load: _medians(runs[load]) for load in OUR_LOADS}
                results[name] = {
                    **loads["ours"],
                    "peak_rss_mib": peak_rss_mib(process.pid),
                    "loads": loads,
                    "watched_ratios": watched,
                    "unchanged": unchanged,
                }
        return results


@contextmanager
def postgres(workdir: Path) -> Iterator[str | None]:
    """Run a throwaway PostgreSQL server in a folder for a block; yield its URL (None: no tools)."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not (initdb and pg_ctl):
        yield None
        return
    data = workdir / "pgdata"
    pg_port = free_port()
    user = "bench"
    run_as: list[str] = []
    if os.geteuid() == 0:
        # PostgreSQL refuses to run as root: run it as nobody in a folder nobody owns.
        run_as = ["runuser", "-u", "nobody", "--"]
        workdir.chmod(0o755)
        data.mkdir()
        shutil.chown(data, "nobody")
    subprocess.run(
        [*run_as, initdb, "-D", str(data), "-U", user, "--auth=trust"],
        check=True,
        capture_output=True,
    )
    log = workdir / "pg.log"
    if run_as:
        log.touch()
        shutil.chown(log, "nobody")
    options = f"-p {pg_port} -k {data} -c listen_addresses=127.0.0.1 -c max_connections=200"
    subprocess.run(
        [*run_as, pg_ctl, "-D", str(data), "-o", options, "-l", str(log), "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://{user}@127.0.0.1:{pg_port}/postgres"
    finally:
        subprocess.run(
            [*run_as, pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], capture_output=True
        )


def unchanged_answers(
    port: int, process: subprocess.Popen[bytes], repeats: int
) -> dict[str, dict[str, float]]:
    """Time answers that did not change, one at a time, with the server's CPU per answer.

    The version a watching phone asks for (as live.js asks it, with the cookie of a view link),
    the game through the API with its ETag, and the same game read in full for comparison.
    """
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = {"players": ["Ann", "Bob", "Cid"]}
    session = _request(connection, "POST", "/api/v1/sessions", body)
    key = session["edit_key"]
    game = _request(connection, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    meld = {"player": session["players"][0]["id"], "cards": "5♣ 6♣ 7♣"}
    _request(connection, "POST", f"/api/v1/games/{game['id']}/melds", meld, key=key)
    phone = Phone(port)
    path = f"/sessions/{session['id']}"
    phone.send("GET", f"{path}?key={session['view_key']}")
    version = f'"v{json.loads(phone.send("GET", f"{path}/version")[2])["version"]}"'
    api = {"Authorization": f"Bearer {key}"}

    def api_get(headers: dict[str, str]) -> int:
        connection.request("GET", f"/api/v1/games/{game['id']}", headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status

    cases: dict[str, tuple[Callable[[], int], int]] = {
        "the session's version as a watching phone asks it (304)": (
            lambda: phone.send("GET", f"{path}/version", headers={"If-None-Match": version})[0],
            304,
        ),
        "the game through the API with its ETag (304)": (
            lambda: api_get({**api, "If-None-Match": version}),
            304,
        ),
        "for comparison: the game through the API in full (200)": (lambda: api_get(api), 200),
    }
    count = max(200, repeats * 20)
    figures = {}
    for name, (ask, expected) in cases.items():
        for _ in range(20):
            ask()
        timings = []
        before = cpu_seconds(process.pid)
        for _ in range(count):
            started = time.perf_counter()
            status = ask()
            timings.append(time.perf_counter() - started)
            if status != expected:
                raise RuntimeError(f"{name}: answered {status}, not {expected}")
        used = cpu_seconds(process.pid) - before
        figures[name] = {
            "ms": statistics.median(timings) * 1000,
            "p99": percentile(timings, 0.99) * 1000,
            "cpu_ms": used * 1000 / count,
            "count": count,
        }
    return figures


def upgrade(url: str) -> None:
    """Create or upgrade the database at a URL with the app's migrations."""
    subprocess.run(
        [str(VENV_BIN / "flask"), "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
        capture_output=True,
    )


def growth(workdir: Path, sizes: tuple[int, ...], repeats: int) -> dict[int, dict[str, float]]:
    """Time the main requests in sessions of 1, 100 and 1,000 finished games (medians, ms)."""
    from seed import seed_session

    database = workdir / "growth.sqlite3"
    url = f"sqlite:///{database}"
    upgrade(url)
    seeded = {size: seed_session(url, size) for size in sizes}
    port = free_port()
    names = ("record a meld", "GET open game", "session page", "GET session (API)")
    samples: dict[int, dict[str, list[float]]] = {
        size: {name: [] for name in names} for size in sizes
    }
    with server(serve_ours(port, url), port, {"DATABASE_URL": url}):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        cookies = {
            size: _open_edit_link(connection, session_id, key)
            for size, (session_id, _game, _player, key) in seeded.items()
        }
        # The sizes take turns request by request, so a drift of the machine's speed during
        # the run does not fall on one size.
        for _ in range(repeats):
            for size, (session_id, game_id, player_id, key) in seeded.items():
                started = time.perf_counter()
                answer = _request(
                    connection,
                    "POST",
                    f"/api/v1/games/{game_id}/melds",
                    {"player": player_id, "cards": "5♣ 6♣ 7♣"},
                    key=key,
                )
                samples[size]["record a meld"].append(time.perf_counter() - started)
                entry = f"/api/v1/games/{game_id}/entries/{answer['id']}"
                _request(connection, "DELETE", entry, key=key)
                for name, path in (
                    ("GET open game", f"/api/v1/games/{game_id}"),
                    ("session page", f"/sessions/{session_id}"),
                    ("GET session (API)", f"/api/v1/sessions/{session_id}"),
                ):
                    started = time.perf_counter()
                    _request(connection, "GET", path, key=key, cookie=cookies[size])
                    samples[size][name].append(time.perf_counter() - started)
    return {
        size: {name: statistics.median(values) * 1000 for name, values in timed.items()}
        for size, timed in samples.items()
    }


def _open_edit_link(connection: http.client.HTTPConnection, session_id: str, key: str) -> str:
    """Open a session's edit link as a phone would; return the cookie that keeps the key."""
    connection.request("GET", f"/sessions/{session_id}?key={key}")
    response = connection.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie", "")
    if response.status != 302 or not cookie:
        raise RuntimeError(f"the edit link of {session_id} answered {response.status}")
    return cookie.split(";", 1)[0]


def _request(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    body: Any = None,
    key: str = "",
    cookie: str = "",
) -> Any:
    payload = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if payload else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    if cookie:
        headers["Cookie"] = cookie
    connection.request(method, path, body=payload, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status >= 400:
        raise RuntimeError(f"{method} {path} answered {response.status}: {data[:200]!r}")
    content_type = response.getheader("Content-Type", "")
    return json.loads(data) if data and "json" in content_type else data


def page_weight(workdir: Path) -> list[dict[str, Any]]:
    """Return the compressed bytes of each main page with its CSS and JS."""
    from seed import seed_session

    database = workdir / "pages.sqlite3"
    url = f"sqlite:///{database}"
    upgrade(url)
    session_id, game_id, _, key = seed_session(url, 3)
    port = free_port()
    pages = [
        ("start page", "/"),
        ("session page (game in progress)", f"/sessions/{session_id}"),
        ("finish a game", f"/games/{game_id}/finish"),
        ("history", f"/sessions/{session_id}/history"),
    ]
    rows = []
    with server(serve_ours(port, url), port, {"DATABASE_URL": url}):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        cookie = _open_edit_link(connection, session_id, key)
        german_id, german_game, german_key = _german_rummy_game(connection)
        german_cookie = _open_edit_link(connection, german_id, german_key)
        pages += [
            ("German Rummy session page (110-card picker)", f"/sessions/{german_id}"),
            ("German Rummy finish", f"/games/{german_game}/finish"),
        ]
        for name, path in pages:
            page_cookie = german_cookie if "German" in name else cookie
            html, html_bytes = _fetch(connection, path, page_cookie)
            assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
            asset_bytes = sum(_fetch(connection, asset)[1] for asset in set(assets))
            # Links to this server itself (the session page's share links) are not other hosts.
            hosts = re.findall(r'(?:href|src|action)="(?:https?:)?//([^"/]+)', html)
            external = [host for host in hosts if host != f"127.0.0.1:{port}"]
            rows.append(
                {
                    "page": name,
                    "html": html_bytes,
                    "assets": asset_bytes,
                    "total": html_bytes + asset_bytes,
                    "external": sorted(set(external)),
                }
            )
    return rows


# What a careless or hostile client may send; each must be refused (or found no meld) quickly.
TEN_THOUSAND_CARDS = "2♠ " * 10_000  # 50,000 bytes of UTF-8, inside the 64 KiB body limit


def hostile_input(workdir: Path, repeats: int) -> list[dict[str, Any]]:
    """Time the answers to oversized and hostile inputs, one request at a time (medians, ms)."""
    from seed import seed_session

    url = f"sqlite:///{workdir / 'hostile.sqlite3'}"
    upgrade(url)
    session_id, game_id, _player, key = seed_session(url, 1)
    port = free_port()
    rows = []
    with server(serve_ours(port, url), port, {"DATABASE_URL": url}):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        session = _request(connection, "GET", f"/api/v1/sessions/{session_id}", key=key)
        ann, bob, cid = (player["id"] for player in session["players"])
        cases: list[tuple[str, str, Any]] = [
            ("10,000 cards to check", "/api/v1/check", {"cards": TEN_THOUSAND_CARDS}),
            (
                "10,000 cards as a meld",
                f"/api/v1/games/{game_id}/melds",
                {"player": cid, "cards": TEN_THOUSAND_CARDS},
            ),
            (
                "10,000 cards as a hand (settlement preview)",
                f"/api/v1/games/{game_id}/settlement",
                {"winner": ann, "hands": {str(bob): TEN_THOUSAND_CARDS, str(cid): "K♣"}},
            ),
            ("one 60,000-character token", "/api/v1/check", {"cards": "x" * 60_000}),
            (
                "glued suits, then 60,000 characters",
                "/api/v1/check",
                {"cards": "♠♠" + "x" * 60_000},
            ),
            ("a 70 KB body", "/api/v1/check", {"cards": "2♠", "pad": "x" * 70_000}),
            ("for comparison: checking 3 cards", "/api/v1/check", {"cards": "5♣ 6♣ 7♣"}),
        ]
        for name, path, body in cases:
            payload = json.dumps(body, ensure_ascii=False).encode()  # as phones send it
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
            timings, statuses = [], set()
            for _ in range(repeats):
                started = time.perf_counter()
                connection.request("POST", path, body=payload, headers=headers)
                response = connection.getresponse()
                response.read()
                timings.append(time.perf_counter() - started)
                statuses.add(response.status)
                if response.will_close:
                    connection.close()  # the 413 closes the connection; the next request reopens
            rows.append(
                {
                    "input": name,
                    "bytes": len(payload),
                    "status": "/".join(str(status) for status in sorted(statuses)),
                    "ms": statistics.median(timings) * 1000,
                }
            )
    return rows


def _german_rummy_game(
    connection: http.client.HTTPConnection, finished: int = 0
) -> tuple[str, int, str]:
    """Start a German Rummy game with an opening, a joker and a swap; return its ids and key.

    ``finished`` games are played before it: an opening, then Ann goes out.
    """
    body = {"players": ["Ann", "Bob", "Cid", "Dora"], "variant": "german_rummy"}
    session = _request(connection, "POST", "/api/v1/sessions", body)
    key = session["edit_key"]
    ann, bob, cid, dora = (player["id"] for player in session["players"])
    for _ in range(finished):
        game = _request(connection, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
        opening = {"player": ann, "melds": ["6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦"]}
        _request(connection, "POST", f"/api/v1/games/{game['id']}/melds", opening, key=key)
        hands = {str(bob): "K♣ 8♦", str(cid): "7♣", str(dora): "JKR"}
        ending = {"winner": ann, "hands": hands}
        _request(connection, "POST", f"/api/v1/games/{game['id']}/finish", ending, key=key)
    game = _request(connection, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    melds = f"/api/v1/games/{game['id']}/melds"
    opening = _request(
        connection, "POST", melds, {"player": ann, "melds": ["6♠ 6♥ JKR", "J♦ Q♦ K♦ A♦"]}, key=key
    )
    _request(connection, "POST", melds, {"player": bob, "melds": ["10♠ J♠ Q♠ K♠"]}, key=key)
    swap = {
        "player": bob,
        "meld": opening["melds"][0]["id"],
        "cards": "6♣",
        "new_meld": "8♥ JKR 10♥",
    }
    _request(connection, "POST", f"/api/v1/games/{game['id']}/swaps", swap, key=key)
    return session["id"], game["id"], key


def _treppenromme_game(
    connection: http.client.HTTPConnection, finished: int = 0
) -> tuple[str, int, str]:
    """Start a Treppenrommé game with melds and layoffs after ``finished`` games; return ids, key.

    Each game: Ann, Bob and Cid meld and lay off as the bench's tables do; Ann goes out.
    """
    session = _request(connection, "POST", "/api/v1/sessions", {"players": ["Ann", "Bob", "Cid"]})
    key = session["edit_key"]
    ann, bob, cid = (player["id"] for player in session["players"])
    for number in range(finished + 1):
        game = _request(connection, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
        path = f"/api/v1/games/{game['id']}"
        first = _request(
            connection, "POST", f"{path}/melds", {"player": ann, "cards": "2♠ 3♠ 4♠"}, key=key
        )
        _request(connection, "POST", f"{path}/melds", {"player": bob, "cards": "7♥ 7♦ 7♣"}, key=key)
        layoff = {"player": cid, "meld": first["id"], "cards": "5♠"}
        _request(connection, "POST", f"{path}/layoffs", layoff, key=key)
        _request(connection, "POST", f"{path}/melds", {"player": cid, "cards": "J♦ Q♦ K♦"}, key=key)
        if number < finished:
            ending = {"winner": ann, "hands": {str(bob): "K♣ 8♦", str(cid): "7♠"}}
            _request(connection, "POST", f"{path}/finish", ending, key=key)
    return session["id"], game["id"], key


# The games each session of the page timings has finished before the game in progress.
FINISHED_BEFORE = 5
# Each page of a game in progress against the JSON of the same game (the pages' target: 3x).
PAGE_TIMINGS = ("session page", "finish page", "history")


def page_timing(workdir: Path, repeats: int) -> dict[str, dict[str, float]]:
    """Time the pages of a game in progress and its JSON, per rule system (medians, ms).

    Each rule system's session has finished games before the one in progress; the requests
    take turns, one at a time, so a drift of the machine's speed falls on all alike.
    """
    database = workdir / "pages-timing.sqlite3"
    url = f"sqlite:///{database}"
    upgrade(url)
    port = free_port()
    timings: dict[str, dict[str, float]] = {}
    with server(serve_ours(port, url), port, {"DATABASE_URL": url}):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        games = {
            "Treppenrommé": _treppenromme_game(connection, FINISHED_BEFORE),
            "German Rummy (110-card picker)": _german_rummy_game(connection, FINISHED_BEFORE),
        }
        for system, (session_id, game_id, key) in games.items():
            cookie = _open_edit_link(connection, session_id, key)
            paths = {
                "session page": f"/sessions/{session_id}",
                "finish page": f"/games/{game_id}/finish",
                "history": f"/sessions/{session_id}/history",
                "GET game (API)": f"/api/v1/games/{game_id}",
                "GET session (API)": f"/api/v1/sessions/{session_id}",
            }
            samples: dict[str, list[float]] = {name: [] for name in paths}
            for _ in range(repeats):
                for name, path in paths.items():
                    started = time.perf_counter()
                    _request(connection, "GET", path, key=key, cookie=cookie)
                    samples[name].append(time.perf_counter() - started)
            timings[system] = {
                name: statistics.median(values) * 1000 for name, values in samples.items()
            }
    return timings


def sqlite_unchanged(workdir: Path, repeats: int) -> dict[str, dict[str, float]]:
    """Time the unchanged answers on ``scorekeeper serve`` with SQLite (see unchanged_answers)."""
    url = f"sqlite:///{workdir / 'unchanged.sqlite3'}"
    port = free_port()
    with server(serve_ours(port, url), port, {"DATABASE_URL": url}) as process:
        warm_up(port)
        return unchanged_answers(port, process, repeats)


def _fetch(connection: http.client.HTTPConnection, path: str, cookie: str = "") -> tuple[str, int]:
    """Return a resource's text and the bytes it took on the wire with gzip accepted."""
    headers = {"Accept-Encoding": "gzip"}
    if cookie:
        headers["Cookie"] = cookie
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    raw = response.read()
    if response.status >= 400:
        raise RuntimeError(f"GET {path} answered {response.status}")
    text = gzip.decompress(raw) if response.getheader("Content-Encoding") == "gzip" else raw
    return text.decode("utf-8", "replace"), len(raw)


def write_report(path: Path, figures: dict[str, Any], args: argparse.Namespace) -> None:
    """Write the figures as Markdown."""
    ours, reference = figures["throughput"]["ours"], figures["throughput"]["reference"]
    ratios = figures["throughput"]["ratios"]
    rps_ratio, p99_ratio = (statistics.median(ratios[key]) for key in ("rps", "p99"))
    stack_ratios = figures["throughput"]["stack_ratios"]
    lines = [
        "# Performance",
        "",
        f"Written by `bench/run.py` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{args.rounds} alternating rounds of {args.seconds:g} s per server "
        f"({TABLES} simulated tables at once; medians of the rounds, ratios round by round). "
        f"Each server first gets {WARM_UP_SECONDS:g} s of the same load, not measured; in each "
        "load every table and phone first gets ready (starts its session, opens its link or "
        "page), and the measured seconds begin when all are.",
        "",
        f"The command: `{_command()}`",
        "",
        "The grouping of a Boathouse Rum hand that pays least is measured by `bench/grouping.py`:"
        " [performance-grouping.md](performance-grouping.md).",
        "",
        "The moment of the tap on the game page (tap to screen, tap to confirmed, on loopback, "
        '"Slow 4G" and "3G") is measured by `bench/tap.py`:'
        " [performance-tap.md](performance-tap.md).",
        "",
        "Each page's bytes as Chromium gets them (compressed), at the first visit, on demand and"
        " at a repeat visit with the service worker, are measured by `bench/page_budget.py`:"
        " [performance-pages.md](performance-pages.md).",
        "",
        "## Recording throughput and latency (SQLite, `scorekeeper serve`)",
        "",
        "| server | requests/s | p50 ms | p95 ms | p99 ms | requests | failed | CPU ms/request |",
        "|---|---|---|---|---|---|---|---|",
    ]
    stack = figures["throughput"]["reference_sqlalchemy"]
    rows = (
        ("scorekeeper", ours),
        ("reference (one INSERT + COMMIT)", reference),
        ("the reference through Flask-SQLAlchemy", stack),
    )
    for name, row in rows:
        lines.append(
            f"| {name} | {row['rps']:.0f} | {row['p50']:.1f} | {row['p95']:.1f} | "
            f"{row['p99']:.1f} | {row['requests']:.0f} | {row['failures']:.0f} | "
            f"{row['cpu_ms']:.2f} |"
        )
    lines += [
        "",
        f"- Throughput ratio (ours / reference): **{rps_ratio:.2f}** (target at least 0.7); "
        f"round by round: {_listed(ratios['rps'])}",
        f"- p99 ratio (ours / reference): **{p99_ratio:.2f}** (target at most 1.5); "
        f"round by round: {_listed(ratios['p99'])}",
        f"- Peak RSS of the server under this load: **{figures['throughput']['peak_rss_mib']:.0f}"
        " MiB**",
        "",
        "The load mixes melds, layoffs, undos, game starts and finishes, as a table records them.",
        "",
        "The third server answers the reference's request the way the required stack does: the "
        "same INSERT and COMMIT, sent through Flask-SQLAlchemy's session (a statement built once, "
        "as ours are). It shows what the stack costs before any work of ours:",
        "",
        _ratio_line("reference through Flask-SQLAlchemy / reference", stack_ratios),
        _ratio_line(
            "ours / reference through Flask-SQLAlchemy",
            figures["throughput"]["ours_to_stack_ratios"],
        ),
        "",
        f"All three servers are waitress with {args.threads} worker thread"
        f"{'s' if args.threads > 1 else ''} in one process (`scorekeeper serve` has {THREADS} "
        "unless told otherwise); Python runs one thread at a "
        "time, so a server's requests per second follow from its CPU time per request (last "
        "column, the server process's user and system time over the requests it answered).",
        "",
        *_phone_and_watchers(figures, args),
        f"## Growth with session size (ms, median of {args.repeats} requests, one at a time, "
        "the sizes taking turns)",
        "",
        "| finished games | " + " | ".join(next(iter(figures["growth"].values()))) + " |",
        "|---|" + "---|" * len(next(iter(figures["growth"].values()))),
    ]
    for size, row in figures["growth"].items():
        lines.append(f"| {size} | " + " | ".join(f"{value:.1f}" for value in row.values()) + " |")
    sizes = sorted(figures["growth"])
    first, last = figures["growth"][sizes[0]], figures["growth"][sizes[-1]]
    lines += [
        "",
        f"Ratio {sizes[-1]} games / {sizes[0]} game (target at most 1.5 for the "
        "first three; the session API lists every game and must stay under 50 ms):",
        "",
    ]
    for name in first:
        lines.append(f"- {name}: {last[name] / first[name]:.2f} ({last[name]:.1f} ms)")
    lines += [
        "",
        "## Page weight (bytes on the wire, gzip accepted)",
        "",
        "| page | HTML | CSS + JS | total | requests to other hosts |",
        "|---|---|---|---|---|",
    ]
    for row in figures["pages"]:
        lines.append(
            f"| {row['page']} | {row['html']} | {row['assets']} | {row['total']} | "
            f"{len(row['external'])} |"
        )
    lines += ["", "Target: the game page at most 30 KB; zero requests to other hosts.", ""]
    lines += _page_timing_lines(figures["page_timing"], args)
    lines += [
        f"## Hostile input (ms, median of {args.repeats} requests, one at a time)",
        "",
        "| input | bytes sent | answer | ms |",
        "|---|---|---|---|",
    ]
    for row in figures["hostile"]:
        lines.append(f"| {row['input']} | {row['bytes']} | {row['status']} | {row['ms']:.1f} |")
    lines += [
        "",
        "The issue asks that these be refused quickly and sets no number; the last row is an "
        "ordinary request for comparison. The same inputs are checked for their answers, not "
        "their time, in `tests/web/test_hostile_input.py`.",
        "",
    ]
    pg = figures.get("postgres")
    lines += ["## PostgreSQL (gunicorn)", ""]
    if pg is None:
        lines.append("Not run: initdb, pg_ctl or gunicorn was not found on this machine.")
    else:
        lines += [
            "| workers | requests/s | p50 ms | p95 ms | p99 ms | requests | failed "
            "| peak RSS MiB |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for name, row in pg.items():
            lines.append(
                f"| {name} | {row['rps']:.0f} | {row['p50']:.1f} | {row['p95']:.1f} | "
                f"{row['p99']:.1f} | {row['requests']:.0f} | {row['failures']:.0f} | "
                f"{row['peak_rss_mib']:.0f} |"
            )
        lines += [
            "",
            "The simulated tables keep their connections open. A threaded gunicorn worker keeps "
            "every connection it accepted, and the workers accept unevenly, so the tables of "
            "the busiest worker wait longest; a sync worker takes one request per connection, "
            "and each request goes to the next free worker.",
            "",
            f"### The phones' path and watching phones on PostgreSQL ({args.pg_rounds} rounds of "
            f"{args.seconds:g} s each, the loads' order turned around in every other round; "
            "medians, and ratios round by round)",
            "",
            *_load_table_head(),
        ]
        for name, row in pg.items():
            lines += _load_rows(row["loads"], prefix=f"{name}: ")
        lines += [""]
        for name, row in pg.items():
            ratios = row["watched_ratios"]
            lines.append(
                f"- {name}: recording's p99 with the watching phones / without: "
                f"**{statistics.median(ratios['p99']):.2f}** (target at most 1.5; rounds "
                f"{_listed(ratios['p99'])}); throughput {statistics.median(ratios['rps']):.2f} "
                f"(rounds {_listed(ratios['rps'])})"
            )
        lines += ["", "Unchanged answers, one at a time (CPU: gunicorn's master and workers):", ""]
        for name, row in pg.items():
            lines += _unchanged_lines(row["unchanged"], f"{name}: ")
    lines += _kept_sections(path)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# Sections that other scripts of bench/ write into the report: kept when this run rewrites it.
KEPT_SECTIONS = (
    "## The history page by the length of the session",  # bench/history.py
    "## What the removed caches cost (issue 32)",  # bench/versions.py
    "## Another table's meld while one view link reads a long session",  # bench/long_reads.py
    "## A club evening: 20 tables, 60 watchers, one board",  # bench/evening.py
)


def _kept_sections(path: Path) -> list[str]:
    """Return the lines of the report's sections that another script of bench/ wrote."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    kept = []
    for title in KEPT_SECTIONS:
        start = text.find(title)
        if start >= 0:
            end = text.find("\n## ", start + len(title))
            kept += ["", *text[start : end if end >= 0 else None].rstrip("\n").split("\n")]
    return kept


def _command() -> str:
    """Return the command line that runs this bench as it ran, from the project folder."""
    arguments = " ".join(sys.argv[1:])
    return f".venv/bin/python bench/run.py {arguments}".strip()


LOAD_NAMES = {
    "ours": "recording through the API",
    "phone": "taps: the form's POST, its redirect and the session page",
    "watched": f"recording through the API, {TABLES * WATCHERS_PER_TABLE} phones watching",
}


def _load_table_head() -> list[str]:
    return [
        "| load | per second | p50 ms | p95 ms | p99 ms | count | failed | CPU ms per answer |",
        "|---|---|---|---|---|---|---|---|",
    ]


def _load_rows(loads: dict[str, dict[str, float]], prefix: str = "") -> list[str]:
    """Return a table row for each load of ours, and one for the watching phones' questions."""
    rows = []
    for name, row in loads.items():
        rows.append(
            f"| {prefix}{LOAD_NAMES[name]} | {row['rps']:.0f} | {row['p50']:.1f} | "
            f"{row['p95']:.1f} | {row['p99']:.1f} | {row['requests']:.0f} | "
            f"{row['failures']:.0f} | {row['cpu_ms']:.2f} |"
        )
        if name == "watched":
            rows.append(
                f"| {prefix}the watching phones' questions | {row['watch_rps']:.0f} | "
                f"{row['watch_p50']:.1f} | {row['watch_p95']:.1f} | {row['watch_p99']:.1f} | "
                f"{row['watch_requests']:.0f} | {row['watch_failures']:.0f} | |"
            )
    return rows


def _unchanged_lines(unchanged: dict[str, dict[str, float]], prefix: str = "") -> list[str]:
    return [
        f"- {prefix}{name}: {row['ms']:.2f} ms (median of {row['count']:.0f}; p99 "
        f"{row['p99']:.2f} ms), **{row['cpu_ms']:.2f} ms of the server's CPU** per answer"
        for name, row in unchanged.items()
    ]


def _phone_and_watchers(figures: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """Return the section on the phones' path and the watching phones (SQLite)."""
    measured = figures["throughput"]
    loads = {name: measured[name] for name in OUR_LOADS}
    phone, watched = measured["phone_ratios"], measured["watched_ratios"]
    watchers = TABLES * WATCHERS_PER_TABLE
    lines = [
        "## The phones' path and watching phones (SQLite, `scorekeeper serve`)",
        "",
        f"The same {TABLES} tables, in the same rounds as above, each on a fresh server of ours. "
        "A tap is what a phone does to record a meld: it sends the session page's form (with "
        "its CSRF token and one-time token, as the browser does), follows the redirect and "
        "loads the session page; the three are timed together. Each table taps 16 melds, then "
        "abandons the game and deals the next through the API (not timed). In the watched run, "
        f"{watchers} phones ({WATCHERS_PER_TABLE} per table) watch the tables' sessions: each "
        f"opens its view link, then asks for the session's version every {WATCH_SECONDS:g} s "
        "with the version it saw as `If-None-Match`, as `static/js/live.js` does.",
        "",
        *_load_table_head(),
        *_load_rows(loads),
        "",
        _ratio_line("a tap / a request of the reference", phone),
        f"- Recording with the {watchers} watching phones / without: p99 "
        f"**{statistics.median(watched['p99']):.2f}** (target at most 1.5; rounds "
        f"{_listed(watched['p99'])}), throughput {statistics.median(watched['rps']):.2f} "
        f"(rounds {_listed(watched['rps'])})",
        f"- The watching phones' questions answered 304 (unchanged): "
        f"{loads['watched']['watch_unchanged']:.0f} of {loads['watched']['watch_requests']:.0f}; "
        "the others answered a new version, since each table records several times a second. "
        "On a new version the page reloads itself (a session page, timed below); the bench's "
        "phones only take the version as seen, as its tables record far faster than people do.",
        "",
        "The CPU column is the server's user and system time over every answer it gave: a tap "
        "is two answers, and the watched run's include the watching phones'.",
        "",
        "Unchanged answers, one at a time on an idle server:",
        "",
        *_unchanged_lines(figures["unchanged"]),
        "",
    ]
    return lines


def _page_timing_lines(timing: dict[str, dict[str, float]], args: argparse.Namespace) -> list[str]:
    """Return the table of each page's time against the JSON of the same game."""
    lines = [
        f"## Pages against the JSON of the same game (ms, median of {args.repeats} requests, "
        "one at a time, taking turns)",
        "",
        f"A game in progress after {FINISHED_BEFORE} finished games; the German Rummy game has "
        "an opening with a joker and a swap on the table. Target: each page at most 3 times the "
        "game's JSON (`GET /api/v1/games/<id>`).",
        "",
        "| rule system | " + " | ".join(PAGE_TIMINGS) + " | GET game (API) | "
        "GET session (API) | " + " | ".join(f"{page} / game JSON" for page in PAGE_TIMINGS) + " |",
        "|---|" + "---|" * (2 * len(PAGE_TIMINGS) + 2),
    ]
    for system, row in timing.items():
        game = row["GET game (API)"]
        lines.append(
            f"| {system} | "
            + " | ".join(f"{row[page]:.1f}" for page in PAGE_TIMINGS)
            + f" | {game:.1f} | {row['GET session (API)']:.1f} | "
            + " | ".join(f"**{row[page] / game:.1f}**" for page in PAGE_TIMINGS)
            + " |"
        )
    return [*lines, ""]


def main() -> None:
    """Run every measurement and write the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--pg-rounds", type=int, default=3, help="rounds of PostgreSQL's loads")
    parser.add_argument(
        "--threads", type=int, default=THREADS, help="worker threads of both servers"
    )
    parser.add_argument("--quick", action="store_true", help="1 round of 3 s, 100 games at most")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "performance.md")
    args = parser.parse_args()
    sizes: tuple[int, ...] = (1, 100, 1000)
    if args.quick:
        args.rounds, args.seconds, args.repeats, sizes = 1, 3.0, 5, (1, 100)
        args.pg_rounds = 1
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        workdir = Path(folder)
        figures: dict[str, Any] = {}
        print("throughput ...", flush=True)
        figures["throughput"] = throughput(args.rounds, args.seconds, workdir, args.threads)
        print("growth ...", flush=True)
        figures["growth"] = growth(workdir, sizes, args.repeats)
        print("page weight ...", flush=True)
        figures["pages"] = page_weight(workdir)
        print("page timing ...", flush=True)
        figures["page_timing"] = page_timing(workdir, args.repeats)
        print("unchanged answers ...", flush=True)
        figures["unchanged"] = sqlite_unchanged(workdir, args.repeats)
        print("hostile input ...", flush=True)
        figures["hostile"] = hostile_input(workdir, args.repeats)
        print("postgresql ...", flush=True)
        figures["postgres"] = postgres_throughput(
            args.pg_rounds, args.seconds, workdir, args.repeats
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    write_report(args.output, figures, args)
    print(args.output.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
