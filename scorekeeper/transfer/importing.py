"""Import an exported document into an empty database, checking everything the app trusts."""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
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
    utcnow,
)
from scorekeeper.rules.errors import GroupError
from scorekeeper.rules.groups import People, group_name, name_key
from scorekeeper.store import (
    CardRow,
    EntryRow,
    booked_result,
    line_problem,
    recomputed_result,
    table_entries,
)
from scorekeeper.transfer.document import (
    AUDIT_LINE,
    CARD,
    CARD_5,
    DIGEST,
    EARLIEST,
    ENTRY,
    ENTRY_5,
    ENTRY_6,
    FORMAT,
    GAME,
    GROUP,
    LARGEST_INT,
    LATEST,
    MERGED_NAME,
    PLAYER,
    PLAYER_5,
    PUBLIC_ID,
    READABLE,
    SESSION,
    SESSION_2,
    SESSION_4,
    SETTLEMENT_LINE,
    SMALLEST_INT,
    DatabaseNotEmptyError,
    MalformedDocumentError,
    RecordField,
    UnknownFormatError,
)

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
        # Every key digest of the document: one key opens one session or group, as one role.
        self.digests: set[str] = set()
        # The audit lines of games settled again by today's rules, given ids at the end.
        self.recomputed: list[dict[str, Any]] = []

    def read(self, document: object) -> list[tuple[Any, list[dict[str, Any]]]]:
        """Return the rows of every table, or raise a TransferError naming what is wrong."""
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise UnknownFormatError(
                f'This is not a scorekeeper export: it needs "format": "{FORMAT}".'
            )
        if document.get("version") not in READABLE:
            raise UnknownFormatError(
                f"This export has version {document.get('version')!r}; "
                f"this scorekeeper reads versions {' and '.join(map(str, READABLE))}."
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
        # After the document's own lines, so that no id is taken twice.
        next_id = max(self.seen["audit_lines"], default=0) + 1
        for number, line in enumerate(self.recomputed, start=next_id):
            self.rows["audit_lines"].append({**line, "id": number})
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
        row = self._record(record, path, GROUP, "groups", ("merges",))
        _public_id_and_digests(row, path)
        if row["public_id"] in self.group_ids:
            raise MalformedDocumentError(f"{path}.public_id: empty, or the id of another group.")
        self.group_ids.add(row["public_id"])
        self._digests(row, path)
        _tidy(row, "name", path, group_name)
        merge_rows = []
        for index, merge in enumerate(self._list(record, "merges", path)):
            merge_path = f"{path}.merges[{index}]"
            merge_row = self._record(merge, merge_path, MERGED_NAME, "merged_names")
            merge_row["group_id"] = row["id"]
            merge_rows.append((merge_path, merge_row))
        # Versions before names were compared in NFKC wrote keys only case folded (migration
        # 0017 writes them again): such a group's keys are read as they are kept now.
        older = False
        for merge_path, merge_row in merge_rows:
            for key in ("name", "same_as"):
                _tidy(merge_row, key, merge_path, _player_name)
                written, kept = merge_row[f"{key}_key"], name_key(merge_row[key])
                if written not in (kept, _key_before_nfkc(merge_row[key])):
                    raise MalformedDocumentError(
                        f"{merge_path}: the key of {merge_row[key]!r} should be {kept!r}."
                    )
                older = older or written != kept
                merge_row[f"{key}_key"] = kept
        merges = self.merges[row["id"]]
        for merge_path, merge_row in merge_rows:
            try:
                People(merges).check_people(merge_row["name"], merge_row["same_as"])
            except GroupError as error:
                if older and error.message_id in ("group.same_name", "group.same_person"):
                    # Two names then, one person now: the merge says nothing new (as in 0017).
                    self.rows["merged_names"].remove(merge_row)
                    continue
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
            row = self._record(record, path, SESSION_2, "sessions", ("players", "games"))
            row["house_rules"] = None
        else:
            fields = SESSION if self.version >= 5 else SESSION_4
            row = self._record(record, path, fields, "sessions", ("players", "games"))
        row.setdefault("group_id", None)
        if row["group_id"] is not None and row["group_id"] not in self.seen["groups"]:
            raise MalformedDocumentError(f"{path}.group_id: no group of the document has that id.")
        _public_id_and_digests(row, path)
        self._digests(row, path)
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
            played_to = {"end": {"target": target}}
            row["house_rules"] = json.dumps(played_to)
            try:
                # Read as the app reads it: its rule system's defaults played to its target.
                variant = rules.find_variant(row["variant"], played_to)
            except ValueError as error:
                raise MalformedDocumentError(f"{path}.target: {error}") from None
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
        player_rows: list[tuple[str, dict[str, Any]]] = []
        listed = self._list(record, "players", path)
        games = self._list(record, "games", path)
        coming = len(games) + 1  # the number of the next game to deal
        for index, player in enumerate(listed):
            player_path = f"{path}.players[{index}]"
            fields = PLAYER if self.version >= 6 else PLAYER_5
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
            player_rows.append((player_path, player_row))
        self._seating(path, row, variant, seats, players, coming)
        if row["group_id"] is not None:
            by_seat = [name for _seat, name in sorted(zip(seats, tidied, strict=True))]
            self.tables.append((row["group_id"], path, by_seat))
        by_seat_rows = sorted((player_row for _, player_row in player_rows), key=_seat)
        results: list[_Result] = []
        for index, game in enumerate(games):
            game_path = f"{path}.games[{index}]"
            dealt = {
                player["id"]: player["name"]
                for player in by_seat_rows
                if rules.Stay(*players[player["id"]]).plays_in(index + 1)
            }
            game_row, result = self._game(game, game_path, row["id"], players, variant, dealt)
            if result is not None:
                results.append(result)
            if game_row["number"] != index + 1:
                raise MalformedDocumentError(
                    f"{game_path}.number: {game_row['number']!r} should be {index + 1}: a "
                    "session's games are numbered from 1, in the order they were dealt."
                )
            if game_row["status"] == "open" and (index + 1 < len(games) or row["status"] != "open"):
                raise MalformedDocumentError(
                    f"{game_path}.status: only the latest game of a session still played is open."
                )
        self._totals(path, row, variant, player_rows, players, results, len(games))

    @staticmethod
    def _totals(
        path: str,
        row: dict[str, Any],
        variant: rules.Variant,
        player_rows: list[tuple[str, dict[str, Any]]],
        players: dict[int, tuple[int, int | None]],
        results: list[_Result],
        games: int,
    ) -> None:
        """Refuse totals and a status the games do not add up to; book recomputed games anew."""
        booked: dict[int, int] = defaultdict(int)
        today: dict[int, int] = defaultdict(int)
        for result in results:
            for player, points in result.booked.items():
                booked[player] += points
            for player, points in result.today.items():
                today[player] += points
        for player_path, player_row in player_rows:
            if player_row["banked"] != booked[player_row["id"]]:
                raise MalformedDocumentError(
                    f"{player_path}.banked: {player_row['banked']!r} is not the sum of what the "
                    f"player's ended games booked ({booked[player_row['id']]})."
                )
            player_row["banked"] = today[player_row["id"]]
        if len(results) < games:
            return  # the latest game is open, and so is the session (checked above)
        # Decided among the players of the last game, or those at the table now: a player may
        # have sat down after it, before the game was reopened and booked again.
        tables = [
            [player for player, stay in players.items() if rules.Stay(*stay).plays_in(games)],
            [player for player, (_joined, left) in players.items() if left is None],
        ]

        def status(totals: Mapping[int, int], table: Sequence[int]) -> str:
            if not games:
                return "open"
            standing = variant.standing({player: totals[player] for player in table}, games)
            return "finished" if standing.winner is not None else "open"

        said = [status(booked, table) for table in tables]
        if row["status"] not in said:
            raise MalformedDocumentError(
                f"{path}.status: {row['status']!r}, but the rules say {said[0]!r} after its "
                "last game."
            )
        if any(result.ruling is not None for result in results):
            row["status"] = status(today, tables[0])

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
        dealt: dict[int, str],
    ) -> tuple[dict[str, Any], _Result | None]:
        # A game of version 4 holds its audit trail; before, it had none.
        trail = ("audit_lines",) if self.version >= 4 else ()
        children = ("entries", "settlement_lines", *trail)
        row = self._record(record, path, GAME, "games", children)
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
        entry_fields = ENTRY if self.version >= 7 else ENTRY_6 if self.version == 6 else ENTRY_5
        card_fields = CARD if self.version >= 6 else CARD_5
        for index, entry in enumerate(self._list(record, "entries", path)):
            entry_path = f"{path}.entries[{index}]"
            entry_row = self._record(entry, entry_path, entry_fields, "entries", ("cards",))
            entry_row.setdefault("group_id", None)
            entry_row.setdefault("tapped_at", None)
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
        table = self._replay(stored, paths, variant)
        lines: list[tuple[str, dict[str, Any]]] = []
        hands: dict[int, list[rules.Piece] | int] = {}
        for index, line in enumerate(self._list(record, "settlement_lines", path)):
            line_path = f"{path}.settlement_lines[{index}]"
            line_row = self._record(line, line_path, SETTLEMENT_LINE, "settlement_lines")
            line_row["game_id"] = row["id"]
            self._player(line_row, "player_id", line_path, players, number)
            if any(line_row["player_id"] == other["player_id"] for _, other in lines):
                raise MalformedDocumentError(
                    f"{line_path}.player_id: a player has one line in a game's settlement."
                )
            lines.append((line_path, line_row))
            if line_row["hand"] is not None:
                try:
                    held = variant.read_cards(line_row["hand"])
                except rules.RulesError as error:
                    raise MalformedDocumentError(f"{line_path}.hand: {error}") from None
                if rules.cards_text(held) != line_row["hand"]:
                    raise MalformedDocumentError(
                        f"{line_path}.hand: {line_row['hand']!r} should be written "
                        f"{rules.cards_text(held)!r}."
                    )
                hands[line_row["player_id"]] = held
            elif line_row["hand_points"] is not None:
                hands[line_row["player_id"]] = line_row["hand_points"]
        game = _Game(row, path, variant, dealt, stored, table, lines, hands)
        result = game.settled()
        if result is not None and result.ruling is not None:
            self.recomputed.append(result.line(row["id"]))
        for index, line in enumerate(self._list(record, "audit_lines", path) if trail else []):
            line_path = f"{path}.audit_lines[{index}]"
            line_row = self._record(line, line_path, AUDIT_LINE, "audit_lines")
            line_row["game_id"] = row["id"]
            self._player(line_row, "player_id", line_path, players, number)
            problem = line_problem(
                line_row["action"],
                json.loads(line_row["before"]),
                None if line_row["after"] is None else json.loads(line_row["after"]),
            )
            if problem is not None:
                raise MalformedDocumentError(f"{line_path}.{problem}.")
        return row, result

    def _digests(self, row: dict[str, Any], path: str) -> None:
        """Refuse a key digest that another session or group of the document has, or its own."""
        for key in ("edit_key_digest", "view_key_digest"):
            if row[key] in self.digests:
                raise MalformedDocumentError(
                    f"{path}.{key}: the digest of another key of the document: one key would "
                    "open both."
                )
            self.digests.add(row[key])

    @staticmethod
    def _replay(
        stored: list[EntryRow], paths: dict[int, str], variant: rules.Variant
    ) -> rules.Table[int]:
        """Refuse entries the rules do not let onto the table one after the other, as recorded.

        Each entry must be written as the rules write it: its value, its meld's kind, and its
        cards in the order they lie with each card's value (R2, R3). Return the table.
        """
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
        rows = {entry.id: entry for entry in stored}
        table: rules.Table[int] = rules.Table(variant)
        for played in table_entries(stored):
            try:
                result = table.play(played)
            except rules.RulesError as error:
                raise MalformedDocumentError(
                    f"{paths[played.key]}: the rules of {variant.label()} refuse this entry "
                    f"here: {error}"
                ) from None
            for entry, written in _as_written(result, rows[played.key], rows):
                _check_written(entry, written, paths[entry.id])
        record = rules.GameRecord(stored, variant)
        broken = record.opening_refusal()
        if broken is not None and broken.entry is not None:
            try:
                record.opening_refusal(broken.entry)
            except rules.RulesError as error:
                raise MalformedDocumentError(
                    f"{paths[broken.entry]}: the rules of {variant.label()} refuse this entry "
                    f"here: {error}"
                ) from None
        return table

    def _record(
        self,
        record: object,
        path: str,
        fields: tuple[RecordField, ...],
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


@dataclass(frozen=True)
class _Result:
    """What an ended game booked for each player (meld points and gain): as the document says,
    and as it stands now; ``ruling`` says why they differ, when a ruling changed them since."""

    booked: dict[int, int]
    today: dict[int, int]
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    ruling: rules.Message | None = None
    winner: int | None = None

    def line(self, game_id: int) -> dict[str, Any]:
        """Return the audit line that says the game was settled again, its id given later."""
        return {
            "game_id": game_id,
            "at": utcnow(),
            "action": "recomputed",
            "entry_id": None,
            "player_id": self.winner,
            "kind": None,
            "before": json.dumps(self.before, ensure_ascii=False, sort_keys=True),
            "after": json.dumps(self.after, ensure_ascii=False, sort_keys=True),
        }


@dataclass
class _Game:
    """A game of the document with its entries replayed, its settlement to check."""

    row: dict[str, Any]
    path: str
    variant: rules.Variant
    dealt: dict[int, str]  # the players of the game by id, in seat order
    stored: list[EntryRow]
    table: rules.Table[int]
    lines: list[tuple[str, dict[str, Any]]]
    hands: dict[int, list[rules.Piece] | int]

    def settled(self) -> _Result | None:
        """Settle the game again by the rules; refuse a settlement they would not book.

        An open game has none. A game booked before a ruling that changes what it is worth
        (``rules.RULINGS_SINCE``) must match the booking of the rules then; it is booked anew
        by today's, and the result says so.
        """
        row, path = self.row, self.path
        if row["status"] == "open":
            if self.lines:
                raise MalformedDocumentError(f"{path}.settlement_lines: an open game has none.")
            for key in ("winner_id", "romme", "ended_at"):
                if row[key] is not None:
                    raise MalformedDocumentError(f"{path}.{key}: an open game has none yet (null).")
            return None
        if row["ended_at"] is None:
            raise MalformedDocumentError(f"{path}.ended_at: an ended game has the time it ended.")
        if sorted(line["player_id"] for _, line in self.lines) != sorted(self.dealt):
            raise MalformedDocumentError(
                f"{path}.settlement_lines: {_and(list(self.dealt.values()))} played the game; "
                "each has one line."
            )
        winner, romme = row["winner_id"], row["romme"]
        if winner is not None and row["status"] != "finished":
            raise MalformedDocumentError(f"{path}: a game with a winner is finished.")
        if winner is None and romme is not None:
            raise MalformedDocumentError(f"{path}.romme: a game without a winner has none (null).")
        if winner is not None and romme is None:
            raise MalformedDocumentError(
                f"{path}.romme: a game with a winner says whether it was a Rommé hand."
            )
        again = self._settle_again(winner, romme)
        booked = again.earlier or again.settlement
        if booked.abandoned != (row["status"] == "abandoned"):
            raise MalformedDocumentError(
                f"{path}: a game nobody went out of is abandoned, with no hand."
                if booked.abandoned
                else f"{path}: a game settled with hands is finished."
            )
        points = dict.fromkeys(self.dealt, 0)
        for entry in self.stored:
            points[entry.player_id] += entry.value
        for line_path, line in self.lines:
            player = line["player_id"]
            expected = {
                "hand_points": booked.hand_points.get(player),
                "factor": booked.factors.get(player, 1),
                "gain": booked.gains.get(player, 0),
                "meld_points": points[player],
            }
            for key, value in expected.items():
                if line[key] != value:
                    raise MalformedDocumentError(
                        f"{line_path}.{key}: {line[key]!r} is not what the rules book ({value!r})."
                    )
        before = {player: points[player] + booked.gains.get(player, 0) for player in self.dealt}
        if again.earlier is None:
            return _Result(before, before)
        today = again.settlement
        lines = [line for _, line in self.lines]
        was = booked_result(row["status"], winner, romme, lines)
        for line in lines:
            line["factor"] = today.factors.get(line["player_id"], 1)
            line["gain"] = today.gains.get(line["player_id"], 0)
        row["romme"] = today.romme
        after = booked_result(row["status"], winner, today.romme, lines)
        assert again.ruling is not None
        return _Result(
            before,
            {player: points[player] + today.gains.get(player, 0) for player in self.dealt},
            was,
            recomputed_result(after, again.ruling),
            again.ruling,
            winner,
        )

    def _settle_again(self, winner: int | None, romme: bool | None) -> rules.Rebooked[int]:
        """Ask the rules to settle the game as the document booked it."""
        variant = self.variant
        rows = {entry.id: entry for entry in self.stored}
        replayed = table_entries(self.stored)
        hands = variant.hands_settled(winner, self.hands)
        try:
            return rules.settle_again(
                variant,
                self.dealt,
                winner,
                hands,
                romme,
                entry_players=[rows[entry.key].player_id for entry in replayed],
                entry_cards=[entry.from_hand for entry in replayed],
                on_table=self.table.lying() if winner is not None or hands else (),
                dealer=self.row["dealer_id"],
            )
        except rules.RulesError as error:
            raise MalformedDocumentError(
                f"{self.path}: the rules of {variant.label()} refuse this settlement: {error}"
            ) from None


def _as_written(
    result: rules.Meld | rules.Layoff, row: EntryRow, rows: Mapping[int, EntryRow]
) -> list[tuple[EntryRow, rules.Meld | rules.Layoff]]:
    """Return each row of a replayed entry with what the rules write for it.

    A swap is two rows: the swap (the cards put in, valued as a layoff) and its new meld.
    """
    if isinstance(result, rules.Swap):
        put_in = rules.Layoff(meld=result.meld, cards=result.cards, values=result.values)
        assert row.group_id is not None
        return [(rows[row.group_id], put_in), (row, result.new_meld)]
    return [(row, result)]


def _check_written(entry: EntryRow, written: rules.Meld | rules.Layoff, path: str) -> None:
    """Refuse an entry row whose value, meld kind or cards are not as the rules write them."""
    if entry.value != written.value:
        raise MalformedDocumentError(
            f"{path}.value: {entry.value!r} is not what the rules write for it ({written.value})."
        )
    if isinstance(written, rules.Meld) and entry.meld_kind != written.kind.value:
        raise MalformedDocumentError(
            f"{path}.meld_kind: {entry.meld_kind!r} is not what the rules make of the cards "
            f"({written.kind.value!r})."
        )
    laid = [_stored_as(piece) for piece in written.cards]
    listed = [(card.card, card.stands_for) for card in entry.cards]
    if listed != laid:
        raise MalformedDocumentError(
            f"{path}.cards: {_codes(listed)} should be {_codes(laid)}, as the rules lay them."
        )
    values = [card.value for card in entry.cards]
    if values != list(written.values):
        raise MalformedDocumentError(
            f"{path}.cards: the values {' '.join(map(str, values))} are not what the rules "
            f"write ({' '.join(map(str, written.values))})."
        )


def _stored_as(piece: rules.Piece) -> tuple[str, str | None]:
    """Return how a card or joker is stored: its code, and the card a joker stands for."""
    if isinstance(piece, rules.Joker):
        return rules.Joker().code, piece.stands_for.code if piece.stands_for else None
    return piece.code, None


def _codes(cards: Iterable[tuple[str, str | None]]) -> str:
    return " ".join(f"{code}={stands}" if stands else code for code, stands in cards)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _seat(player: dict[str, Any]) -> int:
    seat: int = player["seat"]
    return seat


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
    "tapped_at",
)


def _public_id_and_digests(row: dict[str, Any], path: str) -> None:
    """Refuse a public id the app could not have made (or reach), and digests of no key."""
    if not PUBLIC_ID.fullmatch(row["public_id"]):
        raise MalformedDocumentError(
            f"{path}.public_id: {row['public_id']!r} is not an id the app makes "
            "(22 letters, digits, - or _)."
        )
    for key in ("edit_key_digest", "view_key_digest"):
        if not DIGEST.fullmatch(row[key]):
            raise MalformedDocumentError(
                f"{path}.{key}: not the digest of a key (64 hexadecimal digits, 0-9 and a-f)."
            )


def _key_before_nfkc(name: str) -> str:
    """Return a name's key as versions before NFKC wrote it: composed, case folded (frozen)."""
    return "".join(
        unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold()).split()
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


_CHECKS: dict[str, tuple[str, Callable[[Any, RecordField], bool]]] = {
    "id": (
        "a whole number from 1 to 2147483647",
        lambda value, _field: _is_int(value) and 1 <= value <= LARGEST_INT,
    ),
    "int": (
        "a whole number from -2147483648 to 2147483647",
        lambda value, _field: _is_int(value) and SMALLEST_INT <= value <= LARGEST_INT,
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


def _loaded(field: RecordField, value: Any, path: str) -> Any:
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
    return moment if EARLIEST <= moment < LATEST else None
