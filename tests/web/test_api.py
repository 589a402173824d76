"""The JSON API under /api/v1: every endpoint, its answers and each way it refuses a request."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import queries
from scorekeeper.models import GameSession
from tests.helpers import (
    API,
    DE_NO_GAME,
    HUGE,
    new_session,
    ok,
    open_table,
    refused,
)
from tests.helpers import ApiTable as Table
from tests.rows import count

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """Return a session of Ann, Bob and Cid with game 1 open."""
    return open_table(client)


@pytest.fixture
def other(client: FlaskClient, table: Table) -> Table:
    """Return a second session (Dan, Eve, Flo) with its own open game."""
    return open_table(client, ("Dan", "Eve", "Flo"))


# --- errors common to the whole API ------------------------------------------------------------


POSTS_WITH_BODY = [
    "/check",
    "/sessions",
    "/games/{game}/melds",
    "/games/{game}/layoffs",
    "/games/{game}/finish",
    "/games/{game}/settlement",
]


@pytest.mark.parametrize("path", POSTS_WITH_BODY)
@pytest.mark.parametrize("data", ["{not json", "", '{"cards": "Q♣ K♣ A♣"', "\xff", "[" * 50_000])
def test_malformed_json_is_answered_with_400_and_changes_nothing(
    table: Table, path: str, data: str
) -> None:
    before = table.state()
    response = table.client.post(
        API + path.format(game=table.game), data=data, content_type="application/json"
    )
    refused(response, 400)
    assert table.state() == before
    assert count(table.client.application, GameSession) == 1


@pytest.mark.parametrize("path", POSTS_WITH_BODY)
@pytest.mark.parametrize("body", [[1, 2], "text", 5, True])
def test_a_body_that_is_not_a_json_object_is_refused_with_422(
    table: Table, path: str, body: Any
) -> None:
    before = table.state()
    refused(table.client.post(API + path.format(game=table.game), json=body), 422)
    assert table.state() == before


@pytest.mark.parametrize("path", POSTS_WITH_BODY)
def test_a_null_body_is_refused_and_changes_nothing(table: Table, path: str) -> None:
    before = table.state()
    response = table.client.post(
        API + path.format(game=table.game), data="null", content_type="application/json"
    )
    refused(response, 400, 422)
    assert table.state() == before


def test_an_unknown_api_address_answers_404_in_json(client: FlaskClient) -> None:
    refused(client.get(f"{API}/nothing-here"), 404)


def test_a_wrong_method_answers_405_in_json(client: FlaskClient) -> None:
    refused(client.put(f"{API}/sessions", json={}), 405)


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "/sessions", {"POST"}),
        ("POST", "/openapi.json", {"GET", "HEAD"}),
        ("PUT", "/sessions/x", {"GET", "HEAD", "PATCH"}),
        ("GET", "/games/1/melds", {"POST"}),
    ],
)
def test_a_wrong_method_answers_405_with_the_methods_allowed(
    client: FlaskClient, method: str, path: str, allowed: set[str]
) -> None:
    response = client.open(f"{API}{path}", method=method, json={})
    refused(response, 405)
    said = {part.strip() for part in response.headers.get("Allow", "").split(",")}
    assert said - {"OPTIONS"} == allowed


def test_a_body_that_is_too_large_answers_413_in_json(table: Table) -> None:
    before = table.state()
    response = table.post("melds", {"player": table.ann, "cards": "6♠ " * 40_000})
    assert refused(response, 413) == (
        "The body is too large: an API request may have at most 64 KB."
    )
    assert table.state() == before


# --- writes take JSON only (issue 20: what a page of another site can send blind) -------------

NOT_JSON = "The API takes JSON only: send the body with Content-Type: application/json."
WRITES = [
    "check",
    "new session",
    "next game",
    "meld",
    "layoff",
    "correction",
    "delete",
    "undo",
    "reopen",
    "finish",
    "settlement",
]


def a_write(table: Table, name: str) -> tuple[str, str, dict[str, Any]]:
    """Return the method, path and a JSON body of a write that would work (Ann's meld lies)."""
    game = f"{API}/games/{table.game}"
    entry = table.get_game()["entries"][-1]["id"]
    return {
        "check": ("POST", f"{API}/check", {"cards": "Q♣ K♣ A♣"}),
        "new session": ("POST", f"{API}/sessions", {"players": ["Dan", "Eve"]}),
        "next game": ("POST", f"{API}/sessions/{table.session}/games", {}),
        "meld": ("POST", f"{game}/melds", {"player": table.bob, "cards": "9♦ 9♥ 9♠"}),
        "layoff": ("POST", f"{game}/layoffs", {"player": table.bob, "meld": entry, "cards": "5♥"}),
        "correction": ("PATCH", f"{game}/entries/{entry}", {"player": table.bob}),
        "delete": ("DELETE", f"{game}/entries/{entry}", {}),
        "undo": ("POST", f"{game}/undo", {"entry": entry}),
        "reopen": ("POST", f"{game}/reopen", {}),
        "finish": ("POST", f"{game}/finish", {"winner": None}),
        "settlement": ("POST", f"{game}/settlement", {"winner": None}),
    }[name]


@pytest.mark.parametrize("name", WRITES)
@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded", "text/json"],
)
def test_a_write_whose_body_is_not_declared_json_is_refused_with_415_and_changes_nothing(
    table: Table, name: str, content_type: str
) -> None:
    table.meld(table.ann, "2♥ 3♥ 4♥")
    before = table.state()
    method, path, body = a_write(table, name)
    response = table.client.open(
        path, method=method, data=json.dumps(body), content_type=content_type
    )
    assert refused(response, 415) == NOT_JSON
    assert table.state() == before
    assert count(table.client.application, GameSession) == 1


@pytest.mark.parametrize(
    "content_type",
    ["multipart/form-data", "application/xml", "application/merge-patch+json", "application/jsonp"],
)
def test_other_media_types_are_refused_with_415(table: Table, content_type: str) -> None:
    before = table.state()
    response = table.client.post(
        f"{API}/games/{table.game}/melds",
        data={"player": str(table.ann), "cards": "6♠ 6♥ 6♦"}
        if content_type == "multipart/form-data"
        else json.dumps({"player": table.ann, "cards": "6♠ 6♥ 6♦"}),
        content_type=content_type,
    )
    refused(response, 415)
    assert table.state() == before


@pytest.mark.parametrize(
    "content_type",
    ["application/json; charset=utf-8", "Application/JSON; Charset=UTF-8", "APPLICATION/JSON"],
)
def test_json_with_a_charset_or_in_capitals_is_json(table: Table, content_type: str) -> None:
    body = json.dumps({"player": table.ann, "cards": "6♠ 6♥ 6♦"})
    response = table.client.post(
        f"{API}/games/{table.game}/melds", data=body, content_type=content_type
    )
    assert ok(response, 201)["value"] == 18


def test_a_write_without_a_body_needs_no_content_type(table: Table) -> None:
    game = f"{API}/games/{table.game}"
    first = table.meld(table.ann, "2♥ 3♥ 4♥")
    table.meld(table.bob, "9♦ 9♥ 9♠")
    undone = table.client.post(f"{game}/undo")
    assert "Content-Type" not in undone.request.headers
    assert ok(undone)["game"]["entries"][-1]["id"] == first["entry"]
    assert table.client.delete(f"{game}/entries/{first['entry']}").status_code == 204
    ok(table.finish(None, {}))
    assert ok(table.client.post(f"{game}/reopen"))["status"] == "open"
    ok(table.finish(None, {}))
    ok(table.client.post(f"{API}/sessions/{table.session}/games"), 201)


def test_a_body_without_a_content_type_is_refused_with_415(table: Table) -> None:
    before = table.state()
    answer = table.client.post(f"{API}/games/{table.game}/undo", data=b"{}")
    assert "Content-Type" not in answer.request.headers
    refused(answer, 415)
    # Declared, an empty body is not JSON either.
    refused(table.client.post(f"{API}/games/{table.game}/undo", content_type="text/plain"), 415)
    assert table.state() == before


def test_a_session_cannot_be_created_without_a_body_or_from_a_form(client: FlaskClient) -> None:
    refused(client.post(f"{API}/sessions"), 400)  # nothing declared: the body is missing
    form = client.post(f"{API}/sessions", data={"players": ["Ann", "Bob"]})
    assert refused(form, 415) == NOT_JSON
    assert count(client.application, GameSession) == 0


def test_415_comes_before_the_key_and_tells_a_stranger_nothing(table: Table) -> None:
    stranger = table.client.application.test_client()
    body = json.dumps({"player": table.ann, "cards": "6♠ 6♥ 6♦"})
    answers = [
        stranger.post(f"{API}/games/{game}/melds", data=body, content_type="text/plain")
        for game in (table.game, table.game + 1000)
    ]
    assert [answer.status_code for answer in answers] == [415, 415]
    assert answers[0].json == answers[1].json == {"error": NOT_JSON}


def test_415_answers_in_json_also_when_asked_for_german(client: FlaskClient) -> None:
    answer = client.post(
        f"{API}/sessions?lang=de", data='{"players": ["Ann", "Bob"]}', content_type="text/plain"
    )
    assert answer.status_code == 415
    assert answer.is_json
    assert answer.json["error"]


def test_a_cross_site_simple_post_creates_no_session_on_a_real_server(
    live_server: str, app: Any
) -> None:
    """What ``fetch(…, {mode: "no-cors"})`` from any page sends: text/plain, the page's Origin."""
    request = urllib.request.Request(
        f"{live_server}/api/v1/sessions",
        data=b'{"players": ["Ann", "Bob"]}',
        method="POST",
        headers={"Content-Type": "text/plain;charset=UTF-8", "Origin": "https://evil.example"},
    )
    with pytest.raises(urllib.error.HTTPError) as refusal:
        urllib.request.urlopen(request, timeout=10)
    with refusal.value as answer:
        assert answer.code == 415
        assert json.loads(answer.read()) == {"error": NOT_JSON}
    assert count(app, GameSession) == 0


def test_a_failure_of_the_server_answers_500_in_json_in_the_language_asked_for(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(queries, "read_game", broken)
    answer = table.client.get(f"{API}/games/{table.game}?lang=de")
    assert answer.status_code == 500
    assert answer.json == {
        "error": "Auf dem Server ist etwas schiefgegangen; nichts wurde gespeichert."
    }


# --- POST /check -------------------------------------------------------------------------------


def test_check_names_a_sequence_turning_the_corner_with_its_value(client: FlaskClient) -> None:
    body = ok(client.post(f"{API}/check", json={"cards": "Q♣ K♣ A♣ 2♣ 3♣"}))
    assert body["valid"] is True
    assert body["kind"] == "sequence"
    assert body["cards"] == ["Q♣", "K♣", "A♣", "2♣", "3♣"]
    assert body["value"] == 30


@pytest.mark.parametrize(
    ("cards", "kind", "shown", "value"),
    [
        ("6♠ 6♥ 6♦ 6♣", "set", None, 24),
        ("A♠ A♥ A♦", "set", None, 45),
        ("3♦ 2♦ A♦", "sequence", ["A♦", "2♦", "3♦"], 6),
        ("ac qc kc 2c", "sequence", ["Q♣", "K♣", "A♣", "2♣"], 27),
        ("5S 6S 7S 8S 9S", "sequence", ["5♠", "6♠", "7♠", "8♠", "9♠"], 35),
    ],
)
def test_check_values_the_seed_examples(
    client: FlaskClient, cards: str, kind: str, shown: list[str] | None, value: int
) -> None:
    body = ok(client.post(f"{API}/check", json={"cards": cards}))
    assert (body["valid"], body["kind"], body["value"]) == (True, kind, value)
    if shown is not None:
        assert body["cards"] == shown


def test_check_accepts_the_cards_as_a_list(client: FlaskClient) -> None:
    body = ok(client.post(f"{API}/check", json={"cards": ["D♣", "K♣", "A♣"]}))
    assert body["cards"] == ["Q♣", "K♣", "A♣"]
    assert body["value"] == 30


@pytest.mark.parametrize(
    ("cards", "value"),
    [("A♦", 10), ("A♦ 2♦", 7), ("10♦", 10), ("9♦ 10♦", 19)],
)
def test_check_onto_a_meld_values_only_the_added_cards(
    client: FlaskClient, cards: str, value: int
) -> None:
    body = ok(client.post(f"{API}/check", json={"cards": cards, "onto": "J♦ Q♦ K♦"}))
    assert body["valid"] is True
    assert body["value"] == value


@pytest.mark.parametrize(
    "body",
    [
        {"cards": "6♠ 7♥ 8♦"},
        {"cards": "6♠ 6♥"},
        {"cards": "6♠ 6♠ 6♥"},
        {"cards": "5♠ 6♠ 8♠"},
        {"cards": "6♠ 6♥ 6♦ 6♣ 6♠"},
        {"cards": "9♦", "onto": "J♦ Q♦ K♦"},
        {"cards": "J♦", "onto": "J♦ Q♦ K♦"},
        {"cards": "7♣", "onto": "6♠ 6♥ 6♦"},
        {"cards": "A♦", "onto": "J♦ Q♠ K♦"},
    ],
)
def test_check_answers_an_illegal_combination_with_valid_false_and_a_reason(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    answer = ok(client.post(f"{API}/check", json=body))
    assert answer["valid"] is False
    assert isinstance(answer["error"], str)
    assert answer["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"cards": "Q♣ X♣ A♣"},
        {"cards": "1♠ 2♠ 3♠"},
        {"cards": "Q♣ K♣ A"},
        {"cards": "A♦", "onto": "zz"},
        {"cards": 5},
        {"cards": None},
        {"cards": ["Q♣", 3]},
        {"cards": "A♦", "onto": 5},
        {},
    ],
)
def test_check_refuses_unreadable_or_missing_cards_with_422(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    refused(client.post(f"{API}/check", json=body), 422)


# --- sessions ----------------------------------------------------------------------------------


def test_a_new_session_seats_the_players_in_order_and_is_open(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/sessions", json={"players": ["Ann", "Bob", "Cid"], "target": 700}
    )
    body = ok(response, 201)
    assert isinstance(body["id"], str)
    assert [player["name"] for player in body["players"]] == ["Ann", "Bob", "Cid"]
    assert all(isinstance(player["id"], int) for player in body["players"])
    assert body["target"] == 700
    assert body["status"] == "open"
    keys = {"edit_key": body.pop("edit_key"), "view_key": body.pop("view_key")}
    assert all(isinstance(key, str) and len(key) >= 32 for key in keys.values())
    assert body.pop("group") is None  # the new session's group, said once when it is made
    assert ok(client.get(f"{API}/sessions/{body['id']}")) == body


def test_a_new_session_plays_to_500_unless_told_otherwise(client: FlaskClient) -> None:
    assert new_session(client, ["Ann", "Bob"])["target"] == 500


def test_a_new_session_has_no_winner_zero_totals_and_no_games(client: FlaskClient) -> None:
    body = new_session(client, ["Ann", "Bob", "Cid", "Dan"])
    assert body["winner"] is None
    assert body["totals"] == {str(player["id"]): 0 for player in body["players"]}
    assert body["games"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["Ann"]},
        {"players": ["Ann", "Bob", "Cid", "Dan", "Eve"]},
        {"players": []},
        {"players": ["Ann", ""]},
        {"players": ["Ann", "   "]},
        {"players": ["Ann", "Ann"]},
        {"players": ["Ann", "ann"]},
        {"players": ["Ann", "B" * 41]},
        {"players": ["Ann", "Bob"], "target": 0},
        {"players": ["Ann", "Bob"], "target": -500},
        {"players": ["Ann", "Bob"], "target": "500"},
        {"players": ["Ann", "Bob"], "target": 500.5},
        {"players": ["Ann", "Bob"], "target": True},
        {"players": ["Ann", "Bob"], "target": None},
        {"players": ["Ann", "Bob"], "target": HUGE},
        {"players": "Ann, Bob"},
        {"players": ["Ann", 2]},
        {"players": None},
        {"target": 500},
        {"players": ["Ann", "Bob"], "dealer": "Zed"},
        {"players": ["Ann", "Bob"], "dealer": 2},
        {"players": ["Ann", "Bob"], "dealer": -1},
        {"players": ["Ann", "Bob"], "dealer": HUGE},
        {"players": ["Ann", "Bob"], "dealer": True},
        {"players": ["Ann", "Bob"], "dealer": None},
        {"players": ["Ann", "Bob"], "dealer": 1.0},
    ],
)
def test_a_session_that_cannot_be_played_is_refused_with_422_and_not_saved(
    client: FlaskClient, body: dict[str, Any]
) -> None:
    refused(client.post(f"{API}/sessions", json=body), 422)
    assert count(client.application, GameSession) == 0


@pytest.mark.parametrize(("dealer", "seat"), [(0, 0), (2, 2), ("Bob", 1), ("Cid", 2)])
def test_the_first_dealer_can_be_chosen_by_seat_or_name(
    client: FlaskClient, dealer: int | str, seat: int
) -> None:
    session = new_session(client, ["Ann", "Bob", "Cid"], dealer=dealer)
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    assert game["dealer"] == session["players"][seat]["id"]


def test_the_first_dealer_can_be_drawn_by_lot(client: FlaskClient) -> None:
    session = new_session(client, ["Ann", "Bob", "Cid"], dealer="lot")
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    assert game["dealer"] in {player["id"] for player in session["players"]}


@pytest.mark.parametrize("session_id", [2, 0, 999, HUGE])
def test_an_unknown_session_answers_404(table: Table, session_id: int) -> None:
    refused(table.client.get(f"{API}/sessions/{session_id}"), 404)
    before = table.state()
    refused(table.client.post(f"{API}/sessions/{session_id}/games"), 404)
    assert table.state() == before


# --- games -------------------------------------------------------------------------------------


def test_a_new_game_is_open_and_dealt_by_the_first_player(client: FlaskClient) -> None:
    session = new_session(client, ["Ann", "Bob", "Cid"])
    body = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    assert isinstance(body["id"], int)
    assert body["number"] == 1
    assert body["dealer"] == session["players"][0]["id"]
    assert body["status"] == "open"


def test_the_deal_passes_clockwise_from_game_to_game(table: Table) -> None:
    dealers = [table.get_game()["dealer"]]
    for number in (2, 3, 4):
        ok(table.finish(None, {}))
        game = ok(table.client.post(f"{API}/sessions/{table.session}/games"), 201)
        assert game["number"] == number
        dealers.append(game["dealer"])
        table = Table(table.client, table.session, game["id"], table.ann, table.bob, table.cid)
    assert dealers == [table.ann, table.bob, table.cid, table.ann]


def test_each_finish_answers_the_session_as_it_reads_afterwards(client: FlaskClient) -> None:
    session = new_session(client, ["Ann", "Bob", "Cid"], dealer="Cid")
    ann, bob, cid = (player["id"] for player in session["players"])
    next_dealers = []
    for winner in (ann, None, bob):
        game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
        table = Table(client, session["id"], game["id"], ann, bob, cid)
        table.meld(ann, "6♠ 6♥ 6♦")
        table.meld(bob, "2♣ 3♣ 4♣")
        left = {ann: "K♣", bob: "Q♥", cid: "9♦"}
        hands = {player: cards for player, cards in left.items() if winner and player != winner}
        body = ok(table.finish(winner, hands))
        assert body["session"] == table.get_session()
        next_dealers.append(body["session"]["dealer"])
    assert next_dealers == [ann, bob, cid]


def test_a_second_game_cannot_start_while_one_is_open(table: Table) -> None:
    before = table.state()
    refused(table.client.post(f"{API}/sessions/{table.session}/games"), 409)
    assert table.state() == before


def test_no_game_can_start_once_the_session_is_finished(client: FlaskClient) -> None:
    session = new_session(client, ["Ann", "Bob"], target=10)
    ann, bob = (player["id"] for player in session["players"])
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    ok(
        client.post(f"{API}/games/{game['id']}/melds", json={"player": ann, "cards": "J♠ Q♠ K♠"}),
        201,
    )
    finished = ok(
        client.post(
            f"{API}/games/{game['id']}/finish", json={"winner": ann, "hands": {str(bob): "2♥"}}
        )
    )
    assert finished["session"]["status"] == "finished"
    assert finished["session"]["winner"] == ann
    before = ok(client.get(f"{API}/sessions/{session['id']}"))
    assert finished["session"] == before
    refused(client.post(f"{API}/sessions/{session['id']}/games"), 409)
    assert ok(client.get(f"{API}/sessions/{session['id']}")) == before


def test_the_game_shows_its_melds_as_they_lie_its_entries_in_order_and_its_points(
    table: Table,
) -> None:
    meld = table.meld(table.ann, "4♦ 2♦ 3♦")
    layoff = table.layoff(table.bob, meld["id"], "A♦")
    sixes = table.meld(table.cid, "6♠ 6♥ 6♦")
    game = table.get_game()
    assert game["status"] == "open"
    assert game["melds"] == [
        {
            "id": meld["id"],
            "player": table.ann,
            "kind": "sequence",
            "cards": ["A♦", "2♦", "3♦", "4♦"],
            "value": 9,
        },
        {
            "id": sixes["id"],
            "player": table.cid,
            "kind": "set",
            "cards": ["6♠", "6♥", "6♦"],
            "value": 18,
        },
    ]
    entries = [
        {key: entry[key] for key in ("id", "type", "player", "meld", "cards", "value")}
        for entry in game["entries"]
    ]
    assert entries == [
        {
            "id": meld["id"],
            "type": "meld",
            "player": table.ann,
            "meld": meld["id"],
            "cards": ["2♦", "3♦", "4♦"],
            "value": 9,
        },
        {
            "id": layoff["id"],
            "type": "layoff",
            "player": table.bob,
            "meld": meld["id"],
            "cards": ["A♦"],
            "value": 1,
        },
        {
            "id": sixes["id"],
            "type": "meld",
            "player": table.cid,
            "meld": sixes["id"],
            "cards": ["6♠", "6♥", "6♦"],
            "value": 18,
        },
    ]
    assert game["points"] == {str(table.ann): 9, str(table.bob): 1, str(table.cid): 18}
    session = table.get_session()
    assert session["totals"] == game["points"]
    assert session["games"][0]["points"] == game["points"]


@pytest.mark.parametrize("game_id", [2, 0, 999, HUGE])
def test_an_unknown_game_answers_404_everywhere(table: Table, game_id: int) -> None:
    client = table.client
    before = table.state()
    refused(client.get(f"{API}/games/{game_id}"), 404)
    body = {"player": table.ann, "cards": "6♠ 6♥ 6♦"}
    refused(client.post(f"{API}/games/{game_id}/melds", json=body), 404)
    body = {"player": table.ann, "meld": 1, "cards": "6♣"}
    refused(client.post(f"{API}/games/{game_id}/layoffs", json=body), 404)
    refused(client.delete(f"{API}/games/{game_id}/entries/1"), 404)
    refused(client.post(f"{API}/games/{game_id}/undo"), 404)
    refused(client.post(f"{API}/games/{game_id}/finish", json={"winner": None}), 404)
    refused(client.post(f"{API}/games/{game_id}/settlement", json={"winner": None}), 404)
    # A missing game answers 404 before a wrong body answers 422.
    refused(client.post(f"{API}/games/{game_id}/melds", json={"cards": 5}), 404)
    refused(client.post(f"{API}/games/{game_id}/layoffs", json={}), 404)
    refused(client.post(f"{API}/games/{game_id}/finish", json={}), 404)
    refused(client.post(f"{API}/games/{game_id}/settlement", json={}), 404)
    assert table.state() == before


# --- melds -------------------------------------------------------------------------------------


def test_a_meld_is_recorded_in_playing_order_with_its_value(table: Table) -> None:
    response = table.post("melds", {"player": table.ann, "cards": "3♣ A♣ 2♣ K♣ Q♣"})
    body = ok(response, 201)
    assert isinstance(body["id"], int)
    assert body["kind"] == "sequence"
    assert body["cards"] == ["Q♣", "K♣", "A♣", "2♣", "3♣"]
    assert body["value"] == 30
    assert table.get_game()["melds"][0]["id"] == body["id"]


def test_a_meld_may_be_written_in_letters_and_german_ranks(table: Table) -> None:
    body = table.meld(table.bob, "dd kd ad")
    assert body["cards"] == ["Q♦", "K♦", "A♦"]
    assert body["value"] == 30
    assert table.meld(table.cid, ["10h", "TS", "10c"])["kind"] == "set"


MELD_REFUSALS = [
    pytest.param({"cards": "6♠ 7♥ 8♦"}, id="illegal"),
    pytest.param({"cards": "6♠ 6♥"}, id="too few"),
    pytest.param({"cards": "K♠ A♠ 3♠"}, id="gap"),
    pytest.param({"cards": "9♣ 9♣ 9♥"}, id="card twice"),
    pytest.param({"cards": "6♣ 7♣ 8♣"}, id="card on the table"),
    pytest.param({"cards": "6X 6♥ 6♦"}, id="unreadable"),
    pytest.param({"cards": ""}, id="no cards"),
    pytest.param({"cards": None}, id="cards null"),
    pytest.param({"cards": 666}, id="cards number"),
    pytest.param({"cards": ["9♥", 9]}, id="cards list with a number"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": None}, id="player null"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": "Ann"}, id="player name"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": True}, id="player true"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": 1.5}, id="player float"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": HUGE}, id="player huge"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": 0}, id="player zero"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": -1}, id="player negative"),
    pytest.param({"cards": "9♥ 9♠ 9♦", "player": 999}, id="player unknown"),
]


@pytest.mark.parametrize("body", MELD_REFUSALS)
def test_a_meld_against_the_rules_or_badly_written_is_refused_and_changes_nothing(
    table: Table, body: dict[str, Any]
) -> None:
    table.meld(table.ann, "6♣ 7♣ 8♣")
    before = table.state()
    refused(table.post("melds", {"player": table.bob, **body}), 422)
    assert table.state() == before


def test_a_meld_without_a_player_or_cards_is_refused(table: Table) -> None:
    before = table.state()
    refused(table.post("melds", {"cards": "9♥ 9♠ 9♦"}), 422)
    refused(table.post("melds", {"player": table.ann}), 422)
    refused(table.post("melds", {}), 422)
    assert table.state() == before


def test_a_player_of_another_session_cannot_meld(table: Table, other: Table) -> None:
    before = table.state()
    refused(table.post("melds", {"player": other.ann, "cards": "9♥ 9♠ 9♦"}), 422)
    assert table.state() == before


def test_the_same_card_may_lie_in_two_different_games(table: Table, other: Table) -> None:
    table.meld(table.ann, "9♥ 9♠ 9♦")
    assert other.meld(other.ann, "9♥ 9♠ 9♦")["value"] == 27


# --- layoffs -----------------------------------------------------------------------------------


def test_a_layoff_answers_its_value_and_the_meld_as_it_lies_now(table: Table) -> None:
    meld = table.meld(table.ann, "J♦ Q♦ K♦")
    response = table.post("layoffs", {"player": table.bob, "meld": meld["id"], "cards": "A♦"})
    body = ok(response, 201)
    assert isinstance(body["id"], int)
    assert body["id"] != meld["id"]
    assert body["value"] == 10
    assert body["meld"] == {
        "id": meld["id"],
        "player": table.ann,
        "kind": "sequence",
        "cards": ["J♦", "Q♦", "K♦", "A♦"],
        "value": 30,
    }


def test_layoffs_are_valued_when_written_and_never_again_r3(table: Table) -> None:
    diamonds = table.meld(table.ann, "J♦ Q♦ K♦")
    assert table.layoff(table.bob, diamonds["id"], "A♦")["value"] == 10
    assert table.layoff(table.bob, diamonds["id"], "2♦")["value"] == 2
    spades = table.meld(table.ann, "J♠ Q♠ K♠")
    assert table.layoff(table.cid, spades["id"], "A♠ 2♠")["value"] == 7
    game = table.get_game()
    assert game["points"] == {str(table.ann): 60, str(table.bob): 12, str(table.cid): 7}
    assert game["melds"][0]["cards"] == ["J♦", "Q♦", "K♦", "A♦", "2♦"]
    assert game["melds"][0]["value"] == 30


def test_a_layoff_at_the_low_end_and_onto_a_set(table: Table) -> None:
    run = table.meld(table.ann, "5♥ 6♥ 7♥")
    assert table.layoff(table.bob, run["id"], "4♥ 3♥")["meld"]["cards"] == [
        "3♥",
        "4♥",
        "5♥",
        "6♥",
        "7♥",
    ]
    nines = table.meld(table.cid, "9♠ 9♦ 9♣")
    layoff = table.layoff(table.ann, nines["id"], "9♥")
    assert layoff["value"] == 9
    assert sorted(layoff["meld"]["cards"]) == sorted(["9♠", "9♦", "9♣", "9♥"])


LAYOFF_REFUSALS = [
    pytest.param({"cards": "9♦"}, id="does not fit"),
    pytest.param({"cards": "J♦"}, id="card in the meld"),
    pytest.param({"cards": "5♣"}, id="card on the table elsewhere"),
    pytest.param({"cards": "A♦ A♦"}, id="card twice"),
    pytest.param({"cards": "A♠"}, id="other suit"),
    pytest.param({"cards": "zz"}, id="unreadable"),
    pytest.param({"cards": ""}, id="no cards"),
    pytest.param({"cards": 10}, id="cards number"),
    pytest.param({"meld": 999}, id="meld unknown"),
    pytest.param({"meld": HUGE}, id="meld huge"),
    pytest.param({"meld": 0}, id="meld zero"),
    pytest.param({"meld": "1"}, id="meld text"),
    pytest.param({"meld": None}, id="meld null"),
    pytest.param({"meld": True}, id="meld true"),
    pytest.param({"player": HUGE}, id="player huge"),
    pytest.param({"player": "Bob"}, id="player name"),
    pytest.param({"player": 999}, id="player unknown"),
]


@pytest.mark.parametrize("change", LAYOFF_REFUSALS)
def test_a_layoff_that_does_not_fit_or_is_badly_written_is_refused_and_changes_nothing(
    table: Table, change: dict[str, Any]
) -> None:
    meld = table.meld(table.ann, "J♦ Q♦ K♦")
    table.meld(table.cid, "3♣ 4♣ 5♣")
    before = table.state()
    body = {"player": table.bob, "meld": meld["id"], "cards": "A♦", **change}
    refused(table.post("layoffs", body), 422)
    assert table.state() == before


@pytest.mark.parametrize("missing", ["player", "meld", "cards"])
def test_a_layoff_without_a_field_is_refused(table: Table, missing: str) -> None:
    meld = table.meld(table.ann, "J♦ Q♦ K♦")
    before = table.state()
    body = {"player": table.bob, "meld": meld["id"], "cards": "A♦"}
    del body[missing]
    refused(table.post("layoffs", body), 422)
    assert table.state() == before


def test_a_layoff_onto_a_layoff_entry_is_refused(table: Table) -> None:
    meld = table.meld(table.ann, "J♦ Q♦ K♦")
    layoff = table.layoff(table.bob, meld["id"], "A♦")
    before = table.state()
    body = {"player": table.cid, "meld": layoff["id"], "cards": "2♦"}
    refused(table.post("layoffs", body), 422, 404)
    assert table.state() == before


def test_a_layoff_onto_a_meld_of_another_game_is_refused(table: Table, other: Table) -> None:
    theirs = other.meld(other.ann, "J♦ Q♦ K♦")
    before, their_before = table.state(), other.state()
    body = {"player": table.bob, "meld": theirs["id"], "cards": "A♦"}
    refused(table.post("layoffs", body), 422, 404)
    assert table.state() == before
    assert other.state() == their_before


def test_a_layoff_onto_a_deleted_meld_is_refused(table: Table) -> None:
    meld = table.meld(table.ann, "J♦ Q♦ K♦")
    assert table.delete(meld["id"]).status_code == 204
    before = table.state()
    body = {"player": table.bob, "meld": meld["id"], "cards": "A♦"}
    refused(table.post("layoffs", body), 422, 404)
    assert table.state() == before


# --- deleting entries and undo ----------------------------------------------------------------


def test_a_meld_nothing_builds_on_can_be_deleted_and_its_cards_melded_again(table: Table) -> None:
    meld = table.meld(table.ann, "6♠ 6♥ 6♦")
    response = table.delete(meld["id"])
    assert response.status_code == 204
    assert response.get_data() == b""
    game = table.get_game()
    assert game["melds"] == []
    assert game["entries"] == []
    assert game["points"][str(table.ann)] == 0
    assert table.meld(table.bob, "6♠ 6♥ 6♦ 6♣")["value"] == 24


def test_a_meld_under_a_layoff_cannot_be_deleted(table: Table) -> None:
    meld = table.meld(table.ann, "6♠ 6♥ 6♦")
    table.layoff(table.bob, meld["id"], "6♣")
    before = table.state()
    refused(table.delete(meld["id"]), 409)
    assert table.state() == before


def test_a_layoff_under_a_further_layoff_at_that_end_cannot_be_deleted(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    first = table.layoff(table.bob, meld["id"], "8♥")
    table.layoff(table.cid, meld["id"], "9♥")
    before = table.state()
    refused(table.delete(first["id"]), 409)
    assert table.state() == before


def test_a_layoff_under_an_ace_that_turned_the_corner_cannot_be_deleted(table: Table) -> None:
    meld = table.meld(table.ann, "Q♠ K♠ A♠")
    two = table.layoff(table.bob, meld["id"], "2♠")
    table.layoff(table.cid, meld["id"], "3♠")
    before = table.state()
    refused(table.delete(two["id"]), 409)
    assert table.state() == before


def test_a_layoff_at_the_other_end_stays_deletable(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    low = table.layoff(table.bob, meld["id"], "4♥")
    high = table.layoff(table.cid, meld["id"], "8♥")
    assert table.delete(low["id"]).status_code == 204
    game = table.get_game()
    assert game["melds"][0]["cards"] == ["5♥", "6♥", "7♥", "8♥"]
    assert [entry["id"] for entry in game["entries"]] == [meld["id"], high["id"]]
    assert game["points"] == {str(table.ann): 18, str(table.bob): 0, str(table.cid): 8}


def test_the_latest_layoff_can_be_deleted_and_the_meld_after_it(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    layoff = table.layoff(table.bob, meld["id"], "8♥")
    assert table.delete(layoff["id"]).status_code == 204
    assert table.delete(meld["id"]).status_code == 204
    assert table.get_game()["entries"] == []


@pytest.mark.parametrize("entry_id", [999, 0, HUGE])
def test_deleting_an_unknown_entry_answers_404(table: Table, entry_id: int) -> None:
    table.meld(table.ann, "5♥ 6♥ 7♥")
    before = table.state()
    refused(table.delete(entry_id), 404)
    assert table.state() == before


def test_an_entry_cannot_be_deleted_through_another_game(table: Table, other: Table) -> None:
    theirs = other.meld(other.ann, "5♥ 6♥ 7♥")
    before, their_before = table.state(), other.state()
    refused(table.delete(theirs["id"]), 404)
    assert (table.state(), other.state()) == (before, their_before)


def test_entries_of_a_finished_game_are_final(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    ok(table.finish(table.ann, {table.bob: "K♣", table.cid: "2♠"}))
    before = table.state()
    refused(table.delete(meld["id"]), 409)
    refused(table.post("undo"), 409)
    refused(table.post("melds", {"player": table.bob, "cards": "9♥ 9♠ 9♦"}), 409)
    body = {"player": table.bob, "meld": meld["id"], "cards": "8♥"}
    refused(table.post("layoffs", body), 409)
    assert table.state() == before


def test_entries_of_an_abandoned_game_are_final(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    ok(table.finish(None, {}))
    before = table.state()
    refused(table.delete(meld["id"]), 409)
    refused(table.post("undo"), 409)
    refused(table.post("melds", {"player": table.bob, "cards": "9♥ 9♠ 9♦"}), 409)
    assert table.state() == before


# --- corrections -------------------------------------------------------------------------------


def test_a_correction_replaces_the_cards_and_answers_the_entry_and_the_game(table: Table) -> None:
    meld = table.meld(table.ann, "Q♣ K♣ A♣")
    body = ok(table.correct(meld["id"], {"cards": "A♣ 2♣ 3♣"}))
    assert (body["id"], body["type"], body["player"]) == (meld["id"], "meld", table.ann)
    assert (body["cards"], body["values"], body["value"]) == (["A♣", "2♣", "3♣"], [1, 2, 3], 6)
    game = table.get_game()
    assert body["game"] == game
    assert game["melds"][0]["cards"] == ["A♣", "2♣", "3♣"]
    assert game["points"][str(table.ann)] == 6


def test_a_correction_gives_an_entry_to_another_player_with_its_points(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    table.layoff(table.cid, meld["id"], "8♥")
    body = ok(table.correct(meld["id"], {"player": table.bob}))
    assert (body["player"], body["cards"], body["value"]) == (table.bob, ["5♥", "6♥", "7♥"], 18)
    points = table.get_game()["points"]
    assert points == {str(table.ann): 0, str(table.bob): 18, str(table.cid): 8}


def test_a_correction_moves_a_layoff_onto_the_meld_it_went_onto(table: Table) -> None:
    sequence = table.meld(table.ann, "J♦ Q♦ K♦")
    aces = table.meld(table.bob, "A♠ A♥ A♣")
    layoff = table.layoff(table.cid, sequence["id"], "A♦")
    body = ok(table.correct(layoff["id"], {"meld": aces["id"]}))
    assert (body["meld"], body["value"]) == (aces["id"], 15)
    melds = {meld["id"]: meld["cards"] for meld in body["game"]["melds"]}
    assert melds[sequence["id"]] == ["J♦", "Q♦", "K♦"]
    assert sorted(melds[aces["id"]]) == sorted(["A♠", "A♥", "A♣", "A♦"])
    assert body["game"] == table.get_game()


def test_a_meld_cannot_be_moved_onto_another_meld(table: Table) -> None:
    # 8♠ 9♠ 10♠ would fit onto 5♠ 6♠ 7♠ as a layoff: a meld stays a meld all the same.
    first = table.meld(table.ann, "5♠ 6♠ 7♠")
    second = table.meld(table.bob, "8♠ 9♠ 10♠")
    before = table.state()
    error = refused(table.correct(second["id"], {"meld": first["id"]}), 422)
    assert "only laid-off cards can be moved" in error
    assert table.state() == before


def test_a_layoff_cannot_be_moved_onto_a_meld_recorded_after_it(table: Table) -> None:
    hearts = table.meld(table.ann, "5♥ 6♥ 7♥")
    layoff = table.layoff(table.bob, hearts["id"], "8♥")
    later = table.meld(table.cid, "9♥ 10♥ J♥")
    before = table.state()
    error = refused(table.correct(layoff["id"], {"meld": later["id"]}), 422)
    assert "recorded after these cards were laid off" in error
    assert table.state() == before


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({}, 422),  # nothing to correct
        ({"cards": "Q♣ K♥"}, 422),  # no meld
        ({"cards": 7}, 422),
        ({"player": "Bob"}, 422),
        ({"player": HUGE}, 422),  # nobody at this table
        ({"cards": "5♥ 6♥ 7♥"}, 422),  # lies on the table in another entry
    ],
)
def test_a_wrong_correction_is_refused_and_changes_nothing(
    table: Table, body: dict[str, Any], status: int
) -> None:
    meld = table.meld(table.ann, "Q♣ K♣ A♣")
    table.meld(table.bob, "5♥ 6♥ 7♥")
    before = table.state()
    refused(table.correct(meld["id"], body), status)
    assert table.state() == before


def test_a_correction_with_nothing_to_correct_says_so_in_german(table: Table) -> None:
    meld = table.meld(table.ann, "Q♣ K♣ A♣")
    url = f"{API}/games/{table.game}/entries/{meld['id']}?lang=de"
    error = refused(table.client.patch(url, json={}), 422)
    assert error == "Die Karten, den Spieler oder die Kombination angeben, die zu berichtigen sind."


def test_a_correction_under_a_later_layoff_or_in_an_ended_game_answers_409(table: Table) -> None:
    meld = table.meld(table.ann, "Q♣ K♣ A♣")
    table.layoff(table.bob, meld["id"], "2♣")
    before = table.state()
    refused(table.correct(meld["id"], {"cards": "9♣ 10♣ J♣"}), 409)
    assert table.state() == before
    ok(table.finish(table.bob, {table.ann: "K♥", table.cid: "2♠"}))
    before = table.state()
    refused(table.correct(meld["id"], {"player": table.cid}), 409)
    assert table.state() == before


def test_an_entry_cannot_be_corrected_through_another_game(table: Table, other: Table) -> None:
    theirs = other.meld(other.ann, "5♥ 6♥ 7♥")
    before, their_before = table.state(), other.state()
    refused(table.correct(theirs["id"], {"cards": "5♥ 6♥ 7♥ 8♥"}), 404)
    assert (table.state(), other.state()) == (before, their_before)


def test_undo_deletes_the_latest_entry_and_answers_the_game(table: Table) -> None:
    meld = table.meld(table.ann, "5♥ 6♥ 7♥")
    layoff = table.layoff(table.bob, meld["id"], "8♥")
    body = ok(table.post("undo"))
    assert body["undone"] == layoff["id"]
    assert body["game"] == table.get_game()
    assert [entry["id"] for entry in body["game"]["entries"]] == [meld["id"]]
    assert body["game"]["melds"][0]["cards"] == ["5♥", "6♥", "7♥"]
    assert ok(table.post("undo"))["undone"] == meld["id"]
    assert table.get_game()["entries"] == []


def test_undo_with_nothing_to_undo_answers_409(table: Table) -> None:
    before = table.state()
    refused(table.post("undo"), 409)
    assert table.state() == before


# --- finishing a game --------------------------------------------------------------------------


def test_finishing_books_the_hands_for_the_winner(table: Table) -> None:
    table.meld(table.ann, "6♠ 6♥ 6♦")
    table.meld(table.bob, "2♣ 3♣ 4♣")
    table.meld(table.ann, "J♥ Q♥ K♥")
    body = ok(table.finish(table.ann, {table.bob: "A♠ 7♥", table.cid: "K♣"}, romme=False))
    assert body["winner"] == table.ann
    assert body["romme"] is False
    assert body["hand_points"] == {str(table.bob): 22, str(table.cid): 10}
    assert body["settlement"] == {str(table.ann): 32, str(table.bob): 0, str(table.cid): 0}
    session = table.get_session()
    assert body["session"] == session
    assert session["totals"] == {str(table.ann): 80, str(table.bob): 9, str(table.cid): 0}
    assert session["games"][0] == {
        "id": table.game,
        "number": 1,
        "dealer": table.ann,
        "status": "finished",
        "winner": table.ann,
        "romme": False,
        "points": session["totals"],
    }
    game = table.get_game()
    assert game["status"] == "finished"
    assert game["points"] == session["totals"]


def test_a_romme_hand_is_inferred_when_romme_is_left_out(table: Table) -> None:
    meld = table.meld(table.bob, "2♣ 3♣ 4♣")
    table.layoff(table.cid, meld["id"], "5♣")
    table.meld(table.ann, "6♠ 6♥ 6♦")
    table.meld(table.ann, "9♥ 10♥ J♥")
    table.layoff(table.ann, meld["id"], "6♣")
    body = ok(table.finish(table.ann, {table.bob: "A♠ 7♥", table.cid: "K♣"}))
    assert body["romme"] is True
    assert body["settlement"] == {str(table.ann): 64, str(table.bob): 0, str(table.cid): 0}
    assert table.get_session()["totals"] == {
        str(table.ann): 18 + 29 + 6 + 64,
        str(table.bob): 9,
        str(table.cid): 5,
    }
    assert table.get_session()["games"][0]["romme"] is True


def test_no_romme_hand_is_inferred_when_the_winner_put_cards_down_earlier(table: Table) -> None:
    table.meld(table.ann, "6♠ 6♥ 6♦")
    table.meld(table.bob, "2♣ 3♣ 4♣")
    table.meld(table.ann, "J♥ Q♥ K♥")
    body = ok(table.finish(table.ann, {table.bob: "A♠", table.cid: "K♣"}))
    assert body["romme"] is False
    assert body["settlement"][str(table.ann)] == 25


def test_a_possible_romme_hand_can_be_declined(table: Table) -> None:
    table.meld(table.bob, "2♣ 3♣ 4♣")
    table.meld(table.ann, "6♠ 6♥ 6♦")
    table.meld(table.ann, "9♥ 10♥ J♥ Q♥")
    body = ok(table.finish(table.ann, {table.bob: "A♠", table.cid: "K♣"}, romme=False))
    assert body["romme"] is False
    assert body["settlement"][str(table.ann)] == 25


@pytest.mark.parametrize(
    ("melds", "layoff", "count"),
    [
        pytest.param([], "7♣", 1, id="a single card laid off"),
        pytest.param(["K♠ K♥ K♦"], "7♣", 4, id="K K K and a card laid off"),
    ],
)
def test_a_winner_who_put_down_fewer_cards_than_dealt_has_no_romme_hand(
    table: Table, melds: list[str], layoff: str, count: int
) -> None:
    meld = table.meld(table.bob, "4♣ 5♣ 6♣")
    for cards in melds:
        table.meld(table.ann, cards)
    table.layoff(table.ann, meld["id"], layoff)
    hands = {table.bob: "A♠", table.cid: "9♦"}
    before = table.state()
    preview = ok(
        table.post(
            "settlement",
            {"winner": table.ann, "hands": {str(player): cards for player, cards in hands.items()}},
        )
    )
    assert (preview["romme"], preview["romme_possible"]) == (False, False)
    assert f"Ann put down {count} card" in preview["romme_reason"]
    error = refused(table.finish(table.ann, hands, romme=True), 422)
    assert f"Ann put down {count} card" in error
    assert "at least the 7 cards dealt" in error
    assert table.state() == before
    body = ok(table.finish(table.ann, hands))
    assert body["romme"] is False
    assert body["settlement"][str(table.ann)] == 15 + 9


def test_romme_null_counts_as_left_out(table: Table) -> None:
    table.meld(table.ann, "6♠ 6♥ 6♦")
    table.meld(table.ann, "9♥ 10♥ J♥ Q♥")
    body = ok(table.finish(table.ann, {table.bob: "A♠", table.cid: "K♣"}, romme=None))
    assert body["romme"] is True
    assert body["settlement"][str(table.ann)] == 50


def test_abandoning_a_game_keeps_the_melds_and_scores_no_hands(table: Table) -> None:
    meld = table.meld(table.ann, "6♠ 6♥ 6♦")
    table.layoff(table.bob, meld["id"], "6♣")
    body = ok(table.finish(None, {table.bob: "A♠"}))
    assert body["winner"] is None
    # Nobody went out, so there is no Rommé question: null, as in the session's games.
    assert body["romme"] is None
    assert body["hand_points"] == {}
    assert body["booked"] == {str(table.ann): 18, str(table.bob): 6, str(table.cid): 0}
    assert body["settlement"] == {str(table.ann): 0, str(table.bob): 0, str(table.cid): 0}
    session = table.get_session()
    assert body["session"] == session
    assert session["games"][0]["status"] == "abandoned"
    assert session["games"][0]["winner"] is None
    assert session["totals"] == {str(table.ann): 18, str(table.bob): 6, str(table.cid): 0}
    assert table.get_game()["status"] == "abandoned"


def test_a_game_can_be_abandoned_before_anyone_melded(table: Table) -> None:
    body = ok(table.post("finish", {"winner": None}))
    assert body["session"]["games"][0]["status"] == "abandoned"
    assert body["session"]["status"] == "open"


def settled_table(table: Table) -> Table:
    """Put Bob's meld and then Ann's on the table: Ann may go out, but not with a Rommé hand."""
    table.meld(table.ann, "J♥ Q♥ K♥")
    table.meld(table.bob, "2♣ 3♣ 4♣")
    table.meld(table.ann, "6♠ 6♥ 6♦")
    return table


FINISH_REFUSALS = [
    pytest.param({"romme": True}, id="romme after an earlier meld"),
    pytest.param({"winner": None, "romme": True}, id="romme without a winner"),
    pytest.param({"winner": "cid"}, id="winner without entries"),
    pytest.param({"hands": {"bob": "6♠ 9♦", "cid": "K♣"}}, id="hand card on the table"),
    pytest.param({"hands": {"bob": "9♦ K♣", "cid": "K♣"}}, id="card in two hands"),
    pytest.param({"hands": {"bob": "9♦ 9♦", "cid": "K♣"}}, id="card twice in a hand"),
    pytest.param({"hands": {"bob": "9♦"}}, id="a hand missing"),
    pytest.param({"hands": {"bob": "9♦", "cid": ""}}, id="an empty hand"),
    pytest.param({"hands": {"ann": "2♠", "bob": "9♦", "cid": "K♣"}}, id="winner holds cards"),
    pytest.param({"hands": {"bob": "9♦", "cid": "K♣", "999": "2♠"}}, id="hand of a stranger"),
    pytest.param({"hands": {"bob": "9♦", "cid": "K♣", "x": "2♠"}}, id="hand key not an id"),
    pytest.param({"hands": {"bob": "9♦", "cid": "K♣", str(HUGE): "2♠"}}, id="hand key huge"),
    pytest.param({"hands": {"bob": "9X", "cid": "K♣"}}, id="unreadable hand"),
    pytest.param({"hands": {"bob": 9.5, "cid": "K♣"}}, id="hand a fraction"),
    pytest.param({"hands": {"bob": None, "cid": "K♣"}}, id="hand null"),
    pytest.param({"hands": ["9♦", "K♣"]}, id="hands a list"),
    pytest.param({"hands": "9♦ K♣"}, id="hands text"),
    pytest.param({"winner": 999}, id="winner unknown"),
    pytest.param({"winner": HUGE}, id="winner huge"),
    pytest.param({"winner": "Ann"}, id="winner a name"),
    pytest.param({"winner": True}, id="winner true"),
    pytest.param({"winner": 1.0}, id="winner float"),
    pytest.param({"romme": "yes"}, id="romme text"),
    pytest.param({"romme": 1}, id="romme number"),
    pytest.param({"winner": "missing"}, id="winner missing"),
]


def _resolve(table: Table, value: Any) -> Any:
    names = {"ann": table.ann, "bob": table.bob, "cid": table.cid}
    if isinstance(value, dict):
        return {str(names.get(key, key)): cards for key, cards in value.items()}
    return names.get(value, value) if isinstance(value, str) else value


def finish_body(table: Table, change: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "winner": table.ann,
        "hands": {str(table.bob): "9♦", str(table.cid): "K♣"},
    }
    for key, value in change.items():
        body[key] = _resolve(table, value)
    if body["winner"] == "missing":
        del body["winner"]
    return body


@pytest.mark.parametrize("endpoint", ["finish", "settlement"])
@pytest.mark.parametrize("change", FINISH_REFUSALS)
def test_an_impossible_end_of_game_is_refused_with_422_and_changes_nothing(
    table: Table, endpoint: str, change: dict[str, Any]
) -> None:
    settled_table(table)
    before = table.state()
    error = refused(table.post(endpoint, finish_body(table, change)), 422)
    assert table.state() == before
    assert table.get_game()["status"] == "open"
    if change.get("winner") == "cid":
        assert "meld" in error


def test_a_winner_of_another_session_is_refused(table: Table, other: Table) -> None:
    settled_table(table)
    before = table.state()
    body = {"winner": other.ann, "hands": {str(table.bob): "9♦", str(table.cid): "K♣"}}
    refused(table.post("finish", body), 422)
    assert table.state() == before


def test_finishing_twice_answers_409(table: Table) -> None:
    settled_table(table)
    ok(table.finish(table.ann, {table.bob: "9♦", table.cid: "K♣"}))
    before = table.state()
    refused(table.finish(table.ann, {table.bob: "9♦", table.cid: "K♣"}), 409)
    refused(table.finish(None, {}), 409)
    refused(table.post("settlement", {"winner": None}), 409)
    assert table.state() == before


def test_an_abandoned_game_cannot_be_finished_again(table: Table) -> None:
    settled_table(table)
    ok(table.finish(None, {}))
    before = table.state()
    refused(table.finish(table.ann, {table.bob: "9♦", table.cid: "K♣"}), 409)
    assert table.state() == before


# --- the settlement preview --------------------------------------------------------------------


def test_the_settlement_preview_shows_the_finish_and_writes_nothing(table: Table) -> None:
    settled_table(table)
    before = table.state()
    hands = {str(table.bob): "A♠ 7♥", str(table.cid): "K♣"}
    preview = ok(table.post("settlement", {"winner": table.ann, "hands": hands}))
    assert table.state() == before
    assert preview["romme"] is False
    assert preview["hand_points"] == {str(table.bob): 22, str(table.cid): 10}
    assert preview["settlement"] == {str(table.ann): 32, str(table.bob): 0, str(table.cid): 0}
    finished = ok(table.post("finish", {"winner": table.ann, "hands": hands}))
    for key in ("winner", "romme", "hand_points", "settlement"):
        assert preview[key] == finished[key]


def test_the_settlement_preview_tells_whether_a_romme_hand_is_possible(table: Table) -> None:
    table.meld(table.bob, "2♣ 3♣ 4♣")
    table.meld(table.ann, "6♠ 6♥ 6♦")
    table.meld(table.ann, "9♥ 10♥ J♥ Q♥")
    hands = {str(table.bob): "A♠", str(table.cid): "K♣"}
    before = table.state()
    preview = ok(table.post("settlement", {"winner": table.ann, "hands": hands}))
    assert preview["romme_possible"] is True
    assert preview["romme"] is True
    assert preview["settlement"][str(table.ann)] == 50
    assert table.state() == before


def test_previewing_an_abandonment_writes_nothing(table: Table) -> None:
    table.meld(table.ann, "6♠ 6♥ 6♦")
    before = table.state()
    preview = ok(table.post("settlement", {"winner": None}))
    assert preview["winner"] is None
    assert table.state() == before


@pytest.mark.parametrize(
    ("cards", "onto", "aces"),
    [
        ("Q♣ K♣ A♣ 2♣ 3♣", None, [{"card": "A♣", "position": "corner", "value": 5}]),
        (
            "A♠ A♥ A♦",
            None,
            [{"card": c, "position": "set", "value": 15} for c in ("A♠", "A♥", "A♦")],
        ),
        ("A♦ 2♦", "J♦ Q♦ K♦", [{"card": "A♦", "position": "corner", "value": 5}]),
        ("A♥", "2♥ 3♥ 4♥", [{"card": "A♥", "position": "low", "value": 1}]),
        ("2♥", "Q♥ K♥ A♥", []),
        ("5♠ 6♠ 7♠", None, []),
    ],
)
def test_check_says_where_each_scored_ace_lies(
    client: FlaskClient, cards: str, onto: str | None, aces: list[dict[str, object]]
) -> None:
    body = {"cards": cards} if onto is None else {"cards": cards, "onto": onto}
    answer = client.post("/api/v1/check", json=body)
    assert answer.status_code == 200
    assert answer.json["aces"] == aces


def test_finish_takes_the_points_the_table_counted_instead_of_cards(client: FlaskClient) -> None:
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob", "Cid"]}).json
    ann, bob, cid = (player["id"] for player in session["players"])
    game = client.post(f"/api/v1/sessions/{session['id']}/games").json
    client.post(f"/api/v1/games/{game['id']}/melds", json={"player": bob, "cards": "6♠ 6♥ 6♦"})
    client.post(f"/api/v1/games/{game['id']}/melds", json={"player": ann, "cards": "2♣ 3♣ 4♣"})
    client.post(f"/api/v1/games/{game['id']}/melds", json={"player": ann, "cards": "9♥ 10♥ J♥ Q♥"})
    finish = client.post(
        f"/api/v1/games/{game['id']}/finish",
        json={"winner": ann, "hands": {str(bob): 23, str(cid): "A♠ 7♥"}, "romme": True},
    )
    assert finish.status_code == 200
    assert finish.json["hand_points"] == {str(bob): 23, str(cid): 22}
    assert finish.json["settlement"] == {str(ann): 2 * (23 + 22), str(bob): 0, str(cid): 0}
    totals = {str(ann): 9 + 39 + 90, str(bob): 18, str(cid): 0}
    assert finish.json["session"]["totals"] == totals


@pytest.mark.parametrize("points", [0, 1, 397, -5, True])
def test_typed_hand_points_outside_what_a_hand_can_hold_are_refused(
    client: FlaskClient, points: object
) -> None:
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).json
    ann, bob = (player["id"] for player in session["players"])
    game = client.post(f"/api/v1/sessions/{session['id']}/games").json
    client.post(f"/api/v1/games/{game['id']}/melds", json={"player": ann, "cards": "2♣ 3♣ 4♣"})
    before = client.get(f"/api/v1/games/{game['id']}").json
    answer = client.post(
        f"/api/v1/games/{game['id']}/finish", json={"winner": ann, "hands": {str(bob): points}}
    )
    assert answer.status_code == 422
    assert answer.json["error"]
    assert client.get(f"/api/v1/games/{game['id']}").json == before


def test_errors_speak_german_when_asked_with_lang_de(client: FlaskClient) -> None:
    check = client.post("/api/v1/check?lang=de", json={"cards": "K♠ A♠ 3♠"})
    assert check.json == {
        "valid": False,
        "error": "K♠ A♠ 3♠ ist keine Folge: 2♠ fehlt zwischen A♠ und 3♠.",
    }
    english = client.post("/api/v1/check", json={"cards": "D♠ K♠ 2♠"})
    assert "is not a sequence" in english.json["error"]

    missing = client.get("/api/v1/games/999?lang=de")
    assert (missing.status_code, missing.json["error"]) == (404, DE_NO_GAME)
    unreadable = client.post("/api/v1/check?lang=de", json={"cards": "Xq"})
    assert unreadable.status_code == 422
    assert "ist keine Karte" in unreadable.json["error"]


def test_every_kind_of_refusal_speaks_german_when_asked_with_lang_de(table: Table) -> None:
    game = f"{API}/games/{table.game}"
    german = {
        "wrong type": table.client.post(f"{API}/check?lang=de", json={"cards": 5}),
        "not json": table.client.post(
            f"{game}/melds?lang=de", data="{bad", content_type="application/json"
        ),
        "not an object": table.client.post(f"{game}/melds?lang=de", json=[1]),
        "unknown address": table.client.get(f"{API}/nowhere?lang=de"),
        "wrong method": table.client.delete(f"{API}/check?lang=de"),
        "too large": table.client.post(
            f"{API}/check?lang=de", data="x" * 70_000, content_type="application/json"
        ),
        "unusable key": table.client.post(
            f"{game}/undo?lang=de", headers={"Idempotency-Key": "x" * 201}
        ),
    }
    assert {name: answer.status_code for name, answer in german.items()} == {
        "wrong type": 422,
        "not json": 400,
        "not an object": 422,
        "unknown address": 404,
        "wrong method": 405,
        "too large": 413,
        "unusable key": 422,
    }
    said = {name: answer.json["error"] for name, answer in german.items()}
    assert said["wrong type"] == 'cards: die Karten bitte als Text angeben, z. B. "D♣ K♣ A♣".'
    assert said["not json"] == "Der Inhalt ist kein gültiges JSON."
    assert said["not an object"] == "Der Inhalt muss ein JSON-Objekt sein."
    assert said["unknown address"].startswith("Diese Adresse gibt es in der API nicht")
    assert said["wrong method"].startswith("Diese Adresse nimmt diese Methode nicht an")
    assert (
        said["too large"] == "Der Inhalt ist zu groß: eine API-Anfrage darf höchstens 64 KB haben."
    )
    assert said["unusable key"].startswith("Idempotency-Key muss aus 1 bis 200 druckbaren")
    english = table.client.post(f"{API}/check", json={"cards": 5}).json["error"]
    assert english == 'cards must be cards as text, e.g. "Q♣ K♣ A♣".'


def test_abandoning_ignores_the_hands_that_come_along_but_not_a_malformed_body(
    table: Table,
) -> None:
    table.meld(table.ann, "2♠ 3♠ 4♠")
    malformed = table.post("finish", {"winner": None, "hands": {"x": 1}})
    assert refused(malformed, 422) == "hands: “x” is not a player id."
    body = ok(table.post("finish", {"winner": None, "hands": {str(table.bob): "K♣"}}))
    assert (body["status"], body["winner"], body["hand_points"]) == ("abandoned", None, {})


@pytest.mark.parametrize("body", ["null", "[]", '"cards"', "7"])
def test_json_that_is_not_an_object_is_refused_as_the_wrong_shape(table: Table, body: str) -> None:
    answer = table.client.post(
        f"{API}/games/{table.game}/melds", data=body, content_type="application/json"
    )
    assert refused(answer, 422) == "The body must be a JSON object."
    assert table.get_game()["entries"] == []


def test_an_entry_says_when_it_was_written_in_utc_in_its_answer_and_in_the_game_alike(
    table: Table,
) -> None:
    meld = table.meld(table.ann, "2♠ 3♠ 4♠")
    layoff = table.layoff(table.bob, meld["id"], "5♠")
    entries = table.get_game()["entries"]
    assert entries[1]["created_at"] == layoff["created_at"]
    for entry in entries:
        written = datetime.fromisoformat(entry["created_at"])
        assert written.utcoffset() == timedelta(0)
        assert abs(datetime.now(UTC) - written) < timedelta(minutes=5)


def test_a_phone_that_still_shows_an_undone_entry_cannot_undo_or_delete_the_next_one(
    client: FlaskClient,
) -> None:
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob", "Cid"]}).json
    ann, _bob, cid = (player["id"] for player in session["players"])
    game = client.post(f"/api/v1/sessions/{session['id']}/games").json
    melds = f"/api/v1/games/{game['id']}/melds"
    seen = client.post(melds, json={"player": cid, "cards": "2♠ 3♠ 4♠"}).json
    assert (
        client.post(f"/api/v1/games/{game['id']}/undo", json={"entry": seen["id"]}).status_code
        == 200
    )
    recorded = client.post(melds, json={"player": ann, "cards": "7♦ 8♦ 9♦"}).json
    assert recorded["id"] != seen["id"]

    stale_undo = client.post(f"/api/v1/games/{game['id']}/undo", json={"entry": seen["id"]})
    stale_delete = client.delete(f"/api/v1/games/{game['id']}/entries/{seen['id']}")
    assert stale_undo.status_code == 409
    assert stale_delete.status_code == 404
    entries = client.get(f"/api/v1/games/{game['id']}").json["entries"]
    assert [(entry["id"], entry["cards"]) for entry in entries] == [
        (recorded["id"], ["7♦", "8♦", "9♦"])
    ]


def test_an_undo_naming_the_entry_it_saw_takes_back_one_entry_only(client: FlaskClient) -> None:
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).json
    ann, bob = (player["id"] for player in session["players"])
    game = client.post(f"/api/v1/sessions/{session['id']}/games").json
    client.post(f"/api/v1/games/{game['id']}/melds", json={"player": ann, "cards": "2♣ 3♣ 4♣"})
    last = client.post(
        f"/api/v1/games/{game['id']}/melds", json={"player": bob, "cards": "9♦ 9♥ 9♠"}
    ).json
    first = client.post(f"/api/v1/games/{game['id']}/undo", json={"entry": last["id"]})
    again = client.post(f"/api/v1/games/{game['id']}/undo", json={"entry": last["id"]})
    assert (first.status_code, first.json["undone"]) == (200, last["id"])
    assert again.status_code == 409
    assert "Nothing was undone" in again.json["error"]
    cards = [entry["cards"] for entry in client.get(f"/api/v1/games/{game['id']}").json["entries"]]
    assert cards == [["2♣", "3♣", "4♣"]]
