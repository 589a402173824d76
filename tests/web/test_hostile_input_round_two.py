"""Hostile input found by the second round of testing: no server error, a plain answer instead."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.models import GameSession
from tests.rows import count

API = "/api/v1"


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
