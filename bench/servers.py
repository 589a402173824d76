"""Which server serves HTTPS: waitress over plain HTTP against cheroot and gunicorn over HTTPS.

Run from the project folder: ``.venv/bin/python bench/servers.py [--rounds 3] [--seconds 6]``.
Each server serves the scorekeeper on a fresh SQLite file with 8 worker threads in one process,
taking turns round by round under two loads of ``bench/load.py``: 50 tables recording through
the API at once (throughput), and one phone recording through the session page alone (the tap's
own latency). Over HTTPS the clients trust the table's certificate authority (made in
``instance/`` by ``scorekeeper serve``) and keep their connections, as a phone does; the
connections each run opened are counted (one TLS handshake each). The figures are printed as
Markdown for docs/deployment.md; nothing is written.
"""

from __future__ import annotations

import argparse
import ssl
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # the loads and their connections
import run  # the bench's servers and measurements

from scorekeeper.certificates import CA_CERTIFICATE, FOLDER, SERVER

CA = run.ROOT / "instance" / FOLDER / CA_CERTIFICATE
SERVER_FILE = run.ROOT / "instance" / FOLDER / SERVER
THREADS = 8
# name: (command maker, over HTTPS)
SERVERS = ("waitress, HTTP", "cheroot, HTTP", "cheroot, HTTPS", "gunicorn gthread, HTTPS")
LOADS: dict[str, dict[str, Any]] = {
    "50 tables (API)": {"tables": 50},
    "one phone (page)": {"tables": 1, "phone": True},
}


def command(name: str, port: int) -> list[str]:
    """Return the command that serves the app as ``name``."""
    ours = [str(run.VENV_BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    ours += ["--threads", str(THREADS)]
    if name == "waitress, HTTP":
        return [*ours, "--http"]
    if name.startswith("cheroot"):
        return [*ours, "--trust-port", "0"]
    return [
        str(run.VENV_BIN / "gunicorn"),
        "--workers",
        "1",
        "--threads",
        str(THREADS),
        "--worker-class",
        "gthread",
        "--keep-alive",
        "30",
        "--certfile",
        str(SERVER_FILE),
        "--keyfile",
        str(SERVER_FILE),
        "--bind",
        f"127.0.0.1:{port}",
        "scorekeeper:create_app()",
    ]


def measure(name: str, folder: Path, number: int, seconds: float) -> dict[str, dict[str, float]]:
    """Serve the app as ``name`` on a new database and run each load; return their figures."""
    port = run.free_port()
    url = f"sqlite:///{folder / f'{number}.sqlite3'}"
    run.upgrade(url)  # gunicorn does not upgrade the database itself
    load.TLS = ssl.create_default_context(cafile=str(CA)) if name.endswith("HTTPS") else None
    figures: dict[str, dict[str, float]] = {}
    with run.server(command(name, port), port, {"DATABASE_URL": url}) as process:
        for load_name, options in LOADS.items():
            tables = options["tables"]
            kind = {key: value for key, value in options.items() if key != "tables"}
            load.run_load(port, tables, run.WARM_UP_SECONDS, **kind)
            before = run.cpu_seconds(process.pid)
            load.OPENED.clear()
            results = load.run_load(port, tables, seconds, **kind)
            used = run.cpu_seconds(process.pid) - before
            summary = run.summarize(results, seconds)
            answers = summary["requests"] * (2 if kind.get("phone") else 1)
            summary["cpu_ms"] = used * 1000 / answers if answers else 0.0
            summary["connections"] = len(load.OPENED)
            figures[load_name] = summary
    return figures


def main() -> None:
    """Take turns between the servers and print the medians as Markdown."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=6.0)
    args = parser.parse_args()
    if not CA.exists():
        raise SystemExit(f"{CA} is missing: start `scorekeeper serve` once first.")
    runs: dict[str, list[dict[str, dict[str, float]]]] = {name: [] for name in SERVERS}
    with tempfile.TemporaryDirectory(prefix="scorekeeper-servers-") as folder:
        number = 0
        for round_number in range(args.rounds):
            order = SERVERS[round_number % len(SERVERS) :] + SERVERS[: round_number % len(SERVERS)]
            for name in order:
                number += 1
                runs[name].append(measure(name, Path(folder), number, args.seconds))
                print(f"round {round_number + 1}: {name}: {runs[name][-1]}", file=sys.stderr)
    print(report(runs, args))


def report(runs: dict[str, list[dict[str, dict[str, float]]]], args: argparse.Namespace) -> str:
    """Return the medians of the rounds as a Markdown table per load."""
    lines = [
        f"Medians of {args.rounds} rounds of {args.seconds:g} s per server and load "
        f"({THREADS} threads, one process, SQLite).",
        "",
    ]
    for load_name in LOADS:
        lines += [
            f"**{load_name}**",
            "",
            "| server | requests/s | p50 ms | p99 ms | CPU ms/request | connections opened |",
            "|---|---|---|---|---|---|",
        ]
        for name in SERVERS:
            figures = [one[load_name] for one in runs[name]]

            def median(key: str, figures: list[dict[str, float]] = figures) -> float:
                return statistics.median(figure[key] for figure in figures)

            lines.append(
                f"| {name} | {median('rps'):.0f} | {median('p50'):.1f} | {median('p99'):.1f} "
                f"| {median('cpu_ms'):.2f} | {median('connections'):.0f} |"
            )
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
