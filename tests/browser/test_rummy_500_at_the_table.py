"""A game of 500 Rum for two, recorded by taps on a 360 px phone in English and in German."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import Phone

WORDS = {
    "en": {
        "start": "Start the session",
        "deal": "Ann deals 13 cards each; Bob plays first.",
        "rules": "500 Rum · to 500 points",
        "meld": "✓ Sequence Q♥ K♥ A♥: 35",
        "explain": "every other player books minus the cards left in their hand (an ace 15)",
        "confirm": "Confirm and book the settlement",
    },
    "de": {
        "start": "Partie beginnen",
        "deal": "Ann gibt jedem 13 Karten; Bob spielt zuerst.",
        "rules": "500 Rum · bis 500 Punkte",
        "meld": "✓ Folge D♥ K♥ A♥: 35",
        "explain": "alle anderen schreiben die Karten in ihrer Hand als Minuspunkte (ein Ass 15)",
        "confirm": "Abrechnung bestätigen und buchen",
    },
}

NOBODY = {
    "en": {
        "start": "Start the session",
        "nobody": "Nobody went out (the stock ran out)",
        "show": "Show the settlement",
        "said": "Nobody went out: every hand counts.",
        "confirm": "Confirm and book the settlement",
        "game": "Game 1: nobody went out, every hand counted",
    },
    "de": {
        "start": "Partie beginnen",
        "nobody": "Niemand hat ausgemacht (der Stapel ist aufgebraucht)",
        "show": "Abrechnung zeigen",
        "said": "Niemand hat ausgemacht: jede Hand zählt.",
        "confirm": "Abrechnung bestätigen und buchen",
        "game": "Spiel 1: niemand hat ausgemacht, jede Hand gezählt",
    },
}


def fits(page: Page) -> None:
    """Assert that the page is no wider than the screen."""
    root = "document.documentElement"
    width = page.evaluate(f"[{root}.scrollWidth, {root}.clientWidth]")
    assert width[0] <= width[1], (page.url, width)


def record(phone: Phone, player: str, *cards: str) -> None:
    """Tap whose meld it is and its cards, and record it in place."""
    page = phone.page
    phone.tap(page.locator(".players label.chip", has_text=player))
    phone.tap_cards(*cards)
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    phone.in_place('button[data-mode="meld"]')


def totals(phone: Phone) -> dict[str, int]:
    """Return the totals of the session page by name."""
    rows = phone.page.locator("table.standing tbody tr")
    return {
        rows.nth(index).locator("th").inner_text().split()[0]: int(
            rows.nth(index).locator("td").first.inner_text()
        )
        for index in range(rows.count())
    }


def test_a_500_rum_game_is_played_and_settled_at_360_pixels_in_english_and_german(
    new_phone: Callable[..., Phone],
) -> None:
    for language, words in WORDS.items():
        phone = new_phone(language, viewport={"width": 360, "height": 740})
        page = phone.page
        phone.open()
        phone.tap(page.locator(".variants label.chip", has_text="500 Rum"))
        expect(page.locator("input[name=target]")).to_have_attribute("placeholder", "500")
        page.fill("#names-0", "Ann")
        page.fill("#names-1", "Bob")
        with page.expect_navigation():
            phone.tap(page.get_by_role("button", name=words["start"]))
        expect(page.locator(".game .points-line")).to_contain_text(words["deal"])
        expect(page.locator("p.rules")).to_contain_text(words["rules"])
        fits(page)

        # Bob plays first: the ace after the king scores 15 for him.
        phone.tap(page.locator(".players label.chip", has_text="Bob"))
        phone.tap_cards("Q♥", "K♥", "A♥")
        expect(page.locator("[data-preview]")).to_contain_text(words["meld"])
        phone.in_place('button[data-mode="meld"]')
        record(phone, "Ann", "2♠", "3♠", "4♠")
        record(phone, "Bob", "7♦", "8♦", "9♦")
        fits(page)

        # Bob went out; Ann holds A♣ K♣ (25), which comes off her 9.
        with page.expect_navigation():
            phone.tap("a[href$='/finish']")
        phone.tap(page.locator(".hand-target", has_text="Ann"))
        phone.tap_cards("A♣", "K♣")
        with page.expect_navigation():
            phone.tap(".finish .action-bar button[type=submit]")
        settlement = page.locator("#settlement")
        # Each player's game: what they put down minus what they hold.
        expect(settlement).to_contain_text("9 - 25 = -16")
        expect(settlement).to_contain_text(words["explain"])
        fits(page)
        phone.shot(f"13-rummy-500-settlement-360-{language}", full_page=True)
        with page.expect_navigation():
            phone.tap(page.get_by_role("button", name=words["confirm"]))
        assert totals(phone) == {"Bob": 59, "Ann": -16}
        fits(page)
        assert phone.errors == []


def test_a_500_rum_game_nobody_went_out_of_is_finished_by_taps_at_360_pixels(
    new_phone: Callable[..., Phone],
) -> None:
    for language, words in NOBODY.items():
        phone = new_phone(language, viewport={"width": 360, "height": 740})
        page = phone.page
        phone.open()
        phone.tap(page.locator(".variants label.chip", has_text="500 Rum"))
        page.fill("#names-0", "Ann")
        page.fill("#names-1", "Ulf")
        with page.expect_navigation():
            phone.tap(page.get_by_role("button", name=words["start"]))
        record(phone, "Ann", "J♠", "Q♠", "K♠")
        record(phone, "Ulf", "A♥", "2♥", "3♥", "4♥")

        # The stock ran out: nobody went out, and every hand is asked and tapped.
        with page.expect_navigation():
            phone.tap("a[href$='/finish']")
        phone.tap(page.locator(".players label.chip", has_text=words["nobody"]))
        expect(page.locator("[data-hand]:visible")).to_have_count(2)
        phone.tap(page.locator(".hand-target", has_text="Ann"))
        phone.tap_cards("5♦")
        phone.tap(page.locator(".hand-target", has_text="Ulf"))
        phone.tap_cards("K♣", "8♦", "4♣")
        fits(page)
        with page.expect_navigation():
            phone.tap(page.get_by_role("button", name=words["show"]))
        settlement = page.locator("#settlement")
        expect(settlement).to_contain_text(words["said"])
        expect(settlement.locator("tr", has_text="Ulf")).to_contain_text("10 - 22 = -12")
        expect(settlement.locator("tr", has_text="Ann")).to_contain_text("30 - 5 = 25")
        fits(page)
        phone.shot(f"14-rummy-500-nobody-out-360-{language}", full_page=True)
        with page.expect_navigation():
            phone.tap(page.get_by_role("button", name=words["confirm"]))
        expect(page.locator(".game-end, main")).to_contain_text(words["game"])
        assert totals(phone) == {"Ann": 25, "Ulf": -12}
        fits(page)
        assert phone.errors == []
