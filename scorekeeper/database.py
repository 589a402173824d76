"""Connection settings that the database needs on every connection."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa


def configure_engine(engine: sa.Engine) -> None:
    """Turn on WAL mode, foreign keys and a busy timeout for every SQLite connection."""
    if engine.dialect.name != "sqlite":
        return

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()
