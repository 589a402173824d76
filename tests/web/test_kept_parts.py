"""Parts of pages drawn once and kept (web/kept.py) show what is stored now, never an old copy."""

from __future__ import annotations

import re
from dataclasses import replace

from flask.testing import FlaskClient

from scorekeeper.web.kept import KEPT
from tests.helpers import PageTable as Table
from tests.helpers import book, finish_data, meld, meld_id, start, text


def entries_of(client: FlaskClient, table: Table, path: str, language: str = "en") -> str:
    """Return the words of a page's list of entries."""
    response = client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200
    found = re.search(r'<ol class="entries"[^>]*>(.*?)</ol>', response.get_data(as_text=True), re.S)
    assert found is not None
    return text(found.group(1))


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


def test_a_pages_address_is_never_kept(client: FlaskClient) -> None:
    """What a visitor writes into the address (and a key in a link) is not kept in memory."""
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    page = f"/sessions/{table.session}"
    first = client.get(f"{page}?x=first")
    assert first.status_code == 200
    stores = client.application.extensions[KEPT]
    kept_before = {macro: store.cache_info().currsize for macro, store in stores.items()}
    for number in range(5):
        answer = client.get(f"{page}?x={number}-{'%22' * 500}")
        assert answer.status_code == 200
        assert "Ann sequence Q♣ K♣ A♣" in text(answer.get_data(as_text=True))
    assert {macro: store.cache_info().currsize for macro, store in stores.items()} == kept_before


def test_the_reopen_button_and_the_undo_in_the_bar_come_and_go_with_the_entries(
    client: FlaskClient,
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    book(client, table, finish_data(table, "Ann", {"Bob": "9s", "Cid": "2h"}, romme="no"))
    client.post(f"/sessions/{table.session}/games")
    second = replace(table, game=table.game + 1)
    page = f"/sessions/{table.session}"

    def shown() -> tuple[bool, bool]:
        html = client.get(page).get_data(as_text=True)
        return f"/games/{table.game}/reopen" in html, 'class="undo-now"' in html

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
    book(client, table, finish_data(table, "Ann", {"Bob": "9s", "Cid": "2h"}, romme="no"))
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    leader = re.search(r'<tr class="leader">\s*<th scope="row"><bdi[^>]*>(\w+)</bdi>', html)
    assert leader is not None and leader.group(1) == "Ann"
