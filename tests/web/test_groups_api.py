"""Groups through /api/v1: keys, sessions in a group, statistics against our own arithmetic."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, GROUPS_ONLY, Contract, bearer, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def new_group(client: FlaskClient, name: str = "Donnerstagsrunde") -> dict[str, Any]:
    return ok(client.post(f"{API}/groups", json={"name": name}), 201)


def session_in(
    client: FlaskClient, group: dict[str, Any], players: list[str], **body: Any
) -> dict[str, Any]:
    answer = client.post(
        f"{API}/sessions",
        json={"players": players, "group": group["id"], "group_key": group["edit_key"], **body},
    )
    return ok(answer, 201)


def play(
    client: FlaskClient,
    session: dict[str, Any],
    melds: list[tuple[str, str]],
    winner: str | None,
    hands: dict[str, str],
) -> dict[str, Any]:
    """Play one game of a session through the API; return the session after it."""
    ids = {player["name"]: player["id"] for player in session["players"]}
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    for name, cards in melds:
        ok(
            client.post(
                f"{API}/games/{game['id']}/melds", json={"player": ids[name], "cards": cards}
            ),
            201,
        )
    body = {
        "winner": ids[winner] if winner is not None else None,
        "hands": {str(ids[name]): cards for name, cards in hands.items()},
    }
    return ok(client.post(f"{API}/games/{game['id']}/finish", json=body))["session"]


def statistics(client: FlaskClient, group: dict[str, Any], key: str, lang: str = "en") -> Any:
    return ok(client.get(f"{API}/groups/{group['id']}/statistics?lang={lang}", headers=bearer(key)))


def test_a_new_group_answers_its_keys_once_and_its_sessions_after(client: FlaskClient) -> None:
    group = new_group(client, "  Donnerstags  runde ")
    assert group["name"] == "Donnerstags runde"
    assert group["sessions"] == [] and group["merges"] == []
    assert group["edit_key"] != group["view_key"]
    session = session_in(client, group, ["Ann", "Bob"])
    assert session["group"] == group["id"]
    read = ok(client.get(f"{API}/groups/{group['id']}", headers=bearer(group["view_key"])))
    assert "edit_key" not in read
    assert [(item["id"], item["status"], item["games"]) for item in read["sessions"]] == [
        (session["id"], "open", 0)
    ]
    alone = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    assert alone["group"] is None


@pytest.mark.parametrize("key", ["none", "wrong", "session"])
def test_a_group_without_its_key_is_not_found_as_if_it_did_not_exist(
    client: FlaskClient, key: str
) -> None:
    group = new_group(client)
    session = session_in(client, group, ["Ann", "Bob"])
    headers = {"none": {}, "wrong": bearer("x" * 32), "session": bearer(session["edit_key"])}[key]
    missing = refused(client.get(f"{API}/groups/no-such-group"), 404)
    for path in ("", "/statistics"):
        assert refused(client.get(f"{API}/groups/{group['id']}{path}", headers=headers), 404) == (
            missing
        )
    merge = {"name": "Ann", "same_as": "Bob"}
    answer = client.post(f"{API}/groups/{group['id']}/merges", json=merge, headers=headers)
    assert refused(answer, 404) == missing


def test_the_view_key_reads_and_only_the_edit_key_adds_sessions_or_merges(
    client: FlaskClient,
) -> None:
    group = new_group(client)
    view = bearer(group["view_key"])
    ok(client.get(f"{API}/groups/{group['id']}/statistics", headers=view))
    answer = client.post(
        f"{API}/groups/{group['id']}/merges", json={"name": "A", "same_as": "B"}, headers=view
    )
    refused(answer, 404)
    for key in (group["view_key"], None, "wrong"):
        body = {"players": ["Ann", "Bob"], "group": group["id"], "group_key": key}
        error = refused(client.post(f"{API}/sessions", json=body), 404)
        assert "no such group" in error
    assert ok(client.get(f"{API}/groups/{group['id']}", headers=view))["sessions"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["Ann", "Bob"], "group": 7},
        {"players": ["Ann", "Bob"], "group": "g", "group_key": 7},
    ],
)
def test_a_group_of_the_wrong_type_is_refused_with_422(client: FlaskClient, body: Any) -> None:
    assert "group" in refused(client.post(f"{API}/sessions", json=body), 422)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({}, "name must be"),
        ({"name": "   "}, "A new group needs a name"),
        ({"name": "x" * 41}, "at most 40 characters"),
    ],
)
def test_a_group_without_a_good_name_is_refused(client: FlaskClient, body: Any, said: str) -> None:
    assert said in refused(client.post(f"{API}/groups", json=body), 422)


def test_a_repeated_group_request_with_a_secret_key_gets_the_same_group(
    client: FlaskClient,
) -> None:
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = ok(client.post(f"{API}/groups", json={"name": "Runde"}, headers=headers), 201)
    again = client.post(f"{API}/groups", json={"name": "Runde"}, headers=headers)
    assert ok(again, 201) == first
    assert again.headers["Idempotent-Replayed"] == "true"
    guessable = {"Idempotency-Key": "group-1"}
    refused(client.post(f"{API}/groups", json={"name": "Runde"}, headers=guessable), 422)


def test_statistics_of_sessions_played_through_the_api_are_our_own_arithmetic(
    client: FlaskClient,
) -> None:
    group = new_group(client)
    # Treppenrommé, two games: Ann 45 + 10 = 55 (Bob 29), then Bob 30 + 15 + 2 = 47 (Ann 18).
    first = session_in(client, group, ["Ann", "Bob"], rules={"end": {"games": 2}})
    play(client, first, [("Ann", "A♠ A♥ A♦"), ("Bob", "9♣ 10♣ J♣")], "Ann", {"Bob": "K♥"})
    first = play(client, first, [("Ann", "5♦ 6♦ 7♦"), ("Bob", "J♦ Q♦ K♦")], "Bob", {"Ann": "A♣ 2♥"})
    assert first["status"] == "finished"
    # " ann" is Ann. Boathouse Rum: Bob pays Ann for K♥ and 2♣ (12), nothing for his run.
    boat = session_in(client, group, [" ann", "Bob"], variant="boathouse_rum")
    boat = play(client, boat, [("ann", "7♠ 8♠ 9♠")], "ann", {"Bob": "K♥ 2♣ 3♦ 4♦ 5♦"})
    # German Rummy: Annie goes out, Bob books minus his hand (ace 11, joker 30).
    german = session_in(
        client,
        group,
        ["Annie", "Bob"],
        variant="german_rummy",
        rules={"opening": 0, "end": {"games": 1}},
    )
    german = play(client, german, [("Annie", "7♥ 8♥ 9♥")], "Annie", {"Bob": "A♠ JKR"})

    stats = statistics(client, group, group["view_key"])
    systems = {system["variant"]: system for system in stats["rule_systems"]}
    assert list(systems) == ["treppenromme", "german_rummy", "boathouse_rum"]

    # Our own arithmetic, from each session's games as the API gives them.
    sessions = [first, boat, german]
    for session in sessions:
        system = systems[session["variant"]]
        names = {player["id"]: player["name"] for player in session["players"]}
        for player_id, name in names.items():
            person = next(p for p in system["people"] if name in p["names"])
            games = [game for game in session["games"] if game["status"] != "open"]
            points = sum(game["points"][str(player_id)] for game in games)
            won = sum(1 for game in games if game["winner"] == player_id)
            # Each rule system counts on its own: here everyone played one session of each.
            assert person["points"] == points
            assert person["games"] == len(games)
            assert person["games_won"] == won
            assert person["average"] == points / len(games)
    treppen = {person["name"]: person for person in systems["treppenromme"]["people"]}
    assert (treppen["Ann"]["points"], treppen["Bob"]["points"]) == (45 + 10 + 18, 29 + 47)
    assert treppen["Bob"]["sessions_won"] == 1
    assert treppen["Ann"]["best_meld"] == {
        "kind": "set",
        "cards": ["A♠", "A♥", "A♦"],
        "length": 3,
        "value": 45,
        "session": first["id"],
        "game": 1,
    }
    # Two sequences of three: the one worth more (30 against 29).
    assert treppen["Bob"]["longest_sequence"]["cards"] == ["J♦", "Q♦", "K♦"]
    boathouse = {person["name"]: person for person in systems["boathouse_rum"]["people"]}
    assert boathouse["ann"]["points"] == 12
    assert boathouse["Bob"]["points"] == 0
    assert systems["boathouse_rum"]["last_results"][0]["totals"] == [
        {"name": "ann", "total": 12},
        {"name": "Bob", "total": 0},
    ]
    rummy = {person["name"]: person for person in systems["german_rummy"]["people"]}
    assert (rummy["Annie"]["points"], rummy["Bob"]["points"]) == (0, -41)
    assert rummy["Annie"]["best_meld"]["value"] == 0
    assert systems["german_rummy"]["last_results"][0]["winner"] == "Annie"
    assert statistics(client, group, group["edit_key"], "de")["rule_systems"][1]["title"] == (
        "Rommé"
    )

    # "Annie" is Ann: merged, she counts in German Rummy under the name merged into.
    merge = {"name": "annie", "same_as": "ANN"}
    merged = ok(
        client.post(
            f"{API}/groups/{group['id']}/merges", json=merge, headers=bearer(group["edit_key"])
        ),
        201,
    )
    assert merged["merges"] == [{"name": "annie", "same_as": "ANN"}]
    rummy = {
        person["name"]: person
        for person in statistics(client, group, group["view_key"])["rule_systems"][1]["people"]
    }
    assert rummy["ANN"]["names"] == ["Annie"]
    answer = client.post(
        f"{API}/groups/{group['id']}/merges?lang=de",
        json={"name": "Bob", "same_as": "Ann"},
        headers=bearer(group["edit_key"]),
    )
    said = refused(answer, 422)  # they played together: two people
    assert "„Bob“" in said and "„Ann“" in said


def test_the_answers_about_groups_match_the_openapi_document(client: FlaskClient) -> None:
    contract = Contract(ok(client.get(f"{API}/openapi.json")))

    def call(
        method: str, path: str, status: int, json: Any = None, key: str = "", **ids: Any
    ) -> Any:
        response = client.open(
            path.format(**ids), method=method.upper(), json=json, headers=bearer(key) if key else {}
        )
        assert response.status_code == status, response.get_data(as_text=True)
        body = response.get_json(silent=True) if response.data else None
        contract.validate(method, path, status, body)
        return body

    groups, group_path = f"{API}/groups", f"{API}/groups/{{group_id}}"
    group = call("post", groups, 201, {"name": "Runde"})
    call("post", groups, 422, {"name": ""})
    gid, edit, view = group["id"], group["edit_key"], group["view_key"]
    body = {"players": ["Ann", "Bob"], "group": gid, "group_key": edit}
    session = call("post", f"{API}/sessions", 201, body)
    call("post", f"{API}/sessions", 404, {**body, "group_key": view})
    play(client, session, [("Ann", "Q♣ K♣ A♣")], "Ann", {"Bob": "2♦"})
    other = call("post", f"{API}/sessions", 201, {**body, "players": ["Anni", "Cid"]})
    play(client, other, [("Cid", "4♠ 4♥ 4♦")], None, {})
    call("get", group_path, 200, key=view, group_id=gid)
    call("get", group_path, 404, group_id=gid)
    stats = call("get", group_path + "/statistics", 200, key=view, group_id=gid)
    assert stats["rule_systems"][0]["people"][0]["best_meld"]["value"] == 30
    call("get", group_path + "/statistics", 404, key="wrong", group_id=gid)
    merges = group_path + "/merges"
    call("post", merges, 201, {"name": "Anni", "same_as": "Ann"}, key=edit, group_id=gid)
    call("post", merges, 422, {"name": "Anni", "same_as": "Ann"}, key=edit, group_id=gid)
    call("post", merges, 404, {"name": "Cid", "same_as": "Bob"}, key=view, group_id=gid)
    call("post", merges, 400, None, key=edit, group_id=gid)
    assert {(method, path) for method, path, _ in contract.checked} >= GROUPS_ONLY
