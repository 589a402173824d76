"""The reference for the benchmark: a minimal Flask endpoint with one SQLite INSERT and COMMIT.

``--through sqlalchemy`` runs the same endpoint through Flask-SQLAlchemy's session, the way the
scorekeeper reaches its database: what the required stack costs before any work of ours.
"""

from __future__ import annotations

import argparse
import sqlite3
import threading
from pathlib import Path

import sqlalchemy as sa
from flask import Flask, Response, jsonify, request
from flask_sqlalchemy import SQLAlchemy
from waitress import serve

ROWS = sa.Table(
    "rows", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True), sa.Column("body", sa.Text)
)


def _create_table(database: Path) -> None:
    """Create the one table, in WAL mode like the scorekeeper's database."""
    with sqlite3.connect(database) as setup:
        setup.execute("PRAGMA journal_mode=WAL")
        setup.execute("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT)")


def create_reference_app(database: Path) -> Flask:
    """Return an app whose one endpoint inserts a row and commits."""
    app = Flask(__name__)
    local = threading.local()
    _create_table(database)

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


def create_sqlalchemy_reference_app(database: Path) -> Flask:
    """Return the same endpoint, its INSERT and COMMIT going through Flask-SQLAlchemy."""
    app = Flask(__name__)
    _create_table(database)
    app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{database}"
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"timeout": 10}}
    db = SQLAlchemy(app)
    statement = ROWS.insert()  # built once, as the scorekeeper builds its writes

    @app.post("/insert")
    def insert() -> tuple[Response, int]:
        body = request.get_data(as_text=True)
        result = db.session.connection().execute(statement, {"body": body})
        db.session.commit()
        return jsonify(id=result.lastrowid), 201

    return app


def main() -> None:
    """Serve the reference app with waitress, as ``scorekeeper serve`` serves ours."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--through", choices=("sqlite3", "sqlalchemy"), default="sqlite3")
    args = parser.parse_args()
    create = create_reference_app if args.through == "sqlite3" else create_sqlalchemy_reference_app
    serve(
        create(args.database),
        host="127.0.0.1",
        port=args.port,
        threads=args.threads,
        ident=None,
    )


if __name__ == "__main__":
    main()
