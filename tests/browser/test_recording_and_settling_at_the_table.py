"""An evening at the table without a rough edge: a phone of 360 px, in English and German."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, big_enough, fits, record, start, whose_entry


@dataclass(frozen=True)
class Words:
    """What the pages say in one language."""

    show: str
    confirm: str
    booked: str
    not_booked: str
    undone: str
    aces: str
    correct: str
    save: str


WORDS = {
    "en": Words(
        show="Show the settlement",
        confirm="Confirm and book the settlement",
        booked="Game 1 is booked",
        not_booked="not booked yet",
        undone="Undone:",
        aces="3 aces in a set: 15 each",
        correct="Change…",
        save="Save the correction",
    ),
    "de": Words(
        show="Abrechnung zeigen",
        confirm="Abrechnung bestätigen und buchen",
        booked="Spiel 1 ist gebucht",
        not_booked="noch nicht gebucht",
        undone="Zurückgenommen:",
        aces="3 Asse im Satz: je 15",
        correct="Ändern…",
        save="Korrektur speichern",
    ),
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_back_after_booking_shows_the_booking_not_an_open_preview(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob")
    record(phone, "Q♣", "K♣", "A♣")
    with page.expect_navigation():
        phone.tap("a[href$='/finish']")
    phone.tap_cards("5♥")
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name=words.show))
    expect(page.locator("#settlement")).to_contain_text(words.not_booked)
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name=words.confirm))
    page.go_back()  # a GET asked again: no "confirm form resubmission" page
    expect(page.locator("h1")).to_have_text(words.booked)
    expect(page.locator("body")).not_to_contain_text(words.not_booked)
    expect(page.get_by_role("button", name=words.confirm)).to_have_count(0)
    expect(page.locator("#settlement")).to_contain_text("5♥")
    fits(phone)
    phone.open("/")  # the list of this phone's sessions, each with its button to remove it
    big_enough(phone, "ul.games form button")
    fits(phone)


@pytest.mark.parametrize("language", ["en", "de"])
def test_undo_is_in_reach_beside_the_picker_and_chooses_the_undone_entrys_player(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob", "Cid")
    record(phone, "Q♣", "K♣", "A♣")
    record(phone, "5♠", "5♥", "5♦", player="Bob")
    record(phone, "9♦", "10♦", "J♦", player="Cid")
    record(phone, "2♥", "3♥", "4♥", player="Ann")
    # Five melds on the table: the page still opens with the chips and the picker on screen
    # (recorded in place, the page does not open again by itself: opened here by hand).
    record(phone, "7♠", "7♥", "7♣", player="Bob")
    page.goto(page.url.split("#")[0] + "#entry")
    expect(page.locator(".players")).to_be_in_viewport()
    expect(phone.card("A♠")).to_be_in_viewport()
    undo = page.locator(".action-bar button.undo-now")
    expect(undo).to_be_in_viewport()
    big_enough(phone, ".action-bar button.undo-now")
    fits(phone)
    phone.tap(page.locator(".players label.chip", has_text="Cid"))
    phone.in_place(undo)
    expect(page.locator("[data-preview]")).to_contain_text(words.undone)
    expect(page.locator("[data-preview]")).to_be_in_viewport()
    assert whose_entry(phone) == "Bob"  # the undone meld was Bob's


@pytest.mark.parametrize("language", ["en", "de"])
def test_switching_the_language_keeps_the_cards_picked_and_the_player(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob")
    phone.tap(page.locator(".players label.chip", has_text="Bob"))
    phone.tap_cards("Q♥", "K♥")
    other = "en" if language == "de" else "de"
    with page.expect_navigation():
        phone.tap(f"nav.languages a[hreflang={other}]")
    expect(page.locator("html")).to_have_attribute("lang", other)
    assert whose_entry(phone) == "Bob"
    expect(phone.card("Q♥")).to_have_attribute("aria-pressed", "true")
    expect(phone.card("K♥")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-preview]")).to_contain_text("✗")  # two cards: no meld yet


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_correction_page_checks_the_cards_as_the_game_page_does(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob")
    record(phone, "A♠", "A♥", "A♦")
    with page.expect_navigation():
        page.locator("a", has_text=words.correct).first.tap()
    preview = page.locator("[data-preview]")
    expect(preview).to_contain_text(words.aces)  # one clause for three aces, not three
    phone.tap_cards("A♣")
    expect(preview).to_contain_text("✓")
    expect(preview).to_contain_text("4")
    phone.tap_cards("A♣", "A♦")
    expect(preview).to_contain_text("✗")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_first_dealer_list_names_only_the_players_typed(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    phone.open()
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    offered = page.locator("select[name=dealer] option:not([hidden])")
    expect(offered).to_have_count(3)  # by lot, Ann, Bob
    expect(page.locator("select[name=dealer] option[value='0']")).to_have_text("Ann")
    page.fill("#names-0", "")
    expect(page.locator("select[name=dealer]")).to_have_value("1")  # Ann's seat gave way


@pytest.mark.parametrize("language", ["en", "de"])
def test_switching_the_language_keeps_the_hands_picked_on_the_finish_page(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    start(phone, "Ann", "Bob")
    record(phone, "Q♣", "K♣", "A♣")
    with page.expect_navigation():
        phone.tap("a[href$='/finish']")
    phone.tap_cards("5♥", "7♠")
    other = "en" if language == "de" else "de"
    with page.expect_navigation():
        phone.tap(f"nav.languages a[hreflang={other}]")
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.locator("[data-hand]:not([hidden]) input[name^=hand_]")).to_have_value("5♥ 7♠")
    expect(phone.card("7♠")).to_have_attribute("aria-pressed", "true")
