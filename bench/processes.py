"""Serve ours and the reference through Flask-SQLAlchemy from processes instead of threads.

Run from the project folder: ``.venv/bin/python bench/processes.py [--workers 2] [--rounds 2]``.
Both apps run under gunicorn with sync workers (one thread each) on a SQLite file of their own,
taking turns round by round under the bench's 50 tables (``run.OUR_LOADS["ours"]``), and the
figures are printed: whether serving without threads taking turns changes the throughput ratio
(docs/performance-notes.md, issue 18). Nothing is written to docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # the bench's servers, loads and measurements

# The reference app as a WSGI module gunicorn can import, on the file REFERENCE_DATABASE names.
REFERENCE_MODULE = """\
import os
from pathlib import Path
from reference_app import create_sqlalchemy_reference_app
app = create_sqlalchemy_reference_app(Path(os.environ["REFERENCE_DATABASE"]))
"""


def main() -> None:
    """Take turns between the two apps and print each round's figures and the ratios."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6.0)
    args = parser.parse_args()
    gunicorn = str(run.VENV_BIN / "gunicorn")
    ratios: list[float] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-processes-") as folder:
        workdir = Path(folder)
        (workdir / "reference_wsgi.py").write_text(REFERENCE_MODULE, encoding="utf-8")
        search_path = f"{workdir}:{run.ROOT / 'bench'}"
        for round_number in range(args.rounds):
            figures = {}
            order = ["ours", "reference"] if round_number % 2 == 0 else ["reference", "ours"]
            for name in order:
                port = run.free_port()
                command = [gunicorn, "--workers", str(args.workers), "--bind", f"127.0.0.1:{port}"]
                if name == "ours":
                    url = f"sqlite:///{workdir / f'ours-{round_number}.sqlite3'}"
                    run.upgrade(url)
                    environment = {"DATABASE_URL": url}
                    command.append("scorekeeper:create_app()")
                    load = run.OUR_LOADS["ours"]
                else:
                    database = workdir / f"reference-{round_number}.sqlite3"
                    environment = {"REFERENCE_DATABASE": str(database), "PYTHONPATH": search_path}
                    command.append("reference_wsgi:app")
                    load = {"reference": True}
                with run.server(command, port, environment) as process:
                    figures[name] = run.measured(process, port, args.seconds, **load)
            ratio = figures["ours"]["rps"] / figures["reference"]["rps"]
            ratios.append(ratio)
            print(f"round {round_number + 1}, ratio {ratio:.2f}", flush=True)
            for name, measured in figures.items():
                print(
                    f"  {name}: {measured['rps']:.0f} requests/s, "
                    f"{measured['cpu_ms']:.2f} ms of CPU per request, "
                    f"p99 {measured['p99']:.0f} ms, {measured['failures']:.0f} failed",
                    flush=True,
                )
    print(f"ours / the reference through Flask-SQLAlchemy: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
