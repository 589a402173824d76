"""Count rows in the app's database, for tests that check nothing was saved."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db


def count(app: Flask, model: type) -> int:
    """Return how many rows a table holds."""
    with app.app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(model)) or 0)
