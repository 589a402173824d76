"""The parts several pages draw alike (``_parts.html``) show what is stored now."""

from __future__ import annotations

import re
from dataclasses import replace

from flask.testing import FlaskClient

from tests.helpers import PageTable as Table
from tests.helpers import meld, meld_id, start, text


def entries_of(client: FlaskClient, table: Table, path: str, language: str = "en") -> str:
    """Return the words of a page's list of entries."""
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200
    found = re.search(r'<ol class="entries"[^>]*>(.*?)</ol>', response.get_data(as_text=True), re.S)
    assert found is not None
    return text(found.group(1))


def book(client: FlaskClient, table: Table, winner: str, hands: dict[str, str]) -> None:
    """Book the end of the game: who went out and the cards left in the other hands."""
    data = {"winner": str(table.players[winner]), "romme": "no", "confirm": "1"}
    data |= {f"hand_{table.players[name]}": cards for name, cards in hands.items()}
    answer = client.post(f"/games/{table.game}/finish", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)


def pages(table: Table) -> list[str]:
    return [f"/sessions/{table.session}", f"/sessions/{table.session}/history"]


def test_a_corrected_entry_shows_its_new_cards_and_player_where_it_was_shown_before(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    for path in pages(table):
        assert "Ann sequence Q♣ K♣ A♣" in entries_of(client, table, path)
    entry = meld_id(client.application, table, 1)
    answer = client.post(
        f"/games/{table.game}/entries/{entry}/edit",
        data={"player": table.players["Bob"], "cards": "jc qc kc"},
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    for path in pages(table):
        said = entries_of(client, table, path)
        assert "Bob sequence J♣ Q♣ K♣" in said
        assert "Ann sequence Q♣ K♣ A♣" not in said


def test_a_renamed_player_is_named_anew_in_every_entry_shown(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    assert "Ann sequence" in entries_of(client, table, pages(table)[0])
    answer = client.post(
        f"/sessions/{table.session}/players/{table.players['Ann']}/name", data={"name": "Anna"}
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    for path in pages(table):
        assert "Anna sequence Q♣ K♣ A♣" in entries_of(client, table, path)


def test_an_entry_is_drawn_in_each_language_it_is_asked_in(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    for path in pages(table):
        assert "Ann sequence Q♣ K♣ A♣ 30 points" in entries_of(client, table, path, "en")
        assert "Ann Folge D♣ K♣ A♣ 30 Punkte" in entries_of(client, table, path, "de")
        assert "Ann sequence Q♣ K♣ A♣ 30 points" in entries_of(client, table, path, "en")


def test_a_watcher_sees_no_way_to_change_an_entry_the_recorder_was_shown(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    recorder = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert f"/games/{table.game}/entries/" in recorder
    watcher = client.application.test_client()
    views = re.findall(r'<a class="share-link" href="[^"]*?(/sessions/[^"]+)"', recorder)
    assert len(views) == 2  # the view link, then the edit link
    watcher.get(views[0].replace("&amp;", "&"))
    watched = watcher.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert "Ann" in watched and "Q♣" in text(watched)
    assert f"/games/{table.game}/entries/" not in watched


def test_the_reopen_button_and_the_undo_in_the_bar_come_and_go_with_the_entries(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    book(client, table, "Ann", {"Bob": "9s", "Cid": "2h"})
    client.post(f"/sessions/{table.session}/games")
    second = replace(table, game=table.game + 1)
    page = f"/sessions/{table.session}"

    def shown() -> tuple[bool, bool]:
        html = client.get(page).get_data(as_text=True)
        # Undo keeps its place in the bar, disabled while there is nothing to undo.
        return f"/games/{table.game}/reopen" in html, 'class="undo-now">' in html

    assert shown() == (True, False)  # game 2 has nothing recorded: game 1 may be reopened
    meld(client, second, "Bob", "7h 7d 7s")
    assert shown() == (False, True)
    assert client.post(f"/games/{second.game}/undo").status_code == 302
    assert shown() == (True, False)


def test_the_standing_marks_the_winner_once_the_session_is_won(client: FlaskClient) -> None:
    table = start(client, target="20")
    meld(client, table, "Ann", "qc kc ac")
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert 'class="leader"' not in html  # nobody has won while the game goes on
    book(client, table, "Ann", {"Bob": "9s", "Cid": "2h"})
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    leader = re.search(r'<tr class="leader">\s*<th scope="row"><bdi[^>]*>(\w+)</bdi>', html)
    assert leader is not None and leader.group(1) == "Ann"
