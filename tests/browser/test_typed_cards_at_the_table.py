"""Cards typed in words on the finish and correction pages: the server reads them, the page shows.

Real Chromium at 360 px, in English and German: "Herz As" is the ace of hearts, never A♠.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone

NARROW = {"width": 360, "height": 740}
# What a person at the table types for the ace of hearts, and for the clubs meld, by language.
TYPED = {
    "en": ("ace of hearts", "clubs queen, clubs king, clubs ace", "Change…"),
    "de": ("Herz As", "Kreuz Dame, Kreuz König, Kreuz As", "Ändern…"),
}


def start_and_meld(phone: Phone) -> None:
    """Start a session of Ann and Bob by the home page and record Ann's Q♣ K♣ A♣ in place."""
    page = phone.page
    phone.open()
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    with page.expect_navigation():
        phone.tap("form[data-seating] button[type=submit]")
    phone.tap_cards("Q♣", "K♣", "A♣")
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    phone.in_place('button[data-mode="meld"]')
    expect(page.locator("ol.entries > li")).to_have_count(1)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_typed_in_words_is_picked_and_named_as_the_server_read_it(
    new_phone: Callable[..., Phone], language: str
) -> None:
    ace, _, _ = TYPED[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start_and_meld(phone)
    with page.expect_navigation():
        phone.tap("a[href$='/finish']")
    hand = page.locator("[data-hand]:not([hidden])").first
    hand.locator("input[name^=hand_]").fill(f"{ace} 7h")
    heard = hand.locator("[data-heard]")
    expect(heard).to_be_visible()
    expect(heard).to_have_text("A♥ 7♥")
    expect(phone.card("A♥")).to_have_attribute("aria-pressed", "true")
    expect(phone.card("7♥")).to_have_attribute("aria-pressed", "true")
    expect(phone.card("A♠")).to_have_attribute("aria-pressed", "false")
    # A tap in the picker goes on from what the server read; the field then holds its labels.
    phone.tap_cards("5♦")
    expect(hand.locator("input[name^=hand_]")).to_have_value("A♥ 7♥ 5♦")
    expect(heard).to_be_hidden()
    # A word that names no card is said under the hand, in the page's language.
    hand.locator("input[name^=hand_]").fill("Herz Elf")
    expect(heard).to_contain_text("✗")
    expect(heard).to_contain_text("Elf")
    assert phone.errors == []


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_correction_typed_in_words_is_picked_as_the_server_read_it(
    new_phone: Callable[..., Phone], language: str
) -> None:
    _, clubs, correct = TYPED[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start_and_meld(phone)
    with page.expect_navigation():
        phone.tap(page.locator("a", has_text=correct).first)
    page.locator("input[name=cards]").fill(clubs)
    for card in ("Q♣", "K♣", "A♣"):
        expect(phone.card(card)).to_have_attribute("aria-pressed", "true")
    expect(phone.card("A♠")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    assert phone.errors == []
