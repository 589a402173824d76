""" "Correct" on an entry the server refused: the whole entry back in the form, kept until it goes.

A phone records offline while another phone puts the same cards down; back online, the server
refuses the first phone's entries. Correct puts each back as it was tapped (the player, the
mode, the meld laid onto, every meld and card) and the entry stays in the outbox, at the head of
the queue, until the correction is recorded in its place. In Chromium at 360 px.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper import services
from tests.browser.conftest import (
    NARROW,
    Phone,
    kept_by_the_worker,
    path_of_a_new_session,
    the_table,
    until,
)

CORRECTING = {"en": "not sent, being corrected", "de": "nicht gesendet, wird korrigiert"}
NOT_SENT = {"en": "Not sent: Ann", "de": "Nicht gesendet: Ann"}
# Q♣ K♣ A♣ as the page says it (the German queen is the Dame).
QKA = {"en": "Q♣ K♣ A♣", "de": "D♣ K♣ A♣"}
LIST = "(session) => Outbox.list(session).then((items) => items.map((item) => item.label))"


def tap(phone: Phone, name: str, cards: str, onto: str | None = None) -> None:
    """Tap whose entry it is, the meld to lay off onto (if any) and the cards."""
    form = phone.page.locator("form[data-entry]")
    form.locator(".players label.chip", has_text=name).tap()
    if onto is not None:
        form.locator("label.meld-choice", has_text=onto).tap()
    phone.tap_cards(*cards.split())


def record(phone: Phone, mode: str = "meld") -> None:
    """Tap the button that records the entry begun (offline the check waits for the network)."""
    phone.page.locator(f'form[data-entry] button[data-mode="{mode}"]').tap()


def rows(app: Flask, game: int) -> list[tuple[str, str, str]]:
    """Return the game's entries on the server as (player, kind, cards), in their order."""
    with app.app_context():
        played = services.get_game(game)
        names = {player.id: player.name for player in played.everyone}
        return [
            (names[entry.player_id], entry.kind, " ".join(card.card for card in entry.cards))
            for entry in played.entries
        ]


def other_phone_records(phone: Phone, path: str, *taps: tuple[str, str, str | None]) -> None:
    """Record entries on a second phone of the same table, online: (player, typed cards, onto)."""
    browser = phone.page.context.browser
    assert browser is not None
    context = browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True)
    context.add_cookies(phone.page.context.cookies())
    page = context.new_page()
    page.goto(phone.base + path)
    for count, (name, cards, onto) in enumerate(taps, start=1):
        form = page.locator("form[data-entry]")
        form.locator(".players label.chip", has_text=name).tap()
        if onto is not None:
            form.locator("label.meld-choice", has_text=onto).tap()
        form.locator("input[name=cards]").fill(cards)
        expect(page.locator("[data-preview]")).to_contain_text("✓")
        form.locator(f'button[data-mode="{"layoff" if onto else "meld"}"]').tap()
        expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(count + 1)
    context.close()


def refused_and_corrected(page: Page, language: str) -> None:
    """Wait until the bar names the refused entry; tap Correct."""
    preview = page.locator("form[data-entry] [data-preview]")
    expect(preview).to_contain_text(NOT_SENT[language], timeout=20_000)
    preview.locator("[data-outbox-correct]").tap()


@pytest.mark.parametrize("language", ["en", "de"])
def test_correct_gives_back_the_whole_refused_entry_and_it_waits_until_the_correction_is_sent(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    page = phone.page
    path = path_of_a_new_session(page, phone.base, "Ann", "Bob", "Jürgen")
    session, url, players = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)
    form = page.locator("form[data-entry]")
    preview = form.locator("[data-preview]")
    waiting = page.locator("ol.entries > li[data-outbox]")
    tap(phone, "Jürgen", "5♣ 6♣ 7♣")
    expect(preview).to_contain_text("✓")
    record(phone)
    expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(1)

    # Offline, Ann puts down two melds at once, then lays 8♣ off onto Jürgen's run.
    page.context.set_offline(True)
    tap(phone, "Ann", "Q♣ K♣ A♣")
    form.locator("button[data-another]").tap()
    phone.tap_cards("3♦", "3♥", "3♠")
    record(phone)
    expect(waiting).to_have_count(1)
    tap(phone, "Ann", "8♣", onto="5♣ 6♣ 7♣")
    record(phone, "layoff")
    expect(waiting).to_have_count(2)
    # Meanwhile Bob's phone puts down 3♦ 3♥ 3♠ and lays 8♣ off onto the run.
    other_phone_records(phone, path, ("Bob", "3d 3h 3s", None), ("Bob", "8c", "5♣ 6♣ 7♣"))

    # The recorder has moved on to Jürgen's turn.
    form.locator(".players label.chip", has_text="Jürgen").tap()
    page.context.set_offline(False)
    # The live table shows Bob's entries; Ann's first entry is refused and named in the bar.
    expect(page.locator("ol.entries > li:not([data-outbox])")).to_have_count(3, timeout=20_000)
    refused_and_corrected(page, language)
    # All of it back: Ann's chip, the first meld listed, the second meld's cards, the meld mode.
    expect(form.locator("input[name=player]:checked")).to_have_value(players["Ann"])
    expect(form.locator("[data-melds-so-far] li")).to_have_count(1)
    expect(form.locator("[data-melds-so-far]")).to_contain_text(QKA[language])
    expect(form.locator("input[name=cards]")).to_have_value("3♦ 3♥ 3♠")
    expect(form.locator('button[data-mode="meld"]')).to_be_visible()
    # It stays on the phone until the correction goes, at the head of the queue, and says so.
    assert page.evaluate(LIST, session) == [f"Ann: {QKA[language]} + 3♦ 3♥ 3♠", "Ann: 8♣"]
    expect(waiting.last).to_contain_text(CORRECTING[language])
    # Through a reload (the page chooses whose turn it is, not Ann): the same again.
    page.reload()
    expect(form.locator("input[name=player]:checked")).not_to_have_value(players["Ann"])
    refused_and_corrected(page, language)
    expect(form.locator("input[name=player]:checked")).to_have_value(players["Ann"])
    expect(form.locator("[data-melds-so-far]")).to_contain_text(QKA[language])

    # The threes lie on the table: tapped away, the sevens instead; recorded in its place.
    phone.tap_cards("3♦", "3♥", "3♠", "7♠", "7♥", "7♦")
    expect(form.locator("input[name=cards]")).to_have_value("7♠ 7♥ 7♦")
    expect(preview).to_contain_text("✓")
    record(phone)

    # Then the layoff is refused (8♣ lies there); the page opened again, the recorder chooses
    # Jürgen (the refusal stays in the bar). Correct: Ann's, onto Jürgen's run, laying off.
    expect(preview).to_contain_text(NOT_SENT[language], timeout=20_000)
    page.reload()
    form.locator(".players label.chip", has_text="Jürgen").tap()
    refused_and_corrected(page, language)
    expect(form.locator("input[name=player]:checked")).to_have_value(players["Ann"])
    run = form.locator("label.meld-choice", has_text="5♣ 6♣ 7♣ 8♣").locator("input")
    expect(run).to_be_checked()
    expect(form.locator('button[data-mode="layoff"]')).to_be_visible()
    expect(form.locator('button[data-mode="meld"]')).to_be_hidden()
    expect(form.locator("input[name=cards]")).to_have_value("8♣")
    assert page.evaluate(LIST, session) == ["Ann: 8♣"]
    phone.tap_cards("8♣", "4♣")
    expect(preview).to_contain_text("✓")
    record(phone, "layoff")

    until(page, "(session) => Outbox.list(session).then((items) => !items.length)", session)
    expect(waiting).to_have_count(0)
    assert rows(app_with(), game) == [
        ("Jürgen", "meld", "5♣ 6♣ 7♣"),
        ("Bob", "meld", "3♠ 3♥ 3♦"),
        ("Bob", "layoff", "8♣"),
        ("Ann", "meld", "Q♣ K♣ A♣"),
        ("Ann", "meld", "7♠ 7♥ 7♦"),
        ("Ann", "layoff", "4♣"),
    ]
    phone.errors.clear()  # the sends that found no network said so on the console


MELD_GONE = "The meld these cards went onto is no longer on the table: it was undone."


def test_a_layoff_refused_because_its_meld_was_undone_says_so(
    new_phone: Callable[..., Phone], app_with: Callable[..., Flask]
) -> None:
    phone = new_phone("en", viewport=NARROW)
    page = phone.page
    path_of_a_new_session(page, phone.base, "Ann", "Bob")
    _, url, _ = the_table(page)
    game = int(url.rsplit("/", 2)[1])
    kept_by_the_worker(page)
    tap(phone, "Ann", "5♣ 6♣ 7♣")
    expect(page.locator("form[data-entry] [data-preview]")).to_contain_text("✓")
    record(phone)
    expect(page.locator("ol.entries > li:not([data-waiting])")).to_have_count(1)

    # Offline, Bob lays 8♣ off onto Ann's run; meanwhile the run is undone on another phone.
    page.context.set_offline(True)
    tap(phone, "Bob", "8♣", onto="5♣ 6♣ 7♣")
    record(phone, "layoff")
    expect(page.locator("ol.entries > li[data-outbox]")).to_have_count(1)
    with app_with().app_context():
        services.undo_last_entry(game)
    page.context.set_offline(False)
    preview = page.locator("form[data-entry] [data-preview]")
    expect(preview).to_contain_text(f"Not sent: Bob: 8♣. {MELD_GONE}", timeout=20_000)
    expect(page.locator("ol.entries > li:not([data-outbox])")).to_have_count(0)
    phone.errors.clear()  # the sends that found no network said so on the console
