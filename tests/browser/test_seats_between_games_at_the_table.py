"""A player joins and another leaves between games, on a German phone of 360 px in Chromium."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from tests.browser.conftest import NARROW, Phone, big_enough, fits, start


def test_a_player_joins_and_another_leaves_between_games_at_360_pixels(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de", viewport=NARROW)
    page = phone.page
    start(phone, "Annemarie", "Bartholomäus", "Cid")
    session_page = page.url.split("#")[0]
    with page.expect_navigation():
        page.locator("a[href$='/abandon']").tap()
    with page.expect_navigation():
        page.locator("button.danger").tap()

    page.goto(session_page + "/change")
    fits(phone)
    big_enough(phone, "#players select, #players input[name=name], #players .leaving a")
    phone.shot("13-seats-change-360", full_page=True)
    page.fill("#new-name", "Dorothea-Wilhelmine")
    page.select_option("#new-seat", label="nach Annemarie")
    with page.expect_navigation():
        page.locator("#players button[type=submit]").tap()
    fits(phone)
    expect(page.locator("table.standing th bdi")).to_have_text(
        ["Annemarie", "Dorothea-Wilhelmine", "Bartholomäus", "Cid"]
    )

    page.goto(session_page + "/change")
    with page.expect_navigation():
        page.locator("#players .leaving li", has_text="Bartholomäus").locator("a").tap()
    fits(phone)
    big_enough(phone, "form button.danger, form a.button")
    with page.expect_navigation():
        page.locator("button.danger").tap()
    fits(phone)
    expect(page.locator("table.standing tr.left bdi")).to_have_text("Bartholomäus")
    phone.shot("13-seats-between-games-360", full_page=True)
