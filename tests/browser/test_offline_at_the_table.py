"""Offline at the table: the worker's kept pages and the outbox, in Chromium at 360 px.

``context.set_offline(True)`` cuts the worker's own requests too, as a phone out of the Wi-Fi.
The outbox is driven from the page (``window.Outbox``) against the real server's entry forms,
as the recorder will drive it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, Request, Response, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper import services
from tests.browser.conftest import (
    Phone,
    kept_by_the_worker,
    path_of_a_new_session,
    the_table,
    until,
)
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.helpers import entries

NARROW = {"width": 360, "height": 740}
OFFLINE_SINCE = {"en": r"Offline since \d\d:\d\d\.", "de": r"Offline seit \d\d:\d\d\."}
WAITING = {"en": "{count} entries wait on this phone", "de": "{count} Einträge warten auf diesem"}
ONE_WAITS = {"en": "One entry waits on this phone", "de": "Ein Eintrag wartet auf diesem"}
NOT_SENT = {
    "en": "Not sent: Ann's nonsense. 3♣ 8♦ 9♠ is neither a set",
    "de": "Nicht gesendet: Ann's nonsense. 3♣ 8♦ 9♠ ist weder ein Satz",
}
REMOVE = {"en": "Remove from this phone", "de": "Von diesem Handy entfernen"}
# Waiting entries put into the outbox as the recorder will: the meld form's fields.
ADD = """([session, url, player, cards, label]) => Outbox.add(
    {session, url, fields: [["player", player], ["cards", cards]], label, cards: []})"""
LIST = "(session) => Outbox.list(session)"
# Whether the page shows the session's latest version (else the live table reloads it soon).
LATEST = """async () => { const live = document.querySelector("[data-live]");
    const answer = await fetch(live.dataset.live, {cache: "no-store"});
    return "v" + (await answer.json()).version === live.dataset.version; }"""
SEND = """([url, fields]) => Outbox.csrfToken(false).then(
    (token) => Outbox.sendForm({url, fields, idempotencyKey: crypto.randomUUID()}, token))"""
PUT_PAGE = "(path) => caches.open('scorekeeper-pages').then((c) => c.put(path, new Response('x')))"
KEPT_PAGE = "(path) => caches.open('scorekeeper-pages').then((c) => c.match(path)).then(Boolean)"


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_session_page_opens_offline_says_what_waits_and_leaves_the_phone_with_its_outbox(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob")
    session, url, players = the_table(page)
    kept_by_the_worker(page)
    finish = url.replace("/melds", "/finish").removeprefix(phone.base)
    until(page, KEPT_PAGE, finish)
    banner = page.locator("[data-offline]")
    expect(banner).to_be_hidden()
    # The live table's question still reaches the server, past the worker.
    with page.expect_response(lambda answer: answer.url.endswith("/version")) as asked:
        page.reload()
    version: Response = asked.value
    assert version.status in (200, 304)
    assert not version.from_service_worker
    heading = page.locator("h1").inner_text()

    page.context.set_offline(True)
    expect(banner).to_have_text(re.compile(OFFLINE_SINCE[language]))
    page.evaluate(ADD, [session, url, players["Ann"], "qc kc ac", "Ann's sequence"])
    page.reload()
    expect(page.locator("h1")).to_have_text(heading)
    assert page.evaluate("location.pathname") == path
    assert page.locator("html").get_attribute("data-offline-copy")
    expect(banner).to_have_text(re.compile(OFFLINE_SINCE[language]))
    expect(banner).to_contain_text(ONE_WAITS[language])
    # A page never opened has no copy: the browser's own "no network" page.
    with pytest.raises(Exception, match=r"ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
        page.goto(phone.base + "/sessions/never-opened-here")
    phone.errors.clear()  # the failed load said so on the console

    # "Remove from this phone" (online, from the start page) takes the page and the outbox too.
    page.context.set_offline(False)
    page.goto(phone.base + "/")
    # A 409 that never passes (nothing left to undo) is a refusal with the server's reason.
    undo = url.replace("/melds", "/undo")
    refused = page.evaluate(SEND, [undo, []])
    if refused["ok"]:  # the entry it undid was there: now nothing is
        refused = page.evaluate(SEND, [undo, []])
    assert refused["ok"] is False and refused["status"] == 409 and refused["reason"]
    phone.errors.clear()  # the refused request said so on the console
    # A session this phone no longer holds (its key went elsewhere): the start page, drawn by
    # the server, drops its kept page and its outbox; those of the sessions held stay.
    page.evaluate(ADD, ["gone", url, players["Ann"], "qc kc ac", "Ann's sequence"])
    page.evaluate(PUT_PAGE, "/sessions/gone")
    page.goto(phone.base + "/")
    until(page, "Outbox.list('gone').then((left) => left.length === 0)")
    for dropped in ("/sessions/gone", finish):  # a finish page is kept anew from its session
        until(page, f"(path) => ({KEPT_PAGE})(path).then((kept) => !kept)", dropped)
    assert page.evaluate(KEPT_PAGE, path)
    # The start page sends nothing, so an entry waiting for a session it holds stays there
    # (the one added offline above may have been sent meanwhile by the session page).
    page.evaluate(ADD, [session, url, players["Ann"], "7h 7d 7s", "Ann's set"])
    page.reload()
    assert page.evaluate(LIST, session)
    # Remove asks first, and refuses while an entry of the session waits; dropped, it goes.
    row = page.locator("li[data-forget]")
    row.locator("summary").tap()
    remove = row.get_by_role("button", name=REMOVE[language], exact=True)
    expect(remove).to_be_disabled()
    page.evaluate("(session) => Outbox.clear(session)", session)
    row.locator("summary").tap()
    row.locator("summary").tap()
    expect(remove).to_be_enabled()
    with page.expect_navigation():
        remove.tap()
    assert page.evaluate(LIST, session) == []
    assert not page.evaluate(KEPT_PAGE, path)
    assert not page.evaluate(KEPT_PAGE, path + "/history")
    assert page.evaluate(KEPT_PAGE, "/")  # the start page is kept again, without the session


def steady(page: Page, address: str) -> None:
    """Open a session page again until it shows the latest version: the live table is done."""
    for _ in range(20):
        try:
            page.goto(address)
            if page.evaluate(LATEST):
                return
        except PlaywrightError:  # the live table reloaded it meanwhile
            pass
        page.wait_for_timeout(250)
    raise AssertionError(f"{address} kept changing")


def restarted(browser: Browser, profile: Path, language: str) -> BrowserContext:
    """Launch Chromium on a profile of its own, as a phone's browser started again."""
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport=NARROW,
        has_touch=True,
        is_mobile=True,
        locale="de-DE" if language == "de" else "en-GB",
    )
    context.set_default_timeout(10_000)
    return context


@pytest.mark.parametrize("language", ["en", "de"])
def test_waiting_entries_survive_a_restart_and_are_sent_in_order_once_up_to_a_refusal(
    browser: Browser,
    live_server: str,
    app_with: Callable[..., Flask],
    tmp_path: Path,
    language: str,
) -> None:
    profile = tmp_path / "profile"
    context = restarted(browser, profile, language)
    page = context.pages[0] if context.pages else context.new_page()
    path = path_of_a_new_session(page, live_server, "Ann", "Bob")
    session, url, players = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)

    context.set_offline(True)
    tapped = [
        ("Ann", "qc kc ac", "Ann's sequence"),
        ("Bob", "2h 3h 4h", "Bob's sequence"),
        ("Ann", "3c 8d 9s", "Ann's nonsense"),
        ("Bob", "7s 7h 7c", "Bob's set"),
    ]
    for name, cards, label in tapped:
        page.evaluate(ADD, [session, url, players[name], cards, label])
    page.reload()  # from the phone, and nothing was sent
    waiting: list[dict[str, Any]] = page.evaluate(LIST, session)
    assert [entry["label"] for entry in waiting] == [label for _, _, label in tapped]
    assert len({entry["idempotencyKey"] for entry in waiting}) == 4
    expect(page.locator("[data-offline]")).to_contain_text(WAITING[language].format(count=4))
    context.close()

    context = restarted(browser, profile, language)
    page = context.pages[0] if context.pages else context.new_page()
    context.set_offline(True)
    page.goto(live_server + path)
    assert page.locator("html").get_attribute("data-offline-copy")
    assert page.evaluate(LIST, session) == waiting  # the same entries, keys and order
    # The first answer is lost on its way back: the entry stays and goes again with its key.
    page.evaluate(
        """() => { Outbox.send = (entry, token) => Outbox.sendForm(entry, token).then((answer) => {
            if (!localStorage.lost) { localStorage.lost = entry.label; throw new Error("lost"); }
            return answer; }); }"""
    )
    # Online, the page sends at once; the live table then reloads it (another version), and
    # the new page sends what still waits.
    context.set_offline(False)
    banner = page.locator("[data-offline]")
    expect(banner).to_contain_text(NOT_SENT[language], timeout=20_000)
    steady(page, live_server + path)
    assert page.evaluate("localStorage.lost") == "Ann's sequence"
    app = app_with()
    assert [(name, value) for name, _, value in entries(app, game)] == [("Ann", 30), ("Bob", 9)]
    # The refusal stays, with the server's reason, and keeps the entry after it back.
    expect(banner).to_contain_text(NOT_SENT[language])
    expect(banner).to_contain_text(WAITING[language].format(count=2))
    expect(banner).not_to_contain_text(OFFLINE_SINCE[language][:7])
    left: list[dict[str, Any]] = page.evaluate(LIST, session)
    assert [entry["label"] for entry in left] == ["Ann's nonsense", "Bob's set"]
    assert left[0]["refused"] and left[1]["refused"] is None
    assert [entry["idempotencyKey"] for entry in left] == [
        entry["idempotencyKey"] for entry in waiting[2:]
    ]

    # The recorder drops it: the rest goes with the next page.
    page.evaluate("(id) => Outbox.remove(id)", left[0]["id"])
    page.reload()
    sent = [name for name, _, _ in entries(app, game)]
    for _ in range(50):
        if len(sent) == 3:
            break
        page.wait_for_timeout(200)
        sent = [name for name, _, _ in entries(app, game)]
    assert sent == ["Ann", "Bob", "Bob"]
    steady(page, live_server + path)
    expect(banner).to_be_hidden()
    assert page.evaluate(LIST, session) == []
    context.close()


QUEUED = {"en": "waits on this phone", "de": "wartet auf diesem Handy"}
CHECKED_LATER = {"en": "Offline: checked when", "de": "Offline: geprüft, sobald"}
# Five entries tapped offline in the picker, in order: who and the cards.
FIVE = [
    ("Ann", "Q♣ K♣ A♣"),
    ("Bob", "2♥ 3♥ 4♥"),
    ("Ann", "5♠ 5♥ 5♦"),
    ("Bob", "7♠ 7♥ 7♣"),
    ("Ann", "8♣ 8♦ 8♥"),
]


def record(phone: Phone, name: str, cards: str) -> None:
    """Record a meld on the game page as the recorder does: the player, the cards, the button."""
    form = phone.page.locator("form[data-entry]")
    form.locator("label.chip", has_text=name).tap()
    phone.tap_cards(*cards.split())
    form.locator('button[data-mode="meld"]').tap()


@pytest.mark.parametrize("language", ["en", "de"])
def test_entries_recorded_offline_wait_greyed_through_a_reload_and_are_sent_once_in_order(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob")
    session, url, _ = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)
    waiting = page.locator("ol.entries > li[data-outbox]")
    # One entry online first (its undo is then on the page).
    record(phone, "Bob", "J♠ J♥ J♦")
    expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(1)

    page.context.set_offline(True)
    # The live check holds no rules: offline it says it checks when the network is back.
    page.locator("form[data-entry] input[name=cards]").fill("qc kc")
    expect(page.locator("[data-preview]")).to_contain_text(CHECKED_LATER[language])
    page.locator("form[data-entry] input[name=cards]").fill("")
    for count, (name, cards) in enumerate(FIVE, start=1):
        record(phone, name, cards)
        # At once, greyed, its cards taken in the picker.
        expect(waiting).to_have_count(count)
        expect(waiting.first).to_contain_text(QUEUED[language])
        for card in cards.split():
            expect(phone.card(card)).to_be_disabled()
    # A sixth, undone while it waits: it leaves the outbox, nothing is sent.
    record(phone, "Bob", "9♠ 9♥ 9♦")
    expect(waiting).to_have_count(6)
    page.locator("button[form=undo]").tap()
    expect(waiting).to_have_count(5)
    keys = [entry["idempotencyKey"] for entry in page.evaluate(LIST, session)]
    assert len(set(keys)) == 5

    # Through a reload and a new page, offline: drawn again from the outbox.
    page.reload()
    expect(waiting).to_have_count(5)
    expect(phone.card("Q♣")).to_be_disabled()
    expect(phone.card("9♠")).to_be_enabled()
    other = page.context.new_page()
    other.goto(phone.base + path)
    expect(other.locator("ol.entries > li[data-outbox]")).to_have_count(5)
    other.close()
    assert len(entries(app_with(), game)) == 1

    # Online: sent in order, each once; the page shows the server's entries.
    page.context.set_offline(False)
    expect(waiting).to_have_count(0, timeout=20_000)
    steady(page, phone.base + path)
    app = app_with()
    assert [(name, value) for name, _, value in entries(app, game)] == [
        ("Bob", 30),
        ("Ann", 30),
        ("Bob", 9),
        ("Ann", 15),
        ("Bob", 21),
        ("Ann", 24),
    ]
    assert page.evaluate(LIST, session) == []
    expect(page.locator("ol.entries > li:not([data-outbox])")).to_have_count(6)

    # Two phones: this one offline, the other records the nines meanwhile.
    page.context.set_offline(True)
    record(phone, "Ann", "9♣ 9♠ 9♥")
    record(phone, "Ann", "K♠ K♥ K♦")
    expect(waiting).to_have_count(2)
    browser = page.context.browser
    assert browser is not None
    other_phone = browser.new_context(viewport=NARROW, has_touch=True)
    other_phone.add_cookies(page.context.cookies())
    other = other_phone.new_page()
    other.goto(phone.base + path)
    other.locator("form[data-entry] label.chip", has_text="Bob").tap()
    other.locator("form[data-entry] input[name=cards]").fill("9s 9h 9d")
    other.locator('button[data-mode="meld"]').tap()
    expect(other.locator("ol.entries > li:not([data-waiting])")).to_have_count(7)
    other_phone.close()
    # Back online: the server refuses the nines; named in the bar with its reason, the kings
    # wait behind them, nothing merged.
    page.context.set_offline(False)
    preview = page.locator("form[data-entry] [data-preview]")
    expect(preview).to_contain_text(NOT_SENT[language][:12], timeout=20_000)
    expect(preview).to_contain_text("9♠")
    expect(waiting).to_have_count(2)
    assert len(entries(app, game)) == 7
    # Dropped by the recorder: the kings go.
    preview.locator("[data-outbox-drop]").tap()
    expect(waiting).to_have_count(0, timeout=20_000)
    assert [name for name, _, _ in entries(app, game)][-2:] == ["Bob", "Ann"]
    assert len(entries(app, game)) == 8
    phone.errors.clear()  # the sends that found no network said so on the console


FINISH_WAITS = {
    "en": "the settlement is worked out when the network is back",
    "de": "die Abrechnung wird erstellt, sobald das Netz wieder da ist",
}
FINISHED = {"en": "Game 1 finished: Ann went out", "de": "Spiel 1 beendet: Ann hat ausgemacht"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_finish_with_the_hands_offline_waits_and_is_booked_once_when_the_network_is_back(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob")
    _, url, players = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)
    record(phone, "Ann", "Q♣ K♣ A♣")
    expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(1)
    # The session page keeps its game's finish page: it opens offline.
    until(page, KEPT_PAGE, f"/games/{game}/finish")

    page.context.set_offline(True)
    with page.expect_navigation():
        page.locator(f"a[href$='/games/{game}/finish']").tap()
    assert page.locator("html").get_attribute("data-offline-copy")
    form = page.locator("form[data-finish]")
    form.locator("label.chip", has_text="Ann").tap()
    form.locator(f"input[name=hand_{players['Bob']}]").fill("5h 9s")
    form.locator("button[name=show]").tap()
    # At once: the page says it waits, and that the settlement comes with the network.
    note = page.locator("[data-finish-waits]")
    expect(note).to_contain_text(FINISH_WAITS[language])
    expect(page.locator("[data-offline]")).to_contain_text(ONE_WAITS[language])
    expect(form.locator("button[name=show]")).to_be_disabled()
    # The game page, opened offline, shows it among the entries, waiting.
    with page.expect_navigation():
        note.locator("a").tap()
    waiting = page.locator("ol.entries > li[data-outbox]")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text(FINISHED[language])
    app = app_with()
    with app.app_context():
        assert services.get_game(game).status == "open"

    # Online: sent once, the server settles it (Bob's 14 points).
    page.context.set_offline(False)
    expect(waiting).to_have_count(0, timeout=20_000)
    steady(page, phone.base + path)
    with app.app_context():
        booked = services.get_game(game)
        assert booked.status == "finished"
        assert sorted(line.hand_points or 0 for line in booked.settlement_lines) == [0, 14]
    assert page.evaluate(LIST, the_session(page)) == []
    phone.errors.clear()  # the sends that found no network said so on the console


def the_session(page: Page) -> str:
    """Return the id of the session the page shows."""
    return str(page.locator("[data-offline]").get_attribute("data-offline"))


def test_a_delete_offline_waits_and_a_waiting_entry_deleted_leaves_the_outbox(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask]
) -> None:
    phone = new_phone("en", viewport=NARROW)
    page = phone.page
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob")
    session, url, _ = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)
    record(phone, "Ann", "Q♣ K♣ A♣")
    record(phone, "Bob", "2♥ 3♥ 4♥")
    recorded = page.locator("ol.entries > li:not([data-waiting])")
    expect(recorded).to_have_count(2)
    page.goto(phone.base + str(recorded.last.locator("a").get_attribute("href")))

    page.context.set_offline(True)
    with page.expect_navigation():
        page.locator("[data-delete] button[type=submit]").tap()
    waiting = page.locator("ol.entries > li[data-outbox]")
    expect(waiting).to_have_count(1)
    expect(waiting).to_contain_text("Delete entry 1 of game 1 by Ann")
    # An entry recorded offline and deleted while it waits: it leaves the outbox, never sent.
    record(phone, "Bob", "7♠ 7♥ 7♣")
    expect(waiting).to_have_count(2)
    waiting.first.locator("[data-outbox-delete]").tap()
    expect(waiting).to_have_count(1)
    assert [entry["label"] for entry in page.evaluate(LIST, session)] == [
        "Delete entry 1 of game 1 by Ann"
    ]
    assert len(entries(app_with(), game)) == 2

    page.context.set_offline(False)
    expect(waiting).to_have_count(0, timeout=20_000)
    steady(page, phone.base + path)
    assert [name for name, _, _ in entries(app_with(), game)] == ["Bob"]
    phone.errors.clear()  # the sends that found no network said so on the console


def test_entries_recorded_offline_survive_a_browser_restart_and_are_sent_once_in_order(
    browser: Browser, live_server: str, app_with: Callable[..., Flask], tmp_path: Path
) -> None:
    profile = tmp_path / "profile"
    context = restarted(browser, profile, "en")
    phone = Phone(context.pages[0] if context.pages else context.new_page(), live_server, "en")
    path = path_of_a_new_session(phone.page, live_server, "Ann", "Bob")
    session, url, _ = the_table(phone.page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(phone.page)

    context.set_offline(True)
    for name, cards in FIVE[:3]:
        record(phone, name, cards)
    expect(phone.page.locator("ol.entries > li[data-outbox]")).to_have_count(3)
    waited: list[dict[str, Any]] = phone.page.evaluate(LIST, session)
    context.close()

    context = restarted(browser, profile, "en")
    page = context.pages[0] if context.pages else context.new_page()
    context.set_offline(True)
    page.goto(live_server + path)
    waiting = page.locator("ol.entries > li[data-outbox]")
    expect(waiting).to_have_count(3)
    assert page.evaluate(LIST, session) == waited
    assert entries(app_with(), game) == []

    context.set_offline(False)
    expect(waiting).to_have_count(0, timeout=20_000)
    steady(page, live_server + path)
    assert [(name, value) for name, _, value in entries(app_with(), game)] == [
        ("Ann", 30),
        ("Bob", 9),
        ("Ann", 15),
    ]
    context.close()


# The queue's send held after the server answered, until the test lets the answer through.
HOLD_ANSWER = """() => { Outbox.send = (entry, csrf) => Outbox.sendForm(entry, csrf).then(
    (answer) => new Promise((resolve) => { window.letThrough = () => resolve(answer); })); }"""
# Note when the page's redraw (live.js: a fetch of the page itself) got its answer.
NOTE_REDRAW = """() => { const fetched = window.fetch; window.redrawn = 0;
    window.fetch = (...asked) => fetched(...asked).then((answer) => {
        if (String(asked[0]) === location.pathname) { window.redrawn += 1; } return answer; }); }"""


@pytest.mark.parametrize("language", ["en"])
def test_a_confirmed_entry_stays_on_screen_when_the_redraw_after_it_finds_only_the_kept_page(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path_of_a_new_session(page, phone.base, "Ann", "Bob")
    kept_by_the_worker(page)
    page.evaluate(HOLD_ANSWER)
    page.evaluate(NOTE_REDRAW)
    form = page.locator("form[data-entry]")
    form.locator("label.chip", has_text="Ann").tap()
    phone.tap_cards("Q♣", "K♣", "A♣")
    expect(form.locator("[data-preview]")).to_contain_text("✓")
    form.locator('button[data-mode="meld"]').tap()
    # The server recorded it; the network goes before its answer reaches the page, so the
    # redraw right after it gets the worker's copy of the page as it was before the meld.
    until(page, "() => typeof window.letThrough === 'function'")
    page.context.set_offline(True)
    page.evaluate("window.letThrough()")
    until(page, "() => window.redrawn > 0")
    page.wait_for_timeout(300)
    assert page.locator("html").get_attribute("data-offline-copy") is None
    lines = page.locator("ol.entries > li")
    expect(lines).to_have_count(1)
    expect(lines.first).to_contain_text("Ann")
    expect(lines.first).not_to_have_attribute("data-waiting", "")
    # Its cards lie on the table: they cannot be tapped again.
    for card in ("Q♣", "K♣", "A♣"):
        expect(phone.card(card)).to_be_disabled()
    phone.errors.clear()  # the requests that found no network said so on the console


@pytest.mark.parametrize(
    ("variant", "winner", "label"),
    [
        (None, "$'", "Game 1 finished: $' went out"),
        ("500 Rum", "Nobody went out (the stock ran out)", "Game 1 finished: nobody went out"),
    ],
)
def test_a_finish_waiting_offline_names_its_winner_as_typed_or_that_nobody_went_out(
    new_phone: Callable[..., Phone], variant: str | None, winner: str, label: str
) -> None:
    phone = new_phone("en", viewport=NARROW)
    page = phone.page
    phone.open()
    if variant:
        page.locator(".variants label.chip", has_text=variant).tap()
    page.fill("#names-0", "$'")
    page.fill("#names-1", "Bob")
    with page.expect_navigation():
        page.locator("form button[type=submit]").tap()
    _, url, _ = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)
    record(phone, "Bob", "Q♣ K♣ A♣")
    expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(1)
    until(page, KEPT_PAGE, f"/games/{game}/finish")

    page.context.set_offline(True)
    with page.expect_navigation():
        page.locator(f"a[href$='/games/{game}/finish']").tap()
    form = page.locator("form[data-finish]")
    form.locator(".players label.chip", has_text=winner).first.tap()
    for hand in form.locator("[data-hand]:visible input[name^=hand_]").all():
        hand.fill("5h")
    form.locator("button[name=show]").tap()
    note = page.locator("[data-finish-waits]")
    expect(note).to_be_visible()
    with page.expect_navigation():
        note.locator("a").tap()
    expect(page.locator("ol.entries > li[data-outbox] .cards")).to_have_text(label)
    phone.errors.clear()  # the sends that found no network said so on the console


WAITING_BAR = {
    "en": "Waiting: Ann, 8♠ 8♥ 8♦ (3 waiting)",
    "de": "Wartet: Ann, 8♠ 8♥ 8♦ (3 warten)",
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_after_a_record_offline_the_bar_names_what_waits_and_the_banner_stays(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path_of_a_new_session(page, phone.base, "Ann", "Bob")
    kept_by_the_worker(page)
    page.context.set_offline(True)
    preview = page.locator("form[data-entry] [data-preview]")
    banner = page.locator("[data-offline]")
    record(phone, "Bob", "Q♣ K♣ A♣")
    record(phone, "Bob", "2♥ 3♥ 4♥")
    record(phone, "Ann", "8♠ 8♥ 8♦")
    expect(page.locator("ol.entries > li[data-outbox]")).to_have_count(3)
    # Not the idle hint: what was just recorded, and how many wait.
    expect(preview).to_have_text(f"… {WAITING_BAR[language]}")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(WAITING[language].format(count=3))
    phone.errors.clear()  # the sends that found no network said so on the console


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_session_page_the_worker_took_over_while_it_loaded_is_kept_for_offline(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    # The worker's install is held at one of its files, and the session page's first module
    # until the worker activated: it claims the page then, a page it never saw load.
    held_install: list[Route] = []
    held_module: list[Route] = []
    submitted: list[bool] = []

    def install(route: Route, request: Request) -> None:
        if request.service_worker is not None and not held_install:
            held_install.append(route)
            return
        route.continue_()

    def module(route: Route, request: Request) -> None:
        if request.service_worker is None and submitted and not held_module:
            held_module.append(route)
            return
        route.continue_()

    page.context.route("**/static/js/*/wake.js", install)
    page.context.route("**/static/js/*/offline.js", module)
    page.goto(phone.base + "/")
    page.fill("#names-0", "Ann")
    page.fill("#names-1", "Bob")
    submitted.append(True)
    page.locator("form button[type=submit]").tap(no_wait_after=True)
    deadline = time.monotonic() + 30
    while not (held_install and held_module) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held_install and held_module
    held_install[0].continue_()
    # The worker installs, activates and claims the page, whose scripts have not run yet.
    until(page, "Boolean(navigator.serviceWorker.controller)")
    held_module[0].continue_()
    page.wait_for_load_state("load")
    kept_by_the_worker(page)
    heading = page.locator("h1").inner_text()
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text(heading)
    assert page.locator("html").get_attribute("data-offline-copy")
