"""The game page's small things at 360 px: the bar's colours, the address bar, header, a swap."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, fits, start
from tests.live import call

WORDS = {
    "en": {
        "change": "Change…",
        "delete": "Delete the entry",
        "abandon": "Abandon",
        "play on": "No, play on",
        "undo": "Undo",
    },
    "de": {
        "change": "Ändern…",
        "delete": "Eintrag löschen",
        "abandon": "Abbrechen",
        "play on": "Nein, weiterspielen",
        "undo": "Rückgängig",
    },
}


def record(phone: Phone, *cards: str) -> None:
    """Tap the cards of a meld and record it in place."""
    phone.tap_cards(*cards)
    expect(phone.page.locator("[data-preview]")).to_contain_text("✓")
    phone.in_place('button[data-mode="meld"]')


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_address_bar_follows_a_delete_in_place_and_playing_on(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob")
    game_page = page.evaluate("location.pathname")
    record(phone, "Q♣", "K♣", "A♣")
    with page.expect_navigation():
        phone.tap(page.locator("ol.entries a", has_text=words["change"]).first)
    assert "/entries/" in page.url
    phone.tap(page.locator("[data-delete] button", has_text=words["delete"]))
    expect(page.locator("ol.entries > li")).to_have_count(0)
    expect(page).to_have_url(re.compile(re.escape(game_page) + "$"))
    abandon = page.locator("a[href$='/abandon']").first
    with page.expect_navigation():
        phone.tap(abandon)
    assert page.url.endswith("/abandon")
    phone.tap(page.get_by_role("link", name=words["play on"]))
    expect(page.locator("form[data-entry]")).to_be_attached()
    expect(page).to_have_url(re.compile(re.escape(game_page) + "(#game)?$"))


# How many lines a link's words take on screen (one box per line).
LINES = "(element) => { const range = document.createRange(); range.selectNodeContents(element);"
LINES += " return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size; }"


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_header_and_a_long_group_link_keep_their_words_whole_at_360_px(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    status, group = call(phone.base, "POST", "/api/v1/groups", {"name": "Donnerstagsrunde"})
    assert status == 201, group
    joins = {"group": group["id"], "group_key": group["edit_key"]}
    status, session = call(
        phone.base, "POST", "/api/v1/sessions", {"players": ["Ann", "Bob"], **joins}
    )
    assert status == 201, session
    phone.open(f"/groups/{group['id']}?key={group['edit_key']}")
    phone.open(f"/sessions/{session['id']}?key={session['edit_key']}")
    history = page.locator("header.top a[href$='/history']")
    assert history.evaluate(LINES) == 1
    group_link = page.locator("a[href*='/groups/'] bdi")
    assert group_link.evaluate(LINES) == 1
    fits(phone)


@pytest.mark.parametrize("language", ["en", "de"])
def test_after_another_meld_the_opening_short_clears_and_an_undo_is_not_green(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob", variant="german_rummy")
    preview = page.locator("[data-preview]")
    phone.tap_cards("Q♣", "K♣", "A♣")
    expect(preview).to_contain_text("31")
    expect(preview).to_have_class(re.compile(r"\bbad\b"))
    phone.tap(page.locator("button[data-another]"))
    expect(preview).not_to_contain_text("31")
    expect(preview).not_to_have_class(re.compile(r"\bbad\b"))
    phone.tap_cards("3♦", "3♥", "3♠")
    expect(preview).to_contain_text("✓")
    phone.in_place('button[data-mode="meld"]')
    expect(preview).to_have_class(re.compile(r"\bok\b"))
    phone.in_place(page.locator("button[form=undo]"))
    expect(preview).to_contain_text("Undone" if language == "en" else "Zurückgenommen")
    expect(preview).not_to_have_class(re.compile(r"\bok\b"))
    green = page.evaluate("getComputedStyle(document.querySelector('[data-preview]')).color")
    accent = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()"
    )
    assert green != accent


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_tap_on_a_meld_with_a_joker_offers_the_swap_when_the_picked_card_fits(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    body = {"players": ["Ann", "Bob"], "variant": "german_rummy", "rules": {"opening": 0}}
    status, session = call(phone.base, "POST", "/api/v1/sessions", body)
    assert status == 201, session
    key = session["edit_key"]
    status, game = call(phone.base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    assert status == 201, game
    ann = session["players"][0]["id"]
    meld = {"player": ann, "cards": "7♠ JKR 9♠"}
    status, _ = call(phone.base, "POST", f"/api/v1/games/{game['id']}/melds", meld, key)
    assert status == 201
    phone.open(f"/sessions/{session['id']}?key={key}")
    phone.tap_cards("8♠")
    phone.tap(page.locator('label.meld-choice:has(input[data-cards*="JKR"])'))
    expect(page.locator("input[name=onto_action][value=swap]")).to_be_checked()
    expect(page.locator('button[data-mode="swap"]')).to_be_visible()
    # A card the joker does not stand for is a layoff, as before.
    phone.tap(page.locator('label.meld-choice:has(input[data-cards*="JKR"])'))
    phone.open(f"/sessions/{session['id']}")
    phone.tap_cards("10♠")
    phone.tap(page.locator('label.meld-choice:has(input[data-cards*="JKR"])'))
    expect(page.locator('button[data-mode="layoff"]')).to_be_visible()
    fits(phone)
