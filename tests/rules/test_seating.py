"""Seating: every problem of a new session is found at once, each by what it is about."""

from __future__ import annotations

import pytest

from scorekeeper.rules import SeatingError, seating_problems


def test_a_playable_session_has_no_problems() -> None:
    assert seating_problems(["Ann", "Bob", "Cid"], 500, 2) == {}
    assert seating_problems(["Ann", "Bob"], 1, None) == {}  # the dealer drawn by lot


def test_every_problem_is_found_at_once_in_the_order_of_the_form() -> None:
    problems = seating_problems(["Ann", "ann"], 0, 2)
    assert list(problems) == ["players", "target", "first_dealer"]
    assert all(isinstance(problem, SeatingError) for problem in problems.values())
    assert [problem.message_id for problem in problems.values()] == [
        "seating.name_twice",
        "seating.target",
        "seating.dealer_not_a_player",
    ]


@pytest.mark.parametrize("first_dealer", [-1, 3, 4])
def test_the_first_dealer_must_sit_at_the_table(first_dealer: int) -> None:
    problems = seating_problems(["Ann", "Bob", "Cid"], 500, first_dealer)
    assert list(problems) == ["first_dealer"]


def test_an_unread_target_is_left_unchecked() -> None:
    assert seating_problems(["Ann", "Bob"], None, 0) == {}


@pytest.mark.parametrize(
    ("names", "seat"),
    [(["Ann", "Bob", "ann"], 2), (["Ann", " ", "Cid"], 1), (["Ann", "Bob\x07"], 1)],
)
def test_a_refused_name_says_its_seat(names: list[str], seat: int) -> None:
    assert seating_problems(names, 500, 0)["players"].params["seat"] == seat
