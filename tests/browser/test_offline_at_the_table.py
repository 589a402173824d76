"""Offline at the table: the service worker's kept pages, in Chromium at 360 px.

``context.set_offline(True)`` cuts the worker's own requests too, as a phone out of the Wi-Fi.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Response, expect

from tests.browser.conftest import Phone

NARROW = {"width": 360, "height": 740}


def start(phone: Phone, *names: str) -> str:
    """Start a session by the start page; return its page's path."""
    phone.open()
    for seat, name in enumerate(names):
        phone.page.fill(f"#names-{seat}", name)
    with phone.page.expect_navigation():
        phone.page.locator("form button[type=submit]").tap()
    return phone.page.evaluate("location.pathname")


def kept_by_the_worker(page: Page) -> None:
    """Wait until the worker controls the page and keeps the page itself."""
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(() => caches.open('scorekeeper-pages'))"
        ".then((cache) => cache.match(location.pathname)).then(Boolean)"
    )


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_session_page_opened_once_opens_offline_from_the_phone(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path = start(phone, "Ann", "Bob")
    kept_by_the_worker(page)
    # The live table's question still reaches the server, past the worker.
    with page.expect_response(lambda answer: answer.url.endswith("/version")) as asked:
        page.reload()
    version: Response = asked.value
    assert version.status in (200, 304)
    assert not version.from_service_worker
    heading = page.locator("h1").inner_text()

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text(heading)
    assert page.evaluate("location.pathname") == path
    assert page.locator("html").get_attribute("data-offline-copy")
    # A page never opened has no copy: the browser's own "no network" page.
    with pytest.raises(Exception, match=r"ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        page.goto(phone.base + "/sessions/never-opened-here")
    page.context.set_offline(False)
    page.goto(phone.base + path)
    assert page.locator("html").get_attribute("data-offline-copy") is None
    phone.errors.clear()  # the failed loads while offline said so on the console
