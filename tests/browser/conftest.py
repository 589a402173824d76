"""Fixtures: Debian's Chromium driven by Playwright at a phone's size, against a live server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).parent / "artifacts"


class Phone:
    """A page on a touch phone that counts the taps made on it and saves screenshots."""

    def __init__(self, page: Page, base: str, language: str) -> None:
        self.page = page
        self.base = base
        self.language = language
        self.taps = 0
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def open(self, path: str = "/") -> None:
        """Open a page of the app."""
        self.page.goto(self.base + path)

    def tap(self, target: str | Locator) -> None:
        """Tap an element once (and count it)."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        self.taps += 1
        locator.tap()

    def in_place(self, target: str | Locator) -> None:
        """Tap a button that records, undoes or swaps in place; wait until the page is redrawn.

        The game page does not reload: the answer is shown in the bar and the page's content
        is drawn anew where it stood (live.js).
        """
        self.page.evaluate("document.querySelector('main').setAttribute('data-before', '')")
        self.tap(target)
        self.page.locator("main:not([data-before])").wait_for(state="attached")

    def card(self, code: str) -> Locator:
        """Return the picker's button for a card, e.g. ``Q♥``."""
        return self.page.locator(f'[data-picker] button[data-card="{code}"]')

    def tap_cards(self, *codes: str) -> None:
        """Tap cards in the picker."""
        for code in codes:
            self.tap(self.card(code))

    def shot(self, name: str, *, full_page: bool = False) -> Path:
        """Save a screenshot of what the phone shows now."""
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{self.language}-{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Launch Debian's Chromium once for all browser tests."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser: Browser, live_server: str) -> Iterator[Callable[..., Phone]]:
    """Return a factory of phones (touch, 390 x 844) in a language, on a live server."""
    contexts = []
    phones: list[Phone] = []

    def make(language: str = "en", **options: Any) -> Phone:
        context = browser.new_context(
            viewport=options.pop("viewport", PHONE),
            has_touch=True,
            is_mobile=True,
            locale="de-DE" if language == "de" else "en-GB",
            **options,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        phone = Phone(context.new_page(), live_server, language)
        phones.append(phone)
        return phone

    yield make
    for context in contexts:
        context.close()
    for phone in phones:
        assert phone.errors == [], phone.errors


@pytest.fixture
def phone(new_phone: Callable[..., Phone]) -> Phone:
    """Return an English phone."""
    return new_phone("en")
