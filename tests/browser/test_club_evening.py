"""A club evening in real Chromium: the organiser's form, a table's QR link, the board in place."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect

from tests.browser.conftest import Phone, no_sideways_scrolling
from tests.live import send

PLAYERS = [f"Spielerin {number}" for number in range(1, 8)]


def test_a_game_settled_at_a_table_shows_on_the_board_in_place(
    new_phone: Callable[..., Phone], live_server: str
) -> None:
    organiser = new_phone("en", viewport={"width": 360, "height": 740})
    organiser.open("/evenings/new")
    page = organiser.page
    page.fill("#name", "Spielabend")
    page.fill("#players", "\n".join(PLAYERS))
    page.fill("#series", "2")
    page.fill("#length", "2")
    page.fill("#table_size", "4")
    organiser.tap("button[type=submit]")
    expect(page.locator(".evening-table")).to_have_count(2)
    no_sideways_scrolling(page)
    expect(page.locator(".evening-table svg.qr")).to_have_count(2)

    board_link = page.locator("a[href*='/board?key=']").get_attribute("href")
    assert board_link is not None
    tv = new_phone("en", viewport={"width": 1920, "height": 1080})
    tv.page.goto(board_link)
    expect(tv.page.locator(".board-ranking tbody tr")).to_have_count(7)
    tv.page.evaluate("window.notReloaded = true")

    table_link = page.locator(".evening-table a.table-link").first.get_attribute("href")
    assert table_link is not None
    recorder = new_phone("en")
    recorder.page.goto(table_link)
    expect(recorder.page.locator("h1")).to_be_visible()
    assert "/sessions/" in recorder.page.url and "key=" not in recorder.page.url

    # The game is played through the table's session with the key of its QR code.
    session = urlparse(table_link).path.rsplit("/", 1)[1]
    key = parse_qs(urlparse(table_link).query)["key"][0]
    status, table = send(live_server, "GET", f"/api/v1/sessions/{session}", key=key)
    ids = [player["id"] for player in table["players"]]
    status, game = send(live_server, "POST", f"/api/v1/sessions/{session}/games", key=key)
    assert status == 201
    meld = {"player": ids[0], "cards": "Q♣ K♣ A♣"}
    assert send(live_server, "POST", f"/api/v1/games/{game['id']}/melds", meld, key)[0] == 201
    hands = {str(player): card for player, card in zip(ids[1:], ["2♦", "3♦", "4♠"], strict=False)}
    finish = {"winner": ids[0], "hands": hands, "romme": False}
    assert send(live_server, "POST", f"/api/v1/games/{game['id']}/finish", finish, key)[0] == 200

    winner = table["players"][0]["name"]
    first = tv.page.locator(".board-ranking tbody tr").first
    expect(first).to_contain_text(winner, timeout=8_000)
    expect(tv.page.locator(".board-tables li").first).to_contain_text(re.compile(r"Game 1 of 2"))
    assert tv.page.evaluate("window.notReloaded") is True


def test_the_form_shows_the_house_rules_of_the_rule_system_chosen(
    new_phone: Callable[..., Phone],
) -> None:
    organiser = new_phone("en", viewport={"width": 360, "height": 740})
    organiser.open("/evenings/new")
    page = organiser.page
    german_rummy_only = page.locator("[data-variant-only='german_rummy']")
    expect(german_rummy_only.first).to_be_hidden()
    organiser.tap(page.locator("label.chip:has(input[name=variant][value=german_rummy])"))
    expect(german_rummy_only.first).to_be_visible()
    no_sideways_scrolling(page)
