"""Fixtures: Debian's Chromium driven by Playwright at a phone's size, against a live server.

How to write a browser test: take ``new_phone`` (or ``phone``, an English one) and start what
the test needs on the phone or through the API at ``phone.base``. The phones open the server
this test worker shares with its other tests (``shared_server``, started once: a server's start
costs seconds, a test's new session nothing); each phone is a browser context of its own, so
its cookies, storage and service worker are its own, and each test's sessions are its own. A
test that needs a server of its own gets one simply by taking one of ``live_server``,
``app``, ``app_with``, ``client``, ``database_url`` or ``access_log``: then the phones open
``live_server``, on the test's own database, which the test may read or change.

On the shared server the ids are not those of a new database (its first ones are taken on
purpose): find a player's field by the player's name and a game by its link, never as
``#points_2`` or ``/games/1``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

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


# What a test may take that ties it to its own database: its phones need a server on that one.
OWN_DATABASE = ("live_server", "database_url", "access_log")


def _server_for(request: pytest.FixtureRequest) -> str:
    """Return the URL of the server the test's phones open: its own, or the shared one."""
    own = any(name in request.fixturenames for name in OWN_DATABASE)
    return str(request.getfixturevalue("live_server" if own else "shared_server"))


@pytest.fixture
def new_phone(
    browser: Browser, backend: str, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Phone]]:
    """Return a factory of phones (touch, 390 x 844) in a language, on a live server.

    The server is the one this test worker shares (``shared_server``, of the test's backend),
    unless the test takes a fixture of its own database (``live_server``, ``app``, ``app_with``,
    ...): then it is the test's own ``live_server`` (see the module's docstring). ``phone.base``
    is its URL.
    """
    live_server = _server_for(request)
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


# --- what a test does on a phone ------------------------------------------------------------


def record(phone: Phone, *cards: str, player: str | None = None, onto: str | None = None) -> None:
    """Tap whose entry it is (if given), the meld to lay off onto (if any), the cards, record."""
    page = phone.page
    if player is not None:
        phone.tap(page.locator(".players label.chip", has_text=player))
    if onto is not None:
        phone.tap(page.locator("label.meld-choice", has_text=onto))
    phone.tap_cards(*cards)
    expect(page.locator("[data-preview]")).to_contain_text("✓")
    mode = "layoff" if onto else "meld"
    phone.in_place(f'button[data-mode="{mode}"]')


def whose_entry(phone: Phone) -> str:
    """Return the name of the player chosen for the next entry."""
    return phone.page.locator(".players input:checked + span").inner_text().strip("✓ ")


def totals(phone: Phone) -> dict[str, int]:
    """Return the totals of the session page by name."""
    rows = phone.page.locator("table.standing tbody tr")
    found = {}
    for index in range(rows.count()):
        name = rows.nth(index).locator("th").inner_text().split()[0]
        found[name] = int(rows.nth(index).locator("td").first.inner_text())
    return found


def no_sideways_scrolling(page: Page) -> None:
    """Assert that the page is no wider than the screen."""
    root = "document.documentElement"
    width = page.evaluate(f"[{root}.scrollWidth, {root}.clientWidth]")
    assert width[0] <= width[1], (page.url, width)


NARROW = {"width": 360, "height": 740}


def fits(phone: Phone) -> None:
    """Check that the page does not scroll sideways."""
    root = "document.documentElement"
    width = phone.page.evaluate(f"[{root}.scrollWidth, {root}.clientWidth]")
    assert width[0] <= width[1], (phone.page.url, width)


def big_enough(phone: Phone, selector: str) -> None:
    """Check that every element matched is a tap target of at least 44 px."""
    boxes = phone.page.locator(selector).evaluate_all(
        "found => found.map(b => [b.offsetWidth, b.offsetHeight])"
    )
    assert boxes, selector
    assert min(min(box) for box in boxes) >= 44, (selector, boxes)


def start(phone: Phone, *names: str, variant: str | None = None) -> None:
    """Start a session with these players by the start page's form, of a rule system if given."""
    page = phone.page
    phone.open()
    new_session = page.locator("details.new-session > summary")
    if new_session.count():
        new_session.tap()
    if variant is not None:
        phone.tap(page.locator(f".variants label.chip:has(input[value={variant}])"))
    for seat, name in enumerate(names):
        page.fill(f"#names-{seat}", name)
    with page.expect_navigation():
        phone.tap(page.locator("form[data-seating] button[type=submit]"))


def watching(recorder: Phone, watcher: Phone) -> None:
    """Open the session of ``recorder`` on ``watcher`` through its view-only link."""
    view_link = recorder.page.locator("a.share-link").first.get_attribute("href")
    assert view_link is not None
    watcher.page.goto(view_link)
    expect(watcher.page.get_by_text("This page updates itself.")).to_be_visible()


def entry_and_undo_show_by_themselves(recorder: Phone, watcher: Phone) -> None:
    """Record a meld and undo it on ``recorder``; wait until ``watcher`` shows each by itself."""
    game = watcher.page.locator("#game")
    expect(game).not_to_contain_text("Q♣")
    # The watcher asks every 2 s whether anything changed; nobody reloads it by hand.
    record(recorder, "Q♣", "K♣", "A♣")
    expect(game).to_contain_text("Q♣ K♣ A♣", timeout=SHOWN_WITHIN_MS)
    recorder.tap(recorder.page.get_by_role("button", name="Undo the last entry"))
    expect(game).not_to_contain_text("Q♣ K♣ A♣", timeout=SHOWN_WITHIN_MS)
    assert watcher.errors == []


# A bound for the wait, not a measurement: a watching phone asks every 2 s, then reloads.
SHOWN_WITHIN_MS = 8_000


# --- offline: the worker's kept pages and the outbox ----------------------------------------


def path_of_a_new_session(page: Page, base: str, *names: str) -> str:
    """Start a session by the start page; return its page's path."""
    page.goto(base + "/")
    for seat, name in enumerate(names):
        page.fill(f"#names-{seat}", name)
    with page.expect_navigation():
        page.locator("form button[type=submit]").tap()
    return str(page.evaluate("location.pathname"))


def until(page: Page, script: str, arg: Any = None) -> None:
    """Wait until a script answers true, its promise awaited."""
    # page.wait_for_function awaits no promise: a promise is a true value to it. A bound, not
    # a measurement: a worker installing every module on a loaded test machine takes seconds.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true: {script} {arg}")


def kept_by_the_worker(page: Page) -> None:
    """Wait until the worker controls the page and keeps the page itself."""
    until(
        page,
        "navigator.serviceWorker.ready.then(() => caches.open('scorekeeper-pages'))"
        ".then((cache) => cache.match(location.pathname)).then(Boolean)",
    )


def the_table(page: Page) -> tuple[str, str, dict[str, str]]:
    """Return the session's id, the meld form's address and the players' ids by name."""
    return page.evaluate(
        """() => [
        document.querySelector("[data-offline]").dataset.offline,
        document.querySelector("form[data-entry]").action,
        Object.fromEntries([...document.querySelectorAll("form[data-entry] input[name=player]")]
            .map((input) => [input.labels[0].textContent.trim(), input.value]))]"""
    )
