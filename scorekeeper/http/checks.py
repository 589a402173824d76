"""The answer to a check of cards: what the rules make of them, or why not, recording nothing.

The API's ``/check`` and ``/games/<id>/check`` answer with it, and so does the game page's live
check (its script reads the same JSON): one model (``Check``) describes it for both and builds
it; ``api.answers`` lists it with the API's other answers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, Self

from pydantic import Field

from scorekeeper import rules, services
from scorekeeper.http.answers import Answer, absent

Cards = list[str]
Kind = Literal["set", "sequence"]

JOKERS = (
    'German Rummy: each joker, by its place in "cards" (index, from 0, where it lies as "JKR"), '
    "and the cards it may stand for: one in a sequence, each missing suit in a set."
)
_OPENING_VALUE = (
    "German Rummy: what the meld counts towards an opening (G3): 2-10 face value, J Q K 10, ace "
    "11 in a set or after the K and 1 before the 2, a joker the card it stands for."
)


def piece_code(piece: rules.Piece) -> str:
    """Return a card's code, or ``JKR`` for a joker whatever it stands for."""
    return rules.Joker().code if isinstance(piece, rules.Joker) else piece.code


def cards_of(meld: rules.Meld, variant: rules.Variant) -> dict[str, Any]:
    """Return a meld's cards, a joker as ``JKR``, and what each joker stands for (G2).

    ``jokers`` is there where the rule system plays jokers: the answers of the others keep
    their shape.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> german = rules.GermanRummy()
    >>> said = cards_of(rules.classify_pieces(parse_pieces("6♠ 6♥ JKR"), german), german)
    >>> said["cards"], [place.sent() for place in said["jokers"]]
    (['6♠', '6♥', 'JKR'], [{'index': 2, 'as': ['6♦', '6♣']}])
    """
    cards: dict[str, Any] = {"cards": [piece_code(piece) for piece in meld.cards]}
    places = variant.joker_places(meld)
    if places is not None:
        cards["jokers"] = [JokerPlace.of(place) for place in places]
    return cards


def opening_of(melds: Iterable[rules.Meld] | None, variant: rules.Variant) -> dict[str, int]:
    """Return ``{"opening_value": …}`` for melds put down together, where an opening is played.

    The answers of a rule system without an opening keep the shape they always had.
    """
    counted = None if melds is None else variant.opening_counted(melds)
    return {} if counted is None else {"opening_value": counted}


class JokerPlace(Answer):
    """A joker in a meld: its place in the cards and what it may stand for."""

    index: int = Field(ge=0)
    stands_for: list[str] = Field(alias="as", min_length=1)

    @classmethod
    def of(cls, place: rules.JokerPlace) -> Self:
        """Return where a joker lies and the cards it may stand for."""
        return cls.made(index=place.index, stands_for=[card.code for card in place.stands_for])


class Ace(Answer):
    """Where a scored ace lies and what it scores there."""

    card: str
    position: Literal["set", "high", "corner", "low"]
    value: int

    @classmethod
    def of_meld(cls, meld: rules.Meld, counted: set[rules.Piece]) -> list[Ace]:
        """Say where each counted ace lies and what it scores there (set, high, corner, low)."""
        return [
            cls.made(card=card.code, position=position.value, value=value)
            for card, value, position in zip(
                meld.cards, meld.values, meld.ace_positions, strict=True
            )
            if position is not None and card in counted and isinstance(card, rules.Card)
        ]


class CheckedMeld(Answer):
    """A joker swap: the meld after the swap."""

    kind: Kind = absent()
    cards: Cards = absent()
    jokers: list[JokerPlace] = absent(JOKERS)

    @classmethod
    def of(cls, meld: rules.Meld, variant: rules.Variant) -> Self:
        """Return a meld of a joker swap as it lies after the swap: its kind and cards."""
        return cls.made(kind=meld.kind.value, **cards_of(meld, variant))


class CheckedNewMeld(CheckedMeld):
    """A meld as the check reads it: of a joker swap the new meld, or one of several melds."""

    values: list[int] = absent()
    value: int = absent()
    opening_value: int = absent(_OPENING_VALUE)
    aces: list[Ace] = absent("Where each scored ace lies and what it scores there.")

    @classmethod
    def of(cls, meld: rules.Meld, variant: rules.Variant) -> Self:
        """Return what the check says of a meld: kind, cards, jokers, values, aces, opening."""
        return cls.made(
            kind=meld.kind.value,
            **cards_of(meld, variant),
            values=list(meld.values),
            value=meld.value,
            **opening_of([meld], variant),
            aces=Ace.of_meld(meld, set(meld.cards)),
        )


class Check(Answer):
    """The verdict on cards as a meld, several melds, a layoff or a joker swap."""

    valid: bool
    kind: Kind = absent()
    cards: Cards = absent()
    added: Cards = absent()
    values: list[int] = absent()
    value: int = absent()
    aces: list[Ace] = absent("Where each scored ace lies and what it scores there.")
    error: str = absent()
    jokers: list[JokerPlace] = absent(JOKERS)
    joker_choices: Cards = absent(
        "German Rummy, valid false: the cards a joker in doubt may stand for (G2); say which "
        "as JKR=<card>."
    )
    opening_value: int = absent(_OPENING_VALUE)
    melds: list[CheckedNewMeld] = absent(
        "A game's check of several melds put down together: each meld as a check of one "
        "answers it; value and opening_value add them up."
    )
    meld: CheckedMeld = absent("A joker swap: the meld after the swap.")
    new_meld: CheckedNewMeld = absent("A joker swap: the new meld with the joker taken.")

    @classmethod
    def of_meld(cls, meld: rules.Meld, variant: rules.Variant) -> Self:
        """Return the verdict on cards that make a meld."""
        return cls.made(valid=True, **CheckedNewMeld.of(meld, variant).fields())

    @classmethod
    def of_melds(cls, melds: list[rules.Meld], variant: rules.Variant) -> Self:
        """Return the verdict on one meld, or on several put down together."""
        if len(melds) == 1:
            return cls.of_meld(melds[0], variant)
        return cls.made(
            valid=True,
            melds=[CheckedNewMeld.of(meld, variant) for meld in melds],
            value=sum(meld.value for meld in melds),
            **opening_of(melds, variant),
        )

    @classmethod
    def of_layoff(cls, layoff: rules.Layoff, variant: rules.Variant) -> Self:
        """Return the verdict on cards laid off: the meld after it, what they add and score."""
        return cls.made(
            valid=True,
            kind=layoff.meld.kind.value,
            **cards_of(layoff.meld, variant),
            added=[piece_code(card) for card in layoff.cards],
            values=list(layoff.values),
            value=layoff.value,
            aces=Ace.of_meld(layoff.meld, set(layoff.cards)),
        )

    @classmethod
    def of_swap(cls, swap: rules.Swap, variant: rules.Variant) -> Self:
        """Return the verdict on a joker swap: the meld after it, the cards put in, the new meld."""
        return cls.made(
            valid=True,
            meld=CheckedMeld.of(swap.meld, variant),
            added=[card.code for card in swap.cards],
            new_meld=CheckedNewMeld.of(swap.new_meld, variant),
        )

    @classmethod
    def refused(cls, error: rules.RulesError, language: str) -> Self:
        """Return the refusal of the rules in a language; a joker in doubt names its choices."""
        if isinstance(error, rules.JokerInDoubtError):
            choices = [card.code for card in error.choices]
            return cls.made(valid=False, error=error.message(language), joker_choices=choices)
        return cls.made(valid=False, error=error.message(language))

    @classmethod
    def of_entry(cls, checked: services.Checked, language: str) -> Self:
        """Return the verdict on an entry checked in a game, with the refusal it would meet.

        A refusal of the turn (the opening) keeps what the cards make beside it.
        """
        variant = checked.variant
        if checked.swap is not None:
            answer = cls.of_swap(checked.swap, variant)
        elif checked.layoff is not None:
            answer = cls.of_layoff(checked.layoff, variant)
        else:
            answer = cls.of_melds(checked.melds, variant)
        if checked.refusal is None:
            return answer
        return cls.made(
            **{**answer.fields(), "valid": False, "error": checked.refusal.message(language)}
        )


def game_check(game_id: int, player: int | None, fields: dict[str, Any], language: str) -> Check:
    """Answer a check of an entry in a game (``services.check_entry``), as ``/check`` answers.

    What the rules refuse is ``valid: false`` with the ``error`` (and the cards a joker in doubt
    may stand for); a refusal of the turn (the opening) keeps what the cards make beside it. A
    card that cannot be read raises, as on ``/check``.
    """
    try:
        checked = services.check_entry(game_id, player, **fields)
    except rules.CardNotationError:
        raise
    except rules.RulesError as error:
        return Check.refused(error, language)
    return Check.of_entry(checked, language)


def correction_check(
    game_id: int,
    entry_id: int,
    fields: dict[str, Any],
    language: str,
) -> Check:
    """Answer a check of a correction (``services.check_correction``), as saving it would judge.

    ``fields``: ``cards``, ``player_id``, ``meld_id``. What the rules refuse, and a later entry
    in the way, is ``valid: false`` with the ``error``; a card that cannot be read raises.
    """
    try:
        checked = services.check_correction(game_id, entry_id, **fields)
    except rules.CardNotationError:
        raise
    except rules.RulesError as error:
        return Check.refused(error, language)
    except services.ServiceError as error:
        return Check.made(valid=False, error=error.message(language))
    if isinstance(checked.played, rules.Layoff):
        return Check.of_layoff(checked.played, checked.variant)
    return Check.of_meld(checked.played, checked.variant)
