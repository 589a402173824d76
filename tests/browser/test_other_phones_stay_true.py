"""Two recording phones: what one phone's bar said of an entry goes when the other deletes it.

Real Chromium at 360 px, in English and German. Phone B records Jürgen's layoff and its bar
says so; phone A deletes that entry; B's live table redraws the page and its bar no longer says
the layoff was recorded.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOWN_WITHIN_MS, Phone
from tests.live import api

WORDS = {
    "en": {"change": "Change…", "delete": "Delete the entry", "eight": "8♣"},
    "de": {"change": "Ändern…", "delete": "Eintrag löschen", "eight": "8♣"},
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_bar_that_named_an_entry_another_phone_deleted_no_longer_says_it(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    a = new_phone(language, viewport=NARROW)
    b = new_phone(language, viewport=NARROW)
    session = api(a.base, "POST", "/api/v1/sessions", {"players": ["Anna", "Jürgen"]})
    key = session["edit_key"]
    anna = session["players"][0]["id"]
    game = api(a.base, "POST", f"/api/v1/sessions/{session['id']}/games", {}, key)["id"]
    api(a.base, "POST", f"/api/v1/games/{game}/melds", {"player": anna, "cards": "8♠ 8♥ 8♦"}, key)
    for phone in (a, b):
        phone.open(f"/sessions/{session['id']}?key={key}")

    page = b.page
    form = page.locator("form[data-entry]")
    b.tap(form.locator(".players label.chip", has_text="Jürgen"))
    b.tap(page.locator("label.meld-choice", has_text="8♠ 8♥ 8♦"))
    b.tap_cards("8♣")
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    b.in_place('button[data-mode="layoff"]')
    bar = page.locator("[data-preview]")
    expect(bar).to_contain_text("✓")
    expect(bar).to_contain_text("Jürgen")
    expect(bar).to_contain_text(words["eight"])

    # Phone A deletes the layoff on its own page.
    a.page.reload()
    change = a.page.locator("ol.entries a", has_text=words["change"]).first
    with a.page.expect_navigation():
        a.tap(change)
    with a.page.expect_navigation():
        a.tap(a.page.locator("[data-delete] button", has_text=words["delete"]))
    expect(a.page.locator("#game ol.entries")).not_to_contain_text(words["eight"])

    # B asks every 2 s whether anything changed: the table redrawn, the bar says it no more.
    expect(page.locator("#game ol.entries")).not_to_contain_text(
        words["eight"], timeout=SHOWN_WITHIN_MS
    )
    expect(bar).not_to_contain_text(words["eight"])
    expect(bar).not_to_contain_text("✓")
