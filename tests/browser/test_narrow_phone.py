"""A phone of 360 px in English and German: what comes first, and long names."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone

NARROW = {"width": 360, "height": 740}
WORDS = {
    "en": {"new": "New session", "mine": "Sessions on this phone"},
    "de": {"new": "Neue Partie", "mine": "Partien auf diesem Handy"},
}


def start(phone: Phone, *names: str) -> None:
    """Start a session with these players by the start page's form."""
    phone.open()
    new_session = phone.page.locator("details.new-session > summary")
    if new_session.count():
        new_session.tap()
    for seat, name in enumerate(names):
        phone.page.fill(f"#names-{seat}", name)
    with phone.page.expect_navigation():
        phone.page.locator("form[data-seating] button[type=submit]").tap()


def fits(phone: Phone) -> None:
    """Check that the page does not scroll sideways."""
    root = "document.documentElement"
    width = phone.page.evaluate(f"[{root}.scrollWidth, {root}.clientWidth]")
    assert width[0] <= width[1], (phone.page.url, width)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_with_a_session_sees_it_first_and_a_new_one_one_tap_further(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    start(phone, "Ann", "Bob")
    phone.open()
    page = phone.page
    mine = page.get_by_role("heading", name=words["mine"])
    expect(mine).to_be_in_viewport()
    expect(page.get_by_role("link", name="Ann, Bob")).to_be_in_viewport()
    expect(page.locator("#names-0")).to_be_hidden()
    fits(phone)

    page.get_by_text(words["new"], exact=True).tap()

    expect(page.locator("#names-0")).to_be_visible()
    start(phone, "Cid", "Dan")
    phone.open()
    expect(page.get_by_role("link", name="Cid, Dan")).to_be_in_viewport()
