"""The end of a game and of a session, decided by the rule system's methods.

These functions are the shapes the rest of the code calls; each asks the rule system.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from scorekeeper.rules.cards import Card
from scorekeeper.rules.errors import SettlementError
from scorekeeper.rules.variants import TREPPENROMME, Variant, base
from scorekeeper.rules.variants.base import GameSettlement, P, SessionStanding

__all__ = [
    "GameSettlement",
    "SessionStanding",
    "hand_points_range",
    "hand_value",
    "refuse_repeated_cards",
    "repeated_cards",
    "romme_hand_possible",
    "session_standing",
    "settle_game",
]


def hand_value(cards: Iterable[Card], variant: Variant = TREPPENROMME) -> int:
    """Return what the cards left in a hand are worth (an ace 15 in Treppenrommé).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> hand_value(parse_cards("A♠ 7♥ K♣"))
    32
    """
    return sum(variant.hand_value(card) for card in cards)


def hand_points_range(variant: Variant = TREPPENROMME) -> tuple[int, int]:
    """Return the least and the most that the cards left in one hand can be worth.

    >>> hand_points_range()
    (2, 396)
    """
    return variant.hand_points_range()


def repeated_cards(groups: Iterable[Iterable[Card]], variant: Variant = TREPPENROMME) -> list[Card]:
    """Name every card that appears more often than the rule system's packs hold.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> repeated_cards([parse_cards("6♠ 6♥ 6♦"), parse_cards("5♠ 6♠ 7♠")])
    [Card.from_code('6♠')]
    """
    return base.repeated_cards(groups, variant.packs)


def refuse_repeated_cards(
    groups: Iterable[Iterable[Card]], variant: Variant = TREPPENROMME
) -> None:
    """Raise if any card appears more often than the rule system's packs hold."""
    base.refuse_repeated_cards(groups, variant.packs)


def romme_hand_possible(entry_players: Sequence[P], winner: P) -> bool:
    """Tell whether every entry of the winner comes after every other player's entries (R4).

    >>> romme_hand_possible(["Ann", "Bob", "Ann"], "Ann")
    False
    """
    return TREPPENROMME.romme_possible(entry_players, winner)


def settle_game(
    players: Sequence[P],
    winner: P | None,
    hands: Mapping[P, Sequence[Card] | int],
    *,
    romme: bool = False,
    never_melded: Iterable[P] = (),
    variant: Variant = TREPPENROMME,
) -> GameSettlement[P]:
    """Settle the cards left in the losers' hands by the rule system; ``winner=None`` abandons.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    >>> settle_game(["Ann", "Bob", "Cid"], "Ann", hands, romme=True).gains
    {'Ann': 64, 'Bob': 0, 'Cid': 0}
    """
    return variant.settle(players, winner, hands, romme=romme, never_melded=never_melded)


def session_standing(
    totals: Mapping[P, int], target: int, *, game_in_progress: bool = False
) -> SessionStanding[P]:
    """Decide a session played to a target by R7: checked between games; a tie plays on.

    >>> session_standing({"Ann": 510, "Bob": 530}, 500).winner
    'Bob'
    >>> session_standing({"Ann": 530, "Bob": 530}, 500).winner is None
    True
    """
    if target < 1:
        raise SettlementError("settlement.target")
    variant = TREPPENROMME.with_end({"target": target})
    return variant.standing(totals, 0, game_in_progress=game_in_progress)
