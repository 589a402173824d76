"""Who plays, in which seats, and to what target (who deals is the rule system's to say)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scorekeeper.rules.errors import SeatingError
from scorekeeper.rules.variants import TREPPENROMME, Variant

LONGEST_NAME = 40


def seat_players(names: Sequence[str], variant: Variant = TREPPENROMME) -> list[str]:
    """Return the player names in seating order (clockwise), tidied, or raise why not.

    >>> seat_players([" Ann ", "Bob"])
    ['Ann', 'Bob']
    """
    seated = [" ".join(name.split()) for name in names]
    low, high = variant.min_players, variant.max_players
    if not low <= len(seated) <= high:
        raise SeatingError(
            "seating.player_count", variant=variant, low=low, high=high, count=len(seated)
        )
    # Each refusal of a name says its seat, so that a form can show it beside that name.
    for seat, name in enumerate(seated):
        if not name:
            raise SeatingError("seating.no_name", seat=seat)
    for seat, name in enumerate(seated):
        if len(name) > LONGEST_NAME:
            raise SeatingError("seating.name_too_long", longest=LONGEST_NAME, seat=seat)
    # Control characters print as nothing or break a page; a name is something to read out.
    for seat, name in enumerate(seated):
        if any(unicodedata.category(character) == "Cc" for character in name):
            raise SeatingError("seating.name_unprintable", seat=seat)
    seen: set[str] = set()
    for seat, name in enumerate(seated):
        if name.casefold() in seen:
            raise SeatingError("seating.name_twice", name=name, seat=seat)
        seen.add(name.casefold())
    return seated


def check_target(target: int) -> int:
    """Return the target if it is a positive number of points, or raise."""
    if target < 1:
        raise SeatingError("seating.target")
    return target


def seating_problems(
    names: Sequence[str],
    target: int | None,
    first_dealer: int | None,
    variant: Variant = TREPPENROMME,
) -> dict[str, SeatingError]:
    """Return every reason a session cannot start so, by what it is about; none when it can.

    The keys are ``players``, ``target`` and ``first_dealer``, so a form can show each problem
    beside its field. ``None`` leaves the target or the first dealer (drawn by lot) unchecked.

    >>> list(seating_problems(["Ann", "ann"], 0, 2))
    ['players', 'target', 'first_dealer']
    >>> seating_problems(["Ann", "Bob"], 500, None)
    {}
    """
    problems: dict[str, SeatingError] = {}
    try:
        seat_players(names, variant)
    except SeatingError as error:
        problems["players"] = error
    if target is not None:
        try:
            check_target(target)
        except SeatingError as error:
            problems["target"] = error
    if first_dealer is not None and not 0 <= first_dealer < len(names):
        problems["first_dealer"] = SeatingError("seating.dealer_not_a_player")
    return problems
