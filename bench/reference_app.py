"""The reference for the benchmark: a minimal Flask endpoint with one SQLite INSERT and COMMIT."""

from __future__ import annotations

import argparse
import sqlite3
import threading
from pathlib import Path

from flask import Flask, Response, jsonify, request
from waitress import serve


def create_reference_app(database: Path) -> Flask:
    """Return an app whose one endpoint inserts a row and commits, in WAL mode like ours."""
    app = Flask(__name__)
    local = threading.local()
    with sqlite3.connect(database) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT)")

    def connection() -> sqlite3.Connection:
        if not hasattr(local, "connection"):
            local.connection = sqlite3.connect(database, timeout=10)
            local.connection.execute("PRAGMA busy_timeout=10000")
        return local.connection  # type: ignore[no-any-return]

    @app.post("/insert")
    def insert() -> tuple[Response, int]:
        body = request.get_data(as_text=True)
        db = connection()
        cursor = db.execute("INSERT INTO rows (body) VALUES (?)", (body,))
        db.commit()
        return jsonify(id=cursor.lastrowid), 201

    return app


def main() -> None:
    """Serve the reference app with waitress, as ``scorekeeper serve`` serves ours."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    serve(
        create_reference_app(args.database),
        host="127.0.0.1",
        port=args.port,
        threads=args.threads,
        ident=None,
    )


if __name__ == "__main__":
    main()
