"""The answer models say every answer of a played session: each field sent is one they declare.

The OpenAPI document's answer schemas are written from ``scorekeeper.api.answers``; here the
answers of real sessions, a German Rummy game and a group are read back through the model the
document names for them. A field the API sends that the model does not declare, or one of
another type, fails.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from pydantic import BaseModel

from scorekeeper.api import answers
from tests.helpers import API, bearer

SCHEMAS = "#/components/schemas/"


def fields(value: Any, where: str = "") -> set[str]:
    """Return the path of every key in a JSON value (``games[].points.8``)."""
    if isinstance(value, dict):
        found = set()
        for key, inner in value.items():
            found |= {f"{where}.{key}"} | fields(inner, f"{where}.{key}")
        return found
    if isinstance(value, list):
        return set().union(*(fields(item, f"{where}[]") for item in value))
    return set()


def undeclared(model: type[BaseModel], body: Any) -> set[str]:
    """Return the fields of an answer that its model does not declare (it validates the rest)."""
    read = model.model_validate(body)
    return fields(body) - fields(read.model_dump(by_alias=True, exclude_unset=True))


class Answers:
    """Send requests and read each answer through the model the served document names."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        document = client.get(f"{API}/openapi.json").get_json()
        self.paths: dict[str, Any] = document["paths"]
        self.read: set[str] = set()

    def call(
        self, method: str, path: str, status: int, json: Any = None, key: str = "", **ids: Any
    ) -> Any:
        headers = bearer(key) if key else {}
        response = self.client.open(
            path.format(**ids), method=method.upper(), json=json, headers=headers
        )
        assert response.status_code == status, response.get_data(as_text=True)
        answer = self.paths[path][method]["responses"][str(status)]
        schema = answer.get("content", {}).get("application/json", {}).get("schema")
        if schema is not None:
            # A schema written in place keeps its model's name as its title.
            name = schema["$ref"].removeprefix(SCHEMAS) if "$ref" in schema else schema["title"]
            assert undeclared(getattr(answers, name), response.get_json()) == set(), name
            self.read.add(name)
        return response.get_json(silent=True)


def test_the_answers_of_a_played_session_are_what_the_answer_models_declare(
    client: FlaskClient,
) -> None:
    api = Answers(client)
    sessions, session = f"{API}/sessions", f"{API}/sessions/{{session_id}}"
    game, games = f"{API}/games/{{game_id}}", session + "/games"
    api.call("get", f"{API}/variants", 200)
    api.call("post", f"{API}/check", 200, {"cards": "Q♣ K♣ A♣ 2♣"})
    api.call("post", f"{API}/check", 200, {"cards": "A♦ 2♦", "onto": "J♦ Q♦ K♦"})
    api.call("post", f"{API}/check", 422, {"cards": "X♣"})

    started = api.call("post", sessions, 201, {"players": ["Ann", "Bob", "Cid"], "target": 100})
    ann, bob, cid = (player["id"] for player in started["players"])
    sid = started["id"]
    seated = api.call("post", session + "/players", 201, {"name": "Dan"}, session_id=sid)
    dan = seated["players"][-1]["id"]
    player = session + "/players/{player_id}"
    api.call("delete", player, 200, session_id=sid, player_id=dan)
    api.call("patch", player, 200, {"name": "Cy"}, session_id=sid, player_id=cid)
    gid = api.call("post", games, 201, session_id=sid)["id"]
    meld = api.call("post", game + "/melds", 201, {"player": ann, "cards": "J♦ Q♦ K♦"}, game_id=gid)
    several = {"player": bob, "melds": ["6♠ 6♥ 6♦", "2♣ 3♣ 4♣"]}
    api.call("post", game + "/melds", 201, several, game_id=gid)
    layoff = {"player": cid, "meld": meld["id"], "cards": "A♦"}
    laid = api.call("post", game + "/layoffs", 201, layoff, game_id=gid)
    entry = game + "/entries/{entry_id}"
    api.call("patch", entry, 200, {"player": bob}, game_id=gid, entry_id=laid["id"])
    api.call("post", game + "/undo", 200, game_id=gid)
    api.call("post", game + "/check", 200, several, game_id=gid)
    api.call("post", game + "/check", 200, {**layoff, "onto": meld["id"]}, game_id=gid)
    finish = {"winner": ann, "hands": {str(bob): "A♠ 7♥", str(cid): "K♣"}}
    api.call("post", game + "/settlement", 200, finish, game_id=gid)
    api.call("post", game + "/finish", 200, finish, game_id=gid)
    api.call("post", game + "/reopen", 200, game_id=gid)
    api.call("post", game + "/finish", 200, {"winner": None}, game_id=gid)
    api.call("get", game, 200, game_id=gid)
    api.call("patch", session, 200, {"target": 200}, session_id=sid)
    api.call("get", session, 200, session_id=sid)
    api.call("get", session + "/sheet", 200, session_id=sid)
    api.call("get", session + "/export", 200, session_id=sid)

    german = {"variant": "german_rummy"}
    swap = {**german, "onto": "6♠ 6♥ JKR", "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    api.call("post", f"{API}/check", 200, swap)
    api.call("post", f"{API}/check", 200, {**german, "cards": "5♠ 6♠ JKR"})
    table = api.call("post", sessions, 201, {**german, "players": ["Ann", "Bob", "Cid"]})
    ann, bob, cid = (player["id"] for player in table["players"])
    gid = api.call("post", games, 201, session_id=table["id"])["id"]
    opening = {"player": ann, "melds": ["Q♣ K♣ A♣", "3♦ 3♥ 3♠"]}
    api.call("post", game + "/melds", 201, opening, game_id=gid)
    opening = {"player": bob, "melds": ["6♠ 6♥ JKR", "K♠ K♥ K♦"]}
    sixes = api.call("post", game + "/melds", 201, opening, game_id=gid)["melds"][0]
    body = {"player": ann, "meld": sixes["id"], "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    api.call("post", game + "/swaps", 201, body, game_id=gid)
    api.call("get", game, 200, game_id=gid)
    hands = {str(ann): "7♥", str(cid): "A♠ JKR"}
    api.call("post", game + "/finish", 200, {"winner": bob, "hands": hands}, game_id=gid)

    rum = {"variant": "rummy_500", "rules": {"with_jokers": True, "two_packs": True}}
    table = api.call("post", sessions, 201, {**rum, "players": ["Ann", "Bob"]})
    ann, bob = (player["id"] for player in table["players"])
    gid = api.call("post", games, 201, session_id=table["id"])["id"]
    api.call("post", game + "/melds", 201, {"player": ann, "cards": "7♠ 7♥ JKR"}, game_id=gid)
    several = {"player": bob, "melds": ["JKR=A♦ 2♦ 3♦", "7♠ 8♠ 9♠"]}
    api.call("post", game + "/melds", 201, several, game_id=gid)
    nobody = {"winner": None, "hands": {str(ann): "JKR 2♣", str(bob): 12}}
    api.call("post", game + "/settlement", 200, nobody, game_id=gid)
    api.call("post", game + "/finish", 200, nobody, game_id=gid)
    api.call("get", game, 200, game_id=gid)

    group = api.call("post", f"{API}/groups", 201, {"name": "Donnerstagsrunde"})
    joined = {"group": group["id"], "group_key": group["edit_key"]}
    for players in (["Ann", "Bob"], ["Anni", "Bob"]):
        played = api.call("post", sessions, 201, {"players": players, **joined})
        ids = [player["id"] for player in played["players"]]
        gid = api.call("post", games, 201, session_id=played["id"])["id"]
        cards = {"player": ids[0], "cards": "9♠ 10♠ J♠ Q♠"}
        api.call("post", game + "/melds", 201, cards, game_id=gid)
        finish = {"winner": ids[0], "hands": {str(ids[1]): "K♣"}}
        api.call("post", game + "/finish", 200, finish, game_id=gid)
    where, key = f"{API}/groups/{{group_id}}", group["edit_key"]
    merge = {"name": "Anni", "same_as": "Ann"}
    api.call("post", where + "/merges", 201, merge, key=key, group_id=group["id"])
    api.call("get", where, 200, key=key, group_id=group["id"])
    api.call("get", where + "/statistics", 200, key=key, group_id=group["id"])

    assert api.read >= {"Check", "Session", "Game", "Finish", "Swap", "GroupStatistics"}


def test_a_field_the_model_does_not_declare_is_found() -> None:
    merged = {"name": "Anni", "same_as": "Ann", "merges": [{"name": "Anni", "same_as": "Ann"}]}
    assert undeclared(answers.Merged, merged) == set()
    merged["merges"][0]["when"] = "today"
    assert undeclared(answers.Merged, merged) == {".merges[].when"}


def test_an_answer_of_another_type_is_refused() -> None:
    with pytest.raises(ValueError, match="total"):
        undeclared(answers.Standing, {"name": "Ann", "total": "many"})
