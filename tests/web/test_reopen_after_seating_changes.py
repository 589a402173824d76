"""A reopen after the seating changed, on a real server: through the API and through the pages.

The sequence an independent tester found (issue 27, point 1): game 1 ends, game 2 is dealt and
abandoned, Dan joins after Ann and Bob leaves, game 2 is reopened, then game 1. Removing game 2
would leave the seating change pointing at whatever game is dealt next with its number, so that
reopen is refused in plain words; every other step answers, and the deal follows the seating.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

from tests.helpers import API
from tests.live import Browser, send
from tests.pageforms import form_to

REFUSED_EN = (
    "Game 1 cannot be reopened: the seating changed after game 2 was dealt, and game 2 would "
    "have to go. Finish game 2 and play on."
)
REFUSED_DE = (
    "Spiel 1 lässt sich nicht wieder öffnen: nach dem Geben von Spiel 2 hat sich die "
    "Sitzordnung geändert, und Spiel 2 müsste dafür wegfallen. Beendet Spiel 2 und spielt weiter."
)


class Served:
    """A session of the API on a live server, with its edit key: every answer is checked."""

    def __init__(self, base: str, names: list[str]) -> None:
        self.base = base
        status, session = send(base, "POST", f"{API}/sessions", {"players": names})
        assert status == 201, session
        self.key = session["edit_key"]
        self.id = session["id"]
        self.ids = {player["name"]: player["id"] for player in session["players"]}

    def ask(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """Send a request; no answer is ever a 5xx, and every read of the session answers."""
        status, answer = send(self.base, method, path, body, key=self.key)
        assert status < 500, (method, path, status, answer)
        self.reads_answer()
        return status, answer

    def reads_answer(self) -> None:
        status, session = send(self.base, "GET", f"{API}/sessions/{self.id}", key=self.key)
        assert status == 200, session
        for game in session["games"]:
            status, answer = send(self.base, "GET", f"{API}/games/{game['id']}", key=self.key)
            assert status == 200, answer

    def start(self) -> dict[str, Any]:
        status, game = self.ask("POST", f"{API}/sessions/{self.id}/games")
        assert status == 201, game
        return game  # type: ignore[no-any-return]

    def meld(self, game: dict[str, Any], name: str, cards: str) -> int:
        body = {"player": self.ids[name], "cards": cards}
        return self.ask("POST", f"{API}/games/{game['id']}/melds", body)[0]

    def finish(self, game: dict[str, Any], winner: str | None, hands: dict[str, str]) -> int:
        body = {
            "winner": self.ids[winner] if winner else None,
            "hands": {str(self.ids[name]): cards for name, cards in hands.items()},
        }
        return self.ask("POST", f"{API}/games/{game['id']}/finish", body)[0]

    def reopen(self, game: dict[str, Any], language: str = "en") -> tuple[int, Any]:
        return self.ask("POST", f"{API}/games/{game['id']}/reopen?lang={language}")

    def session(self) -> dict[str, Any]:
        return self.ask("GET", f"{API}/sessions/{self.id}")[1]  # type: ignore[no-any-return]


def test_a_reopen_that_would_remove_a_game_dealt_before_the_seating_changed_is_refused_in_the_api(
    shared_server: str,
) -> None:
    table = Served(shared_server, ["Ann", "Bob", "Cid"])
    first = table.start()
    assert table.meld(first, "Ann", "7♠ 7♥ 7♦") == 201
    assert table.finish(first, "Ann", {"Bob": "10♠", "Cid": "10♥"}) == 200
    second = table.start()
    assert table.finish(second, None, {}) == 200
    dan = {"name": "Dan", "after": table.ids["Ann"]}
    status, joined = table.ask("POST", f"{API}/sessions/{table.id}/players", dan)
    assert status == 201
    table.ids["Dan"] = next(p["id"] for p in joined["players"] if p["name"] == "Dan")
    assert table.ask("POST", f"{API}/sessions/{table.id}/players", {"name": "Eve"})[0] == 422
    assert table.ask("DELETE", f"{API}/sessions/{table.id}/players/{table.ids['Bob']}")[0] == 200

    status, reopened = table.reopen(second)
    assert status == 200  # game 2 is played on by its own players, Bob among them
    assert set(reopened["points"]) == {str(table.ids[name]) for name in ("Ann", "Bob", "Cid")}
    assert table.reopen(first) == (409, {"error": REFUSED_EN})
    assert table.reopen(first, "de") == (409, {"error": REFUSED_DE})
    assert [game["status"] for game in table.session()["games"]] == ["finished", "open"]

    assert table.finish(second, None, {}) == 200
    third = table.start()
    assert third["number"] == 3
    assert set(third["points"]) == {str(table.ids[name]) for name in ("Ann", "Dan", "Cid")}
    assert third["dealer"] in {table.ids["Ann"], table.ids["Dan"], table.ids["Cid"]}
    assert table.meld(third, "Bob", "8♠ 8♥ 8♦") == 422  # Bob left the table
    assert table.meld(third, "Dan", "8♠ 8♥ 8♦") == 201
    assert table.finish(third, "Dan", {"Ann": "2♠", "Cid": "3♠"}) == 200
    session = table.session()
    games = [table.ask("GET", f"{API}/games/{game['id']}")[1] for game in session["games"]]
    for player, total in session["totals"].items():
        assert total == sum(game["points"].get(player, 0) for game in games)
    status, left = table.ask("DELETE", f"{API}/sessions/{table.id}/players/{table.ids['Dan']}")
    assert status == 200, left
    assert [player["name"] for player in left["players"]] == ["Ann", "Cid"]


def test_the_session_page_offers_no_reopen_that_would_be_refused_and_refuses_it_on_a_real_server(
    shared_server: str,
) -> None:
    phone = Browser(shared_server)
    start = form_to(phone.get("/")[2], "/sessions")
    names = {"names-0": "Ann", "names-1": "Bob", "names-2": "Cid", "target": "500"}
    status, address, _ = phone.post(start.action, {**start.fields, **names})
    assert status == 302
    mine = urllib.parse.urlsplit(address).path

    def page(path: str = mine) -> str:
        status, _, shown = phone.get(path)
        assert status == 200, shown
        return shown

    def post(form_page: str, action_end: str, fields: dict[str, str] | None = None) -> str:
        form = form_to(form_page, action_end)
        status, location, answer = phone.post(form.action, {**form.fields, **(fields or {})})
        assert status in (302, 303), answer
        return location

    meld = form_to(page(), "/melds")
    ann, bob, cid = meld.choices["player"]
    first = meld.action.split("/")[2]
    post(page(), "/melds", {"player": ann, "cards": "7♠ 7♥ 7♦"})
    finish = form_to(page(f"/games/{first}/finish"), "/finish")
    hands = {f"hand_{bob}": "10♠", f"hand_{cid}": "10♥", "winner": ann, "romme": "no"}
    shown = {**finish.fields, **hands, "show": "1"}
    post(page(f"{finish.action}?{urllib.parse.urlencode(shown)}"), "/finish")
    post(page(), "/games")  # game 2
    second = form_to(page(), "/melds").action.split("/")[2]
    post(page(f"/games/{second}/abandon"), "/abandon")
    post(page(f"{mine}/change"), "/players", {"name": "Dan", "seat": ann})
    post(page(f"/sessions/{mine.rsplit('/', 1)[1]}/players/{bob}/leave"), "/leave")
    post(page(f"/games/{second}/reopen"), "/reopen")

    session_page = page()
    assert f"/games/{first}/reopen" not in session_page  # not offered: it would be refused
    asked = page(f"/games/{first}/reopen")
    status, _, refusal = phone.post(f"/games/{first}/reopen", form_to(asked, "/reopen").fields)
    assert status == 409, refusal
    assert "the seating changed after game 2 was dealt" in " ".join(refusal.split())
    page(f"/games/{second}/finish")
    page(f"{mine}/history")
    games = re.findall(r"/games/(\d+)/finish", page())
    assert games == [second]
