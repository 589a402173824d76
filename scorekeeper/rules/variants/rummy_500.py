"""500 Rum: melds and layoffs score for whoever puts them down; every hand is taken off (F1-F7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from scorekeeper.rules.cards import Card, Piece
from scorekeeper.rules.errors import SettlementError
from scorekeeper.rules.house_rules import Choice, HouseRule
from scorekeeper.rules.messages import Message, wording
from scorekeeper.rules.settlement import GameSettlement
from scorekeeper.rules.variants.base import AcePosition, GameEnd, MinusHands, P
from scorekeeper.rules.variants.words import Words

# F6: two jokers a pack, each worth 15 wherever it lies or is held.
JOKERS_A_PACK = 2
JOKER_VALUE = 15
# F7: with two packs the table seats up to eight.
TWO_PACKS_SEAT = 8


class Rummy500Words(Words):
    """500 Rum's words: its name, and what an ace and a joker cost in a hand."""

    name = Message("variant.rummy_500")

    def minus_explained(self, name: str) -> Message:
        """Explain minus points with what an ace costs in a hand: 15 (F1), a joker 15 (F6).

        >>> Rummy500().words.minus_explained("Ann").render("en").endswith("(an ace 15).")
        True
        >>> Rummy500({"with_jokers": True}).words.minus_explained("Ann").render("en")[-24:]
        '(an ace 15, a joker 15).'
        """
        variant = self.variant
        if variant.jokers:
            return Message(
                "explain.minus_ace_joker",
                {"name": name, "ace": variant.ace_in_hand, "joker": variant.joker_hand_value()},
            )
        return Message("explain.minus_ace", {"name": name, "ace": variant.ace_in_hand})


class Rummy500(MinusHands):
    """500 Rum: 2 to 6 players, no corner, an ace 15 (1 before a 2); table minus hand (F2).

    The settlement books 0 for the winner and minus the hand for every other player; what the
    melds and layoffs scored is booked as they were played, so each player's game is what they
    put down minus what they still hold. The house rules add jokers (F6) and a second pack (F7).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> hands = {"Bob": parse_cards("A♣ K♣"), "Cid": parse_cards("7♥")}
    >>> Rummy500().settle(["Ann", "Bob", "Cid"], "Ann", hands).gains
    {'Ann': 0, 'Bob': -25, 'Cid': -7}
    >>> big = Rummy500({"with_jokers": True, "two_packs": True})
    >>> big.packs, big.jokers, big.max_players, big.cards_dealt(2)
    (2, 4, 8, 7)
    """

    name = "rummy_500"
    title = "500 Rum"
    WORDS = Rummy500Words
    max_players = 6
    ace_turns_corner = False
    # F1: an ace scores 15 in a set and after the king, 1 only as the low card before a 2.
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {
        AcePosition.IN_SET: 15,
        AcePosition.HIGH: 15,
        AcePosition.LOW: 1,
    }
    ace_in_hand = 15
    joker_in_hand = JOKER_VALUE
    # F3: going out at once earns nothing extra.
    romme_factor = 1
    default_target = 500
    HOUSE_RULES = (
        HouseRule(
            "with_jokers",
            False,
            choices=(
                Choice(False, offered=wording("none")),
                Choice(
                    True,
                    offered=wording("two a pack, each 15"),
                    said=wording("two jokers a pack, each 15"),
                ),
            ),
            label=wording("Jokers"),
            description=wording(
                "two jokers a pack, wild, each worth 15 in a meld, a layoff or a hand; no joker "
                "swap (F6)"
            ),
        ),
        HouseRule(
            "two_packs",
            False,
            choices=(
                Choice(False, offered=wording("one pack, 2 to 6 players")),
                Choice(
                    True,
                    offered=wording("two packs, 7 cards each, up to 8 players"),
                    said=wording("two packs, 7 cards each"),
                ),
            ),
            label=wording("Packs"),
            description=wording(
                "two packs for a big table: 7 cards each, up to 8 players, every card twice (F7)"
            ),
        ),
    )

    def __init__(self, house_rules: Mapping[str, object] | None = None) -> None:
        super().__init__(house_rules)
        # F6, F7: the house rules choose the packs, the jokers and the seats.
        if self.house["two_packs"]:
            self.packs = 2
            self.max_players = TWO_PACKS_SEAT
        self.jokers = JOKERS_A_PACK * self.packs if self.house["with_jokers"] else 0

    @classmethod
    def most_players(cls) -> int:
        """Return the most players 500 Rum seats: eight, with two packs (F7)."""
        return TWO_PACKS_SEAT

    # --- the table ---------------------------------------------------------------------------

    def cards_dealt(self, player_count: int) -> int:
        """Return the cards each player is dealt: 13 for two players, else 7; 7 with F7."""
        return 13 if player_count <= 2 and self.packs == 1 else 7

    def first_player_seat(self, dealer_seat: int, player_count: int) -> int:
        """Return the seat that plays first: the dealer's left neighbour."""
        return (dealer_seat + 1) % player_count

    # --- values ------------------------------------------------------------------------------

    def joker_meld_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a joker scores in a meld or layoff: 15, whatever it stands for (F6).

        >>> from scorekeeper.rules.cards import parse_pieces
        >>> from scorekeeper.rules.jokers import classify_pieces
        >>> classify_pieces(parse_pieces("7♠ 7♥ JKR"), Rummy500({"with_jokers": True})).values
        (7, 7, 15)
        """
        return JOKER_VALUE

    def swaps_jokers(self) -> bool:
        """Tell whether a joker may be swapped: never in 500 Rum (F6)."""
        return False

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

    def nobody_out_settles(self) -> bool:
        """Tell whether a game nobody went out of settles with every hand: it does (F5)."""
        return True

    def settle_end(self, end: GameEnd[P]) -> GameSettlement[P]:
        """Settle a game; no winner with the hands settles a game nobody went out of (F5).

        No winner with ``hands=None`` (none given at all) abandons the game (R6): melds and
        layoffs stand, no hand is counted. Given hands, even none, settle: every player's hand
        is needed.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> names = {1: "Ann", 2: "Bob"}
        >>> hands = {1: parse_cards("K♣"), 2: parse_cards("A♥ 2♣")}
        >>> Rummy500().finish(names, None, hands, entry_players=[2, 1]).gains
        {1: -10, 2: -17}
        """
        if end.winner is not None or end.hands is None:
            return super().settle_end(end)
        if end.romme:
            why = self.why_romme([], end.winner, None, len(end.names), name="")
            raise SettlementError.saying(why)
        self.refuse_lying_in_hands(end.names, end.hands, list(end.on_table))
        return self.settle_nobody_out(list(end.names), end.hands)

    def settle_nobody_out(
        self, players: Sequence[P], hands: Mapping[P, Sequence[Piece] | int]
    ) -> GameSettlement[P]:
        """Settle a game nobody went out of: every player books minus their hand, none wins (F5).

        >>> from scorekeeper.rules.cards import parse_cards, parse_pieces
        >>> hands = {"Ann": 12, "Bob": parse_cards("A♠")}
        >>> Rummy500().settle_nobody_out(["Ann", "Bob"], hands).gains
        {'Ann': -12, 'Bob': -15}
        >>> hands = {"Ann": parse_pieces("JKR 2♦"), "Bob": parse_cards("A♠")}
        >>> Rummy500({"with_jokers": True}).settle_nobody_out(["Ann", "Bob"], hands).gains
        {'Ann': -17, 'Bob': -15}
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
        self.refuse_copies(hand for hand in hands.values() if not isinstance(hand, int))
        counted = self.counted_hands(hands)
        hand_points = {
            player: hand if isinstance(hand, int) else self.hand_points(hand)
            for player, hand in ((player, counted[player]) for player in players)
        }
        gains = {player: -points for player, points in hand_points.items()}
        factors = dict.fromkeys(players, 1)
        return GameSettlement(None, False, hand_points, gains, factors, paid=dict(hand_points))

    def shows_game_net(self) -> bool:
        """Tell whether a settlement shows each player's game: table minus hand (F2)."""
        return True
