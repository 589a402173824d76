"""The club evenings: the evening, its series with their seeds and clocks, and the tables of each
series (sessions), read together for the ranking and the board. The statements are built once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from scorekeeper import rules
from scorekeeper.keys import SessionKeys, new_public_id
from scorekeeper.models import utcnow
from scorekeeper.store.errors import NotFoundError
from scorekeeper.store.rows import LARGEST_ID, rule_system
from scorekeeper.store.tables import (
    AUDIT_LINES,
    ENTRIES,
    EVENING_SERIES,
    EVENING_TABLES,
    EVENINGS,
    GAMES,
    PLAYERS,
    SESSIONS,
)

if TYPE_CHECKING:
    from scorekeeper.store.unit_of_work import UnitOfWork

SERIES = EVENING_SERIES
TABLES = EVENING_TABLES


@dataclass(frozen=True)
class EveningRow:
    """An evening as stored: what the organiser chose, and the digests of its keys."""

    id: int
    public_id: str
    name: str
    variant: str
    # The house rules chosen for every table, as JSON text.
    house_rules: str
    players: tuple[str, ...]
    series: int
    games_per_series: int | None
    minutes_per_series: int | None
    table_size: int
    seating: str
    small_tables: bool
    group_id: int | None
    created_at: datetime
    edit_key_digest: str
    view_key_digest: str

    @property
    def plan(self) -> rules.EveningPlan:
        """Return the evening as the rules plan it."""
        return rules.EveningPlan.from_request(
            variant=self.variant,
            house_rules=json.loads(self.house_rules),
            players=list(self.players),
            series=self.series,
            games_per_series=self.games_per_series,
            minutes_per_series=self.minutes_per_series,
            table_size=self.table_size,
            seating=self.seating,
            small_tables=self.small_tables,
        )


@dataclass(frozen=True)
class SeatRow:
    """A player at a table of an evening: their session total and the games they won there."""

    player_id: int
    name: str
    total: int
    games_won: int


@dataclass(frozen=True)
class TableRow:
    """A table of a series: its session, its players in seat order, how far its games are."""

    number: int
    session_id: int
    session_public_id: str
    status: str
    version: int
    variant: str
    house_rules: str
    players: tuple[SeatRow, ...]
    games_dealt: int = 0
    games_open: int = 0

    @property
    def rules(self) -> rules.Variant:
        """Return the rule system the table plays by (its end is the series')."""
        return rule_system(self.variant, self.house_rules)

    @property
    def games_ended(self) -> int:
        """Return how many games of the table have ended (finished or abandoned)."""
        return self.games_dealt - self.games_open


@dataclass(frozen=True)
class SeriesRow:
    """A series of an evening as seated, with its tables, table 1 first."""

    id: int
    number: int
    seed: int
    drawn: bool
    seated_at: datetime
    started_at: datetime | None
    tables: tuple[TableRow, ...]


@dataclass(frozen=True)
class TableOfSession:
    """What a session that is a table of an evening needs to know of its series (E7, E8)."""

    evening_id: int
    series_id: int
    series: int
    latest_series: int
    started_at: datetime | None
    games_per_series: int | None
    minutes_per_series: int | None
    # What the table's session page says of it: the evening, its series, the table's number.
    evening_name: str
    series_count: int
    table: int

    @property
    def end(self) -> rules.SeriesEnd:
        """Return how the table's series ends."""
        if self.games_per_series is not None:
            return rules.SeriesEnd.after_games(self.games_per_series)
        assert self.minutes_per_series is not None
        return rules.SeriesEnd.after_minutes(self.minutes_per_series)


class Evenings:
    """The evenings with their series and tables, as the use cases and the read side use them."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    # --- reading ---------------------------------------------------------------------------------

    def find(self, public_id: str, *, reads_only: bool = False) -> EveningRow | None:
        """Read an evening by its public id (the key check), or None."""
        connection = self._uow.connection(reads_only=reads_only)
        row = connection.execute(_BY_PUBLIC_ID, {"public_id": public_id}).one_or_none()
        return _evening_of(row) if row is not None else None

    def of_group(self, group_id: int) -> list[EveningRow]:
        """Return a group's evenings in the order they were held (its season)."""
        rows = self._uow.read(_OF_GROUP, {"group": group_id})
        return [_evening_of(row) for row in rows]

    def locked(self, evening_id: int) -> EveningRow:
        """Lock an evening's row (PostgreSQL) and read it: its series are seated one at a time."""
        if not 0 < evening_id <= LARGEST_ID:
            raise NotFoundError("no_evening")
        row = self._uow.read(_LOCKED, {"evening": evening_id}).one_or_none()
        if row is None:
            raise NotFoundError("no_evening")
        return _evening_of(row)

    def series_of(self, evening_id: int) -> list[SeriesRow]:
        """Return an evening's series, the first first, each with its tables and their players.

        Two statements, however many tables: the seats with their totals, then the games.
        """
        seats = self._uow.read(_SEATS, {"evening": evening_id}).mappings().all()
        games = {
            row["session_id"]: (int(row["dealt"]), int(row["open"]))
            for row in self._uow.read(_GAMES_OF_TABLES, {"evening": evening_id}).mappings()
        }
        series: dict[int, dict[str, Any]] = {}
        tables: dict[tuple[int, int], dict[str, Any]] = {}
        for row in seats:
            series.setdefault(
                row["series_id"],
                {
                    "id": row["series_id"],
                    "number": row["series"],
                    "seed": row["seed"],
                    "drawn": row["drawn"],
                    "seated_at": row["seated_at"],
                    "started_at": row["started_at"],
                },
            )
            table = tables.setdefault(
                (row["series_id"], row["table_number"]),
                {
                    "number": row["table_number"],
                    "session_id": row["session_id"],
                    "session_public_id": row["session_public_id"],
                    "status": row["status"],
                    "version": row["version"],
                    "variant": row["variant"],
                    "house_rules": row["house_rules"],
                    "players": [],
                },
            )
            table["players"].append(
                SeatRow(row["player_id"], row["name"], row["banked"], int(row["won"]))
            )
        return [
            SeriesRow(
                **fields,
                tables=tuple(
                    TableRow(
                        **{**table, "players": tuple(table["players"])},
                        games_dealt=games.get(table["session_id"], (0, 0))[0],
                        games_open=games.get(table["session_id"], (0, 0))[1],
                    )
                    for (series_id, _number), table in tables.items()
                    if series_id == fields["id"]
                ),
            )
            for fields in series.values()
        ]

    def version(self, evening_id: int) -> str:
        """Return what changes whenever anything an evening's pages show changes: one read.

        The series seated, their seeds (a draw again) and the versions of their tables'
        sessions, which every change at a table counts up.
        """
        row = self._uow.connection(reads_only=True).execute(_VERSION, {"evening": evening_id}).one()
        return f"{row.series}.{row.seeds}.{row.versions}"

    def table_of_session(self, session_id: int) -> TableOfSession | None:
        """Return the series a session is a table of, or None for a session of its own."""
        row = self._uow.read(_TABLE_OF_SESSION, {"session": session_id}).mappings().one_or_none()
        return TableOfSession(**row) if row is not None else None

    def started_tables(self, series_id: int) -> list[int]:
        """Return the numbers of a series' tables where play has begun (E4).

        Begun: a game ended there, or an entry was recorded (also one undone since).
        """
        return [int(number) for number in self._uow.read(_STARTED, {"series": series_id}).scalars()]

    # --- writing ---------------------------------------------------------------------------------

    def add(
        self,
        *,
        keys: SessionKeys,
        name: str,
        variant: str,
        house_rules: str,
        players: Sequence[str],
        series: int,
        games_per_series: int | None,
        minutes_per_series: int | None,
        table_size: int,
        seating: str,
        small_tables: bool,
        group_id: int | None = None,
    ) -> EveningRow:
        """Start an evening; return it as stored."""
        now = utcnow()
        values: dict[str, Any] = {
            "public_id": new_public_id(),
            "edit_key_digest": keys.edit_digest,
            "view_key_digest": keys.view_digest,
            "name": name,
            "variant": variant,
            "house_rules": house_rules,
            "players": json.dumps(list(players)),
            "series": series,
            "games_per_series": games_per_series,
            "minutes_per_series": minutes_per_series,
            "table_size": table_size,
            "seating": seating,
            "small_tables": small_tables,
            "group_id": group_id,
            "created_at": now,
        }
        key = self._uow.write(_INSERT_EVENING, values).inserted_primary_key
        assert key is not None
        values["created_at"] = self._uow.time_as_read(now)
        values["players"] = tuple(players)
        return EveningRow(id=int(key[0]), **values)

    def add_series(self, evening_id: int, number: int, seed: int, *, drawn: bool) -> int:
        """Write that a series is seated, by this seed; return its id."""
        values = {
            "evening_id": evening_id,
            "number": number,
            "seed": seed,
            "drawn": drawn,
            "seated_at": utcnow(),
            "started_at": None,
        }
        key = self._uow.write(_INSERT_SERIES, values).inserted_primary_key
        assert key is not None
        return int(key[0])

    def add_table(self, series_id: int, number: int, session_id: int) -> None:
        """Write that a session is table ``number`` of a series."""
        self._uow.write(
            _INSERT_TABLE, {"series_id": series_id, "number": number, "session_id": session_id}
        )

    def start_clock(self, series_id: int, at: datetime) -> None:
        """Write when a series' first game was dealt, unless one of its tables did already."""
        self._uow.write(_START_CLOCK, {"series": series_id, "at": at})

    def redraw(self, series_id: int, seed: int) -> None:
        """Write a series' new seed: it is seated anew, and its clock has not started."""
        self._uow.write(_REDRAW, {"series": series_id, "seed": seed, "at": utcnow()})

    def count_changes(self, session_ids: Iterable[int]) -> None:
        """Count a change in each of these sessions' versions: their watching phones look again."""
        self._uow.write(_BUMP_VERSIONS, [{"session": session} for session in session_ids])

    def reseat_table(self, session_id: int, names: Iterable[str]) -> None:
        """Seat other players at a table where play has not begun (its games had no entry).

        Its games go (dealt, nothing recorded), then its players; the new ones sit in this
        order, the first dealing the first game (E6).
        """
        self._uow.write(_DELETE_GAMES, {"session": session_id})
        self._uow.write(_DELETE_PLAYERS, {"session": session_id})
        self._uow.write(
            _INSERT_PLAYERS,
            [
                {"session_id": session_id, "seat": seat, "name": name, "banked": 0}
                for seat, name in enumerate(names)
            ],
        )
        self._uow.write(_FIRST_DEALER, {"session": session_id})


def _evening_of(row: Any) -> EveningRow:
    fields = dict(row._mapping)
    fields["players"] = tuple(json.loads(fields["players"]))
    return EveningRow(**fields)


# --- the statements ------------------------------------------------------------------------------

_BY_PUBLIC_ID = sa.select(EVENINGS).where(EVENINGS.c.public_id == sa.bindparam("public_id"))
_OF_GROUP = (
    sa.select(EVENINGS)
    .where(EVENINGS.c.group_id == sa.bindparam("group"))
    .order_by(EVENINGS.c.created_at, EVENINGS.c.id)
)
_LOCKED = sa.select(EVENINGS).where(EVENINGS.c.id == sa.bindparam("evening")).with_for_update()

_WON = (
    sa.select(sa.func.count())
    .where(GAMES.c.winner_id == PLAYERS.c.id)
    .correlate(PLAYERS)
    .scalar_subquery()
)
_SEATS = (
    sa.select(
        SERIES.c.id.label("series_id"),
        SERIES.c.number.label("series"),
        SERIES.c.seed,
        SERIES.c.drawn,
        SERIES.c.seated_at,
        SERIES.c.started_at,
        TABLES.c.number.label("table_number"),
        SESSIONS.c.id.label("session_id"),
        SESSIONS.c.public_id.label("session_public_id"),
        SESSIONS.c.status,
        SESSIONS.c.version,
        SESSIONS.c.variant,
        SESSIONS.c.house_rules,
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.name,
        PLAYERS.c.banked,
        _WON.label("won"),
    )
    .select_from(
        SERIES.join(TABLES, TABLES.c.series_id == SERIES.c.id)
        .join(SESSIONS, SESSIONS.c.id == TABLES.c.session_id)
        .join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id)
    )
    .where(SERIES.c.evening_id == sa.bindparam("evening"))
    .order_by(SERIES.c.number, TABLES.c.number, PLAYERS.c.seat)
)
_GAMES_OF_TABLES = (
    sa.select(
        GAMES.c.session_id,
        sa.func.count().label("dealt"),
        sa.func.count().filter(GAMES.c.status == "open").label("open"),
    )
    .select_from(
        GAMES.join(TABLES, TABLES.c.session_id == GAMES.c.session_id).join(
            SERIES, SERIES.c.id == TABLES.c.series_id
        )
    )
    .where(SERIES.c.evening_id == sa.bindparam("evening"))
    .group_by(GAMES.c.session_id)
)

_VERSION = (
    sa.select(
        sa.func.count(sa.distinct(SERIES.c.id)).label("series"),
        sa.func.coalesce(sa.func.sum(SERIES.c.seed), 0).label("seeds"),
        sa.func.coalesce(sa.func.sum(SESSIONS.c.version), 0).label("versions"),
    )
    .select_from(
        SERIES.join(TABLES, TABLES.c.series_id == SERIES.c.id).join(
            SESSIONS, SESSIONS.c.id == TABLES.c.session_id
        )
    )
    .where(SERIES.c.evening_id == sa.bindparam("evening"))
)

_LATEST = (
    sa.select(sa.func.max(SERIES.c.number))
    .where(SERIES.c.evening_id == EVENINGS.c.id)
    .correlate(EVENINGS)
    .scalar_subquery()
)
_TABLE_OF_SESSION = (
    sa.select(
        EVENINGS.c.id.label("evening_id"),
        SERIES.c.id.label("series_id"),
        SERIES.c.number.label("series"),
        _LATEST.label("latest_series"),
        SERIES.c.started_at,
        EVENINGS.c.games_per_series,
        EVENINGS.c.minutes_per_series,
        EVENINGS.c.name.label("evening_name"),
        EVENINGS.c.series.label("series_count"),
        TABLES.c.number.label("table"),
    )
    .select_from(
        TABLES.join(SERIES, SERIES.c.id == TABLES.c.series_id).join(
            EVENINGS, EVENINGS.c.id == SERIES.c.evening_id
        )
    )
    .where(TABLES.c.session_id == sa.bindparam("session"))
)

_OF_TABLE = GAMES.c.session_id == TABLES.c.session_id
_BEGUN = sa.or_(
    sa.exists().where(_OF_TABLE, GAMES.c.status != "open"),
    sa.exists().where(_OF_TABLE, ENTRIES.c.game_id == GAMES.c.id),
    sa.exists().where(_OF_TABLE, AUDIT_LINES.c.game_id == GAMES.c.id),
)
_STARTED = (
    sa.select(TABLES.c.number)
    .where(TABLES.c.series_id == sa.bindparam("series"), _BEGUN)
    .order_by(TABLES.c.number)
)

_INSERT_EVENING = sa.insert(EVENINGS)
_INSERT_SERIES = sa.insert(SERIES)
_INSERT_TABLE = sa.insert(TABLES)
_SERIES = SERIES.c.id == sa.bindparam("series")
_START_CLOCK = (
    sa.update(SERIES)
    .where(_SERIES, SERIES.c.started_at.is_(None))
    .values(started_at=sa.bindparam("at"))
)
_REDRAW = (
    sa.update(SERIES)
    .where(_SERIES)
    .values(seed=sa.bindparam("seed"), seated_at=sa.bindparam("at"), started_at=None)
)
_DELETE_GAMES = sa.delete(GAMES).where(GAMES.c.session_id == sa.bindparam("session"))
_DELETE_PLAYERS = sa.delete(PLAYERS).where(PLAYERS.c.session_id == sa.bindparam("session"))
_INSERT_PLAYERS = sa.insert(PLAYERS)
_FIRST_DEALER = (
    sa.update(SESSIONS).where(SESSIONS.c.id == sa.bindparam("session")).values(first_dealer_seat=0)
)
_BUMP_VERSIONS = (
    sa.update(SESSIONS)
    .where(SESSIONS.c.id == sa.bindparam("session"))
    .values(version=SESSIONS.c.version + 1)
)
