"""Export sessions as one JSON document, every id and time kept."""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Mapping
from datetime import UTC
from typing import Any

import sqlalchemy as sa

from scorekeeper.database import READS_ONLY
from scorekeeper.extensions import db
from scorekeeper.models import (
    AuditLine,
    Entry,
    Game,
    GameSession,
    Group,
    MergedName,
    Player,
    SettlementLine,
    TableCard,
)
from scorekeeper.transfer.document import (
    AUDIT_LINE,
    CARD,
    ENTRY,
    FORMAT,
    GAME,
    GROUP,
    MERGED_NAME,
    PLAYER,
    SESSION,
    SESSION_STORED,
    SETTLEMENT_LINE,
    VERSION,
    MalformedDocumentError,
    RecordField,
)

# --- export ------------------------------------------------------------------------------------


def export_sessions(session_id: int | None = None) -> dict[str, Any]:
    """Return every session with its players, games, entries, cards and settlements.

    Nine queries, one per table, whatever the database holds; on PostgreSQL they read one
    snapshot, so that a game recorded meanwhile is either wholly in the document or not at all.
    ``session_id`` exports that session alone, in a document ``import_sessions`` reads alike.
    """
    # A read this function begins, it ends; a caller's transaction stays open.
    began = not db.session().in_transaction() and not (
        db.session.new or db.session.dirty or db.session.deleted
    )
    if began and db.session.get_bind().dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    elif began:
        # SQLite in WAL mode: a read transaction sees one snapshot and holds no write lock, so
        # the tables record while a long session is exported (it took them all waiting).
        db.session.connection(execution_options={READS_ONLY: True})
    read = functools.partial(_read, session_id=session_id)
    sessions = read(GameSession, SESSION_STORED, None, GameSession.id)
    for listed in sessions.values():
        listed[:] = [_with_target(record) for record in listed]
    players = read(Player, PLAYER, Player.session_id, Player.session_id, Player.seat)
    games = read(Game, GAME, Game.session_id, Game.session_id, Game.number)
    entries = read(Entry, ENTRY, Entry.game_id, Entry.game_id, Entry.position)
    cards = read(TableCard, CARD, TableCard.entry_id, TableCard.entry_id, TableCard.position)
    line = SettlementLine
    lines = read(line, SETTLEMENT_LINE, line.game_id, line.game_id, line.id)
    audit = read(AuditLine, AUDIT_LINE, AuditLine.game_id, AuditLine.at, AuditLine.id)
    # One session alone goes without its group: the group is more than that session.
    groups = read(Group, GROUP, None, Group.id) if session_id is None else {}
    merges = read(MergedName, MERGED_NAME, MergedName.group_id, MergedName.id)
    for records, children, key in (
        (entries, cards, "cards"),
        (games, entries, "entries"),
        (games, lines, "settlement_lines"),
        (games, audit, "audit_lines"),
        (sessions, players, "players"),
        (sessions, games, "games"),
        (groups, merges, "merges"),
    ):
        for group in records.values():
            for record in group:
                record[key] = children.get(record["id"], [])
    if session_id is not None:
        for record in sessions.get(None, []):
            record["group_id"] = None
    if began:
        db.session.commit()
    return {
        "format": FORMAT,
        "version": VERSION,
        "groups": groups.get(None, []),
        "sessions": sessions.get(None, []),
    }


def _with_target(record: dict[str, Any]) -> dict[str, Any]:
    """Return a session's record with its target, read from its house rules, in its place."""
    target = record["house_rules"]["end"].get("target")
    return {field.key: target if field.key == "target" else record[field.key] for field in SESSION}


def _read(
    model: Any, fields: tuple[RecordField, ...], parent: Any, *order: Any, session_id: int | None
) -> dict[int | None, list[dict[str, Any]]]:
    """Read one table in one query; return its records grouped by their parent's id.

    ``session_id`` keeps the rows of that session only; None reads them all.
    """
    columns = [getattr(model, field.column) for field in fields]
    query = sa.select(*columns, parent if parent is not None else sa.null()).order_by(*order)
    if session_id is not None:
        query = query.where(_of_session(model, session_id))
    grouped: dict[int | None, list[dict[str, Any]]] = defaultdict(list)
    for row in db.session.execute(query):
        record = {
            field.key: _dumped(field, value) for field, value in zip(fields, row, strict=False)
        }
        grouped[row[-1]].append(record)
    return grouped


def _of_session(model: Any, session_id: int) -> Any:
    """Return the condition that keeps a table's rows to one session's."""
    if model is GameSession:
        return GameSession.id == session_id
    if model is MergedName:
        return sa.false()
    if hasattr(model, "session_id"):
        return model.session_id == session_id
    return model.game_id.in_(sa.select(Game.id).where(Game.session_id == session_id))


def _dumped(field: RecordField, value: Any) -> Any:
    if field.kind == "object" and value is not None:
        return json.loads(value)
    if field.kind == "time" and value is not None:
        # SQLite gives back the UTC time it stored without its zone; PostgreSQL gives a zone.
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC).isoformat()
    return value


def dumps(document: Mapping[str, Any]) -> str:
    """Write a document as indented JSON text, the cards with their suit symbols."""
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def loads(text: str | bytes) -> Any:
    """Read a document from JSON text, refusing text that is not JSON with a plain message."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        return json.loads(text)
    except UnicodeDecodeError as error:
        raise MalformedDocumentError(f"The file is not UTF-8 text: {error}.") from None
    except json.JSONDecodeError as error:
        raise MalformedDocumentError(
            f"The file is not JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None
    except RecursionError:
        raise MalformedDocumentError(
            "The file nests its arrays or objects too deeply to be an export."
        ) from None
