"""Hostile input found by the second round of testing: no server error, a plain answer instead."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

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
