"""The OpenAPI document: served, OpenAPI 3.1, complete, and true to the answers of the API."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

API = "/api/v1"
DOCUMENT_URI = "urn:scorekeeper:openapi"
METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    """Return the OpenAPI document as the API serves it."""
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body, dict)
    return body


def pointer(*parts: str) -> str:
    """Return a URI fragment that points to a place in the document."""
    escaped = (part.replace("~", "~0").replace("/", "~1") for part in parts)
    return "#/" + "/".join(quote(part, safe="~") for part in escaped)


class Contract:
    """Validate answers against the response schemas, resolving $refs in the document."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(DOCUMENT_URI, resource)
        self.checked: set[tuple[str, str, str]] = set()

    def validate(self, method: str, path: str, status: int, body: Any) -> None:
        """Validate one answer against the schema the document gives for it."""
        responses = self.document["paths"][path][method]["responses"]
        assert str(status) in responses, f"{method.upper()} {path} does not document {status}"
        content = responses[str(status)].get("content")
        if content is None:
            assert body is None, f"{method.upper()} {path} {status} documents no body"
            return
        where = pointer("paths", path, method, "responses", str(status), "content")
        schema = {"$ref": DOCUMENT_URI + where + "/application~1json/schema"}
        Draft202012Validator(schema, registry=self.registry).validate(body)
        self.checked.add((method, path, str(status)))


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

    game = call("post", games_path, 201, session_id=sid)
    call("post", games_path, 409, session_id=sid)
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

    every_route = {
        (method, path)
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    }
    assert {(method, path) for method, path, _ in contract.checked} == every_route


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
