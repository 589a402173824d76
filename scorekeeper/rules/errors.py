"""The ways a card entry can break the rules, each with a message for the card table.

An error is raised as ``SomeError(message_id, **params)``; ``str(error)`` is the English
message and ``error.message("de")`` the German one (see :mod:`scorekeeper.rules.messages`).

>>> from scorekeeper.rules.cards import parse_cards
>>> error = CardAlreadyPlayedError("table.already_on_table", cards=parse_cards("Q♣"), count=1)
>>> str(error), error.message("de")
('Q♣ is already on the table.', 'D♣ liegt schon auf dem Tisch.')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Self

from scorekeeper.rules.messages import Message, OneOf, render_message, render_param

if TYPE_CHECKING:
    from scorekeeper.rules.cards import Card, Piece


class RulesError(ValueError):
    """Base of every rules failure; the message is written for the players.

    A ``message_id`` that is not in the catalogue is taken as a finished English text.
    """

    def __init__(self, message_id: str, /, **params: object) -> None:
        self.message_id = message_id
        self.params = params
        super().__init__(render_message(message_id, "en", **params))

    def message(self, language: str = "en") -> str:
        """Return the message in a language: German for ``de`` (and ``de-AT`` ...), else English."""
        return render_message(self.message_id, language, **self.params)

    @classmethod
    def saying(cls, message: Message) -> Self:
        """Return the error that says a message made already (where its id was written)."""
        return cls(message.message_id, **message.params)

    @property
    def as_message(self) -> Message:
        """Return the message id and params, to be rendered later or inside another message."""
        return Message(self.message_id, self.params)


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
    """Cards that are not one suit in unbroken order; ``reason`` says why without the cards.

    It is raised as ``SomeError(reason_id, cards=..., **reason_params)``; the whole message
    reads "<cards> is not a sequence: <reason>". ``reason_message`` keeps the reason apart, so
    that a layoff can say "<cards> cannot be laid off onto <meld>: <reason>" in any language.
    """

    def __init__(self, reason_id: str, /, cards: Sequence[Piece], **params: object) -> None:
        self.reason_message = Message(reason_id, params)
        super().__init__("sequence.not_a_sequence", cards=cards, reason=self.reason_message)
        self.cards = render_param(cards)
        self.reason = self.reason_message.render()


class MixedSuitsError(NotASequenceError):
    """A sequence must be of one suit."""


class GapInSequenceError(NotASequenceError):
    """One or more cards are missing inside the sequence."""


class CornerNotAllowedError(NotASequenceError):
    """The variant does not let the ace turn the corner (K-A-2)."""


class JokerError(InvalidMeldError):
    """A joker where the rules do not let it lie (G1), or not standing for what its place needs."""


class JokerInDoubtError(RulesError):
    """A joker that could stand for more than one card (G2): the recorder must say which.

    ``choices`` are the cards it may stand for; ``JKR=`` one of them settles it. The message
    names them joined by "or"; the param ``choice`` is the one given as an example.
    """

    def __init__(self, message_id: str, /, choices: Sequence[Card], **params: object) -> None:
        self.choices: tuple[Card, ...] = tuple(choices)
        super().__init__(message_id, choices=OneOf(self.choices), **params)


class InvalidLayoffError(RulesError):
    """The cards cannot be laid off onto that meld."""


class CardAlreadyPlayedError(RulesError):
    """A card that exists once is on the table or in a hand already."""


class OpeningError(RulesError):
    """A player's opening under the minimum, or a layoff or swap before the opening (G3)."""


class SwapError(RulesError):
    """A joker swap the rules do not allow (G4)."""


class SettlementError(RulesError):
    """The end of a game was entered in a way the rules do not allow."""


class SeatingError(RulesError):
    """The players or the target of a session are not playable."""


class HouseRuleError(RulesError):
    """A rule system or house rule that does not exist, or a value it does not allow."""


class GroupError(RulesError):
    """A group's name, or two names to merge, that cannot be."""


class EveningError(RulesError):
    """Base of what an evening of several tables refuses (E1-E12)."""


class EveningPlayersError(EveningError):
    """Too few or too many players for an evening (E1)."""


class TableSizeError(EveningError):
    """A table size the rule system does not seat, or that cannot seat the players (E2, E3)."""


class SeriesPlanError(EveningError):
    """A number of series, or an end of a series, that an evening cannot have (E7, E8)."""


class SeatingModeError(EveningError):
    """Later series seated neither by the standing nor drawn (E5)."""


class NextSeriesError(EveningError):
    """The next series cannot be seated: a table still plays, or every series is played (E12)."""


class RedrawError(EveningError):
    """A series that cannot be drawn again: play has begun (E4)."""


class SeasonError(EveningError):
    """A season's count of best evenings that cannot be (E11)."""
