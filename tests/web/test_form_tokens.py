"""Every form carries a one-time token: a form sent twice (a double tap) is applied once."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

ONCE = r'<input[^>]*name="once"[^>]*value="([^"]+)"'
NEW_SESSION = {"names-0": "Ann", "names-1": "Bob", "names-2": "Cid", "target": "500"}


def token(page: str) -> str:
    """Return the one-time token of the page's first form."""
    found = re.search(ONCE, page)
    assert found is not None, "the form carries no one-time token"
    return found.group(1)


def session_page(client: FlaskClient) -> tuple[str, str]:
    """Start a session through the start page's form; return its address and its page."""
    home = client.get("/").get_data(as_text=True)
    answer = client.post("/sessions", data={**NEW_SESSION, "once": token(home)})
    assert answer.status_code == 302
    address = answer.headers["Location"]
    return address, client.get(address).get_data(as_text=True)


def meld_form(page: str, cards: str) -> tuple[str, dict[str, str]]:
    action = re.search(r'action="(/games/\d+/melds)"', page)
    player = re.search(r'name="player"[^>]*value="(\d+)"', page)
    assert action is not None and player is not None
    return action.group(1), {"player": player.group(1), "cards": cards, "once": token(page)}


def entries_on(page: str) -> int:
    return len(re.findall(r'<span class="time">', page))


def test_every_form_of_the_pages_carries_its_own_token(client: FlaskClient) -> None:
    address, page = session_page(client)
    action, form = meld_form(page, "7♥ 7♦ 7♣")
    client.post(action, data=form)
    page = client.get(address).get_data(as_text=True)
    tokens = re.findall(ONCE, page)
    # The meld form, undo, a delete button per entry, and each button its own token.
    assert len(tokens) >= 3
    assert len(set(tokens)) == len(tokens)
    again = client.get(address).get_data(as_text=True)
    assert set(tokens).isdisjoint(re.findall(ONCE, again))


def test_a_meld_form_sent_twice_records_one_meld(client: FlaskClient) -> None:
    address, page = session_page(client)
    action, form = meld_form(page, "7♥ 7♦ 7♣")
    first = client.post(action, data=form)
    again = client.post(action, data=form)
    assert first.status_code == 302
    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert entries_on(client.get(address).get_data(as_text=True)) == 1


def test_a_repeated_start_of_a_session_starts_one_and_opens_it_for_the_repeat(
    app: Flask,
) -> None:
    tapped_twice, other_tab = app.test_client(), app.test_client()
    home = tapped_twice.get("/").get_data(as_text=True)
    data = {**NEW_SESSION, "once": token(home)}
    first = tapped_twice.post("/sessions", data=data)
    # The repeat arrives without the first answer's cookie, as when the browser dropped it.
    again = other_tab.post("/sessions", data=data)
    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    assert other_tab.get(again.headers["Location"]).status_code == 200
    listed = re.findall(r'href="(/sessions/[^"]+)"', tapped_twice.get("/").get_data(as_text=True))
    assert listed == [first.headers["Location"]]


def test_a_used_token_sent_with_other_cards_records_nothing_and_says_so(
    client: FlaskClient,
) -> None:
    address, page = session_page(client)
    action, form = meld_form(page, "7♥ 7♦ 7♣")
    assert client.post(action, data=form).status_code == 302
    changed = client.post(action, data={**form, "cards": "2♠ 3♠ 4♠"}, follow_redirects=True)
    assert changed.status_code == 200
    text = changed.get_data(as_text=True)
    assert "This form was sent before" in text
    assert entries_on(client.get(address).get_data(as_text=True)) == 1
    assert "2♠" not in client.get(address).get_data(as_text=True).split("Entries")[-1]


def test_a_refused_form_can_be_corrected_and_sent_with_the_same_token(
    client: FlaskClient,
) -> None:
    address, page = session_page(client)
    action, form = meld_form(page, "7♥ 8♦ 7♣")
    assert client.post(action, data=form).status_code == 422  # not a set: nothing recorded
    assert client.post(action, data={**form, "cards": "7♥ 7♦ 7♣"}).status_code == 302
    assert entries_on(client.get(address).get_data(as_text=True)) == 1


def test_an_undo_button_tapped_twice_takes_back_one_entry(client: FlaskClient) -> None:
    address, page = session_page(client)
    for cards in ("7♥ 7♦ 7♣", "2♠ 3♠ 4♠"):
        action, form = meld_form(page, cards)
        client.post(action, data=form)
        page = client.get(address).get_data(as_text=True)
    undo = re.search(r'<form method="post" action="(/games/\d+/undo[^"]*)"', page)
    assert undo is not None
    button = {"once": token(page[undo.start() :])}
    path = undo.group(1).replace("&amp;", "&")
    assert client.post(path, data=button).status_code == 302
    assert client.post(path, data=button).status_code == 303
    assert entries_on(client.get(address).get_data(as_text=True)) == 1


def test_with_csrf_on_a_form_sent_twice_is_applied_once_and_other_cards_are_told_apart(
    app: Flask,
) -> None:
    app.config["WTF_CSRF_ENABLED"] = True  # as in production: the form is parsed before the view
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', home)
    assert csrf is not None
    data = {**NEW_SESSION, "once": token(home), "csrf_token": csrf.group(1)}
    first = client.post("/sessions", data=data)
    assert first.status_code == 302
    assert client.post("/sessions", data=data).status_code == 303
    address = first.headers["Location"]
    page = client.get(address).get_data(as_text=True)
    action, form = meld_form(page, "7♥ 7♦ 7♣")
    form["csrf_token"] = csrf.group(1)
    assert client.post(action, data=form).status_code == 302
    assert client.post(action, data=form).status_code == 303
    other = client.post(action, data={**form, "cards": "2♠ 3♠ 4♠"}, follow_redirects=True)
    assert "This form was sent before" in other.get_data(as_text=True)
    assert entries_on(client.get(address).get_data(as_text=True)) == 1
    listed = re.findall(r'href="(/sessions/[^"#]+)"', client.get("/").get_data(as_text=True))
    assert listed == [address]
