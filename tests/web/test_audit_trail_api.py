"""The audit trail in the JSON API: a game's "audit", its shape, its words in English and German."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, Contract

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

GAME = f"{API}/games/{{game_id}}"


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    """Return the OpenAPI document as the API serves it."""
    body = client.get(f"{API}/openapi.json").get_json()
    assert isinstance(body, dict)
    return body


def answer(client: FlaskClient, method: str, url: str, status: int, json: Any = None) -> Any:
    response = client.open(url, method=method, json=json)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json(silent=True) if response.data else None


def started(client: FlaskClient, **body: Any) -> tuple[int, list[int]]:
    """Start a session of Ann, Bob and Cid and its first game; return the game and players."""
    session = answer(
        client, "POST", f"{API}/sessions", 201, {"players": ["Ann", "Bob", "Cid"], **body}
    )
    game = answer(client, "POST", f"{API}/sessions/{session['id']}/games", 201)
    assert game["audit"] == []
    return game["id"], [player["id"] for player in session["players"]]


def test_every_kind_of_change_shows_in_the_game_s_audit_in_time_order(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    contract = Contract(document)
    game, (ann, bob, cid) = started(client)
    url = GAME.format(game_id=game)

    def call(method: str, path: str, status: int, json: Any = None, entry: int = 0) -> Any:
        body = answer(client, method, url + path.format(entry_id=entry), status, json)
        contract.validate(method.lower(), GAME + path, status, body)
        return body

    queens = call("POST", "/melds", 201, {"player": ann, "cards": "Q♣ K♣ A♣"})["id"]
    sixes = call("POST", "/melds", 201, {"player": bob, "cards": "6♠ 6♥ 6♦"})["id"]
    corrected = call(
        "PATCH", "/entries/{entry_id}", 200, {"cards": "6♠ 6♥ 6♣", "player": cid}, sixes
    )
    assert [line["action"] for line in corrected["game"]["audit"]] == ["corrected"]
    call("DELETE", "/entries/{entry_id}", 204, entry=queens)
    layoff = call("POST", "/layoffs", 201, {"player": ann, "meld": sixes, "cards": "6♦"})["id"]
    undone = call("POST", "/undo", 200)
    assert undone["undone"] == layoff
    assert [line["action"] for line in undone["game"]["audit"]] == [
        "corrected",
        "deleted",
        "undone",
    ]
    call("POST", "/finish", 200, {"winner": cid, "hands": {str(ann): "K♥ 9♦", str(bob): 5}})
    reopened = call("POST", "/reopen", 200)

    game_answer = call("GET", "", 200)
    assert reopened["audit"] == game_answer["audit"]
    audit = game_answer["audit"]
    assert [line["action"] for line in audit] == ["corrected", "deleted", "undone", "reopened"]
    assert [line["entry"] for line in audit] == [sixes, queens, layoff, None]
    assert [line["player"] for line in audit] == [bob, ann, ann, cid]
    fixed, deleted, took_back, booked = audit
    assert (fixed["before"]["cards"], fixed["after"]["cards"]) == (
        ["6♠", "6♥", "6♦"],
        ["6♠", "6♥", "6♣"],
    )
    assert (fixed["before"]["player"], fixed["after"]["player"]) == (bob, cid)
    assert fixed["text"] == "corrected: 6♠ 6♥ 6♦ → 6♠ 6♥ 6♣, Bob → Cid"
    assert deleted["after"] is None
    assert deleted["before"]["cards"] == ["Q♣", "K♣", "A♣"]
    assert deleted["text"] == f"deleted: Ann's meld Q♣ K♣ A♣ ({deleted['before']['value']})"
    assert took_back["text"] == "undone: Ann's layoff 6♦ onto 6♠ 6♥ 6♣ (6)"
    assert booked["before"]["winner"] == cid
    assert booked["before"]["hands"] == {str(ann): ["K♥", "9♦"]}
    assert booked["before"]["hand_points"] == {str(ann): 19, str(bob): 5}
    assert booked["text"].startswith("reopened: Cid had won; hands: Ann K♥ 9♦ (19), Bob (5);")
    # Times in UTC with their offset, as created_at; in the order of the changes.
    times = [datetime.fromisoformat(line["at"]) for line in audit]
    assert all(moment.utcoffset() is not None for moment in times)
    assert times == sorted(times)
    # The points are the entries' as they stand: Cid's corrected set alone.
    assert game_answer["points"] == {str(ann): 0, str(bob): 0, str(cid): 18}
    # Every key the game answered before is still there.
    assert {
        "id",
        "session",
        "number",
        "dealer",
        "cards_dealt",
        "first_player",
        "status",
        "winner",
        "romme",
        "melds",
        "entries",
        "points",
    } < set(game_answer)


def test_the_words_of_a_line_follow_the_request_s_language(client: FlaskClient) -> None:
    game, (ann, bob, _cid) = started(client)
    url = GAME.format(game_id=game)
    queens = answer(client, "POST", f"{url}/melds", 201, {"player": ann, "cards": "J♣ Q♣ K♣"})
    answer(client, "PATCH", f"{url}/entries/{queens['id']}", 200, {"player": bob})
    answer(client, "POST", f"{url}/undo", 200)
    english = answer(client, "GET", url, 200)["audit"]
    german = answer(client, "GET", f"{url}?lang=de", 200)["audit"]
    assert [line["text"] for line in english] == [
        "corrected: Ann → Bob",
        "undone: Bob's meld J♣ Q♣ K♣ (30)",
    ]
    # German writes the cards in its own letters (Bube, Dame); the rest is as in English.
    assert "B♣ D♣ K♣" in german[1]["text"]
    assert "J♣" not in german[1]["text"]
    assert "Ann → Bob" in german[0]["text"]
    assert [{**line, "text": ""} for line in german] == [{**line, "text": ""} for line in english]


def test_a_german_rummy_swap_shows_its_jokers_as_jkr(client: FlaskClient) -> None:
    game, (ann, bob, _cid) = started(client, variant="german_rummy", rules={"opening": 0})
    url = GAME.format(game_id=game)
    sixes = answer(client, "POST", f"{url}/melds", 201, {"player": ann, "cards": "6♠ 6♥ JKR"})
    answer(client, "POST", f"{url}/melds", 201, {"player": bob, "cards": "10♠ J♠ Q♠"})
    swap = {"player": bob, "meld": sixes["id"], "cards": "6♣", "new_meld": "8♥ JKR 10♥"}
    entry = answer(client, "POST", f"{url}/swaps", 201, swap)["entry"]
    answer(client, "DELETE", f"{url}/entries/{entry}", 204)
    (line,) = answer(client, "GET", url, 200)["audit"]
    assert (line["action"], line["entry"], line["player"]) == ("deleted", entry, bob)
    assert line["before"]["type"] == "swap"
    assert line["before"]["cards"] == ["6♣", "8♥", "JKR", "10♥"]
    assert line["before"]["onto"] == ["6♠", "6♥", "JKR"]
    assert line["before"]["meld_cards"] == [["8♥", "JKR", "10♥"]]
    # The words say what the joker stood for; melds score nothing here, so no value.
    assert line["text"] == (
        "deleted: Bob's joker swap: 6♣ for the joker in 6♠ 6♥ JKR, the joker into 8♥ JKR=9♥ 10♥"
    )


def test_a_change_gives_the_game_a_new_etag_with_its_line(client: FlaskClient) -> None:
    game, (ann, _bob, _cid) = started(client)
    url = GAME.format(game_id=game)
    answer(client, "POST", f"{url}/melds", 201, {"player": ann, "cards": "6♠ 6♥ 6♦"})
    first = client.get(url)
    assert first.get_json()["audit"] == []
    answer(client, "POST", f"{url}/undo", 200)
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200
    assert [line["action"] for line in again.get_json()["audit"]] == ["undone"]
