"""The ways a card entry can break the rules, each with a message for the card table."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every rules failure; the message is written for the players."""


class CardNotationError(RulesError):
    """A token in the card notation could not be read as a card."""


class InvalidMeldError(RulesError):
    """The cards do not form a legal set or sequence."""


class TooFewCardsError(InvalidMeldError):
    """A meld needs at least three cards."""


class CardTwiceError(InvalidMeldError):
    """The same card was entered twice."""


class NotASetError(InvalidMeldError):
    """Cards of one rank that still do not make a set (or a rank that does not belong)."""


class NotASequenceError(InvalidMeldError):
    """Cards that are not one suit in unbroken order; ``reason`` says why without the cards."""

    def __init__(self, cards: str, reason: str) -> None:
        super().__init__(f"{cards} is not a sequence: {reason}")
        self.cards = cards
        self.reason = reason


class MixedSuitsError(NotASequenceError):
    """A sequence must be of one suit."""


class GapInSequenceError(NotASequenceError):
    """One or more cards are missing inside the sequence."""


class CornerNotAllowedError(NotASequenceError):
    """The variant does not let the ace turn the corner (K-A-2)."""


class InvalidLayoffError(RulesError):
    """The cards cannot be laid off onto that meld."""


class CardAlreadyPlayedError(RulesError):
    """A card that exists once is on the table or in a hand already."""


class SettlementError(RulesError):
    """The end of a game was entered in a way the rules do not allow."""


class SeatingError(RulesError):
    """The players or the target of a session are not playable."""
