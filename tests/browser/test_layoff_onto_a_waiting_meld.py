"""A meld tapped lies on the table at once, greyed: a layoff onto it is tapped before it is kept.

Online with the meld's request held (a slow network: Playwright's route, the service worker
blocked so that the request passes it), offline (the worker keeping the page's modules), and
with the meld refused: the layoff waits behind the meld and goes with the meld's id, or is
refused in plain words.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import Page, Route, expect

from scorekeeper import services
from tests.browser.conftest import Phone, kept_by_the_worker, start

NARROW = {"width": 360, "height": 740}
PENDING = {"en": "not yet recorded", "de": "noch nicht gebucht"}
CHECKED_LATER = {
    "en": "checked once that meld is recorded",
    "de": "geprüft, sobald diese Kombination gebucht ist",
}
NOT_RECORDED = {
    "en": "The meld these cards went onto was not recorded.",
    "de": "Die Kombination, an die diese Karten angelegt wurden, wurde nicht gebucht.",
}


def the_game(page: Page) -> tuple[int, dict[str, str]]:
    """Return the game's id and the players' ids by name."""
    url, players = page.evaluate(
        """() => [document.querySelector("form[data-entry]").action,
        Object.fromEntries([...document.querySelectorAll("form[data-entry] input[name=player]")]
            .map((input) => [input.labels[0].textContent.trim(), input.value]))]"""
    )
    return int(url.rsplit("/", 2)[1]), players


def tap_cards(page: Page, player: str, cards: str) -> None:
    """Choose the player and tap the cards."""
    page.locator("form[data-entry] .players label.chip", has_text=player).tap()
    for card in cards.split():
        page.locator(f'[data-picker] button[data-card="{card}"]').tap()


def recorded(app: Flask, game_id: int, count: int, page: Page) -> list[tuple[str, str, str]]:
    """Wait until the game holds ``count`` entries; return (player, cards, its meld's cards)."""
    for _ in range(150):
        with app.app_context():
            game = services.get_game(game_id)
            names = {player.id: player.name for player in game.players}
            cards = {e.id: " ".join(c.card for c in e.cards) for e in game.entries}
            found = [
                (names[e.player_id], cards[e.id], cards.get(e.meld_id or 0, ""))
                for e in game.entries
            ]
        if len(found) >= count:
            return found
        page.wait_for_timeout(200)
    return found


class Held:
    """Hold the first meld's request until let go, as a slow network does."""

    def __init__(self) -> None:
        self.routes: list[Route] = []

    def __call__(self, route: Route) -> None:
        if route.request.method == "POST" and not self.routes:
            self.routes.append(route)
            return
        route.fallback()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_layoff_onto_a_meld_still_being_sent_is_tapped_at_once_and_lands_on_that_meld(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW, service_workers="block")
    page = phone.page
    start(phone, "Ann", "Bob")
    game, _ = the_game(page)
    held = Held()
    page.route("**/melds", held)
    tap_cards(page, "Bob", "6♠ 6♥ 6♦")
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    page.locator('form[data-entry] button[data-mode="meld"]').tap()
    # From the tap: the cards are taken and the meld lies greyed on the table.
    for card in ("6♠", "6♥", "6♦"):
        expect(page.locator(f'[data-picker] button[data-card="{card}"]')).to_be_disabled()
    waiting = page.locator("label[data-pending-meld]")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text(PENDING[language])
    expect(waiting).to_contain_text("Bob")
    assert held.routes, "the meld was not sent"
    # Ann lays off onto it before the server answered.
    page.locator("form[data-entry] .players label.chip", has_text="Ann").tap()
    waiting.tap()
    page.locator('[data-picker] button[data-card="6♣"]').tap()
    expect(page.locator("[data-preview]")).to_contain_text(CHECKED_LATER[language])
    page.locator('form[data-entry] button[data-mode="layoff"]').tap()
    expect(page.locator('[data-picker] button[data-card="6♣"]')).to_be_disabled()
    app = app_with()
    assert recorded(app, game, 0, page) == []
    held.routes[0].continue_()
    assert recorded(app, game, 2, page) == [
        ("Bob", "6♠ 6♥ 6♦", ""),
        ("Ann", "6♣", "6♠ 6♥ 6♦"),
    ]
    # The page drawn anew by the server: the meld lies there for real, nothing greyed.
    expect(page.locator("label[data-pending-meld]")).to_have_count(0)
    expect(page.locator("label.meld-choice", has_text="6♣")).to_have_count(1)


def offline_meld_and_layoff(phone: Phone, meld: str, layoff: str) -> int:
    """Offline, record Bob's meld and a layoff onto it while it waits; return the game's id."""
    page = phone.page
    start(phone, "Ann", "Bob")
    game, _ = the_game(page)
    kept_by_the_worker(page)  # the modules a tap loads come from the worker offline
    page.context.set_offline(True)
    # Offline nothing is checked: the server judges both once the network is back.
    tap_cards(page, "Bob", meld)
    page.locator('form[data-entry] button[data-mode="meld"]').tap()
    waiting = page.locator("label[data-pending-meld]")
    expect(waiting).to_have_count(1)
    waiting.tap()
    for card in layoff.split():
        page.locator(f'[data-picker] button[data-card="{card}"]').tap()
    page.locator('form[data-entry] button[data-mode="layoff"]').tap()
    expect(page.locator("ol.entries > li[data-outbox]")).to_have_count(2)
    return game


@pytest.mark.parametrize("language", ["en", "de"])
def test_offline_a_meld_and_a_layoff_onto_it_wait_and_are_sent_in_order_when_back(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    game = offline_meld_and_layoff(phone, "Q♣ K♣ A♣", "J♣")
    for card in ("Q♣", "K♣", "A♣", "J♣"):
        expect(page.locator(f'[data-picker] button[data-card="{card}"]')).to_be_disabled()
    app = app_with()
    assert recorded(app, game, 0, page) == []
    page.context.set_offline(False)
    assert recorded(app, game, 2, page) == [
        ("Bob", "Q♣ K♣ A♣", ""),
        ("Bob", "J♣", "Q♣ K♣ A♣"),
    ]
    expect(page.locator("ol.entries > li[data-outbox]")).to_have_count(0)
    phone.errors.clear()  # the offline requests said so on the console


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_refused_meld_dropped_gives_back_the_layoff_onto_it_refused_in_plain_words(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    # A meld the server will refuse, and a layoff onto it.
    game = offline_meld_and_layoff(phone, "6♠ 7♥ 9♦", "8♥")
    page.context.set_offline(False)
    bar = page.locator("[data-preview]")
    expect(bar).to_contain_text("✗")
    # The refused meld lies no longer on the table; Drop takes it back.
    expect(page.locator("label[data-pending-meld]")).to_have_count(0)
    bar.locator("button[data-outbox-drop]").tap()
    expect(bar).to_contain_text(NOT_RECORDED[language])
    bar.locator("button[data-outbox-drop]").tap()
    expect(page.locator("ol.entries > li[data-outbox]")).to_have_count(0)
    for card in ("6♠", "7♥", "9♦", "8♥"):
        expect(page.locator(f'[data-picker] button[data-card="{card}"]')).to_be_enabled()
    app = app_with()
    assert recorded(app, game, 0, page) == []
    phone.errors.clear()  # the refusal said so on the console
