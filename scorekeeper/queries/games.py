"""A game as the pages and the API show it: its players, entries, points and settlement."""

from __future__ import annotations

from collections.abc import Iterable

from scorekeeper import rules
from scorekeeper.store import BookedLine, GameState, unit_of_work


def read_game(game_id: int) -> GameState:
    """Return a game with its players, entries and settlement, or raise NotFoundError.

    The rows the request's key check read of the game are taken without asking again; the
    entries are read every time.
    """
    return unit_of_work().games.get(game_id, lock=False)


# A game with everything a page or a test asks of it: the settlement lines come with it.
get_game = read_game


def game_points(game: GameState) -> dict[int, int]:
    """Return each player's points in one game, settlement included once it has ended."""
    return game.points()


def hand_groupings(
    variant: rules.Variant, lines: Iterable[BookedLine]
) -> dict[int, rules.Grouping]:
    """Return how each booked hand split into matched and paid-for cards, where that matters."""
    groupings = {}
    for line in lines:
        grouping = variant.hand_grouping(variant.read_cards(line.hand)) if line.hand else None
        if grouping is not None:
            groupings[line.player_id] = grouping
    return groupings
