"""A phone of 360 px in English and German: what comes first, and long names."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Phone, fits, start

NARROW = {"width": 360, "height": 740}
WORDS = {
    "en": {"new": "New session", "mine": "Sessions on this phone"},
    "de": {"new": "Neue Partie", "mine": "Partien auf diesem Handy"},
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_with_a_session_sees_it_first_and_a_new_one_one_tap_further(
    new_phone: Callable[..., Phone], language: str
) -> None:
    words = WORDS[language]
    phone = new_phone(language, viewport=NARROW)
    start(phone, "Ann", "Bob")
    phone.open()
    page = phone.page
    mine = page.get_by_role("heading", name=words["mine"])
    expect(mine).to_be_in_viewport()
    expect(page.get_by_role("link", name="Ann, Bob")).to_be_in_viewport()
    expect(page.locator("#names-0")).to_be_hidden()
    fits(phone)

    page.get_by_text(words["new"], exact=True).tap()

    expect(page.locator("#names-0")).to_be_visible()
    start(phone, "Cid", "Dan")
    phone.open()
    expect(page.get_by_role("link", name="Cid, Dan")).to_be_in_viewport()


# Long names of a table of six: one with a hyphen, one with a space, and single long words.
SIX = ["Annemarie", "Friedrich", "Maximilian", "Bartholomäus", "Anna-Lena", "Jan Frederik"]

# For each name shown in a table, whether a line breaks inside a word: the characters' boxes
# tell where each line starts; a line may start only after a space or a hyphen. A name cut
# short with an ellipsis must carry its whole name in its title.
NAMES = "th[scope=row] bdi, .sheet thead th bdi"
WORDS_CUT = """([root, names]) => [...root.querySelectorAll(names)].flatMap(name => {
  const text = name.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  const range = document.createRange();
  const cut = [];
  let top = null;
  for (let at = 0; at < text.length; at++) {
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const box = range.getClientRects()[0];
    if (!box) continue;
    if (top !== null && box.top > top + 2 && !/[\\s-]/.test(text.data[at - 1])) {
      cut.push(text.data.slice(0, at) + "|" + text.data.slice(at));
    }
    top = box.top;
  }
  if (name.scrollWidth > name.clientWidth + 1 && name.title !== text.data) {
    cut.push("no title: " + text.data);
  }
  return cut;
})"""


def api(base: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    """Send one request to the live server's API; return its JSON answer."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/api/v1{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


@pytest.mark.parametrize("language", ["en", "de"])
def test_long_names_break_between_words_only_and_no_page_scrolls_sideways(
    new_phone: Callable[..., Phone], language: str
) -> None:
    phone = new_phone(language, viewport=NARROW)
    base = phone.base
    body = {"players": SIX, "variant": "boathouse_rum", "rules": {"end": {"games": 5}}}
    session = api(base, "POST", "/sessions", body)
    key, players = session["edit_key"], [player["id"] for player in session["players"]]
    # A game booked (its settlement table), and the next one open with a meld.
    games = []
    for number in range(2):
        game = api(base, "POST", f"/sessions/{session['id']}/games", {}, key)
        meld = {"player": players[0], "cards": "7♥ 8♥ 9♥"}
        api(base, "POST", f"/games/{game['id']}/melds", meld, key)
        games.append(game["id"])
        if number == 0:
            finish = {"winner": players[0], "hands": {str(p): 5 for p in players[1:]}}
            api(base, "POST", f"/games/{game['id']}/finish", finish, key)
    phone.open(f"/sessions/{session['id']}?key={key}")

    pages = [
        f"/sessions/{session['id']}",
        f"/sessions/{session['id']}/sheet",
        f"/games/{games[0]}/finish",
    ]
    for path in pages:
        phone.open(path)
        expect(phone.page.locator("main")).to_contain_text("Maximilian")
        fits(phone)
        assert (
            phone.page.evaluate(WORDS_CUT, [phone.page.locator("main").element_handle(), NAMES])
            == []
        )


SHARE = {
    "en": ("Other phones: links to this session", "To record on another phone"),
    "de": ("Andere Handys: Links zu dieser Partie", "Zum Eintragen auf einem anderen Handy"),
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_first_code_shown_to_a_friend_is_the_view_link_and_the_edit_link_one_tap_further(
    new_phone: Callable[..., Phone], language: str
) -> None:
    links, to_record = SHARE[language]
    phone = new_phone(language, viewport=NARROW)
    start(phone, "Ann", "Bob")
    page = phone.page
    page.get_by_text(links).tap()

    shown = page.locator("details.share a.share-link:visible")
    expect(shown).to_have_count(1)
    view = shown.get_attribute("href")
    assert view is not None
    codes = page.locator("details.share svg.qr:visible")
    expect(codes).to_have_count(1)
    fits(phone)

    page.get_by_text(to_record).tap()

    expect(shown).to_have_count(2)
    expect(codes).to_have_count(2)
    assert shown.first.get_attribute("href") == view
    edit = shown.last.get_attribute("href")
    assert edit is not None and edit != view
    # Above the edit link's code: the view link's code lies first on the screen.
    assert codes.first.bounding_box()["y"] < codes.last.bounding_box()["y"]  # type: ignore[index]
    fits(phone)
