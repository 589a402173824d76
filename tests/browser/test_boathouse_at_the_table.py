"""A Boathouse Rum game for five players, recorded by taps on a 360 px phone in real Chromium."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone, no_sideways_scrolling, record, totals

WORDS = {
    "en": {
        "start": "Start the session",
        "deal": "Ann deals 6 cards each; Bob plays first.",
        "rules": "Boathouse Rum · to 100 points",
        "zero": "✓ Sequence K♠ A♠ 2♠: 0",
        "matched": "matched: 7♦ 8♦ 9♦; paid for: 7♠ 7♥ = 14",
        "doubled": "= 14 × 2 = 28",
        "confirm": "Confirm and book the settlement",
    },
    "de": {
        "start": "Partie beginnen",
        "deal": "Ann gibt jedem 6 Karten; Bob spielt zuerst.",
        "rules": "Boathouse Rum · bis 100 Punkte",
        "zero": "✓ Folge K♠ A♠ 2♠: 0",
        "matched": "passend: 7♦ 8♦ 9♦; bezahlt: 7♠ 7♥ = 14",
        "doubled": "= 14 × 2 = 28",
        "confirm": "Abrechnung bestätigen und buchen",
    },
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_boathouse_game_for_five_is_played_and_settled_at_360_pixels(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport={"width": 360, "height": 740})
    page = phone.page

    def fits() -> None:
        no_sideways_scrolling(page)

    phone.open()
    phone.tap(page.locator(".variants label.chip", has_text="Boathouse Rum"))
    # The target offered follows the rule system chosen: 100 in Boathouse Rum.
    expect(page.locator("input[name=target]")).to_have_attribute("placeholder", "100")
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dan", "Eve"]):
        page.fill(f"#names-{seat}", name)
    fits()
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name=words["start"]))
    expect(page.locator(".game .points-line")).to_contain_text(words["deal"])
    expect(page.locator("p.rules")).to_contain_text(words["rules"])
    fits()

    # Bob plays first: a sequence round the corner, checked live, worth nothing.
    phone.tap(page.locator(".players label.chip", has_text="Bob"))
    phone.tap_cards("K♠", "A♠", "2♠")
    expect(page.locator("[data-preview]")).to_contain_text(words["zero"])
    phone.in_place('button[data-mode="meld"]')
    record(phone, "5♣", "5♦", "5♥", player="Cid")
    record(phone, "Q♠", player="Dan", onto="K♠ A♠ 2♠")
    # Eve puts down the 6 cards dealt to five in one turn: a Rommé hand can have happened.
    record(phone, "J♥", "Q♥", "K♥", player="Eve")
    record(phone, "8♣", "9♣", "10♣")
    fits()
    # Melds score nothing (B4): the game shows no line of zeros, only who deals and plays first.
    points = page.locator(".game .points-line").inner_text()
    assert not any(f"{name} 0" in points for name in ("Ann", "Bob", "Cid", "Dan", "Eve"))
    assert words["deal"] in points

    # Eve went out with all her cards at once (Rommé); the four other hands are picked.
    with page.expect_navigation():
        phone.tap("a[href$='/finish']")
    fits()
    hands = {"Ann": ["7♠", "7♥", "7♦", "8♦", "9♦"], "Bob": ["3♣"], "Cid": ["10♠", "10♥"]}
    hands["Dan"] = ["4♦", "4♠", "4♥"]
    for name, cards in hands.items():
        phone.tap(page.locator(".hand-target", has_text=name))
        phone.tap_cards(*cards)
    with page.expect_navigation():
        phone.tap(".finish .action-bar button[type=submit]")
    settlement = page.locator("#settlement")
    expect(settlement).to_contain_text(words["matched"])
    expect(settlement).to_contain_text(words["doubled"])
    fits()
    phone.shot("9-boathouse-settlement-360", full_page=True)
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name=words["confirm"]))
    # Ann pays 14, Bob 3, Cid 20, Dan nothing (a set of fours), all doubled: Eve collects 74.
    assert totals(phone) == {"Ann": 0, "Bob": 0, "Cid": 0, "Dan": 0, "Eve": 74}
    fits()
    page.goto(page.url.split("#")[0] + "/history")
    expect(page.locator("body")).to_contain_text(words["matched"])
    fits()


def test_six_players_with_long_names_fit_every_page_at_360_pixels(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de", viewport={"width": 360, "height": 740})
    page = phone.page

    def fits() -> None:
        no_sideways_scrolling(page)

    phone.open()
    phone.tap(page.locator(".variants label.chip", has_text="Boathouse Rum"))
    names = ["Annemarie", "Bartholomäus", "Christiane", "Dorothea", "Eberhardt", "Friederike"]
    for seat, name in enumerate(names):
        page.fill(f"#names-{seat}", name)
    phone.tap(page.locator("label.chip", has_text="nach einer Zahl von Spielen"))
    page.fill("#games", "4")
    fits()
    with page.expect_navigation():
        phone.tap(page.get_by_role("button", name="Partie beginnen"))
    session_page = page.url.split("#")[0]
    expect(page.locator("p.rules")).to_contain_text("Boathouse Rum · 4 Spiele · noch 4 Spiele")
    expect(page.locator(".players label.chip")).to_have_count(6)
    fits()
    record(phone, "K♠", "A♠", "2♠", player="Friederike")
    with page.expect_navigation():
        phone.tap("a[href$='/finish']")
    fits()
    page.goto(session_page + "/history")
    fits()
