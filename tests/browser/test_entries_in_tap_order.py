"""Entries reach the server in the order they were tapped, whatever the network does meanwhile.

A request that hangs and then fails, a second tab of the same phone, and the one case where the
order cannot be kept (said in the bar). The requests are held with Playwright's routes, with the
service worker blocked so that every request of the page passes the route.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, Route, expect

from scorekeeper import services
from tests.browser.conftest import Phone, start
from tests.helpers import entries

# How long Bob's meld hangs before its request fails, as a phone at the edge of the Wi-Fi.
HANGS_MS = 6_000
# A browser without Web Locks: a page over plain http on a LAN (they exist on secure pages only).
NO_WEB_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined});"
# A browser that keeps no IndexedDB (a private window of some browsers): each tab queues alone.
NO_INDEXED_DB = "Object.defineProperty(window, 'indexedDB', {get: () => undefined});"
LATE = {
    "en": "Bob: 6♠ 6♥ 6♦ reached the server after entries tapped later",
    "de": "Bob: 6♠ 6♥ 6♦ ist nach später getippten Einträgen beim Server angekommen",
}


class Held:
    """Hold the first POST of a player's entry; let every other request through."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.routes: list[Route] = []

    def __call__(self, route: Route) -> None:
        request = route.request
        mine = f"player={self.player}&" in (request.post_data or "") + "&"
        if request.method == "POST" and mine and not self.routes:
            self.routes.append(route)
            return
        route.fallback()

    def fail(self, page: Page, waited_ms: int) -> None:
        """Let the held request hang out its time, then fail it as a lost network does."""
        page.wait_for_timeout(max(0, HANGS_MS - waited_ms))
        assert self.routes, "the entry was never sent"
        self.routes[0].abort("connectionreset")


def tap_entry(page: Page, player: str, cards: str) -> None:
    """Choose the player, tap the cards, wait for the check's tick and tap the record button."""
    form = page.locator("form[data-entry]")
    form.locator(".players label.chip", has_text=player).tap()
    for card in cards.split():
        page.locator(f'[data-picker] button[data-card="{card}"]').tap()
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    form.locator('button[data-mode="meld"]').tap()


def the_game(page: Page) -> tuple[int, dict[str, str]]:
    """Return the game's id and the players' ids by name."""
    url, players = page.evaluate(
        """() => [document.querySelector("form[data-entry]").action,
        Object.fromEntries([...document.querySelectorAll("form[data-entry] input[name=player]")]
            .map((input) => [input.labels[0].textContent.trim(), input.value]))]"""
    )
    return int(url.rsplit("/", 2)[1]), players


def arrived(app: Flask, game: int, count: int, page: Page) -> list[tuple[str, str, int]]:
    """Wait until the server holds ``count`` entries of the game; return them."""
    found = entries(app, game)
    for _ in range(150):
        if len(found) >= count:
            break
        page.wait_for_timeout(200)
        found = entries(app, game)
    return found


def ann_goes_out(page: Page, base: str, game: int) -> None:
    """Finish the game on its finish page: Ann went out, Bob holds 10♥ J♠."""
    page.goto(f"{base}/games/{game}/finish")
    form = page.locator("form[data-finish]")
    form.locator(".players label.chip", has_text="Ann").tap()
    for card in ("10♥", "J♠"):
        page.locator(f'[data-picker] button[data-card="{card}"]').tap()
    with page.expect_navigation():
        form.locator("button[name=show]").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm and book the settlement").tap()


def gain_of(app: Flask, game: int, name: str) -> int:
    """Return what the settlement booked for a player beyond the melds."""
    with app.app_context():
        booked = services.get_game(game)
        assert booked.status == "finished"
        names = {player.id: player.name for player in booked.players}
        return next(line.gain for line in booked.settlement_lines if names[line.player_id] == name)


def session_with_bob_dealing(phone: Phone) -> tuple[int, dict[str, str]]:
    """Start a session of Ann and Bob by the start page; return the game and the players."""
    start(phone, "Ann", "Bob")
    return the_game(phone.page)


def test_a_meld_whose_request_hangs_and_fails_still_reaches_the_server_before_later_taps(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask]
) -> None:
    phone = new_phone("en", service_workers="block")
    page = phone.page
    game, players = session_with_bob_dealing(phone)
    held = Held(players["Bob"])
    page.route("**/melds", held)
    tap_entry(page, "Bob", "6♠ 6♥ 6♦")
    started = page.evaluate("Date.now()")
    # Meanwhile Ann puts down all her cards in one turn: a Rommé hand.
    tap_entry(page, "Ann", "Q♣ K♣ A♣")
    tap_entry(page, "Ann", "5♠ 5♥ 5♦ 5♣")
    waited = page.evaluate("Date.now()") - started
    # Nothing of Ann's reached the server while Bob's meld was unanswered.
    app = app_with()
    assert entries(app, game) == []
    held.fail(page, waited)
    assert [name for name, _, _ in arrived(app, game, 3, page)] == ["Bob", "Ann", "Ann"]
    ann_goes_out(page, phone.base, game)
    assert gain_of(app, game, "Ann") == 40  # Bob's 20 doubled: Ann's Rommé hand
    phone.errors.clear()  # the failed request said so on the console


@pytest.mark.parametrize("locks", ["Web Locks", "no Web Locks"])
def test_a_second_tab_waits_behind_the_first_tabs_unanswered_entry(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], locks: str
) -> None:
    phone = new_phone("en", service_workers="block")
    page = phone.page
    context: BrowserContext = page.context
    if locks == "no Web Locks":
        context.add_init_script(NO_WEB_LOCKS)
    game, players = session_with_bob_dealing(phone)
    held = Held(players["Bob"])
    context.route("**/melds", held)
    second = context.new_page()
    second.goto(page.url)
    tap_entry(page, "Bob", "6♠ 6♥ 6♦")
    started = page.evaluate("Date.now()")
    # The second tab shows the first tab's entry waiting before it records Ann's.
    expect(second.locator("ol.entries > li[data-outbox]")).to_have_count(1)
    tap_entry(second, "Ann", "Q♣ K♣ A♣")
    tap_entry(second, "Ann", "5♠ 5♥ 5♦ 5♣")
    waited = page.evaluate("Date.now()") - started
    app = app_with()
    assert entries(app, game) == []
    held.fail(page, waited)
    assert [name for name, _, _ in arrived(app, game, 3, page)] == ["Bob", "Ann", "Ann"]
    ann_goes_out(second, phone.base, game)
    assert gain_of(app, game, "Ann") == 40
    phone.errors.clear()


@pytest.mark.parametrize("language", ["en", "de"])
def test_where_the_order_cannot_be_kept_the_recorder_is_told_in_the_bar(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, service_workers="block")
    page = phone.page
    context: BrowserContext = page.context
    context.add_init_script(NO_INDEXED_DB)
    game, players = session_with_bob_dealing(phone)
    held = Held(players["Bob"])
    context.route("**/melds", held)
    second = context.new_page()
    second.goto(page.url)
    tap_entry(page, "Bob", "6♠ 6♥ 6♦")
    started = page.evaluate("Date.now()")
    # The second tab cannot see the first tab's waiting meld: its own goes first.
    tap_entry(second, "Ann", "Q♣ K♣ A♣")
    held.fail(page, page.evaluate("Date.now()") - started)
    app = app_with()
    assert [name for name, _, _ in arrived(app, game, 2, page)] == ["Ann", "Bob"]
    bar = page.locator("form[data-entry] [data-preview]")
    expect(bar).to_contain_text(LATE[language], timeout=10_000)
    # The words stay when the page is drawn anew by the live table.
    page.wait_for_timeout(2_500)
    expect(bar).to_contain_text(LATE[language])
    phone.errors.clear()
