"""Offline at the table, the server's half: the service worker at the root, a fresh CSRF token."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.api.idempotency import AnswerLost, StillAnswering
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.web import once
from tests.helpers import meld, start, totals

IN_PLACE = {"Accept": "application/json"}
MODULES = Path(__file__).resolve().parents[2] / "scorekeeper" / "static" / "js"


def test_the_service_worker_is_served_from_the_root_with_the_apps_fingerprinted_files(
    client: FlaskClient,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] in ("no-cache", "no-store")
    assert "worker-src 'self'" in answer.headers["Content-Security-Policy"]
    worker = answer.get_data(as_text=True)
    first = worker.splitlines()[0]
    assets = re.findall(r'"(/static/[^"]+)"', first)
    # Every file the pages load, each with its fingerprint; not the worker itself.
    page = client.get("/").get_data(as_text=True)
    for loaded in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        assert loaded in assets
    files = [asset for asset in assets if "?v=" in asset]
    assert all(re.fullmatch(r"/static/[\w.-]+\?v=[0-9a-f]{12}", asset) for asset in files)
    # Every module of the browser code under the modules' version, those a page loads on
    # demand too (restore, correct, seating, finish), so that a page kept works offline.
    kept = [asset for asset in assets if asset not in files]
    assert all(re.fullmatch(r"/static/js/[0-9a-f]{12}/[\w-]+\.js", asset) for asset in kept)
    modules = sorted(asset.rsplit("/", 1)[1] for asset in kept)
    assert modules == sorted(path.name for path in MODULES.glob("*.js"))
    assert not any("sw.js" in asset for asset in assets)
    # Every page registers it.
    assert 'data-worker="/sw.js"' in page


def test_a_fresh_csrf_token_lets_a_form_kept_past_its_hour_be_sent(
    app_with: Callable[..., Flask],
) -> None:
    client = app_with(WTF_CSRF_ENABLED=True).test_client()
    forget = "/sessions/AAAAAAAAAAAAAAAAAAAAAA/forget"
    assert client.post(forget, data={"csrf_token": "expired"}).status_code == 400
    answer = client.get("/csrf-token")
    assert answer.headers["Cache-Control"] == "no-store"
    token = answer.get_json()["csrf_token"]
    assert client.post(forget, data={"csrf_token": token}).status_code == 302


def test_the_worker_and_the_pages_script_are_given_one_list_of_kept_pages(
    client: FlaskClient,
) -> None:
    worker = client.get("/sw.js").get_data(as_text=True)
    given = re.search(r"var KEPT_PAGES = new RegExp\((\"[^\n]*\")\);", worker)
    assert given is not None
    pattern = json.loads(given.group(1))
    page = client.get("/").get_data(as_text=True)
    script = re.search(r'data-kept-pages="([^"]*)"', page)
    assert script is not None
    assert html.unescape(script.group(1)) == pattern
    # Anchored at both ends: the start page, a session and its history, a game's finish page.
    kept = re.compile(pattern)
    kept_paths = ("/", "/sessions/abc", "/sessions/abc/history", "/games/12/finish")
    assert all(kept.fullmatch(path) for path in kept_paths)
    assert not any(
        kept.search(path)
        for path in ("/x/sessions/abc", "/sessions/abc/change", "/groups/a", "/games/1/undo")
    )
    # The worker holds no list of its own.
    assert worker.count("KEPT_PAGES =") == 1


def test_the_start_page_lists_the_sessions_this_phone_holds_for_the_outbox_to_keep(
    client: FlaskClient,
) -> None:
    assert 'data-held=""' in client.get("/").get_data(as_text=True)
    table = start(client)
    assert f'data-held="{table.session}"' in client.get("/").get_data(as_text=True)
    client.post(f"/sessions/{table.session}/forget")
    assert 'data-held=""' in client.get("/").get_data(as_text=True)


def test_a_tap_still_being_saved_answers_a_409_that_passes_and_a_refusal_one_that_does_not(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start(client)
    undo = f"/games/{table.game}/undo"
    # Nothing to undo: a 409 that never passes, so the outbox names it and sends nothing after.
    refused = client.post(undo, data={"once": "tap-1"}, headers=IN_PLACE)
    assert refused.status_code == 409
    assert "Retry-After" not in refused.headers
    assert refused.get_json()["error"]

    def still_saving(*_args: object, **_kwargs: object) -> None:
        raise StillAnswering()

    monkeypatch.setattr(once, "apply_once", still_saving)
    waiting = client.post(undo, data={"once": "tap-2"}, headers=IN_PLACE)
    assert waiting.status_code == 409
    assert int(waiting.headers["Retry-After"]) > 0
    assert "still being saved" in waiting.get_json()["error"]
    # Without the script the page says so, as before.
    assert client.post(undo, data={"once": "tap-3"}).status_code == 302


def test_a_form_sent_again_that_was_not_applied_now_is_told_why_in_place(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start(client)
    melds = f"/games/{table.game}/melds"
    ann = {"player": table.players["Ann"], "once": "tap-1"}
    first = client.post(melds, data={**ann, "cards": "qc kc ac"}, headers=IN_PLACE)
    assert first.status_code == 200
    # The same key with other cards: nothing recorded twice, and the outbox reads why.
    changed = client.post(melds, data={**ann, "cards": "7h 7d 7s"}, headers=IN_PLACE)
    assert changed.status_code == 422
    assert changed.mimetype == "application/json"
    assert "nothing was recorded twice" in changed.get_json()["error"]

    def answer_lost(*_args: object, **_kwargs: object) -> None:
        raise AnswerLost()

    monkeypatch.setattr(once, "apply_once", answer_lost)
    lost = client.post(melds, data={**ann, "cards": "qc kc ac"}, headers=IN_PLACE)
    # Saved before: a 409 that never passes (sent again it says the same), with its reason.
    assert lost.status_code == 409
    assert "Retry-After" not in lost.headers
    assert "saved before" in lost.get_json()["error"]
    # Without the script the page says so, as before.
    assert client.post(melds, data={**ann, "cards": "qc kc ac"}).status_code == 302


def test_a_finish_sent_by_the_outbox_is_booked_once_and_its_refusals_have_reasons(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    finish = f"/games/{table.game}/finish"
    hands = {f"hand_{table.players['Bob']}": "5h 9s", f"hand_{table.players['Cid']}": "kd"}
    sent = {"winner": table.players["Ann"], "romme": "auto", "confirm": "1", **hands}
    # What the recorder could not check offline is refused with the server's reason.
    wrong = client.post(
        finish, data={**sent, f"hand_{table.players['Cid']}": "zz", "once": "f-0"}, headers=IN_PLACE
    )
    assert wrong.status_code == 200
    assert wrong.get_json()["refused"] is True and wrong.get_json()["error"]
    booked = client.post(finish, data={**sent, "once": "f-1"}, headers=IN_PLACE)
    assert booked.status_code == 200
    said = booked.get_json()["said"]
    assert "Game 1 is over" in said
    before = totals(app, table.session_pk)
    # Sent again with its key (the answer was lost on the way): the same answer, booked once.
    again = client.post(finish, data={**sent, "once": "f-1"}, headers=IN_PLACE)
    assert again.get_json() == {"said": said}
    assert totals(app, table.session_pk) == before
    # Another phone's finish of the same game, waiting offline meanwhile: refused, not merged.
    other = client.post(finish, data={**sent, "once": "f-2"}, headers=IN_PLACE)
    assert other.get_json() == {"refused": True, "error": "Already booked on another phone."}
    assert totals(app, table.session_pk) == before


@pytest.mark.parametrize(
    ("language", "waits"),
    [
        ("en", "the settlement is worked out when the network is back"),
        ("de", "die Abrechnung wird erstellt, sobald das Netz wieder da ist"),
    ],
)
def test_the_finish_and_entry_pages_carry_what_they_say_when_sent_offline(
    client: FlaskClient, language: str, waits: str
) -> None:
    client.set_cookie(LANGUAGE_COOKIE, language)
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    finish = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    assert waits in html.unescape(finish)
    assert '/finish.js"' in finish
    assert f'data-offline="{table.session}"' in finish
    entry = client.get(f"/games/{table.game}/entries/1/edit").get_data(as_text=True)
    assert '/delete.js"' in entry
    assert f'data-offline="{table.session}"' in entry
    # The game page, which does not load them, stays within its weight.
    game = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert "/finish.js" not in game and "/delete.js" not in game
