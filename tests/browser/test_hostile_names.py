"""A player named like an HTML tag is shown as a name in a real browser, never run."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import Dialog, expect

from tests.browser.conftest import Phone

# <img src=x onerror="document.title='pwned'"> is 44 characters, over the 40 a name may have
# (the API refuses it); this one runs the same script, should it ever reach the page as markup.
HOSTILE = "<svg onload=\"document.title='pwned'\">"
TOO_LONG = "<img src=x onerror=\"document.title='pwned'\">"


def api_post(base: str, path: str, body: object = None, key: object = "") -> dict[str, object]:
    """Post JSON to the live server's API and return the answer."""
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def test_a_player_named_like_an_image_tag_is_shown_as_text_and_runs_nothing(phone: Phone) -> None:
    session = api_post(phone.base, "/api/v1/sessions", {"players": [HOSTILE, "Bob"]})
    game = api_post(phone.base, f"/api/v1/sessions/{session['id']}/games", key=session["edit_key"])
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    phone.page.on("dialog", dismiss)

    phone.open(f"/sessions/{session['id']}?key={session['edit_key']}")  # the edit link
    pages = [
        f"/sessions/{session['id']}",
        f"/sessions/{session['id']}/history",
        f"/games/{game['id']}/finish",
    ]
    for path in pages:
        phone.open(path)
        title = phone.page.title()
        expect(phone.page.get_by_text(HOSTILE).first).to_be_visible()
        phone.page.wait_for_load_state("load")
        assert phone.page.title() == title != "pwned"
        assert phone.page.locator("svg[onload], img[src=x]").count() == 0
    assert dialogs == []


def test_the_longer_image_tag_is_refused_as_a_name(shared_server: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        api_post(shared_server, "/api/v1/sessions", {"players": [TOO_LONG, "Bob"]})
    assert refused.value.code == 422
    refused.value.close()
