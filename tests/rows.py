"""Rows of the app's database, read or set directly: what was saved, or what a crash leaves."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyRecord, utcnow


def count(app: Flask, model: type) -> int:
    """Return how many rows a table holds."""
    with app.app_context():
        return int(db.session.scalar(sa.select(sa.func.count()).select_from(model)) or 0)


def unanswer(app: Flask, key: str, age: timedelta) -> None:
    """Leave an idempotency record ``age`` old without its answer, as a stopped server would."""
    with app.app_context():
        db.session.execute(
            sa.update(IdempotencyRecord)
            .where(IdempotencyRecord.key == key)
            .values(status=None, body=None, created_at=utcnow() - age)
        )
        db.session.commit()
