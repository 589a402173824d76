"""How a session ends: at a target, at a limit of minus points, or after a number of games.

A rule system's house rule ``end`` is ``{key: number}`` for one of the ends it allows. Each end
here knows its key, the numbers it allows, when it is reached, and its words: how a form offers
it and names its number, how the rules of a session say it, what the score sheet's foot and its
distance to go say. Forms, pages and the API ask the end instead of naming its key.

>>> TARGET.of(1000), ENDS["limit"].reached(-500, {"Ann": -510, "Bob": 0}, 3)
({'target': 1000}, True)
>>> GAMES.said(5).render("de"), LIMIT.said(-500).render("en")
('5 Spiele', 'until a total reaches -500')
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, ClassVar, TypeVar

from scorekeeper.rules.messages import Message, Wording, wording

if TYPE_CHECKING:
    from scorekeeper.rules.variants.base import Variant

P = TypeVar("P", bound=Hashable)

# Points are stored in 32-bit INTEGER columns on PostgreSQL.
LARGEST_NUMBER = 2**31 - 1
# A session to a fixed number of games: more than a table plays in a year of evenings.
MOST_GAMES = 1000


class End:
    """One way a session can end; an instance for each (``TARGET``, ``LIMIT``, ``GAMES``)."""

    key: ClassVar[str]
    # The numbers the rules allow for it.
    bounds: ClassVar[tuple[int, int]]
    # How a form offers it, and names the field of its number.
    offered: ClassVar[Wording]
    number_label: ClassVar[Wording]
    # What a form says when a rule system does not end this way (``%(variant)s``).
    not_played: ClassVar[Wording]
    # What a form says when the number is left out; None: the rule system's usual number.
    number_missing: ClassVar[Wording | None] = None

    def of(self, number: int) -> dict[str, int]:
        """Return the house rule ``end`` for this end with its number."""
        return {self.key: number}

    def usual(self, variant: type[Variant]) -> int | None:
        """Return a rule system's usual number for this end; None where the table gives it."""
        return None

    def reached(self, number: int, totals: Mapping[P, int], games_ended: int) -> bool:
        """Tell whether the session's end is reached (checked between games)."""
        raise NotImplementedError

    def said(self, number: int) -> Message:
        """Say the end in the rules of a session, e.g. ``to 500 points``."""
        raise NotImplementedError

    def said_short(self, number: int) -> Message:
        """Say the end as the list of a phone's sessions does, e.g. ``to 500``."""
        raise NotImplementedError

    def foot(self, number: int, games_ended: int) -> Message:
        """Say the end at the foot of the score sheet, e.g. ``Target: 500``."""
        raise NotImplementedError

    def heading(self, number: int) -> Message:
        """Say the session with its end, as the session's page is headed."""
        raise NotImplementedError

    def to_go(self, number: int) -> Message:
        """Say what a player's distance to the end is, the heading of the sheet's last row."""
        return Message("sheet.to_target")

    def __repr__(self) -> str:
        return f"ENDS[{self.key!r}]"


class _Target(End):
    """The session ends when the highest total reaches the target (R7)."""

    key = "target"
    bounds = (1, LARGEST_NUMBER)
    offered = wording("at a target")
    number_label = wording("Target (points)")
    not_played = wording(
        "%(variant)s is not played to a target: choose a limit or a number of games."
    )

    def usual(self, variant: type[Variant]) -> int | None:
        """Return the rule system's usual target."""
        return variant.default_target

    def reached(self, number: int, totals: Mapping[P, int], games_ended: int) -> bool:
        """Tell whether a total is at or above the target."""
        return bool(totals) and max(totals.values()) >= number

    def said(self, number: int) -> Message:
        """Say the target: ``to 500 points``."""
        return Message("end.target", {"target": number})

    def said_short(self, number: int) -> Message:
        """Say the target shortly: ``to 500``."""
        return Message("end.target_short", {"target": number})

    def foot(self, number: int, games_ended: int) -> Message:
        """Say the target at the sheet's foot: ``Target: 500``."""
        return Message("sheet.end_target", {"number": number})

    def heading(self, number: int) -> Message:
        """Head the session's page: ``Session to 500 points``."""
        return Message("end.target_heading", {"target": number})


class _Limit(End):
    """The session ends when a total falls to the limit of minus points (G7)."""

    key = "limit"
    bounds = (-LARGEST_NUMBER, -1)
    offered = wording("at a limit of minus points")
    number_label = wording("Limit (minus points)")
    not_played = wording(
        "%(variant)s has no limit of minus points: choose a target or a number of games."
    )

    def usual(self, variant: type[Variant]) -> int | None:
        """Return the rule system's usual limit."""
        return variant.default_limit

    def reached(self, number: int, totals: Mapping[P, int], games_ended: int) -> bool:
        """Tell whether a total is at or below the limit."""
        return bool(totals) and min(totals.values()) <= number

    def said(self, number: int) -> Message:
        """Say the limit: ``until a total reaches -500``."""
        return Message("end.limit", {"limit": number})

    def said_short(self, number: int) -> Message:
        """Say the limit as the list of sessions does: as in the rules."""
        return self.said(number)

    def foot(self, number: int, games_ended: int) -> Message:
        """Say the limit at the sheet's foot: ``Limit: -500``."""
        return Message("sheet.end_limit", {"number": number})

    def heading(self, number: int) -> Message:
        """Head the session's page: ``Session until a total reaches -500``."""
        return Message("end.limit_heading", {"limit": number})

    def to_go(self, number: int) -> Message:
        """Say the distance to the limit: ``To -500``."""
        return Message("sheet.to_limit", {"number": number})


class _Games(End):
    """The session ends after a number of games."""

    key = "games"
    bounds = (1, MOST_GAMES)
    offered = wording("after a number of games")
    number_label = wording("Number of games")
    not_played = wording(
        "%(variant)s is not played to a number of games: choose a target or a limit."
    )
    number_missing = wording("Enter the number of games, e.g. 5.")

    def reached(self, number: int, totals: Mapping[P, int], games_ended: int) -> bool:
        """Tell whether the number of games has been played."""
        return games_ended >= number

    def said(self, number: int) -> Message:
        """Say the number of games: ``5 games``."""
        return Message("house.games", {"count": number, "num": number})

    def said_short(self, number: int) -> Message:
        """Say a session of a number of games as the list of sessions does."""
        return Message("end.games_short")

    def foot(self, number: int, games_ended: int) -> Message:
        """Say the games and the games left at the sheet's foot: ``5 games, 1 left``."""
        return Message("sheet.end_games", {"count": number, "left": max(0, number - games_ended)})

    def heading(self, number: int) -> Message:
        """Head the session's page: ``Session of 5 games``."""
        return Message("end.games_heading", {"games": number})


TARGET: End = _Target()
LIMIT: End = _Limit()
GAMES: End = _Games()
# Every way a session can end, by key, in the order a form offers them.
ENDS: dict[str, End] = {end.key: end for end in (TARGET, LIMIT, GAMES)}
