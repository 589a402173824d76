"""A group's sessions and their statistics, as its page and the API show them.

The reads are a fixed number of statements however many sessions and games a group holds:
each reads one kind of row for the whole group (aggregated in SQL where it can), and the rules
core adds them up (``rules.groups``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.groups import (
    LAST_RESULTS,
    People,
    PlayerFacts,
    RecordedMeld,
    RuleSystemStatistics,
    SessionFacts,
    group_statistics,
)
from scorekeeper.store import GroupRow, MergeRow, rule_system, unit_of_work


@dataclass(frozen=True)
class GroupSessions:
    """A group's sessions, newest first, with who is who (its merged names)."""

    group: GroupRow
    sessions: list[SessionFacts]
    merges: list[MergeRow]

    @property
    def people(self) -> People:
        """Return who is who in the group, its merges followed."""
        return People((merge.name, merge.same_as) for merge in self.merges)


@dataclass(frozen=True)
class GroupStatistics:
    """A group's sessions and what they add up to per rule system."""

    sessions: GroupSessions
    rule_systems: list[RuleSystemStatistics]


def group_sessions(group: GroupRow) -> GroupSessions:
    """Read a group's sessions with their players and totals, in five statements."""
    reads = unit_of_work().reads
    games = reads.group_games(group.id)
    played = reads.games_played(group.id)
    in_play = reads.in_play(group.id)
    heads: dict[int, Any] = {}
    players: dict[int, list[PlayerFacts]] = {}
    for row in reads.group_players(group.id):
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
    return GroupSessions(group, facts, unit_of_work().groups.merges(group.id))


def read_statistics(group: GroupRow, last: int = LAST_RESULTS) -> GroupStatistics:
    """Read a group's statistics per rule system, in seven statements however much was played."""
    read = group_sessions(group)
    melds: dict[int, list[str]] = {}
    chosen: dict[int, Any] = {}
    for row in unit_of_work().reads.record_melds(group.id):
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
