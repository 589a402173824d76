"""Every form carries a one-time token: a form sent twice (a double tap) is applied once."""

from __future__ import annotations

import re
import urllib.parse
from datetime import timedelta

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Entry, Game, Player, SettlementLine
from tests.live import Browser, send
from tests.pageforms import PageForm, form_to
from tests.rows import count, unanswer

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
    edit = re.search(r'href="(/games/\d+/entries/\d+/edit)"', page)
    assert edit is not None
    # The meld form and undo; the correction and the delete button of an entry's own page.
    tokens = re.findall(ONCE, page) + re.findall(
        ONCE, client.get(edit.group(1)).get_data(as_text=True)
    )
    assert len(tokens) >= 4
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


def test_a_form_whose_first_answer_was_lost_is_not_applied_again_and_the_page_says_so(
    client: FlaskClient, app: Flask
) -> None:
    address, page = session_page(client)
    action, form = meld_form(page, "7♥ 7♦ 7♣")
    assert client.post(action, data=form).status_code == 302
    # As if the server stopped between saving the meld and remembering where it answered.
    unanswer(app, f"form:{form['once']}", timedelta(minutes=5))
    again = client.post(action, data=form, follow_redirects=True)
    assert again.status_code == 200
    assert "This form was saved before: look at the page." in again.get_data(as_text=True)
    assert entries_on(client.get(address).get_data(as_text=True)) == 1


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


# --- every other form of the game pages, each sent twice ----------------------------------------


def sent_twice(client: FlaskClient, form: PageForm, **filled: str) -> str:
    """Send a page's form twice as a double tap would; check the repeat went where the first did.

    Return the page the first send led to.
    """
    assert form.fields.get("once"), f"the form to {form.action} carries no one-time token"
    data = {**form.fields, **filled}
    first = client.post(form.action, data=data)
    assert first.status_code == 302, first.get_data(as_text=True)
    again = client.post(form.action, data=data)
    assert again.status_code == 303, again.get_data(as_text=True)
    assert again.headers["Location"] == first.headers["Location"]
    return client.get(first.headers["Location"]).get_data(as_text=True)


def with_melds(client: FlaskClient, *melds: str) -> str:
    """Start a session and record melds for the first player; return its page."""
    address, page = session_page(client)
    for cards in melds:
        action, form = meld_form(page, cards)
        assert client.post(action, data=form).status_code == 302
        page = client.get(address).get_data(as_text=True)
    return page


def game_statuses(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(sa.select(Game.status).order_by(Game.number)))


def game_form(client: FlaskClient, page: str, step: str) -> PageForm:
    """Open the page of a step of the session page's game (``finish``, ``abandon``); its form."""
    game = re.search(r'action="/games/(\d+)/melds"', page)
    assert game is not None
    return form_to(client.get(f"/games/{game.group(1)}/{step}").get_data(as_text=True), f"/{step}")


def test_a_layoff_form_sent_twice_lays_the_cards_off_once(client: FlaskClient, app: Flask) -> None:
    page = with_melds(client, "7♥ 7♦ 7♣")
    layoff = form_to(page, "/melds").through_button("/layoffs")
    after = sent_twice(
        client,
        layoff,
        player=layoff.choices["player"][0],
        meld=layoff.choices["meld"][-1],
        cards="7♠",
    )
    assert count(app, Entry) == 2
    assert entries_on(after) == 2


def test_a_delete_button_tapped_twice_deletes_that_entry_and_nothing_else(
    client: FlaskClient, app: Flask
) -> None:
    page = with_melds(client, "7♥ 7♦ 7♣", "2♠ 3♠ 4♠", "9♦ 10♦ J♦")
    with app.app_context():
        first_entry = db.session.scalar(sa.select(sa.func.min(Entry.id)))
    link = re.search(rf'href="(/games/\d+/entries/{first_entry}/edit)"', page)
    assert link is not None
    edit = client.get(link.group(1)).get_data(as_text=True)
    after = sent_twice(client, form_to(edit, f"/entries/{first_entry}/delete"))
    assert count(app, Entry) == 2
    assert entries_on(after) == 2
    assert "7♥" not in after.split("Entries")[-1]


def test_a_correction_sent_twice_is_booked_once_and_the_repeat_is_not_refused(
    client: FlaskClient, app: Flask
) -> None:
    page = with_melds(client, "7♥ 7♦ 7♣")
    edit = re.search(r'href="(/games/\d+/entries/\d+/edit)"', page)
    assert edit is not None
    correct = form_to(client.get(edit.group(1)).get_data(as_text=True), "/edit")
    after = sent_twice(client, correct, cards="8♥ 8♦ 8♣")
    assert count(app, Entry) == 1
    assert "8♥" in after and "7♥" not in after.split("Entries")[-1]


def test_a_confirmed_finish_sent_twice_books_the_settlement_once(
    client: FlaskClient, app: Flask
) -> None:
    finish = game_form(client, with_melds(client, "7♥ 7♦ 7♣"), "finish")
    winner, *others = finish.choices["winner"]
    hands = {f"hand_{player}": cards for player, cards in zip(others, ["K♦ 9♥", "A♠"], strict=True)}
    preview = client.post(
        finish.action, data={**finish.fields, **hands, "winner": winner, "romme": "no"}
    )
    assert preview.status_code == 200, preview.get_data(as_text=True)
    confirm = form_to(preview.get_data(as_text=True), "/finish")
    assert confirm.fields["confirm"] == "1"
    sent_twice(client, confirm)
    assert game_statuses(app) == ["finished"]
    assert count(app, SettlementLine) == 3
    with app.app_context():
        banked = {
            row.id: row.banked for row in db.session.execute(sa.select(Player.id, Player.banked))
        }
    # 21 melded plus 19 + 15 from the other hands (A♠ 15), once; the others keep their 0.
    assert banked[int(winner)] == 21 + 34
    assert sorted(banked[int(player)] for player in others) == [0, 0]


def test_an_abandon_sent_twice_abandons_the_game_once(client: FlaskClient, app: Flask) -> None:
    abandon = game_form(client, with_melds(client, "7♥ 7♦ 7♣"), "abandon")
    sent_twice(client, abandon)
    assert game_statuses(app) == ["abandoned"]


def test_a_reopen_sent_twice_takes_the_booking_back_once(client: FlaskClient, app: Flask) -> None:
    page = with_melds(client, "7♥ 7♦ 7♣")
    sent_twice(client, game_form(client, page, "abandon"))
    sent_twice(client, game_form(client, page, "reopen"))
    assert game_statuses(app) == ["open"]
    assert count(app, SettlementLine) == 0


def test_start_the_next_game_tapped_twice_deals_one_game(client: FlaskClient, app: Flask) -> None:
    abandon = game_form(client, with_melds(client, "7♥ 7♦ 7♣"), "abandon")
    page = sent_twice(client, abandon)
    sent_twice(client, form_to(page, "/games"))
    assert game_statuses(app) == ["abandoned", "open"]


# --- taps at the same moment, on a real server with CSRF on --------------------------------------


def local(location: str) -> str:
    """Return the path and query of a redirect's Location."""
    parts = urllib.parse.urlsplit(location)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def assert_applied_once(answers: list[tuple[int, str]]) -> None:
    """One tap was applied (302); the others were answered as its repeats (303), to one place."""
    assert sorted(status for status, _ in answers) == [302] + [303] * (len(answers) - 1)
    assert len({location for _, location in answers}) == 1


def test_taps_at_once_on_finish_and_next_game_book_one_settlement_and_deal_one_game(
    shared_server: str,
) -> None:
    browser = Browser(shared_server)
    start = form_to(browser.get("/")[2], "/sessions")
    status, address, _ = browser.post(start.action, {**start.fields, **NEW_SESSION})
    assert status == 302
    page = browser.get(local(address))[2]
    meld = form_to(page, "/melds")
    player = meld.choices["player"][0]
    assert (
        browser.post(meld.action, {**meld.fields, "player": player, "cards": "7♥ 7♦ 7♣"})[0] == 302
    )
    game = meld.action.split("/")[2]
    finish = form_to(browser.get(f"/games/{game}/finish")[2], "/finish")
    others = [choice for choice in finish.choices["winner"] if choice != player]
    hands = {f"hand_{other}": cards for other, cards in zip(others, ["K♦ 9♥", "A♠"], strict=True)}
    # "Show the settlement" is a GET with the hands in the address.
    shown = {**finish.fields, **hands, "winner": player, "romme": "no", "show": "1"}
    status, _, preview = browser.get(f"{finish.action}?{urllib.parse.urlencode(shown)}")
    assert status == 200, preview
    confirm = form_to(preview, "/finish")

    assert_applied_once(browser.at_once(confirm.action, confirm.fields, 8))
    next_game = form_to(browser.get(local(address))[2], "/games")
    assert_applied_once(browser.at_once(next_game.action, next_game.fields, 8))

    page = browser.get(local(address))[2]
    # Either share link's key reads the session through the API.
    shared = re.search(r'class="share-link" href="[^"]*\?key=([^"]+)"', page)
    assert shared is not None
    public_id = local(address).rsplit("/", 1)[1]
    status, session = send(
        shared_server, "GET", f"/api/v1/sessions/{public_id}", key=shared.group(1)
    )
    assert status == 200
    assert [game["status"] for game in session["games"]] == ["finished", "open"]
    assert session["totals"] == {player: 21 + 34, **{other: 0 for other in others}}
