"""The time of the tap is kept: an entry recorded offline and sent minutes later says both times.

In Chromium at 360 px; the phone's clock is set with Playwright's clock, so that the minutes
pass while it is offline without the test waiting them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, kept_by_the_worker, path_of_a_new_session

BOTH_TIMES = {
    "en": r"played (\d\d:\d\d), arrived (\d\d:\d\d)",
    "de": r"gespielt (\d\d:\d\d), angekommen (\d\d:\d\d)",
}
WAITING = "ol.entries > li[data-outbox]"
# The meld as the page writes it (German card letters in German).
SHOWN = {"en": "Q♣ K♣ A♣", "de": "D♣ K♣ A♣"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_entry_recorded_offline_and_sent_later_shows_when_it_was_played_and_arrived(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    now = datetime.now(UTC)
    page.clock.set_system_time(now - timedelta(minutes=3))
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob")
    kept_by_the_worker(page)

    page.context.set_offline(True)
    form = page.locator("form[data-entry]")
    form.locator(".players label.chip", has_text="Ann").tap()
    phone.tap_cards("Q♣", "K♣", "A♣")
    form.locator('button[data-mode="meld"]').tap()
    expect(page.locator(WAITING)).to_have_count(1)

    # Three minutes later the phone is back in the Wi-Fi: the entry goes, tapped long before.
    page.clock.set_system_time(now)
    page.context.set_offline(False)
    expect(page.locator(WAITING)).to_have_count(0, timeout=20_000)
    expect(page.locator("ol.entries")).to_contain_text(SHOWN[language])
    page.goto(phone.base + path + "/history")
    line = page.locator("ol.entries > li", has_text=SHOWN[language])
    expect(line.locator(".time")).to_have_text(re.compile(BOTH_TIMES[language]))
    found = re.search(BOTH_TIMES[language], line.locator(".time").inner_text())
    assert found is not None and found.group(1) != found.group(2)
    phone.errors.clear()  # the sends that found no network said so on the console
