"""The pages at the table: small, strict about inline code, in two languages, cards or points."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import brotli
import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import rules, services
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.web import words
from tests.helpers import book, finish_data, meld, meld_id, start, text, totals

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LARGEST_GAME_PAGE = 30 * 1024
# A module's static import (a dynamic ``import("./x.js")`` is loaded on demand, not with the page).
STATIC_IMPORT = r"""^(?:import|export)\b(?!\s*\()[^;"']*?["']\./([\w-]+\.js)["']"""


def busy_game(client: FlaskClient, app: Flask) -> tuple[str, int, str]:
    """Start a session of four with melds and layoffs on the table; return its URL and ids."""
    table = start(client, ("Annemarie", "Bartholomäus", "Cid", "Dorothea"))
    meld(client, table, "Annemarie", "8d 9d 10d")
    meld(client, table, "Annemarie", "7s 7h 7c")
    meld(client, table, "Bartholomäus", "jc qc kc")
    meld(client, table, "Cid", "qh kh ah 2h 3h")
    client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Dorothea"], "meld": meld_id(app, table, 1), "cards": "jd"},
    )
    return f"/sessions/{table.session}", table.game, table.session


def test_the_game_page_with_its_css_and_js_weighs_at_most_30_kb_compressed(
    client: FlaskClient, app: Flask
) -> None:
    url, _, _ = busy_game(client, app)
    # As Chromium asks: compressed as the server sends it to a phone.
    phone = {"Accept-Encoding": "gzip, deflate, br"}
    page = client.get(url, headers=phone)
    html = decompressed(page)
    assets = set(re.findall(r'(?:href|src)="(/static/[^"?]+\.(?:css|js))(?:\?[^"]*)?"', html))
    scripts = {asset for asset in assets if asset.endswith(".js")}
    # The stylesheet and the page's modules with every module they import, named on the page
    # (scripts and preloads) so that nothing the first paint needs escapes the weight; what a
    # tap needs later (recording and its queue, restore, the waiting entries, correct, finish,
    # seating, the joker swap) is loaded then (the service worker keeps them all).
    for script in scripts:
        with client.get(script) as answer:
            code = answer.get_data(as_text=True)
        for imported in re.findall(STATIC_IMPORT, code, re.MULTILINE):
            assert script.rsplit("/", 1)[0] + "/" + imported in scripts, (script, imported)
    loaded = {script.rsplit("/", 1)[1] for script in scripts}
    assert {"entry.js", "live.js", "offline.js", "grid.js", "check.js"} <= loaded
    on_demand = {"record.js", "send.js", "restore.js", "waiting.js", "correct.js", "finish.js"}
    on_demand |= {"swap.js"}  # where no meld on the table holds a joker
    assert not loaded & (on_demand | {"seating.js"})
    assert len(assets - scripts) == 1  # app.css
    weight = len(page.get_data())
    for asset in assets:
        with client.get(asset, headers=phone) as response:
            weight += len(response.get_data())
    assert weight <= LARGEST_GAME_PAGE


def decompressed(answer: TestResponse) -> str:
    """Return the text of an answer as the browser reads it, whatever it was compressed with."""
    data = answer.get_data()
    coding = answer.headers.get("Content-Encoding")
    if coding == "br":
        data = brotli.decompress(data)
    elif coding == "gzip":
        data = gzip.decompress(data)
    return data.decode()


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_page_has_inline_script_style_or_event_handlers(
    client: FlaskClient, app: Flask, language: str
) -> None:
    client.set_cookie(LANGUAGE_COOKIE, language)
    url, game, session = busy_game(client, app)
    pages = [
        "/",
        url,
        f"/games/{game}/finish",
        f"/games/{game}/abandon",
        f"/sessions/{session}/history",
        f"/games/{game}/entries/1/edit",
        "/sessions/no-such-session",
    ]
    for address in pages:
        html = client.get(address).get_data(as_text=True)
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], address
        assert "<style" not in html, address
        assert re.findall(r"\s(on[a-z]+|style)=", html) == [], address


def test_the_session_page_shows_the_last_five_games_and_links_the_history(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob"))
    for number in range(1, 8):
        with app.app_context():
            game = services.open_game(services.get_session(table.session_pk))
            assert game is not None
            game_id = game.id
        client.post(f"/games/{game_id}/abandon")
        if number < 7:
            client.post(f"/sessions/{table.session}/games")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert [int(n) for n in re.findall(r"Game (\d+): abandoned", page)] == [7, 6, 5, 4, 3]
    assert "The last 5 of 7 games." in page
    assert "The full history, entry by entry" in page
    history = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert all(f"Game {number}" in history for number in range(1, 8))


def test_the_entry_form_preselects_the_dealer_then_whoever_recorded_last(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob", "Cid"), dealer="1")
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert f'value="{table.players["Bob"]}" checked>' in html
    meld(client, table, "Cid", "5s 5h 5c")
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert f'value="{table.players["Cid"]}" checked>' in html
    assert html.count(" checked>") == 2  # Cid, and "New meld"


def test_the_picker_shows_every_card_with_taken_ones_disabled(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    buttons = re.findall(r'<button type="button" class="pick[^"]*" data-card="([^"]+)"[^>]*>', html)
    assert len(buttons) == 52
    assert '<div class="picker" data-picker hidden' in html
    assert 'data-card="Q♣" aria-label="Queen of clubs" disabled aria-disabled="true"' in html
    assert 'data-card="J♣" aria-label="Jack of clubs" aria-pressed="false">J♣<' in html


def test_german_pages_show_german_card_letters_and_names(client: FlaskClient, app: Flask) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "de")
    table = start(client)
    page = meld(client, table, "Ann", "qc kc ac")
    assert "Ann: Folge D♣ K♣ A♣ — 30 Punkte" in page
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert 'data-card="Q♣" aria-label="Dame Kreuz" disabled' in html
    assert 'aria-label="Bube Pik" aria-pressed="false">B♠<' in html
    assert 'data-letters="A 2 3 4 5 6 7 8 9 10 B D K"' in html
    assert "Partie bis 500 Punkte" in text(html)


def test_the_browser_language_chooses_german(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"})
    assert 'lang="de"' in page.get_data(as_text=True)
    assert "Neue Partie" in page.get_data(as_text=True)


def test_a_hand_may_be_given_as_the_points_the_table_counted(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "", "Cid": "as"}, romme="no")
    data[f"points_{table.players['Bob']}"] = "23"
    preview = client.post(f"/games/{table.game}/finish", data=data)
    page = text(preview.get_data(as_text=True))
    assert "Bob counted = 23 +0" in page
    assert "Ann went out +38" in page
    html = preview.get_data(as_text=True)
    assert f'name="points_{table.players["Bob"]}" value="23"' in html
    book(client, table, data)
    assert totals(app, table.session_pk)["Ann"] == 68


def test_a_hand_given_as_cards_and_as_points_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kd", "Cid": "as"})
    data[f"points_{table.players['Bob']}"] = "10"
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    bob = table.players["Bob"]
    said = re.search(rf'<p id="hand_{bob}-error" class="error" role="alert">([^<]*)</p>', html)
    assert said is not None
    assert "Give the cards or the points of a hand, not both." in said.group(1)
    assert totals(app, table.session_pk)["Ann"] == 30


def test_the_finish_page_preselects_whoever_recorded_last(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Cid", "qc kc ac")
    html = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    assert f'name="winner" id="winner-2" value="{table.players["Cid"]}" checked>' in html


def test_refusals_are_shown_in_the_language_of_the_page(app: Flask) -> None:
    too_few = rules.TooFewCardsError(
        "meld.too_few", cards=rules.parse_cards("Q♣ K♣"), needed=3, count=2
    )
    still_open = services.ConflictError("game_still_open")
    with app.test_request_context(headers={"Accept-Language": "de-DE,de;q=0.9"}):
        assert words.rules_message(too_few) == (
            "Eine Kombination braucht mindestens 3 Karten; D♣ K♣ sind nur 2."
        )
        assert words.rules_message(still_open) == (
            "Ein Spiel läuft noch: erst beenden oder abbrechen."
        )
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert words.rules_message(too_few) == ("A meld needs at least 3 cards; Q♣ K♣ are only 2.")


def test_the_german_catalogue_translates_every_message_of_the_sources(tmp_path: Path) -> None:
    extracted = tmp_path / "messages.pot"
    subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "_l",
            "-k",
            "lazy_gettext",
            "-k",
            "wording",
            "-k",
            "plural_wording:1,2",
            "-o",
            str(extracted),
            str(ROOT),
        ],
        check=True,
        cwd=ROOT,
    )
    with extracted.open("rb") as file:
        wanted = {message.id for message in read_po(file) if message.id}
    with (TRANSLATIONS / "messages.pot").open("rb") as file:
        template = {message.id for message in read_po(file) if message.id}
    with (TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as file:
        german = {message.id: message for message in read_po(file) if message.id}
    assert wanted == template, "run pybabel extract (see babel.cfg)"
    missing = [
        message_id
        for message_id in wanted
        if message_id not in german
        or not all(
            german[message_id].string
            if isinstance(german[message_id].string, tuple)
            else [german[message_id].string]
        )
        or german[message_id].fuzzy
    ]
    assert missing == []
