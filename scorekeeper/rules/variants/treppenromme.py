"""Treppenrommé (staircase rummy): one pack, aces 15/10/5/1, the ace may turn the corner."""

from __future__ import annotations

from typing import ClassVar

from scorekeeper.rules.house_rules import Choice, HouseRule
from scorekeeper.rules.messages import wording
from scorekeeper.rules.variants.base import AcePosition, P, Variant


class Treppenromme(Variant):
    """Treppenrommé: the winner collects the hands, doubled for a Rommé hand (R4, R5).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> Treppenromme().settle(["Ann", "Bob"], "Ann", {"Bob": parse_cards("A♠ 7♥")}).gains
    {'Ann': 22, 'Bob': 0}
    """

    name = "treppenromme"
    title = "Treppenrommé"
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {
        AcePosition.IN_SET: 15,
        AcePosition.HIGH: 10,
        AcePosition.CORNER: 5,
        AcePosition.LOW: 1,
    }
    # R5: seed 000 doubles every hand when the winner had a Rommé hand ("winner"); seed 003
    # doubles the hand of each loser who never melded or laid off ("loser").
    HOUSE_RULES = (
        HouseRule(
            "romme_doubling",
            "winner",
            choices=(
                Choice(
                    "winner",
                    offered=wording("all hands double when the winner went out at once"),
                    said=wording("a Rommé hand doubles every hand"),
                ),
                Choice(
                    "loser",
                    offered=wording("the hand of each player who never melded doubles"),
                    said=wording("the hand of a player who never melded doubles"),
                ),
            ),
            label=wording("Rommé hand (Treppenrommé)"),
            description=wording(
                "which hands count double (R5): “winner”, every hand when the winner went out "
                "with a Rommé hand (seed 000); “loser”, the hand of each loser who never melded "
                "or laid off (seed 003)"
            ),
        ),
    )

    def factor(self, loser: P, romme: bool, never_melded: frozenset[P]) -> int:
        """Return how many times a loser's hand counts, by the table's reading of R5."""
        if self.doubles_never_melded():
            return self.romme_factor if loser in never_melded else 1
        return self.romme_factor if romme else 1

    def doubles_never_melded(self) -> bool:
        """Tell whether the hand of each loser who never melded doubles (seed 003, R5)."""
        return bool(self.house["romme_doubling"] == "loser")
