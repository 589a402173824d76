"""The read side of a club evening: its series and tables, each table's progress, the ranking."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from scorekeeper import rules
from scorekeeper.rules.groups import People
from scorekeeper.store import GroupRow, UnitOfWork, unit_of_work
from scorekeeper.store.evenings import EveningRow, SeriesRow, TableOfSession, TableRow


@dataclass(frozen=True)
class TableProgress:
    """Where a table of a series stands: game k of n, its leader, whether it has ended."""

    table: TableRow
    # The number of the game being played, or of the last one ended (0: none dealt yet).
    game: int
    # The games of the series (None: a series of minutes).
    games: int | None
    leader: str | None
    ended: bool
    last_game: bool
    deadline: datetime | None


@dataclass(frozen=True)
class EveningView:
    """An evening as its pages and the API show it: its series, their tables, the ranking."""

    evening: EveningRow
    plan: rules.EveningPlan
    series: tuple[SeriesRow, ...]
    # Each table of the latest series, table 1 first.
    progress: tuple[TableProgress, ...]
    ranking: tuple[rules.RankingRow[str], ...]
    # Whether the latest series may be drawn again, and whether the next may be seated now.
    redraw_possible: bool
    next_series_possible: bool

    @property
    def latest(self) -> SeriesRow:
        """Return the series seated last."""
        return self.series[-1]

    @property
    def version(self) -> str:
        """Return what changes whenever anything the evening shows changes (``evening_version``)."""
        versions = sum(table.version for series in self.series for table in series.tables)
        seeds = sum(series.seed for series in self.series)
        return f"{len(self.series)}.{seeds}.{versions}"


def now_as_stored(uow: UnitOfWork) -> datetime:
    """Return the time now, as the database gives a stored time back (to compare with one)."""
    return uow.time_as_read(datetime.now(UTC))


def table_progress(
    table: TableRow, series: SeriesRow, end: rules.SeriesEnd, now: datetime
) -> TableProgress:
    """Ask the rules where a table of a series stands (E7): over, its last game, its leader."""
    in_progress = table.games_open > 0
    started = series.started_at
    progress = end.progress(
        games_ended=table.games_ended,
        game_in_progress=in_progress,
        started=started or now,
        now=now,
    )
    leader = None
    if table.games_ended:
        totals = {seat.name: seat.total for seat in table.players}
        leader = table.rules.standing_order([seat.name for seat in table.players], totals)[0]
    return TableProgress(
        table=table,
        game=table.games_dealt if in_progress else table.games_ended,
        games=end.games,
        leader=leader,
        ended=table.status == "finished" or progress.over,
        last_game=progress.last_game,
        deadline=progress.deadline if started is not None else None,
    )


def rank(
    evening: EveningRow, plan: rules.EveningPlan, series: list[SeriesRow]
) -> tuple[rules.RankingRow[str], ...]:
    """Rank the evening's players over its series so far (E9): the rules core decides."""
    scores = [
        {
            seat.name: rules.SeriesScore(seat.total, seat.games_won)
            for table in played.tables
            for seat in table.players
        }
        for played in series
    ]
    return rules.rank_evening(plan.variant, list(evening.players), scores)


def read_evening(evening: EveningRow) -> EveningView:
    """Read an evening with its series, the latest series' progress and the ranking."""
    uow = unit_of_work()
    return evening_view(uow, evening)


def evening_view(uow: UnitOfWork, evening: EveningRow) -> EveningView:
    """Read an evening's view in the unit of work (the use cases answer with it too)."""
    plan = evening.plan
    series = uow.evenings.series_of(evening.id)
    latest = series[-1]
    now = now_as_stored(uow)
    progress = tuple(table_progress(table, latest, plan.end, now) for table in latest.tables)
    started = uow.evenings.started_tables(latest.id)
    redraw = latest.drawn and not started
    following = latest.number < plan.series and all(each.ended for each in progress)
    return EveningView(
        evening=evening,
        plan=plan,
        series=tuple(series),
        progress=progress,
        ranking=rank(evening, plan, series),
        redraw_possible=redraw,
        next_series_possible=following,
    )


def evening_table(session_id: int) -> TableOfSession | None:
    """Return the evening, series and table a session is, or None for a session of its own."""
    return unit_of_work().evenings.table_of_session(session_id)


def evening_version(evening: EveningRow) -> str:
    """Return an evening's version, as ``EveningView.version`` says it, in one read."""
    return unit_of_work().evenings.version(evening.id)


@dataclass(frozen=True)
class Season:
    """A club's season: its evenings in the order held and the ranking over them (E11)."""

    group: GroupRow
    rule: rules.SeasonRule
    evenings: tuple[EveningRow, ...]
    ranking: tuple[rules.SeasonRow, ...]


def read_season(group: GroupRow, best: object = None, evenings: object = None) -> Season:
    """Rank a group's evenings over its season, each player's best ``best`` counted (E11).

    ``best`` and ``evenings`` as the club asked (None: all); the rules core refuses what cannot
    be (``rules.SeasonError``). Names the group merged are one person. An evening still being
    played counts as it stands.
    """
    uow = unit_of_work()
    held = uow.evenings.of_group(group.id)
    rule = rules.SeasonRule.from_request(evenings=evenings, best=best, held=len(held))
    places = [
        rules.EveningPlaces.from_ranking(
            evening.public_id, rank(evening, evening.plan, uow.evenings.series_of(evening.id))
        )
        for evening in held
    ]
    people = People((merge.name, merge.same_as) for merge in uow.groups.merges(group.id))
    return Season(group, rule, tuple(held), rules.rank_season(places, rule, people))
