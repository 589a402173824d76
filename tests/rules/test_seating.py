"""Seating: every problem of a new session is found at once; who is dealt in; what can go."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    DealtGame,
    LaterGame,
    ReopenRefusal,
    Seating,
    SeatingError,
    Stay,
    find_variant,
    first_dealer_after_joining,
    first_dealer_after_leaving,
    seating_problems,
)


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


# --- who is dealt in, and which game can go ----------------------------------------------------


def test_a_player_is_dealt_in_from_the_game_they_joined_until_the_game_they_left() -> None:
    seating = Seating((Stay(), Stay(left=3), Stay(joined=3)))  # Ann; Bob left, Dan joined
    assert [seating.dealt_in(number) for number in (1, 2, 3, 4)] == [[0, 1], [0, 1], [0, 2], [0, 2]]


def test_a_game_can_go_when_the_seating_changed_before_it_was_dealt() -> None:
    # Dan joined after game 1: game 2 was dealt with him, and the game dealt again will be.
    assert Seating((Stay(), Stay(), Stay(joined=2))).can_remove(2)
    assert Seating((Stay(), Stay(left=2), Stay())).can_remove(2)


@pytest.mark.parametrize(
    "stays",
    [
        (Stay(), Stay(), Stay(joined=3)),  # Dan joined after game 2
        (Stay(), Stay(left=3), Stay()),  # Bob left after game 2
        (Stay(), Stay(left=3), Stay(joined=2)),  # Bob left after game 2, Dan came before it
    ],
)
def test_a_game_cannot_go_when_the_seating_changed_after_it_was_dealt(
    stays: tuple[Stay, ...],
) -> None:
    seating = Seating(stays)
    assert seating.changed_after(2)
    assert not seating.can_remove(2)


@pytest.mark.parametrize(
    ("later", "refusal"),
    [
        ([], None),  # the last game dealt: nothing in the way
        ([LaterGame(3, still_open=True, played=False)], None),  # the next game goes with it
        ([LaterGame(3, still_open=True, played=True)], ("later_game_played", 3)),
        ([LaterGame(3, still_open=False, played=False)], ("later_game_played", 3)),
        (
            [LaterGame(3, still_open=False, played=False), LaterGame(4, True, False)],
            ("later_game_played", 3),
        ),
        ([LaterGame(4, still_open=True, played=False)], ("later_game_played", 4)),
    ],
)
def test_a_game_reopens_only_when_the_game_dealt_after_it_can_go(
    later: list[LaterGame], refusal: tuple[str, int] | None
) -> None:
    answer = Seating((Stay(), Stay(), Stay(joined=3))).reopen_refusal(2, later)
    assert answer == (ReopenRefusal(refusal[0], 2, refusal[1]) if refusal else None)


def test_a_game_does_not_reopen_when_the_seating_changed_after_the_next_was_dealt() -> None:
    # Dan joined after game 2 was dealt: game 2 cannot go for a reopen of game 1.
    seating = Seating((Stay(), Stay(), Stay(joined=3)))
    next_game = [LaterGame(2, still_open=True, played=False)]
    assert seating.reopen_refusal(1, next_game) == ReopenRefusal("seating_changed_after", 1, 2)


# A session as the seating sees it: the stays of its players, and how many games were dealt.
Steps = st.lists(st.sampled_from(["deal", "seat", "leave", "remove"]), max_size=40)


@settings(deadline=None)
@given(Steps, st.data())
def test_whatever_is_dealt_removed_and_changed_the_next_game_deals_in_who_sits_at_the_table(
    steps: list[str], data: st.DataObject
) -> None:
    stays, dealt = [Stay(), Stay()], 0
    for step in steps:
        coming = dealt + 1
        seated = [at for at, stay in enumerate(stays) if stay.left is None]
        if step == "deal":
            dealt = coming
        elif step == "seat":
            stays.append(Stay(joined=coming))
        elif step == "leave" and len(seated) > 2:
            at = data.draw(st.sampled_from(seated))
            if stays[at].joined == coming:
                del stays[at]  # who played no game goes without a trace
            else:
                stays[at] = Stay(stays[at].joined, coming)
        elif step == "remove" and dealt > 0 and Seating(tuple(stays)).can_remove(dealt):
            dealt -= 1
        seated = [at for at, stay in enumerate(stays) if stay.left is None]
        assert Seating(tuple(stays)).dealt_in(dealt + 1) == seated


def test_without_asking_the_seating_a_removed_game_leaves_a_change_for_a_game_not_dealt_next() -> (
    None
):
    # The reported sequence: the change after game 2 counts from game 3, but game 2 is dealt next.
    seating = Seating((Stay(), Stay(left=3), Stay(), Stay(joined=3)))  # Ann, Bob, Cid, Dan
    assert seating.dealt_in(2) == [0, 1, 2]  # Bob, who left, and not Dan, who sits there
    assert not seating.can_remove(2)


def test_the_first_game_is_dealt_by_the_first_dealer_among_those_dealt_in() -> None:
    seating = Seating((Stay(), Stay(), Stay(), Stay(joined=2)))
    assert seating.dealer(find_variant(), 2, None) == 2


def test_an_open_game_is_dealt_by_its_own_dealer_whoever_left_since() -> None:
    seating = Seating((Stay(), Stay(left=3), Stay()))
    last = DealtGame(2, dealer=1, winner=None, still_open=True)
    assert seating.dealer(find_variant(), 0, last) == 1


def test_the_deal_passes_to_the_left_of_the_last_dealer() -> None:
    seating = Seating((Stay(), Stay(), Stay()))
    last = DealtGame(1, dealer=2, winner=1, still_open=False)
    assert seating.dealer(find_variant(), 0, last) == 0


@pytest.mark.parametrize(
    ("stays", "dealer", "deals"),
    [
        # Bob dealt and left: Cid, who sat after him, deals.
        ((Stay(), Stay(left=2), Stay(), Stay()), 1, 2),
        # The last in the seating dealt and left: the deal goes round to the first.
        ((Stay(), Stay(), Stay(left=2)), 2, 0),
        # The dealer left and the player after them too: the next one still seated deals.
        ((Stay(), Stay(left=2), Stay(left=2), Stay()), 1, 3),
    ],
)
def test_after_the_dealer_left_the_player_after_them_still_at_the_table_deals(
    stays: tuple[Stay, ...], dealer: int, deals: int
) -> None:
    last = DealtGame(1, dealer=dealer, winner=None, still_open=False)
    assert Seating(stays).dealer(find_variant(), 0, last) == deals


def test_a_newcomer_sitting_between_the_dealer_and_the_next_is_dealt_to_next() -> None:
    seating = Seating((Stay(), Stay(), Stay(joined=2), Stay()))
    last = DealtGame(1, dealer=1, winner=0, still_open=False)
    assert seating.dealer(find_variant(), 0, last) == 2


def test_with_two_players_left_the_winner_deals_the_next_boathouse_game() -> None:
    seating = Seating((Stay(), Stay(left=2), Stay()))
    last = DealtGame(1, dealer=0, winner=0, still_open=False)
    assert seating.dealer(find_variant("boathouse_rum"), 0, last) == 0
    assert seating.dealer(find_variant(), 0, last) == 2  # the left neighbour still seated


@pytest.mark.parametrize(
    ("first", "seat", "coming", "after"),
    [(1, 0, 1, 2), (1, 1, 1, 2), (1, 2, 1, 1), (1, 0, 2, 1), (0, 3, 1, 0)],
)
def test_a_newcomer_before_the_first_game_leaves_the_first_dealer_dealing_it(
    first: int, seat: int, coming: int, after: int
) -> None:
    assert first_dealer_after_joining(first, seat, coming) == after


@pytest.mark.parametrize(
    ("first", "seat", "coming", "staying", "after"),
    [
        (2, 0, 1, 3, 1),  # someone before the first dealer left: their seat moves back
        (1, 2, 1, 3, 1),  # someone after them left: unchanged
        (2, 2, 1, 2, 0),  # the first dealer left from the last seat: the first seat deals
        (1, 1, 1, 3, 1),  # the first dealer left: the player after them deals
        (2, 0, 3, 3, 2),  # after the first game the first dealer's seat no longer counts
    ],
)
def test_a_player_leaving_before_the_first_game_moves_the_first_deal_to_whom_it_falls(
    first: int, seat: int, coming: int, staying: int, after: int
) -> None:
    assert first_dealer_after_leaving(first, seat, coming, staying) == after
