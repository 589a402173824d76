"""What an ended game books onto a session's totals, whether that ends the session, and back.

>>> from scorekeeper.rules.variants import find_variant
>>> booking = book_game(
...     find_variant(), 3, {"Ann": 480, "Bob": 300}, {"Ann": 30, "Bob": 12}, {"Ann": 20, "Bob": 0}
... )
>>> booking.booked, booking.totals, booking.session_won
({'Ann': 50, 'Bob': 12}, {'Ann': 530, 'Bob': 312}, True)
>>> take_back({"Ann": 530, "Bob": 312}, booking.booked)
{'Ann': 480, 'Bob': 300}
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.rules.variants import SessionStanding, Variant

__all__ = ["Booking", "book_game", "booked_points", "take_back"]

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class Booking(Generic[P]):
    """An ended game booked: what it booked for each of its players, the totals after, and
    how the session stands among the players at the table now."""

    booked: dict[P, int]
    totals: dict[P, int]
    standing: SessionStanding[P]

    @property
    def session_won(self) -> bool:
        """Tell whether the game ends the session: it has its winner (a tie plays on)."""
        return self.standing.winner is not None


def book_game(
    variant: Variant,
    number: int,
    totals: Mapping[P, int],
    meld_points: Mapping[P, int],
    gains: Mapping[P, int],
    seated: Collection[P] | None = None,
) -> Booking[P]:
    """Book the game of this number, and decide the session between games (R7, G7, B3).

    ``totals`` are everyone's banked points before, those not dealt in the game included;
    ``meld_points`` and ``gains`` what the game's players melded and what the settlement
    gives them. The session is decided among the players ``seated`` at the table now
    (everyone when None): a reopened game played before the seating changed has its own
    players, who may have left since.
    """
    booked = booked_points(meld_points, gains)
    after = {player: total + booked.get(player, 0) for player, total in totals.items()}
    at_table = {
        player: total for player, total in after.items() if seated is None or player in seated
    }
    return Booking(booked, after, variant.standing(at_table, number))


def booked_points(meld_points: Mapping[P, int], gains: Mapping[P, int]) -> dict[P, int]:
    """Return what a game books for each of its players: their melds and layoffs, and the
    settlement's gain (F2: 500 Rum's table minus hand).

    >>> booked_points({"Ann": 35, "Ulf": 10}, {"Ann": 0, "Ulf": -22})
    {'Ann': 35, 'Ulf': -12}
    """
    return {player: meld_points[player] + gains[player] for player in meld_points}


def take_back(totals: Mapping[P, int], booked: Mapping[P, int]) -> dict[P, int]:
    """Return the totals without what a reopened game had booked."""
    return {player: total - booked.get(player, 0) for player, total in totals.items()}
