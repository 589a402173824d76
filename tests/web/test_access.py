"""Keys: a session opens only with its edit key (to write) or view key (to read), in the API and
in the browser; without one it does not exist."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.web import access
from tests.helpers import API, bearer
from tests.pageforms import links, start_in_browser

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def table_with_a_meld(client: FlaskClient) -> dict[str, Any]:
    """Start a session of Ann, Bob and Cid with game 1 and one meld; return ids and keys."""
    session = client.post(f"{API}/sessions", json={"players": ["Ann", "Bob", "Cid"]})
    assert session.status_code == 201
    body = session.get_json()
    edit = bearer(body["edit_key"])
    game = client.post(f"{API}/sessions/{body['id']}/games", headers=edit).get_json()
    ann = body["players"][0]["id"]
    meld = client.post(
        f"{API}/games/{game['id']}/melds", json={"player": ann, "cards": "7♥ 7♦ 7♣"}, headers=edit
    ).get_json()
    return {**body, "game": game["id"], "ann": ann, "meld": meld["id"]}


def state(client: FlaskClient, table: dict[str, Any]) -> tuple[Any, Any]:
    edit = bearer(table["edit_key"])
    return (
        client.get(f"{API}/sessions/{table['id']}", headers=edit).get_json(),
        client.get(f"{API}/games/{table['game']}", headers=edit).get_json(),
    )


def writes(table: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Every request that changes a session, as (method, path, body)."""
    game = f"{API}/games/{table['game']}"
    return [
        ("POST", f"{API}/sessions/{table['id']}/games", None),
        ("POST", f"{game}/melds", {"player": table["ann"], "cards": "2♠ 3♠ 4♠"}),
        ("POST", f"{game}/layoffs", {"player": table["ann"], "meld": table["meld"], "cards": "7♠"}),
        ("POST", f"{game}/undo", None),
        ("DELETE", f"{game}/entries/{table['meld']}", None),
        ("PATCH", f"{game}/entries/{table['meld']}", {"cards": "7♥ 7♦ 7♣ 7♠"}),
        ("POST", f"{game}/finish", {"winner": None}),
        ("POST", f"{game}/reopen", None),
    ]


def reads(table: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Every request that reads a session without changing it."""
    return [
        ("GET", f"{API}/sessions/{table['id']}", None),
        ("GET", f"{API}/games/{table['game']}", None),
        ("POST", f"{API}/games/{table['game']}/settlement", {"winner": None}),
    ]


def send(client: FlaskClient, request: tuple[str, str, Any], headers: dict[str, str]) -> Any:
    method, path, body = request
    return client.open(path, method=method, json=body, headers=headers)


# --- the API -----------------------------------------------------------------------------------


def test_a_new_session_hands_out_two_different_keys_and_an_id_nobody_can_guess(
    client: FlaskClient,
) -> None:
    first, second = table_with_a_meld(client), table_with_a_meld(client)
    assert len({first["edit_key"], first["view_key"], second["edit_key"]}) == 3
    assert all(len(key) >= 32 for key in (first["edit_key"], first["view_key"]))
    # Random ids of 22 characters, not numbers that count up.
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", first["id"])
    assert first["id"] != second["id"]
    assert not first["id"].isdigit()


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer wrong-key"},
        {"Authorization": "Basic QW5uOnNlY3JldA=="},
        {"Authorization": "Bearer " + "k" * 10_000},
        {"Authorization": "Bearer \u00e4\u00f6\u00fc"},
    ],
    ids=["none", "empty", "wrong", "basic", "huge", "umlauts"],
)
def test_without_the_key_every_request_about_a_session_answers_404_and_changes_nothing(
    app: Flask, headers: dict[str, str]
) -> None:
    owner, stranger = app.test_client(), app.test_client()
    table = table_with_a_meld(owner)
    before = state(owner, table)
    for request in writes(table) + reads(table):
        answer = send(stranger, request, headers)
        assert answer.status_code == 404, request
        assert answer.get_json()["error"]
    assert state(owner, table) == before


def test_a_missing_key_looks_exactly_like_a_session_that_does_not_exist(app: Flask) -> None:
    owner, stranger = app.test_client(), app.test_client()
    table = table_with_a_meld(owner)
    real = stranger.get(f"{API}/sessions/{table['id']}")
    invented = stranger.get(f"{API}/sessions/AAAAAAAAAAAAAAAAAAAAAA")
    assert (real.status_code, real.get_json()) == (invented.status_code, invented.get_json())
    real_game = stranger.get(f"{API}/games/{table['game']}")
    invented_game = stranger.get(f"{API}/games/{table['game'] + 1000}")
    assert real_game.get_json() == invented_game.get_json()


def test_the_key_of_another_session_opens_nothing_here(app: Flask) -> None:
    client = app.test_client()
    mine, theirs = table_with_a_meld(client), table_with_a_meld(client)
    before = state(client, theirs)
    for request in writes(theirs) + reads(theirs):
        assert send(client, request, bearer(mine["edit_key"])).status_code == 404, request
    assert state(client, theirs) == before


def test_the_view_key_reads_everything_and_changes_nothing(app: Flask) -> None:
    owner, watcher = app.test_client(), app.test_client()
    table = table_with_a_meld(owner)
    before = state(owner, table)
    view = bearer(table["view_key"])
    for request in reads(table):
        assert send(watcher, request, view).status_code == 200, request
    assert watcher.get(f"{API}/sessions/{table['id']}", headers=view).get_json() == before[0]
    for request in writes(table):
        assert send(watcher, request, view).status_code == 404, request
    assert state(owner, table) == before


def test_the_edit_key_works_from_any_client(app: Flask) -> None:
    owner, second_phone = app.test_client(), app.test_client()
    table = table_with_a_meld(owner)
    edit = bearer(table["edit_key"])
    layoff = second_phone.post(
        f"{API}/games/{table['game']}/layoffs",
        json={"player": table["ann"], "meld": table["meld"], "cards": "7♠"},
        headers=edit,
    )
    assert layoff.status_code == 201
    lying = owner.get(f"{API}/games/{table['game']}").get_json()["melds"][0]["cards"]
    assert sorted(lying) == sorted(["7♥", "7♦", "7♣", "7♠"])


def test_an_idempotent_repeat_without_the_key_gets_404_not_the_first_answer(app: Flask) -> None:
    owner, stranger = app.test_client(), app.test_client()
    table = table_with_a_meld(owner)
    path = f"{API}/games/{table['game']}/melds"
    body = {"player": table["ann"], "cards": "2♠ 3♠ 4♠"}
    once = {"Idempotency-Key": "meld-1"}
    first = owner.post(path, json=body, headers={**once, **bearer(table["edit_key"])})
    assert first.status_code == 201
    assert stranger.post(path, json=body, headers=once).status_code == 404
    view = {**once, **bearer(table["view_key"])}
    assert stranger.post(path, json=body, headers=view).status_code == 404


def test_the_openapi_document_names_the_bearer_keys(client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").get_json()
    assert set(document["components"]["securitySchemes"]) == {
        "editKey",
        "viewKey",
        "groupEditKey",
        "groupViewKey",
        "eveningEditKey",
        "eveningViewKey",
    }
    meld = document["paths"]["/api/v1/games/{game_id}/melds"]["post"]
    assert meld["security"] == [{"editKey": []}]
    read = document["paths"]["/api/v1/games/{game_id}"]["get"]
    assert {"viewKey": []} in read["security"]


# --- the browser -------------------------------------------------------------------------------


def meld_form(page: str) -> dict[str, str]:
    """Return the fields of the page's meld form: first player, three sevens, its tokens."""
    player = re.search(r'name="player"[^>]*value="(\d+)"', page)
    assert player is not None
    fields = dict(
        re.findall(r'<input id="(csrf_token|once)" name="\1" type="hidden" value="([^"]*)"', page)
    )
    return {**fields, "player": player.group(1), "cards": "7♥ 7♦ 7♣"}


def found(pattern: str, page: str) -> str:
    """Return the first group of a pattern that must be on the page."""
    match = re.search(pattern, page)
    assert match is not None, pattern
    return match.group(1)


def start_with_a_meld(creator: FlaskClient) -> tuple[str, str]:
    """Start a session in the browser and record 7♥ 7♦ 7♣; return its address and its page."""
    session_page = start_in_browser(creator)
    page = creator.get(session_page).get_data(as_text=True)
    creator.post(found(r'action="(/games/\d+/melds)"', page), data=meld_form(page))
    return session_page, creator.get(session_page).get_data(as_text=True)


def test_the_browser_that_starts_a_session_keeps_its_edit_key(app: Flask) -> None:
    creator = app.test_client()
    session_page = start_in_browser(creator)
    page = creator.get(session_page)
    assert page.status_code == 200
    assert "data-entry" in page.get_data(as_text=True)  # the recording form


def test_the_cookie_that_opens_the_pages_opens_nothing_in_the_api(app: Flask) -> None:
    creator = app.test_client()
    session_page = start_in_browser(creator)
    session_id = session_page.rsplit("/", 1)[-1]
    assert creator.get(session_page).status_code == 200
    answer = creator.get(f"{API}/sessions/{session_id}")
    assert answer.status_code == 404
    assert "Set-Cookie" not in answer.headers
    assert creator.get(session_page).status_code == 200  # the cookie is still whole


def test_another_phone_without_a_link_finds_nothing(app: Flask) -> None:
    creator, stranger = app.test_client(), app.test_client()
    session_page = start_in_browser(creator)
    page = creator.get(session_page).get_data(as_text=True)
    game_id = re.search(r"/games/(\d+)/melds", page)
    assert game_id is not None
    for path in (
        session_page,
        session_page + "/history",
        f"/games/{game_id.group(1)}/finish",
        f"/games/{game_id.group(1)}/abandon",
    ):
        assert stranger.get(path).status_code == 404, path
    posted = stranger.post(f"/games/{game_id.group(1)}/melds", data=meld_form(page))
    assert posted.status_code == 404
    assert "7♥" not in creator.get(session_page).get_data(as_text=True).split("Entries")[-1]


def test_the_session_page_offers_an_edit_link_and_a_view_link_with_qr_codes(app: Flask) -> None:
    creator = app.test_client()
    page = creator.get(start_in_browser(creator)).get_data(as_text=True)
    offered = links(page)
    assert set(offered) == {"edit", "view"}
    assert offered["edit"] != offered["view"]
    assert offered["edit"].startswith("http://localhost/sessions/")
    assert page.count('<svg viewBox="0 0 ') == 2 and page.count('class="qr"') == 2
    # Each code encodes its own link (segno draws the same link the same way every time).
    with app.test_request_context():
        for link in offered.values():
            assert str(access.qr_code(link)) in page


@pytest.mark.parametrize(
    ("language", "watch", "record"),
    [
        ("en", "To watch", "To record on another phone"),
        ("de", "Zum Zuschauen", "Zum Eintragen auf einem anderen Handy"),
    ],
)
def test_the_view_link_and_its_code_come_first_and_the_edit_link_one_tap_further(
    app: Flask, language: str, watch: str, record: str
) -> None:
    creator = app.test_client()
    creator.set_cookie("language", language)
    page = creator.get(start_in_browser(creator)).get_data(as_text=True)
    offered = links(page)
    share = page[page.index('<details class="share card-box">') :]
    view, edit = share.index(offered["view"]), share.index(offered["edit"].replace("&", "&amp;"))
    assert view < edit
    assert share.index('class="qr"') < share.index(f"<summary>{record}</summary>") < edit
    assert share.index(f"<h3>{watch}</h3>") < view
    # The edit link lies in a closed <details> of its own, after the view link's code.
    assert share.index('<details class="share-edit">') < share.index(f"<summary>{record}</summary>")
    assert offered["view"] not in share[share.index('<details class="share-edit">') :]
    # The first link a friend gets watches only.
    first = re.search(r'<a class="share-link" href="([^"]+)"', share)
    assert first is not None
    friend = app.test_client()
    friend.set_cookie("language", "en")
    opened = friend.get(first.group(1).replace("&amp;", "&"), follow_redirects=True)
    assert "You are watching" in opened.get_data(as_text=True)


def test_the_view_link_shows_the_scores_and_no_way_to_change_them(app: Flask) -> None:
    creator, watcher = app.test_client(), app.test_client()
    session_page, owner_page = start_with_a_meld(creator)
    opened = watcher.get(links(owner_page)["view"])
    assert opened.status_code == 302
    assert opened.headers["Location"] == session_page  # the key leaves the address bar
    page = watcher.get(session_page).get_data(as_text=True)
    assert "7♥" in page and "data-entry" not in page and "/undo" not in page
    assert set(links(page)) == {"view"}
    assert watcher.get(session_page + "/history").status_code == 200
    game = found(r"/games/(\d+)/finish", owner_page)
    assert watcher.get(f"/games/{game}/finish").status_code == 404
    assert watcher.post(f"/games/{game}/undo", data={}).status_code == 404
    assert "7♥" in creator.get(session_page).get_data(as_text=True)


def test_the_edit_link_lets_another_phone_record(app: Flask) -> None:
    creator, second_phone = app.test_client(), app.test_client()
    session_page = start_in_browser(creator)
    owner_page = creator.get(session_page).get_data(as_text=True)
    assert second_phone.get(links(owner_page)["edit"]).status_code == 302
    page = second_phone.get(session_page).get_data(as_text=True)
    action = re.search(r'action="(/games/\d+/melds)"', page)
    assert action is not None
    assert second_phone.post(action.group(1), data=meld_form(page)).status_code == 302
    assert "7♥" in creator.get(session_page).get_data(as_text=True)
    # A view link opened later does not take the edit key away again.
    second_phone.get(links(owner_page)["view"])
    assert "data-entry" in second_phone.get(session_page).get_data(as_text=True)


def test_a_view_link_replaces_an_edit_key_that_no_longer_opens_the_session(app: Flask) -> None:
    creator = app.test_client()
    session_page = start_in_browser(creator)
    with app.app_context():
        keys = services.replace_keys(session_page.rsplit("/", 1)[1])
    assert creator.get(f"{session_page}?key={keys.view}").status_code == 302
    page = creator.get(session_page)
    assert page.status_code == 200
    assert "data-entry" not in page.get_data(as_text=True)
    assert creator.get(f"{session_page}?key={keys.edit}").status_code == 302
    assert "data-entry" in creator.get(session_page).get_data(as_text=True)


@pytest.mark.parametrize("opened", ["?key=", "?key=&x=1", "/history?key="])
def test_a_link_cut_off_before_its_key_takes_no_key_away(app: Flask, opened: str) -> None:
    creator = app.test_client()
    session_page = start_in_browser(creator)
    assert creator.get(session_page + opened).status_code == 200
    assert "data-entry" in creator.get(session_page).get_data(as_text=True)


def test_a_link_with_a_wrong_key_finds_nothing(app: Flask) -> None:
    creator, stranger = app.test_client(), app.test_client()
    session_page = start_in_browser(creator)
    assert stranger.get(session_page + "?key=guessed").status_code == 404
    assert stranger.get(session_page).status_code == 404


def test_a_watcher_is_told_once_that_nothing_lies_yet_then_sees_the_melds(app: Flask) -> None:
    creator, watcher = app.test_client(), app.test_client()
    session_page = start_in_browser(creator)
    page = creator.get(session_page).get_data(as_text=True)
    watcher.get(links(page)["view"])
    empty = watcher.get(session_page).get_data(as_text=True)
    assert empty.count("No melds or layoffs yet.") == 1
    assert "On the table" not in empty
    creator.post(found(r'action="(/games/\d+/melds)"', page), data=meld_form(page))
    shown = watcher.get(session_page).get_data(as_text=True)
    assert "On the table" in shown
    assert "No melds or layoffs yet." not in shown


def test_a_view_key_changes_nothing_through_any_page(app: Flask) -> None:
    creator, watcher = app.test_client(), app.test_client()
    session_page, owner_page = start_with_a_meld(creator)
    game = found(r"/games/(\d+)/melds", owner_page)
    entry = found(r"/entries/(\d+)/edit", owner_page)
    watcher.get(links(owner_page)["view"])
    for path in (
        f"/games/{game}/entries/{entry}/delete",
        f"/games/{game}/entries/{entry}/edit",
        f"/games/{game}/finish",
        f"/games/{game}/abandon",
        f"/games/{game}/melds",
        f"/games/{game}/layoffs",
        session_page + "/games",
    ):
        assert watcher.post(path, data={"cards": "7♠", "winner": "1"}).status_code == 404, path
    assert "7♥" in creator.get(session_page).get_data(as_text=True)
    assert creator.get(f"/games/{game}/finish").status_code == 200  # still open


def test_a_wrong_key_shows_the_same_page_as_a_session_that_does_not_exist(app: Flask) -> None:
    creator, stranger = app.test_client(), app.test_client()
    session_page = start_in_browser(creator)
    invented_page = "/sessions/AAAAAAAAAAAAAAAAAAAAAA"
    real = stranger.get(session_page)
    invented = stranger.get(invented_page)
    assert real.status_code == invented.status_code == 404
    # The same page, but for the address it was asked at (the language links lead back there).
    assert real.get_data(as_text=True).replace(session_page, invented_page) == invented.get_data(
        as_text=True
    )


def test_the_cookie_keeps_the_keys_of_the_twenty_latest_sessions(app: Flask) -> None:
    browser = app.test_client()
    started = [start_in_browser(browser) for _ in range(21)]
    assert browser.get(started[0]).status_code == 404  # the oldest dropped out
    assert all(browser.get(page).status_code == 200 for page in started[1:])


def test_a_new_link_opens_a_session_whose_old_key_this_phone_still_holds(app: Flask) -> None:
    creator = app.test_client()
    session_page = start_in_browser(creator)
    public_id = session_page.rsplit("/", 1)[1]
    with app.app_context():
        keys = services.replace_keys(public_id)  # the keys were lost and handed out anew
    assert creator.get(session_page).status_code == 404
    assert creator.get(f"{session_page}?key={keys.view}").status_code == 302
    assert creator.get(session_page).status_code == 200
    assert creator.get(f"{session_page}?key={keys.edit}").status_code == 302
    assert "data-entry" in creator.get(session_page).get_data(as_text=True)


def test_a_link_cannot_send_the_phone_elsewhere_with_extra_arguments(app: Flask) -> None:
    creator, other = app.test_client(), app.test_client()
    session_page = start_in_browser(creator)
    view = links(creator.get(session_page).get_data(as_text=True))["view"]
    answer = other.get(view + "&public_id=elsewhere&_anchor=x&game_id=abc")
    assert answer.status_code == 302
    assert answer.headers["Location"].split("?")[0] == session_page


def test_a_page_renews_the_cookie_only_when_it_was_signed_over_an_hour_ago(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import itsdangerous.timed

    fresh = app.test_client()
    session_page = start_in_browser(fresh)
    # Signed just now, at the start: the page keeps it (its 400 days barely moved).
    assert "Set-Cookie" not in fresh.get(session_page).headers
    # A phone that started its session two hours ago: the page signs its cookie anew.
    client = app.test_client()
    now = itsdangerous.timed.time.time()
    with monkeypatch.context() as earlier:
        earlier.setattr(itsdangerous.timed.time, "time", lambda: now - 2 * 60 * 60)
        session_page = start_in_browser(client)
    old = client.get_cookie("session")
    assert old is not None
    renewed = client.get(session_page)
    assert renewed.status_code == 200
    assert "data-entry" in renewed.get_data(as_text=True)  # the keys are still in it
    assert "session=" in renewed.headers["Set-Cookie"]
    new = client.get_cookie("session")
    assert new is not None and new.value != old.value
    assert "Set-Cookie" not in client.get(session_page).headers
