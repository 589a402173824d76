"""The session after it started, on its pages: a player renamed, another end between games."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def opened(client: FlaskClient, **body: Any) -> dict[str, Any]:
    """Start a session through the API and open its edit link on this phone."""
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"], **body}), 201)
    assert client.get(f"/sessions/{session['id']}?key={session['edit_key']}").status_code == 302
    return session


def form_of(page: str, action: str) -> dict[str, str]:
    """Return the hidden fields (CSRF token, one-time token) of the form posting to ``action``."""
    form = page.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'name="(csrf_token|once)"[^>]*value="([^"]+)"', form))


def test_a_player_is_renamed_on_the_page(client: FlaskClient) -> None:
    session = opened(client)
    sid, bob = session["id"], session["players"][1]["id"]
    page = client.get(f"/sessions/{sid}/change").get_data(as_text=True)
    action = f"/sessions/{sid}/players/{bob}/name"
    answer = client.post(action, data={**form_of(page, action), "name": "Robert"})
    assert answer.status_code == 302
    shown = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "Robert" in shown and "The name is changed." in shown


def test_a_name_taken_is_refused_on_the_page_and_nothing_changes(client: FlaskClient) -> None:
    session = opened(client)
    sid, bob = session["id"], session["players"][1]["id"]
    page = client.get(f"/sessions/{sid}/change").get_data(as_text=True)
    action = f"/sessions/{sid}/players/{bob}/name"
    answer = client.post(action, data={**form_of(page, action), "name": "ann"})
    assert answer.status_code == 422
    assert "Ann" in answer.get_data(as_text=True)
    assert ok(client.get(f"{API}/sessions/{sid}"))["players"][1]["name"] == "Bob"


def test_the_end_changes_on_the_page_between_games_only(client: FlaskClient) -> None:
    session = opened(client)
    sid = session["id"]
    page = client.get(f"/sessions/{sid}/change").get_data(as_text=True)
    action = f"/sessions/{sid}/end"
    answer = client.post(action, data={**form_of(page, action), "end": "target", "number": "1000"})
    assert answer.status_code == 302
    assert ok(client.get(f"{API}/sessions/{sid}"))["target"] == 1000
    ok(client.post(f"{API}/sessions/{sid}/games"), 201)
    page = client.get(f"/sessions/{sid}/change").get_data(as_text=True)
    assert "Between games only" in page
    assert f'action="{action}"' not in page


def test_a_number_that_is_no_whole_number_is_refused_in_one_sentence(client: FlaskClient) -> None:
    session = opened(client)
    sid = session["id"]
    page = client.get(f"/sessions/{sid}/change").get_data(as_text=True)
    action = f"/sessions/{sid}/end"
    answer = client.post(action, data={**form_of(page, action), "end": "target", "number": "2.5"})
    assert answer.status_code == 422
    assert "Enter a whole number" in answer.get_data(as_text=True)


def test_german_rummy_offers_its_limit_and_says_it_in_german(client: FlaskClient) -> None:
    client.set_cookie("language", "de")
    session = opened(client, variant="german_rummy")
    page = client.get(f"/sessions/{session['id']}/change").get_data(as_text=True)
    assert 'value="limit"' in page and 'value="target"' not in page
    assert "Namen" in page


def test_a_view_link_does_not_open_the_change_page(client: FlaskClient) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    watcher = client.application.test_client()
    watcher.get(f"/sessions/{session['id']}?key={session['view_key']}")
    assert watcher.get(f"/sessions/{session['id']}/change").status_code == 404
