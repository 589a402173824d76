"""What an organiser chooses for a club evening, checked: every problem found at once."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    EveningPlan,
    EveningPlayersError,
    HouseRuleError,
    RulesError,
    SeatingError,
    SeatingMode,
    SeatingModeError,
    SeriesEnd,
    SeriesPlanError,
    TableSizeError,
    evening_players,
    evening_problems,
    find_variant,
    table_sizes,
)

EIGHT = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]


def test_an_evening_is_planned_with_its_rule_system_tables_series_and_end():
    plan = EveningPlan.from_request(
        variant="german_rummy",
        house_rules={"joker_in_hand": 25},
        players=[f"P{number}" for number in range(1, 18)],
        series=4,
        minutes_per_series=120,
        table_size=6,
        seating="drawn",
    )
    assert plan.variant == find_variant("german_rummy", {"joker_in_hand": 25})
    assert plan.series == 4
    assert plan.end == SeriesEnd.after_minutes(120)
    assert plan.tables == (6, 6, 5)
    assert plan.seating is SeatingMode.DRAWN
    assert not plan.small_tables


def test_an_evening_without_choices_plays_treppenromme_at_tables_of_four_seated_by_standing():
    plan = EveningPlan.from_request(players=EIGHT, series=2, games_per_series=10)
    assert plan.variant == find_variant()
    assert plan.table_size == 4
    assert plan.tables == (4, 4)
    assert plan.seating is SeatingMode.STANDING


def test_the_players_names_are_tidied_as_a_sessions_are():
    plan = EveningPlan.from_request(
        players=[" Ann ", "Bob", "Cid", "Dan", "Eve", "Fay"], series=1, games_per_series=5
    )
    assert plan.players[0] == "Ann"


def test_every_problem_of_an_evening_is_found_at_once_in_the_order_of_the_form():
    problems = evening_problems(
        variant="german_rummy",
        house_rules={"end": {"games": 5}},
        players=["Ann", "ann", "Bob", "Cid", "Dan", "Eve"],
        series=13,
        games_per_series=5,
        minutes_per_series=60,
        table_size=7,
        seating="random",
    )
    assert list(problems) == ["variant", "players", "table_size", "series", "series_end", "seating"]
    assert [type(problem) for problem in problems.values()] == [
        SeriesPlanError,
        SeatingError,
        TableSizeError,
        SeriesPlanError,
        SeriesPlanError,
        SeatingModeError,
    ]
    assert str(problems["variant"]) == (
        "At an evening every table plays until its series ends: the house rule “end” is not "
        "chosen for an evening."
    )
    assert problems["table_size"].params["high"] == 6  # German Rummy's tables, not the default's
    assert str(problems["seating"]) == (
        "Later series are seated by the standing (“standing”) or drawn again (“drawn”), not "
        "“random”."
    )


def test_a_planned_evening_raises_its_first_problem():
    with pytest.raises(HouseRuleError):
        EveningPlan.from_request(variant="skat", players=EIGHT, series=2, games_per_series=5)
    with pytest.raises(EveningPlayersError) as refused:
        EveningPlan.from_request(players=EIGHT[:5], series=2, games_per_series=5)
    assert str(refused.value) == "An evening is for 6 to 60 players; 5 were entered."


def test_the_table_size_is_checked_against_the_players_once_they_are_right():
    problems = evening_problems(players=EIGHT[:7], series=2, games_per_series=5, table_size=3)
    assert problems["table_size"].message_id == "evening.table_of_two"
    problems = evening_problems(players=EIGHT[:5], series=2, games_per_series=5, table_size=3)
    assert "table_size" not in problems
    problems = evening_problems(players=EIGHT[:5], series=2, games_per_series=5, table_size=2)
    assert problems["table_size"].message_id == "evening.small_tables"


def test_an_evening_with_small_tables_allowed_seats_tables_of_two():
    plan = EveningPlan.from_request(
        players=EIGHT[:7], series=1, games_per_series=5, table_size=3, small_tables=True
    )
    assert plan.tables == (3, 2, 2)


@pytest.mark.parametrize("table_size", [0, 5, True, "4"])
def test_a_table_size_the_rule_system_does_not_seat_is_refused(table_size):
    problems = evening_problems(players=EIGHT, series=2, games_per_series=5, table_size=table_size)
    assert problems["table_size"].message_id == "evening.table_size"


@pytest.mark.parametrize("series", [0, 13, None, 2.5])
def test_an_evening_has_one_to_twelve_series(series):
    problems = evening_problems(players=EIGHT, series=series, games_per_series=5)
    assert str(problems["series"]) == "An evening has 1 to 12 series."


def test_an_unknown_house_rule_is_refused_as_for_a_session():
    problems = evening_problems(
        variant="boathouse_rum",
        house_rules={"opening": 40},
        players=EIGHT,
        series=1,
        games_per_series=5,
    )
    assert isinstance(problems["variant"], HouseRuleError)


def test_the_players_of_an_evening_are_checked_as_a_sessions():
    with pytest.raises(SeatingError) as refused:
        evening_players(["Ann", "Bob", "Cid", "Dan", "Eve", "ANN"])
    assert refused.value.params["seat"] == 5
    assert len(evening_players([f"P{number}" for number in range(60)])) == 60


@pytest.mark.parametrize(
    ("refuse", "german"),
    [
        pytest.param(
            lambda: evening_players(["Ann"] * 5),
            "Ein Spielabend ist für 6 bis 60 Spieler; 5 wurden eingegeben.",
            id="players",
        ),
        pytest.param(
            lambda: table_sizes(13, 6, find_variant("german_rummy")),
            "13 Spieler lassen sich nicht auf Tische mit 6 und 5 verteilen: Tische mit 4 oder 5 "
            "wählen.",
            id="tables split",
        ),
        pytest.param(
            lambda: table_sizes(7, 3),
            "7 Spieler an Tischen mit 3 bräuchten einen Zweiertisch, den die Spielleitung nicht "
            "erlaubt hat: Tische mit 4 wählen oder Zweiertische erlauben.",
            id="table of two",
        ),
        pytest.param(
            lambda: EveningPlan.from_request(
                players=EIGHT, series=2, games_per_series=5
            ).check_next_series(1, [False, False]),
            "Serie 1 wird an den Tischen 1 und 2 noch gespielt: die nächste Serie wird gesetzt, "
            "wenn jeder Tisch fertig ist.",
            id="next series",
        ),
        pytest.param(
            lambda: EveningPlan.from_request(
                players=EIGHT, series=2, games_per_series=5
            ).check_redraw(1, [2]),
            "Serie 1 kann nicht neu ausgelost werden: an Tisch 2 wird schon gespielt.",
            id="redraw",
        ),
        pytest.param(
            lambda: SeriesEnd.from_request(),
            "Bitte die Zahl der Spiele je Serie oder die Minuten je Serie angeben.",
            id="series end",
        ),
    ],
)
def test_the_refusals_of_an_evening_read_in_german(refuse, german):
    with pytest.raises(RulesError) as refused:
        refuse()
    assert refused.value.message("de") == german


def test_the_end_of_a_series_is_said_in_german():
    assert SeriesEnd.after_games(20).said().render("de") == "20 Spiele je Serie"
    assert SeriesEnd.after_minutes(120).said().render("de") == (
        "120 Minuten je Serie; das dann laufende Spiel ist das letzte"
    )
