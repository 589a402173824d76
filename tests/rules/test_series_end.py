"""When a series of a club evening ends: after a number of games, or the game played at time up."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper.rules import SeriesEnd, SeriesPlanError, find_variant

START = datetime(2024, 11, 8, 19, 0, tzinfo=UTC)


def at(minutes):
    return START + timedelta(minutes=minutes)


def test_a_series_of_games_ends_when_the_last_of_them_ends():
    end = SeriesEnd.after_games(3)
    assert not end.progress(games_ended=2, game_in_progress=False).over  # deal the third
    third = end.progress(games_ended=2, game_in_progress=True)
    assert third.last_game and not third.over and third.games_left == 1
    assert end.progress(games_ended=3, game_in_progress=False).over


def test_a_series_of_games_counts_the_games_left():
    progress = SeriesEnd.after_games(20).progress(games_ended=5, game_in_progress=True)
    assert progress.games_left == 15
    assert not progress.last_game and not progress.time_up and progress.deadline is None


def test_before_the_minutes_run_out_another_game_is_dealt():
    end = SeriesEnd.after_minutes(120)
    progress = end.progress(games_ended=7, game_in_progress=False, started=START, now=at(119))
    assert not progress.over and not progress.time_up
    assert progress.deadline == at(120)
    assert progress.games_left is None


def test_the_game_being_played_when_the_minutes_run_out_is_the_last():
    end = SeriesEnd.after_minutes(120)
    playing = end.progress(games_ended=7, game_in_progress=True, started=START, now=at(120))
    assert playing.last_game and playing.time_up and not playing.over
    ended = end.progress(games_ended=8, game_in_progress=False, started=START, now=at(131))
    assert ended.over


def test_a_game_ending_just_before_time_up_is_followed_by_one_more():
    end = SeriesEnd.after_minutes(120)
    assert not end.progress(games_ended=8, game_in_progress=False, started=START, now=at(118)).over
    last = end.progress(games_ended=8, game_in_progress=True, started=START, now=at(121))
    assert last.last_game


def test_a_table_that_had_not_ended_a_game_when_time_ran_out_still_plays_one():
    end = SeriesEnd.after_minutes(30)
    progress = end.progress(games_ended=0, game_in_progress=False, started=START, now=at(45))
    assert progress.time_up and not progress.over


def test_a_series_of_minutes_needs_its_start_and_the_time_now():
    with pytest.raises(ValueError, match="start"):
        SeriesEnd.after_minutes(30).progress(games_ended=1, game_in_progress=False)


def test_a_series_ends_after_games_or_minutes_and_says_which():
    assert SeriesEnd.from_request(games_per_series=20) == SeriesEnd.after_games(20)
    assert SeriesEnd.from_request(minutes_per_series=120) == SeriesEnd(minutes=120)
    assert SeriesEnd.after_games(20).said().render("en") == "20 games a series"
    assert SeriesEnd.after_games(1).said().render("en") == "1 game a series"
    assert repr(SeriesEnd.after_minutes(90)) == "SeriesEnd.after_minutes(90)"
    assert eval(repr(SeriesEnd.after_games(20))) == SeriesEnd.after_games(20)


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        ({}, "Give the number of games per series, or the minutes per series."),
        (
            {"games_per_series": 20, "minutes_per_series": 120},
            "Give the number of games per series or the minutes per series, not both.",
        ),
        ({"games_per_series": 0}, "A series has 1 to 100 games."),
        ({"games_per_series": 101}, "A series has 1 to 100 games."),
        ({"games_per_series": True}, "A series has 1 to 100 games."),
        ({"games_per_series": "20"}, "A series has 1 to 100 games."),
        ({"minutes_per_series": 5}, "A series lasts 10 to 480 minutes."),
    ],
)
def test_an_end_of_a_series_that_cannot_be_is_refused_in_plain_words(chosen, message):
    with pytest.raises(SeriesPlanError) as refused:
        SeriesEnd.from_request(**chosen)
    assert str(refused.value) == message


def test_a_series_end_of_both_or_neither_is_the_callers_mistake():
    with pytest.raises(ValueError, match="not both"):
        SeriesEnd(games=3, minutes=30)
    with pytest.raises(ValueError, match="not both"):
        SeriesEnd()


@pytest.mark.parametrize("name", ["treppenromme", "german_rummy", "boathouse_rum", "rummy_500"])
def test_a_table_of_a_series_of_games_plays_its_rule_system_to_that_many_games(name):
    table = SeriesEnd.after_games(6).table_rules(find_variant(name, {}))
    assert table.name == name
    assert table.standing({"Ann": 10, "Bob": 3}, 5).winner is None
    assert table.standing({"Ann": 10, "Bob": 3}, 6).winner == "Ann"


def test_a_table_of_a_series_of_minutes_is_ended_by_the_clock_not_by_a_target():
    table = SeriesEnd.after_minutes(60).table_rules(find_variant())
    assert not table.standing({"Ann": 5000, "Bob": 3}, 40).over
