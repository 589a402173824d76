"""A session's version: every change counts it up, and an unchanged answer is a 304."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import API, counted, ok

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def tag(response: Any) -> str:
    etag = response.headers.get("ETag")
    assert etag, response.headers
    return str(etag)


def still(client: FlaskClient, path: str, etag: str) -> Any:
    return client.get(path, headers={"If-None-Match": etag})


def test_every_change_gives_the_session_and_its_games_a_new_etag(client: FlaskClient) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    ann, bob = (player["id"] for player in session["players"])
    session_path = f"{API}/sessions/{session['id']}"
    game = ok(client.post(f"{session_path}/games"), 201)
    game_path = f"{API}/games/{game['id']}"
    seen: list[str] = []

    def changed() -> None:
        for path in (session_path, game_path):
            answer = client.get(path)
            assert answer.status_code == 200
            assert tag(answer) not in seen
        seen.append(tag(client.get(game_path)))
        assert tag(client.get(session_path)) == seen[-1]

    changed()
    meld = ok(client.post(f"{game_path}/melds", json={"player": ann, "cards": "7♥ 8♥ 9♥"}), 201)
    changed()
    body = {"player": bob, "meld": meld["id"], "cards": "10♥"}
    layoff = ok(client.post(f"{game_path}/layoffs", json=body), 201)
    changed()
    ok(client.patch(f"{game_path}/entries/{layoff['id']}", json={"cards": "6♥"}))
    changed()
    ok(client.post(f"{game_path}/undo", json={}))
    changed()
    ok(client.post(f"{game_path}/melds", json={"player": bob, "cards": "2♣ 3♣ 4♣"}), 201)
    changed()
    ok(client.post(f"{game_path}/finish", json={"winner": ann, "hands": {str(bob): "K♠"}}))
    changed()
    ok(client.post(f"{game_path}/reopen"))
    changed()
    assert client.delete(f"{game_path}/entries/{meld['id']}").status_code == 204
    changed()


def test_a_refused_change_keeps_the_etag(client: FlaskClient) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    path = f"{API}/games/{game['id']}"
    before = tag(client.get(path))
    body = {"player": session["players"][0]["id"], "cards": "7♥ 8♥ 10♥"}
    assert client.post(f"{path}/melds", json=body).status_code == 422
    assert still(client, path, before).status_code == 304


def test_an_unchanged_answer_is_a_304_without_a_body_from_one_read(
    client: FlaskClient, app: Flask
) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    for path in (f"{API}/sessions/{session['id']}", f"{API}/games/{game['id']}"):
        etag = tag(client.get(path))
        with counted(app) as statements:
            answer = still(client, path, etag)
        assert answer.status_code == 304
        assert answer.get_data() == b""
        assert tag(answer) == etag
        # The key check reads the session's row with its version: nothing else.
        assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1
        assert still(client, path, '"v999"').status_code == 200


def test_a_view_key_may_ask_and_no_key_learns_nothing(client: FlaskClient) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    path = f"{API}/sessions/{session['id']}"
    etag = tag(client.get(path))
    view = {"Authorization": f"Bearer {session['view_key']}", "If-None-Match": etag}
    assert client.get(path, headers=view).status_code == 304
    stranger = client.application.test_client()
    assert stranger.get(path, headers={"If-None-Match": etag}).status_code == 404


def test_a_phone_on_the_session_page_asks_its_version_with_the_key_it_holds(
    client: FlaskClient, app: Flask
) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    phone = app.test_client()
    path = f"/sessions/{session['id']}/version"
    assert phone.get(path).status_code == 404  # no key on this phone yet
    assert phone.get(f"/sessions/{session['id']}?key={session['view_key']}").status_code == 302
    page = phone.get(f"/sessions/{session['id']}")
    first = phone.get(path)
    assert first.status_code == 200
    assert f'data-version="v{first.get_json()["version"]}"' in page.get_data(as_text=True)
    with counted(app) as statements:
        unchanged = phone.get(path, headers={"If-None-Match": tag(first)})
    assert unchanged.status_code == 304
    assert [s for s in statements if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK"))] == [
        statements[-1]
    ]
    assert statements[-1].lstrip().upper().startswith("SELECT")
    body = {"player": session["players"][0]["id"], "cards": "7♥ 8♥ 9♥"}
    ok(client.post(f"{API}/games/{game['id']}/melds", json=body), 201)
    moved = phone.get(path, headers={"If-None-Match": tag(first)})
    assert moved.status_code == 200
    assert moved.get_json()["version"] == first.get_json()["version"] + 1


def test_a_watching_phones_question_leaves_the_cookie_as_it_is(
    client: FlaskClient, app: Flask
) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    phone = app.test_client()
    assert phone.get(f"/sessions/{session['id']}?key={session['view_key']}").status_code == 302
    page = phone.get(f"/sessions/{session['id']}")
    # The link signed the cookie a moment ago: the page leaves it (a page renews a cookie
    # signed over an hour ago, tests/web/test_access.py).
    assert page.status_code == 200 and "Set-Cookie" not in page.headers
    path = f"/sessions/{session['id']}/version"
    first = phone.get(path)
    unchanged = phone.get(path, headers={"If-None-Match": tag(first)})
    assert unchanged.status_code == 304
    # Asked every 2 s by every phone on the page: signing the cookie anew is not repeated.
    assert "Set-Cookie" not in first.headers
    assert "Set-Cookie" not in unchanged.headers
    assert phone.get(path, headers={"If-None-Match": tag(first)}).status_code == 304
