"""A phone's own keys stay: links opened by any web page cannot push them out of the cookie.

Also what keeps keys out of other eyes: ``Cache-Control: no-store`` on every answer that carries
or was read with a key, and the app's own page, in the phone's language, for a form without its
CSRF token.
"""

from __future__ import annotations

import re
import urllib.parse
import uuid
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.keys import SessionKeys
from scorekeeper.web import access
from tests.helpers import API
from tests.live import Browser
from tests.pageforms import form_to, links, start_in_browser

FOREIGN_LINKS = 30
NOT_KEPT = "This phone keeps 20 sessions already, so this one was not kept"
KEEP_IT = "Keep it on this phone"
KEPT = "This session is kept on this phone."
FORM_NOT_OURS = (
    "This form was open too long or came from elsewhere: open the page again and repeat."
)


def foreign_sessions(app: Flask, count: int) -> list[tuple[str, SessionKeys]]:
    """Make sessions of other people (as any web page could); return their ids and keys."""
    made = []
    with app.app_context():
        for _ in range(count):
            keys = SessionKeys.new()
            session = services.create_session(["Eve", "Mal"], 500, keys=keys)
            made.append((session.public_id, keys))
    return made


def open_links(phone: FlaskClient, sessions: list[tuple[str, SessionKeys]], kind: str) -> None:
    """Open a link of each session, as a page the phone visits can make it do."""
    for public_id, keys in sessions:
        key = keys.edit if kind == "edit" else keys.view
        assert phone.get(f"/sessions/{public_id}?key={key}").status_code == 302


def opens(phone: FlaskClient, address: str) -> bool:
    return phone.get(address).status_code == 200


def records(phone: FlaskClient, address: str) -> bool:
    """Say whether the phone opens the session with its edit key (the recording form shows)."""
    page = phone.get(address)
    return page.status_code == 200 and "data-entry" in page.get_data(as_text=True)


def keep(phone: FlaskClient, page: str) -> str:
    """Tap the page's "Keep it on this phone"; return the page it leads to."""
    form = form_to(page, "/keep")
    answer = phone.post(form.action, data=form.fields)
    assert answer.status_code == 302
    return phone.get(answer.headers["Location"]).get_data(as_text=True)


# --- links cannot push a phone's own keys out ----------------------------------------------------


@pytest.mark.parametrize("kind", ["view", "edit"])
def test_a_phone_that_started_a_session_still_records_in_it_after_thirty_foreign_links(
    app: Flask, kind: str
) -> None:
    phone = app.test_client()
    mine = start_in_browser(phone)
    foreign = foreign_sessions(app, FOREIGN_LINKS)
    open_links(phone, foreign, kind)
    assert records(phone, mine)
    assert mine.rsplit("/", 1)[1] in phone.get("/").get_data(as_text=True)
    # The links' keys take the other places, the latest kept: the oldest links dropped out.
    room = access.KEPT_SESSIONS - 1
    assert all(opens(phone, f"/sessions/{public_id}") for public_id, _ in foreign[-room:])
    assert not any(opens(phone, f"/sessions/{public_id}") for public_id, _ in foreign[:-room])


def test_a_link_page_offers_to_keep_its_key_and_a_kept_key_stays_after_thirty_links(
    app: Flask,
) -> None:
    friend, phone = app.test_client(), app.test_client()
    theirs = start_in_browser(friend)
    edit_link = links(friend.get(theirs).get_data(as_text=True))["edit"]
    assert phone.get(edit_link).status_code == 302
    page = phone.get(theirs).get_data(as_text=True)
    assert KEEP_IT in page
    assert "other links opened on this phone can push it out" in page
    page = keep(phone, page)
    assert KEPT in page
    assert KEEP_IT not in page  # kept: nothing more to offer
    open_links(phone, foreign_sessions(app, FOREIGN_LINKS), "view")
    assert records(phone, theirs)


def test_a_link_key_that_is_not_kept_drops_out_after_thirty_links(app: Flask) -> None:
    friend, phone = app.test_client(), app.test_client()
    theirs = start_in_browser(friend)
    assert phone.get(links(friend.get(theirs).get_data(as_text=True))["view"]).status_code == 302
    assert opens(phone, theirs)
    open_links(phone, foreign_sessions(app, FOREIGN_LINKS), "view")
    assert not opens(phone, theirs)


def test_keys_held_before_links_were_marked_count_as_kept(app: Flask) -> None:
    phone = app.test_client()
    mine = start_in_browser(phone)
    public_id = mine.rsplit("/", 1)[1]
    with app.app_context():
        keys = services.replace_keys(public_id)
    with phone.session_transaction() as cookie:  # a cookie written before this change: pairs
        cookie["keys"] = [[public_id, keys.edit]]
    open_links(phone, foreign_sessions(app, FOREIGN_LINKS), "view")
    assert records(phone, mine)


def test_with_twenty_kept_keys_a_link_is_shown_once_and_says_its_key_was_not_kept(
    app: Flask,
) -> None:
    phone = app.test_client()
    started = [start_in_browser(phone) for _ in range(access.KEPT_SESSIONS)]
    [(public_id, keys)] = foreign_sessions(app, 1)
    link = f"/sessions/{public_id}?key={keys.view}"
    shown = phone.get(link)
    assert shown.status_code == 200  # the page itself, not a redirect to a page it cannot open
    assert shown.headers["Cache-Control"] == "no-store"
    page = shown.get_data(as_text=True)
    assert NOT_KEPT in page and KEEP_IT in page
    assert "Eve" in page
    assert not opens(phone, f"/sessions/{public_id}")
    assert all(records(phone, address) for address in started)
    # The history page opened by such a link says it too.
    history = phone.get(f"/sessions/{public_id}/history?key={keys.view}")
    assert history.status_code == 200 and NOT_KEPT in history.get_data(as_text=True)
    # Kept on purpose, it takes the place of the session kept longest ago.
    page = keep(phone, page)
    assert KEPT in page
    assert opens(phone, f"/sessions/{public_id}")
    assert not opens(phone, started[0])
    assert all(records(phone, address) for address in started[1:])


def test_a_view_link_that_is_not_kept_opens_no_page_of_the_edit_key(app: Flask) -> None:
    phone = app.test_client()
    for _ in range(access.KEPT_SESSIONS):
        start_in_browser(phone)
    [(public_id, keys)] = foreign_sessions(app, 1)
    edit = {"Authorization": f"Bearer {keys.edit}"}
    game = phone.post(f"{API}/sessions/{public_id}/games", headers=edit).get_json()["id"]
    for page in ("finish", "abandon"):
        assert phone.get(f"/games/{game}/{page}?key={keys.view}").status_code == 404
    assert phone.get(f"/games/{game}/finish?key={keys.edit}").status_code == 200


def test_the_keep_button_keeps_only_a_key_that_opens_the_session(app: Flask) -> None:
    friend, phone = app.test_client(), app.test_client()
    theirs = start_in_browser(friend)
    public_id = theirs.rsplit("/", 1)[1]
    assert phone.post(f"{theirs}/keep", data={"key": "guessed"}).status_code == 404
    assert phone.post(f"{theirs}/keep", data={}).status_code == 404
    assert not opens(phone, theirs)
    assert public_id not in phone.get("/").get_data(as_text=True)


def test_keeping_a_view_key_leaves_the_edit_key_held_for_the_session(app: Flask) -> None:
    friend, phone = app.test_client(), app.test_client()
    theirs = start_in_browser(friend)
    offered = links(friend.get(theirs).get_data(as_text=True))
    phone.get(offered["edit"])
    view_key = urllib.parse.parse_qs(urllib.parse.urlsplit(offered["view"]).query)["key"][0]
    assert phone.post(f"{theirs}/keep", data={"key": view_key}).status_code == 302
    assert records(phone, theirs)
    assert KEEP_IT not in phone.get(theirs).get_data(as_text=True)


def test_a_phone_that_started_a_session_keeps_it_on_a_real_server(
    live_server: str, app: Flask
) -> None:
    phone = Browser(live_server)
    start = form_to(phone.get("/")[2], "/sessions")
    names = {"names-0": "Ann", "names-1": "Bob", "names-2": "Cid", "target": "500"}
    status, address, _ = phone.post(start.action, {**start.fields, **names})
    assert status == 302
    mine = urllib.parse.urlsplit(address).path
    for public_id, keys in foreign_sessions(app, FOREIGN_LINKS):
        status, location, _ = phone.get(f"/sessions/{public_id}?key={keys.view}")
        assert status == 302 and "key=" not in location
    status, _, page = phone.get(mine)
    assert status == 200 and "data-entry" in page


def friends_session(app: Flask) -> tuple[str, SessionKeys]:
    """Make a friend's session in play (its first game dealt); return its id and keys."""
    keys = SessionKeys.new()
    with app.app_context():
        session = services.create_session(
            ["Ann", "Bob", "Cid"], 500, keys=keys, start_first_game=True
        )
    return session.public_id, keys


def test_an_edit_key_from_a_link_stays_after_thirty_foreign_view_links_on_a_real_server(
    live_server: str, app: Flask
) -> None:
    phone = Browser(live_server)
    public_id, keys = friends_session(app)  # the friend's QR code: the edit link
    status, location, _ = phone.get(f"/sessions/{public_id}?key={keys.edit}")
    assert status == 302 and "key=" not in location
    status, _, page = phone.get(f"/sessions/{public_id}")
    assert status == 200 and "data-entry" in page
    for foreign, foreign_keys in foreign_sessions(app, FOREIGN_LINKS):
        status, location, _ = phone.get(f"/sessions/{foreign}?key={foreign_keys.view}")
        assert status == 302 and "key=" not in location
    status, _, page = phone.get(f"/sessions/{public_id}")
    assert status == 200 and "data-entry" in page  # the phone still records the session


def test_view_links_take_only_the_places_of_view_links_and_edit_links_of_edit_links(
    app: Flask,
) -> None:
    phone = app.test_client()
    public_id, keys = friends_session(app)
    assert phone.get(f"/sessions/{public_id}?key={keys.edit}").status_code == 302
    edited = foreign_sessions(app, access.KEPT_SESSIONS - 2)
    open_links(phone, edited, "edit")
    # One place is left: view links take it in turn, and never one of the edit keys.
    watched = foreign_sessions(app, FOREIGN_LINKS)
    open_links(phone, watched, "view")
    assert opens(phone, f"/sessions/{watched[-1][0]}")
    assert not any(opens(phone, f"/sessions/{foreign}") for foreign, _ in watched[:-1])
    assert records(phone, f"/sessions/{public_id}")
    # Another edit link takes the place of the view link's key, then of the oldest edit link's.
    [(first, first_keys), (second, second_keys)] = foreign_sessions(app, 2)
    assert phone.get(f"/sessions/{first}?key={first_keys.edit}").status_code == 302
    assert not opens(phone, f"/sessions/{watched[-1][0]}")
    assert records(phone, f"/sessions/{public_id}")
    assert phone.get(f"/sessions/{second}?key={second_keys.edit}").status_code == 302
    assert not opens(phone, f"/sessions/{public_id}")
    assert opens(phone, f"/sessions/{first}") and opens(phone, f"/sessions/{second}")
    # With no view link's key left to take the place of, a view link is shown once, not kept.
    [(last, last_keys)] = foreign_sessions(app, 1)
    shown = phone.get(f"/sessions/{last}?key={last_keys.view}")
    assert shown.status_code == 200 and NOT_KEPT in shown.get_data(as_text=True)
    assert all(opens(phone, f"/sessions/{foreign}") for foreign, _ in edited)


def test_a_groups_edit_key_from_a_link_stays_after_thirty_foreign_group_view_links(
    app: Flask,
) -> None:
    phone = app.test_client()
    with app.app_context():
        keys = SessionKeys.new()
        ours = services.create_group("Runde", keys).public_id
        foreign = []
        for _ in range(FOREIGN_LINKS):
            foreign_keys = SessionKeys.new()
            foreign.append((services.create_group("Fremde", foreign_keys).public_id, foreign_keys))
    assert phone.get(f"/groups/{ours}?key={keys.edit}").status_code == 302
    for public_id, foreign_keys in foreign:
        assert phone.get(f"/groups/{public_id}?key={foreign_keys.view}").status_code == 302
    page = phone.get(f"/groups/{ours}")
    assert page.status_code == 200 and "/merges" in page.get_data(as_text=True)


# --- Cache-Control: no-store ---------------------------------------------------------------------


def test_pages_read_with_a_key_or_a_key_cookie_are_kept_in_no_cache(app: Flask) -> None:
    phone, stranger = app.test_client(), app.test_client()
    assert "no-store" not in stranger.get("/").headers.get("Cache-Control", "")
    mine = start_in_browser(phone)
    page = phone.get(mine).get_data(as_text=True)
    game = re.search(r"/games/(\d+)/finish", page)
    assert game is not None
    view = links(page)["view"]
    for address in (
        "/",
        mine,
        f"{mine}/history",
        f"/games/{game.group(1)}/finish",
        "/sessions/AAAAAAAAAAAAAAAAAAAAAA",  # not found, asked by a phone that holds keys
    ):
        assert phone.get(address).headers.get("Cache-Control") == "no-store", address
    assert stranger.get(view).headers.get("Cache-Control") == "no-store"  # the link's redirect
    assert stranger.get(mine + "?key=guessed").headers.get("Cache-Control") == "no-store"
    assert stranger.get(mine).headers.get("Cache-Control") == "no-store"  # the cookie now


def test_api_answers_with_a_bearer_key_and_the_new_session_are_kept_in_no_cache(
    app: Flask,
) -> None:
    client = app.test_client()
    made = client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]})
    assert made.status_code == 201
    assert made.headers["Cache-Control"] == "no-store"
    body = made.get_json()
    edit = {"Authorization": f"Bearer {body['edit_key']}"}
    view = {"Authorization": f"Bearer {body['view_key']}"}
    game = client.post(f"{API}/sessions/{body['id']}/games", headers=edit)
    assert game.status_code == 201
    for answer in (
        game,
        client.get(f"{API}/sessions/{body['id']}", headers=view),
        client.get(f"{API}/games/{game.get_json()['id']}", headers=edit),
        client.get(f"{API}/sessions/{body['id']}", headers={"Authorization": "Bearer wrong"}),
        client.post(f"{API}/check", json={"cards": "7♥ 7♦ 7♣"}, headers=view),
    ):
        assert answer.headers.get("Cache-Control") == "no-store", answer.request.path
    # The repeat of a session's creation hands out the same keys: no cache keeps it either.
    once = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}, headers=once)
    repeat = client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}, headers=once)
    assert first.get_json()["edit_key"] == repeat.get_json()["edit_key"]
    assert repeat.headers["Cache-Control"] == "no-store"
    assert "no-store" not in client.get(f"{API}/openapi.json").headers.get("Cache-Control", "")


# --- a form without its CSRF token ---------------------------------------------------------------


def test_a_form_without_its_csrf_token_gets_our_page_that_says_what_to_do(
    app_with: Callable[..., Flask],
) -> None:
    client = app_with(WTF_CSRF_ENABLED=True).test_client()
    for fields in ({}, {"csrf_token": "forged"}):
        answer = client.post("/sessions", data={"names-0": "Ann", "names-1": "Bob", **fields})
        assert answer.status_code == 400
        page = answer.get_data(as_text=True)
        assert FORM_NOT_OURS in page
        assert 'lang="en"' in page and 'href="/"' in page
        assert "Bad Request" not in page and "CSRF" not in page


def test_the_csrf_refusal_is_in_the_phones_language(app_with: Callable[..., Flask]) -> None:
    app = app_with(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    client.get("/language/de")
    mine = client.post("/sessions/AAAAAAAAAAAAAAAAAAAAAA/keep", data={"key": "x"})
    assert mine.status_code == 400
    page = mine.get_data(as_text=True)
    assert 'lang="de"' in page and 'href="/"' in page
    assert "Bad Request" not in page and "CSRF" not in page
    assert mine.headers["Content-Type"].startswith("text/html")
