"""The end of a game and of a session: hand values, settlement (R4-R6) and the target (R7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.rules.cards import Card, Rank, Suit
from scorekeeper.rules.errors import CardAlreadyPlayedError, SettlementError
from scorekeeper.rules.variants import TREPPENROMME, RommeDoubling, Settlement, Variant

P = TypeVar("P", bound=Hashable)


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
    pack = [Card(suit=suit, rank=rank) for suit in Suit for rank in Rank] * variant.packs
    values = [variant.hand_value(card) for card in pack]
    return min(values), sum(values) + variant.jokers * variant.joker_in_hand


def repeated_cards(groups: Iterable[Iterable[Card]], variant: Variant = TREPPENROMME) -> list[Card]:
    """Name every card that appears more often than the packs hold, across all groups.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> repeated_cards([parse_cards("6♠ 6♥ 6♦"), parse_cards("5♠ 6♠ 7♠")])
    [Card.from_code('6♠')]
    """
    counts = Counter(card for group in groups for card in group)
    return sorted(card for card, count in counts.items() if count > variant.packs)


def refuse_repeated_cards(
    groups: Iterable[Iterable[Card]], variant: Variant = TREPPENROMME
) -> None:
    """Raise if any card appears more often than the packs hold."""
    repeated = repeated_cards(groups, variant)
    if repeated:
        raise CardAlreadyPlayedError(
            "cards.entered_twice" if variant.packs == 1 else "cards.more_than_packs",
            cards=repeated,
            count=len(repeated),
        )


def romme_hand_possible(entry_players: Sequence[P], winner: P) -> bool:
    """Tell whether every entry of the winner comes after every other player's entries.

    The scorekeeper records entries, not turns; an entry of another player after one of the
    winner's proves the winner put cards down in an earlier turn (R4).

    >>> romme_hand_possible(["Ann", "Bob", "Ann"], "Ann")
    False
    >>> romme_hand_possible(["Bob", "Cid", "Ann", "Ann"], "Ann")
    True
    """
    first_of_winner = next(
        (index for index, player in enumerate(entry_players) if player == winner), None
    )
    if first_of_winner is None:
        return False
    return all(player == winner for player in entry_players[first_of_winner:])


@dataclass(frozen=True)
class GameSettlement(Generic[P]):
    """What the end of a game books: each hand's value and each player's gain."""

    winner: P | None
    romme: bool
    hand_points: dict[P, int]
    gains: dict[P, int]
    factors: dict[P, int]


def settle_game(
    players: Sequence[P],
    winner: P | None,
    hands: Mapping[P, Sequence[Card] | int],
    *,
    romme: bool = False,
    never_melded: Iterable[P] = (),
    variant: Variant = TREPPENROMME,
) -> GameSettlement[P]:
    """Settle the cards left in the losers' hands; ``winner=None`` abandons the game (R6).

    A hand is its cards, or the points the table counted for it (a whole number).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> hands = {"Bob": parse_cards("A♠ 7♥"), "Cid": parse_cards("K♣")}
    >>> settle_game(["Ann", "Bob", "Cid"], "Ann", hands, romme=True).gains
    {'Ann': 64, 'Bob': 0, 'Cid': 0}
    """
    if len(set(players)) != len(players):
        raise SettlementError("settlement.player_twice")
    if winner is None:
        if romme:
            raise SettlementError("settlement.abandoned_romme")
        nobody = dict.fromkeys(players, 0)
        return GameSettlement(None, False, {}, nobody, {})
    if winner not in players:
        raise SettlementError("settlement.winner_not_playing")
    strangers = [player for player in hands if player not in players]
    if strangers:
        raise SettlementError("settlement.stranger_hand")
    if winner in hands:
        raise SettlementError("settlement.winner_has_hand")
    losers = [player for player in players if player != winner]
    lowest, highest = hand_points_range(variant)
    hand_points: dict[P, int] = {}
    for loser in losers:
        if loser not in hands:
            raise SettlementError("settlement.hand_missing")
        hand = hands[loser]
        if isinstance(hand, int):
            if not lowest <= hand <= highest:
                raise SettlementError(
                    "settlement.hand_points", lowest=lowest, highest=highest, points=hand
                )
            hand_points[loser] = hand
        elif not hand:
            raise SettlementError("settlement.empty_hand")
        else:
            hand_points[loser] = hand_value(hand, variant)
    refuse_repeated_cards((hand for hand in hands.values() if not isinstance(hand, int)), variant)

    never = set(never_melded)
    rule = variant.romme_doubling
    factors = {
        loser: variant.romme_factor
        if (rule is RommeDoubling.WINNER_WENT_OUT_AT_ONCE and romme)
        or (rule is RommeDoubling.LOSER_NEVER_MELDED and loser in never)
        else 1
        for loser in losers
    }
    owed = {loser: hand_points[loser] * factors[loser] for loser in losers}
    gains = dict.fromkeys(players, 0)
    if variant.settlement is Settlement.WINNER_COLLECTS:
        gains[winner] = sum(owed.values())
    elif variant.settlement is Settlement.LOSERS_MINUS:
        gains.update({loser: -points for loser, points in owed.items()})
    else:
        gains.update({loser: -points for loser, points in owed.items()})
        gains[winner] = sum(owed.values())
    return GameSettlement(winner, romme, hand_points, gains, factors)


@dataclass(frozen=True)
class SessionStanding(Generic[P]):
    """The totals of a session against its target, and its winner once there is one (R7)."""

    totals: dict[P, int]
    target: int
    winner: P | None
    leaders: tuple[P, ...]

    @property
    def tie_at_top(self) -> bool:
        """Tell whether two or more players share the highest total at or above the target."""
        return self.winner is None and len(self.leaders) > 1 and self.reached

    @property
    def reached(self) -> bool:
        """Tell whether the highest total has reached the target."""
        return bool(self.totals) and max(self.totals.values()) >= self.target

    def to_go(self, player: P) -> int:
        """Return how many points a player still needs to reach the target."""
        return max(0, self.target - self.totals[player])


def session_standing(
    totals: Mapping[P, int], target: int, *, game_in_progress: bool = False
) -> SessionStanding[P]:
    """Decide the session by R7: checked only between games; a tie at the top plays on.

    >>> session_standing({"Ann": 510, "Bob": 530}, 500).winner
    'Bob'
    >>> session_standing({"Ann": 530, "Bob": 530}, 500).winner is None
    True
    """
    if target < 1:
        raise SettlementError("settlement.target")
    totals = dict(totals)
    top = max(totals.values(), default=0)
    leaders = tuple(player for player, total in totals.items() if total == top)
    winner = None
    if not game_in_progress and top >= target and len(leaders) == 1:
        winner = leaders[0]
    return SessionStanding(totals, target, winner, leaders)
