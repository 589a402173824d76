"""Use cases of a club evening: start it with series 1 drawn, draw it again, seat the next series.

Each table of a series is a session as any other, with its own edit key (derived from the
evening's, ``SessionKeys.table``); the rules core plans the evening, seats each series and says
when the next may be seated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from scorekeeper import rules
from scorekeeper.keys import Access, SessionKeys, access
from scorekeeper.queries.evenings import EveningView, evening_view, now_as_stored
from scorekeeper.rules.groups import group_name
from scorekeeper.services.groups import check_players_in_group
from scorekeeper.store import (
    ConflictError,
    NotFoundError,
    UnitOfWork,
    unit_of_work,
    write_use_case,
)
from scorekeeper.store.evenings import EveningRow, TableOfSession


def access_to_evening(
    public_id: str, key: str | None, need: Access = Access.VIEW, *, reads_only: bool = False
) -> tuple[EveningRow, Access]:
    """Return the evening behind a public id and what the key may do there.

    A missing evening and a key that may not do ``need`` are the same NotFoundError; a request
    that only reads (``reads_only``) asks for no write lock, as a group's.
    """
    evening = unit_of_work().evenings.find(public_id, reads_only=reads_only)
    granted = Access.NONE
    if evening is not None:
        granted = access(key, evening.edit_key_digest, evening.view_key_digest)
    if evening is None or granted < need:
        raise NotFoundError("no_evening")
    return evening, granted


@write_use_case
def start_evening(
    name: str,
    *,
    variant: str | None = None,
    house_rules: Mapping[str, object] | None = None,
    players: Sequence[str],
    series: object,
    games_per_series: object = None,
    minutes_per_series: object = None,
    table_size: object = None,
    seating: object = "standing",
    small_tables: bool = False,
    keys: SessionKeys,
    group: int | None = None,
) -> EveningView:
    """Plan an evening, draw series 1 and open a session at each of its tables (E1-E4).

    ``group`` is the id of the club whose season the evening counts in (the caller checked its
    edit key): two players its merges name one person are refused.
    """
    tidied = group_name(name)
    plan = rules.EveningPlan.from_request(
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
    with unit_of_work() as uow:
        check_players_in_group(uow, group, plan.players)
        evening = uow.evenings.add(
            keys=keys,
            group_id=group,
            name=tidied,
            variant=plan.variant.name,
            house_rules=json.dumps(dict(house_rules or {}), sort_keys=True),
            players=plan.players,
            series=plan.series,
            games_per_series=plan.end.games,
            minutes_per_series=plan.end.minutes,
            table_size=plan.table_size,
            seating=plan.seating.value,
            small_tables=plan.small_tables,
        )
        _seat(uow, evening.id, plan, plan.seat_series(1, rules.new_seed()), keys)
        view = evening_view(uow, evening)
        uow.commit()
    return view


@write_use_case
def seat_next_series(evening_id: int, keys: SessionKeys) -> EveningView:
    """Seat the next series once every table of the latest one has ended (E5, E12).

    By the standing after the series so far, or drawn again, as the organiser chose.
    """
    with unit_of_work() as uow:
        evening = uow.evenings.locked(evening_id)
        before = evening_view(uow, evening)
        plan = before.plan
        number = plan.check_next_series(
            len(before.series), [table.ended for table in before.progress]
        )
        standing = [row.player for row in before.ranking]
        _seat(uow, evening.id, plan, plan.seat_series(number, rules.new_seed(), standing), keys)
        view = evening_view(uow, evening)
        uow.commit()
    return view


@write_use_case
def redraw_series(evening_id: int) -> EveningView:
    """Draw the latest series again with a new seed, before play begins at its tables (E4).

    The tables keep their sessions and keys (their QR codes hold): other players sit there.
    """
    with unit_of_work() as uow:
        evening = uow.evenings.locked(evening_id)
        plan = evening.plan
        latest = uow.evenings.series_of(evening.id)[-1]
        if not latest.drawn:
            raise ConflictError("not_drawn", number=latest.number)
        plan.check_redraw(latest.number, uow.evenings.started_tables(latest.id))
        seed = rules.new_seed()
        seating = plan.seat_series(latest.number, seed)
        uow.evenings.redraw(latest.id, seed)
        for table, names in zip(latest.tables, seating.tables, strict=True):
            uow.evenings.reseat_table(table.session_id, names)
        uow.evenings.count_changes([table.session_id for table in latest.tables])
        view = evening_view(uow, evening)
        uow.commit()
    return view


def _seat(
    uow: UnitOfWork,
    evening_id: int,
    plan: rules.EveningPlan,
    seating: rules.SeriesSeating[str],
    keys: SessionKeys,
) -> None:
    """Write a series as seated: a session at each table, its first seat dealing first (E6)."""
    series_id = uow.evenings.add_series(
        evening_id, seating.number, seating.seed, drawn=seating.drawn
    )
    table_rules = json.dumps(plan.end.table_rules(plan.variant).house_rules, sort_keys=True)
    for number, names in enumerate(seating.tables, start=1):
        session = uow.sessions.add(
            variant=plan.variant.name,
            house_rules=table_rules,
            first_dealer_seat=0,
            names=names,
            keys=keys.table(seating.number, number),
            group_id=None,
        )
        uow.evenings.add_table(series_id, number, session.id)


# --- what a session that is a table of an evening asks of its series -------------------------


def evening_table_of(uow: UnitOfWork, session_id: int) -> TableOfSession | None:
    """Return the series a session is a table of, or None for a session of its own."""
    return uow.evenings.table_of_session(session_id)


def deal_at_table(uow: UnitOfWork, table: TableOfSession, games_ended: int) -> None:
    """Refuse the next game of a table whose series is over; start the series' clock (E7)."""
    now = now_as_stored(uow)
    progress = table.end.progress(
        games_ended=games_ended,
        game_in_progress=False,
        started=table.started_at or now,
        now=now,
    )
    if progress.over:
        raise ConflictError("series_over", number=table.series)
    uow.evenings.start_clock(table.series_id, now)


def series_over_at_table(uow: UnitOfWork, table: TableOfSession, games_ended: int) -> bool:
    """Tell whether a table's series is over once a game ended there (E7, E8)."""
    now = now_as_stored(uow)
    return table.end.progress(
        games_ended=games_ended,
        game_in_progress=False,
        started=table.started_at or now,
        now=now,
    ).over


__all__ = [
    "access_to_evening",
    "deal_at_table",
    "evening_table_of",
    "redraw_series",
    "seat_next_series",
    "series_over_at_table",
    "start_evening",
]
