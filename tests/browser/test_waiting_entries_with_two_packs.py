"""Entries waiting on the phone in a game of two packs: each card they hold is counted once.

German Rummy (two packs) offline in Chromium at 360 px: the copies left on each card's button
are what the server drew on the page, less the cards of the entries waiting, once each; an undone
waiting entry gives its cards back; a reload of the kept page counts the same.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, kept_by_the_worker

WAITING = "ol.entries > li[data-outbox]"


def record(phone: Phone, name: str, *melds: str, onto: str | None = None) -> None:
    """Tap the player, the meld laid onto (if any) and each meld's cards; tap record."""
    form = phone.page.locator("form[data-entry]")
    form.locator(".players label.chip", has_text=name).tap()
    if onto is not None:
        form.locator("label.meld-choice", has_text=onto).tap()
    for at, meld in enumerate(melds):
        if at:
            form.locator("button[data-another]").tap()
        phone.tap_cards(*meld.split())
    form.locator(f'button[data-mode="{"layoff" if onto else "meld"}"]').tap()


def left(phone: Phone, *codes: str) -> list[str]:
    """Return what each card's button says is left of its copies."""
    return [phone.card(code).locator(".left").inner_text() for code in codes]


@pytest.mark.parametrize("language", ["en", "de"])
def test_waiting_entries_count_each_card_once_through_an_undo_and_a_reload(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    phone.open()
    page.locator(".variants label.chip:has(input[value=german_rummy])").tap()
    for seat, name in enumerate(["Dörte", "Anna"]):
        page.fill(f"#names-{seat}", name)
    with page.expect_navigation():
        page.locator("form button[type=submit]").tap()
    kept_by_the_worker(page)
    # Dörte opens online: 31 + 9 = 40.
    record(phone, "Dörte", "Q♣ K♣ A♣", "3♦ 3♥ 3♠")
    expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(1)
    expect(phone.card("Q♣").locator(".left")).to_have_text("1")

    page.context.set_offline(True)
    waiting = page.locator(WAITING)
    # A layoff waits, then is undone on the phone: its card has both copies again.
    record(phone, "Dörte", "J♣", onto="K♣ A♣")
    expect(waiting).to_have_count(1)
    expect(phone.card("J♣").locator(".left")).to_have_text("1")
    page.locator("form#undo button, button[form=undo]").first.tap()
    expect(waiting).to_have_count(0)
    expect(phone.card("J♣").locator(".left")).to_have_text("2")

    # Another, dropped from the list of waiting entries: the same.
    record(phone, "Dörte", "J♣", onto="K♣ A♣")
    expect(phone.card("J♣").locator(".left")).to_have_text("1")
    waiting.locator("[data-outbox-delete]").tap()
    expect(waiting).to_have_count(0)
    expect(phone.card("J♣").locator(".left")).to_have_text("2")

    record(phone, "Dörte", "8♠ 8♥ 8♦", "6♠ 6♥ 6♣")
    expect(waiting).to_have_count(1)
    record(phone, "Anna", "Q♠ Q♥ Q♦", "4♣ 5♣ 6♣")
    expect(waiting).to_have_count(2)
    cards = ("8♠", "8♥", "8♦", "6♠", "6♣", "Q♠", "4♣", "J♣", "Q♣")
    counted = ["1", "1", "1", "1", "0", "1", "1", "2", "1"]
    assert left(phone, *cards) == counted
    expect(phone.card("8♠")).to_be_enabled()
    page.reload()
    assert page.locator("html").get_attribute("data-offline-copy")
    expect(waiting).to_have_count(2)
    assert left(phone, *cards) == counted
    expect(phone.card("8♠")).to_be_enabled()
    phone.errors.clear()  # the sends that found no network said so on the console
