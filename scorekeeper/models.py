"""Database tables: sessions, players, games, entries with their cards, settlements, evenings."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.keys import new_public_id
from scorekeeper.rules.seating import Stay


def utcnow() -> datetime:
    """Return the current time in UTC."""
    return datetime.now(UTC)


class GameSession(db.Model):  # type: ignore[name-defined,misc]
    """A series of games played to a target by the same players in the same seats."""

    __tablename__ = "sessions"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    # What addresses and the API call the session's id: random, so that nobody can count
    # their way into other people's sessions (the key is still needed to get in).
    # The server default "-" is only there because migration 0004 added these columns to a
    # filled table (SQLite cannot drop it without rebuilding the table); every session sets them.
    public_id: so.Mapped[str] = so.mapped_column(
        sa.String(32), unique=True, index=True, default=new_public_id, server_default="-"
    )
    # SHA-256 digests of the edit and view keys; the keys themselves are handed out once.
    edit_key_digest: so.Mapped[str] = so.mapped_column(sa.String(64), server_default="-")
    view_key_digest: so.Mapped[str] = so.mapped_column(sa.String(64), server_default="-")
    variant: so.Mapped[str] = so.mapped_column(sa.String(40), default=rules.default_variant_name)
    # The house rules the table chose, as a JSON object with every default filled in, how the
    # session ends (its target) among them; a session stored before house rules existed has
    # only the target it was played to (migration 0016), its rule system's defaults the rest.
    house_rules: so.Mapped[str] = so.mapped_column(sa.Text)
    first_dealer_seat: so.Mapped[int]
    status: so.Mapped[str] = so.mapped_column(sa.String(10), default="open")
    # Counts the changes to the session and its games, in the transaction of each change: a
    # watching phone asks whether it moved (an ETag) instead of reading everything again.
    version: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    # Indexed: every new session removes the day-old ones that never got a game.
    created_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, index=True
    )
    # The group (the people who play together) the session belongs to, if any; indexed: a
    # group's page and statistics read its sessions.
    group_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("groups.id"), index=True)

    # Everyone who played in the session, in seat order; ``seated`` are those at the table now.
    players: so.Mapped[list[Player]] = so.relationship(
        back_populates="session", order_by="Player.seat", cascade="all, delete-orphan"
    )
    games: so.Mapped[list[Game]] = so.relationship(
        back_populates="session", order_by="Game.number", cascade="all, delete-orphan"
    )

    @property
    def seated(self) -> list[Player]:
        """Return the players at the table now, in seating order (clockwise)."""
        return [player for player in self.players if player.seated]

    @property
    def target(self) -> int | None:
        """Return the total the session is played to, if its house rules end it at one."""
        target: int | None = json.loads(self.house_rules)["end"].get("target")
        return target

    @property
    def left(self) -> list[Player]:
        """Return the players who left the table between games, in the order they sat."""
        return [player for player in self.players if not player.seated]

    __table_args__ = (sa.CheckConstraint("status IN ('open', 'finished')", name="status_known"),)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A player of a session; seats run clockwise from 0.

    A player who left between games keeps their seat in the order, so that the games they
    played show them where they sat; a player who joined later took a seat between the others.
    """

    __tablename__ = "players"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("sessions.id"), index=True)
    seat: so.Mapped[int]
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    # Points of the player's ended games, kept up to date as each game ends, so that the
    # totals never replay a long session (entries of an ended game are final).
    banked: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    # The number of the first game dealt with the player, and of the first dealt without them
    # once they left (empty while they sit at the table): a game's players are those who sat
    # at the table when it was dealt.
    joined_game: so.Mapped[int] = so.mapped_column(default=1, server_default="1")
    left_game: so.Mapped[int | None]

    session: so.Mapped[GameSession] = so.relationship(back_populates="players")

    __table_args__ = (
        sa.UniqueConstraint("session_id", "seat"),
        sa.UniqueConstraint("session_id", "name"),
        sa.CheckConstraint(
            "joined_game >= 1 AND (left_game IS NULL OR left_game > joined_game)",
            name="plays_a_game",
        ),
    )

    @property
    def seated(self) -> bool:
        """Tell whether the player sits at the table now (has not left)."""
        return self.left_game is None

    def plays_in(self, number: int) -> bool:
        """Tell whether the player was dealt in the game of this number (the rules say)."""
        return Stay(self.joined_game, self.left_game).plays_in(number)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One deal of a session, from the deal until someone goes out or the table gives up."""

    __tablename__ = "games"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("sessions.id"), index=True)
    number: so.Mapped[int]
    dealer_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id"))
    status: so.Mapped[str] = so.mapped_column(sa.String(10), default="open")
    winner_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("players.id"))
    romme: so.Mapped[bool | None]
    started_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    ended_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    session: so.Mapped[GameSession] = so.relationship(back_populates="games")
    dealer: so.Mapped[Player] = so.relationship(foreign_keys=[dealer_id])

    @property
    def session_public_id(self) -> str:
        """Return the id of the game's session as addresses and the API show it."""
        return self.session.public_id

    winner: so.Mapped[Player | None] = so.relationship(foreign_keys=[winner_id])
    entries: so.Mapped[list[Entry]] = so.relationship(
        back_populates="game", order_by="Entry.position", cascade="all, delete-orphan"
    )
    settlement_lines: so.Mapped[list[SettlementLine]] = so.relationship(
        back_populates="game", cascade="all, delete-orphan"
    )

    __table_args__ = (
        sa.UniqueConstraint("session_id", "number"),
        sa.CheckConstraint("status IN ('open', 'finished', 'abandoned')", name="status_known"),
    )


class Entry(db.Model):  # type: ignore[name-defined,misc]
    """A meld, a layoff or a joker swap as the recorder entered it, valued then (R3).

    A joker swap (G4) is two rows: the swap, naming the meld the joker left and holding the
    cards put in its place, and right after it the new meld, grouped with the swap.
    """

    __tablename__ = "entries"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id"), index=True)
    position: so.Mapped[int]
    kind: so.Mapped[str] = so.mapped_column(sa.String(10))
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id"))
    # A layoff names the meld entry it was laid onto, a swap the meld its joker left; a meld
    # leaves this empty.
    meld_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("entries.id"), index=True)
    meld_kind: so.Mapped[str | None] = so.mapped_column(sa.String(10))
    # The second and later melds of an entry of several melds name its first meld here; the
    # new meld of a joker swap names the swap.
    group_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("entries.id"), index=True)
    value: so.Mapped[int]
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    # When the entry was tapped on the phone (its clock), where it sent a time the server could
    # keep; an entry sent offline arrives (created_at) minutes after it was played.
    tapped_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    game: so.Mapped[Game] = so.relationship(back_populates="entries")
    player: so.Mapped[Player] = so.relationship()
    cards: so.Mapped[list[TableCard]] = so.relationship(
        back_populates="entry", order_by="TableCard.position", cascade="all, delete-orphan"
    )

    __table_args__ = (
        sa.UniqueConstraint("game_id", "position"),
        sa.CheckConstraint("kind IN ('meld', 'layoff', 'swap')", name="kind_known"),
        # An undone entry's id must not come back on SQLite: a page or client that still shows
        # it would undo, delete or lay off onto the entry recorded after it.
        {"sqlite_autoincrement": True},
    )


class TableCard(db.Model):  # type: ignore[name-defined,misc]
    """A card or joker an entry put on the table; the database holds each copy once per game.

    ``copy`` tells the two copies of a card apart where two packs are played (G8). A joker that
    a swap moved into a new meld has a row there too, so jokers count rows, not jokers lying.
    """

    __tablename__ = "table_cards"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    entry_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("entries.id"), index=True)
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id"))
    card: so.Mapped[str] = so.mapped_column(sa.String(4))
    copy: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    # The card a joker stands for where it stands for one (a sequence's, or the one suit a set
    # misses); empty for a natural card and for a set's joker with two suits missing.
    stands_for: so.Mapped[str | None] = so.mapped_column(sa.String(4))
    position: so.Mapped[int]
    value: so.Mapped[int]

    entry: so.Mapped[Entry] = so.relationship(back_populates="cards")

    __table_args__ = (
        sa.UniqueConstraint("game_id", "card", "copy"),
        sa.CheckConstraint("copy >= 0", name="copy_counted"),
    )


class SettlementLine(db.Model):  # type: ignore[name-defined,misc]
    """What the end of a game booked for one player: hand cards, points gained, game points.

    Every player of an ended game has one, also in an abandoned game (with no hand).
    """

    __tablename__ = "settlement_lines"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id"), index=True)
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id"))
    hand: so.Mapped[str | None] = so.mapped_column(sa.String(200))
    hand_points: so.Mapped[int | None]
    factor: so.Mapped[int] = so.mapped_column(default=1)
    gain: so.Mapped[int] = so.mapped_column(default=0)
    # The player's meld and layoff points in this game, written when the game ends.
    meld_points: so.Mapped[int] = so.mapped_column(default=0, server_default="0")

    game: so.Mapped[Game] = so.relationship(back_populates="settlement_lines")

    __table_args__ = (sa.UniqueConstraint("game_id", "player_id"),)


class AuditLine(db.Model):  # type: ignore[name-defined,misc]
    """A correction, delete, undo, reopen or import's recomputation of a game, with its time.

    It says what was and what it became, so that a disputed score can be traced; no points are
    ever read from it (they come from the entries and settlements as they stand).
    """

    __tablename__ = "audit_lines"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    # Indexed: the history reads a session's lines, the API a game's.
    game_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("games.id"), index=True)
    at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    action: so.Mapped[str] = so.mapped_column(sa.String(10))
    # The entry changed (the id of its first meld where it put down several); no foreign key:
    # a deleted entry is gone. Empty for a reopen.
    entry_id: so.Mapped[int | None]
    # Whose entry it was (before a correction); for a reopen the winner it had booked.
    player_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("players.id"))
    # The entry's kind (meld, layoff, swap); empty for a reopen.
    kind: so.Mapped[str | None] = so.mapped_column(sa.String(10))
    # JSON objects: the entry (or the booked result) before, and the entry after a correction.
    before: so.Mapped[str] = so.mapped_column(sa.Text)
    after: so.Mapped[str | None] = so.mapped_column(sa.Text)

    __table_args__ = (
        sa.CheckConstraint(
            "action IN ('corrected', 'deleted', 'undone', 'restored', 'reopened', 'recomputed')",
            name="action_known",
        ),
    )


class IdempotencyRecord(db.Model):  # type: ignore[name-defined,misc]
    """The first answer to a request sent with an ``Idempotency-Key``, to give again on a repeat.

    The row is written in the same transaction as the change the request made, so a change
    and its record stand or fall together; the answer itself is added right after.
    """

    __tablename__ = "idempotency_records"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    key: so.Mapped[str] = so.mapped_column(sa.String(200), unique=True)
    request: so.Mapped[str] = so.mapped_column(sa.String(64))
    status: so.Mapped[int | None]
    body: so.Mapped[str | None] = so.mapped_column(sa.Text)
    # Indexed: every remembered answer deletes the records older than a day.
    created_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, index=True
    )


class Group(db.Model):  # type: ignore[name-defined,misc]
    """The people who play together (a Spielrunde): their sessions add up to statistics.

    Its keys work as a session's: the edit key adds sessions and merges names, either key shows
    the group's sessions and statistics. Only their digests are kept.
    """

    __tablename__ = "groups"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    public_id: so.Mapped[str] = so.mapped_column(
        sa.String(32), unique=True, index=True, default=new_public_id
    )
    edit_key_digest: so.Mapped[str] = so.mapped_column(sa.String(64))
    view_key_digest: so.Mapped[str] = so.mapped_column(sa.String(64))
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    # Indexed: a new group removes the day-old ones that never got a session.
    created_at: so.Mapped[datetime] = so.mapped_column(
        sa.DateTime(timezone=True), default=utcnow, index=True
    )


class MergedName(db.Model):  # type: ignore[name-defined,misc]
    """Two names of a group's players that name one person ("Anni" is "Anna").

    The keys are the names with case, spaces and width ignored (``rules.groups.name_key``),
    what the statistics count by; the names are kept as written, to show. Merges are followed
    in order.
    """

    __tablename__ = "merged_names"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("groups.id"), index=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    same_as: so.Mapped[str] = so.mapped_column(sa.String(40))
    # A key is at most 15 times its name: in NFKC one character (U+FDFA) becomes 15 letters.
    name_key: so.Mapped[str] = so.mapped_column(sa.String(600))
    same_as_key: so.Mapped[str] = so.mapped_column(sa.String(600))
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    __table_args__ = (sa.UniqueConstraint("group_id", "name_key", "same_as_key"),)


class Evening(db.Model):  # type: ignore[name-defined,misc]
    """A club evening (a Spielabend): players at several tables at once, in series.

    Its keys work as a session's: the edit key seats the series and opens every table (each
    table's key is derived from it, ``keys.table_keys``), the view key shows the board.
    """

    __tablename__ = "evenings"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    public_id: so.Mapped[str] = so.mapped_column(
        sa.String(32), unique=True, index=True, default=new_public_id
    )
    edit_key_digest: so.Mapped[str] = so.mapped_column(sa.String(64))
    view_key_digest: so.Mapped[str] = so.mapped_column(sa.String(64))
    name: so.Mapped[str] = so.mapped_column(sa.String(80))
    variant: so.Mapped[str] = so.mapped_column(sa.String(40))
    # The house rules the organiser chose for every table, as a JSON object (no end: E8).
    house_rules: so.Mapped[str] = so.mapped_column(sa.Text)
    # The players in the order the organiser listed them, as a JSON list of names.
    players: so.Mapped[str] = so.mapped_column(sa.Text)
    series: so.Mapped[int]
    # A series ends after a number of games or of minutes: exactly one of the two is set.
    games_per_series: so.Mapped[int | None]
    minutes_per_series: so.Mapped[int | None]
    table_size: so.Mapped[int]
    seating: so.Mapped[str] = so.mapped_column(sa.String(10))
    small_tables: so.Mapped[bool] = so.mapped_column(default=False)
    # The club (a group) whose season the evening counts in, if any.
    group_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("groups.id"), index=True)
    created_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        sa.CheckConstraint("seating IN ('standing', 'drawn')", name="seating_known"),
        sa.CheckConstraint(
            "(games_per_series IS NULL) <> (minutes_per_series IS NULL)", name="one_series_end"
        ),
    )


class EveningSeries(db.Model):  # type: ignore[name-defined,misc]
    """A series of an evening as it was seated: its number, the seed of its draw, its clock."""

    __tablename__ = "evening_series"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    evening_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("evenings.id"), index=True)
    number: so.Mapped[int]
    # The lot that drew the series (or the seats at its tables): the same seed, the same draw.
    seed: so.Mapped[int]
    drawn: so.Mapped[bool]
    seated_at: so.Mapped[datetime] = so.mapped_column(sa.DateTime(timezone=True), default=utcnow)
    # When the first game of the series was dealt at any of its tables: the clock of a series
    # of minutes starts then, once for all its tables (E7).
    started_at: so.Mapped[datetime | None] = so.mapped_column(sa.DateTime(timezone=True))

    __table_args__ = (sa.UniqueConstraint("evening_id", "number"),)


class EveningTable(db.Model):  # type: ignore[name-defined,misc]
    """A table of a series: a session as any other, whose end is the series' end."""

    __tablename__ = "evening_tables"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    series_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("evening_series.id"), index=True)
    number: so.Mapped[int]
    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("sessions.id"), unique=True)

    __table_args__ = (sa.UniqueConstraint("series_id", "number"),)
