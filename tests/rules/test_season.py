"""A club's season: each evening's places as points, each person's best k of n evenings."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    EveningPlaces,
    SeasonError,
    SeasonRule,
    SeriesScore,
    find_variant,
    rank_evening,
    rank_season,
)
from scorekeeper.rules.groups import People


def evening(name, *places):
    """Return an evening of players at these places, best first."""
    return EveningPlaces(name, tuple(places))


def line(rows):
    return [(row.name, row.points, row.place) for row in rows]


def test_an_evening_earns_each_player_the_players_they_finished_ahead_of_plus_one():
    first = evening("e1", ("Ann", 1), ("Bob", 2), ("Cid", 3), ("Dan", 4))
    assert [first.points(place) for _name, place in first.places] == [4, 3, 2, 1]


def test_a_shared_place_earns_the_points_of_that_place():
    shared = evening("e1", ("Ann", 1), ("Bob", 2), ("Cid", 2), ("Dan", 4))
    assert [shared.points(place) for _name, place in shared.places] == [4, 3, 3, 1]


def test_the_season_adds_up_each_persons_evenings():
    rows = rank_season(
        [
            evening("e1", ("Ann", 1), ("Bob", 2), ("Cid", 3)),
            evening("e2", ("Cid", 1), ("Ann", 2), ("Bob", 3)),
        ]
    )
    assert line(rows) == [("Ann", 5, 1), ("Cid", 4, 2), ("Bob", 3, 3)]
    assert rows[0].evenings == (3, 2)
    assert rows[0].counted == (True, True)


def test_an_evening_missed_earns_nothing():
    rows = rank_season(
        [
            evening("e1", ("Ann", 1), ("Bob", 2), ("Cid", 3)),
            evening("e2", ("Bob", 1), ("Cid", 2)),
        ]
    )
    assert line(rows) == [("Bob", 4, 1), ("Ann", 3, 2), ("Cid", 2, 3)]
    ann = rows[1]
    assert ann.evenings == (3, None)
    assert ann.played == 1


def test_minus_points_of_an_evening_never_make_missing_it_better():
    # German Rummy: every player of the evening books minus points; the one who stayed away
    # would have had 0, the best total of all, if the season added totals.
    rows = rank_evening(
        find_variant("german_rummy"),
        ["Ann", "Bob"],
        [{"Ann": SeriesScore(-40, 2), "Bob": SeriesScore(-90, 1)}],
    )
    season = rank_season(
        [
            EveningPlaces.from_ranking("e1", rows),
            evening("e2", ("Cid", 1), ("Ann", 2), ("Bob", 3)),
        ]
    )
    assert line(season) == [("Ann", 4, 1), ("Cid", 3, 2), ("Bob", 2, 3)]


def test_the_best_k_evenings_count_and_the_others_are_shown_but_not_added():
    evenings = [
        evening("e1", ("Ann", 1), ("Bob", 2), ("Cid", 3)),
        evening("e2", ("Bob", 1), ("Cid", 2), ("Ann", 3)),
        evening("e3", ("Ann", 1), ("Cid", 2), ("Bob", 3)),
    ]
    rows = rank_season(evenings, SeasonRule.from_request(evenings=3, best=2))
    assert line(rows) == [("Ann", 6, 1), ("Bob", 5, 2), ("Cid", 4, 3)]
    assert rows[0].evenings == (3, 1, 3)
    assert rows[0].counted == (True, False, True)


def test_of_equal_evenings_the_earlier_counts():
    rows = rank_season(
        [evening("e1", ("Ann", 1), ("Bob", 2)), evening("e2", ("Ann", 1), ("Bob", 2))],
        SeasonRule(best=1),
    )
    assert rows[0].counted == (True, False)


def test_a_tie_goes_by_the_best_counted_evening_then_is_shared_in_order_of_the_names():
    rows = rank_season(
        [
            evening("e1", ("Ann", 1), ("Bob", 2), ("Cid", 3), ("Dan", 4)),
            evening("e2", ("Dan", 1), ("Cid", 2), ("Bob", 3), ("Ann", 4)),
            evening("e3", ("bea", 1), ("Eve", 2), ("Fay", 3), ("Gus", 4)),
        ]
    )
    # Ann and Dan: 4 + 1; Bob and Cid: 3 + 2; all have 5. Ann and Dan had a 4.
    assert [(row.name, row.points, row.place) for row in rows[:4]] == [
        ("Ann", 5, 1),
        ("Dan", 5, 1),
        ("Bob", 5, 3),
        ("Cid", 5, 3),
    ]
    assert rows[0].shared and rows[2].shared
    assert [row.name for row in rows[4:]] == ["bea", "Eve", "Fay", "Gus"]


def test_names_merged_in_the_club_are_one_person_under_the_name_played_last():
    rows = rank_season(
        [
            evening("e1", ("Anni", 1), ("Bob", 2)),
            evening("e2", ("Bob", 1), ("Anna", 2)),
        ],
        people=People([("Anni", "Anna")]),
    )
    assert [(row.person, row.name, row.points) for row in rows] == [
        ("anna", "Anna", 3),
        ("bob", "Bob", 3),
    ]


def test_two_names_of_one_person_at_one_evening_count_the_better_place():
    rows = rank_season(
        [evening("e1", ("Anni", 1), ("Bob", 2), ("Anna", 3))], people=People([("Anni", "Anna")])
    )
    assert rows[0].person == "anna"
    assert rows[0].points == 3


def test_a_season_counts_between_one_and_all_of_its_evenings():
    assert SeasonRule.from_request() == SeasonRule(None, None)
    assert SeasonRule.from_request(best=7) == SeasonRule(None, 7)
    with pytest.raises(SeasonError) as refused:
        SeasonRule.from_request(evenings=12, best=0)
    assert str(refused.value) == "A season counts each player's best 1 to 12 evenings."
    with pytest.raises(SeasonError):
        SeasonRule.from_request(evenings=12, best=True)


def test_a_season_cannot_have_fewer_evenings_than_are_held():
    with pytest.raises(SeasonError) as refused:
        SeasonRule.from_request(evenings=4, held=5)
    assert str(refused.value) == "A season has 5 to 120 evenings."


def test_more_evenings_than_the_season_has_are_the_callers_mistake():
    with pytest.raises(ValueError, match="2 evenings"):
        rank_season(
            [evening("e1", ("Ann", 1)), evening("e2", ("Ann", 1)), evening("e3", ("Ann", 1))],
            SeasonRule(evenings=2),
        )


def test_a_seasons_refusal_reads_in_german():
    with pytest.raises(SeasonError) as refused:
        SeasonRule.from_request(evenings=12, best=13)
    assert refused.value.message("de") == (
        "Eine Saison zählt für jeden Spieler die besten 1 bis 12 Spielabende."
    )
