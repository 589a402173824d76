""" "Remove from this phone" on the start page: asked first, never dropping entries that wait.

In Chromium at 360 px, with the service worker keeping the start page and the session's pages:
the session's link is the big target of its row, Remove a smaller one below it that asks first;
while entries of the session wait on the phone it says how many and refuses; offline its post
fails and nothing is removed; online the server confirms and only then do the session's kept
pages go.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    NARROW,
    Phone,
    fits,
    kept_by_the_worker,
    path_of_a_new_session,
    the_table,
    until,
)

ASK = {"en": "Remove from this phone…", "de": "Von diesem Handy entfernen…"}
REMOVE = {"en": "Remove from this phone", "de": "Von diesem Handy entfernen"}
QUESTION = {
    "en": "Remove this session from this phone? It stays for every phone that has its link.",
    "de": "Diese Partie von diesem Handy entfernen? Für jedes Handy mit ihrem Link bleibt sie da.",
}
WAITING = {
    "en": "2 entries of this session wait on this phone to be sent",
    "de": "2 Einträge dieser Partie warten auf diesem Handy",
}
NOT_REMOVED = {
    "en": "Not removed: the server cannot be reached.",
    "de": "Nicht entfernt: Der Server ist nicht erreichbar.",
}
REMOVED = {
    "en": "The session is off this phone's list.",
    "de": "Die Partie steht nicht mehr in der Liste dieses Handys.",
}
KEPT_PAGE = "(path) => caches.open('scorekeeper-pages').then((c) => c.match(path)).then(Boolean)"
LIST = "(session) => Outbox.list(session).then((items) => items.length)"


def box(page: Page, selector: str) -> dict[str, float]:
    """Return an element's box on screen, and its font size in px."""
    found: dict[str, float] = page.locator(selector).evaluate(
        """(element) => { const box = element.getBoundingClientRect();
        return {width: box.width, height: box.height,
            font: parseFloat(getComputedStyle(element).fontSize)}; }"""
    )
    return found


def record_offline(phone: Phone, name: str, cards: str) -> None:
    """Record a meld on the game page offline: the player, the cards, the button."""
    form = phone.page.locator("form[data-entry]")
    form.locator("label.chip", has_text=name).tap()
    phone.tap_cards(*cards.split())
    form.locator('button[data-mode="meld"]').tap()


@pytest.mark.parametrize("language", ["en", "de"])
def test_remove_asks_first_refuses_while_entries_wait_and_removes_only_once_the_server_confirmed(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob")
    session, _, _ = the_table(page)
    kept_by_the_worker(page)
    page.goto(phone.base + "/")
    until(page, KEPT_PAGE, "/")
    row = page.locator("li[data-forget]")
    ask = row.locator("summary", has_text=ASK[language])
    remove = row.get_by_role("button", name=REMOVE[language], exact=True)
    # The session's link is the row's big target; Remove is asked below it, smaller.
    link = box(page, "li[data-forget] > a")
    question = box(page, "li[data-forget] summary")
    assert link["height"] >= 44 and question["height"] >= 44, (link, question)
    assert link["height"] >= question["height"] and link["width"] > question["width"]
    assert link["font"] > question["font"]
    expect(remove).to_be_hidden()
    fits(phone)
    phone.shot("remove-from-this-phone-360")

    # Offline, two melds wait on the game page; the kept start page refuses to remove the session.
    page.context.set_offline(True)
    page.goto(phone.base + path)
    record_offline(phone, "Ann", "Q♣ K♣ A♣")
    record_offline(phone, "Bob", "2♥ 3♥ 4♥")
    waiting = page.locator("ol.entries > li[data-outbox]")
    expect(waiting).to_have_count(2)
    page.goto(phone.base + "/")
    assert page.locator("html").get_attribute("data-offline-copy")
    ask.tap()
    expect(row).to_contain_text(QUESTION[language])
    expect(row.locator("[data-forget-said]")).to_contain_text(WAITING[language])
    expect(remove).to_be_disabled()
    fits(phone)
    phone.shot("remove-refused-while-entries-wait-360")
    assert page.evaluate(LIST, session) == 2

    # Dropped one by one on the game page: now Remove is free, but its post finds no server.
    page.goto(phone.base + path)
    for left in (1, 0):
        waiting.first.locator("[data-outbox-delete]").tap()
        expect(waiting).to_have_count(left)
    page.goto(phone.base + "/")
    ask.tap()
    expect(row.locator("[data-forget-said]")).to_be_hidden()
    remove.tap()
    expect(row.locator("[data-forget-said]")).to_contain_text(NOT_REMOVED[language])
    expect(page.locator("li[data-forget]")).to_have_count(1)
    assert page.evaluate(KEPT_PAGE, path)

    # Online the server takes it off the phone's list; only then its kept pages go.
    page.context.set_offline(False)
    page.goto(phone.base + "/")
    assert page.locator("html").get_attribute("data-offline-copy") is None
    ask.tap()
    with page.expect_navigation():
        remove.tap()
    expect(page.locator(".flash")).to_contain_text(REMOVED[language])
    expect(page.locator("li[data-forget]")).to_have_count(0)
    until(page, f"(path) => ({KEPT_PAGE})(path).then((kept) => !kept)", path)
    phone.errors.clear()  # the requests that found no network said so on the console
