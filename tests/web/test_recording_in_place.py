"""The game page's forms answered in place: the script asks for JSON, the same views answer."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from tests.helpers import entries, lay_off, meld_id, start

IN_PLACE = {"Accept": "application/json"}


def test_a_meld_sent_in_place_answers_its_line_and_words_and_a_repeat_counts_once(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    form = {"player": table.players["Ann"], "cards": "qc kc ac", "once": "tap-1"}
    first = client.post(f"/games/{table.game}/melds", data=form, headers=IN_PLACE)
    assert first.status_code == 200
    answer = first.get_json()
    assert "Ann" in answer["said"] and "30" in answer["said"]
    assert answer["line"].startswith("<li ")
    assert "Q" in answer["line"] and "♣" in answer["line"]
    again = client.post(f"/games/{table.game}/melds", data=form, headers=IN_PLACE)
    assert again.get_json() == answer
    assert len(entries(app, table.game)) == 1
    # Without the script the same form goes on to the page, as before.
    plain = client.post(
        f"/games/{table.game}/melds", data={**form, "cards": "5h 5d 5s", "once": "x"}
    )
    assert plain.status_code == 302


def test_a_refusal_in_place_says_why_and_records_nothing(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": "kc kd kh"}
    )
    refused = client.post(
        f"/games/{table.game}/melds",
        data={"player": table.players["Bob"], "cards": "ks kc qc", "once": "tap-2"},
        headers=IN_PLACE,
    )
    assert refused.status_code == 200
    answer = refused.get_json()
    assert answer["refused"] is True
    assert "K" in answer["error"] and "♣" in answer["error"]
    assert "line" not in answer
    assert len(entries(app, table.game)) == 1


def test_an_undo_in_place_names_the_entry_and_its_player(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "9h 9d 9s"}
    )
    entry = entries(app, table.game)
    assert len(entry) == 1
    undone = client.post(f"/games/{table.game}/undo", data={"once": "tap-3"}, headers=IN_PLACE)
    assert undone.status_code == 200
    answer = undone.get_json()
    assert answer["said"].startswith("Undone: Bob")
    assert answer["player"] == table.players["Bob"]
    assert entries(app, table.game) == []
    # "Restore" sends the form that recorded it again: a new entry, checked again.
    restore = answer["restore"]
    assert restore["url"] == f"/games/{table.game}/melds"
    again = client.post(
        restore["url"], data={**restore["fields"], "once": "tap-5"}, headers=IN_PLACE
    )
    assert again.get_json()["line"]
    assert entries(app, table.game) == [("Bob", "9♠ 9♥ 9♦", 27)]
    # The trail keeps both: the undo, then the restore, each naming the meld.
    assert trail(app, table.game) == [
        "undone: Bob's meld 9♠ 9♥ 9♦ (27)",
        "restored: Bob's meld 9♠ 9♥ 9♦ (27)",
    ]


def test_a_delete_in_place_says_where_to_go_back_and_how_to_restore_a_refusal_stays(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    for cards in ("qc kc ac", "7h 7d 7s"):
        client.post(
            f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": cards}
        )
    first, second = meld_id(app, table, 1), meld_id(app, table, 2)
    lay_off(client, table, "Bob", first, "J♣")
    # The clubs are built on: the refusal is an answer for the entry's page; nothing changes.
    refused = client.post(
        f"/games/{table.game}/entries/{first}/delete", data={"once": "d-1"}, headers=IN_PLACE
    )
    assert refused.status_code == 200
    assert refused.get_json()["refused"] is True
    assert len(entries(app, table.game)) == 3
    deleted = client.post(
        f"/games/{table.game}/entries/{second}/delete", data={"once": "d-2"}, headers=IN_PLACE
    )
    answer = deleted.get_json()
    assert answer["said"].startswith("Deleted: Ann")
    assert answer["back"] == f"/sessions/{table.session}#game"
    assert len(entries(app, table.game)) == 2
    # "Restore" records the deleted entry again, as a new entry (not the latest before it).
    restore = answer["restore"]
    assert restore["fields"]["cards"] == "7♠ 7♥ 7♦"
    again = client.post(restore["url"], data={**restore["fields"], "once": "d-3"}, headers=IN_PLACE)
    assert again.get_json()["line"]
    assert entries(app, table.game)[-1] == ("Ann", "7♠ 7♥ 7♦", 21)
    assert trail(app, table.game) == [
        "deleted: Ann's meld 7♠ 7♥ 7♦ (21)",
        "restored: Ann's meld 7♠ 7♥ 7♦ (21)",
    ]


def test_a_restore_naming_an_entry_never_undone_is_refused_and_records_nothing(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": "qc kc ac"}
    )
    kept = meld_id(app, table, 1)
    refused = client.post(
        f"/games/{table.game}/melds",
        data={"player": table.players["Bob"], "cards": "5h 5d 5s", "restores": kept, "once": "r"},
        headers=IN_PLACE,
    )
    assert refused.status_code == 409
    assert refused.get_json()["error"] == (
        f"Entry {kept} was not undone or deleted in this game: there is nothing to restore."
    )
    assert len(entries(app, table.game)) == 1
    assert trail(app, table.game) == []


def trail(app: Flask, game_id: int) -> list[str]:
    """Return a game's audit trail in English words."""
    with app.app_context():
        game = services.with_audit(services.read_game(game_id))
        names = {player.id: player.name for player in game.players}
        return [services.audit_text(line, names, game.variant) for line in game.audit]


def test_a_watcher_cannot_record_in_place(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    stranger = app.test_client()
    sent = stranger.post(
        f"/games/{table.game}/melds",
        data={"player": table.players["Ann"], "cards": "qc kc ac", "once": "tap-4"},
        headers=IN_PLACE,
    )
    assert sent.status_code == 404
    assert entries(app, table.game) == []


def test_the_address_carries_the_entry_begun_across_a_language_switch(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Ann"], "cards": "kc kd kh"}
    )
    with app.app_context():
        meld = services.get_game(table.game).entries[0].id
    page = client.get(
        f"/sessions/{table.session}",
        query_string={"player": table.players["Bob"], "melds": "5h 5d 5c", "cards": "6d 7d"},
    ).get_data(as_text=True)
    assert ">5h 5d 5c</textarea>" in page
    assert 'value="6d 7d"' in page
    chosen = client.get(
        f"/sessions/{table.session}", query_string={"meld": meld, "cards": "ks"}
    ).get_data(as_text=True)
    assert f'id="meld-{meld}"' in chosen
    assert "checked" in chosen.split(f'id="meld-{meld}"')[1].split(">")[0]


def test_a_meld_entry_in_place_names_its_melds_in_the_order_typed_for_a_layoff_waiting_on_them(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    one = client.post(
        f"/games/{table.game}/melds",
        data={"player": table.players["Ann"], "cards": "qc kc ac", "once": "tap-m1"},
        headers=IN_PLACE,
    ).get_json()
    assert one["melds"] == [one["entry"]]
    two = client.post(
        f"/games/{table.game}/melds",
        data={
            "player": table.players["Bob"],
            "melds": "3d 3h 3s",
            "cards": "7h 8h 9h",
            "once": "tap-m2",
        },
        headers=IN_PLACE,
    ).get_json()
    assert len(two["melds"]) == 2 and two["melds"][0] == two["entry"]
    # The second meld typed is the run: a layoff sent with its id lands on it.
    laid = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players["Ann"], "meld": two["melds"][1], "cards": "10h"},
        headers=IN_PLACE,
    ).get_json()
    assert laid["melds"] == []
    with app.app_context():
        layoff = services.get_game(table.game).entries[-1]
        run = next(e for e in services.get_game(table.game).entries if e.id == layoff.meld_id)
        assert [card.card for card in layoff.cards] == ["10♥"]
        assert [card.card for card in run.cards] == ["7♥", "8♥", "9♥"]
