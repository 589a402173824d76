"""What a rule system answers about a game's end and a session's standing: frozen values."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from scorekeeper.rules.cards import Card
from scorekeeper.rules.messages import Message

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class GameSettlement(Generic[P]):
    """What the end of a game books: each hand's value and each player's gain.

    ``hand_points`` is what a loser's hand counts before any doubling; ``factors`` the
    doubling. Where only unmatched cards are paid for (Boathouse Rum), ``unmatched`` and
    ``matched`` say which cards of a hand given as cards were paid for and which were matched.
    """

    winner: P | None
    romme: bool
    hand_points: dict[P, int]
    gains: dict[P, int]
    factors: dict[P, int]
    romme_possible: bool = False
    # Why the entries allow a Rommé hand or not, to show the recorder who decides.
    romme_why: Message | None = None
    paid: dict[P, int] = field(default_factory=dict)
    unmatched: dict[P, tuple[Card, ...]] = field(default_factory=dict)
    matched: dict[P, tuple[tuple[Card, ...], ...]] = field(default_factory=dict)

    @property
    def abandoned(self) -> bool:
        """Tell whether the game was abandoned (R6): nobody went out and no hand was counted."""
        return self.winner is None and not self.hand_points


@dataclass(frozen=True)
class SessionStanding(Generic[P]):
    """The totals of a session against how it ends, and its winner once there is one.

    ``target`` is the total to reach, ``limit`` the total that ends the session when a player
    falls to it, ``games`` the number of games it lasts; one of them is set.
    """

    totals: dict[P, int]
    target: int | None
    winner: P | None
    leaders: tuple[P, ...]
    limit: int | None = None
    games: int | None = None
    games_ended: int = 0
    over: bool = False

    @property
    def tie_at_top(self) -> bool:
        """Tell whether the session would be over but for a tie at the top."""
        return self.over and self.winner is None and len(self.leaders) > 1

    @property
    def games_left(self) -> int | None:
        """Return how many games are left in a session of a fixed number of games."""
        if self.games is None:
            return None
        return max(0, self.games - self.games_ended)

    def to_go(self, player: P) -> int | None:
        """Return a player's distance to the target, or to the limit; None for a game count."""
        if self.target is not None:
            return max(0, self.target - self.totals[player])
        if self.limit is not None:
            return max(0, self.totals[player] - self.limit)
        return None
