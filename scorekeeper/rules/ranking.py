"""The ranking of a club evening over its series, and of a club's season over its evenings.

An evening ranks its players in the rule system's own terms (E9, E10): a player's total is the
sum of their session totals, one per series; ties go by the games won, then by the best series;
a place still shared is shared as "1, 2, 2, 4". A season (E11) ranks the evenings' places:
each evening gives a player the number of players they finished ahead of, plus one.

>>> from scorekeeper.rules.variants import find_variant
>>> rows = rank_evening(
...     find_variant("german_rummy"),
...     ["Ann", "Bob", "Cid"],
...     [{"Ann": SeriesScore(-40, 2), "Bob": SeriesScore(-12, 1), "Cid": SeriesScore(-40, 2)}],
... )
>>> [(row.player, row.total, row.place) for row in rows]
[('Bob', -12, 1), ('Ann', -40, 2), ('Cid', -40, 2)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.rules.errors import SeasonError
from scorekeeper.rules.groups import People
from scorekeeper.rules.variants import Variant

__all__ = [
    "MOST_EVENINGS",
    "EveningPlaces",
    "RankingRow",
    "SeasonRow",
    "SeasonRule",
    "SeriesScore",
    "places_of",
    "rank_evening",
    "rank_season",
]

P = TypeVar("P", bound=Hashable)
K = TypeVar("K")

# A season of a club: a year of weekly evenings, and then some.
MOST_EVENINGS = 120


def places_of(keys: Sequence[K]) -> list[int]:
    """Return the places of keys listed best first: equal keys share a place, "1, 2, 2, 4".

    >>> places_of([9, 7, 7, 3])
    [1, 2, 2, 4]
    """
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


# --- an evening ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesScore:
    """A player's result in one series: their table's session total, and the games they won.

    A game won is a game the player went out in (an abandoned game has no winner).
    """

    total: int
    games_won: int = 0


@dataclass(frozen=True)
class RankingRow(Generic[P]):
    """A player's line of an evening's ranking: what the API answers for each player.

    ``series`` are the player's totals of each series so far, the first first; ``total`` is
    their sum; ``shared`` says another player holds the same place.
    """

    player: P
    total: int
    series: tuple[int, ...]
    games_won: int
    place: int
    shared: bool = False


def rank_evening(
    variant: Variant, players: Sequence[P], series: Sequence[Mapping[P, SeriesScore]]
) -> tuple[RankingRow[P], ...]:
    """Rank an evening's players over its series so far, best first (E9).

    ``series`` holds, for each series played or being played, every player's score at their
    table. The rule system says which total is better (``Variant.ranking_value``). Ties go by
    the games won over the evening, then by the best series, then the next best, and so on;
    players still equal share the place, listed in the order of ``players``.

    >>> from scorekeeper.rules.variants import find_variant
    >>> rows = rank_evening(find_variant(), ["Ann", "Bob"],
    ...                     [{"Ann": SeriesScore(300, 2), "Bob": SeriesScore(120, 1)},
    ...                      {"Ann": SeriesScore(100, 1), "Bob": SeriesScore(280, 2)}])
    >>> [(row.player, row.series, row.games_won, row.place) for row in rows]
    [('Ann', (300, 100), 3, 1), ('Bob', (120, 280), 3, 2)]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    lines = []
    for player in players:
        missing = [number for number, scores in enumerate(series, 1) if player not in scores]
        if missing:
            raise ValueError(f"{player!r} has no score in series {missing[0]}")
        scores = [played[player] for played in series]
        totals = tuple(score.total for score in scores)
        won = sum(score.games_won for score in scores)
        lines.append((player, sum(totals), totals, won))

    def order(line: tuple[P, int, tuple[int, ...], int]) -> tuple[int, int, tuple[int, ...]]:
        _player, total, totals, won = line
        best_first = tuple(sorted((variant.ranking_value(each) for each in totals), reverse=True))
        return variant.ranking_value(total), won, best_first

    # Sorting keeps the order of ``players`` among equals, also best first (reverse).
    lines.sort(key=order, reverse=True)
    keys = [order(line) for line in lines]
    places = places_of(keys)
    return tuple(
        RankingRow(
            player=player,
            total=total,
            series=totals,
            games_won=won,
            place=place,
            shared=places.count(place) > 1,
        )
        for (player, total, totals, won), place in zip(lines, places, strict=True)
    )


# --- a season --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonRule:
    """How a club's season ranks: over ``evenings`` evenings (None: as many as are held),
    counting each player's ``best`` evenings (None: all of them) (E11).

    >>> SeasonRule.from_request(evenings=12, best=7)
    SeasonRule(evenings=12, best=7)
    """

    evenings: int | None = None
    best: int | None = None

    @classmethod
    def from_request(
        cls, evenings: object = None, best: object = None, *, held: int = 0
    ) -> SeasonRule:
        """Return the season's rule as the club chose it, or raise why it cannot be.

        ``held`` is how many evenings of the season are held already: a season cannot have
        fewer evenings than that.

        >>> SeasonRule.from_request(evenings=12, best=13)
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.SeasonError: A season counts each player's best 1 to 12 \
evenings.
        """
        count = None
        if evenings is not None:
            low = max(1, held)
            count = _whole(evenings, low, MOST_EVENINGS)
            if count is None:
                raise SeasonError("season.evenings", low=low, high=MOST_EVENINGS)
        counted = None
        if best is not None:
            high = count or MOST_EVENINGS
            counted = _whole(best, 1, high)
            if counted is None:
                raise SeasonError("season.best", high=high)
        return cls(count, counted)


def _whole(value: object, low: int, high: int) -> int | None:
    """Return a value that is a whole number (not a truth value) from low to high, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


@dataclass(frozen=True)
class EveningPlaces:
    """An evening as a season ranks it: each player's name and place, best first.

    >>> EveningPlaces.from_ranking("e1", [RankingRow("Ann", 80, (80,), 2, 1)]).places
    (('Ann', 1),)
    """

    evening: str
    places: tuple[tuple[str, int], ...]

    @classmethod
    def from_ranking(cls, evening: str, rows: Iterable[RankingRow[str]]) -> EveningPlaces:
        """Return an evening's places from its ranking (the players by name)."""
        return cls(evening, tuple((row.player, row.place) for row in rows))

    @property
    def players(self) -> int:
        """Return how many players the evening ranked."""
        return len(self.places)

    def points(self, place: int) -> int:
        """Return what a place earns in the season: the players ranked, less the place, plus 1.

        The last of 12 earns 1, the first 12; two sharing second earn 11 each.

        >>> EveningPlaces("e1", tuple((f"P{n}", n) for n in range(1, 13))).points(1)
        12
        """
        return self.players - place + 1


@dataclass(frozen=True)
class SeasonRow:
    """A person's line of a season's ranking.

    ``person`` is their key in the club (merges followed), ``name`` the name they played under
    last; ``evenings`` their points of each evening in the order held (None: not there);
    ``counted`` which of those count (the best k); ``points`` the sum of those counted.
    """

    person: str
    name: str
    points: int
    evenings: tuple[int | None, ...]
    counted: tuple[bool, ...]
    place: int
    shared: bool = False

    @property
    def played(self) -> int:
        """Return how many of the season's evenings the person played."""
        return sum(1 for points in self.evenings if points is not None)


def rank_season(
    evenings: Sequence[EveningPlaces],
    rule: SeasonRule = SeasonRule(),
    people: People | None = None,
) -> tuple[SeasonRow, ...]:
    """Rank a club's season: each person's points of their best evenings (E11), best first.

    ``evenings`` in the order they were held. A person is known by the club's ``people``
    (names merged count as one). Ties go by the counted evenings' points, the best first;
    people still equal share the place, listed by name.

    >>> first = EveningPlaces("e1", (("Ann", 1), ("Bob", 2), ("Cid", 3)))
    >>> second = EveningPlaces("e2", (("Bob", 1), ("Cid", 2), ("Ann", 3)))
    >>> [(row.name, row.points, row.counted) for row in rank_season([first, second],
    ...                                                             SeasonRule(best=1))]
    [('Ann', 3, (True, False)), ('Bob', 3, (False, True)), ('Cid', 2, (False, True))]
    """
    if rule.evenings is not None and len(evenings) > rule.evenings:
        raise ValueError(f"the season has {rule.evenings} evenings, not {len(evenings)}")
    club = people or People()
    points: dict[str, list[int | None]] = {}
    names: dict[str, str] = {}
    for index, evening in enumerate(evenings):
        for name, place in evening.places:
            person = club.key(name)
            earned = points.setdefault(person, [None] * len(evenings))
            # Two names of one person at one evening (merged later): the better place counts.
            earned[index] = max(earned[index] or 0, evening.points(place))
            names[person] = name
    rows = []
    for person, earned in points.items():
        counted = _counted(earned, rule.best)
        total = sum(each for each, counts in zip(earned, counted, strict=True) if counts and each)
        best_first = tuple(
            sorted(
                (each or 0 for each, counts in zip(earned, counted, strict=True) if counts),
                reverse=True,
            )
        )
        rows.append((total, best_first, person, tuple(earned), counted))
    rows.sort(key=lambda row: _alphabetical(names[row[2]]))
    rows.sort(key=lambda row: (row[0], row[1]), reverse=True)
    places = places_of([(total, best_first) for total, best_first, *_ in rows])
    return tuple(
        SeasonRow(
            person=person,
            name=names[person],
            points=total,
            evenings=earned,
            counted=counted,
            place=place,
            shared=places.count(place) > 1,
        )
        for (total, _best, person, earned, counted), place in zip(rows, places, strict=True)
    )


def _counted(earned: Sequence[int | None], best: int | None) -> tuple[bool, ...]:
    """Return which evenings count: all played, or the best ``best`` (the earlier among equals)."""
    played = [index for index, each in enumerate(earned) if each is not None]
    if best is not None:
        played = sorted(played, key=lambda index: -(earned[index] or 0))[:best]
    return tuple(index in played for index in range(len(earned)))


def _alphabetical(name: str) -> tuple[str, str]:
    """Return how names sort: as in a dictionary, and "Anna" before "anna"."""
    return name.casefold(), name
