"""Hostile input through the API and the pages: refused plainly, nothing changed, names escaped."""

from __future__ import annotations

import io
import json
import logging
import re
import time
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.models import GameSession
from tests.helpers import API
from tests.rows import count

HOSTILE_NAMES = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"]
ESCAPED_NAMES = [
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&lt;img src=x onerror=alert(1)&gt;",
]
TEN_THOUSAND_CARDS = "2♠ " * 10_000  # 50,000 bytes of UTF-8: inside the 64 KiB limit
SIX_THOUSAND_CARDS = ["2♠"] * 6_000  # as a list: 48,000 bytes

log = logging.getLogger(__name__)


def post(client: FlaskClient, path: str, body: Any = None) -> tuple[int, Any]:
    """Send a JSON body (UTF-8, as phones send it) and return the status and the answer."""
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
    response = client.post(f"{API}{path}", data=data, content_type="application/json")
    return response.status_code, response.get_json()


def new_game(client: FlaskClient, names: list[str] | None = None) -> tuple[str, int, list[int]]:
    """Start a session and its first game; return the session, game and player ids."""
    status, session = post(client, "/sessions", {"players": names or ["Ann", "Bob", "Cid"]})
    assert status == 201, session
    status, game = post(client, f"/sessions/{session['id']}/games")
    assert status == 201, game
    return session["id"], game["id"], [player["id"] for player in session["players"]]


def game_state(client: FlaskClient, game_id: int) -> Any:
    """Return the game as the API shows it."""
    return client.get(f"{API}/games/{game_id}").get_json()


# --- size ------------------------------------------------------------------------------------


def test_a_body_over_the_size_limit_is_refused_with_413_and_nothing_is_recorded(
    client: FlaskClient,
) -> None:
    _, game_id, players = new_game(client)
    before = game_state(client, game_id)
    body = json.dumps({"player": players[0], "cards": "6♠ 6♥ 6♦", "pad": "x" * 70_000})

    response = client.post(
        f"{API}/games/{game_id}/melds", data=body, content_type="application/json"
    )

    assert response.status_code == 413
    assert response.get_json()["error"]
    assert game_state(client, game_id) == before


def test_a_session_sent_over_the_size_limit_is_not_started(client: FlaskClient) -> None:
    body = json.dumps({"players": ["Ann", "Bob"], "pad": "x" * 70_000})
    response = client.post(f"{API}/sessions", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]
    assert count(client.application, GameSession) == 0


def timed(client: FlaskClient, path: str, body: Any) -> tuple[int, Any]:
    """Post a body and log how long the answer took (logged only: the test asserts no time)."""
    started = time.perf_counter()
    status, answer = post(client, path, body)
    log.info("%s answered %s in %.3f s", path, status, time.perf_counter() - started)
    return status, answer


@pytest.mark.parametrize("cards", [TEN_THOUSAND_CARDS, SIX_THOUSAND_CARDS], ids=["text", "list"])
def test_ten_thousand_cards_to_check_are_refused_with_a_reason(
    client: FlaskClient, cards: str | list[str]
) -> None:
    status, answer = timed(client, "/check", {"cards": cards})
    # Readable cards that are no meld: 200 with valid false and the reason.
    assert status == 200
    assert answer["valid"] is False
    assert "2♠ is entered twice" in answer["error"]
    status, answer = timed(client, "/check", {"cards": "6♠ 6♥ 6♦", "onto": cards})
    assert status == 200
    assert answer["valid"] is False


def test_ten_thousand_cards_as_a_meld_a_layoff_or_a_hand_are_refused_and_change_nothing(
    client: FlaskClient,
) -> None:
    _, game_id, players = new_game(client)
    status, meld = post(
        client, f"/games/{game_id}/melds", {"player": players[0], "cards": "5♦ 6♦ 7♦"}
    )
    assert status == 201
    before = game_state(client, game_id)

    attempts = [
        (f"/games/{game_id}/melds", {"player": players[1], "cards": TEN_THOUSAND_CARDS}),
        (
            f"/games/{game_id}/layoffs",
            {"player": players[1], "meld": meld["id"], "cards": TEN_THOUSAND_CARDS},
        ),
        (
            f"/games/{game_id}/finish",
            {
                "winner": players[0],
                "hands": {str(players[1]): TEN_THOUSAND_CARDS, str(players[2]): "K♣"},
            },
        ),
        (
            f"/games/{game_id}/settlement",
            {
                "winner": players[0],
                "hands": {str(players[1]): TEN_THOUSAND_CARDS, str(players[2]): "K♣"},
            },
        ),
    ]
    for path, body in attempts:
        status, answer = timed(client, path, body)
        assert 400 <= status < 500, (path, status)
        assert answer["error"], path
        assert len(answer["error"]) < 1000, "the error echoes the whole input"

    assert game_state(client, game_id) == before


@pytest.mark.parametrize(
    "text",
    [
        "♠♠" + "x" * 60_000,  # a long tail after glued suits (was quadratic in the parser)
        "x" * 60_000,  # one enormous token
        "♠" * 20_000,  # 20,000 suits and no rank
        "10" * 30_000 + "♥",
    ],
    ids=["glued-tail", "one-token", "only-suits", "long-rank"],
)
def test_one_huge_token_is_refused_without_echoing_it(client: FlaskClient, text: str) -> None:
    status, answer = timed(client, "/check", {"cards": text})
    assert status == 422
    assert len(answer["error"]) < 200


# --- malformed bodies --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "[" * 30_000 + "]" * 30_000,
        '{"a":' * 10_000 + "1" + "}" * 10_000,
        '{"players": ' + "[" * 5_000 + "]" * 5_000 + "}",
    ],
    ids=["arrays", "objects", "inside-a-field"],
)
def test_deeply_nested_json_is_refused_with_400(client: FlaskClient, body: str) -> None:
    response = client.post(f"{API}/sessions", data=body, content_type="application/json")
    if response.status_code == 422:  # the decoder read it: a field of the wrong type
        assert response.get_json()["error"]
    else:
        assert response.status_code == 400
        assert response.get_json()["error"] == "The body is not valid JSON."
    assert count(client.application, GameSession) == 0


@pytest.mark.parametrize(
    ("data", "content_type", "status"),
    [
        ("players=Ann&players=Bob", "application/x-www-form-urlencoded", 415),
        ("<players><p>Ann</p><p>Bob</p></players>", "application/xml", 415),
        ("Ann, Bob", "text/plain", 415),
        (b"\xff\xfe\x00\x01", "application/octet-stream", 415),
        ('{"players": ["Ann", "Bob"]', "application/json", 400),
    ],
    ids=["form", "xml", "text", "binary", "truncated"],
)
def test_a_body_that_is_not_json_is_refused_with_415_or_400_when_declared_json(
    client: FlaskClient, data: str | bytes, content_type: str, status: int
) -> None:
    response = client.post(f"{API}/sessions", data=data, content_type=content_type)
    assert response.status_code == status
    assert response.is_json
    assert response.get_json()["error"]
    assert count(client.application, GameSession) == 0


def test_a_multipart_upload_is_refused_with_415(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/sessions",
        data={"players": "Ann", "file": (io.BytesIO(b"x" * 1000), "a.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 415
    assert response.get_json()["error"]


# --- names that look like HTML -----------------------------------------------------------------


def assert_shown_as_text(html: str) -> None:
    """The names appear escaped, and none of their markup reaches the page raw."""
    for raw, escaped in zip(HOSTILE_NAMES, ESCAPED_NAMES, strict=True):
        assert escaped in html
        assert raw not in html
    assert "<script>alert(1)" not in html
    assert "<img src=x" not in html


def test_names_that_look_like_html_are_shown_as_text_on_every_page(client: FlaskClient) -> None:
    session_id, game_id, players = new_game(client, [*HOSTILE_NAMES, "Ann"])
    status, _ = post(client, f"/games/{game_id}/melds", {"player": players[0], "cards": "5♦ 6♦ 7♦"})
    assert status == 201
    # The pages open with the session's edit link, as on a second phone.
    assert client.get(f"/sessions/{session_id}?key={client.keys[session_id]}").status_code == 302

    assert_shown_as_text(client.get(f"/sessions/{session_id}").get_data(as_text=True))
    assert_shown_as_text(client.get(f"/games/{game_id}/finish").get_data(as_text=True))

    hands = {str(players[1]): "K♣", str(players[2]): "Q♣ 2♥"}
    status, _ = post(client, f"/games/{game_id}/finish", {"winner": players[0], "hands": hands})
    assert status == 200
    assert_shown_as_text(client.get(f"/sessions/{session_id}/history").get_data(as_text=True))
    assert_shown_as_text(client.get(f"/sessions/{session_id}").get_data(as_text=True))


def test_names_that_look_like_html_typed_into_the_form_are_shown_as_text(
    client: FlaskClient,
) -> None:
    form = {
        "names-0": HOSTILE_NAMES[0],
        "names-1": HOSTILE_NAMES[1],
        "names-2": "",
        "names-3": "",
        "target": "500",
        "dealer": "0",
    }
    response = client.post("/sessions", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    page = client.get(response.headers["Location"])
    assert page.status_code == 200
    assert_shown_as_text(page.get_data(as_text=True))
    assert_shown_as_text(
        client.get(response.headers["Location"] + "/history").get_data(as_text=True)
    )
    game_id = re.search(r"/games/(\d+)/finish", page.get_data(as_text=True))
    assert game_id is not None
    assert_shown_as_text(client.get(f"/games/{game_id.group(1)}/finish").get_data(as_text=True))


def test_a_name_refused_by_the_form_is_shown_back_escaped(client: FlaskClient) -> None:
    form = {"names-0": HOSTILE_NAMES[0], "names-1": HOSTILE_NAMES[0], "target": "500"}
    response = client.post("/sessions", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert HOSTILE_NAMES[0] not in html


# --- languages, half characters, and what no name, language or key may do ----------------------


@pytest.mark.parametrize("lang", ["xx", "", "xx-DE", "😀", "a" * 300])
def test_an_unknown_language_falls_back_to_english(client: FlaskClient, lang: str) -> None:
    answer = client.get(f"{API}/nope", query_string={"lang": lang})
    assert answer.status_code == 404
    assert answer.json == {
        "error": "There is no such address in the API: see /api/v1/openapi.json."
    }


def test_a_language_of_germany_or_austria_speaks_german(client: FlaskClient) -> None:
    answer = client.get(f"{API}/nope", query_string={"lang": "de-AT"})
    assert "Adresse" in answer.json["error"]


@pytest.mark.parametrize("target", ["/\n", "/\r\nSet-Cookie: x=1", "/sessions\x00", "/\x7f"])
def test_a_control_character_in_the_language_switch_goes_home(
    client: FlaskClient, target: str
) -> None:
    answer = client.get("/language/de", query_string={"next": target})
    assert answer.status_code == 302
    assert answer.location == "/"


@pytest.mark.parametrize("key", [None, "surrogate-1"])
@pytest.mark.parametrize(
    "body",
    [
        '{"players": ["\\ud800", "Bob"]}',
        '{"players": ["Ann", "Bob"], "\\udfff": 1}',
        '{"players": ["Ann", "Bob"], "rules": {"end": {"\\ud83d": 3}}}',
    ],
)
def test_half_a_character_is_refused_with_a_422_and_nothing_is_saved(
    client: FlaskClient, body: str, key: str | None
) -> None:
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Idempotency-Key"] = key
    answer = client.post(f"{API}/sessions?lang=de", data=body, headers=headers)
    assert answer.status_code == 422
    assert "kein Unicode" in answer.json["error"]
    assert count(client.application, GameSession) == 0


# Any character at all, half characters (lone surrogates) and format characters included.
ANY_TEXT = st.text(
    alphabet=st.characters(codec=None, categories=None, exclude_categories=()), max_size=12
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(names=st.lists(ANY_TEXT, min_size=0, max_size=3), lang=ANY_TEXT, key=st.booleans())
def test_no_name_language_or_key_makes_the_server_fail(
    client: FlaskClient, names: list[str], lang: str, key: bool
) -> None:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = "0f0e8a4e-5d1c-4b7a-9a3e-2b6c1d4e5f70"
    # ensure_ascii writes half characters as \\ud800 escapes, as a hostile client would.
    body = json.dumps({"players": names})
    # Half a character cannot be sent as UTF-8: its bytes go percent-encoded, as a hostile
    # client would send them (the test client itself refuses to encode it).
    query = "lang=" + quote(lang.encode("utf-8", "surrogatepass"), safe="")
    answer = client.post(f"{API}/sessions?{query}", data=body, headers=headers)
    assert answer.status_code < 500, answer.get_data(as_text=True)
    assert answer.json is not None and (answer.status_code == 201 or answer.json["error"])
    page = client.get("/language/de?next=" + quote(("/" + lang).encode("utf-8", "surrogatepass")))
    assert page.status_code == 302
