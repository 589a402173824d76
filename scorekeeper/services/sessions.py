"""Use cases of a session: seat the players with their house rules, deal the next game."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper import rules
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys
from scorekeeper.models import Game, GameSession, Player, utcnow
from scorekeeper.services.errors import (
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    write_use_case,
)
from scorekeeper.services.groups import NewGroup, add_group, check_players_in_group
from scorekeeper.services.reads import get_session
from scorekeeper.services.rows import (
    GAMES,
    GAMES_OF,
    LARGEST_ID,
    PLAYERS,
    SESSIONS,
    GameState,
    GameSummary,
    commit,
    dealer_of,
    forget_never_played,
    insert_row,
    player_row,
    rule_system,
    variant_of,
)

# The largest target: the house rule "end" allows no more (a 32-bit number, as an import takes it).
_LARGEST_TARGET = 2**31 - 1


# The statements of the writes, built once: building one costs more than running it.
_INSERT_GAME = sa.insert(GAMES)


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
) -> GameSession:
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
    if not isinstance(group, NewGroup):  # a new group has merged no names
        check_players_in_group(group, seated)
    if first_dealer is None:
        first_dealer = random.randrange(len(seated))
    keys = keys or SessionKeys.new()
    _forget_sessions_never_played()
    if isinstance(group, NewGroup):
        group = add_group(group).id
    session = GameSession(
        group_id=group,
        variant=rule_system.name,
        house_rules=json.dumps(rule_system.house_rules, sort_keys=True),
        first_dealer_seat=first_dealer,
        status="open",
        edit_key_digest=keys.edit_digest,
        view_key_digest=keys.view_digest,
    )
    session.players = [Player(seat=seat, name=name) for seat, name in enumerate(seated)]
    db.session.add(session)
    if start_first_game:
        db.session.flush()
        seat = rule_system.dealer_seat(first_dealer, None, len(seated))
        # Set the ids: appending to session.games would load that (empty) list first.
        db.session.add(
            Game(
                session_id=session.id,
                number=1,
                dealer_id=session.players[seat].id,
                status="open",
            )
        )
    db.session.commit()
    return session


_NEVER_PLAYED = sa.select(SESSIONS.c.id).where(
    SESSIONS.c.created_at < sa.bindparam("before"),
    ~sa.exists().where(GAMES.c.session_id == SESSIONS.c.id),
)
_FORGET_PLAYERS = sa.delete(PLAYERS).where(PLAYERS.c.session_id.in_(_NEVER_PLAYED))
_FORGET_SESSIONS = sa.delete(SESSIONS).where(SESSIONS.c.id.in_(_NEVER_PLAYED))


def _forget_sessions_never_played() -> None:
    """Delete the sessions older than a day that never got a game, with their players."""
    forget_never_played(_FORGET_PLAYERS, _FORGET_SESSIONS)


@write_use_case
def start_game(session_id: int) -> GameState:
    """Start the next game of a session, dealt by whom the rule system says."""
    if not 0 < session_id <= LARGEST_ID:
        raise NotFoundError("no_session")
    connection = db.session.connection()
    rows = connection.execute(_SESSION_ROWS, {"session_id": session_id}).all()
    if not rows:
        raise NotFoundError("no_session")
    session = rows[0]
    variant = rule_system(session.variant, session.house_rules)
    everyone = [player_row(row) for row in rows]
    if session.status == "finished":
        raise ConflictError("session_over")
    row = connection.execute(_LAST_GAME, {"session": session_id}).one_or_none()
    last = GameSummary(**row._mapping) if row is not None else None
    if last is not None and last.status == "open":
        raise ConflictError("game_still_open")
    number = last.number + 1 if last is not None else 1
    # The players at the table now are dealt in: seating changes come between games.
    players = [player for player in everyone if player.plays_in(number)]
    # The dealer among them (dealer_of seats the game after ``last``, this one): so it is where
    # a change of the seating counts from a later game (a database from before reopens were
    # refused behind such a change).
    dealer = dealer_of(variant, session.first_dealer_seat, everyone, last)
    game = {
        "session_id": session_id,
        "number": number,
        "dealer_id": dealer,
        "status": "open",
        "started_at": utcnow(),
    }
    game_id = insert_row(connection, _INSERT_GAME, game)
    commit(session_id)
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


_SESSION_ROWS = (
    sa.select(
        SESSIONS.c.variant,
        SESSIONS.c.status,
        SESSIONS.c.first_dealer_seat,
        SESSIONS.c.public_id,
        SESSIONS.c.house_rules,
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.seat,
        PLAYERS.c.name,
        PLAYERS.c.banked,
        PLAYERS.c.joined_game,
        PLAYERS.c.left_game,
    )
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .where(SESSIONS.c.id == sa.bindparam("session_id"))
    .order_by(PLAYERS.c.seat)
    # PostgreSQL: a start waits for a reopening of the session's last game (reopen_game).
    .with_for_update(of=SESSIONS)
)


# The latest game of a session, which says who deals the next.
_LAST_GAME = GAMES_OF.order_by(None).order_by(GAMES.c.number.desc()).limit(1)


@write_use_case
def rename_player(session_id: int, player_id: int, name: str) -> GameSession:
    """Give a player of an open session another name, checked as at the start."""
    session = _open_session(session_id)
    player = next((player for player in session.players if player.id == player_id), None)
    if player is None:
        raise InvalidRequestError("no_such_player")
    # Unique among everyone of the session: the names of those who left stay on their points.
    names = [name if other is player else other.name for other in session.players]
    renamed = rules.check_names(names)[session.players.index(player)]
    others = [other.name for other in session.players if other is not player]
    check_players_in_group(session.group_id, [*others, renamed])
    player.name = renamed
    commit(session.id)
    return session


@write_use_case
def seat_player(
    session_id: int, name: str, seat: int | None = None, *, after: int | None = None
) -> GameSession:
    """Seat a new player between games, at ``seat`` in the seating (0 first; the end if None).

    ``after`` places them after the seated player with that id instead (0: first), found in
    the seating as it is once the session is locked: they sit there even when another phone
    changed the seating just before. They are dealt in from the next game; the games before
    keep their players.
    """
    session = _session_between_games(session_id)
    coming = _next_game_number(session)
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
        session.group_id, [*(player.name for player in session.players), names[at]]
    )
    joining = Player(session_id=session.id, name=names[at], joined_game=coming, banked=0, seat=-1)
    # In the order of everyone: just before whoever sits at that seat now, or after everyone.
    order = list(session.players)
    order.insert(order.index(seated[at]) if at < len(seated) else len(order), joining)
    _refuse_a_winner_at_once(session, [*seated[:at], joining, *seated[at:]], coming)
    session.first_dealer_seat = rules.first_dealer_after_joining(
        session.first_dealer_seat, at, coming
    )
    db.session.add(joining)
    _seat_in_order(order)
    commit(session.id)
    return session


@write_use_case
def unseat_player(session_id: int, player_id: int) -> GameSession:
    """Let a player leave the table between games; their points stay in the totals.

    They are not dealt in from the next game on, and they no longer win the session; the games
    they played keep them. A player who joined and played no game yet goes without a trace.
    """
    session = _session_between_games(session_id)
    player = next((player for player in session.players if player.id == player_id), None)
    if player is None:
        raise NotFoundError("no_such_player")
    if not player.seated:
        raise ConflictError("left_already", name=player.name)
    coming = _next_game_number(session)
    seated = session.seated
    at = seated.index(player)
    rules.leave_seating([other.name for other in seated], at, variant_of(session))
    staying = [other for other in seated if other is not player]
    _refuse_a_winner_at_once(session, staying, coming)
    session.first_dealer_seat = rules.first_dealer_after_leaving(
        session.first_dealer_seat, at, coming, len(staying)
    )
    if player.joined_game == coming:
        db.session.delete(player)
        _seat_in_order([other for other in session.players if other is not player])
    else:
        player.left_game = coming
    commit(session.id)
    return session


def _session_between_games(session_id: int) -> GameSession:
    """Return a session still played, read after its row is locked, with no game open.

    The lock makes a start of the next game, and another change of the seating, wait.
    """
    if not 0 < session_id <= LARGEST_ID:
        raise NotFoundError("no_session")
    connection = db.session.connection()
    if connection.execute(_LOCK_SESSION, {"session": session_id}).one_or_none() is None:
        raise NotFoundError("no_session")
    # Read again after the lock: the key check may have read the session before it.
    session: GameSession | None = db.session.scalar(
        sa.select(GameSession)
        .where(GameSession.id == session_id)
        .options(so.selectinload(GameSession.players))
        .execution_options(populate_existing=True)
    )
    assert session is not None
    if session.status == "finished":
        raise ConflictError("session_over")
    if connection.execute(_GAMES_DEALT, {"session": session_id}).one()[1]:
        raise ConflictError("game_still_open")
    return session


def _next_game_number(session: GameSession) -> int:
    """Return the number of the game the session deals next."""
    last = db.session.connection().execute(_LAST_GAME, {"session": session.id}).one_or_none()
    return last.number + 1 if last is not None else 1


def _refuse_a_winner_at_once(session: GameSession, seated: list[Player], coming: int) -> None:
    """Refuse a seating under which the session would be won at once, before another game.

    Only a tie at the top keeps a session going past its end: a new seating must not decide it.
    """
    # By place at the table: a player joining has no id yet.
    totals = {at: player.banked for at, player in enumerate(seated)}
    winner = variant_of(session).standing(totals, coming - 1).winner
    if winner is not None:
        raise ConflictError("seating_decides", name=seated[winner].name)


def _seat_in_order(players: list[Player]) -> None:
    """Number the seats of everyone of a session in this order, from 0.

    Through negative numbers first, so that no two players share a seat on the way (the
    database checks each row as it is written).
    """
    for seat, player in enumerate(players):
        player.seat = -1 - seat
    db.session.flush()
    for seat, player in enumerate(players):
        player.seat = seat
    db.session.flush()


@write_use_case
def change_end(session_id: int, end: Mapping[str, object]) -> GameSession:
    """Play the session to another end (a target, a limit, a number of games) between games.

    Refused while a game is open, and when the session would be over at once: the end is
    checked between games only (R7, G7, B3), so it cannot be passed already.
    """
    session = _open_session(session_id)
    connection = db.session.connection()
    dealt, open_games = connection.execute(_GAMES_DEALT, {"session": session.id}).one()
    if open_games:
        raise ConflictError("game_still_open")
    chosen = {**variant_of(session).house_rules, "end": dict(end)}
    changed = rules.find_variant(session.variant, chosen)
    totals = {player.id: player.banked for player in session.seated}
    if changed.standing(totals, dealt).over:
        raise ConflictError("end_passed")
    session.house_rules = json.dumps(changed.house_rules, sort_keys=True)
    commit(session.id)
    return session


def _open_session(session_id: int) -> GameSession:
    """Return a session that is still played, with its players, or refuse."""
    session = get_session(session_id)
    if session.status == "finished":
        raise ConflictError("session_over")
    return session


_LOCK_SESSION = (
    sa.select(SESSIONS.c.id).where(SESSIONS.c.id == sa.bindparam("session")).with_for_update()
)


# How many games a session dealt, and how many of them are open (one read, however many).
_GAMES_DEALT = sa.select(sa.func.count(), sa.func.count().filter(GAMES.c.status == "open")).where(
    GAMES.c.session_id == sa.bindparam("session")
)
