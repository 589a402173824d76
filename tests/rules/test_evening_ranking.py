"""The ranking of a club evening: series totals summed in the rule system's order, ties broken."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    RankingRow,
    SeriesScore,
    Treppenromme,
    find_variant,
    places_of,
    rank_evening,
)

RELAXED = settings(deadline=None)
TREPPENROMME = find_variant()
GERMAN_RUMMY = find_variant("german_rummy")


class LowestWins(Treppenromme):
    """A made-up rule system in which the lowest total is the best."""

    name = "lowest-wins"

    def ranking_value(self, total: int) -> int:
        return -total


def scores(**by_player):
    """Return one series: each player's (total, games won)."""
    return {player: SeriesScore(*score) for player, score in by_player.items()}


def table(rows):
    return [(row.player, row.total, row.place) for row in rows]


def test_a_players_evening_total_is_the_sum_of_their_series_totals():
    rows = rank_evening(
        TREPPENROMME,
        ["Ann", "Bob", "Cid"],
        [
            scores(Ann=(310, 3), Bob=(120, 1), Cid=(250, 2)),
            scores(Ann=(90, 1), Bob=(400, 4), Cid=(200, 2)),
        ],
    )
    assert rows == (
        RankingRow("Bob", 520, (120, 400), 5, 1),
        RankingRow("Cid", 450, (250, 200), 4, 2),
        RankingRow("Ann", 400, (310, 90), 4, 3),
    )


def test_minus_points_rank_the_least_negative_first():
    rows = rank_evening(
        GERMAN_RUMMY,
        ["Ann", "Bob", "Cid", "Dan"],
        [scores(Ann=(-120, 1), Bob=(-35, 3), Cid=(-310, 0), Dan=(0, 4))],
    )
    assert table(rows) == [("Dan", 0, 1), ("Bob", -35, 2), ("Ann", -120, 3), ("Cid", -310, 4)]


def test_the_rule_system_says_which_total_is_better():
    rows = rank_evening(LowestWins(), ["Ann", "Bob"], [scores(Ann=(80, 0), Bob=(20, 0))])
    assert table(rows) == [("Bob", 20, 1), ("Ann", 80, 2)]


def test_equal_totals_go_by_the_games_won():
    rows = rank_evening(TREPPENROMME, ["Ann", "Bob"], [scores(Ann=(300, 2), Bob=(300, 5))])
    assert table(rows) == [("Bob", 300, 1), ("Ann", 300, 2)]


def test_equal_totals_and_games_won_go_by_the_best_series():
    rows = rank_evening(
        TREPPENROMME,
        ["Ann", "Bob"],
        [scores(Ann=(250, 2), Bob=(300, 2)), scores(Ann=(250, 2), Bob=(200, 2))],
    )
    assert table(rows) == [("Bob", 500, 1), ("Ann", 500, 2)]


def test_the_best_series_of_minus_points_is_the_least_negative():
    rows = rank_evening(
        GERMAN_RUMMY,
        ["Ann", "Bob"],
        [scores(Ann=(-100, 1), Bob=(-20, 1)), scores(Ann=(-100, 1), Bob=(-180, 1))],
    )
    assert table(rows) == [("Bob", -200, 1), ("Ann", -200, 2)]


def test_equal_best_series_go_by_the_next_best():
    rows = rank_evening(
        TREPPENROMME,
        ["Ann", "Bob"],
        [
            scores(Ann=(300, 1), Bob=(300, 1)),
            scores(Ann=(100, 1), Bob=(150, 1)),
            scores(Ann=(200, 1), Bob=(150, 1)),
        ],
    )
    assert table(rows) == [("Ann", 600, 1), ("Bob", 600, 2)]


def test_players_equal_in_everything_share_the_place_and_the_next_place_is_skipped():
    rows = rank_evening(
        TREPPENROMME,
        ["Ann", "Bob", "Cid", "Dan"],
        [scores(Ann=(400, 3), Bob=(250, 2), Cid=(250, 2), Dan=(100, 1))],
    )
    assert [row.place for row in rows] == [1, 2, 2, 4]
    assert [row.shared for row in rows] == [False, True, True, False]
    assert [row.player for row in rows] == ["Ann", "Bob", "Cid", "Dan"]


def test_a_shared_place_lists_its_players_in_the_order_given():
    series = [scores(Ann=(250, 2), Bob=(250, 2))]
    assert [row.player for row in rank_evening(TREPPENROMME, ["Bob", "Ann"], series)] == [
        "Bob",
        "Ann",
    ]


def test_the_ranking_of_an_evening_before_its_first_game_ends_shares_first_place():
    rows = rank_evening(TREPPENROMME, ["Ann", "Bob"], [scores(Ann=(0, 0), Bob=(0, 0))])
    assert [row.place for row in rows] == [1, 1]


def test_a_player_without_a_score_in_a_series_is_the_callers_mistake():
    with pytest.raises(ValueError, match="series 2"):
        rank_evening(
            TREPPENROMME, ["Ann", "Bob"], [scores(Ann=(1, 0), Bob=(2, 0)), scores(Ann=(1, 0))]
        )


def test_places_are_shared_as_one_two_two_four():
    assert places_of(["a", "b", "b", "c", "c", "c", "d"]) == [1, 2, 2, 4, 4, 4, 7]
    assert places_of([]) == []


@st.composite
def evenings(draw):
    players = [f"P{number}" for number in range(draw(st.integers(6, 20)))]
    count = draw(st.integers(1, 4))
    series = [
        {
            player: SeriesScore(draw(st.integers(-60, 60)), draw(st.integers(0, 3)))
            for player in players
        }
        for _ in range(count)
    ]
    return players, series


@RELAXED
@given(evenings(), st.sampled_from([TREPPENROMME, GERMAN_RUMMY]))
def test_every_player_has_one_row_in_order_of_the_total_with_places_one_two_two_four(
    evening, system
):
    players, series = evening
    rows = rank_evening(system, players, series)
    assert sorted(row.player for row in rows) == sorted(players)
    assert rows[0].place == 1
    for row in rows:
        assert row.total == sum(row.series) == sum(s[row.player].total for s in series)
        assert row.games_won == sum(s[row.player].games_won for s in series)
    for before, after in itertools.pairwise(rows):
        assert before.total >= after.total
        if after.place == before.place:
            assert (before.total, before.games_won, sorted(before.series)) == (
                after.total,
                after.games_won,
                sorted(after.series),
            )
        else:
            assert after.place == rows.index(after) + 1
