"""Rule systems as classes with class-level switches, looked up by name.

Only Treppenrommé is playable now; German Rummy and Boathouse Rum become further subclasses
that change the switches below, so no code outside this module asks which variant it is.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from scorekeeper.rules.cards import Card, Rank


class AcePosition(enum.Enum):
    """Where an ace lies in a meld, which decides what it is worth."""

    IN_SET = "set"
    HIGH = "high"
    CORNER = "corner"
    LOW = "low"


class Settlement(enum.Enum):
    """How the cards left in the losers' hands are booked when a game ends."""

    # Treppenrommé: meld points stand; the winner adds the opponents' hand values.
    WINNER_COLLECTS = "winner_collects"
    # German Rummy: melds score nothing; each loser books minus their hand value.
    LOSERS_MINUS = "losers_minus"
    # Boathouse Rum: each loser pays the winner their hand value.
    LOSERS_PAY_WINNER = "losers_pay_winner"


class RommeDoubling(enum.Enum):
    """Which reading of the Rommé hand doubles the hand cards (ruling R5)."""

    # Seed 000 (the default): the winner put everything down in the turn they went out.
    WINNER_WENT_OUT_AT_ONCE = "winner"
    # Seed 003 (house rule): each loser who never melded or laid off pays double.
    LOSER_NEVER_MELDED = "loser"
    NONE = "none"


class Variant:
    """The rule switches of one rule system; subclass it and register the subclass."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    packs: ClassVar[int] = 1
    jokers: ClassVar[int] = 0
    cards_dealt: ClassVar[int] = 7
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    set_sizes: ClassVar[tuple[int, int]] = (3, 4)
    min_sequence: ClassVar[int] = 3
    ace_turns_corner: ClassVar[bool] = True
    scores_melds: ClassVar[bool] = True
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {}
    court_value: ClassVar[int] = 10
    ace_in_hand: ClassVar[int] = 15
    joker_in_hand: ClassVar[int] = 0
    first_meld_minimum: ClassVar[int] = 0
    settlement: ClassVar[Settlement] = Settlement.WINNER_COLLECTS
    romme_doubling: ClassVar[RommeDoubling] = RommeDoubling.WINNER_WENT_OUT_AT_ONCE
    romme_factor: ClassVar[int] = 2
    default_target: ClassVar[int] = 500

    def pip_value(self, card: Card) -> int:
        """Return a non-ace card's value: its number, or the court value for J, Q, K."""
        if card.rank >= Rank.JACK:
            return self.court_value
        return int(card.rank)

    def meld_value(self, card: Card, position: AcePosition | None) -> int:
        """Return what a card scores where it lies in a meld (the position matters for aces)."""
        if not self.scores_melds:
            return 0
        if card.rank == Rank.ACE:
            if position is None:
                raise ValueError("an ace in a meld needs its position")
            return self.ace_in_meld[position]
        return self.pip_value(card)

    def hand_value(self, card: Card) -> int:
        """Return what a card left in a hand is worth at the end of a game."""
        if card.rank == Rank.ACE:
            return self.ace_in_hand
        return self.pip_value(card)

    def label(self, language: str = "en") -> str:
        """Return the rule system's name as shown to the players, e.g. ``Treppenrommé``."""
        return self.title

    def __repr__(self) -> str:
        return f"find_variant({self.name!r})"

    # The switches belong to the class: two instances of one class are the same rule system.
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))


class Treppenromme(Variant):
    """Treppenrommé (staircase rummy): one pack, aces 15/10/5/1, the ace may turn the corner."""

    name = "treppenromme"
    title = "Treppenrommé"
    ace_in_meld: ClassVar[dict[AcePosition, int]] = {
        AcePosition.IN_SET: 15,
        AcePosition.HIGH: 10,
        AcePosition.CORNER: 5,
        AcePosition.LOW: 1,
    }


VARIANTS: dict[str, type[Variant]] = {Treppenromme.name: Treppenromme}


def find_variant(name: str = Treppenromme.name) -> Variant:
    """Return the variant registered under a name, e.g. ``find_variant("treppenromme")``."""
    try:
        return VARIANTS[name]()
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(f"unknown rule system {name!r}; known: {known}") from None


TREPPENROMME = Treppenromme()
