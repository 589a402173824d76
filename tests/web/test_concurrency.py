"""Two phones at once: concurrent requests against a real server are never lost or doubled."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.live import send as call

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def all_at_once(requests: list[tuple[str, str, Any]], base: str, key: str) -> list[tuple[int, Any]]:
    """Send the requests from one thread each, released together."""
    results: list[tuple[int, Any]] = [(0, None)] * len(requests)
    barrier = threading.Barrier(len(requests))

    def send(index: int) -> None:
        barrier.wait()
        results[index] = call(base, *requests[index], key=key)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def new_game(base: str) -> tuple[int, list[int], str]:
    """Start a session and its first game; return the game, the players and the edit key."""
    status, session = call(base, "POST", "/api/v1/sessions", {"players": ["Ann", "Bob", "Cid"]})
    assert status == 201
    key = session["edit_key"]
    status, game = call(base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    assert status == 201
    return game["id"], [player["id"] for player in session["players"]], key


def test_the_same_meld_sent_twelve_times_at_once_is_recorded_once(shared_server: str) -> None:
    game_id, players, key = new_game(shared_server)
    body = {"player": players[0], "cards": "6♠ 6♥ 6♦"}
    results = all_at_once(
        [("POST", f"/api/v1/games/{game_id}/melds", body)] * 12, shared_server, key
    )

    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [422] * 11
    assert all(
        "already on the table" in answer["error"] for status, answer in results if status == 422
    )
    _, game = call(shared_server, "GET", f"/api/v1/games/{game_id}", key=key)
    assert [entry["cards"] for entry in game["entries"]] == [["6♠", "6♥", "6♦"]]


def test_different_melds_sent_at_once_are_all_recorded_in_distinct_places(
    shared_server: str,
) -> None:
    game_id, players, key = new_game(shared_server)
    melds = ["2♠ 3♠ 4♠", "7♥ 7♦ 7♣", "J♦ Q♦ K♦", "9♣ 10♣ J♣", "4♥ 5♥ 6♥", "A♠ A♥ A♦"]
    requests = [
        ("POST", f"/api/v1/games/{game_id}/melds", {"player": players[i % 3], "cards": cards})
        for i, cards in enumerate(melds)
    ]
    results = all_at_once(requests, shared_server, key)

    assert [status for status, _ in results] == [201] * len(melds)
    _, game = call(shared_server, "GET", f"/api/v1/games/{game_id}", key=key)
    assert len(game["entries"]) == len(melds)
    assert len({entry["position"] for entry in game["entries"]}) == len(melds)
    assert sum(game["points"].values()) == sum(answer["value"] for _, answer in results)


def test_two_phones_laying_off_the_same_card_at_once_book_it_once(shared_server: str) -> None:
    game_id, players, key = new_game(shared_server)
    _, meld = call(
        shared_server,
        "POST",
        f"/api/v1/games/{game_id}/melds",
        {"player": players[0], "cards": "J♦ Q♦ K♦"},
        key,
    )
    requests = [
        (
            "POST",
            f"/api/v1/games/{game_id}/layoffs",
            {"player": p, "meld": meld["id"], "cards": "A♦"},
        )
        for p in players[1:]
    ] * 3
    results = all_at_once(requests, shared_server, key)

    assert sorted(status for status, _ in results) == [201] + [422] * 5
    _, game = call(shared_server, "GET", f"/api/v1/games/{game_id}", key=key)
    assert game["melds"][0]["cards"] == ["J♦", "Q♦", "K♦", "A♦"]
    assert sum(game["points"].values()) == 30 + 10


def test_reopening_a_game_and_starting_the_next_at_once_leave_one_game_open(
    shared_server: str,
) -> None:
    game_id, players, key = new_game(shared_server)
    call(
        shared_server,
        "POST",
        f"/api/v1/games/{game_id}/melds",
        {"player": players[0], "cards": "2♠ 3♠ 4♠"},
        key,
    )
    hands = {str(players[1]): "K♣", str(players[2]): "2♥"}
    status, finished = call(
        shared_server,
        "POST",
        f"/api/v1/games/{game_id}/finish",
        {"winner": players[0], "hands": hands},
        key,
    )
    assert status == 200
    session_id = finished["session"]["id"]
    requests = [
        ("POST", f"/api/v1/games/{game_id}/reopen", None),
        ("POST", f"/api/v1/sessions/{session_id}/games", None),
    ] * 4
    results = all_at_once(requests, shared_server, key)

    assert all(status in (200, 201, 409) for status, _ in results), results
    _, session = call(shared_server, "GET", f"/api/v1/sessions/{session_id}", key=key)
    open_games = [game for game in session["games"] if game["status"] == "open"]
    assert len(open_games) == 1
    assert session["current_game"] == open_games[0]["id"]
    if open_games[0]["id"] == game_id:  # reopened: its booking is off the totals
        assert session["totals"] == {str(players[0]): 9, str(players[1]): 0, str(players[2]): 0}
