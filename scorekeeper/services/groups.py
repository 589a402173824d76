"""Groups: the people who play together, their keys, their sessions and their statistics.

The reads are a fixed number of statements however many sessions and games a group holds:
each reads one kind of row for the whole group (aggregated in SQL where it can), and the rules
core adds them up (``rules.groups``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.database import READS_ONLY
from scorekeeper.extensions import db
from scorekeeper.keys import Access, SessionKeys, access, new_public_id
from scorekeeper.models import GameSession, Group, MergedName
from scorekeeper.rules.groups import (
    LAST_RESULTS,
    People,
    PlayerFacts,
    RecordedMeld,
    RuleSystemStatistics,
    Seat,
    SessionFacts,
    group_name,
    group_statistics,
    name_key,
)
from scorekeeper.services.errors import NotFoundError, write_use_case
from scorekeeper.services.rows import (
    ENTRIES,
    GAMES,
    PLAYERS,
    SESSIONS,
    SETTLEMENT_LINES,
    TABLE_CARDS,
    forget_never_played,
    rule_system,
)

GROUPS = Group.__table__
MERGED_NAMES = MergedName.__table__


@dataclass(frozen=True)
class NewGroup:
    """A group to start: its name, its keys (only their digests are kept) and its public id."""

    name: str
    keys: SessionKeys
    public_id: str = field(default_factory=new_public_id)


@write_use_case
def create_group(name: str, keys: SessionKeys) -> Group:
    """Start a group of people who play together; only the digests of ``keys`` are kept."""
    group = add_group(NewGroup(name, keys))
    db.session.commit()
    return group


def add_group(new: NewGroup) -> Group:
    """Add a group to the transaction (with its id), for a use case that commits it."""
    name = group_name(new.name)
    _forget_groups_never_played()
    group = Group(
        public_id=new.public_id,
        name=name,
        edit_key_digest=new.keys.edit_digest,
        view_key_digest=new.keys.view_digest,
    )
    db.session.add(group)
    db.session.flush()
    return group


_EMPTY_GROUPS = sa.select(GROUPS.c.id).where(
    GROUPS.c.created_at < sa.bindparam("before"),
    ~sa.exists().where(SESSIONS.c.group_id == GROUPS.c.id),
)
_FORGET_MERGES = sa.delete(MERGED_NAMES).where(MERGED_NAMES.c.group_id.in_(_EMPTY_GROUPS))
_FORGET_GROUPS = sa.delete(GROUPS).where(GROUPS.c.id.in_(_EMPTY_GROUPS))


def _forget_groups_never_played() -> None:
    """Delete the groups older than a day that never got a session, with their merges."""
    forget_never_played(_FORGET_MERGES, _FORGET_GROUPS)


def access_to_group(
    public_id: str, key: str | None, need: Access = Access.VIEW, *, reads_only: bool = False
) -> tuple[Group, Access]:
    """Return the group behind a public id and what the key may do there.

    A missing group and a key that may not do ``need`` are the same NotFoundError. A request
    that only reads (``reads_only``) asks for no write lock, as a session's (``services.access``):
    the statistics it reads next must not keep every table waiting.
    """
    session = db.session()
    if reads_only and not session.in_transaction():
        session.connection(execution_options={READS_ONLY: True})
    group = db.session.scalar(sa.select(Group).where(Group.public_id == public_id))
    granted = Access.NONE
    if group is not None:
        granted = access(key, group.edit_key_digest, group.view_key_digest)
    if group is None or granted < need:
        raise NotFoundError("no_group")
    return group, granted


def groups_opened_by(held: Mapping[str, str]) -> list[tuple[Group, Access]]:
    """Return the groups these keys (group id: key) open and what each key may do, newest first."""
    if not held:
        return []
    groups = db.session.scalars(
        sa.select(Group)
        .where(Group.public_id.in_(list(held)))
        .order_by(Group.created_at.desc(), Group.id.desc())
    )
    opened = [
        (group, access(held[group.public_id], group.edit_key_digest, group.view_key_digest))
        for group in groups
    ]
    return [(group, granted) for group, granted in opened if granted]


def session_through_group(public_id: str, held: Mapping[str, str]) -> GameSession | None:
    """Return a session that a group key held here opens to watch: a session of that group.

    None when the session is in no group, or in one whose key is not held.
    """
    if not held:
        return None
    found = db.session.execute(
        sa.select(GameSession, Group.public_id, Group.edit_key_digest, Group.view_key_digest)
        .join(Group, Group.id == GameSession.group_id)
        .where(GameSession.public_id == public_id)
        .options(so.selectinload(GameSession.players))
    ).one_or_none()
    if found is None:
        return None
    session, group_id, edit_digest, view_digest = found
    key = held.get(group_id)
    if key is None or not access(key, edit_digest, view_digest):
        return None
    return session


@write_use_case
def merge_names(group_id: int, name: str, same_as: str) -> list[MergedName]:
    """Count two names of a group's players as one person ("Anni" is "Anna"); return the merges.

    The rules refuse names nobody of the group played under, names that are one already, and
    two people who sat at the same session.
    """
    # PostgreSQL: merges of one group wait for each other (SQLite's write lock does it there).
    db.session.execute(sa.select(GROUPS.c.id).where(GROUPS.c.id == group_id).with_for_update())
    merges = _merges(group_id)
    seats = [
        Seat(row.public_id, row.name, bool(row.dealt))
        for row in db.session.execute(_SEATS, {"group": group_id})
    ]
    people = People((merge.name, merge.same_as) for merge in merges)
    name, same_as = people.check_merge(name, same_as, seats)
    merged = MergedName(
        group_id=group_id,
        name=name,
        same_as=same_as,
        name_key=name_key(name),
        same_as_key=name_key(same_as),
    )
    db.session.add(merged)
    db.session.commit()
    return [*merges, merged]


def check_players_in_group(group_id: int | None, names: Sequence[str]) -> None:
    """Refuse a session's players of whom two are one person by the group's merges.

    ``names`` are all the session's players, the new or renamed one last. The group's row is
    read for share (PostgreSQL): a merge of the group waits until the session is written.
    """
    if group_id is None:
        return
    db.session.execute(
        sa.select(GROUPS.c.id).where(GROUPS.c.id == group_id).with_for_update(read=True)
    )
    merges = _merges(group_id)
    if merges:
        People((merge.name, merge.same_as) for merge in merges).check_players(names)


def _merges(group_id: int) -> list[MergedName]:
    return list(
        db.session.scalars(
            sa.select(MergedName).where(MergedName.group_id == group_id).order_by(MergedName.id)
        )
    )


# --- reading a group ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupSessions:
    """A group's sessions, newest first, with who is who (its merged names)."""

    group: Group
    sessions: list[SessionFacts]
    merges: list[MergedName]

    @property
    def people(self) -> People:
        """Return who is who in the group, its merges followed."""
        return People((merge.name, merge.same_as) for merge in self.merges)


@dataclass(frozen=True)
class GroupStatistics:
    """A group's sessions and what they add up to per rule system."""

    sessions: GroupSessions
    rule_systems: list[RuleSystemStatistics]


def group_sessions(group: Group) -> GroupSessions:
    """Read a group's sessions with their players and totals, in five statements."""
    connection = db.session.connection()
    values = {"group": group.id}
    games = {row.session_id: row for row in connection.execute(_GAMES_OF_SESSIONS, values)}
    played = {row.player_id: row for row in connection.execute(_GAMES_PLAYED, values)}
    in_play: dict[int, int] = {
        player_id: int(points)
        for player_id, points in connection.execute(_OPEN_GAME_POINTS, values)
    }
    heads: dict[int, Any] = {}
    players: dict[int, list[PlayerFacts]] = {}
    for row in connection.execute(_SESSION_PLAYERS, values):
        heads.setdefault(row.session_id, row)
        mine = played.get(row.player_id)
        players.setdefault(row.session_id, []).append(
            PlayerFacts(
                id=row.player_id,
                name=row.name,
                # As the session's totals: the ended games, and a game in progress so far.
                total=row.banked + in_play.get(row.player_id, 0),
                games=mine.games if mine is not None else 0,
                points=int(mine.points or 0) if mine is not None else 0,
                won=mine.won if mine is not None else 0,
                romme=mine.romme if mine is not None else 0,
                seated=row.left_game is None,
            )
        )
    facts = []
    for session_id, head in heads.items():
        counted = games.get(session_id)
        facts.append(
            SessionFacts(
                public_id=head.public_id,
                variant=rule_system(head.variant, head.house_rules),
                status=head.status,
                created_at=head.created_at,
                players=tuple(players[session_id]),
                games_ended=counted.ended if counted is not None else 0,
                game_in_progress=bool(counted is not None and counted.open),
            )
        )
    return GroupSessions(group, facts, _merges(group.id))


def read_statistics(group: Group, last: int = LAST_RESULTS) -> GroupStatistics:
    """Read a group's statistics per rule system, in seven statements however much was played."""
    read = group_sessions(group)
    melds: dict[int, list[str]] = {}
    chosen: dict[int, Any] = {}
    for row in db.session.execute(_RECORD_MELDS, {"group": group.id}):
        chosen.setdefault(row.id, row)
        melds.setdefault(row.id, []).append(row.card)
    recorded = [
        RecordedMeld(
            player_id=row.player_id,
            kind=row.meld_kind,
            cards=tuple(melds[entry_id]),
            value=row.value,
            session=row.public_id,
            game=row.number,
            order=entry_id,
        )
        for entry_id, row in chosen.items()
    ]
    return GroupStatistics(read, group_statistics(read.sessions, recorded, read.people, last))


# The statements of the reads, built once. Each reads the whole group's rows of one kind.
_IN_GROUP = SESSIONS.c.group_id == sa.bindparam("group")

# The sessions, newest first, each with its players in seat order.
_SESSION_PLAYERS = (
    sa.select(
        SESSIONS.c.id.label("session_id"),
        SESSIONS.c.public_id,
        SESSIONS.c.variant,
        SESSIONS.c.house_rules,
        SESSIONS.c.status,
        SESSIONS.c.created_at,
        PLAYERS.c.id.label("player_id"),
        PLAYERS.c.name,
        PLAYERS.c.banked,
        PLAYERS.c.left_game,
    )
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .where(_IN_GROUP)
    .order_by(SESSIONS.c.created_at.desc(), SESSIONS.c.id.desc(), PLAYERS.c.seat)
)

# Every name that sat at a session of the group, and whether a game was dealt with them.
_SEATS = (
    sa.select(
        SESSIONS.c.public_id,
        PLAYERS.c.name,
        sa.exists()
        .where(GAMES.c.session_id == SESSIONS.c.id, GAMES.c.number >= PLAYERS.c.joined_game)
        .label("dealt"),
    )
    .select_from(SESSIONS.join(PLAYERS, PLAYERS.c.session_id == SESSIONS.c.id))
    .where(_IN_GROUP)
)

# How many games of each session ended, and whether one is in play.
_GAMES_OF_SESSIONS = (
    sa.select(
        GAMES.c.session_id,
        sa.func.count().filter(GAMES.c.status != "open").label("ended"),
        sa.func.count().filter(GAMES.c.status == "open").label("open"),
    )
    .select_from(GAMES.join(SESSIONS, SESSIONS.c.id == GAMES.c.session_id))
    .where(_IN_GROUP)
    .group_by(GAMES.c.session_id)
)

# What each player did in the games that ended: every player of an ended game has a line.
_WON = GAMES.c.winner_id == SETTLEMENT_LINES.c.player_id
_GAMES_PLAYED = (
    sa.select(
        SETTLEMENT_LINES.c.player_id,
        sa.func.count().label("games"),
        sa.func.sum(SETTLEMENT_LINES.c.meld_points + SETTLEMENT_LINES.c.gain).label("points"),
        sa.func.count().filter(_WON).label("won"),
        sa.func.count().filter(sa.and_(_WON, GAMES.c.romme.is_(True))).label("romme"),
    )
    .select_from(
        SETTLEMENT_LINES.join(GAMES, GAMES.c.id == SETTLEMENT_LINES.c.game_id).join(
            SESSIONS, SESSIONS.c.id == GAMES.c.session_id
        )
    )
    .where(_IN_GROUP)
    .group_by(SETTLEMENT_LINES.c.player_id)
)

# The points of the games in play so far, from their entries (as a session's totals count them).
_OPEN_GAME_POINTS = (
    sa.select(ENTRIES.c.player_id, sa.func.sum(ENTRIES.c.value))
    .select_from(
        ENTRIES.join(GAMES, GAMES.c.id == ENTRIES.c.game_id).join(
            SESSIONS, SESSIONS.c.id == GAMES.c.session_id
        )
    )
    .where(_IN_GROUP, GAMES.c.status == "open")
    .group_by(ENTRIES.c.player_id)
)

# Each player's best meld and longest sequence, with their cards: the melds ranked per player
# in SQL as rules.groups ranks them (best_meld_order, longest_sequence_order), so that only the
# chosen ones are read; the rules pick the best of a person's players.
_CARDS = sa.func.count(TABLE_CARDS.c.id)
_RANKED = (
    sa.select(
        ENTRIES.c.id,
        ENTRIES.c.player_id,
        ENTRIES.c.meld_kind,
        ENTRIES.c.value,
        GAMES.c.number,
        SESSIONS.c.public_id,
        sa.func.row_number()
        .over(
            partition_by=ENTRIES.c.player_id,
            order_by=(ENTRIES.c.value.desc(), _CARDS.desc(), ENTRIES.c.id),
        )
        .label("best"),
        sa.func.row_number()
        .over(
            partition_by=(ENTRIES.c.player_id, ENTRIES.c.meld_kind),
            order_by=(_CARDS.desc(), ENTRIES.c.value.desc(), ENTRIES.c.id),
        )
        .label("longest"),
    )
    .select_from(
        ENTRIES.join(TABLE_CARDS, TABLE_CARDS.c.entry_id == ENTRIES.c.id)
        .join(GAMES, GAMES.c.id == ENTRIES.c.game_id)
        .join(SESSIONS, SESSIONS.c.id == GAMES.c.session_id)
    )
    .where(_IN_GROUP, ENTRIES.c.kind == "meld")
    .group_by(
        ENTRIES.c.id,
        ENTRIES.c.player_id,
        ENTRIES.c.meld_kind,
        ENTRIES.c.value,
        GAMES.c.number,
        SESSIONS.c.public_id,
    )
    .subquery()
)
_RECORD_MELDS = (
    sa.select(
        _RANKED.c.id,
        _RANKED.c.player_id,
        _RANKED.c.meld_kind,
        _RANKED.c.value,
        _RANKED.c.number,
        _RANKED.c.public_id,
        TABLE_CARDS.c.card,
    )
    .select_from(_RANKED.join(TABLE_CARDS, TABLE_CARDS.c.entry_id == _RANKED.c.id))
    .where(
        sa.or_(
            _RANKED.c.best == 1,
            sa.and_(_RANKED.c.longest == 1, _RANKED.c.meld_kind == "sequence"),
        )
    )
    .order_by(_RANKED.c.id, TABLE_CARDS.c.position)
)
