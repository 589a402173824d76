"""A session after it started: a player renamed, another end chosen between games."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def seated(client: FlaskClient, **body: Any) -> dict[str, Any]:
    return ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"], **body}), 201)


def play_a_game(client: FlaskClient, session: dict[str, Any], hand: str = "K♠ Q♠") -> None:
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    ann, bob = (player["id"] for player in session["players"])
    meld = {"player": ann, "melds": ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"]}
    ok(client.post(f"{API}/games/{game['id']}/melds", json=meld), 201)
    finish = {"winner": ann, "hands": {str(bob): hand}}
    ok(client.post(f"{API}/games/{game['id']}/finish", json=finish))


def test_a_player_is_renamed_and_keeps_their_points(client: FlaskClient) -> None:
    session = seated(client)
    play_a_game(client, session)
    bob = session["players"][1]["id"]
    path = f"{API}/sessions/{session['id']}/players/{bob}"
    renamed = ok(client.patch(path, json={"name": "  Robert "}))
    assert [player["name"] for player in renamed["players"]] == ["Ann", "Robert"]
    assert renamed["totals"] == ok(client.get(f"{API}/sessions/{session['id']}"))["totals"]


@pytest.mark.parametrize("name", ["", "ann", "x" * 41])
def test_a_name_refused_at_the_start_is_refused_for_a_rename(
    client: FlaskClient, name: str
) -> None:
    session = seated(client)
    bob = session["players"][1]["id"]
    refused(client.patch(f"{API}/sessions/{session['id']}/players/{bob}", json={"name": name}), 422)
    assert ok(client.get(f"{API}/sessions/{session['id']}"))["players"][1]["name"] == "Bob"


def test_a_player_of_another_session_is_not_renamed_here(client: FlaskClient) -> None:
    session, other = seated(client), seated(client)
    stranger = other["players"][0]["id"]
    path = f"{API}/sessions/{session['id']}/players/{stranger}"
    refused(client.patch(path, json={"name": "Eve"}), 404, 422)


def test_the_target_changes_between_games(client: FlaskClient) -> None:
    session = seated(client)
    play_a_game(client, session)
    changed = ok(client.patch(f"{API}/sessions/{session['id']}", json={"target": 1000}))
    assert changed["target"] == 1000
    assert changed["rules"]["end"] == {"target": 1000}
    ann = str(session["players"][0]["id"])
    assert changed["to_go"][ann] == 1000 - changed["totals"][ann]
    games = ok(
        client.patch(f"{API}/sessions/{session['id']}", json={"rules": {"end": {"games": 3}}})
    )
    assert (games["target"], games["games_left"]) == (None, 2)


def test_the_end_does_not_change_while_a_game_is_open(client: FlaskClient) -> None:
    session = seated(client)
    ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    refused(client.patch(f"{API}/sessions/{session['id']}", json={"target": 1000}), 409)


def test_an_end_the_totals_passed_already_is_refused(client: FlaskClient) -> None:
    session = seated(client, rules={"end": {"games": 5}})
    play_a_game(client, session)
    answer = refused(
        client.patch(f"{API}/sessions/{session['id']}", json={"rules": {"end": {"games": 1}}}), 409
    )
    assert "over at once" in answer
    assert ok(client.get(f"{API}/sessions/{session['id']}"))["games_left"] == 4


def test_only_the_end_changes_after_the_start(client: FlaskClient) -> None:
    session = seated(client)
    body = {"rules": {"romme_doubling": "loser"}}
    refused(client.patch(f"{API}/sessions/{session['id']}", json=body), 422)
    refused(client.patch(f"{API}/sessions/{session['id']}", json={"target": 0}), 422)
    refused(client.patch(f"{API}/sessions/{session['id']}", json={}), 422)


def test_german_rummy_plays_to_another_limit(client: FlaskClient) -> None:
    session = seated(client, variant="german_rummy")
    play_a_game(client, session, hand="K♠ JKR")
    body = {"rules": {"end": {"limit": -100}}}
    changed = ok(client.patch(f"{API}/sessions/{session['id']}", json=body))
    bob = str(session["players"][1]["id"])
    assert changed["totals"][bob] == -40
    assert changed["to_go"][bob] == 60
    refused(
        client.patch(f"{API}/sessions/{session['id']}", json={"rules": {"end": {"limit": -40}}}),
        409,
    )


def test_a_change_needs_the_edit_key_and_gives_a_new_etag(client: FlaskClient) -> None:
    session = seated(client)
    path = f"{API}/sessions/{session['id']}"
    before = client.get(path).headers["ETag"]
    view = {"Authorization": f"Bearer {session['view_key']}"}
    refused(client.patch(path, json={"target": 700}, headers=view), 404)
    ok(client.patch(path, json={"target": 700}))
    assert client.get(path).headers["ETag"] != before
