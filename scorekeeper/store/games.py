"""The games: read one with its players and entries (with the lock a write takes), write its
entries, its end and its settlement. The statements are built once: building one cost more
than running it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.models import utcnow
from scorekeeper.store.errors import NotFoundError
from scorekeeper.store.rows import (
    JOKER,
    LARGEST_ID,
    BookedLine,
    CardRow,
    EntryRow,
    GameState,
    GameSummary,
    PlayerRow,
    rule_system,
)
from scorekeeper.store.tables import (
    ENTRIES,
    GAMES,
    PLAYERS,
    SESSIONS,
    SETTLEMENT_LINES,
    TABLE_CARDS,
)

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork


class Games:
    """The games of the sessions, as the use cases and the read side load and save them."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def check(self, game_id: int, *, reads_only: bool) -> Any | None:
        """Read a game's rows for the key check, or None; they are kept for its use case.

        A request that writes reads them with the lock a write takes, so that the use case of
        the same transaction takes them instead of reading them again (``get``). The row has
        the session's ``session_id``, ``public_id``, key digests and ``version``.
        """
        if not 0 < game_id <= LARGEST_ID:
            return None
        lock = not reads_only
        statement = _GAME_ROWS_LOCKED if lock else _GAME_ROWS
        connection = self._uow.connection(reads_only=reads_only)
        rows = connection.execute(statement, {"game_id": game_id}).all()
        self._uow.keep("game", game_id, rows, locked=lock)
        return rows[0] if rows else None

    def get(self, game_id: int, *, lock: bool = True) -> GameState:
        """Read a game, for a write with the lock that makes writers to one game wait in line.

        SQLite transactions hold the database's write lock from their start (database.py); on
        PostgreSQL the game row is locked (FOR UPDATE) before its entries are read, so a writer
        that waited sees the entries written meanwhile. ``lock=False`` reads for an answer.
        The rows the key check read of the game in this transaction are taken where they were
        read with the lock this read needs; the entries are read every time.
        """
        if not 0 < game_id <= LARGEST_ID:
            raise NotFoundError("no_game")
        rows = self._uow.kept("game", game_id, lock=lock)
        if rows is None:
            statement = _GAME_ROWS_LOCKED if lock else _GAME_ROWS
            rows = self._uow.read(statement, {"game_id": game_id}).all()
        if not rows:
            raise NotFoundError("no_game")
        first = rows[0]
        entries: list[EntryRow] = []
        for row in self._uow.read(ENTRY_ROWS, {"game_id": game_id}):
            add_entry_row(entries, row)
        everyone = [player_row(row) for row in rows]
        players = [player for player in everyone if player.plays_in(first.number)]
        booked, lines = None, []
        if first.status != "open":
            booked = dict.fromkeys((player.id for player in players), 0)
            lines = [BookedLine(*line) for line in self._uow.read(_LINES, {"game": game_id})]
            for line in lines:
                booked[line.player_id] += line.meld_points + line.gain
        return GameState(
            id=first.id,
            session_id=first.session_id,
            number=first.number,
            dealer_id=first.dealer_id,
            status=first.status,
            winner_id=first.winner_id,
            romme=first.romme,
            booked=booked,
            variant=rule_system(first.variant, first.house_rules),
            session_status=first.session_status,
            players=players,
            entries=entries,
            session_public_id=first.public_id,
            first_dealer_seat=first.first_dealer_seat,
            others=[player for player in everyone if not player.plays_in(first.number)],
            settlement_lines=lines,
        )

    # --- the entries ---------------------------------------------------------------------------

    def add_entry(
        self,
        game: GameState,
        kind: str,
        player_id: int,
        played: rules.Meld | rules.Layoff,
        *,
        meld_id: int | None = None,
        group_id: int | None = None,
        tapped_at: datetime | None = None,
    ) -> EntryRow:
        """Insert an entry and its cards after the game's latest entry; return it as stored.

        ``tapped_at``: when the phone says it was tapped (``http.taps`` says which are kept).
        """
        entry = EntryRow(
            id=0,
            position=(game.entries[-1].position + 1) if game.entries else 1,
            kind=kind,
            player_id=player_id,
            meld_id=meld_id,
            meld_kind=played.kind.value if isinstance(played, rules.Meld) else None,
            value=played.value,
            created_at=self._uow.time_as_read(utcnow()),
            group_id=group_id,
            cards=[],
            tapped_at=self._uow.time_as_read(tapped_at) if tapped_at is not None else None,
        )
        stored = entry._asdict()
        del stored["id"], stored["cards"]
        key = self._uow.write(_INSERT_ENTRY, {**stored, "game_id": game.id}).inserted_primary_key
        assert key is not None
        entry_id = int(key[0])
        laid = self._lay_cards(game, entry_id, played.cards, played.values)
        return entry._replace(id=entry_id, cards=laid)

    def _lay_cards(
        self,
        game: GameState,
        entry_id: int,
        pieces: Sequence[rules.Piece],
        values: Sequence[int],
    ) -> list[CardRow]:
        """Insert the cards of an entry in one statement, each as a copy not yet in the game."""
        rows = [card_row(piece, value) for piece, value in zip(pieces, values, strict=True)]
        lying = (
            (card.card, card.copy)
            for entry in game.entries
            if entry.id != entry_id
            for card in entry.cards
        )
        copies = rules.next_copies([row.card for row in rows], lying)
        rows = [row._replace(copy=copy) for row, copy in zip(rows, copies, strict=True)]
        ids = {
            (card, copy): card_id
            for card, copy, card_id in self._uow.write(
                _INSERT_CARDS,
                [
                    {
                        "entry_id": entry_id,
                        "game_id": game.id,
                        "card": row.card,
                        "copy": row.copy,
                        "stands_for": row.stands_for,
                        "position": at,
                        "value": row.value,
                    }
                    for at, row in enumerate(rows)
                ],
            ).all()
        }
        return [row._replace(id=ids[row.card, row.copy]) for row in rows]

    def delete_entry(self, rows: Sequence[EntryRow]) -> None:
        """Delete the rows of an entry (all its melds) with their cards."""
        # The later melds name the first: they go first.
        for row in reversed(rows):
            self._uow.write(_DELETE_CARDS, {"entry": row.id})
            self._uow.write(_DELETE_ENTRY, {"entry": row.id})

    def correct_entry(
        self, game: GameState, entry: EntryRow, played: rules.Meld | rules.Layoff
    ) -> EntryRow:
        """Write an entry as corrected (``entry``: its player, meld and kind), with new cards."""
        # Delete the old cards first: the new ones may repeat them, and each copy lies once a game.
        self._uow.write(_DELETE_CARDS, {"entry": entry.id})
        laid = self._lay_cards(game, entry.id, played.cards, played.values)
        self._uow.write(
            _CORRECT_ENTRY,
            {
                "entry": entry.id,
                "player": entry.player_id,
                "meld": entry.meld_id,
                "value": entry.value,
                "meld_kind": entry.meld_kind,
            },
        )
        return entry._replace(cards=laid)

    # --- a game's start and end ----------------------------------------------------------------

    def last(self, session_id: int) -> GameSummary | None:
        """Return the latest game of a session, which says who deals the next."""
        row = self._uow.read(_LAST_GAME, {"session": session_id}).one_or_none()
        return GameSummary(**row._mapping) if row is not None else None

    def add(self, session_id: int, number: int, dealer_id: int) -> int:
        """Deal a game of a session: insert it, open, and return its id."""
        values = {
            "session_id": session_id,
            "number": number,
            "dealer_id": dealer_id,
            "status": "open",
            "started_at": utcnow(),
        }
        key = self._uow.write(_INSERT_GAME, values).inserted_primary_key
        assert key is not None
        return int(key[0])

    def end(self, game_id: int, status: str, winner_id: int | None, romme: bool | None) -> None:
        """Write how a game ended (``status`` open again: it is reopened)."""
        ended_at = None if status == "open" else utcnow()
        self._uow.write(
            _END_GAME,
            {
                "game": game_id,
                "status": status,
                "winner": winner_id,
                "romme": romme,
                "ended_at": ended_at,
            },
        )

    def settle(self, lines: Iterable[BookedLine]) -> None:
        """Insert the lines of a game's settlement, one per player, in one statement."""
        self._uow.write(_INSERT_SETTLEMENT_LINES, [line._asdict() for line in lines])

    def unsettle(self, game_id: int) -> None:
        """Delete the lines of a game's settlement (it is reopened)."""
        self._uow.write(_DELETE_SETTLEMENT, {"game": game_id})

    def later(self, session_id: int, number: int) -> list[GameSummary]:
        """Return the games of a session dealt after this number, locked (PostgreSQL)."""
        rows = self._uow.read(_LATER_GAMES, {"session": session_id, "number": number})
        return [GameSummary(**row._mapping) for row in rows]

    def played(self, game_id: int) -> bool:
        """Tell whether anything was recorded in a game."""
        return bool(self._uow.read(_ENTRIES_IN, {"game": game_id}).scalar())

    def delete(self, game_id: int) -> None:
        """Delete a game dealt and not played, with its trail (entries recorded and undone)."""
        self._uow.audit.forget(game_id)
        self._uow.write(_DELETE_GAME, {"game": game_id})


def player_row(row: Any) -> PlayerRow:
    """Return a player as a row read with the columns named as ``PlayerRow`` names them."""
    return PlayerRow(
        id=row.player_id,
        seat=row.seat,
        name=row.name,
        banked=row.banked,
        joined_game=row.joined_game,
        left_game=row.left_game,
    )


def card_row(piece: rules.Piece, value: int) -> CardRow:
    """Return how a card or joker is stored, before its row and copy are given."""
    if isinstance(piece, rules.Joker):
        stands_for = piece.stands_for.code if piece.stands_for is not None else None
        return CardRow(0, JOKER, value, stands_for=stands_for)
    return CardRow(0, piece.code, value)


def add_entry_row(entries: list[EntryRow], row: Any) -> None:
    """Add a row of ``ENTRY_ROWS`` (an entry with one of its cards) to the entries read so far."""
    if not entries or entries[-1].id != row.id:
        entries.append(
            EntryRow(
                id=row.id,
                position=row.position,
                kind=row.kind,
                player_id=row.player_id,
                meld_id=row.meld_id,
                meld_kind=row.meld_kind,
                value=row.value,
                created_at=row.created_at,
                group_id=row.group_id,
                cards=[],
                tapped_at=row.tapped_at,
            )
        )
    if row.card_id is not None:
        entries[-1].cards.append(
            CardRow(
                id=row.card_id,
                card=row.card,
                value=row.card_value,
                copy=row.copy,
                stands_for=row.stands_for,
            )
        )


# --- the statements ------------------------------------------------------------------------------

_GAME_ROWS = (
    sa.select(
        GAMES.c.id,
        GAMES.c.session_id,
        GAMES.c.number,
        GAMES.c.dealer_id,
        GAMES.c.status,
        GAMES.c.winner_id,
        GAMES.c.romme,
        SESSIONS.c.variant,
        SESSIONS.c.status.label("session_status"),
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.seat,
        PLAYERS.c.name,
        PLAYERS.c.banked,
        SESSIONS.c.public_id,
        SESSIONS.c.first_dealer_seat,
        SESSIONS.c.house_rules,
        PLAYERS.c.joined_game,
        PLAYERS.c.left_game,
        # For the key check, which reads these rows first (check).
        SESSIONS.c.edit_key_digest,
        SESSIONS.c.view_key_digest,
        SESSIONS.c.version,
    )
    .select_from(
        GAMES.join(SESSIONS, SESSIONS.c.id == GAMES.c.session_id).join(
            PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id
        )
    )
    .where(GAMES.c.id == sa.bindparam("game_id"))
    .order_by(PLAYERS.c.seat)
)
_GAME_ROWS_LOCKED = _GAME_ROWS.with_for_update(of=GAMES)


# What the settlement of an ended game booked for each player, its columns named as
# BookedLine's fields, in seat order (the order the lines were written).
_LINES = (
    sa.select(*(SETTLEMENT_LINES.c[name] for name in BookedLine._fields))
    .where(SETTLEMENT_LINES.c.game_id == sa.bindparam("game"))
    .order_by(SETTLEMENT_LINES.c.id)
)


ENTRY_ROWS = (
    sa.select(
        ENTRIES.c.id,
        ENTRIES.c.position,
        ENTRIES.c.kind,
        ENTRIES.c.player_id,
        ENTRIES.c.meld_id,
        ENTRIES.c.meld_kind,
        ENTRIES.c.value,
        ENTRIES.c.created_at,
        ENTRIES.c.group_id,
        ENTRIES.c.tapped_at,
        TABLE_CARDS.c.id.label("card_id"),
        TABLE_CARDS.c.card,
        TABLE_CARDS.c.value.label("card_value"),
        TABLE_CARDS.c.copy,
        TABLE_CARDS.c.stands_for,
    )
    .select_from(ENTRIES.outerjoin(TABLE_CARDS, TABLE_CARDS.c.entry_id == ENTRIES.c.id))
    .where(ENTRIES.c.game_id == sa.bindparam("game_id"))
    .order_by(ENTRIES.c.position, TABLE_CARDS.c.position)
)


_INSERT_ENTRY = sa.insert(ENTRIES)


# RETURNING gives the rows in no set order, so the cards are matched by card and copy.
_INSERT_CARDS = sa.insert(TABLE_CARDS).returning(
    TABLE_CARDS.c.card, TABLE_CARDS.c.copy, TABLE_CARDS.c.id
)


_DELETE_CARDS = sa.delete(TABLE_CARDS).where(TABLE_CARDS.c.entry_id == sa.bindparam("entry"))


_DELETE_ENTRY = sa.delete(ENTRIES).where(ENTRIES.c.id == sa.bindparam("entry"))


_CORRECT_ENTRY = (
    sa.update(ENTRIES)
    .where(ENTRIES.c.id == sa.bindparam("entry"))
    .values(
        player_id=sa.bindparam("player"),
        meld_id=sa.bindparam("meld"),
        value=sa.bindparam("value"),
        meld_kind=sa.bindparam("meld_kind"),
    )
)


# The games of a session in order; the latest says who deals the next.
GAMES_OF = (
    sa.select(
        GAMES.c.id,
        GAMES.c.number,
        GAMES.c.dealer_id,
        GAMES.c.status,
        GAMES.c.winner_id,
        GAMES.c.romme,
    )
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .order_by(GAMES.c.number)
)
_LAST_GAME = GAMES_OF.order_by(None).order_by(GAMES.c.number.desc()).limit(1)


_INSERT_GAME = sa.insert(GAMES)


_END_GAME = (
    sa.update(GAMES)
    .where(GAMES.c.id == sa.bindparam("game"))
    .values(
        status=sa.bindparam("status"),
        winner_id=sa.bindparam("winner"),
        romme=sa.bindparam("romme"),
        ended_at=sa.bindparam("ended_at"),
    )
)


_INSERT_SETTLEMENT_LINES = sa.insert(SETTLEMENT_LINES)


_DELETE_SETTLEMENT = sa.delete(SETTLEMENT_LINES).where(
    SETTLEMENT_LINES.c.game_id == sa.bindparam("game")
)


_LATER_GAMES = (
    sa.select(*GAMES_OF.selected_columns)
    .where(GAMES.c.session_id == sa.bindparam("session"))
    .where(GAMES.c.number > sa.bindparam("number"))
    .order_by(GAMES.c.number)
    .with_for_update()
)


_ENTRIES_IN = (
    sa.select(sa.func.count()).select_from(ENTRIES).where(ENTRIES.c.game_id == sa.bindparam("game"))
)


_DELETE_GAME = sa.delete(GAMES).where(GAMES.c.id == sa.bindparam("game"))
