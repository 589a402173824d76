"""Booking an ended game onto a session's totals: what it books, and whether the session ends."""

from __future__ import annotations

from scorekeeper.rules import book_game, find_variant, take_back

TREPPENROMME = find_variant("treppenromme")


def test_a_game_books_each_players_melds_and_settlement_onto_their_total() -> None:
    booking = book_game(
        TREPPENROMME, 1, {"Ann": 100, "Bob": 40}, {"Ann": 30, "Bob": 12}, {"Ann": 25, "Bob": 0}
    )
    assert booking.booked == {"Ann": 55, "Bob": 12}
    assert booking.totals == {"Ann": 155, "Bob": 52}
    assert not booking.session_won


def test_a_player_not_dealt_in_keeps_their_total() -> None:
    booking = book_game(
        TREPPENROMME,
        4,
        {"Ann": 100, "Bob": 40, "Cid": 70},
        {"Ann": 5, "Bob": 0},
        {"Ann": 9, "Bob": 0},
    )
    assert booking.totals == {"Ann": 114, "Bob": 40, "Cid": 70}
    assert "Cid" not in booking.booked


def test_the_game_that_takes_a_player_past_the_target_ends_the_session() -> None:
    booking = book_game(
        TREPPENROMME, 7, {"Ann": 490, "Bob": 400}, {"Ann": 10, "Bob": 0}, {"Ann": 5, "Bob": 0}
    )
    assert booking.session_won
    assert booking.standing.winner == "Ann"


def test_a_tie_at_the_top_past_the_target_plays_on() -> None:
    booking = book_game(
        TREPPENROMME, 7, {"Ann": 490, "Bob": 500}, {"Ann": 10, "Bob": 0}, {"Ann": 0, "Bob": 0}
    )
    assert not booking.session_won
    assert booking.standing.tie_at_top


def test_a_player_who_left_does_not_win_the_session_on_their_old_points() -> None:
    # Cid left with the most points; a reopened game before he left is booked again.
    booking = book_game(
        TREPPENROMME,
        2,
        {"Ann": 480, "Bob": 100, "Cid": 900},
        {"Ann": 20, "Bob": 0, "Cid": 0},
        {"Ann": 10, "Bob": 0, "Cid": 0},
        seated={"Ann", "Bob"},
    )
    assert booking.standing.winner == "Ann"
    assert booking.totals["Cid"] == 900


def test_a_session_of_a_number_of_games_ends_with_its_last_game() -> None:
    five_games = find_variant("treppenromme", {"end": {"games": 5}})
    before = book_game(
        five_games, 4, {"Ann": 10, "Bob": 0}, {"Ann": 0, "Bob": 0}, {"Ann": 0, "Bob": 0}
    )
    last = book_game(
        five_games, 5, {"Ann": 10, "Bob": 0}, {"Ann": 0, "Bob": 0}, {"Ann": 0, "Bob": 0}
    )
    assert (before.session_won, last.session_won) == (False, True)


def test_taking_a_game_back_takes_off_what_it_booked() -> None:
    totals = {"Ann": 100, "Bob": 40, "Cid": 70}
    booking = book_game(TREPPENROMME, 3, totals, {"Ann": 5, "Bob": -3}, {"Ann": 9, "Bob": 0})
    assert take_back(booking.totals, booking.booked) == totals
