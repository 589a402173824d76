"""German Rummy (Rommé, seed 002): two packs and six jokers, a 40-point opening, minus points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from scorekeeper.rules.cards import Card, Rank
from scorekeeper.rules.ends import GAMES, LARGEST_NUMBER, LIMIT
from scorekeeper.rules.errors import OpeningError
from scorekeeper.rules.house_rules import Choice, HouseRule
from scorekeeper.rules.messages import Message, wording
from scorekeeper.rules.variants.base import AcePosition, MinusHands, P
from scorekeeper.rules.variants.words import Words

# G7: the session ends when a total falls to this.
DEFAULT_LIMIT = -500


class GermanRummyWords(Words):
    """German Rummy's words: "Rommé" in German, minus points, what a joker costs."""

    name = Message("variant.german_rummy")
    points = Message("sheet.minus_points")

    def minus_explained(self, name: str) -> Message:
        """Explain minus points with what a card costs: an ace 11, a joker 30 (or 25, 20)."""
        joker = self.variant.joker_hand_value()
        return Message("explain.minus_values", {"name": name, "joker": joker})


class GermanRummy(MinusHands):
    """German Rummy: melds score nothing; every loser books minus their hand (G1-G8).

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> hands = {"Bob": parse_pieces("A♠ JKR"), "Cid": parse_pieces("7♥")}
    >>> GermanRummy().settle(["Ann", "Bob", "Cid"], "Ann", hands).gains
    {'Ann': 0, 'Bob': -41, 'Cid': -7}
    """

    name = "german_rummy"
    title = "German Rummy"
    WORDS = GermanRummyWords
    # G7: the session ends when a total falls to the limit, or after a number of games.
    ENDS = (LIMIT, GAMES)
    default_limit = DEFAULT_LIMIT
    packs = 2
    jokers = 6
    max_players = 6
    ace_turns_corner = False
    # G9: two packs hold both aces of a suit; a sequence of 14 holds one at each end.
    both_aces_in_sequence = True
    ace_in_hand = 11
    joker_in_hand = 30
    first_meld_minimum = 40
    melds_score = False
    # G6: the dealer plays first and puts cards down without drawing (seed 002).
    first_turn_draws = False
    # G3: what an ace counts towards the opening; it never turns the corner here.
    ace_in_opening: ClassVar[dict[AcePosition, int]] = {
        AcePosition.IN_SET: 11,
        AcePosition.HIGH: 11,
        AcePosition.LOW: 1,
    }
    HOUSE_RULES = (
        HouseRule(
            "opening",
            first_meld_minimum,
            whole=(0, LARGEST_NUMBER),
            label=wording("Opening at least (points)"),
            description=wording("what an opening must count at the least; 0 for none (G3)"),
            said=wording("opening at least %(value)s"),
            unsaid=(0,),
            refusal=wording("The opening minimum is a whole number from 0 (no minimum) up."),
        ),
        HouseRule(
            "joker_in_hand",
            joker_in_hand,
            choices=(20, 25, 30),
            offered=(30, 25, 20),
            label=wording("A joker left in a hand costs"),
            description=wording("what a joker left in a hand costs (G5)"),
            said=wording("a joker in a hand %(value)s"),
            in_points=True,
        ),
        HouseRule(
            "hand_romme_doubles",
            False,
            choices=(
                Choice(False, offered=wording("counts single")),
                Choice(
                    True,
                    offered=wording("doubles the minus points"),
                    said=wording("a Hand-Rommé doubles the minus points"),
                ),
            ),
            label=wording("Hand-Rommé"),
            description=wording("a Hand-Rommé doubles every loser's minus points (G6)"),
        ),
        # G4: "four" is the German Skat Association's reading.
        HouseRule(
            "joker_swap_from_set",
            "any",
            choices=(
                Choice("any", offered=wording("for any missing card")),
                Choice(
                    "four",
                    offered=wording("only when the set becomes four natural cards"),
                    said=wording("a joker leaves a set only for four natural cards"),
                ),
            ),
            label=wording("A joker is taken from a set"),
            description=wording(
                "“four” (the German Skat Association's reading) takes a joker from a set only "
                "when the set becomes four natural cards (G4)"
            ),
        ),
    )

    # --- the table ---------------------------------------------------------------------------

    def cards_dealt(self, player_count: int) -> int:
        """Return how many cards each player is dealt: 13."""
        return 13

    # --- values ------------------------------------------------------------------------------

    def meld_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a card scores in a meld: nothing; values count only for the opening."""
        return 0

    def opening_card_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a card counts towards the opening: an ace 11, or 1 before the 2 (G3)."""
        if card.rank == Rank.ACE:
            if position not in self.ace_in_opening:
                raise ValueError(f"an ace does not lie at {position} in German Rummy")
            return self.ace_in_opening[position]
        return self.pip_value(card)

    def joker_hand_value(self) -> int:
        """Return what a joker left in a hand costs, by the house rule (30, 25 or 20)."""
        value: int = self.house["joker_in_hand"]
        return value

    # --- the opening and the joker swap ------------------------------------------------------

    def opening_minimum(self) -> int:
        """Return what an opening must be worth at the least: 40, or the house rule's (G3)."""
        minimum: int = self.house["opening"]
        return minimum

    def refuse_before_opening(self, kind: str, earlier: Sequence[str], name: str = "") -> None:
        """Refuse a layoff or a joker swap as a player's first entry of a game (G3)."""
        if earlier or kind == "meld":
            return
        raise OpeningError(
            "opening.swap_first" if kind == "swap" else "opening.layoff_first", name=name
        )

    def swap_needs_full_set(self) -> bool:
        """Tell whether a joker leaves a set only when it becomes four natural cards (G4)."""
        return bool(self.house["joker_swap_from_set"] == "four")

    # --- the end of a game -------------------------------------------------------------------

    def factor(self, loser: P, romme: bool, never_melded: frozenset[P]) -> int:
        """Return how often a loser's hand counts: twice for a Hand-Rommé by house rule (G6)."""
        if romme and self.house["hand_romme_doubles"]:
            return self.romme_factor
        return 1
