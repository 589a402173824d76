"""Export every session as one JSON document, and import such a document into an empty database.

The document keeps every id and every time (ISO 8601, UTC), so that exporting what an import
wrote gives the same document again. Sessions keep their public ids and the digests of their
keys, so the links and keys handed out before still open them (version 2; version 1 had
neither), the house rules their table chose (version 3; a version 2 session has none and
reads as its rule system's defaults with its target), each game's audit trail (version 4;
a game of an earlier version has none), the groups the sessions belong to with their
merged names (version 5; before, no session had a group), and what two packs, jokers, swaps,
entries of several melds and players joining or leaving between games need (version 6: a
card's ``copy`` and what a joker ``stands_for``, an entry's ``group_id`` and the kind
``swap``, a player's ``joined_game`` and ``left_game``; before, every card lay once, no
entry was grouped, and every player sat at the table from the first game)::

    {"format": "treppenromme-scorekeeper", "version": 6,
     "groups": [{"id", "public_id", "edit_key_digest", "view_key_digest", "name", "created_at",
                 "merges": [{"id", "name", "same_as", "name_key", "same_as_key",
                             "created_at"}]}],
     "sessions": [
        {"id", "public_id", "edit_key_digest", "view_key_digest",
         "variant", "target", "house_rules", "first_dealer_seat", "status", "created_at",
         "group_id",
         "players": [{"id", "seat", "name", "banked", "joined_game", "left_game"}],
         "games": [{"id", "number", "dealer_id", "status", "winner_id", "romme",
                    "started_at", "ended_at",
                    "entries": [{"id", "position", "kind", "player_id", "meld_id", "meld_kind",
                                 "value", "created_at", "group_id",
                                 "cards": [{"id", "code", "position", "value", "copy",
                                            "stands_for"}]}],
                    "settlement_lines": [{"id", "player_id", "hand", "hand_points", "factor",
                                          "gain", "meld_points"}],
                    "audit_lines": [{"id", "at", "action", "entry_id", "player_id", "kind",
                                     "before", "after"}]}]}]}

An import takes in only what the app itself could have written, since every read and page
trusts what is stored: names as the API checks them, times from 1970 to 2199, seats and the
first dealer of the tables the rule system allows, games numbered from 1 with only the latest
open, public ids and digests of the app's form, audit lines of ``write_line``'s shape, and each
game's entries replayed by the rules core under the session's rule system, each card a copy the
packs hold, and each group's merges as its rules take them: no merge of names that are one
person already, and no session where two names of one person sit (a merge keeps them from one
table). Whatever is refused is named by its place in the document.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from scorekeeper import rules
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
from scorekeeper.rules.errors import GroupError
from scorekeeper.rules.groups import People, group_name, name_key
from scorekeeper.services.audit import line_problem
from scorekeeper.services.rows import CardRow, EntryRow, table_entries

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


# --- the shape of the document -----------------------------------------------------------------


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


# --- export ------------------------------------------------------------------------------------


def export_sessions(session_id: int | None = None) -> dict[str, Any]:
    """Return every session with its players, games, entries, cards and settlements.

    Nine queries, one per table, whatever the database holds; on PostgreSQL they read one
    snapshot, so that a game recorded meanwhile is either wholly in the document or not at all.
    ``session_id`` exports that session alone, in a document ``import_sessions`` reads alike.
    """
    # A read this function begins, it ends (it holds SQLite's write lock); a caller's stays open.
    began = not db.session().in_transaction() and not (
        db.session.new or db.session.dirty or db.session.deleted
    )
    if began and db.session.get_bind().dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    read = functools.partial(_read, session_id=session_id)
    sessions = read(GameSession, _SESSION_STORED, None, GameSession.id)
    for listed in sessions.values():
        listed[:] = [_with_target(record) for record in listed]
    players = read(Player, _PLAYER, Player.session_id, Player.session_id, Player.seat)
    games = read(Game, _GAME, Game.session_id, Game.session_id, Game.number)
    entries = read(Entry, _ENTRY, Entry.game_id, Entry.game_id, Entry.position)
    cards = read(TableCard, _CARD, TableCard.entry_id, TableCard.entry_id, TableCard.position)
    line = SettlementLine
    lines = read(line, _SETTLEMENT_LINE, line.game_id, line.game_id, line.id)
    audit = read(AuditLine, _AUDIT_LINE, AuditLine.game_id, AuditLine.at, AuditLine.id)
    # One session alone goes without its group: the group is more than that session.
    groups = read(Group, _GROUP, None, Group.id) if session_id is None else {}
    merges = read(MergedName, _MERGED_NAME, MergedName.group_id, MergedName.id)
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
    return {field.key: target if field.key == "target" else record[field.key] for field in _SESSION}


def _read(
    model: Any, fields: tuple[_Field, ...], parent: Any, *order: Any, session_id: int | None
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


def _dumped(field: _Field, value: Any) -> Any:
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


# --- import ------------------------------------------------------------------------------------


def import_sessions(document: object) -> int:
    """Write the sessions of an exported document into an empty database, with the same ids.

    Everything is written in one transaction: a refused document writes nothing. Returns the
    number of sessions imported.
    """
    try:
        rows = _Reader().read(document)
    except RecursionError:
        raise MalformedDocumentError(
            "The document nests its arrays or objects too deeply to be an export."
        ) from None
    try:
        _refuse_if_not_empty()
        for model, table_rows in rows:
            if table_rows:
                db.session.execute(sa.insert(model), table_rows)
        _move_id_sequences_past(rows)
        db.session.commit()
    except (sa.exc.IntegrityError, sa.exc.DataError) as error:
        db.session.rollback()
        reason = str(error.orig).strip().splitlines()[0]
        raise MalformedDocumentError(
            f"The document does not fit the database, nothing was imported: {reason}"
        ) from None
    except BaseException:
        db.session.rollback()
        raise
    return sum(len(table_rows) for model, table_rows in rows if model is GameSession)


_TABLES = (
    Group,
    MergedName,
    GameSession,
    Player,
    Game,
    Entry,
    TableCard,
    SettlementLine,
    AuditLine,
)


def _refuse_if_not_empty() -> None:
    if db.session.get_bind().dialect.name == "postgresql":
        # Hold off every other writer (and a second import) until this import is committed.
        db.session.execute(sa.text("LOCK TABLE sessions IN EXCLUSIVE MODE"))
    query = sa.select(*(sa.exists(sa.select(model.id)) for model in _TABLES))
    if any(db.session.execute(query).one()):
        raise DatabaseNotEmptyError(
            "The database is not empty: import only into a new database "
            "(a DATABASE_URL that no one has used yet)."
        )


def _move_id_sequences_past(rows: list[tuple[Any, list[dict[str, Any]]]]) -> None:
    """Make PostgreSQL's id sequences go on after the imported ids; SQLite does that itself."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    largest: dict[str, int] = {}
    for model, table_rows in rows:
        if table_rows:
            name = model.__tablename__
            largest[name] = max(largest.get(name, 0), *(row["id"] for row in table_rows))
    if not largest:
        return
    calls = [
        sa.func.setval(sa.func.pg_get_serial_sequence(name, "id"), last)
        for name, last in largest.items()
    ]
    db.session.execute(sa.select(*calls))


class _Reader:
    """Check a document and turn it into rows per table, in the order they can be inserted."""

    def __init__(self) -> None:
        self.seen: dict[str, set[int]] = defaultdict(set)
        self.public_ids: set[str] = set()
        self.group_ids: set[str] = set()
        self.rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
        # Each group's merges (name, same_as) in order, and its sessions' players by seat.
        self.merges: dict[int, list[tuple[str, str]]] = defaultdict(list)
        self.tables: list[tuple[int, str, list[str]]] = []

    def read(self, document: object) -> list[tuple[Any, list[dict[str, Any]]]]:
        """Return the rows of every table, or raise a TransferError naming what is wrong."""
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise UnknownFormatError(
                f'This is not a scorekeeper export: it needs "format": "{FORMAT}".'
            )
        if document.get("version") not in _READABLE:
            raise UnknownFormatError(
                f"This export has version {document.get('version')!r}; "
                f"this scorekeeper reads versions {' and '.join(map(str, _READABLE))}."
            )
        self.version = document["version"]
        # Groups came with version 5.
        groups = ("groups",) if self.version >= 5 else ()
        self._keys(document, "the document", ("format", "version", *groups, "sessions"))
        listed = self._list(document, "groups", "the document") if groups else []
        for index, group in enumerate(listed):
            self._group(group, f"groups[{index}]")
        for index, session in enumerate(self._list(document, "sessions", "the document")):
            self._session(session, f"sessions[{index}]")
        self._merged_names_apart()
        return [
            (Group, self.rows["groups"]),
            (MergedName, self.rows["merged_names"]),
            (GameSession, self.rows["sessions"]),
            (Player, self.rows["players"]),
            (Game, self.rows["games"]),
            # In the document's order: an entry names only entries before it in its game.
            (Entry, self.rows["entries"]),
            (TableCard, self.rows["table_cards"]),
            (SettlementLine, self.rows["settlement_lines"]),
            (AuditLine, self.rows["audit_lines"]),
        ]

    def _group(self, record: object, path: str) -> None:
        row = self._record(record, path, _GROUP, "groups", ("merges",))
        _public_id_and_digests(row, path)
        if row["public_id"] in self.group_ids:
            raise MalformedDocumentError(f"{path}.public_id: empty, or the id of another group.")
        self.group_ids.add(row["public_id"])
        _tidy(row, "name", path, group_name)
        for index, merge in enumerate(self._list(record, "merges", path)):
            merge_path = f"{path}.merges[{index}]"
            merge_row = self._record(merge, merge_path, _MERGED_NAME, "merged_names")
            merge_row["group_id"] = row["id"]
            for key in ("name", "same_as"):
                _tidy(merge_row, key, merge_path, _player_name)
                if merge_row[f"{key}_key"] != name_key(merge_row[key]):
                    raise MalformedDocumentError(
                        f"{merge_path}: the key of {merge_row[key]!r} should be "
                        f"{name_key(merge_row[key])!r}."
                    )
            merges = self.merges[row["id"]]
            try:
                People(merges).check_people(merge_row["name"], merge_row["same_as"])
            except GroupError as error:
                raise MalformedDocumentError(f"{merge_path}: {error}") from None
            merges.append((merge_row["name"], merge_row["same_as"]))

    def _merged_names_apart(self) -> None:
        """Refuse a session of a group where two of its players are one person by its merges."""
        for group, path, names in self.tables:
            try:
                People(self.merges[group]).check_players(names)
            except GroupError as error:
                raise MalformedDocumentError(f"{path}.players: {error}") from None

    def _session(self, record: object, path: str) -> None:
        if self.version == 2:
            row = self._record(record, path, _SESSION_2, "sessions", ("players", "games"))
            row["house_rules"] = None
        else:
            fields = _SESSION if self.version >= 5 else _SESSION_4
            row = self._record(record, path, fields, "sessions", ("players", "games"))
        row.setdefault("group_id", None)
        if row["group_id"] is not None and row["group_id"] not in self.seen["groups"]:
            raise MalformedDocumentError(f"{path}.group_id: no group of the document has that id.")
        _public_id_and_digests(row, path)
        if row["public_id"] in self.public_ids:
            raise MalformedDocumentError(f"{path}.public_id: empty, or the id of another session.")
        self.public_ids.add(row["public_id"])
        # The target is kept in the house rules alone; a session without house rules (stored
        # before they existed) gets the one it was played by, as migration 0016 gave them.
        target = row.pop("target")
        try:
            if row["house_rules"] is None:
                variant = rules.find_variant(row["variant"])
            else:
                variant = rules.find_variant(row["variant"], json.loads(row["house_rules"]))
        except ValueError as error:
            raise MalformedDocumentError(f"{path}.variant: {error}") from None
        if row["house_rules"] is None and target is None:
            raise MalformedDocumentError(f"{path}.target: a session without house rules needs one.")
        if row["house_rules"] is None:
            row["house_rules"] = json.dumps({"end": {"target": target}})
        else:
            kept = variant.house_rules["end"].get("target")
            if target != kept:
                raise MalformedDocumentError(
                    f"{path}.target: {target!r} is not the target of its house rules ({kept!r})."
                )
        # Each player's games: from the first they joined to the first they left, if they left.
        players: dict[int, tuple[int, int | None]] = {}
        names: set[str] = set()
        seats: list[int] = []
        tidied: list[str] = []
        listed = self._list(record, "players", path)
        games = self._list(record, "games", path)
        coming = len(games) + 1  # the number of the next game to deal
        for index, player in enumerate(listed):
            player_path = f"{path}.players[{index}]"
            fields = _PLAYER if self.version >= 6 else _PLAYER_5
            player_row = self._record(player, player_path, fields, "players")
            player_row.setdefault("joined_game", 1)
            player_row.setdefault("left_game", None)
            joined, left = player_row["joined_game"], player_row["left_game"]
            if left is not None and left <= joined:
                raise MalformedDocumentError(
                    f"{player_path}.left_game: a player leaves after the game they joined."
                )
            if max(joined, left or 0) > coming:
                raise MalformedDocumentError(
                    f"{player_path}: a player joins or leaves at the latest before game "
                    f"{coming}, the next game of the session."
                )
            _tidy(player_row, "name", player_path, _player_name)
            if rules.same_name(player_row["name"]) in names:
                raise MalformedDocumentError(
                    f"{player_path}.name: {player_row['name']!r} is the name of another player "
                    "of the session (as the API compares names: case and spaces aside)."
                )
            names.add(rules.same_name(player_row["name"]))
            tidied.append(player_row["name"])
            player_row["session_id"] = row["id"]
            players[player_row["id"]] = (joined, left)
            seats.append(player_row["seat"])
        self._seating(path, row, variant, seats, players, coming)
        if row["group_id"] is not None:
            by_seat = [name for _seat, name in sorted(zip(seats, tidied, strict=True))]
            self.tables.append((row["group_id"], path, by_seat))
        for index, game in enumerate(games):
            game_path = f"{path}.games[{index}]"
            game_row = self._game(game, game_path, row["id"], players, variant)
            if game_row["number"] != index + 1:
                raise MalformedDocumentError(
                    f"{game_path}.number: {game_row['number']!r} should be {index + 1}: a "
                    "session's games are numbered from 1, in the order they were dealt."
                )
            if game_row["status"] == "open" and (index + 1 < len(games) or row["status"] != "open"):
                raise MalformedDocumentError(
                    f"{game_path}.status: only the latest game of a session still played is open."
                )

    @staticmethod
    def _seating(
        path: str,
        row: dict[str, Any],
        variant: rules.Variant,
        seats: list[int],
        players: dict[int, tuple[int, int | None]],
        coming: int,
    ) -> None:
        """Refuse seats, tables or a first dealer the app never leaves behind."""
        if sorted(seats) != list(range(len(seats))):
            raise MalformedDocumentError(
                f"{path}.players: the seats are {sorted(seats)}; the app numbers them from 0 "
                f"to {len(seats) - 1}, one player a seat."
            )
        low, high = variant.min_players, variant.max_players
        stays = [rules.Stay(joined, left) for joined, left in players.values()]
        for number in range(1, coming + 1):
            dealt = sum(stay.plays_in(number) for stay in stays)
            if not low <= dealt <= high:
                said = f"game {number}" if number < coming else "the next game"
                raise MalformedDocumentError(
                    f"{path}.players: {dealt} players sit at the table for {said}; "
                    f"{variant.label()} is played by {low} to {high}."
                )
        first = sum(stay.plays_in(1) for stay in stays)
        if not 0 <= row["first_dealer_seat"] < first:
            raise MalformedDocumentError(
                f"{path}.first_dealer_seat: {row['first_dealer_seat']!r} is not a seat of the "
                f"first game (0 to {first - 1})."
            )

    def _game(
        self,
        record: object,
        path: str,
        session_id: int,
        players: dict[int, tuple[int, int | None]],
        variant: rules.Variant,
    ) -> dict[str, Any]:
        # A game of version 4 holds its audit trail; before, it had none.
        trail = ("audit_lines",) if self.version >= 4 else ()
        children = ("entries", "settlement_lines", *trail)
        row = self._record(record, path, _GAME, "games", children)
        row["session_id"] = session_id
        number = row["number"]
        self._player(row, "dealer_id", path, players, number)
        self._player(row, "winner_id", path, players, number)
        melds: set[int] = set()
        earlier: set[int] = set()
        cards: set[tuple[str, int]] = set()
        # The game's entries as the app reads them back, to replay by the rules.
        stored: list[EntryRow] = []
        paths: dict[int, str] = {}
        entry_fields, card_fields = (_ENTRY, _CARD) if self.version >= 6 else (_ENTRY_5, _CARD_5)
        for index, entry in enumerate(self._list(record, "entries", path)):
            entry_path = f"{path}.entries[{index}]"
            entry_row = self._record(entry, entry_path, entry_fields, "entries", ("cards",))
            entry_row.setdefault("group_id", None)
            entry_row["game_id"] = row["id"]
            self._player(entry_row, "player_id", entry_path, players, number)
            if entry_row["kind"] == "meld":
                if entry_row["meld_id"] is not None:
                    raise MalformedDocumentError(f"{entry_path}.meld_id: a meld lies on no meld.")
                melds.add(entry_row["id"])
            elif entry_row["meld_id"] not in melds:
                raise MalformedDocumentError(
                    f"{entry_path}.meld_id: a layoff must name a meld entered before it in the "
                    "same game (a swap too)."
                )
            if entry_row["group_id"] is not None and entry_row["group_id"] not in earlier:
                raise MalformedDocumentError(
                    f"{entry_path}.group_id: an entry is grouped with one entered before it "
                    "in the same game."
                )
            if stored and entry_row["position"] <= stored[-1].position:
                raise MalformedDocumentError(
                    f"{entry_path}.position: a game's entries are listed in the order of their "
                    "positions, each after the one before."
                )
            meld_kinds = ("set", "sequence") if entry_row["kind"] == "meld" else (None,)
            if entry_row["meld_kind"] not in meld_kinds:
                raise MalformedDocumentError(
                    f"{entry_path}.meld_kind: {entry_row['meld_kind']!r} is not "
                    f"{' or '.join(map(repr, meld_kinds))} (for a {entry_row['kind']})."
                )
            earlier.add(entry_row["id"])
            card_rows = []
            for card_index, card in enumerate(self._list(entry, "cards", entry_path)):
                card_path = f"{entry_path}.cards[{card_index}]"
                card_row = self._record(card, card_path, card_fields, "table_cards")
                card_row.setdefault("copy", 0)
                card_row.setdefault("stands_for", None)
                card_row |= {"entry_id": entry_row["id"], "game_id": row["id"]}
                self._card(card_row, card_path, cards, variant)
                card_rows.append(
                    CardRow(
                        card_row["id"],
                        card_row["card"],
                        card_row["value"],
                        card_row["copy"],
                        card_row["stands_for"],
                    )
                )
            stored.append(EntryRow(**{key: entry_row[key] for key in _ENTRY_ROW}, cards=card_rows))
            paths[entry_row["id"]] = entry_path
        self._replay(stored, paths, variant)
        for index, line in enumerate(self._list(record, "settlement_lines", path)):
            line_path = f"{path}.settlement_lines[{index}]"
            line_row = self._record(line, line_path, _SETTLEMENT_LINE, "settlement_lines")
            line_row["game_id"] = row["id"]
            self._player(line_row, "player_id", line_path, players, number)
            if line_row["hand"] is not None:
                try:
                    variant.read_cards(line_row["hand"])
                except rules.RulesError as error:
                    raise MalformedDocumentError(f"{line_path}.hand: {error}") from None
        for index, line in enumerate(self._list(record, "audit_lines", path) if trail else []):
            line_path = f"{path}.audit_lines[{index}]"
            line_row = self._record(line, line_path, _AUDIT_LINE, "audit_lines")
            line_row["game_id"] = row["id"]
            self._player(line_row, "player_id", line_path, players, number)
            problem = line_problem(
                line_row["action"],
                json.loads(line_row["before"]),
                None if line_row["after"] is None else json.loads(line_row["after"]),
            )
            if problem is not None:
                raise MalformedDocumentError(f"{line_path}.{problem}.")
        return row

    @staticmethod
    def _replay(stored: list[EntryRow], paths: dict[int, str], variant: rules.Variant) -> None:
        """Refuse entries the rules do not let onto the table one after the other, as recorded."""
        # A swap is read together with the meld recorded with it (the joker it took, melded).
        swaps = {entry.id for entry in stored if entry.kind == "swap"}
        new_melds = {entry.group_id for entry in stored if entry.kind == "meld"}
        for entry in stored:
            if entry.id in swaps - new_melds:
                raise MalformedDocumentError(
                    f"{paths[entry.id]}: a swap is followed by the meld of the joker it took "
                    "(an entry of that game grouped with it)."
                )
            if entry.kind != "meld" and entry.group_id is not None:
                raise MalformedDocumentError(
                    f"{paths[entry.id]}.group_id: only a meld is recorded with another entry."
                )
        table: rules.Table[int] = rules.Table(variant)
        for played in table_entries(stored):
            try:
                table.play(played)
            except rules.RulesError as error:
                raise MalformedDocumentError(
                    f"{paths[played.key]}: the rules of {variant.label()} refuse this entry "
                    f"here: {error}"
                ) from None

    def _record(
        self,
        record: object,
        path: str,
        fields: tuple[_Field, ...],
        table: str,
        children: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """Check one record's keys and values; return its row, added to its table's rows."""
        self._keys(record, path, (*(field.key for field in fields), *children))
        assert isinstance(record, dict)
        row = {field.column: _loaded(field, record[field.key], path) for field in fields}
        if row["id"] in self.seen[table]:
            raise MalformedDocumentError(f"{path}.id: id {row['id']} appears twice.")
        self.seen[table].add(row["id"])
        self.rows[table].append(row)
        return row

    @staticmethod
    def _keys(record: object, path: str, keys: Iterable[str]) -> None:
        if not isinstance(record, dict):
            raise MalformedDocumentError(f"{path} should be an object.")
        expected = list(keys)
        missing = [key for key in expected if key not in record]
        if missing:
            raise MalformedDocumentError(f"{path} has no {', '.join(map(repr, missing))}.")
        unknown = [key for key in record if key not in expected]
        if unknown:
            raise MalformedDocumentError(f"{path} has unknown {', '.join(map(repr, unknown))}.")

    @staticmethod
    def _list(record: object, key: str, path: str) -> list[Any]:
        assert isinstance(record, dict)
        value = record[key]
        if not isinstance(value, list):
            raise MalformedDocumentError(f"{path}.{key} should be a list.")
        return value

    @staticmethod
    def _player(
        row: dict[str, Any],
        key: str,
        path: str,
        players: dict[int, tuple[int, int | None]],
        number: int,
    ) -> None:
        """Refuse a player who is not of the session, or did not sit at the table that game."""
        if row[key] is None:
            return
        if row[key] not in players:
            raise MalformedDocumentError(
                f"{path}.{key}: player {row[key]} does not play in this session."
            )
        joined, left = players[row[key]]
        if not joined <= number < (left or number + 1):
            raise MalformedDocumentError(
                f"{path}.{key}: player {row[key]} did not sit at the table in game {number}."
            )

    @staticmethod
    def _card(
        row: dict[str, Any], path: str, cards: set[tuple[str, int]], variant: rules.Variant
    ) -> None:
        code, copy, stands_for = row["card"], row["copy"], row["stands_for"]
        joker = rules.Joker().code
        for key, said in (("code", code), ("stands_for", stands_for)):
            if said is None or (key == "code" and said == joker):
                continue
            try:
                canonical = rules.Card.from_code(said).code
            except rules.RulesError as error:
                raise MalformedDocumentError(f"{path}.{key}: {error}") from None
            if canonical != said:
                raise MalformedDocumentError(
                    f"{path}.{key}: {said!r} should be written {canonical!r}."
                )
        if stands_for is not None and code != joker:
            raise MalformedDocumentError(f"{path}.stands_for: only a joker stands for a card.")
        piece = rules.Joker() if code == joker else rules.Card.from_code(code)
        if not rules.copy_in_packs(piece, copy, variant):
            raise MalformedDocumentError(
                f"{path}.copy: the packs of {variant.label()} hold no copy {copy} of {code} "
                "(copies are counted from 0)."
            )
        if (code, copy) in cards:
            said = f"{code} (copy {copy})" if copy else code
            raise MalformedDocumentError(f"{path}.code: {said} lies on the table twice.")
        cards.add((code, copy))


# The keys of an entry's record that the app's own rows of an entry have (EntryRow).
_ENTRY_ROW = (
    "id",
    "position",
    "kind",
    "player_id",
    "meld_id",
    "meld_kind",
    "value",
    "created_at",
    "group_id",
)


def _public_id_and_digests(row: dict[str, Any], path: str) -> None:
    """Refuse a public id the app could not have made (or reach), and digests of no key."""
    if not _PUBLIC_ID.fullmatch(row["public_id"]):
        raise MalformedDocumentError(
            f"{path}.public_id: {row['public_id']!r} is not an id the app makes "
            "(22 letters, digits, - or _)."
        )
    for key in ("edit_key_digest", "view_key_digest"):
        if not _DIGEST.fullmatch(row[key]):
            raise MalformedDocumentError(
                f"{path}.{key}: not the digest of a key (64 hexadecimal digits, 0-9 and a-f)."
            )


def _player_name(name: str) -> str:
    """Return a player's name as the API would seat it, or raise why it cannot be one."""
    return rules.check_names([name])[0]


def _tidy(row: dict[str, Any], key: str, path: str, check: Callable[[str], str]) -> None:
    """Refuse a name the API would refuse, or would have written otherwise."""
    try:
        tidied = check(row[key])
    except rules.RulesError as error:
        raise MalformedDocumentError(f"{path}.{key}: {row[key]!r}: {error}") from None
    if tidied != row[key]:
        raise MalformedDocumentError(f"{path}.{key}: {row[key]!r} should be written {tidied!r}.")


_CHECKS: dict[str, tuple[str, Callable[[Any, _Field], bool]]] = {
    "id": (
        "a whole number from 1 to 2147483647",
        lambda value, _field: _is_int(value) and 1 <= value <= _LARGEST_INT,
    ),
    "int": (
        "a whole number from -2147483648 to 2147483647",
        lambda value, _field: _is_int(value) and _SMALLEST_INT <= value <= _LARGEST_INT,
    ),
    "text": (
        "a text",
        lambda value, field: (
            isinstance(value, str)
            and len(value) <= field.length
            and "\x00" not in value
            and (not field.choices or value in field.choices)
        ),
    ),
    "bool": ("true or false", lambda value, _field: isinstance(value, bool)),
    "object": ("an object", lambda value, _field: isinstance(value, dict)),
    "time": (
        "an ISO 8601 time with its zone, from 1970 to 2199",
        lambda value, _field: _time(value) is not None,
    ),
}


def _loaded(field: _Field, value: Any, path: str) -> Any:
    """Check one value of the document; return it as the database column takes it."""
    if value is None and field.nullable:
        return None
    expected, check = _CHECKS[field.kind]
    if not check(value, field):
        if field.choices:
            expected = " or ".join(map(repr, field.choices))
        elif field.kind == "text":
            expected = f"a text of at most {field.length} characters"
        if field.nullable:
            expected += ", or null"
        raise MalformedDocumentError(f"{path}.{field.key}: {value!r} is not {expected}.")
    if field.kind == "object":
        return json.dumps(value, sort_keys=True)
    return _time(value) if field.kind == "time" else value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _time(value: Any) -> datetime | None:
    """Read an ISO 8601 time with its zone, as UTC; None when it is not one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is None:
            return None
        # 0001-01-01T00:30:00+01:00 is a time before the first year: no datetime holds it.
        moment = moment.astimezone(UTC)
    except (ValueError, OverflowError):
        return None
    return moment if _EARLIEST <= moment < _LATEST else None
