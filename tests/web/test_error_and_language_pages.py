"""Pages not found, forms without their CSRF token, and the language switch."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.models import Entry, GameSession
from tests.helpers import (
    start,
)
from tests.rows import count

# --- not found, CSRF, language ---------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/sessions/99",
        "/sessions/99/history",
        "/sessions/99999999999999999999999",
        "/games/99/finish",
        "/games/99999999999999999999999/abandon",
    ],
)
def test_unknown_ids_answer_with_a_not_found_page(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "This page does not exist" in response.get_data(as_text=True)


def test_posting_to_an_unknown_game_is_not_found_and_changes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    start(client)
    response = client.post("/games/99/melds", data={"player": "1", "cards": "qc kc ac"})
    assert response.status_code == 404
    assert count(app, Entry) == 0


def test_a_post_without_a_csrf_token_is_refused_and_one_with_it_works(
    app_with: Callable[..., Flask],
) -> None:
    app = app_with(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert 'name="csrf_token"' in client.get("/").get_data(as_text=True)
    response = client.post(
        "/sessions", data={"names-0": "Ann", "names-1": "Bob", "target": "500", "dealer": "0"}
    )
    assert response.status_code == 400
    assert count(app, GameSession) == 0
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token is not None
    response = client.post(
        "/sessions",
        data={"csrf_token": token[1], "names-0": "Ann", "names-1": "Bob", "target": "500"},
    )
    assert response.status_code == 302
    assert count(app, GameSession) == 1


def test_the_language_switch_sets_the_cookie_and_goes_back(client: FlaskClient) -> None:
    response = client.get("/language/de?next=/sessions/1/history")
    assert response.status_code == 302
    assert response.location == "/sessions/1/history"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None
    assert cookie.value == "de"
    assert 'lang="de"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil", ""])
def test_the_language_switch_only_goes_back_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/en", query_string={"next": target})
    assert response.location == "/"


def test_an_unknown_language_is_not_found(client: FlaskClient) -> None:
    assert client.get("/language/xx").status_code == 404
    assert client.get_cookie(LANGUAGE_COOKIE) is None


def test_the_layout_links_both_languages_back_to_the_current_page(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/language/de?next=/"' in page
    assert 'href="/language/en?next=/"' in page


def test_a_refused_post_links_the_languages_back_to_the_session_page(
    client: FlaskClient,
) -> None:
    table = start(client)
    response = client.post(f"/games/{table.game}/melds", data={"player": "1", "cards": "zz"})
    assert response.status_code == 422
    assert f"/language/de?next=/sessions/{table.session}" in response.get_data(as_text=True)
