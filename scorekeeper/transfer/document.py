"""The document's format: its name, its version, the fields of each record, and its errors."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

FORMAT = "treppenromme-scorekeeper"
VERSION = 7
# Version 2 lacks only the sessions' house rules, version 3 only the games' audit trails,
# version 4 only the groups, version 5 only copies, jokers, swaps, entry groups and seats,
# version 6 only the times the entries were tapped.
READABLE = (2, 3, 4, 5, 6, 7)

# INTEGER columns are 32 bits on PostgreSQL; refuse larger numbers before the database does.
SMALLEST_INT = -(2**31)
LARGEST_INT = 2**31 - 1
# Times the app can have written and every page can show (in any zone, a day either side).
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
# Public ids as the app makes them: 128 random bits, URL-safe Base64 (keys.new_public_id).
PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{22}")
# A key's digest: SHA-256 in hexadecimal (keys.digest).
DIGEST = re.compile(r"[0-9a-f]{64}")


class TransferError(ValueError):
    """An import was refused; the message says why, and nothing was written."""


class DatabaseNotEmptyError(TransferError):
    """The database already holds sessions: an import only fills an empty database."""


class UnknownFormatError(TransferError):
    """The document is not a scorekeeper export, or of a version this app does not read."""


class MalformedDocumentError(TransferError):
    """The document is a scorekeeper export but does not hold what one must hold."""


# --- the shape of the document -----------------------------------------------------------------


@dataclass(frozen=True)
class RecordField:
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


def _id(key: str, *, nullable: bool = False) -> RecordField:
    return RecordField(key, "id", nullable)


def _int(key: str, *, nullable: bool = False) -> RecordField:
    return RecordField(key, "int", nullable)


def _text(key: str, length: int, *choices: str, nullable: bool = False) -> RecordField:
    return RecordField(key, "text", nullable, length, choices)


SESSION = (
    _id("id"),
    _text("public_id", 32),
    _text("edit_key_digest", 64),
    _text("view_key_digest", 64),
    _text("variant", 40),
    _int("target", nullable=True),
    RecordField("house_rules", "object", nullable=True),
    _int("first_dealer_seat"),
    _text("status", 10, "open", "finished"),
    RecordField("created_at", "time"),
    _id("group_id", nullable=True),
)
# What the sessions table stores: the target is in the house rules.
SESSION_STORED = tuple(field for field in SESSION if field.key != "target")
# Before version 5: no groups.
SESSION_4 = tuple(field for field in SESSION if field.key != "group_id")
# Version 2: no house rules, and every session has its target.
SESSION_2 = tuple(
    _int("target") if field.key == "target" else field
    for field in SESSION_4
    if field.key != "house_rules"
)
GROUP = (
    _id("id"),
    _text("public_id", 32),
    _text("edit_key_digest", 64),
    _text("view_key_digest", 64),
    _text("name", 40),
    RecordField("created_at", "time"),
)
MERGED_NAME = (
    _id("id"),
    _text("name", 40),
    _text("same_as", 40),
    _text("name_key", 600),
    _text("same_as_key", 600),
    RecordField("created_at", "time"),
)
PLAYER = (
    _id("id"),
    _int("seat"),
    _text("name", 40),
    _int("banked"),
    _id("joined_game"),
    _id("left_game", nullable=True),
)
# Before version 6: every player sat at the table from the first game on.
PLAYER_5 = PLAYER[:4]
GAME = (
    _id("id"),
    _int("number"),
    _id("dealer_id"),
    _text("status", 10, "open", "finished", "abandoned"),
    _id("winner_id", nullable=True),
    RecordField("romme", "bool", nullable=True),
    RecordField("started_at", "time"),
    RecordField("ended_at", "time", nullable=True),
)
ENTRY = (
    _id("id"),
    _int("position"),
    _text("kind", 10, "meld", "layoff", "swap"),
    _id("player_id"),
    _id("meld_id", nullable=True),
    _text("meld_kind", 10, nullable=True),
    _int("value"),
    RecordField("created_at", "time"),
    _id("group_id", nullable=True),
    # When the entry was tapped on the phone, where the phone sent a time the server kept.
    RecordField("tapped_at", "time", nullable=True),
)
# Before version 7: no tap times.
ENTRY_6 = tuple(field for field in ENTRY if field.key != "tapped_at")
CARD = (
    _id("id"),
    RecordField("code", "text", length=4, attribute="card"),
    _int("position"),
    _int("value"),
    _int("copy"),
    _text("stands_for", 4, nullable=True),
)
# Before version 6: no swaps, no entry groups, every card once and no joker.
ENTRY_5 = tuple(
    _text("kind", 10, "meld", "layoff") if field.key == "kind" else field
    for field in ENTRY_6
    if field.key != "group_id"
)
CARD_5 = CARD[:4]
SETTLEMENT_LINE = (
    _id("id"),
    _id("player_id"),
    _text("hand", 200, nullable=True),
    _int("hand_points", nullable=True),
    _int("factor"),
    _int("gain"),
    _int("meld_points"),
)
AUDIT_LINE = (
    _id("id"),
    RecordField("at", "time"),
    _text("action", 10, "corrected", "deleted", "undone", "restored", "reopened", "recomputed"),
    _id("entry_id", nullable=True),
    _id("player_id", nullable=True),
    _text("kind", 10, "meld", "layoff", "swap", nullable=True),
    RecordField("before", "object"),
    RecordField("after", "object", nullable=True),
)
