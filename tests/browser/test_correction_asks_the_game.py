"""The correction page asks the game: its check says ✓ only for what saving would accept, and a
refused correction is answered in place, under the picker, as on the game page.

Real Chromium at 360 px, German Rummy in English and German: Jürgen's layoff handed to Anna,
who has not put down her opening (G3).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, no_sideways_scrolling
from tests.live import api

SAVE = {"en": "Save the correction", "de": "Berichtigung speichern"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_correction_check_refuses_what_saving_would_and_a_refusal_answers_in_place(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    body = {"players": ["Anna", "Jürgen"], "variant": "german_rummy"}
    session = api(phone.base, "POST", "/api/v1/sessions", body)
    key = session["edit_key"]
    jurgen = session["players"][1]["id"]
    game = api(phone.base, "POST", f"/api/v1/sessions/{session['id']}/games", {}, key)["id"]
    opening = {"player": jurgen, "melds": ["8♠ 8♥ 8♦", "Q♣ K♣ A♣"]}
    eights = api(phone.base, "POST", f"/api/v1/games/{game}/melds", opening, key)["melds"][0]["id"]
    layoff = {"player": jurgen, "meld": eights, "cards": "8♣"}
    entry = api(phone.base, "POST", f"/api/v1/games/{game}/layoffs", layoff, key)["id"]
    phone.open(f"/sessions/{session['id']}?key={key}")
    address = f"/games/{game}/entries/{entry}/edit"
    phone.open(address)

    bar = page.locator("form[data-correct] [data-preview]")
    expect(bar).to_contain_text("✓")
    # Handed to Anna, who has not opened: the rules alone would say ✓, the game says no.
    phone.tap(page.locator("form[data-correct] .players label.chip", has_text="Anna"))
    expect(bar).to_contain_text("✗")
    expect(bar).to_contain_text("Anna")
    save = page.get_by_role("button", name=SAVE[language])
    save.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    phone.tap(save)
    expect(bar).to_contain_text("✗")
    expect(bar).to_contain_text("Anna")
    assert page.evaluate("location.pathname") == address
    assert abs(page.evaluate("window.scrollY") - before) < 2
    no_sideways_scrolling(page)

    # Back to Jürgen: ✓ again, and saving goes back to the game.
    phone.tap(page.locator("form[data-correct] .players label.chip", has_text="Jürgen"))
    expect(bar).to_contain_text("✓")
    with page.expect_navigation():
        phone.tap(save)
    assert page.evaluate("location.pathname") == f"/sessions/{session['id']}"
