"""What a rule system says, apart from what it decides: its name, its rules, the settlement.

Each rule system has a words part, a :class:`Words` (``Variant.WORDS``), that it reaches as
``variant.words``. The words ask the rule system for what it decided (a settlement, how the
session ends, whether melds score) and say it; a rule system whose words differ has its own
subclass beside it, in its module. Pages, forms and the API ask the words instead of deciding
what to say from the rule system's constants.

>>> from scorekeeper.rules.variants import find_variant
>>> find_variant("german_rummy").words.label("de"), find_variant().words.points_name("de")
('Rommé', 'Punkte')
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, ClassVar, TypeVar

from scorekeeper.rules.messages import Listed, Message, Wording, wording
from scorekeeper.rules.settlement import GameSettlement

if TYPE_CHECKING:
    from scorekeeper.rules.variants.base import Variant

P = TypeVar("P", bound=Hashable)

# The words of how a session ends, common to every rule system (``Variant.end_rule``).
END_LABEL = wording("The session ends")
END_DESCRIPTION = wording(
    "how the session ends: at a target, at a limit of minus points or after a number of games"
)


class Words:
    """The words of a rule system; a rule system with words of its own subclasses this."""

    # The rule system's name, where it differs by language (a message of the catalogue, or a
    # wording of the rule system's own); None: its title as it is.
    name: ClassVar[Message | Wording | None] = None
    # What a game's numbers are called.
    points: ClassVar[Message] = Message("sheet.points")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def label(self, language: str = "en") -> str:
        """Return the rule system's name as shown to the players, e.g. ``Treppenrommé``."""
        if self.name is None:
            return self.variant.title
        return self.name.render(language)

    def points_name(self, language: str = "en") -> str:
        """Return what a game's numbers are called, e.g. ``points``, in a language."""
        return self.points.render(language)

    # --- how the session ends -------------------------------------------------------------------

    def to_go_message(self) -> Message:
        """Say what a player's distance to the session's end is: to the target, or the limit.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant().words.to_go_message().render("de")
        'Fehlen'
        >>> find_variant("german_rummy").words.to_go_message().render("de")
        'Bis -500'
        """
        end, number = self.variant.end()
        return end.to_go(number)

    def end_message(self, games_ended: int) -> Message:
        """Say how the session ends, for the foot of the score sheet: target, limit or games.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant().words.end_message(3).render("en")
        'Target: 500'
        >>> find_variant("boathouse_rum", {"end": {"games": 5}}).words.end_message(4).render("en")
        '5 games, 1 left'
        """
        end, number = self.variant.end()
        return end.foot(number, games_ended)

    def end_said(self, language: str = "en") -> str:
        """Say how the session ends, e.g. ``to 500 points`` or ``5 games``."""
        end, number = self.variant.end()
        return end.said(number).render(language)

    def end_said_short(self) -> Message:
        """Say how the session ends as a list of sessions does, e.g. ``to 500``."""
        end, number = self.variant.end()
        return end.said_short(number)

    def session_heading(self) -> Message:
        """Say the session with its end, as its page is headed: ``Session to 500 points``."""
        end, number = self.variant.end()
        return end.heading(number)

    def rules_said(self, language: str = "en") -> tuple[str, ...]:
        """Say the rules of a session: the rule system, how it ends, each house rule chosen.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("german_rummy", {"joker_in_hand": 25}).words.rules_said("de")[2:]
        ('erstes Auslegen mindestens 40', 'ein Joker in der Hand 25 Punkte')
        """
        said = [self.label(language), self.end_said(language)]
        for rule in self.variant.HOUSE_RULES:
            words = rule.say(self.variant.house[rule.name], language)
            if words is not None:
                said.append(words)
        return tuple(said)

    # --- what the melds say ---------------------------------------------------------------------

    def meld_values_shown(self) -> bool:
        """Tell whether the values of melds and layoffs say anything: where melds score, they do.

        Where melds score nothing every value is 0: a line of them says nothing.
        """
        return self.variant.melds_score

    def best_meld_hint(self) -> Message | None:
        """Say which meld is the best where no value tells (the most cards), else nothing."""
        return None if self.meld_values_shown() else Message("groups.best_meld_cards")

    # --- the end of a game ----------------------------------------------------------------------

    def outcome(self, winner: str | None, romme: bool) -> Message:
        """Say how a game that was settled ended: who went out (with a Rommé hand), or nobody.

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant().words.outcome("Ann", True).render("en")
        'Ann went out with a Rommé hand'
        """
        if winner is None:
            return Message("outcome.nobody_out")
        return Message("outcome.romme" if romme else "outcome.went_out", {"name": winner})

    def doubled_why(self, romme: bool) -> Message:
        """Say why a loser's hand counted more than once: a Rommé hand, or never melded (R5)."""
        if romme and not self.variant.doubles_never_melded():
            return Message("outcome.doubled_romme")
        return Message("outcome.doubled_never_melded")

    def game_news(self, number: int, names: Mapping[P, str], settled: GameSettlement[P]) -> Message:
        """Say the news of a game just booked: what the winner gains, or what the losers book.

        >>> from scorekeeper.rules.cards import parse_cards
        >>> from scorekeeper.rules.variants import find_variant
        >>> variant = find_variant()
        >>> settled = variant.settle([1, 2], 1, {2: parse_cards("K♣")})
        >>> variant.words.game_news(3, {1: "Ann", 2: "Bob"}, settled).render("en")
        'Game 3 is over: Ann went out and gains 10 points.'
        """
        gains = settled.gains
        winner = names[settled.winner] if settled.winner is not None else ""
        minus = [player for player in names if gains.get(player, 0) < 0]
        if minus:
            booked = tuple(
                Message("news.books", {"name": names[player], "points": gains[player]})
                for player in minus
            )
            if settled.winner is None:
                # F5: nobody went out, and every hand was counted.
                return Message("news.nobody_out", {"number": number, "minus": Listed(booked)})
            return Message(
                "news.minus", {"number": number, "name": winner, "minus": Listed(booked)}
            )
        won = gains.get(settled.winner, 0) if settled.winner is not None else 0
        points = Message("house.points", {"count": won, "num": won})
        return Message("news.gains", {"number": number, "name": winner, "points": points})

    def settlement_explained(self, settled: GameSettlement[P], name: str) -> tuple[Message, ...]:
        """Explain a settlement before it is booked; ``name`` is the winner's ("" for nobody).

        >>> from scorekeeper.rules.cards import parse_cards
        >>> from scorekeeper.rules.variants import find_variant
        >>> variant = find_variant()
        >>> settled = variant.settle([1, 2], 1, {2: parse_cards("K♣")})
        >>> variant.words.settlement_explained(settled, "Ann")[0].render("en")
        'Ann scores the cards left in the other hands once: 10.'
        """
        if settled.winner is None:
            return (self.nobody_out_explained(), self.melds_explained(minus=True))
        factors = list(settled.factors.values())
        all_double = bool(factors) and min(factors) > 1
        some_double = bool(factors) and max(factors) > 1
        minus = min(settled.gains.values(), default=0) < 0
        gain = settled.gains.get(settled.winner, 0) if settled.winner is not None else 0
        said: list[Message] = []
        if minus:
            said.append(self.minus_explained(name))
            if settled.romme and all_double:
                said.append(Message("explain.minus_doubled"))
        elif settled.romme and all_double:
            hands = sum(settled.hand_points.values())
            said.append(Message("explain.romme", {"name": name, "hands": hands, "gain": gain}))
        elif some_double:
            said.append(Message("explain.never_melded", {"name": name, "gain": gain}))
        else:
            said.append(Message("explain.once", {"name": name, "gain": gain}))
        said.append(self.melds_explained(minus=minus))
        return tuple(said)

    def melds_explained(self, *, minus: bool) -> Message:
        """Say what the melds and layoffs count beside the hands."""
        if self.variant.shows_game_net():
            return Message("explain.game_net")
        if self.variant.melds_score:
            return Message("explain.melds_stay")
        return Message("explain.only_hands" if minus else "explain.only_paid")

    def minus_explained(self, name: str) -> Message:
        """Explain minus points: the winner books 0, every other player minus their hand."""
        return Message("explain.minus", {"name": name})

    def nobody_out_explained(self) -> Message:
        """Explain a game nobody went out of: every player books minus their hand (F5).

        >>> from scorekeeper.rules.variants import find_variant
        >>> find_variant("rummy_500").words.nobody_out_explained().render("en")
        'Nobody went out: every player books minus the cards left in their hand (an ace 15).'
        """
        variant = self.variant
        if variant.jokers:
            return Message(
                "explain.nobody_out_joker",
                {"ace": variant.ace_in_hand, "joker": variant.joker_hand_value()},
            )
        return Message("explain.nobody_out", {"ace": variant.ace_in_hand})
