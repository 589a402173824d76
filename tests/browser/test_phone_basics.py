"""Without JavaScript, for screen readers, and on the home screen: the phone basics."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from tests.browser.conftest import (
    SHOWN_WITHIN_MS,
    Phone,
    entry_and_undo_show_by_themselves,
    record,
    start,
    watching,
)

UNNAMED_CONTROLS = """
() => [...document.querySelectorAll('button, a, input:not([type=hidden]), select')]
  .filter(el => !el.closest('[hidden]'))
  .filter(el => {
    const named = (el.getAttribute('aria-label') || '').trim()
      || (el.labels && [...el.labels].map(l => l.textContent).join('').trim())
      || (el.tagName !== 'INPUT' && el.textContent.trim());
    return !named;
  })
  .map(el => el.outerHTML)
"""


def test_without_javascript_the_typed_forms_record_and_finish_a_game(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("en", java_script_enabled=False)
    page = phone.page
    start(phone, "Ann", "Bob")
    expect(page.locator("[data-picker]")).to_be_hidden()
    page.fill("#cards", "qc kc ac")
    with page.expect_navigation():
        page.get_by_role("button", name="Record meld").click()
    expect(page.locator(".flash")).to_contain_text("Ann: sequence Q♣ K♣ A♣ — 30 points")
    page.locator("label.chip", has_text="Bob").click()
    page.locator("label.meld-choice", has_text="Q♣ K♣ A♣").click()
    page.fill("#cards", "2c")
    with page.expect_navigation():
        page.get_by_role("button", name="Record layoff").click()
    expect(page.locator(".flash")).to_contain_text("Bob: 2♣ laid off onto Ann's meld")
    with page.expect_navigation():
        page.get_by_role("link", name="Finish the game…").click()
    page.locator("label.chip", has_text="Ann").click()
    bobs_hand = page.locator("div.hand", has_text="Cards left in Bob's hand")
    bobs_hand.locator("input[name^=points_]").fill("23")
    with page.expect_navigation():
        page.get_by_role("button", name="Show the settlement").click()
    expect(page.locator("#settlement")).to_contain_text("counted = 23")
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm and book the settlement").click()
    expect(page.locator(".flash")).to_contain_text("Ann went out and gains 23 points")
    expect(page.locator("table.standing")).to_contain_text("Ann 53")
    phone.shot("nojs-totals")


def test_every_control_has_a_name_and_taken_cards_are_marked_beyond_colour(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de")
    page = phone.page
    start(phone, "Ann", "Bob")
    assert page.evaluate(UNNAMED_CONTROLS) == []
    record(phone, "Q♣", "K♣", "A♣")
    assert page.evaluate(UNNAMED_CONTROLS) == []
    queen = phone.card("Q♣")
    expect(queen).to_have_attribute("aria-label", "Dame Kreuz")
    expect(queen).to_have_attribute("aria-disabled", "true")
    expect(queen).to_have_text("D♣")
    assert queen.evaluate("b => getComputedStyle(b).textDecorationLine") == "line-through"
    assert queen.evaluate("b => getComputedStyle(b).borderStyle") == "dashed"
    king = phone.card("K♥")
    expect(king).to_have_attribute("aria-pressed", "false")
    expect(page.locator("fieldset.players legend")).to_have_text("Für wen?")
    with page.expect_navigation():
        page.locator("a[href$='/finish']").tap()
    assert page.evaluate(UNNAMED_CONTROLS) == []


def test_the_app_installs_to_the_home_screen_and_keeps_the_screen_on(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("en")
    page = phone.page
    page.add_init_script(
        "window.__locks = [];"
        "Object.defineProperty(navigator, 'wakeLock', {value: {request: (kind) =>"
        " { window.__locks.push(kind); return Promise.resolve({}); }}});"
    )
    phone.open()
    manifest_url = page.locator("link[rel=manifest]").evaluate("link => link.href")
    manifest = page.request.get(manifest_url)
    assert manifest.ok
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    icons = manifest.json()["icons"]
    assert {icon["sizes"] for icon in icons} >= {"192x192", "512x512"}
    for icon in icons:
        assert page.request.get(manifest_url.rsplit("/", 1)[0] + "/" + icon["src"]).ok
    assert page.evaluate("window.__locks") == []
    start(phone, "Ann", "Bob")
    assert page.evaluate("window.__locks") == ["screen"]


def test_the_live_check_refuses_typed_cards_that_lie_on_the_table_already(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de")
    page = phone.page
    start(phone, "Ann", "Bob")
    record(phone, "6♠", "6♥", "6♦")
    preview = page.locator("[data-preview]")
    page.fill("#cards", "6s 7s 8s")
    expect(preview).to_have_text("✗ 6♠ liegt schon auf dem Tisch.")
    page.fill("#cards", "6h 6d 6c")
    expect(preview).to_have_text("✗ 6♥ 6♦ liegen schon auf dem Tisch.")
    page.fill("#cards", "7s 8s 9s")
    expect(preview).to_have_text("✓ Folge 7♠ 8♠ 9♠: 24")
    assert phone.errors == []


def test_a_watching_phone_shows_new_entries_by_itself(new_phone: Callable[..., Phone]) -> None:
    recorder = new_phone("en")
    start(recorder, "Ann", "Bob")
    watcher = new_phone("en")
    watching(recorder, watcher)
    entry_and_undo_show_by_themselves(recorder, watcher)


def test_a_hidden_watching_page_asks_nothing_and_asks_at_once_when_shown(
    new_phone: Callable[..., Phone],
) -> None:
    recorder = new_phone("en")
    start(recorder, "Ann", "Bob")
    watcher = new_phone("en")
    watching(recorder, watcher)
    asked: list[str] = []
    watcher.page.on(
        "request", lambda request: asked.append(request.url) if "/version" in request.url else None
    )
    # As a phone does when the screen goes off or another app comes to the front.
    set_visibility = """state => {
        Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }"""
    watcher.page.evaluate(set_visibility, "hidden")
    asked.clear()
    record(recorder, "Q♣", "K♣", "A♣")
    watcher.page.wait_for_timeout(4_500)  # two turns of asking, had it been on screen
    assert asked == []
    expect(watcher.page.locator("#game")).not_to_contain_text("Q♣ K♣ A♣")
    # Back on screen: it asks at once, not at the next turn, and shows the meld.
    with watcher.page.expect_request(lambda request: "/version" in request.url, timeout=1_000):
        watcher.page.evaluate(set_visibility, "visible")
    expect(watcher.page.locator("#game")).to_contain_text("Q♣ K♣ A♣", timeout=SHOWN_WITHIN_MS)
    assert watcher.errors == []


def test_a_second_recorder_keeps_its_half_done_entry_when_another_phone_records(
    new_phone: Callable[..., Phone],
) -> None:
    first = new_phone("de")
    start(first, "Ann", "Bob")
    edit_link = first.page.locator("a.share-link").last.get_attribute("href")
    assert edit_link is not None
    second = new_phone("de")
    second.page.goto(edit_link)
    second.page.fill("#cards", "7h 8h")
    record(first, "Q♣", "K♣", "A♣")
    # Drawn in place at the next question, the cards typed kept.
    expect(second.page.locator("#game")).to_contain_text("D♣ K♣ A♣", timeout=6_000)
    expect(second.page.locator("#cards")).to_have_value("7h 8h")
    assert second.errors == []


def test_the_first_dealer_list_names_the_players_as_they_are_typed(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de")
    phone.open()
    dealers = phone.page.locator("select[name=dealer] option")
    fields = phone.page.locator("input[name^=names-]").count()
    assert fields >= 6
    seats = [f"Spieler {number}" for number in range(1, fields + 1)]
    expect(dealers).to_have_text(["Ausgelost", *seats])
    phone.page.fill("#names-0", "Anna")
    phone.page.fill("#names-1", "Bernd")
    expect(dealers).to_have_text(["Ausgelost", "Anna", "Bernd", *seats[2:]])
    phone.page.fill("#names-0", "")
    expect(dealers.nth(1)).to_have_text("Spieler 1")


def test_a_correction_is_tapped_in_the_picker_with_the_entrys_own_cards_free(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("en")
    page = phone.page
    start(phone, "Ann", "Bob")
    record(phone, "6♠", "6♥", "6♦")
    record(phone, "Q♣", "K♣", "A♣")
    with page.expect_navigation():
        page.locator("a", has_text="Change… 6♠ 6♥ 6♦").tap()
    cards = page.locator("#cards")
    expect(cards).to_have_value("6♠ 6♥ 6♦")
    expect(phone.card("6♠")).to_have_attribute("aria-pressed", "true")
    expect(phone.card("Q♣")).to_be_disabled()  # another entry's card
    phone.tap_cards("6♣", "6♠")
    expect(cards).to_have_value("6♥ 6♦ 6♣")
    expect(phone.card("6♠")).to_have_attribute("aria-pressed", "false")
    with page.expect_navigation():
        page.locator("button", has_text="Save the correction").tap()
    expect(page.locator(".flash")).to_contain_text("Corrected: Ann: set 6♥ 6♦ 6♣")
    assert phone.errors == []
