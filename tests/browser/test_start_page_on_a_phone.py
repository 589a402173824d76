"""The start page at 360 px: sessions told apart, a new session one tap away, seats per system."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, fits
from tests.live import api

NAMES = ["Anna", "Björn", "Jürgen", "Dörte"]


def kept_session(phone: Phone, body: dict[str, Any], winners: list[int]) -> str:
    """Start a session through the API, end a game for each winner's seat, keep it on the phone."""
    session = api(phone.base, "POST", "/api/v1/sessions", {"players": NAMES, **body})
    key = session["edit_key"]
    players = [player["id"] for player in session["players"]]
    for seat in winners:
        game = api(phone.base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)["id"]
        meld = {"player": players[seat], "cards": "10♠ J♠ Q♠ K♠"}  # 40: German Rummy's opening
        api(phone.base, "POST", f"/api/v1/games/{game}/melds", meld, key)
        hands = {str(player): 25 for player in players if player != players[seat]}
        api(
            phone.base,
            "POST",
            f"/api/v1/games/{game}/finish",
            {"winner": players[seat], "hands": hands},
            key,
        )
    phone.open(f"/sessions/{session['id']}?key={key}")
    return str(session["id"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_each_kept_session_shows_its_rule_system_games_and_leader(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    german_rummy = kept_session(
        phone, {"variant": "german_rummy", "rules": {"end": {"games": 3}}}, [1, 1]
    )
    staircase = kept_session(phone, {}, [2])
    phone.open()
    rows = phone.page.locator("ul.on-phone li[data-forget]")
    first = phone.page.locator(f'li[data-forget="{german_rummy}"] [data-kept]')
    second = phone.page.locator(f'li[data-forget="{staircase}"] [data-kept]')
    expect(rows).to_have_count(2)
    if language == "en":
        expect(first).to_contain_text("German Rummy · 3 games · 2 games played · Björn leads")
        expect(second).to_contain_text("Treppenrommé · to 500 · 1 game played · Jürgen leads")
    else:
        expect(first).to_contain_text("Rommé · 3 Spiele · 2 Spiele gespielt · Björn führt")
        expect(second).to_contain_text("Treppenrommé · bis 500 · 1 Spiel gespielt · Jürgen führt")
    fits(phone)


def test_a_finished_session_names_its_winner(new_phone: Callable[..., Phone]) -> None:
    phone = new_phone("en", viewport=NARROW)
    finished = kept_session(phone, {"rules": {"end": {"games": 1}}}, [3])
    phone.open()
    expect(phone.page.locator(f'li[data-forget="{finished}"] [data-kept]')).to_contain_text(
        "1 game · 1 game played · Dörte won · over"
    )


@pytest.mark.parametrize("language", ["en", "de"])
def test_new_session_is_one_tap_at_the_top_and_shows_the_seats_of_the_rule_system(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    kept_session(phone, {}, [])
    phone.open()
    page = phone.page
    new_session = page.locator("details.new-session > summary")
    box = new_session.bounding_box()
    kept = page.locator("ul.on-phone").first.bounding_box()
    assert box is not None and kept is not None and box["y"] < kept["y"], (box, kept)
    phone.tap(new_session)
    names = page.locator("form[data-seating] input[name^=names-]:visible")
    expect(names).to_have_count(4)  # Treppenrommé, chosen first, seats four
    phone.tap(page.locator(".variants label.chip:has(input[value=german_rummy])"))
    expect(names).to_have_count(6)
    usual = page.locator("[data-usual-end]:visible")
    expect(usual).to_have_count(1)
    expect(usual).to_contain_text("-500")
    expect(usual).not_to_contain_text("to 500")
    phone.tap(page.locator(".variants label.chip:has(input[value=treppenromme])"))
    expect(names).to_have_count(4)
    expect(usual).to_contain_text("500")
    # A name typed into a seat the rule system lacks stays on screen, for the server to refuse.
    phone.tap(page.locator(".variants label.chip:has(input[value=german_rummy])"))
    page.fill("#names-5", "Ede")
    phone.tap(page.locator(".variants label.chip:has(input[value=treppenromme])"))
    expect(names).to_have_count(5)
    fits(phone)
