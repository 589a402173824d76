"""The export document's shape: its format and version, each record's fields, errors, JSON text."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

FORMAT = "treppenromme-scorekeeper"
VERSION = 6
# Version 2 lacks only the sessions' house rules, version 3 only the games' audit trails,
# version 4 only the groups, version 5 only copies, jokers, swaps, entry groups and seats.
_READABLE = (2, 3, 4, 5, 6)

# INTEGER columns are 32 bits on PostgreSQL; refuse larger numbers before the database does.
_SMALLEST_INT = -(2**31)
_LARGEST_INT = 2**31 - 1
# Times the app can have written and every page can show (in any zone, a day either side).
_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
_LATEST = datetime(2200, 1, 1, tzinfo=UTC)
# Public ids as the app makes them: 128 random bits, URL-safe Base64 (keys.new_public_id).
_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{22}")
# A key's digest: SHA-256 in hexadecimal (keys.digest).
_DIGEST = re.compile(r"[0-9a-f]{64}")


class TransferError(ValueError):
    """An import was refused; the message says why, and nothing was written."""


class DatabaseNotEmptyError(TransferError):
    """The database already holds sessions: an import only fills an empty database."""


class UnknownFormatError(TransferError):
    """The document is not a scorekeeper export, or of a version this app does not read."""


class MalformedDocumentError(TransferError):
    """The document is a scorekeeper export but does not hold what one must hold."""


@dataclass(frozen=True)
class _Field:
    """One key of a record in the document and the model attribute it is stored in."""

    key: str
    kind: str  # "id", "int", "text", "bool", "time" or "object" (stored as JSON text)
    nullable: bool = False
    length: int = 0
    choices: tuple[str, ...] = ()
    attribute: str = ""

    @property
    def column(self) -> str:
        return self.attribute or self.key


def _id(key: str, *, nullable: bool = False) -> _Field:
    return _Field(key, "id", nullable)


def _int(key: str, *, nullable: bool = False) -> _Field:
    return _Field(key, "int", nullable)


def _text(key: str, length: int, *choices: str, nullable: bool = False) -> _Field:
    return _Field(key, "text", nullable, length, choices)


_SESSION = (
    _id("id"),
    _text("public_id", 32),
    _text("edit_key_digest", 64),
    _text("view_key_digest", 64),
    _text("variant", 40),
    _int("target", nullable=True),
    _Field("house_rules", "object", nullable=True),
    _int("first_dealer_seat"),
    _text("status", 10, "open", "finished"),
    _Field("created_at", "time"),
    _id("group_id", nullable=True),
)
# What the sessions table stores: the target is in the house rules.
_SESSION_STORED = tuple(field for field in _SESSION if field.key != "target")
# Before version 5: no groups.
_SESSION_4 = tuple(field for field in _SESSION if field.key != "group_id")
# Version 2: no house rules, and every session has its target.
_SESSION_2 = tuple(
    _int("target") if field.key == "target" else field
    for field in _SESSION_4
    if field.key != "house_rules"
)
_GROUP = (
    _id("id"),
    _text("public_id", 32),
    _text("edit_key_digest", 64),
    _text("view_key_digest", 64),
    _text("name", 40),
    _Field("created_at", "time"),
)
_MERGED_NAME = (
    _id("id"),
    _text("name", 40),
    _text("same_as", 40),
    _text("name_key", 120),
    _text("same_as_key", 120),
    _Field("created_at", "time"),
)
_PLAYER = (
    _id("id"),
    _int("seat"),
    _text("name", 40),
    _int("banked"),
    _id("joined_game"),
    _id("left_game", nullable=True),
)
# Before version 6: every player sat at the table from the first game on.
_PLAYER_5 = _PLAYER[:4]
_GAME = (
    _id("id"),
    _int("number"),
    _id("dealer_id"),
    _text("status", 10, "open", "finished", "abandoned"),
    _id("winner_id", nullable=True),
    _Field("romme", "bool", nullable=True),
    _Field("started_at", "time"),
    _Field("ended_at", "time", nullable=True),
)
_ENTRY = (
    _id("id"),
    _int("position"),
    _text("kind", 10, "meld", "layoff", "swap"),
    _id("player_id"),
    _id("meld_id", nullable=True),
    _text("meld_kind", 10, nullable=True),
    _int("value"),
    _Field("created_at", "time"),
    _id("group_id", nullable=True),
)
_CARD = (
    _id("id"),
    _Field("code", "text", length=4, attribute="card"),
    _int("position"),
    _int("value"),
    _int("copy"),
    _text("stands_for", 4, nullable=True),
)
# Before version 6: no swaps, no entry groups, every card once and no joker.
_ENTRY_5 = tuple(
    _text("kind", 10, "meld", "layoff") if field.key == "kind" else field
    for field in _ENTRY
    if field.key != "group_id"
)
_CARD_5 = _CARD[:4]
_SETTLEMENT_LINE = (
    _id("id"),
    _id("player_id"),
    _text("hand", 200, nullable=True),
    _int("hand_points", nullable=True),
    _int("factor"),
    _int("gain"),
    _int("meld_points"),
)
_AUDIT_LINE = (
    _id("id"),
    _Field("at", "time"),
    _text("action", 10, "corrected", "deleted", "undone", "restored", "reopened"),
    _id("entry_id", nullable=True),
    _id("player_id", nullable=True),
    _text("kind", 10, "meld", "layoff", "swap", nullable=True),
    _Field("before", "object"),
    _Field("after", "object", nullable=True),
)


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
