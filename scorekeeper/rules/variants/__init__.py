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
    GameEnd,
    MinusHands,
    Variant,
    refuse_repeated_cards,
    repeated_cards,
)
from scorekeeper.rules.variants.boathouse_rum import BoathouseRum
from scorekeeper.rules.variants.german_rummy import GermanRummy
from scorekeeper.rules.variants.rummy_500 import Rummy500
from scorekeeper.rules.variants.treppenromme import Treppenromme
from scorekeeper.rules.variants.words import Words

VARIANTS: dict[str, type[Variant]] = {
    variant.name: variant for variant in (Treppenromme, GermanRummy, BoathouseRum, Rummy500)
}

TREPPENROMME = Treppenromme()
# The rule system a session is played by when nobody chooses one.
DEFAULT_VARIANT = TREPPENROMME.name


def find_variant(
    name: str = DEFAULT_VARIANT, house_rules: Mapping[str, object] | None = None
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


def default_variant_name() -> str:
    """Return the name of the rule system a session is played by when nobody chooses one."""
    return DEFAULT_VARIANT


def register(variant: type[Variant]) -> type[Variant]:
    """Add a rule system to the registry under its name; it is offered after those before it.

    A rule system from outside this package plugs in so: the pages, the forms and the API
    offer it from then on. A name that is taken, or none, is refused.

    >>> class Dominoes(Variant):
    ...     name, title = "dominoes", "Dominoes"
    >>> register(Dominoes) is Dominoes, find_variant("dominoes").label()
    (True, 'Dominoes')
    >>> unregister("dominoes")
    >>> "dominoes" in VARIANTS
    False
    """
    if not (isinstance(variant, type) and issubclass(variant, Variant)):
        raise TypeError(f"a rule system is a subclass of Variant, not {variant!r}")
    if not variant.name or not variant.title:
        raise ValueError("a rule system needs a name and a title")
    if variant.name in VARIANTS:
        raise ValueError(f"a rule system is registered as {variant.name!r} already")
    VARIANTS[variant.name] = variant
    return variant


def unregister(name: str) -> None:
    """Take a rule system out of the registry; the default one stays."""
    if name == DEFAULT_VARIANT:
        raise ValueError("the default rule system cannot be taken out")
    if name not in VARIANTS:
        raise ValueError(f"no rule system is registered as {name!r}")
    del VARIANTS[name]


__all__ = [
    "DEFAULT_VARIANT",
    "TREPPENROMME",
    "VARIANTS",
    "AcePosition",
    "BoathouseRum",
    "Choice",
    "GameEnd",
    "GameSettlement",
    "GermanRummy",
    "HouseRule",
    "HouseRules",
    "MinusHands",
    "Rummy500",
    "SessionStanding",
    "Treppenromme",
    "Variant",
    "Words",
    "default_variant_name",
    "find_variant",
    "refuse_repeated_cards",
    "register",
    "repeated_cards",
    "unregister",
]
