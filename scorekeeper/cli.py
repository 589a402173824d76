"""Command line: ``scorekeeper serve`` and the flask commands of the app."""

from __future__ import annotations

import argparse
import socket
import sys

from flask import Flask


def register(app: Flask) -> None:
    """Add the app's own flask commands."""


def _lan_address() -> str | None:
    """Return this machine's address on the local network, for phones to open."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
        probe.connect(("192.0.2.1", 9))
        address: str = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("0.") else address


def main(argv: list[str] | None = None) -> int:
    """Run ``scorekeeper serve``: upgrade the database, then serve the app with waitress."""
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="upgrade the database and serve the app")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument("--threads", type=int, default=8, help="worker threads (8)")
    args = parser.parse_args(argv)

    from flask_migrate import upgrade
    from waitress import serve as waitress_serve

    from scorekeeper import create_app

    app = create_app()
    with app.app_context():
        upgrade()
    shown = args.host
    if args.host in ("0.0.0.0", "::", ""):
        shown = _lan_address() or "127.0.0.1"
    print(f"Scorekeeper is running. Open http://{shown}:{args.port}/ on a phone", flush=True)
    print(f"(on this machine: http://127.0.0.1:{args.port}/). Stop with Ctrl+C.", flush=True)
    waitress_serve(app, host=args.host, port=args.port, threads=args.threads, ident=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
