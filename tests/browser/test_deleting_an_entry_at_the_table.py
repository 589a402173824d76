"""Deleting an entry on its own page: back to the game where it was left, "Restore" offered.

Real Chromium at 360 px, in English and German. The delete is sent in place; the game page
comes back at the recorder's scroll position with the entry gone and the bar saying so.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone

NARROW = {"width": 360, "height": 740}
WORDS = {
    "en": {"change": "Change…", "delete": "Delete the entry", "deleted": "Deleted:"},
    "de": {"change": "Ändern…", "delete": "Eintrag löschen", "deleted": "Gelöscht:"},
}


def record(phone: Phone, *cards: str) -> None:
    """Tap the cards of a meld and record it in place."""
    phone.tap_cards(*cards)
    expect(phone.page.locator("[data-preview]")).to_contain_text("✓")
    phone.in_place('button[data-mode="meld"]')


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_deleted_entry_is_gone_from_the_game_page_where_it_was_left_and_can_be_restored(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    phone.open()
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    with page.expect_navigation():
        phone.tap("form[data-seating] button[type=submit]")
    record(phone, "Q♣", "K♣", "A♣")
    record(phone, "7♥", "7♦", "7♠")
    entries = page.locator("ol.entries > li")
    expect(entries).to_have_count(2)
    change = page.locator("ol.entries a", has_text=words["change"]).first
    change.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    assert before > 0
    with page.expect_navigation():
        phone.tap(change)
    with page.expect_navigation():
        phone.tap(page.locator("[data-delete] button", has_text=words["delete"]))
    expect(page.locator("form[data-entry]")).to_be_attached()
    expect(entries).to_have_count(1)
    expect(page.locator("#game ol.entries")).not_to_contain_text("7♦")
    preview = page.locator("[data-preview]")
    expect(preview).to_contain_text(words["deleted"])
    expect(preview).to_contain_text("7♦")
    assert abs(page.evaluate("window.scrollY") - before) < 2
    # "Restore" records it again, as a new entry, as after an undo.
    phone.in_place(preview.locator("button[data-restore]"))
    expect(entries).to_have_count(2)
    expect(page.locator("#game ol.entries")).to_contain_text("7♦")
    assert phone.errors == []
