"""Treppenrommé (staircase rummy): one pack, aces 15/10/5/1, the ace may turn the corner."""

from __future__ import annotations

from typing import ClassVar

from scorekeeper.rules.variants.base import AcePosition, HouseRule, P, Variant


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
    HOUSE_RULES = (HouseRule("romme_doubling", "winner", choices=("winner", "loser")),)

    def factor(self, loser: P, romme: bool, never_melded: frozenset[P]) -> int:
        """Return how many times a loser's hand counts, by the table's reading of R5."""
        if self.house_rules["romme_doubling"] == "loser":
            return self.romme_factor if loser in never_melded else 1
        return self.romme_factor if romme else 1
