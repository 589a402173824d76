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

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.rules.cards import Piece
from scorekeeper.rules.errors import SettlementError
from scorekeeper.rules.messages import Message
from scorekeeper.rules.settlement import GameSettlement
from scorekeeper.rules.variants import SessionStanding, Variant

__all__ = [
    "RULINGS_SINCE",
    "Booking",
    "Rebooked",
    "book_game",
    "booked_points",
    "ruling_since",
    "settle_again",
    "take_back",
]

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


# The refusals of rulings made since a booking that the rules then allowed, by which a booked
# game is worth something else today. Only one changed what games are worth since the first
# export (version 2): a Rommé hand puts down at least the cards dealt (before, the order of
# the entries alone said it); meld, layoff and hand values never changed.
RULINGS_SINCE = frozenset(
    {"settlement.romme_too_few_cards", "settlement.romme_too_few_cards_first_turn"}
)


def ruling_since(message_id: str, **params: object) -> Message:
    """Return the words of a ruling made since (``RULINGS_SINCE``), e.g. kept in a trail's line.

    >>> ruling_since("settlement.romme_too_few_cards", name="Ann", count=3, dealt=7).render()
    "Ann put down 3 cards after the other players' entries; a Rommé hand puts down at least \
the 7 cards dealt, so this is no Rommé hand."
    """
    if message_id == "settlement.romme_too_few_cards":
        return Message("settlement.romme_too_few_cards", params)
    if message_id == "settlement.romme_too_few_cards_first_turn":
        return Message("settlement.romme_too_few_cards_first_turn", params)
    raise ValueError(f"{message_id!r} is no ruling made since")


@dataclass(frozen=True)
class Rebooked(Generic[P]):
    """A booked game settled again: by today's rules, and as it was booked if a ruling since
    changed it (``earlier``, with ``ruling`` saying why today's rules settle it otherwise)."""

    settlement: GameSettlement[P]
    earlier: GameSettlement[P] | None = None
    ruling: Message | None = None


def settle_again(
    variant: Variant,
    names: Mapping[P, str],
    winner: P | None,
    hands: Mapping[P, Sequence[Piece] | int],
    romme: bool | None,
    *,
    entry_players: Sequence[P],
    entry_cards: Sequence[int],
    on_table: Iterable[Piece] = (),
    dealer: P | None = None,
) -> Rebooked[P]:
    """Settle a booked game again by today's rules, e.g. one that an import brings in.

    ``romme`` is what was booked. Where only a ruling made since refuses it (``RULINGS_SINCE``),
    ``earlier`` is the settlement the rules gave before that ruling and ``settlement`` today's;
    any other refusal is raised.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> names, hands = {1: "Ann", 2: "Bob"}, {2: parse_cards("K♠ Q♠")}
    >>> again = settle_again(
    ...     Variant(), names, 1, hands, True, entry_players=[2, 1], entry_cards=[3, 3]
    ... )
    >>> again.earlier.gains, again.settlement.gains, again.ruling.params["count"]
    ({1: 40, 2: 0}, {1: 20, 2: 0}, 3)
    """
    table = tuple(on_table)

    def settle(cards: Sequence[int] | None, doubled: bool | None) -> GameSettlement[P]:
        return variant.finish(
            names,
            winner,
            hands,
            entry_players=entry_players,
            entry_cards=cards,
            on_table=table,
            romme=doubled,
            dealer=dealer,
        )

    try:
        return Rebooked(settle(entry_cards, romme))
    except SettlementError as error:
        if not romme or error.message_id not in RULINGS_SINCE:
            raise
        ruling = error.as_message
    # Before the ruling the order of the entries alone decided: the cards were not counted.
    return Rebooked(settle(entry_cards, None), settle(None, True), ruling)
