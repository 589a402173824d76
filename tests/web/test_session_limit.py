"""How many sessions one client address may start (SESSION_LIMIT), on the API and the pages."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper.models import GameSession
from tests.rows import count

TOO_MANY = "Too many sessions were started from this address: wait a minute, then try again."
BODY = {"players": ["Ann", "Bob"]}
FORM = {"names-0": "Ann", "names-1": "Bob", "dealer": "0"}


def test_the_api_refuses_a_start_past_the_limit_with_429_and_when_to_retry(
    app_with: Callable[..., Flask],
) -> None:
    app = app_with(SESSION_LIMIT="2 per minute")
    client = app.test_client()
    for _ in range(2):
        assert client.post("/api/v1/sessions", json=BODY).status_code == 201
    refused = client.post("/api/v1/sessions", json=BODY)
    assert refused.status_code == 429
    assert refused.json == {"error": TOO_MANY}
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert count(app, GameSession) == 2
    # Other requests go on: the limit is on starting sessions only.
    assert client.post("/api/v1/check", json={"cards": "Q♣ K♣ A♣"}).status_code == 200


def test_another_address_has_its_own_count(app_with: Callable[..., Flask]) -> None:
    client = app_with(SESSION_LIMIT="1 per minute").test_client()
    assert client.post("/api/v1/sessions", json=BODY).status_code == 201
    other = {"REMOTE_ADDR": "192.0.2.7"}
    assert client.post("/api/v1/sessions", json=BODY, environ_base=other).status_code == 201
    assert client.post("/api/v1/sessions", json=BODY).status_code == 429


def test_the_start_page_says_it_in_the_phones_language(app_with: Callable[..., Flask]) -> None:
    app = app_with(SESSION_LIMIT="1 per minute")
    client = app.test_client()
    assert client.post("/sessions", data=FORM).status_code == 302
    refused = client.post("/sessions", data=FORM)
    assert refused.status_code == 429
    assert TOO_MANY in refused.get_data(as_text=True)
    assert "Retry-After" in refused.headers
    client.get("/language/de")
    german = client.post("/sessions", data=FORM)
    assert german.status_code == 429
    assert '<html lang="de"' in german.get_data(as_text=True)
    assert count(app, GameSession) == 1


def test_off_switches_the_limit_off(app_with: Callable[..., Flask]) -> None:
    client = app_with(SESSION_LIMIT="off").test_client()
    for _ in range(40):
        assert client.post("/api/v1/sessions", json=BODY).status_code == 201


@pytest.mark.parametrize("setting", ["lots", "30 per fortnight", ""])
def test_a_setting_that_is_no_rate_is_refused_at_start(
    app_with: Callable[..., Flask], setting: str
) -> None:
    with pytest.raises(ValueError, match="SESSION_LIMIT"):
        app_with(SESSION_LIMIT=setting)
