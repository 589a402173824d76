"""The game page answers in place: no reload on a record, a refusal in view, other phones drawn in.

Real Chromium at 360 px, in English and German.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone, start

PHONE_360 = {"width": 360, "height": 740}

WORDS = {
    "en": {
        "start": "Start the session",
        "record_ann": "Record for Ann",
        "record_bob": "Record for Bob",
        "swap_bob": "Swap the joker for Bob",
        "swap": "Swap the joker",
        "short": "31 of 40",
        "not_opened": "Bob has not opened yet",
        "table": "on the table",
    },
    "de": {
        "start": "Partie beginnen",
        "record_ann": "Für Ann eintragen",
        "record_bob": "Für Bob eintragen",
        "swap_bob": "Joker tauschen für Bob",
        "swap": "Joker tauschen",
        "short": "31 von 40",
        "not_opened": "Bob hat noch nicht ausgelegt",
        "table": "auf dem Tisch",
    },
}


def stays(page: Page) -> None:
    """Mark the page: a reload or another page loses the mark (see ``still_the_same``)."""
    page.evaluate("window.notReloaded = true")


def still_the_same(page: Page) -> bool:
    return bool(page.evaluate("window.notReloaded === true"))


def in_view(page: Page, selector: str) -> None:
    expect(page.locator(selector)).to_be_in_viewport()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_refused_opening_and_a_refused_swap_are_said_in_view_with_everything_kept(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=PHONE_360)
    page = phone.page
    preview = page.locator("[data-preview]")
    start(phone, "Ann", "Bob", "Cid", variant="german_rummy")
    stays(page)
    meld_button = page.locator('button[data-mode="meld"]')
    expect(meld_button).to_have_text(words["record_ann"])

    # 31 of 40 is no tick; recording it anyway is refused where the recorder looks.
    phone.tap_cards("Q♣", "K♣", "A♣")
    expect(preview).to_contain_text("✗")
    expect(preview).to_contain_text(words["short"])
    page.evaluate("window.scrollTo(0, 400)")
    before = page.evaluate("window.scrollY")
    phone.tap(meld_button)
    expect(preview).to_have_class("preview bad")
    expect(preview).to_contain_text("40")
    in_view(page, "[data-preview]")
    for card in ("Q♣", "K♣", "A♣"):
        expect(phone.card(card)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("ol.entries > li")).to_have_count(0)
    assert page.evaluate("window.scrollY") == before

    # With the sixes and a joker it opens: recorded in place, the screen does not move.
    phone.tap(page.locator("button[data-another]"))
    phone.tap_cards("6♠", "6♥", "JKR", "JKR")
    expect(page.locator("input[name=cards]")).to_have_value("6♠ 6♥ JKR JKR")
    # One joker is taken back at a time.
    phone.tap(page.locator('[data-picker] button[data-card="-JKR"]'))
    expect(page.locator("input[name=cards]")).to_have_value("6♠ 6♥ JKR")
    expect(page.locator('[data-picker] button[data-card="-JKR"]')).to_be_visible()
    expect(preview).to_contain_text("✓")
    before = page.evaluate("window.scrollY")
    phone.in_place(meld_button)
    expect(page.locator("ol.entries > li")).to_have_count(1)
    expect(page.locator("ol.entries > li[data-waiting]")).to_have_count(0)
    expect(phone.card("JKR").locator(".left")).to_have_text("5")
    assert page.evaluate("window.scrollY") == before
    assert still_the_same(page)

    # Bob has not opened: a swap is refused, and stays a swap with its cards.
    phone.tap(page.locator(".players label.chip", has_text="Bob"))
    expect(meld_button).to_have_text(words["record_bob"])
    phone.tap(page.locator('label.meld-choice:has(input[data-cards*="JKR"])'))
    phone.tap(page.locator("label.chip", has_text=words["swap"]))
    swap_button = page.locator('button[data-mode="swap"]')
    expect(swap_button).to_have_text(words["swap_bob"])
    place = page.locator("[data-places-buttons] button").first
    if place.get_attribute("aria-pressed") != "true":
        phone.tap(place)
    phone.tap_cards("8♥", "10♥")
    expect(preview).to_contain_text(words["not_opened"])
    new_meld = page.locator("input[name=new_meld]").input_value()
    phone.tap(swap_button)
    expect(preview).to_have_class("preview bad")
    expect(preview).to_contain_text(words["not_opened"])
    in_view(page, "[data-preview]")
    expect(page.locator("input[name=onto_action][value=swap]")).to_be_checked()
    expect(swap_button).to_be_visible()
    expect(page.locator("input[name=new_meld]")).to_have_value(new_meld)
    expect(page.locator("ol.entries > li")).to_have_count(1)
    assert still_the_same(page)
    phone.shot("12-refused-swap-in-view-360")


def test_a_watcher_and_a_second_recorder_see_the_entry_in_place_with_picked_cards_kept(
    new_phone: Callable[..., Phone],
) -> None:
    first = new_phone("en", viewport=PHONE_360)
    start(first, "Ann", "Bob", "Cid", variant="treppenromme")
    edit_link = first.page.locator("a.share-link").last.get_attribute("href")
    view_link = first.page.locator("a.share-link").first.get_attribute("href")
    assert edit_link is not None and view_link is not None
    second = new_phone("de", viewport=PHONE_360)
    second.page.goto(edit_link)
    watcher = new_phone("en", viewport=PHONE_360)
    watcher.page.goto(view_link)
    stays(second.page)
    stays(watcher.page)
    # The second recorder has picked K♣ and 7♥ when the first records Q♣ K♣ A♣.
    second.tap_cards("K♣", "7♥")
    first.tap_cards("Q♣", "K♣", "A♣")
    expect(first.page.locator("[data-preview]")).to_contain_text("✓")
    first.in_place('button[data-mode="meld"]')

    for phone in (second, watcher):
        expect(phone.page.locator("#game ol.entries")).to_contain_text("A♣", timeout=8_000)
        assert still_the_same(phone.page)
    # The card the other phone put down is named in the bar; the other one stays picked.
    preview = second.page.locator("[data-preview]")
    expect(preview).to_contain_text("✗")
    expect(preview).to_contain_text("K♣")
    expect(second.page.locator("input[name=cards]")).to_have_value("K♣ 7♥")
    expect(second.card("7♥")).to_have_attribute("aria-pressed", "true")
    # K♣ lies on the table now but is still picked here: pressed, and a tap takes it back,
    # after which it cannot be picked again.
    expect(second.card("K♣")).to_have_attribute("aria-pressed", "true")
    second.tap_cards("K♣")
    expect(second.page.locator("input[name=cards]")).to_have_value("7♥")
    expect(second.card("K♣")).to_be_disabled()

    # An undo on the first phone is drawn in place on the others too.
    first.in_place(first.page.locator(".action-bar button.undo-now"))
    for phone in (second, watcher):
        expect(phone.page.locator("#game ol.entries")).to_have_count(0, timeout=8_000)
    expect(second.card("K♣")).to_be_enabled()
    # For a few seconds the bar offers to record it again, as a new entry.
    first.in_place(first.page.locator("[data-preview] button[data-restore]"))
    expect(first.page.locator("ol.entries > li")).to_have_count(1)
    expect(watcher.page.locator("#game ol.entries")).to_contain_text("A♣", timeout=8_000)


def test_boathouse_preselects_the_first_player_and_the_button_names_whom_it_records_for(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de", viewport=PHONE_360)
    page = phone.page
    start(phone, "Ann", "Bob", "Cid", variant="boathouse_rum")
    # Ann deals; her left neighbour Bob plays first, and is chosen.
    expect(page.locator(".players input:checked + span")).to_contain_text("Bob")
    expect(page.locator('button[data-mode="meld"]')).to_have_text("Für Bob eintragen")
    phone.tap(page.locator(".players label.chip", has_text="Cid"))
    expect(page.locator('button[data-mode="meld"]')).to_have_text("Für Cid eintragen")


def test_switching_the_language_keeps_the_melds_picked_the_cards_and_the_player(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de", viewport=PHONE_360)
    page = phone.page
    start(phone, "Ann", "Bob", "Cid", variant="treppenromme")
    phone.tap(page.locator(".players label.chip", has_text="Bob"))
    phone.tap_cards("5♥", "5♦", "5♣", "5♠")
    phone.tap(page.locator("button[data-another]"))
    phone.tap_cards("6♦", "7♦")
    with page.expect_navigation():
        phone.tap("nav.languages a[hreflang=en]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("[data-melds-so-far] li")).to_have_count(1)
    expect(page.locator("[data-melds-so-far] li")).to_contain_text("5♥ 5♦ 5♣ 5♠")
    expect(page.locator("input[name=cards]")).to_have_value("6♦ 7♦")
    expect(page.locator('button[data-mode="meld"]')).to_have_text("Record for Bob")
