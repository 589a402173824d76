"""The score sheet and the chart on a 360 px phone in real Chromium, and the sheet printed."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, Phone, no_sideways_scrolling

SIX = ["Annemarie", "Bartholomäus", "Cid", "Dorothea", "Ede", "Friedrich-Wilhelm"]
FOUR = ["Ann", "Bob", "Cid", "Dora"]


def api(base: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    """Send one request to the live server's API; return its JSON answer."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/api/v1{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


def seed(base: str, variant: str, names: list[str], games: int, meld: str) -> dict[str, Any]:
    """Play a session through the API: each game won in turn, the sixth abandoned."""
    body = {"players": names, "variant": variant, "rules": {"end": {"games": games + 5}}}
    session = api(base, "POST", "/sessions", body)
    key, players = session["edit_key"], [player["id"] for player in session["players"]]
    for number in range(1, games + 1):
        game = api(base, "POST", f"/sessions/{session['id']}/games", {}, key)
        winner = players[(number * 5) % len(players)]
        api(base, "POST", f"/games/{game['id']}/melds", {"player": winner, "cards": meld}, key)
        finish: dict[str, Any] = {"winner": None}
        if number != 6:
            hands = {str(p): 3 + (number * 17 + p * 7) % 80 for p in players if p != winner}
            finish = {"winner": winner, "hands": hands, "romme": False}
        api(base, "POST", f"/games/{game['id']}/finish", finish, key)
    return {**api(base, "GET", f"/sessions/{session['id']}", key=key), "edit_key": key}


def pdf_pages(pdf: bytes) -> int:
    """Return the number of pages of a PDF that Chromium printed."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def check_the_sheet(page: Page, session: dict[str, Any]) -> None:
    """Check the sheet on the screen: no sideways scrolling, readable numbers, the chart."""
    no_sideways_scrolling(page)
    expect(page.locator("table.sheet tbody tr")).to_have_count(len(session["games"]))
    foot = page.locator("table.sheet tfoot tr.total td")
    totals = [session["totals"][str(player["id"])] for player in session["players"]]
    expect(foot).to_have_text([str(total) for total in totals])
    # Each row opens its game in the history with a tap of at least 44 px.
    link = page.locator("table.sheet tbody .game-number a").first
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44
    running = page.locator("table.sheet .running").last
    assert float(running.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 14
    # Every number stays inside its cell: nothing runs into the next column.
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('table.sheet td')]
             .filter(td => td.scrollWidth > td.clientWidth + 1).length"""
    )
    assert overflowing == 0
    chart = page.locator("figure svg.chart")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    chart_box = chart.bounding_box()
    assert (
        chart_box is not None and chart_box["x"] >= 0 and chart_box["x"] + chart_box["width"] <= 360
    )
    labels = page.locator("svg.chart .chart-label")
    expect(labels).to_have_count(len(session["players"]))
    for label in labels.all():
        box = label.bounding_box()
        assert box is not None
        # The label lies inside the drawing, where it can be read.
        assert (
            chart_box["x"] <= box["x"]
            and box["x"] + box["width"] <= chart_box["x"] + chart_box["width"] + 0.5
        )
        assert box["height"] >= 10


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_sheet_and_the_chart_fit_a_phone_and_the_sheet_prints_on_one_page(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport={"width": 360, "height": 740})
    page = phone.page
    six = seed(phone.base, "boathouse_rum", SIX, 20, "8♥ 8♦ 8♠")
    four = seed(phone.base, "german_rummy", FOUR, 8, "Q♥ Q♦ Q♣ Q♠")

    for name, session in (("4", four), ("6", six)):
        phone.open(f"/sessions/{session['id']}/sheet?key={session['edit_key']}")
        check_the_sheet(page, session)
        phone.shot(f"20-sheet-{name}-players-360", full_page=True)

    # Printed: the 20 games of six players on one A4 page, without the buttons.
    page.emulate_media(media="print")
    expect(page.locator(".downloads")).to_be_hidden()
    expect(page.locator("header.top")).to_be_hidden()
    pdf = page.pdf(format="A4")
    (ARTIFACTS / f"{language}-20-sheet-6-players.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 1
    page.emulate_media(media="screen")

    # The session page between games: the chart, the result to share, the downloads.
    phone.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.open(f"/sessions/{four['id']}")
    no_sideways_scrolling(page)
    result = page.locator("[data-share-text]")
    expect(result).to_have_value(re.compile(r"^Rommé|^German Rummy"))
    expect(page.locator("#looking-back svg.chart")).to_be_visible()
    share = page.locator("[data-share]")
    expect(share).to_be_visible()
    phone.tap(share)
    expect(page.locator("[data-share-said]")).not_to_be_empty()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == result.input_value()
    phone.shot("21-session-looking-back-360", full_page=True)
