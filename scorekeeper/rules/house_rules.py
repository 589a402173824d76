"""House rules: what a rule system lets a table choose, in words, and a session's choice, frozen.

A :class:`HouseRule` knows its key, its default, the values it allows, and its words in the
catalogue: the label a form shows, the description the API gives, how the form offers each
value and how the rules of a session say the value chosen. :class:`HouseRules` is a session's
choice, checked once with every default filled in, and frozen.

>>> from scorekeeper.rules.messages import wording
>>> never = wording("the hand of a player who never melded doubles")
>>> rule = HouseRule("doubling", "winner", choices=(Choice("winner"), Choice("loser", said=never)))
>>> rule.say("loser", "de"), rule.say("winner", "de")
('die Hand eines Spielers, der nie ausgelegt hat, zählt doppelt', None)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.errors import HouseRuleError
from scorekeeper.rules.messages import Message, Wording

Value = str | int | bool


@dataclass(frozen=True)
class Choice:
    """One value a house rule allows: how a form offers it, and how a session's rules say it.

    ``offered`` is the form's word for the value (None: the value as written, e.g. ``25``);
    ``said`` is what the rules of a session say when it is chosen (None: the rule's own
    ``said``, or nothing).
    """

    value: Value
    offered: Wording | None = None
    said: Wording | None = None

    def label(self, language: str = "en") -> str:
        """Return the value as a form offers it, in a language."""
        if self.offered is None:
            return json_word(self.value)
        return self.offered.render(language)


@dataclass(frozen=True)
class HouseRule:
    """One house rule of a rule system: its key, default, allowed values and words.

    ``choices`` lists the allowed values (words, whole numbers or ``True`` and ``False``, each
    only as itself: ``1`` is not ``True``); a rule with ``whole`` allows any whole number within
    those bounds instead; an ``end`` rule allows ``{kind: whole number}`` for each kind in
    ``ends``, within the bounds given there. ``offered`` orders the choices as a form offers
    them, where that differs. ``said`` says a value in the rules of a session (``%(value)s``,
    written as points with ``in_points``); values in ``unsaid`` go without saying.
    ``refusal`` is what a form says of a number out of bounds.

    >>> HouseRule("opening", 40, whole=(0, 1000)).check(0)
    0
    >>> HouseRule("doubles", False, choices=(False, True)).describe()["allowed"]
    [False, True]
    """

    name: str
    default: Any
    choices: tuple[Choice | Value, ...] = ()
    ends: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    whole: tuple[int, int] | None = None
    label: Wording | None = None
    description: Wording | None = None
    said: Wording | None = None
    in_points: bool = False
    unsaid: tuple[Value, ...] = ()
    offered: tuple[Value, ...] = ()
    refusal: Wording | None = None

    @property
    def key(self) -> str:
        """Return the rule's key, as the API and the forms name it."""
        return self.name

    @property
    def options(self) -> tuple[Choice, ...]:
        """Return the allowed values with their words, in the order the rule lists them."""
        return tuple(
            choice if isinstance(choice, Choice) else Choice(choice) for choice in self.choices
        )

    def offered_options(self) -> tuple[Choice, ...]:
        """Return the allowed values with their words, in the order a form offers them."""
        options = self.options
        if not self.offered:
            return options
        return tuple(self._option(value) or Choice(value) for value in self.offered)

    def _option(self, value: object) -> Choice | None:
        return next((option for option in self.options if same(option.value, value)), None)

    def check(self, value: object) -> Any:
        """Return the value if the rule allows it, or raise why not."""
        if self.ends:
            return self._check_end(value)
        if self.whole is not None:
            low, high = self.whole
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise HouseRuleError("rules.value", rule=self.name, allowed=f"{low}…{high}")
            return value
        if self._option(value) is None:
            allowed = " | ".join(json_word(option.value) for option in self.options)
            raise HouseRuleError("rules.value", rule=self.name, allowed=allowed)
        return value

    def _check_end(self, value: object) -> dict[str, int]:
        allowed = " | ".join(
            f'{{"{kind}": {low}…{high}}}' for kind, (low, high) in self.ends.items()
        )
        if not isinstance(value, Mapping) or len(value) != 1:
            raise HouseRuleError("rules.value", rule=self.name, allowed=allowed)
        ((kind, number),) = value.items()
        if kind not in self.ends or not _whole(number):
            raise HouseRuleError("rules.value", rule=self.name, allowed=allowed)
        low, high = self.ends[kind]
        if not low <= number <= high:
            raise HouseRuleError("rules.value", rule=self.name, allowed=allowed)
        return {kind: number}

    def say(self, value: object, language: str = "en") -> str | None:
        """Return how the rules of a session say a value of this rule, or None for nothing.

        >>> from scorekeeper.rules.messages import wording
        >>> said = wording("a joker in a hand %(value)s")
        >>> HouseRule("jokers", 30, choices=(20, 30), said=said, in_points=True).say(20)
        'a joker in a hand 20 points'
        """
        option = self._option(value)
        if option is not None and option.said is not None:
            return option.said.render(language)
        if self.said is None or any(same(value, quiet) for quiet in self.unsaid):
            return None
        shown: object = value
        if self.in_points and isinstance(value, int):
            shown = Message("house.points", {"count": value, "num": value})
        return self.said.render(language, value=shown)

    def describe(self) -> dict[str, Any]:
        """Return the rule as the API lists it: name, default and allowed values."""
        if self.ends:
            allowed: list[Any] = [
                {kind: {"min": low, "max": high}} for kind, (low, high) in self.ends.items()
            ]
        elif self.whole is not None:
            low, high = self.whole
            allowed = [{"min": low, "max": high}]
        else:
            allowed = [option.value for option in self.options]
        return {"name": self.name, "default": self.default, "allowed": allowed}


class HouseRules(Mapping[str, Any]):
    """A session's house rules, checked once, every default filled in: frozen and hashable.

    A value that is a mapping (how the session ends) is frozen too; ``as_dict`` gives a copy
    to change or to write as JSON.

    >>> rules = HouseRules({"end": {"games": 5}, "doubling": "winner"})
    >>> rules["end"]["games"], rules == {"end": {"games": 5}, "doubling": "winner"}
    (5, True)
    >>> rules
    HouseRules({'doubling': 'winner', 'end': {'games': 5}})
    """

    __slots__ = ("_key", "_values")

    _values: Mapping[str, Any]
    _key: str

    def __init__(self, values: Mapping[str, Any]) -> None:
        frozen = {
            name: MappingProxyType(dict(value)) if isinstance(value, Mapping) else value
            for name, value in values.items()
        }
        object.__setattr__(self, "_values", MappingProxyType(frozen))
        object.__setattr__(self, "_key", json.dumps(self.as_dict(), sort_keys=True))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("house rules are frozen: make new ones")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HouseRules):
            return self._key == other._key
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"HouseRules({json.loads(self._key)!r})"

    @property
    def key(self) -> str:
        """Return the rules as canonical JSON (sorted keys), e.g. to store them."""
        return self._key

    def as_dict(self) -> dict[str, Any]:
        """Return the rules as a plain dict (a copy), nested values copied too."""
        return {
            name: dict(value) if isinstance(value, Mapping) else value
            for name, value in self._values.items()
        }


def same(value: object, other: object) -> bool:
    """Tell whether two rule values are the same, each only as itself: ``1`` is not ``True``."""
    return type(value) is type(other) and value == other


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def json_word(value: Value) -> str:
    """Return an allowed value as the JSON of the API writes it: ``true``, ``25``, ``any``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
