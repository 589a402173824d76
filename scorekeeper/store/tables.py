"""The tables the store reads and writes: the models' tables, for SQLAlchemy Core statements."""

from __future__ import annotations

import sqlalchemy as sa

from scorekeeper.models import (
    AuditLine,
    Entry,
    Evening,
    EveningSeries,
    EveningTable,
    Game,
    GameSession,
    Group,
    IdempotencyRecord,
    MergedName,
    Player,
    SettlementLine,
    TableCard,
)


def _table(model: type) -> sa.Table:
    table = model.__table__  # type: ignore[attr-defined]
    assert isinstance(table, sa.Table)
    return table


SESSIONS = _table(GameSession)
PLAYERS = _table(Player)
GAMES = _table(Game)
ENTRIES = _table(Entry)
TABLE_CARDS = _table(TableCard)
SETTLEMENT_LINES = _table(SettlementLine)
AUDIT_LINES = _table(AuditLine)
GROUPS = _table(Group)
MERGED_NAMES = _table(MergedName)
IDEMPOTENCY_RECORDS = _table(IdempotencyRecord)
EVENINGS = _table(Evening)
EVENING_SERIES = _table(EveningSeries)
EVENING_TABLES = _table(EveningTable)
