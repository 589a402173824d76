"""A group's page on a 360 px phone in real Chromium: every rule system, no sideways scroll."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Phone, no_sideways_scrolling
from tests.live import send

NAMES = ["Annemarie", "Bartholomäus", "Christiane", "Dorothea"]


def play(base: str, session: dict[str, Any], melds: list[str], hands: list[str]) -> None:
    """Play one game through the API: the first player melds and goes out."""
    key = session["edit_key"]
    ids = [player["id"] for player in session["players"]]
    status, game = send(base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)
    assert status == 201, game
    for cards in melds:
        status, answer = send(
            base,
            "POST",
            f"/api/v1/games/{game['id']}/melds",
            {"player": ids[0], "cards": cards},
            key,
        )
        assert status == 201, answer
    body = {"winner": ids[0], "hands": {str(ids[1 + at]): hand for at, hand in enumerate(hands)}}
    status, answer = send(base, "POST", f"/api/v1/games/{game['id']}/finish", body, key)
    assert status == 200, answer


def test_a_group_of_every_rule_system_fits_a_360_pixel_screen(
    new_phone: Callable[..., Phone], shared_server: str
) -> None:
    status, group = send(shared_server, "POST", "/api/v1/groups", {"name": "Donnerstagsrunde"})
    assert status == 201, group
    joins = {"group": group["id"], "group_key": group["edit_key"]}
    games = [
        ("treppenromme", {}, ["Q♣ K♣ A♣ 2♣ 3♣ 4♣ 5♣"], ["K♥ K♦", "7♠", "9♦"]),
        ("german_rummy", {"opening": 0}, ["7♥ 8♥ 9♥ 10♥ J♥"], ["A♠ JKR", "5♦", "K♣"]),
        ("boathouse_rum", {}, ["7♠ 8♠ 9♠"], ["K♥ 2♣", "3♦", "Q♠ Q♥"]),
    ]
    for variant, house_rules, melds, hands in games:
        body = {"players": NAMES, "variant": variant, "rules": house_rules, **joins}
        status, session = send(shared_server, "POST", "/api/v1/sessions", body)
        assert status == 201, session
        play(shared_server, session, melds, hands)

    phone = new_phone("de", viewport={"width": 360, "height": 740})
    phone.open(f"/groups/{group['id']}?key={group['edit_key']}")
    page = phone.page
    expect(page.locator("h1")).to_have_text("Donnerstagsrunde")
    expect(page.locator("table.statistics")).to_have_count(3)
    expect(page.locator("table.statistics").first).to_contain_text("Annemarie")
    no_sideways_scrolling(page)
    page.locator(".share > summary").tap()
    expect(page.locator("svg.qr")).to_have_count(2)
    no_sideways_scrolling(page)
    phone.shot("13-group-360", full_page=True)
