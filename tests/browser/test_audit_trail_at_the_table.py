"""The audit trail in a real browser: the history shows each change at 360 px, in German."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Phone

# Names as long as a name may be (40 characters), so that the lines must wrap.
NAMES = ["Annemarie-Josephine von Hohenlohe-Ingelfi", "Bob", "Cid"]


def api(base: str, method: str, path: str, body: object = None, key: str = "") -> Any:
    """Send a request to the live server's API and return its answer (None for a 204)."""
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data = response.read()
        return json.loads(data) if data else None


def test_the_history_shows_each_change_with_its_time_and_fits_360_px_in_german(
    new_phone: Callable[..., Phone],
) -> None:
    phone = new_phone("de", viewport={"width": 360, "height": 740})
    names = [NAMES[0][:40], *NAMES[1:]]
    session = api(phone.base, "POST", "/api/v1/sessions", {"players": names})
    key = session["edit_key"]
    ann, bob, cid = (player["id"] for player in session["players"])
    game = api(phone.base, "POST", f"/api/v1/sessions/{session['id']}/games", key=key)["id"]
    url = f"/api/v1/games/{game}"
    queens = api(phone.base, "POST", f"{url}/melds", {"player": ann, "cards": "Q♣ K♣ A♣"}, key)
    api(phone.base, "PATCH", f"{url}/entries/{queens['id']}", {"player": bob}, key)
    several = {"player": cid, "melds": ["J♦ Q♦ K♦", "3♠ 3♥ 3♦", "7♥ 8♥ 9♥ 10♥"]}
    api(phone.base, "POST", f"{url}/melds", several, key)
    api(phone.base, "POST", f"{url}/undo", {}, key)
    api(
        phone.base,
        "POST",
        f"{url}/finish",
        {"winner": bob, "hands": {str(ann): 12, str(cid): "K♥ 9♦"}},
        key,
    )
    api(phone.base, "POST", f"{url}/reopen", {}, key)

    phone.open(f"/sessions/{session['id']}?key={key}")
    phone.open(f"/sessions/{session['id']}/history")
    lines = phone.page.locator("ol.entries li.audit")
    expect(lines).to_have_count(3)
    said = [" ".join(text.split()) for text in lines.all_inner_texts()]
    assert all(re.match(r"\d\d:\d\d ", line) for line in said), said
    assert f"{names[0]} → Bob" in said[0]
    # German card letters: Bube and Dame.
    assert "B♦ D♦ K♦ + 3♠ 3♥ 3♦ + 7♥ 8♥ 9♥ 10♥" in said[1]
    assert "K♥ 9♦" in said[2]
    root = "document.documentElement"
    width = phone.page.evaluate(f"[{root}.scrollWidth, {root}.clientWidth]")
    assert width[0] <= width[1], width
    phone.shot("audit-trail-360", full_page=True)
