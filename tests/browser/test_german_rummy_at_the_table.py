"""A German Rummy game for four, recorded by taps on a 360 px phone in real Chromium.

Two packs and six jokers: an opening of two melds with its running total, a joker in doubt
said by one tap, the second copy of a card, a joker swap, and a hand with a joker settled.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone, no_sideways_scrolling, totals

WORDS = {
    "en": {
        "start": "Start the session",
        "deal": "Ann deals 13 cards each and plays first.",
        "rules": "German Rummy · until a total reaches -500",
        "short": "31 of 40",
        "enough": "40 of 40",
        "sixty": "60 of 40",
        "doubt": "a joker can stand for",
        "swap": "Swap the joker",
        "swapped": "joker swap",
        "minus": "every other player books minus the cards left in their hand",
        "confirm": "Confirm and book the settlement",
    },
    "de": {
        "start": "Partie beginnen",
        "deal": "Ann gibt jedem 13 Karten und spielt zuerst.",
        "rules": "Rommé · bis ein Stand -500 erreicht",
        "short": "31 von 40",
        "enough": "40 von 40",
        "sixty": "60 von 40",
        "doubt": "Joker",
        "swap": "Joker tauschen",
        "swapped": "Joker getauscht",
        "minus": "alle anderen schreiben die Karten in ihrer Hand als Minuspunkte",
        "confirm": "Abrechnung bestätigen und buchen",
    },
}


def record(phone: Phone, mode: str = "meld") -> None:
    """Tap the button that records what the live check approved."""
    page = phone.page
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    phone.in_place(f'button[data-mode="{mode}"]')


def left(phone: Phone, code: str) -> str:
    """Return what a card's button says is left of its copies."""
    return phone.card(code).locator(".left").inner_text()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_german_rummy_game_for_four_is_played_by_taps_at_360_pixels(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport={"width": 360, "height": 740})
    page: Page = phone.page
    preview = page.locator("[data-preview]")

    def fits() -> None:
        no_sideways_scrolling(page)

    phone.open()
    phone.tap(page.locator(".variants label.chip:has(input[value=german_rummy])"))
    # German Rummy ends at a limit of minus points: the target is not offered.
    expect(page.locator("input[name=end][value=limit]")).to_be_checked()
    expect(page.locator("label.chip:has(input[name=end][value=target])")).to_be_hidden()
    expect(page.locator("input[name=opening]")).to_have_value("40")
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dan"]):
        page.fill(f"#names-{seat}", name)
    fits()
    phone.shot("9-german-rummy-start-360", full_page=True)
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name=words["start"]))
    expect(page.locator(".game .points-line")).to_contain_text(words["deal"])
    expect(page.locator("p.rules")).to_contain_text(words["rules"])
    expect(page.locator('[data-picker] button[data-card="JKR"] .left')).to_have_text("6")
    fits()

    # Ann opens with two melds: 31 alone is short of 40, with the threes it is enough.
    phone.tap_cards("Q♣", "K♣", "A♣")
    expect(preview).to_contain_text(words["short"])
    phone.shot("10-german-rummy-short-360")
    phone.tap(page.locator("button[data-another]"))
    expect(page.locator("[data-melds-so-far] li")).to_have_count(1)
    phone.tap_cards("3♦", "3♥", "3♠")
    expect(preview).to_contain_text(words["enough"])
    fits()
    phone.shot("10-german-rummy-opening-360")
    record(phone)
    expect(page.locator("ol.entries li")).to_have_count(1)
    expect(phone.card("Q♣").locator(".left")).to_have_text("1")

    # Bob: a joker at the end of J♥ Q♥ is in doubt; one tap says it is the K♥.
    phone.tap(page.locator(".players label.chip", has_text="Bob"))
    phone.tap_cards("J♥", "Q♥", "JKR")
    expect(preview).to_contain_text("✗")
    expect(preview).to_contain_text(words["doubt"])
    choice = page.locator("[data-joker-choices] button", has_text="K♥")
    phone.tap(choice)
    expect(page.locator("input[name=cards]")).to_have_value(
        "J♥ Q♥ JKR=K♥" if language == "en" else "B♥ D♥ JKR=K♥"
    )
    expect(preview).to_contain_text("30")
    phone.tap(page.locator("button[data-another]"))
    phone.tap_cards("10♠", "10♦", "10♣")
    expect(preview).to_contain_text(words["sixty"])
    fits()
    record(phone)
    expect(phone.card("JKR").locator(".left")).to_have_text("5")

    # Cid melds the second copies of Q♣ and K♣: one of each was left.
    phone.tap(page.locator(".players label.chip", has_text="Cid"))
    assert left(phone, "Q♣") == "1"
    phone.tap_cards("J♣", "Q♣", "K♣")
    expect(phone.card("Q♣").locator(".left")).to_have_text("0")
    expect(phone.card("Q♣")).to_have_attribute("aria-pressed", "true")
    phone.tap(page.locator("button[data-another]"))
    phone.tap_cards("9♥", "9♠", "9♦")
    expect(preview).to_contain_text("✓")
    record(phone)
    # Both copies of Q♣ lie on the table now: the card is crossed out.
    expect(phone.card("Q♣")).to_be_disabled()

    # Ann swaps the joker: K♥ goes in its place, the joker into 7♦ 8♦ (said to be the 9♦).
    phone.tap(page.locator(".players label.chip", has_text="Ann"))
    phone.tap(page.locator('label.meld-choice:has(input[data-cards*="JKR"])'))
    phone.tap(page.locator("label.chip", has_text=words["swap"]))
    expect(page.locator("input[name=cards]")).to_have_value("K♥")
    expect(page.locator("input[name=new_meld]")).to_have_value("JKR")
    phone.tap_cards("7♦", "8♦")
    expect(preview).to_contain_text("✗")
    phone.tap(page.locator("[data-joker-choices] button", has_text="9♦"))
    expect(preview).to_contain_text("✓")
    fits()
    phone.shot("11-german-rummy-swap-360", full_page=True)
    record(phone, "swap")
    expect(page.locator("ol.entries")).to_contain_text(words["swapped"])
    fits()

    # Ann went out; Bob holds A♠ and a joker (-41), Cid 7♥, Dan 2♣.
    with page.expect_navigation():
        phone.tap("a[href$='/finish']")
    fits()
    for name, cards in {"Bob": ["A♠", "JKR"], "Cid": ["7♥"], "Dan": ["2♣"]}.items():
        phone.tap(page.locator(".hand-target", has_text=name))
        phone.tap_cards(*cards)
    with page.expect_navigation():
        phone.tap(".finish .action-bar button[type=submit]")
    settlement = page.locator("#settlement")
    expect(settlement).to_contain_text("A♠ JKR = 41")
    expect(settlement).to_contain_text("-41")
    expect(settlement).to_contain_text(words["minus"])
    fits()
    phone.shot("12-german-rummy-settlement-360", full_page=True)
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name=words["confirm"]))
    assert totals(phone) == {"Ann": 0, "Dan": -2, "Cid": -7, "Bob": -41}
    # The fewest minus points at the top.
    assert list(totals(phone)) == ["Ann", "Dan", "Cid", "Bob"]
    fits()
    page.goto(page.url.split("#")[0] + "/history")
    expect(page.locator("body")).to_contain_text("A♠ JKR = 41")
    fits()
