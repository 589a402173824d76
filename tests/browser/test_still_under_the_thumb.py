"""Nothing moves under the thumb: the record button, Undo and the picker keep their place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone
from tests.live import call

# Where the thumb finds things: the record button shown, Undo and the picker's top.
WHERE = """() => {
    const box = (element) => { const r = element.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height].map(Math.round); };
    const record = [...document.querySelectorAll(".action-bar button.primary")]
        .find((b) => b.offsetParent !== null);
    return { record: box(record), undo: box(document.querySelector(".action-bar .undo-now")),
        picker: Math.round(document.querySelector("[data-picker]").getBoundingClientRect().top),
        bar: Math.round(document.querySelector(".action-bar").getBoundingClientRect().height) };
}"""


def press(phone: Phone, *cards: str) -> None:
    """Tap cards as a thumb does, where they are: no scrolling them into view first."""
    for card in cards:
        phone.card(card).dispatch_event("click")


def where(phone: Phone) -> dict[str, Any]:
    """Return the boxes of the record button and Undo, the picker's top, the bar's height."""
    phone.page.wait_for_timeout(300)  # the live check's answer is drawn
    found: dict[str, Any] = phone.page.evaluate(WHERE)
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_record_button_undo_and_the_picker_stay_put_through_every_mode(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    body = {"players": ["Ann", "Bob"], "variant": "german_rummy", "rules": {"opening": 0}}
    status, session = call(phone.base, "POST", "/api/v1/sessions", body)
    assert status == 201, session
    key = session["edit_key"]
    status, _ = call(phone.base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    assert status == 201
    phone.open(f"/sessions/{session['id']}?key={key}")
    preview = page.locator("[data-preview]")
    seen = []

    # A meld: the cards picked, then recorded; it lies on the table above the picker.
    press(phone, "Q♣", "K♣", "A♣")
    expect(preview).to_contain_text("✓")
    seen.append(where(phone))
    phone.in_place('button[data-mode="meld"]')
    seen.append(where(phone))
    press(phone, "7♠", "JKR", "9♠")
    expect(preview).to_contain_text("✓")
    phone.in_place('button[data-mode="meld"]')
    seen.append(where(phone))
    # A layoff onto it.
    page.locator("label.meld-choice", has_text="A♣").dispatch_event("click")
    press(phone, "J♣")
    expect(preview).to_contain_text("✓")
    seen.append(where(phone))
    phone.in_place('button[data-mode="layoff"]')
    seen.append(where(phone))
    # A joker swap offered.
    press(phone, "8♠")
    page.locator('label.meld-choice:has(input[data-cards*="JKR"])').dispatch_event("click")
    expect(page.locator('button[data-mode="swap"]')).to_be_visible()
    seen.append(where(phone))
    # A refusal, with its reason in the bar.
    page.locator("label.meld-choice.new").dispatch_event("click")
    press(phone, "8♠")  # taken back
    press(phone, "3♣", "8♦", "9♠")
    expect(preview).to_contain_text("✗")
    phone.tap('button[data-mode="meld"]')
    # Refused at once: the cards come back into the form, the reason stays in the bar.
    expect(page.locator("input[name=cards]")).not_to_have_value("")
    expect(preview).to_contain_text("✗")
    seen.append(where(phone))
    # An undo.
    press(phone, "3♣", "8♦", "9♠")
    phone.in_place(page.locator(".action-bar .undo-now"))
    seen.append(where(phone))

    first = seen[0]
    for at, now in enumerate(seen):
        assert now["record"] == first["record"], (at, now, first)
        assert now["undo"] == first["undo"], (at, now, first)
        assert now["picker"] == first["picker"], (at, now, first)
        assert now["bar"] <= 200, (at, now)
