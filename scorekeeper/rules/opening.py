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

from collections.abc import Iterable, Sequence

from scorekeeper.rules.errors import OpeningError
from scorekeeper.rules.melds import Meld
from scorekeeper.rules.messages import AllOf

__all__ = ["opening_value", "refuse_opening"]


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
