"""Players join and leave a session between games, on the change page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import API, ok
from tests.pageforms import form_to, forms_on


def opened(client: FlaskClient, names: list[str], **body: Any) -> dict[str, Any]:
    """Start a session through the API and open its edit link on this phone."""
    session = ok(client.post(f"{API}/sessions", json={"players": names, **body}), 201)
    assert client.get(f"/sessions/{session['id']}?key={session['edit_key']}").status_code == 302
    return session


def ids(client: FlaskClient, sid: str) -> dict[str, int]:
    session = ok(client.get(f"{API}/sessions/{sid}"))
    return {player["name"]: player["id"] for player in [*session["players"], *session["left"]]}


def play_a_game(client: FlaskClient, sid: str, winner: str, hands: dict[str, str]) -> None:
    game = ok(client.post(f"{API}/sessions/{sid}/games"), 201)
    players = ids(client, sid)
    body = {"player": players[winner], "cards": "J♦ Q♦ K♦"}
    ok(client.post(f"{API}/games/{game['id']}/melds", json=body), 201)
    finish = {
        "winner": players[winner],
        "hands": {str(players[name]): hand for name, hand in hands.items()},
    }
    ok(client.post(f"{API}/games/{game['id']}/finish", json=finish))


def page(client: FlaskClient, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, answer.status_code
    return answer.get_data(as_text=True)


def chosen_seat(shown: str) -> str:
    """Return the seat the page's select has chosen, which a browser sends untouched."""
    select = shown.split('name="seat"', 1)[1].split("</select>", 1)[0]
    found = re.search(r'<option selected value="(\d+)"|<option value="(\d+)" selected', select)
    assert found is not None, select
    return found.group(1) or found.group(2)


def seat_on_the_page(client: FlaskClient, sid: str, name: str, seat: str | None = None) -> Any:
    shown = page(client, f"/sessions/{sid}/change")
    form = form_to(shown, f"/sessions/{sid}/players")
    fields = {**form.fields, "name": name, "seat": seat or chosen_seat(shown)}
    return client.post(form.action, data=fields)


def leave_on_the_page(client: FlaskClient, sid: str, player_id: int) -> Any:
    confirm = f"/sessions/{sid}/players/{player_id}/leave"
    assert f'href="{confirm}"' in page(client, f"/sessions/{sid}/change")
    form = form_to(page(client, confirm), confirm)
    return client.post(form.action, data=form.fields)


def standing(client: FlaskClient, sid: str) -> list[tuple[str, str, str]]:
    """Return the rows of the session page's totals: name and its tags, total, to go."""
    shown = page(client, f"/sessions/{sid}")
    table = shown.split('<table class="standing">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r"<tr[^>]*>\s*<th scope=\"row\">(.*?)</th>\s*<td[^>]*>(.*?)</td>\s*"
        r"<td[^>]*>(.*?)</td>",
        table,
        re.S,
    )
    return [
        (" ".join(re.sub(r"<[^>]+>", " ", name).split()), total, to_go)
        for name, total, to_go in rows
    ]


def test_a_player_is_seated_after_another_on_the_page(client: FlaskClient) -> None:
    session = opened(client, ["Ann", "Bob", "Cid"])
    sid = session["id"]
    form = form_to(page(client, f"/sessions/{sid}/change"), f"/sessions/{sid}/players")
    shown = page(client, f"/sessions/{sid}/change")
    options = re.findall(r'<option[^>]*value="(\d+)"[^>]*>([^<]*)</option>', shown)
    # A place is the player to sit after, by id (0: first), so that a change on another phone
    # meanwhile moves no one to a place not chosen.
    players = ids(client, sid)
    assert options == [
        ("0", "first, before Ann"),
        (str(players["Ann"]), "after Ann"),
        (str(players["Bob"]), "after Bob"),
        (str(players["Cid"]), "after Cid"),
    ]
    assert chosen_seat(shown) == str(players["Cid"])
    assert form.fields["name"] == ""
    answer = seat_on_the_page(client, sid, "Dan", str(players["Ann"]))
    assert answer.status_code == 302
    after = page(client, f"/sessions/{sid}")
    assert "Dan sits at the table from the next game." in after
    players = ok(client.get(f"{API}/sessions/{sid}"))["players"]
    assert [player["name"] for player in players] == ["Ann", "Dan", "Bob", "Cid"]


def test_a_name_taken_is_refused_on_the_page_and_nothing_changes(client: FlaskClient) -> None:
    session = opened(client, ["Ann", "Bob"])
    sid = session["id"]
    answer = seat_on_the_page(client, sid, "bob")
    assert answer.status_code == 422
    shown = answer.get_data(as_text=True)
    assert "is entered twice" in shown and 'value="bob"' in shown
    assert len(ok(client.get(f"{API}/sessions/{sid}"))["players"]) == 2


def test_a_player_leaves_after_a_confirmation_and_keeps_a_row_of_their_own(
    client: FlaskClient,
) -> None:
    session = opened(client, ["Ann", "Bob", "Cid"])
    sid = session["id"]
    play_a_game(client, sid, "Bob", {"Ann": "7♥", "Cid": "K♣"})
    bob = ids(client, sid)["Bob"]
    confirm = page(client, f"/sessions/{sid}/players/{bob}/leave")
    assert "Does <bdi>Bob</bdi> leave the table?" in confirm
    answer = leave_on_the_page(client, sid, bob)
    assert answer.status_code == 302
    shown = page(client, f"/sessions/{sid}")
    assert "Bob has left the table; their points stay." in shown
    assert standing(client, sid) == [
        ("Ann", "0", "500"),
        ("Cid deals", "0", "500"),
        ("Bob left", "47", "–"),
    ]
    # Game 1 keeps its players: Bob is in its line of points.
    assert re.search(r"<bdi>Bob</bdi> 47", shown)
    ok(client.post(f"{API}/sessions/{sid}/games"), 201)
    shown = page(client, f"/sessions/{sid}")
    points = shown.split("Points in this game:", 1)[1].split("</p>", 1)[0]
    assert "Ann" in points and "Cid" in points and "Bob" not in points
    history = page(client, f"/sessions/{sid}/history")
    first, second = history.split('id="game-1"', 1)[1].split('id="game-2"', 1)
    assert "<bdi>Bob</bdi> 47" in first
    assert "Bob" not in second.split("Points:", 1)[1].split("</p>", 1)[0]


def test_the_page_offers_only_what_the_rule_system_allows(client: FlaskClient) -> None:
    full = opened(client, ["Ann", "Bob", "Cid", "Dan"])
    shown = page(client, f"/sessions/{full['id']}/change")
    assert f'action="/sessions/{full["id"]}/players"' not in shown
    assert "the table is full" in shown
    pair = opened(client, ["Ann", "Bob"])
    shown = page(client, f"/sessions/{pair['id']}/change")
    assert "/leave" not in shown and "nobody can leave" in shown
    bob = ids(client, pair["id"])["Bob"]
    answer = client.post(
        f"/sessions/{pair['id']}/players/{bob}/leave",
        data=form_to(page(client, f"/sessions/{pair['id']}/players/{bob}/leave"), "/leave").fields,
    )
    assert answer.status_code == 422
    assert "nobody can leave" in answer.get_data(as_text=True)


def test_while_a_game_is_open_the_seats_wait(client: FlaskClient) -> None:
    session = opened(client, ["Ann", "Bob", "Cid"])
    sid = session["id"]
    play_a_game(client, sid, "Ann", {"Bob": "7♥", "Cid": "K♣"})
    change = page(client, f"/sessions/{sid}/change")
    leave = form_to(
        page(client, f"/sessions/{sid}/players/{ids(client, sid)['Bob']}/leave"), "/leave"
    )
    seat = form_to(change, f"/sessions/{sid}/players")
    ok(client.post(f"{API}/sessions/{sid}/games"), 201)
    shown = page(client, f"/sessions/{sid}/change")
    assert f'action="/sessions/{sid}/players"' not in shown and "/leave" not in shown
    cid = str(ids(client, sid)["Cid"])
    answer = client.post(seat.action, data={**seat.fields, "name": "Dan", "seat": cid})
    assert answer.status_code == 409
    assert "A game is still open" in answer.get_data(as_text=True)
    answer = client.post(leave.action, data=leave.fields)
    assert answer.status_code == 409
    assert "A game is still open" in answer.get_data(as_text=True)
    assert len(ok(client.get(f"{API}/sessions/{sid}"))["players"]) == 3


def test_a_view_link_opens_no_leave_page(client: FlaskClient) -> None:
    session = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob", "Cid"]}), 201)
    bob = session["players"][1]["id"]
    watcher = client.application.test_client()
    watcher.get(f"/sessions/{session['id']}?key={session['view_key']}")
    assert watcher.get(f"/sessions/{session['id']}/players/{bob}/leave").status_code == 404


def test_play_again_seats_the_players_at_the_table(client: FlaskClient) -> None:
    session = opened(client, ["Ann", "Bob", "Cid"], rules={"end": {"games": 2}})
    sid = session["id"]
    play_a_game(client, sid, "Ann", {"Bob": "7♥", "Cid": "K♣"})
    ok(client.delete(f"{API}/sessions/{sid}/players/{ids(client, sid)['Bob']}"))
    ok(client.post(f"{API}/sessions/{sid}/players", json={"name": "Dan"}), 201)
    play_a_game(client, sid, "Cid", {"Ann": "2♥", "Dan": "K♣"})
    assert ok(client.get(f"{API}/sessions/{sid}"))["status"] == "finished"
    home = page(client, f"/?again={sid}")
    start = next(form for form in forms_on(home) if form.action == "/sessions")
    names = [start.fields.get(f"names-{seat}") for seat in range(3)]
    assert names == ["Ann", "Cid", "Dan"]
    # Cid dealt game 2: Dan, after Cid, deals next.
    dealer = home.split('name="dealer"', 1)[1].split("</select>", 1)[0]
    assert re.search(r'<option selected value="2">|<option value="2" selected', dealer)


@pytest.mark.parametrize("language", ["de"])
def test_the_seats_are_changed_on_a_german_page(client: FlaskClient, language: str) -> None:
    client.set_cookie("language", language)
    session = opened(client, ["Ann", "Bob", "Cid"])
    sid = session["id"]
    play_a_game(client, sid, "Ann", {"Bob": "7♥", "Cid": "K♣"})
    shown = page(client, f"/sessions/{sid}/change")
    assert 'lang="de"' in shown
    assert f'action="/sessions/{sid}/players"' in shown
    assert len(re.findall(r'<option[^>]*value="\d"', shown)) == 4
    assert seat_on_the_page(client, sid, "Dan").status_code == 302
    answer = leave_on_the_page(client, sid, ids(client, sid)["Bob"])
    assert answer.status_code == 302
    rows = standing(client, sid)
    assert [(name.split()[0], total) for name, total, _to_go in rows] == [
        ("Ann", "47"),
        ("Cid", "0"),
        ("Dan", "0"),
        ("Bob", "0"),
    ]
    assert '<tr class="left">' in page(client, f"/sessions/{sid}")


def test_two_phones_seating_players_at_once_each_get_the_place_chosen(
    client: FlaskClient, app: Flask
) -> None:
    session = opened(client, ["Ann", "Bob"])
    sid = session["id"]
    players = ids(client, sid)
    other = app.test_client()
    other.get(f"/sessions/{sid}?key={session['edit_key']}")
    # Both phones show the change page; the other phone seats Dan first, then this one, from
    # the page it showed before, seats Eve after Ann (by a number, Eve would sit after Dan).
    shown = page(client, f"/sessions/{sid}/change")
    assert seat_on_the_page(other, sid, "Dan", "0").status_code == 302
    form = form_to(shown, f"/sessions/{sid}/players")
    fields = {**form.fields, "name": "Eve", "seat": str(players["Ann"])}
    assert client.post(form.action, data=fields).status_code == 302
    seated = [player["name"] for player in ok(client.get(f"{API}/sessions/{sid}"))["players"]]
    assert seated == ["Dan", "Ann", "Eve", "Bob"]


def test_a_place_after_a_player_who_left_meanwhile_is_refused_and_seats_no_one(
    client: FlaskClient,
) -> None:
    session = opened(client, ["Ann", "Bob", "Cid"])
    sid = session["id"]
    players = ids(client, sid)
    shown = page(client, f"/sessions/{sid}/change")
    ok(client.delete(f"{API}/sessions/{sid}/players/{players['Bob']}"))
    form = form_to(shown, f"/sessions/{sid}/players")
    fields = {**form.fields, "name": "Eve", "seat": str(players["Bob"])}
    answer = client.post(form.action, data=fields)
    assert answer.status_code == 422
    assert "The seating was changed on another phone meanwhile: choose the place again." in (
        answer.get_data(as_text=True)
    )
    seated = [player["name"] for player in ok(client.get(f"{API}/sessions/{sid}"))["players"]]
    assert seated == ["Ann", "Cid"]
