"""The OpenAPI document: served, OpenAPI 3.1, complete, and true to the answers of the API."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, ValidationError

from tests.helpers import API, EVENINGS_ONLY, GROUPS_ONLY, SEASON_ONLY, Contract

METHODS = {"get", "post", "put", "patch", "delete"}
# Routes that only a German Rummy game answers; test_the_answers_of_a_german_rummy_game checks them.
GERMAN_RUMMY_ONLY = {("post", f"{API}/games/{{game_id}}/swaps")}


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    """Return the OpenAPI document as the API serves it."""
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body, dict)
    return body


def flask_path(rule: str) -> str:
    """Turn /games/<int:game_id> into /games/{game_id}."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def test_the_document_is_served_as_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1.")
    assert document["info"]["title"]
    assert document["info"]["version"]
    assert document["paths"]


def test_the_document_names_every_route_under_the_api_and_no_other(
    app: Flask, document: dict[str, Any]
) -> None:
    routes = {
        (flask_path(rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(API + "/")
        for method in rule.methods or ()
        if method.lower() in METHODS
    }
    documented = {
        (path, method)
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    }
    assert routes == documented


def test_every_schema_in_the_document_is_valid_json_schema(document: dict[str, Any]) -> None:
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            assert operation["responses"], f"{method} {path}"
            for response in operation["responses"].values():
                assert response["description"]
                for media in response.get("content", {}).values():
                    Draft202012Validator.check_schema(media["schema"])


def test_every_path_parameter_is_declared(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        named = set(re.findall(r"{([^}]+)}", path))
        declared = {p["name"] for p in item.get("parameters", []) if p["in"] == "path"}
        assert named == declared, path


def test_the_answers_of_a_small_game_match_the_response_schemas(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    contract = Contract(document)

    def call(method: str, path: str, status: int, json: Any = None, **ids: int) -> Any:
        url = path.format(**ids)
        response = client.open(url, method=method.upper(), json=json)
        assert response.status_code == status, response.get_data(as_text=True)
        body = response.get_json(silent=True) if response.data else None
        contract.validate(method, path, status, body)
        return body

    sessions = f"{API}/sessions"
    session_path = f"{API}/sessions/{{session_id}}"
    games_path = f"{API}/sessions/{{session_id}}/games"
    game_path = f"{API}/games/{{game_id}}"

    call("get", f"{API}/openapi.json", 200)
    call("get", f"{API}/variants", 200)
    call("post", f"{API}/check", 200, {"cards": "K♠ A♠ 2♠", "variant": "boathouse_rum"})
    call("post", f"{API}/check", 200, {"cards": "Q♣ K♣ A♣ 2♣ 3♣"})
    call("post", f"{API}/check", 200, {"cards": "A♦ 2♦", "onto": "J♦ Q♦ K♦"})
    call("post", f"{API}/check", 200, {"cards": "6♠ 7♥ 8♦"})
    call("post", f"{API}/check", 422, {"cards": "X♣"})
    call("post", f"{API}/check", 400, None)

    session = call("post", sessions, 201, {"players": ["Ann", "Bob", "Cid"], "target": 100})
    call("post", sessions, 422, {"players": ["Ann"]})
    ann, bob, cid = (player["id"] for player in session["players"])
    sid = session["id"]
    call("get", session_path, 200, session_id=sid)
    call("get", session_path, 404, session_id="no-such-session")
    player_path = f"{API}/sessions/{{session_id}}/players/{{player_id}}"
    call("patch", session_path, 200, {"target": 100}, session_id=sid)
    call("patch", session_path, 422, {"rules": {"romme_doubling": "loser"}}, session_id=sid)
    call("patch", player_path, 200, {"name": "Cid"}, session_id=sid, player_id=cid)
    call("patch", player_path, 422, {"name": "Ann"}, session_id=sid, player_id=cid)
    seats_path = f"{API}/sessions/{{session_id}}/players"
    seated = call("post", seats_path, 201, {"name": "Dan", "seat": 1}, session_id=sid)
    call("post", seats_path, 422, {"name": "Ann"}, session_id=sid)
    dan = seated["players"][1]["id"]
    call("delete", player_path, 200, session_id=sid, player_id=dan)
    call("delete", player_path, 404, session_id=sid, player_id=dan)

    game = call("post", games_path, 201, session_id=sid)
    call("post", games_path, 409, session_id=sid)
    call("patch", session_path, 409, {"target": 200}, session_id=sid)
    call("post", seats_path, 409, {"name": "Dan"}, session_id=sid)
    call("delete", player_path, 409, session_id=sid, player_id=cid)
    call("post", games_path, 404, session_id="no-such-session")
    gid = game["id"]
    call("get", game_path, 200, game_id=gid)
    call("get", game_path, 404, game_id=999)

    melds = game_path + "/melds"
    layoffs = game_path + "/layoffs"
    entry = game_path + "/entries/{entry_id}"
    meld = call("post", melds, 201, {"player": ann, "cards": "J♦ Q♦ K♦"}, game_id=gid)
    call("post", melds, 422, {"player": ann, "cards": "J♦ Q♦ K♦"}, game_id=gid)
    call("post", melds, 404, {"player": ann, "cards": "9♦ 9♣ 9♥"}, game_id=999)
    body = {"player": bob, "meld": meld["id"], "cards": "A♦"}
    layoff = call("post", layoffs, 201, body, game_id=gid)
    call("post", layoffs, 422, {**body, "cards": "5♦"}, game_id=gid)
    call("post", layoffs, 404, body, game_id=999)
    call("delete", entry, 409, game_id=gid, entry_id=meld["id"])
    call("delete", entry, 404, game_id=gid, entry_id=999)
    call("patch", entry, 200, {"player": cid}, game_id=gid, entry_id=layoff["id"])
    call("patch", entry, 422, {"cards": "5♦"}, game_id=gid, entry_id=layoff["id"])
    call("patch", entry, 409, {"cards": "9♦ 10♦ J♦"}, game_id=gid, entry_id=meld["id"])
    call("patch", entry, 404, {"player": cid}, game_id=gid, entry_id=999)
    call("delete", entry, 204, game_id=gid, entry_id=layoff["id"])
    call("post", layoffs, 201, {**body, "cards": "A♦ 2♦"}, game_id=gid)
    call("post", melds, 201, {"player": cid, "cards": "6♠ 6♥ 6♦"}, game_id=gid)
    call("post", game_path + "/undo", 200, game_id=gid)
    call("post", game_path + "/undo", 404, game_id=999)
    check = game_path + "/check"
    call("post", check, 200, {"player": cid, "cards": "6♠ 6♥ 6♦"}, game_id=gid)
    call("post", check, 200, {"player": cid, "melds": ["6♠ 6♥ 6♦", "2♣ 3♣ 4♣"]}, game_id=gid)
    call("post", check, 200, {"player": cid, "onto": meld["id"], "cards": "K♠"}, game_id=gid)
    call("post", check, 422, {"player": cid, "cards": "X♣"}, game_id=gid)
    call("post", melds, 201, {"player": cid, "cards": "6♠ 6♥ 6♦ 6♣"}, game_id=gid)
    call("get", game_path, 200, game_id=gid)

    finish = {"winner": cid, "hands": {str(ann): "A♠ 7♥", str(bob): "K♣"}}
    call("post", game_path + "/settlement", 200, finish, game_id=gid)
    call("post", game_path + "/settlement", 422, {**finish, "romme": "yes"}, game_id=gid)
    call("post", game_path + "/settlement", 404, finish, game_id=999)
    call("post", game_path + "/finish", 422, {**finish, "hands": {}}, game_id=gid)
    call("post", game_path + "/finish", 400, None, game_id=gid)
    call("post", game_path + "/finish", 404, finish, game_id=999)
    call("post", game_path + "/finish", 200, finish, game_id=gid)
    call("post", game_path + "/finish", 409, finish, game_id=gid)
    call("post", game_path + "/settlement", 409, finish, game_id=gid)
    call("post", game_path + "/undo", 409, game_id=gid)
    call("post", melds, 409, {"player": ann, "cards": "9♦ 9♣ 9♥"}, game_id=gid)
    call("post", layoffs, 409, body, game_id=gid)
    call("get", game_path, 200, game_id=gid)

    game = call("post", games_path, 201, session_id=sid)
    call("post", melds, 201, {"player": ann, "cards": "A♠ A♥ A♦ A♣"}, game_id=game["id"])
    call("post", game_path + "/finish", 200, {"winner": None}, game_id=game["id"])
    call("post", game_path + "/reopen", 409, game_id=gid)  # game 2 came after it
    call("post", game_path + "/reopen", 200, game_id=game["id"])
    call("post", game_path + "/reopen", 409, game_id=game["id"])
    call("post", game_path + "/reopen", 404, game_id=999)
    call("post", game_path + "/finish", 200, {"winner": None}, game_id=game["id"])
    call("get", session_path, 200, session_id=sid)
    for looking_back in ("/sheet", "/sheet.csv", "/export"):
        call("get", session_path + looking_back, 200, session_id=sid)
        call("get", session_path + looking_back, 404, session_id="no-such-session")

    every_route = {
        (method, path)
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    }
    checked = {(method, path) for method, path, _ in contract.checked}
    assert checked == every_route - GERMAN_RUMMY_ONLY - GROUPS_ONLY - EVENINGS_ONLY - SEASON_ONLY


def test_the_answers_of_a_german_rummy_game_match_the_response_schemas(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    contract = Contract(document)

    def call(method: str, path: str, status: int, json: Any = None, **ids: int) -> Any:
        url = path.format(**ids)
        response = client.open(url, method=method.upper(), json=json)
        assert response.status_code == status, response.get_data(as_text=True)
        body = response.get_json(silent=True) if response.data else None
        contract.validate(method, path, status, body)
        return body

    check = f"{API}/check"
    german = {"variant": "german_rummy"}
    doubt = call("post", check, 200, {**german, "cards": "5♠ 6♠ JKR"})
    assert doubt["valid"] is False
    assert sorted(doubt["joker_choices"]) == ["4♠", "7♠"]
    said = call("post", check, 200, {**german, "cards": "5♠ 6♠ JKR=7♠", "rules": {"opening": 0}})
    assert said["cards"] == ["5♠", "6♠", "JKR"]
    assert said["jokers"] == [{"index": 2, "as": ["7♠"]}]
    assert said["opening_value"] == 18
    swap = {**german, "onto": "6♠ 6♥ JKR", "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    checked_swap = call("post", check, 200, swap)
    assert checked_swap["new_meld"]["jokers"] == [{"index": 1, "as": ["9♥"]}]
    assert checked_swap["new_meld"]["opening_value"] == 27
    strict = {**swap, "rules": {"joker_swap_from_set": "four"}}
    assert call("post", check, 200, strict)["valid"] is False

    players = ["Ann", "Bob", "Cid", "Dora"]
    session = call("post", f"{API}/sessions", 201, {**german, "players": players})
    ann, bob, cid, dora = (player["id"] for player in session["players"])
    game = call("post", f"{API}/sessions/{{session_id}}/games", 201, session_id=session["id"])
    gid = game["id"]
    game_path = f"{API}/games/{{game_id}}"
    melds, layoffs = game_path + "/melds", game_path + "/layoffs"
    swaps, entry = game_path + "/swaps", game_path + "/entries/{entry_id}"

    call("post", melds, 422, {"player": ann, "melds": ["Q♣ K♣ A♣"]}, game_id=gid)
    opening = {"player": ann, "melds": ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"]}
    call("post", melds, 201, opening, game_id=gid)
    bob_opening = {"player": bob, "melds": ["5♠ 6♠ JKR", "J♥ J♦ J♠"]}
    call("post", melds, 422, bob_opening, game_id=gid)
    bob_opening["melds"][0] = "5♠ 6♠ JKR=7♠"
    run = call("post", melds, 201, bob_opening, game_id=gid)["melds"][0]
    cid_opening = {"player": cid, "melds": ["6♠ 6♥ JKR", "K♠ K♥ K♦"]}
    sixes = call("post", melds, 201, cid_opening, game_id=gid)["melds"][0]
    call("post", layoffs, 422, {"player": dora, "meld": run["id"], "cards": "8♠"}, game_id=gid)
    body = {"player": dora, "meld": sixes["id"], "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    call("post", swaps, 422, body, game_id=gid)
    body["player"] = ann
    call("post", swaps, 422, {**body, "cards": "7♣"}, game_id=gid)
    call("post", swaps, 404, body, game_id=999)
    swapped = call("post", swaps, 201, body, game_id=gid)
    assert swapped["meld"]["cards"] == ["6♠", "6♥", "6♣"]
    assert swapped["new_meld"]["jokers"] == [{"index": 1, "as": ["9♥"]}]
    read = call("get", game_path, 200, game_id=gid)
    assert [item["type"] for item in read["entries"]][-1] == "swap"
    call("delete", entry, 204, game_id=gid, entry_id=swapped["entry"])
    swapped = call("post", swaps, 201, body, game_id=gid)
    call("post", game_path + "/undo", 200, game_id=gid)
    call("post", swaps, 201, body, game_id=gid)
    call("post", layoffs, 201, {"player": bob, "meld": run["id"], "cards": "8♠"}, game_id=gid)

    hands = {str(ann): "7♥", str(bob): "A♠ JKR", str(dora): "4♥ 4♦ 4♣ 2♠"}
    finish = {"winner": cid, "hands": hands}
    call("post", game_path + "/settlement", 200, finish, game_id=gid)
    settled = call("post", game_path + "/finish", 200, finish, game_id=gid)
    assert settled["settlement"] == {str(ann): -7, str(bob): -41, str(cid): 0, str(dora): -14}
    assert settled["hand_points"] == {str(ann): 7, str(bob): 41, str(dora): 14}
    assert settled["session"]["to_go"][str(bob)] == 459
    call("post", swaps, 409, body, game_id=gid)
    call("get", game_path, 200, game_id=gid)

    assert {(method, path) for method, path, _ in contract.checked} >= GERMAN_RUMMY_ONLY


def test_a_wrong_answer_fails_the_schema_check(document: dict[str, Any]) -> None:
    contract = Contract(document)
    with pytest.raises(ValidationError, match="'status'"):
        contract.validate("get", f"{API}/games/{{game_id}}", 200, {"id": 1})
    with pytest.raises(ValidationError, match="is not of type 'integer'"):
        contract.validate(
            "get",
            f"{API}/sessions/{{session_id}}",
            200,
            {
                "id": "AbCd",
                "status": "open",
                "target": 500,
                "players": [{"id": "one", "name": "Ann"}],
                "winner": None,
                "totals": {},
                "games": [],
            },
        )


def declared(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    responses: dict[str, Any] = document["paths"][path][method]["responses"]
    return responses


def test_every_read_that_answers_304_says_so_in_the_document(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    group = client.post(f"{API}/groups", json={"name": "Runde"}).get_json()
    session = client.post(
        f"{API}/sessions",
        json={"players": ["Ann", "Bob"], "group": group["id"], "group_key": group["edit_key"]},
    ).get_json()
    game = client.post(
        f"{API}/sessions/{session['id']}/games",
        headers={"Authorization": f"Bearer {session['edit_key']}"},
    ).get_json()
    evening = client.post(
        f"{API}/evenings",
        json={"name": "Abend", "players": list("ABCDEF"), "series": 1, "games_per_series": 1},
    ).get_json()
    ids = {
        "session_id": session["id"],
        "game_id": game["id"],
        "group_id": group["id"],
        "evening_id": evening["id"],
    }
    keys = {"group_id": group["edit_key"], "evening_id": evening["edit_key"]}
    answered_304 = set()
    for path, operations in document["paths"].items():
        if "get" not in operations:
            continue
        named = re.findall(r"{([^}]+)}", path)
        key = keys.get(named[0], session["edit_key"]) if named else ""
        address = path.format(**ids)
        headers = {"Authorization": f"Bearer {key}"}
        first = client.get(address, headers=headers)
        assert first.status_code == 200, path
        if first.headers.get("ETag"):
            again = client.get(address, headers={**headers, "If-None-Match": first.headers["ETag"]})
            if again.status_code == 304:
                answered_304.add(path)
    assert answered_304, "no read answered 304"
    for path in answered_304:
        assert "304" in declared(document, "get", path), f"GET {path} answers 304"
        assert "ETag" in declared(document, "get", path)["200"].get("headers", {}), path


def test_every_start_that_answers_429_says_so_with_retry_after(
    app_with: Any, document: dict[str, Any]
) -> None:
    client = app_with(SESSION_LIMIT="1 per minute").test_client()
    assert client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}).status_code == 201
    for path, body in (
        (f"{API}/sessions", {"players": ["Ann", "Bob"]}),
        (f"{API}/groups", {"name": "Runde"}),
    ):
        answer = client.post(path, json=body)
        assert answer.status_code == 429
        assert answer.headers["Retry-After"]
        said = declared(document, "post", path)["429"]
        assert "Retry-After" in said["headers"]
        assert said["content"]["application/json"]["schema"]
