"""The rule systems a table can choose, looked up by name with the session's house rules.

>>> find_variant("boathouse_rum").cards_dealt(5)
6
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.rules.errors import HouseRuleError
from scorekeeper.rules.house_rules import Choice, HouseRule, HouseRules
from scorekeeper.rules.settlement import GameSettlement, SessionStanding
from scorekeeper.rules.variants.base import (
    AcePosition,
    Variant,
    refuse_repeated_cards,
    repeated_cards,
)
from scorekeeper.rules.variants.boathouse_rum import BoathouseRum
from scorekeeper.rules.variants.german_rummy import GermanRummy
from scorekeeper.rules.variants.rummy_500 import Rummy500
from scorekeeper.rules.variants.treppenromme import Treppenromme

VARIANTS: dict[str, type[Variant]] = {
    variant.name: variant for variant in (Treppenromme, GermanRummy, BoathouseRum, Rummy500)
}


def find_variant(
    name: str = Treppenromme.name, house_rules: Mapping[str, object] | None = None
) -> Variant:
    """Return the rule system registered under a name, with a session's house rules.

    >>> find_variant("treppenromme").house_rules
    {'end': {'target': 500}, 'romme_doubling': 'winner'}
    """
    try:
        variant = VARIANTS[name]
    except (KeyError, TypeError):
        known = ", ".join(VARIANTS)
        raise HouseRuleError("rules.unknown_variant", name=str(name)[:40], known=known) from None
    return variant(house_rules)


TREPPENROMME = Treppenromme()
# The rule system a session is played by when nobody chooses one.
DEFAULT_VARIANT = TREPPENROMME.name

__all__ = [
    "DEFAULT_VARIANT",
    "TREPPENROMME",
    "VARIANTS",
    "AcePosition",
    "BoathouseRum",
    "Choice",
    "GameSettlement",
    "GermanRummy",
    "HouseRule",
    "HouseRules",
    "Rummy500",
    "SessionStanding",
    "Treppenromme",
    "Variant",
    "find_variant",
    "refuse_repeated_cards",
    "repeated_cards",
]
