"""500 Rum: melds and layoffs score for whoever puts them down; every hand is taken off (F1-F5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from scorekeeper.rules.cards import Card, Piece
from scorekeeper.rules.errors import SettlementError
from scorekeeper.rules.messages import Message
from scorekeeper.rules.settlement import GameSettlement
from scorekeeper.rules.variants.base import AcePosition, H, P, Variant, refuse_repeated_cards


class Rummy500(Variant):
    """500 Rum: 2 to 6 players, no corner, an ace 15 (1 before a 2); table minus hand (F2).

    The settlement books 0 for the winner and minus the hand for every other player; what the
    melds and layoffs scored is booked as they were played, so each player's game is what they
    put down minus what they still hold.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> hands = {"Bob": parse_cards("A♣ K♣"), "Cid": parse_cards("7♥")}
    >>> Rummy500().settle(["Ann", "Bob", "Cid"], "Ann", hands).gains
    {'Ann': 0, 'Bob': -25, 'Cid': -7}
    """

    name = "rummy_500"
    title = "500 Rum"
    max_players = 6
    ace_turns_corner = False
    # F1: an ace scores 15 in a set and after the king, 1 only as the low card before a 2.
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {
        AcePosition.IN_SET: 15,
        AcePosition.HIGH: 15,
        AcePosition.LOW: 1,
    }
    ace_in_hand = 15
    # F3: going out at once earns nothing extra.
    romme_factor = 1
    default_target = 500

    # --- the table ---------------------------------------------------------------------------

    def cards_dealt(self, player_count: int) -> int:
        """Return the cards each player is dealt: 13 for two players, 7 for three to six."""
        return 13 if player_count <= 2 else 7

    def first_player_seat(self, dealer_seat: int, player_count: int) -> int:
        """Return the seat that plays first: the dealer's left neighbour."""
        return (dealer_seat + 1) % player_count

    # --- the end of a game -------------------------------------------------------------------

    def why_romme(
        self,
        entry_players: Sequence[P],
        winner: P,
        entry_cards: Sequence[int] | None,
        player_count: int,
        *,
        name: str,
        first_player: P | None = None,
    ) -> Message:
        """Say that there is no Rommé hand in 500 Rum, whatever the entries (F3).

        >>> Rummy500().why_romme(["Ann"], "Ann", [13], 2, name="Ann").render("en")
        '500 Rum has no Rommé hand: going out at once earns nothing extra.'
        """
        return Message("settlement.no_romme_in_variant", {"variant": self})

    def hands_settled(self, winner: P | None, hands: Mapping[P, H]) -> dict[P, H]:
        """Return the hands a finish settles: with nobody out too, every hand counts (F5)."""
        return dict(hands)

    def finish(
        self,
        names: Mapping[P, str],
        winner: P | None,
        hands: Mapping[P, Sequence[Piece] | int],
        *,
        entry_players: Sequence[P],
        entry_cards: Sequence[int] | None = None,
        on_table: Iterable[Piece] = (),
        romme: bool | None = None,
        dealer: P | None = None,
    ) -> GameSettlement[P]:
        """Settle a game; ``winner=None`` with every hand settles a game nobody went out of (F5).

        ``winner=None`` without hands abandons the game (R6): melds and layoffs stand, no hand
        is counted.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> names = {1: "Ann", 2: "Bob"}
        >>> hands = {1: parse_cards("K♣"), 2: parse_cards("A♥ 2♣")}
        >>> Rummy500().finish(names, None, hands, entry_players=[2, 1]).gains
        {1: -10, 2: -17}
        """
        if winner is not None or not hands:
            return super().finish(
                names,
                winner,
                hands,
                entry_players=entry_players,
                entry_cards=entry_cards,
                on_table=on_table,
                romme=romme,
                dealer=dealer,
            )
        if romme:
            raise SettlementError.saying(self.why_romme([], winner, None, len(names), name=""))
        self.refuse_lying_in_hands(names, hands, list(on_table))
        # Jokers never reach a hand here: read_cards reads none in a pack without them.
        cards = {
            player: hand if isinstance(hand, int) else [c for c in hand if isinstance(c, Card)]
            for player, hand in hands.items()
        }
        return self.settle_nobody_out(list(names), cards)

    def settle_nobody_out(
        self, players: Sequence[P], hands: Mapping[P, Sequence[Card] | int]
    ) -> GameSettlement[P]:
        """Settle a game nobody went out of: every player books minus their hand, none wins (F5).

        >>> from scorekeeper.rules.cards import parse_cards
        >>> hands = {"Ann": 12, "Bob": parse_cards("A♠")}
        >>> Rummy500().settle_nobody_out(["Ann", "Bob"], hands).gains
        {'Ann': -12, 'Bob': -15}
        """
        if len(set(players)) != len(players):
            raise SettlementError("settlement.player_twice")
        if any(player not in players for player in hands):
            raise SettlementError("settlement.stranger_hand")
        lowest, highest = self.hand_points_range()
        for player in players:
            hand = hands.get(player)
            if hand is None:
                raise SettlementError("settlement.hand_missing_nobody_out")
            if isinstance(hand, int) and not lowest <= hand <= highest:
                raise SettlementError(
                    "settlement.hand_points", lowest=lowest, highest=highest, points=hand
                )
            if not isinstance(hand, int) and not hand:
                raise SettlementError("settlement.empty_hand_nobody_out")
        refuse_repeated_cards(
            (hand for hand in hands.values() if not isinstance(hand, int)), self.packs
        )
        hand_points = {
            player: hand if isinstance(hand, int) else self.hand_points(hand)
            for player, hand in ((player, hands[player]) for player in players)
        }
        gains = {player: -points for player, points in hand_points.items()}
        factors = dict.fromkeys(players, 1)
        return GameSettlement(None, False, hand_points, gains, factors, paid=dict(hand_points))

    def minus_explained(self, name: str) -> Message:
        """Explain minus points with what an ace costs in a hand: 15 (F1).

        >>> Rummy500().minus_explained("Ann").render("en").endswith("(an ace 15).")
        True
        """
        return Message("explain.minus_ace", {"name": name, "ace": self.ace_in_hand})

    def book(self, winner: P, owed: Mapping[P, int], players: Sequence[P]) -> dict[P, int]:
        """Return each player's gain: 0 for the winner, minus their hand for every other (F2)."""
        gains = dict.fromkeys(players, 0)
        for loser, points in owed.items():
            gains[loser] = -points
        return gains

    # --- names -------------------------------------------------------------------------------

    def label(self, language: str = "en") -> str:
        """Return the rule system's name in a language."""
        return Message("variant.rummy_500").render(language)
