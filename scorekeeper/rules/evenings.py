"""A club evening: its players, its tables, the seating of each series, and when a series ends.

An evening (German "Spielabend") is played under one rule system at several tables at once, in
series: each table of a series is a session. The rulings E1-E12 in ``docs/rules.md`` say why
the evening is planned, seated and ended as it is here; the ranking is in
:mod:`scorekeeper.rules.ranking`.

>>> plan = EveningPlan.from_request(
...     variant="treppenromme", players=[f"P{n}" for n in range(1, 12)], series=3,
...     games_per_series=10, table_size=4,
... )
>>> plan.tables
(4, 4, 3)
>>> first = plan.seat_series(1, seed=7)
>>> [len(table) for table in first.tables], first.drawn
([4, 4, 3], True)
>>> plan.seat_series(1, seed=7) == first  # the same seed draws the same seats
True
"""

from __future__ import annotations

import enum
import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from scorekeeper.rules.errors import (
    EveningPlayersError,
    NextSeriesError,
    RedrawError,
    RulesError,
    SeatingModeError,
    SeriesPlanError,
    TableSizeError,
)
from scorekeeper.rules.messages import AllOf, Message, OneOf
from scorekeeper.rules.seating import check_names
from scorekeeper.rules.variants import TREPPENROMME, Variant, find_variant
from scorekeeper.rules.variants.base import LARGEST_NUMBER, MOST_GAMES

__all__ = [
    "EVENING_PLAYERS",
    "GAMES_PER_SERIES",
    "MINUTES_PER_SERIES",
    "SERIES_PER_EVENING",
    "EveningPlan",
    "SeatingMode",
    "SeriesEnd",
    "SeriesProgress",
    "SeriesSeating",
    "draw_series",
    "evening_players",
    "evening_problems",
    "new_seed",
    "seat_by_standing",
    "table_sizes",
    "workable_table_sizes",
]

P = TypeVar("P", bound=Hashable)

# E1: six players make two tables of 3, and 60 (15 tables of 4) fill a club's hall.
EVENING_PLAYERS = (6, 60)
SERIES_PER_EVENING = (1, 12)
# National championships play 20 games a series, often in 2 hours; 100 games or 8 hours are
# more than any evening holds.
GAMES_PER_SERIES = (1, 100)
MINUTES_PER_SERIES = (10, 480)
# E3: a table of 2 only where the organiser allows it; a table of 1 never.
SMALLEST_TABLE = 3
SMALLEST_TABLE_ALLOWED = 2


def new_seed() -> int:
    """Return a fresh seed for a draw, a whole number that fits a 32-bit column (E4).

    >>> 0 <= new_seed() <= 2**31 - 1
    True
    """
    return random.SystemRandom().randint(0, LARGEST_NUMBER)


# --- the tables ------------------------------------------------------------------------------


def _split(players: int, size: int, smallest: int) -> tuple[int, ...] | None:
    """Return the tables of ``size`` and ``size - 1`` for the players, or None where none do."""
    tables = -(-players // size)
    short = tables * size - players
    if short > tables or (short and size - 1 < smallest):
        return None
    return (size,) * (tables - short) + (size - 1,) * short


def workable_table_sizes(
    players: int, variant: Variant = TREPPENROMME, *, small_tables: bool = False
) -> tuple[int, ...]:
    """Return the table sizes that seat the players under the rule system (E2, E3).

    >>> workable_table_sizes(7)
    (4,)
    >>> workable_table_sizes(7, small_tables=True)
    (3, 4)
    """
    smallest = _smallest_table(variant, small_tables)
    return tuple(
        size
        for size in variant.players_allowed()
        if size >= smallest and _split(players, size, smallest) is not None
    )


def table_sizes(
    players: int, size: int, variant: Variant = TREPPENROMME, *, small_tables: bool = False
) -> tuple[int, ...]:
    """Return the sizes of the tables of a series, table 1 first, or raise why not (E2, E3).

    All tables are of the size wanted where it divides the players; otherwise some are one
    smaller, as few tables as can be, the smaller ones last. A table of 2 only where the
    organiser allows small tables; a table of 1 never.

    >>> table_sizes(12, 4), table_sizes(11, 4), table_sizes(6, 4)
    ((4, 4, 4), (4, 4, 3), (3, 3))
    >>> table_sizes(7, 3)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.TableSizeError: 7 players at tables of 3 would need a table of 2, \
which the organiser has not allowed: choose tables of 4, or allow tables of 2.
    >>> table_sizes(7, 3, small_tables=True)
    (3, 2, 2)
    """
    low, high = EVENING_PLAYERS
    if not low <= players <= high:
        raise EveningPlayersError("evening.player_count", low=low, high=high, count=players)
    smallest = _smallest_table(variant, small_tables)
    _refuse_table_size(size, variant, smallest)
    tables = _split(players, size, smallest)
    if tables is not None:
        return tables
    workable = workable_table_sizes(players, variant, small_tables=small_tables)
    if not workable:
        raise TableSizeError(
            "evening.no_table_size",
            variant=variant,
            count=players,
            low=variant.min_players,
            high=variant.max_players,
        )
    suggested = {"sizes": OneOf(workable)}
    total = -(-players // size)
    if total * size - players > total:
        raise TableSizeError(
            "evening.tables_split", count=players, size=size, smaller=size - 1, **suggested
        )
    if size - 1 < SMALLEST_TABLE_ALLOWED:
        raise TableSizeError("evening.table_of_one", count=players, size=size, **suggested)
    raise TableSizeError("evening.table_of_two", count=players, size=size, **suggested)


def _smallest_table(variant: Variant, small_tables: bool) -> int:
    """Return the fewest players a table of an evening may have (E3)."""
    return max(variant.min_players, SMALLEST_TABLE_ALLOWED if small_tables else SMALLEST_TABLE)


def _refuse_table_size(size: int, variant: Variant, smallest: int) -> None:
    """Raise if the rule system seats no table of this size, or it is too small for the evening."""
    low, high = variant.min_players, variant.max_players
    if not low <= size <= high:
        raise TableSizeError("evening.table_size", variant=variant, low=low, high=high, size=size)
    if size < smallest:
        raise TableSizeError("evening.small_tables", size=size)


# --- how later series are seated, and when a series ends -------------------------------------


class SeatingMode(enum.Enum):
    """How the series after the first are seated: by the evening's standing, or drawn (E5)."""

    STANDING = "standing"
    DRAWN = "drawn"

    @classmethod
    def from_name(cls, name: object) -> SeatingMode:
        """Return the seating mode of a name, ``"standing"`` or ``"drawn"``, or raise.

        >>> SeatingMode.from_name("drawn")
        SeatingMode.DRAWN
        """
        for mode in cls:
            if mode.value == name:
                return mode
        raise SeatingModeError("evening.seating_mode", name=str(name)[:40])

    def __repr__(self) -> str:
        return f"SeatingMode.{self.name}"


@dataclass(frozen=True)
class SeriesProgress:
    """Where a table's series stands (E7).

    ``over``: no game is being played and none is dealt any more; ``last_game``: the game being
    played is the series' last; ``games_left`` counts the games still to end in a series of a
    number of games (None for a series of minutes); ``time_up`` says the minutes have run out.
    """

    over: bool
    last_game: bool
    games_left: int | None
    time_up: bool
    deadline: datetime | None


@dataclass(frozen=True)
class SeriesEnd:
    """How a series ends: after a number of games, or the game being played when the minutes
    run out is its last (E7).

    >>> SeriesEnd.after_games(20)
    SeriesEnd.after_games(20)
    >>> SeriesEnd.from_request(minutes_per_series=120)
    SeriesEnd.after_minutes(120)
    """

    games: int | None = None
    minutes: int | None = None

    def __post_init__(self) -> None:
        if (self.games is None) == (self.minutes is None):
            raise ValueError("a series ends after a number of games or of minutes, not both")

    @classmethod
    def after_games(cls, games: int) -> SeriesEnd:
        """Return the end of a series after a number of games."""
        return cls(games=games)

    @classmethod
    def after_minutes(cls, minutes: int) -> SeriesEnd:
        """Return the end of a series after a number of minutes: the game then played is last."""
        return cls(minutes=minutes)

    @classmethod
    def from_request(
        cls, games_per_series: object = None, minutes_per_series: object = None
    ) -> SeriesEnd:
        """Return the end of a series from the organiser's choice, or raise what is wrong."""
        if games_per_series is None and minutes_per_series is None:
            raise SeriesPlanError("evening.series_end_missing")
        if games_per_series is not None and minutes_per_series is not None:
            raise SeriesPlanError("evening.series_end_both")
        if games_per_series is not None:
            low, high = GAMES_PER_SERIES
            games = _whole(games_per_series, low, high)
            if games is None:
                raise SeriesPlanError("evening.games_per_series", low=low, high=high)
            return cls.after_games(games)
        low, high = MINUTES_PER_SERIES
        minutes = _whole(minutes_per_series, low, high)
        if minutes is None:
            raise SeriesPlanError("evening.minutes_per_series", low=low, high=high)
        return cls.after_minutes(minutes)

    def deadline(self, started: datetime) -> datetime | None:
        """Return when the minutes of a series started then run out (None: a number of games)."""
        if self.minutes is None:
            return None
        return started + timedelta(minutes=self.minutes)

    def progress(
        self,
        *,
        games_ended: int,
        game_in_progress: bool,
        started: datetime | None = None,
        now: datetime | None = None,
    ) -> SeriesProgress:
        """Say where a table's series stands: over, its last game being played, or going on.

        ``games_ended`` are the table's games of this series that ended (settled or abandoned),
        ``game_in_progress`` whether one is being played; ``started`` is when the series
        started and ``now`` the time asked about (both needed for a series of minutes, both
        aware or both naive). Asked when a game ends (``game_in_progress=False``), ``over``
        False means the next game is dealt. A series has at least one game, and a tie at a
        table's top plays no extra game.

        >>> SeriesEnd.after_games(3).progress(games_ended=2, game_in_progress=True).last_game
        True
        >>> from datetime import datetime
        >>> start = datetime(2024, 3, 1, 19, 0)
        >>> end = SeriesEnd.after_minutes(120)
        >>> end.progress(games_ended=9, game_in_progress=True, started=start,
        ...              now=datetime(2024, 3, 1, 21, 5)).last_game
        True
        >>> end.progress(games_ended=10, game_in_progress=False, started=start,
        ...              now=datetime(2024, 3, 1, 21, 20)).over
        True
        """
        if self.games is not None:
            left = max(0, self.games - games_ended)
            return SeriesProgress(
                over=left == 0 and not game_in_progress,
                last_game=game_in_progress and left <= 1,
                games_left=left,
                time_up=False,
                deadline=None,
            )
        if started is None or now is None:
            raise ValueError("a series of minutes needs its start and the time now")
        deadline = self.deadline(started)
        assert deadline is not None
        time_up = now >= deadline
        return SeriesProgress(
            over=time_up and not game_in_progress and games_ended >= 1,
            last_game=game_in_progress and time_up,
            games_left=None,
            time_up=time_up,
            deadline=deadline,
        )

    def table_rules(self, variant: Variant) -> Variant:
        """Return the rule system a table of the series plays by: its end is the series' (E8).

        A series of games ends the table's session after them; a series of minutes ends it by
        the clock (``progress``), the most games a session may have standing as its end.

        >>> SeriesEnd.after_games(20).table_rules(TREPPENROMME).words.end_said("en")
        '20 games'
        >>> SeriesEnd.after_minutes(90).table_rules(TREPPENROMME).words.end_said("en")
        '1000 games'
        """
        return variant.with_end({"games": self.games if self.games is not None else MOST_GAMES})

    def table_rules_said(self, variant: Variant, language: str = "en") -> tuple[str, ...]:
        """Say the rules of a table of the series: its rule system, the series' end, its house
        rules (a series of minutes has no number of games to say).

        >>> SeriesEnd.after_minutes(90).table_rules_said(TREPPENROMME)[:2]
        ('Treppenrommé', '90 minutes a series; the game being played then is the last')
        >>> SeriesEnd.after_games(20).table_rules_said(TREPPENROMME)[1]
        '20 games a series'
        """
        said = list(self.table_rules(variant).words.rules_said(language))
        said[1] = self.said().render(language)
        return tuple(said)

    def said(self) -> Message:
        """Say how a series ends, e.g. "20 games a series".

        >>> SeriesEnd.after_minutes(90).said().render("en")
        '90 minutes a series; the game being played then is the last'
        """
        if self.games is not None:
            return Message("evening.said_games", {"count": self.games})
        return Message("evening.said_minutes", {"count": self.minutes})

    def __repr__(self) -> str:
        if self.games is not None:
            return f"SeriesEnd.after_games({self.games})"
        return f"SeriesEnd.after_minutes({self.minutes})"


def _whole(value: object, low: int, high: int) -> int | None:
    """Return a value that is a whole number (not a truth value) from low to high, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


def _shown(value: object) -> str:
    """Return a value the organiser gave, shortened to be quoted back."""
    return str(value)[:20]


# --- the seating of a series -----------------------------------------------------------------


@dataclass(frozen=True)
class SeriesSeating(Generic[P]):
    """The tables of one series, table 1 first, each its players in seating order (clockwise).

    The first player of a table deals its first game (E6). ``seed`` is the lot that drew the
    series (or the seats of its tables, when ``drawn`` is False and the standing chose the
    tables): the same seed draws the same seating again.
    """

    number: int
    tables: tuple[tuple[P, ...], ...]
    seed: int
    drawn: bool

    @classmethod
    def from_tables(
        cls, number: int, tables: Iterable[Iterable[P]], seed: int, *, drawn: bool
    ) -> SeriesSeating[P]:
        """Return a seating read back as it was stored: each table's players in seat order."""
        return cls(number, tuple(tuple(table) for table in tables), seed, drawn)

    @property
    def first_dealers(self) -> tuple[P, ...]:
        """Return who deals first at each table: the first seat."""
        return tuple(table[0] for table in self.tables)

    def table_of(self, player: P) -> int:
        """Return the number of the table a player sits at (1 for the first)."""
        for number, table in enumerate(self.tables, start=1):
            if player in table:
                return number
        raise KeyError(player)


def _check_seated(players: Sequence[P], sizes: Sequence[int]) -> None:
    """Raise if the tables do not seat exactly these players, each once (the caller's error)."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if sum(sizes) != len(players) or min(sizes, default=0) < 1:
        raise ValueError(f"tables of {list(sizes)} do not seat {len(players)} players")


def _shuffle(items: list[P], lot: random.Random) -> None:
    """Shuffle a list in place by the lot (Fisher-Yates), as every Python version will.

    Only ``random()`` of a generator seeded by a whole number is promised to give the same
    numbers in every Python version (``shuffle`` is not), so a stored seed draws the same
    seating after an upgrade.
    """
    for last in range(len(items) - 1, 0, -1):
        other = int(lot.random() * (last + 1))
        items[last], items[other] = items[other], items[last]


def _tables(order: Sequence[P], sizes: Sequence[int]) -> tuple[tuple[P, ...], ...]:
    """Return the players in order cut into tables of these sizes."""
    tables: list[tuple[P, ...]] = []
    at = 0
    for size in sizes:
        tables.append(tuple(order[at : at + size]))
        at += size
    return tuple(tables)


def draw_series(
    number: int, players: Sequence[P], sizes: Sequence[int], seed: int
) -> SeriesSeating[P]:
    """Draw a series by lot: the players shuffled by the seed, then cut into tables (E4).

    The order drawn is the seating order at each table, and its first player deals first.

    >>> draw_series(1, ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"], (3, 3), seed=1).tables
    (('Bob', 'Cid', 'Fay'), ('Dan', 'Eve', 'Ann'))
    """
    _check_seated(players, sizes)
    order = list(players)
    _shuffle(order, random.Random(seed))
    return SeriesSeating(number, _tables(order, sizes), seed, drawn=True)


def seat_by_standing(
    number: int, standing: Sequence[P], sizes: Sequence[int], seed: int
) -> SeriesSeating[P]:
    """Seat a series by the standing: places 1-4 at table 1, 5-8 at table 2, … (E5).

    ``standing`` is every player best first, as the ranking lists them (shared places as
    listed). The seats at each table are drawn by the seed (E6).

    >>> standing = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]
    >>> seated = seat_by_standing(2, standing, (4, 3), seed=5)
    >>> [sorted(table) for table in seated.tables]
    [['Ann', 'Bob', 'Cid', 'Dan'], ['Eve', 'Fay', 'Gus']]
    """
    _check_seated(standing, sizes)
    lot = random.Random(seed)
    tables = []
    for table in _tables(standing, sizes):
        seats = list(table)
        _shuffle(seats, lot)
        tables.append(tuple(seats))
    return SeriesSeating(number, tuple(tables), seed, drawn=False)


# --- the evening -----------------------------------------------------------------------------


@dataclass(frozen=True)
class EveningPlan:
    """What an organiser chose for an evening, checked: one rule system for every table.

    ``tables`` are the sizes of the tables of every series (the players are the same in each).
    """

    variant: Variant
    players: tuple[str, ...]
    series: int
    end: SeriesEnd
    table_size: int
    seating: SeatingMode = SeatingMode.STANDING
    small_tables: bool = False

    @classmethod
    def from_request(
        cls,
        *,
        variant: str | None = None,
        house_rules: Mapping[str, object] | None = None,
        players: Sequence[str],
        series: object,
        games_per_series: object = None,
        minutes_per_series: object = None,
        table_size: object = None,
        seating: object = SeatingMode.STANDING.value,
        small_tables: bool = False,
    ) -> EveningPlan:
        """Return the evening the organiser chose, or raise its first problem (``problems``).

        ``table_size`` None is 4, or the rule system's largest table where that is smaller.
        """
        problems = evening_problems(
            variant=variant,
            house_rules=house_rules,
            players=players,
            series=series,
            games_per_series=games_per_series,
            minutes_per_series=minutes_per_series,
            table_size=table_size,
            seating=seating,
            small_tables=small_tables,
        )
        if problems:
            raise next(iter(problems.values()))
        chosen = find_variant(_rule_system(variant).name, house_rules)
        series_count = _whole(series, *SERIES_PER_EVENING)
        assert series_count is not None  # checked among the problems
        return cls(
            variant=chosen,
            players=tuple(evening_players(players)),
            series=series_count,
            end=SeriesEnd.from_request(games_per_series, minutes_per_series),
            table_size=_table_size(table_size, chosen),
            seating=SeatingMode.from_name(seating),
            small_tables=small_tables,
        )

    @property
    def tables(self) -> tuple[int, ...]:
        """Return the sizes of the tables of a series, table 1 first."""
        return table_sizes(
            len(self.players), self.table_size, self.variant, small_tables=self.small_tables
        )

    def seat_series(
        self, number: int, seed: int, standing: Sequence[str] | None = None
    ) -> SeriesSeating[str]:
        """Seat series ``number``: the first drawn, later ones by the standing or drawn (E4, E5).

        ``standing`` is every player best first (the ranking's rows, in order); it is needed
        for a later series seated by the standing.
        """
        if not 1 <= number <= self.series:
            raise ValueError(f"the evening has series 1 to {self.series}, not {number}")
        if number == 1 or self.seating is SeatingMode.DRAWN:
            return draw_series(number, self.players, self.tables, seed)
        if standing is None:
            raise ValueError("a series seated by the standing needs the standing")
        if sorted(standing) != sorted(self.players):
            raise ValueError("the standing must hold every player of the evening once")
        return seat_by_standing(number, standing, self.tables, seed)

    def check_next_series(self, seated: int, tables_ended: Sequence[bool]) -> int:
        """Return the number of the next series to seat, or raise why not yet or not any more.

        ``seated`` is how many series are seated so far, ``tables_ended`` whether each table of
        the latest one has ended (E12).

        >>> plan = EveningPlan.from_request(players=list("ABCDEFGH"), series=2, games_per_series=5)
        >>> plan.check_next_series(1, [True, True])
        2
        >>> plan.check_next_series(1, [True, False])
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.NextSeriesError: Series 1 is still being played at table 2: \
the next series is seated once every table has ended.
        """
        if seated >= self.series:
            raise NextSeriesError("evening.all_series_played", count=self.series)
        playing = [number for number, ended in enumerate(tables_ended, start=1) if not ended]
        if seated and playing:
            raise NextSeriesError(
                "evening.still_playing",
                number=seated,
                tables=AllOf(tuple(playing)),
                count=len(playing),
            )
        return seated + 1

    def check_redraw(self, number: int, started_tables: Collection[int]) -> None:
        """Raise if series ``number`` may not be drawn again: play began at a table of it (E4).

        ``started_tables`` are the numbers of its tables where a game has an entry or ended.

        >>> plan = EveningPlan.from_request(players=list("ABCDEF"), series=2, games_per_series=5)
        >>> plan.check_redraw(1, [])
        >>> plan.check_redraw(1, [2])
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.RedrawError: Series 1 cannot be drawn again: play has begun at \
table 2.
        """
        if started_tables:
            started = tuple(sorted(started_tables))
            raise RedrawError(
                "evening.redraw_started",
                number=number,
                tables=AllOf(started),
                count=len(started),
            )


def evening_players(names: Sequence[str]) -> list[str]:
    """Return the players of an evening tidied (as a session's), or raise why not (E1).

    >>> evening_players(["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.EveningPlayersError: An evening is for 6 to 60 players; 2 were \
entered.
    """
    low, high = EVENING_PLAYERS
    if not low <= len(names) <= high:
        raise EveningPlayersError("evening.player_count", low=low, high=high, count=len(names))
    return check_names(names)


def _table_size(table_size: object, variant: Variant) -> int:
    """Return the table size chosen (None: 4, or the largest table if smaller), or raise."""
    if table_size is None:
        return min(4, variant.max_players)
    size = _whole(table_size, 1, LARGEST_NUMBER)
    if size is None:
        raise TableSizeError(
            "evening.table_size",
            variant=variant,
            low=variant.min_players,
            high=variant.max_players,
            size=_shown(table_size),
        )
    return size


def evening_problems(
    *,
    variant: str | None = None,
    house_rules: Mapping[str, object] | None = None,
    players: Sequence[str],
    series: object,
    games_per_series: object = None,
    minutes_per_series: object = None,
    table_size: object = None,
    seating: object = SeatingMode.STANDING.value,
    small_tables: bool = False,
) -> dict[str, RulesError]:
    """Return every reason an evening cannot be planned so, by field; none when it can.

    The keys are ``variant`` (the rule system and its house rules), ``players``,
    ``table_size``, ``series``, ``series_end`` and ``seating``, in the order of the form, so
    that each problem shows beside its field.

    >>> list(evening_problems(players=["Ann"], series=0, table_size=9, seating="best"))
    ['players', 'table_size', 'series', 'series_end', 'seating']
    """
    problems: dict[str, RulesError] = {}
    rules: Variant | None = None
    try:
        rules = _rule_system(variant)
        rules = find_variant(rules.name, house_rules)
        if house_rules and "end" in house_rules:
            raise SeriesPlanError("evening.session_end")
    except RulesError as error:
        problems["variant"] = error
    try:
        evening_players(players)
    except RulesError as error:
        problems["players"] = error
    try:
        if rules is not None:  # the table's limits are the rule system's
            size = _table_size(table_size, rules)
            if "players" in problems:  # the limits alone: the split needs the players
                _refuse_table_size(size, rules, _smallest_table(rules, small_tables))
            else:
                table_sizes(len(players), size, rules, small_tables=small_tables)
    except TableSizeError as error:
        problems["table_size"] = error
    low, high = SERIES_PER_EVENING
    if _whole(series, low, high) is None:
        problems["series"] = SeriesPlanError("evening.series_count", low=low, high=high)
    try:
        SeriesEnd.from_request(games_per_series, minutes_per_series)
    except SeriesPlanError as error:
        problems["series_end"] = error
    try:
        SeatingMode.from_name(seating)
    except SeatingModeError as error:
        problems["seating"] = error
    return problems


def _rule_system(name: str | None) -> Variant:
    """Return the rule system of a name with its default house rules (None: the default)."""
    return find_variant(name) if name is not None else find_variant()
