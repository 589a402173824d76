"""Players join and leave a session between games, through the API."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def seated(client: FlaskClient, names: list[str], **body: Any) -> dict[str, Any]:
    return ok(client.post(f"{API}/sessions", json={"players": names, **body}), 201)


def ids(session: dict[str, Any]) -> dict[str, int]:
    everyone = [*session["players"], *session.get("left", [])]
    return {player["name"]: player["id"] for player in everyone}


def play(
    client: FlaskClient,
    session: dict[str, Any],
    winner: str,
    melds: dict[str, str],
    hands: dict[str, str],
) -> dict[str, Any]:
    """Deal the next game, record the melds in order, settle it; return the game's answer."""
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    players = ids(session)
    for name, cards in melds.items():
        body = {"player": players[name], "cards": cards}
        ok(client.post(f"{API}/games/{game['id']}/melds", json=body), 201)
    finish = {
        "winner": players[winner],
        "hands": {str(players[name]): hand for name, hand in hands.items()},
    }
    ok(client.post(f"{API}/games/{game['id']}/finish", json=finish))
    return ok(client.get(f"{API}/games/{game['id']}"))


def test_a_player_joins_after_game_1_and_another_leaves_after_game_2(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob", "Cid"], rules={"end": {"games": 3}})
    sid = session["id"]
    first = play(
        client,
        session,
        "Bob",
        {"Bob": "A♠ A♥ A♦ A♣", "Ann": "2♠ 3♠ 4♠"},
        {"Ann": "5♥", "Cid": "6♣"},
    )

    joined = ok(client.post(f"{API}/sessions/{sid}/players", json={"name": "Dan", "seat": 1}), 201)
    assert [player["name"] for player in joined["players"]] == ["Ann", "Dan", "Bob", "Cid"]
    assert joined["left"] == []
    players = ids(joined)
    # Ann dealt game 1: the deal passes to the player after her in the new seating.
    assert joined["dealer"] == players["Dan"]
    second = play(
        client,
        joined,
        "Dan",
        {"Dan": "J♦ Q♦ K♦", "Cid": "7♣ 8♣ 9♣"},
        {"Ann": "2♥", "Bob": "3♥", "Cid": "4♥"},
    )
    assert second["dealer"] == players["Dan"]
    assert set(second["points"]) == {str(players[name]) for name in ("Ann", "Dan", "Bob", "Cid")}

    path = f"{API}/sessions/{sid}/players/{players['Bob']}"
    left = ok(client.delete(path))
    assert [player["name"] for player in left["players"]] == ["Ann", "Dan", "Cid"]
    assert left["left"] == [{"id": players["Bob"], "name": "Bob"}]
    assert left["totals"][str(players["Bob"])] == 71
    # Dan dealt game 2; Cid is next at the table.
    assert left["dealer"] == players["Cid"]
    third = play(
        client,
        left,
        "Cid",
        {"Cid": "10♠ J♠ Q♠", "Ann": "5♦ 6♦ 7♦"},
        {"Ann": "2♦", "Dan": "3♦"},
    )
    assert third["dealer"] == players["Cid"]
    assert str(players["Bob"]) not in third["points"]

    for game in (first, second):
        assert ok(client.get(f"{API}/games/{game['id']}")) == game
    assert set(first["points"]) == {str(players[name]) for name in ("Ann", "Bob", "Cid")}

    over = ok(client.get(f"{API}/sessions/{sid}"))
    assert over["status"] == "finished"
    totals: dict[str, int] = {}
    for game in over["games"]:
        for player, points in game["points"].items():
            totals[player] = totals.get(player, 0) + points
    assert over["totals"] == totals
    assert totals[str(players["Bob"])] == max(totals.values())
    # Bob has the most points but left the table: the winner is among those at it.
    assert over["winner"] == players["Cid"]
    assert [game["dealer"] for game in over["games"]] == [
        players["Ann"],
        players["Dan"],
        players["Cid"],
    ]


def test_a_new_player_sits_at_the_end_unless_a_seat_is_given(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob"], target=700)
    joined = ok(client.post(f"{API}/sessions/{session['id']}/players", json={"name": " Cid "}), 201)
    assert [player["name"] for player in joined["players"]] == ["Ann", "Bob", "Cid"]
    cid = str(ids(joined)["Cid"])
    assert (joined["totals"][cid], joined["to_go"][cid]) == (0, 700)
    first = ok(
        client.post(f"{API}/sessions/{session['id']}/players", json={"name": "Dan", "seat": 0}), 201
    )
    assert [player["name"] for player in first["players"]] == ["Dan", "Ann", "Bob", "Cid"]
    # The first dealer chosen at the start, Ann, still deals the first game.
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    assert game["dealer"] == ids(first)["Ann"]


def test_a_player_who_left_has_nothing_to_go(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob", "Cid"])
    play(client, session, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣"})
    bob = ids(session)["Bob"]
    left = ok(client.delete(f"{API}/sessions/{session['id']}/players/{bob}"))
    assert left["to_go"][str(bob)] is None
    assert left["to_go"][str(ids(session)["Ann"])] is not None


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"name": "ann"}, "twice"),
        ({"name": ""}, "name"),
        ({"name": "x" * 41}, "40"),
        ({"name": "Dan", "seat": 3}, "seat 3"),
        ({"name": "Dan", "seat": "1"}, "seat"),
        ({"seat": 1}, "name"),
    ],
)
def test_a_new_player_is_refused_with_a_reason(
    client: FlaskClient, body: dict[str, Any], said: str
) -> None:
    session = seated(client, ["Ann", "Bob"])
    answer = refused(client.post(f"{API}/sessions/{session['id']}/players", json=body), 422)
    assert said in answer
    assert ok(client.get(f"{API}/sessions/{session['id']}"))["players"] == session["players"]


def test_the_rule_systems_range_is_named(client: FlaskClient) -> None:
    full = seated(client, ["Ann", "Bob", "Cid", "Dan"])
    answer = refused(client.post(f"{API}/sessions/{full['id']}/players", json={"name": "Eve"}), 422)
    assert "2 to 4 players" in answer
    pair = seated(client, ["Ann", "Bob"], variant="boathouse_rum")
    bob = ids(pair)["Bob"]
    answer = refused(client.delete(f"{API}/sessions/{pair['id']}/players/{bob}"), 422)
    assert "Boathouse Rum is played by 2 to 6 players" in answer


def test_seats_change_only_between_games(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob", "Cid"], rules={"end": {"games": 1}})
    sid, bob = session["id"], ids(session)["Bob"]
    game = ok(client.post(f"{API}/sessions/{sid}/games"), 201)
    refused(client.post(f"{API}/sessions/{sid}/players", json={"name": "Dan"}), 409)
    refused(client.delete(f"{API}/sessions/{sid}/players/{bob}"), 409)
    ann = ids(session)["Ann"]
    ok(
        client.post(f"{API}/games/{game['id']}/melds", json={"player": ann, "cards": "J♦ Q♦ K♦"}),
        201,
    )
    finish = {"winner": ann, "hands": {str(bob): "7♥", str(ids(session)["Cid"]): "K♣"}}
    ok(client.post(f"{API}/games/{game['id']}/finish", json=finish))
    assert "over" in refused(
        client.post(f"{API}/sessions/{sid}/players", json={"name": "Dan"}), 409
    )
    refused(client.delete(f"{API}/sessions/{sid}/players/{bob}"), 409)


def test_only_a_player_of_the_session_leaves_it_and_only_once(client: FlaskClient) -> None:
    session, other = seated(client, ["Ann", "Bob", "Cid"]), seated(client, ["Eve", "Fay"])
    sid = session["id"]
    refused(client.delete(f"{API}/sessions/{sid}/players/{ids(other)['Eve']}"), 404)
    refused(client.delete(f"{API}/sessions/{sid}/players/99999999999999999999"), 404)
    play(client, session, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣"})
    bob = ids(session)["Bob"]
    ok(client.delete(f"{API}/sessions/{sid}/players/{bob}"))
    assert "already" in refused(client.delete(f"{API}/sessions/{sid}/players/{bob}"), 409)
    assert "left" in refused(
        client.post(f"{API}/sessions/{sid}/players", json={"name": "BOB"}), 422
    )


def test_seating_needs_the_edit_key_and_gives_a_new_etag(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob", "Cid"])
    sid = session["id"]
    before = client.get(f"{API}/sessions/{sid}").headers["ETag"]
    view = {"Authorization": f"Bearer {session['view_key']}"}
    refused(client.post(f"{API}/sessions/{sid}/players", json={"name": "Dan"}, headers=view), 404)
    bob = ids(session)["Bob"]
    refused(client.delete(f"{API}/sessions/{sid}/players/{bob}", headers=view), 404)
    ok(client.post(f"{API}/sessions/{sid}/players", json={"name": "Dan"}), 201)
    after = client.get(f"{API}/sessions/{sid}").headers["ETag"]
    assert after != before
    ok(client.delete(f"{API}/sessions/{sid}/players/{bob}"))
    assert client.get(f"{API}/sessions/{sid}").headers["ETag"] != after


def test_a_new_player_sent_again_with_its_idempotency_key_is_seated_once(
    client: FlaskClient,
) -> None:
    session = seated(client, ["Ann", "Bob"])
    path, key = f"{API}/sessions/{session['id']}/players", {"Idempotency-Key": "seat-dan-1"}
    first = ok(client.post(path, json={"name": "Dan"}, headers=key), 201)
    again = client.post(path, json={"name": "Dan"}, headers=key)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first
    assert len(ok(client.get(f"{API}/sessions/{session['id']}"))["players"]) == 3


def test_a_player_who_left_still_shows_in_the_games_they_played(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob", "Cid"], variant="german_rummy", rules={"opening": 0})
    game = play(client, session, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "K♠ JKR", "Cid": "2♣"})
    bob = ids(session)["Bob"]
    left = ok(client.delete(f"{API}/sessions/{session['id']}/players/{bob}"))
    assert left["games"][0]["points"][str(bob)] == -40
    assert left["totals"][str(bob)] == -40
    assert ok(client.get(f"{API}/games/{game['id']}")) == game


def test_a_new_player_sits_after_the_player_named_by_id_whoever_sat_down_meanwhile(
    client: FlaskClient,
) -> None:
    session = seated(client, ["Ann", "Bob"], variant="german_rummy")
    path = f"{API}/sessions/{session['id']}/players"
    ann = ids(session)["Ann"]
    # Another client seats Dan first; this one asked for "after Ann" as it saw the seating.
    ok(client.post(path, json={"name": "Dan", "seat": 0}), 201)
    joined = ok(client.post(path, json={"name": "Eve", "after": ann}), 201)
    assert [player["name"] for player in joined["players"]] == ["Dan", "Ann", "Eve", "Bob"]
    first = ok(client.post(path, json={"name": "Flo", "after": 0}), 201)
    assert [player["name"] for player in first["players"]] == ["Flo", "Dan", "Ann", "Eve", "Bob"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"name": "Eve", "after": "Ann"}, "after must be the id of the player to sit after"),
        ({"name": "Eve", "after": 1, "seat": 0}, "Send seat or after, not both."),
        ({"name": "Eve", "after": 10**6}, "That player does not play in this session."),
    ],
)
def test_a_place_after_no_player_at_the_table_is_refused_and_seats_no_one(
    client: FlaskClient, body: dict[str, Any], says: str
) -> None:
    session = seated(client, ["Ann", "Bob"])
    path = f"{API}/sessions/{session['id']}/players"
    assert says in refused(client.post(path, json=body), 422)
    answer = ok(client.get(f"{API}/sessions/{session['id']}"))
    assert [player["name"] for player in answer["players"]] == ["Ann", "Bob"]


def test_a_place_after_a_player_who_left_is_refused(client: FlaskClient) -> None:
    session = seated(client, ["Ann", "Bob", "Cid"])
    path = f"{API}/sessions/{session['id']}/players"
    bob = ids(session)["Bob"]
    ok(client.delete(f"{path}/{bob}"))
    assert "does not play" in refused(client.post(path, json={"name": "Eve", "after": bob}), 422)
