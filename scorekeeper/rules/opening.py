"""The opening (G3): a player's first entry in a game, one or more melds worth a minimum.

What a meld counts towards the opening is in ``Meld.opening_values``, valued by the rule
system when the meld was classified; laid-off cards never count. Whether a layoff or a swap
may come before the opening is the rule system's to say (``Variant.refuse_before_opening``).

>>> from scorekeeper.rules.cards import parse_cards
>>> from scorekeeper.rules.melds import classify
>>> from scorekeeper.rules.variants.german_rummy import GermanRummy
>>> melds = [classify(parse_cards(text), GermanRummy()) for text in ("Q♣ K♣ A♣", "3♦ 3♥ 3♠")]
>>> opening_value(melds)
40
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.rules.errors import OpeningError
from scorekeeper.rules.melds import Meld
from scorekeeper.rules.messages import AllOf
from scorekeeper.rules.variants import Variant

__all__ = ["Turn", "first_broken_turn", "opening_value", "refuse_opening", "refuse_turn"]

K = TypeVar("K", bound=Hashable)


def opening_value(melds: Iterable[Meld]) -> int:
    """Return what melds put down together count towards an opening (G3)."""
    return sum(meld.opening_value for meld in melds)


def refuse_opening(melds: Sequence[Meld], minimum: int) -> None:
    """Raise if melds put down together are worth less than an opening needs (G3).

    >>> from scorekeeper.rules.cards import parse_cards
    >>> from scorekeeper.rules.melds import classify
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> refuse_opening([classify(parse_cards("Q♣ K♣ A♣"), GermanRummy())], 40)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.OpeningError: Q♣ K♣ A♣ is worth 31; an opening needs at least 40.
    """
    value = opening_value(melds)
    if value < minimum:
        raise OpeningError(
            "opening.too_low",
            melds=AllOf(tuple(meld.cards for meld in melds)),
            value=value,
            minimum=minimum,
            count=len(melds),
        )


@dataclass(frozen=True)
class Turn(Generic[K]):
    """One entry of a game as the opening rule sees it: whose, of what kind, the melds it made.

    ``kind`` is ``"meld"`` (one or more melds put down together), ``"layoff"`` or ``"swap"``
    (whose ``melds`` is the new meld).
    """

    key: K
    player: Hashable
    kind: str
    melds: tuple[Meld, ...] = ()


def refuse_turn(turn: Turn[K], earlier: Sequence[str], variant: Variant, name: str = "") -> None:
    """Raise if an entry breaks the opening rule (G3); ``earlier`` are the player's kinds before.

    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> refuse_turn(Turn(1, "Ann", "layoff"), [], GermanRummy(), "Ann")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.OpeningError: Ann has not opened yet: there is no layoff before the \
opening.
    """
    variant.refuse_before_opening(turn.kind, earlier, name)
    if not earlier and turn.kind == "meld":
        refuse_opening(turn.melds, variant.opening_minimum())


def first_broken_turn(turns: Iterable[Turn[K]], variant: Variant) -> Turn[K] | None:
    """Return the first entry that breaks the opening rule (G3), e.g. after one was removed.

    >>> from scorekeeper.rules.cards import parse_cards
    >>> from scorekeeper.rules.melds import classify
    >>> from scorekeeper.rules.variants.german_rummy import GermanRummy
    >>> low = classify(parse_cards("3♦ 3♥ 3♠"), GermanRummy())
    >>> first_broken_turn([Turn(1, "Ann", "meld", (low,))], GermanRummy()).key
    1
    """
    earlier: dict[Hashable, list[str]] = {}
    for turn in turns:
        kinds = earlier.setdefault(turn.player, [])
        try:
            refuse_turn(turn, kinds, variant)
        except OpeningError:
            return turn
        kinds.append(turn.kind)
    return None
