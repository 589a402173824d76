"""Use cases of a session: seat the players with their house rules, deal the next game."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import replace

from scorekeeper import rules
from scorekeeper.keys import SessionKeys
from scorekeeper.services.evenings import deal_at_table, evening_table_of
from scorekeeper.services.groups import NewGroup, add_group, check_players_in_group
from scorekeeper.store import (
    ConflictError,
    GameState,
    InvalidRequestError,
    NotFoundError,
    PlayerRow,
    SessionRow,
    UnitOfWork,
    dealer_of,
    unit_of_work,
    variant_of,
    write_use_case,
)

# The largest target: the house rule "end" allows no more (a 32-bit number, as an import takes it).
_LARGEST_TARGET = 2**31 - 1


@write_use_case
def create_session(
    names: list[str],
    target: int | None = None,
    first_dealer: int | None = 0,
    *,
    variant: str = rules.DEFAULT_VARIANT,
    house_rules: Mapping[str, object] | None = None,
    start_first_game: bool = False,
    keys: SessionKeys | None = None,
    group: int | NewGroup | None = None,
) -> SessionRow:
    """Seat the players and open a session; ``first_dealer=None`` draws the dealer by lot.

    ``target`` is short for the house rule ``{"end": {"target": target}}``. Only the digests
    of ``keys`` are kept: the caller hands the keys themselves out. ``group`` is the id of the
    group the session belongs to (the caller checked its edit key), or a group to start with it.
    """
    chosen = dict(house_rules or {})
    if target is not None:
        rules.check_target(target)
        if target > _LARGEST_TARGET:
            raise rules.SeatingError("seating.target_too_high", largest=_LARGEST_TARGET)
        if chosen.setdefault("end", {"target": target}) != {"target": target}:
            raise rules.HouseRuleError("rules.target_and_end")
    rule_system = rules.find_variant(variant, chosen)
    problems = rules.seating_problems(names, target, first_dealer, rule_system)
    if problems:
        raise next(iter(problems.values()))
    seated = rules.seat_players(names, rule_system)
    with unit_of_work() as uow:
        if not isinstance(group, NewGroup):  # a new group has merged no names
            check_players_in_group(uow, group, seated)
        if first_dealer is None:
            first_dealer = random.randrange(len(seated))
        keys = keys or SessionKeys.new()
        uow.sessions.forget_never_played()
        if isinstance(group, NewGroup):
            group = add_group(uow, group).id
        session = uow.sessions.add(
            variant=rule_system.name,
            house_rules=json.dumps(rule_system.house_rules, sort_keys=True),
            first_dealer_seat=first_dealer,
            names=seated,
            keys=keys,
            group_id=group,
        )
        if start_first_game:
            seat = rule_system.dealer_seat(first_dealer, None, len(seated))
            uow.games.add(session.id, 1, session.players[seat].id)
        uow.commit()
    return session


@write_use_case
def start_game(session_id: int) -> GameState:
    """Start the next game of a session, dealt by whom the rule system says."""
    with unit_of_work() as uow:
        session = uow.sessions.for_the_deal(session_id)
        if session is None:
            raise NotFoundError("no_session")
        variant = variant_of(session)
        if session.status == "finished":
            raise ConflictError("session_over")
        last = uow.games.last(session_id)
        if last is not None and last.status == "open":
            raise ConflictError("game_still_open")
        number = last.number + 1 if last is not None else 1
        table = evening_table_of(uow, session_id)
        if table is not None:  # a table of an evening: its series says whether it deals on
            deal_at_table(uow, table, number - 1)
        # The players at the table now are dealt in: seating changes come between games.
        everyone = list(session.players)
        players = [player for player in everyone if player.plays_in(number)]
        # The dealer among them (dealer_of seats the game after ``last``, this one): so it is
        # where a change of the seating counts from a later game (a database from before
        # reopens were refused behind such a change).
        dealer = dealer_of(variant, session.first_dealer_seat, everyone, last)
        game_id = uow.games.add(session_id, number, dealer)
        uow.commit(session_id)
    return GameState(
        id=game_id,
        session_id=session_id,
        number=number,
        dealer_id=dealer,
        status="open",
        winner_id=None,
        romme=None,
        variant=variant,
        session_status=session.status,
        players=players,
        entries=[],
        session_public_id=session.public_id,
        first_dealer_seat=session.first_dealer_seat,
        others=[player for player in everyone if not player.plays_in(number)],
    )


@write_use_case
def rename_player(session_id: int, player_id: int, name: str) -> SessionRow:
    """Give a player of an open session another name, checked as at the start."""
    with unit_of_work() as uow:
        session = _open_session(uow, session_id)
        _refuse_at_an_evening(uow, session_id, "evening_table_seats")
        player = next((player for player in session.players if player.id == player_id), None)
        if player is None:
            raise InvalidRequestError("no_such_player")
        # Unique among everyone of the session: the names of those who left stay on their points.
        names = [name if other is player else other.name for other in session.players]
        renamed = rules.check_names(names)[session.players.index(player)]
        others = [other.name for other in session.players if other is not player]
        check_players_in_group(uow, session.group_id, [*others, renamed])
        uow.sessions.rename(player.id, renamed)
        uow.commit(session.id)
    return _with_players(
        session,
        [other._replace(name=renamed) if other is player else other for other in session.players],
    )


@write_use_case
def seat_player(
    session_id: int, name: str, seat: int | None = None, *, after: int | None = None
) -> SessionRow:
    """Seat a new player between games, at ``seat`` in the seating (0 first; the end if None).

    ``after`` places them after the seated player with that id instead (0: first), found in
    the seating as it is once the session is locked: they sit there even when another phone
    changed the seating just before. They are dealt in from the next game; the games before
    keep their players.
    """
    with unit_of_work() as uow:
        session = _session_between_games(uow, session_id)
        _refuse_at_an_evening(uow, session_id, "evening_table_seats")
        coming = _next_game_number(uow, session)
        seated = session.seated
        if after is not None:
            neighbours = [0, *(player.id for player in seated)]
            if after not in neighbours:
                raise InvalidRequestError("no_such_player")
            seat = neighbours.index(after)
        names = rules.join_seating(
            [player.name for player in seated],
            name,
            seat,
            variant_of(session),
            left=[player.name for player in session.left],
        )
        at = len(seated) if seat is None else seat
        check_players_in_group(
            uow, session.group_id, [*(player.name for player in session.players), names[at]]
        )
        joining = PlayerRow(id=0, seat=-1, name=names[at], banked=0, joined_game=coming)
        # In the order of everyone: just before whoever sits at that seat now, or after everyone.
        order = list(session.players)
        order.insert(order.index(seated[at]) if at < len(seated) else len(order), joining)
        _refuse_a_winner_at_once(session, [*seated[:at], joining, *seated[at:]], coming)
        first_dealer = rules.first_dealer_after_joining(session.first_dealer_seat, at, coming)
        uow.sessions.set_first_dealer(session.id, first_dealer)
        order = _seat_in_order(uow, session.id, order)
        uow.commit(session.id)
    return _with_players(session, order, first_dealer_seat=first_dealer)


@write_use_case
def unseat_player(session_id: int, player_id: int) -> SessionRow:
    """Let a player leave the table between games; their points stay in the totals.

    They are not dealt in from the next game on, and they no longer win the session; the games
    they played keep them. A player who joined and played no game yet goes without a trace.
    """
    with unit_of_work() as uow:
        session = _session_between_games(uow, session_id)
        _refuse_at_an_evening(uow, session_id, "evening_table_seats")
        player = next((player for player in session.players if player.id == player_id), None)
        if player is None:
            raise NotFoundError("no_such_player")
        if not player.seated:
            raise ConflictError("left_already", name=player.name)
        coming = _next_game_number(uow, session)
        seated = session.seated
        at = seated.index(player)
        rules.leave_seating([other.name for other in seated], at, variant_of(session))
        staying = [other for other in seated if other is not player]
        _refuse_a_winner_at_once(session, staying, coming)
        first_dealer = rules.first_dealer_after_leaving(
            session.first_dealer_seat, at, coming, len(staying)
        )
        uow.sessions.set_first_dealer(session.id, first_dealer)
        if player.joined_game == coming:
            uow.sessions.remove(player.id)
            everyone = _seat_in_order(
                uow, session.id, [other for other in session.players if other is not player]
            )
        else:
            uow.sessions.leave(player.id, coming)
            everyone = [
                other._replace(left_game=coming) if other is player else other
                for other in session.players
            ]
        uow.commit(session.id)
    return _with_players(session, everyone, first_dealer_seat=first_dealer)


def _session_between_games(uow: UnitOfWork, session_id: int) -> SessionRow:
    """Return a session still played, read after its row is locked, with no game open.

    The lock makes a start of the next game, and another change of the seating, wait.
    """
    # Read again after the lock: the key check may have read the session before it.
    session = uow.sessions.locked(session_id)
    if session is None:
        raise NotFoundError("no_session")
    if session.status == "finished":
        raise ConflictError("session_over")
    if uow.sessions.games_dealt(session_id)[1]:
        raise ConflictError("game_still_open")
    return session


def _next_game_number(uow: UnitOfWork, session: SessionRow) -> int:
    """Return the number of the game the session deals next."""
    last = uow.games.last(session.id)
    return last.number + 1 if last is not None else 1


def _refuse_a_winner_at_once(session: SessionRow, seated: list[PlayerRow], coming: int) -> None:
    """Refuse a seating under which the session would be won at once, before another game.

    Only a tie at the top keeps a session going past its end: a new seating must not decide it.
    """
    # By place at the table: a player joining has no id yet.
    totals = {at: player.banked for at, player in enumerate(seated)}
    winner = variant_of(session).standing(totals, coming - 1).winner
    if winner is not None:
        raise ConflictError("seating_decides", name=seated[winner].name)


def _seat_in_order(uow: UnitOfWork, session_id: int, players: list[PlayerRow]) -> list[PlayerRow]:
    """Number the seats of everyone of a session in this order, from 0; return them so.

    Through negative numbers first, so that no two players share a seat on the way (the
    database checks each row as it is written). A player without an id yet joins the table.
    """
    uow.sessions.reseat({player.id: -1 - seat for seat, player in enumerate(players) if player.id})
    placed = []
    for seat, player in enumerate(players):
        if not player.id:
            joined = uow.sessions.seat(session_id, player.name, player.joined_game, -1 - seat)
            player = player._replace(id=joined)
        placed.append(player._replace(seat=seat))
    uow.sessions.reseat({player.id: player.seat for player in placed})
    return placed


def _with_players(
    session: SessionRow, players: list[PlayerRow], *, first_dealer_seat: int | None = None
) -> SessionRow:
    """Return a session as changed: its players in seat order, its first dealer's seat."""
    first = session.first_dealer_seat if first_dealer_seat is None else first_dealer_seat
    return replace(session, players=tuple(players), first_dealer_seat=first)


@write_use_case
def change_end(session_id: int, end: Mapping[str, object]) -> SessionRow:
    """Play the session to another end (a target, a limit, a number of games) between games.

    Refused while a game is open, and when the session would be over at once: the end is
    checked between games only (R7, G7, B3), so it cannot be passed already.
    """
    with unit_of_work() as uow:
        session = _open_session(uow, session_id)
        _refuse_at_an_evening(uow, session_id, "evening_table_end")
        dealt, open_games = uow.sessions.games_dealt(session.id)
        if open_games:
            raise ConflictError("game_still_open")
        chosen = {**variant_of(session).house_rules, "end": dict(end)}
        changed = rules.find_variant(session.variant, chosen)
        totals = {player.id: player.banked for player in session.seated}
        if changed.standing(totals, dealt).over:
            raise ConflictError("end_passed")
        house_rules = json.dumps(changed.house_rules, sort_keys=True)
        uow.sessions.set_house_rules(session.id, house_rules)
        uow.commit(session.id)
    return replace(session, house_rules=house_rules)


def _refuse_at_an_evening(uow: UnitOfWork, session_id: int, reason: str) -> None:
    """Refuse a change a table of an evening cannot make: its series seats and ends it."""
    if evening_table_of(uow, session_id) is not None:
        raise ConflictError(reason)


def _open_session(uow: UnitOfWork, session_id: int) -> SessionRow:
    """Return a session that is still played, with its players, or refuse."""
    session = uow.sessions.get(session_id)
    if session.status == "finished":
        raise ConflictError("session_over")
    return session
