"""Several melds put down at once, recorded as one entry (`"melds"`), in every rule system."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.models import Entry
from tests.helpers import API, ok, open_table, refused
from tests.helpers import ApiTable as Table
from tests.rows import count

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def melds(table: Table, player: int, *melds: Any) -> Any:
    return table.post("melds", {"player": player, "melds": list(melds)})


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return open_table(client)


def test_several_melds_are_one_entry_with_each_meld_on_the_table(table: Table):
    answer = ok(melds(table, table.ann, "Q♣ K♣ A♣", ["3♦", "3♥", "3♠"]), 201)
    first, second = answer["melds"]
    assert answer["entry"] == first["id"]
    assert (first["kind"], first["cards"], first["value"]) == ("sequence", ["Q♣", "K♣", "A♣"], 30)
    assert (second["kind"], second["value"]) == ("set", 9)
    assert answer["value"] == 39
    game = table.get_game()
    assert [meld["id"] for meld in game["melds"]] == [first["id"], second["id"]]
    (entry,) = game["entries"]
    assert entry["id"] == answer["entry"]
    assert entry["melds"] == [first["id"], second["id"]]
    assert entry["cards"] == ["Q♣", "K♣", "A♣", "3♠", "3♥", "3♦"]
    assert (entry["type"], entry["value"], entry["player"]) == ("meld", 39, table.ann)
    assert game["points"][str(table.ann)] == 39


def test_a_single_meld_entry_lists_its_meld_too(table: Table):
    meld = table.meld(table.bob, "7♠ 7♥ 7♦")
    assert table.get_game()["entries"][0]["melds"] == [meld["id"]]


def test_a_layoff_goes_onto_any_meld_of_such_an_entry(table: Table):
    answer = ok(melds(table, table.ann, "Q♣ K♣ A♣", "3♦ 3♥ 3♠"), 201)
    layoff = table.layoff(table.bob, answer["melds"][1]["id"], "3♣")
    assert layoff["meld"]["cards"] == ["3♠", "3♥", "3♦", "3♣"]


@pytest.mark.parametrize(
    "body",
    [
        {"melds": ["Q♣ K♣ A♣", "A♣ 2♣ 3♣"]},  # a card twice
        {"melds": ["Q♣ K♣ A♣", "3♦ 3♥"]},  # a meld of two
        {"melds": ["Q♣ K♣ A♣", "X♦ 3♥ 3♠"]},  # unreadable
        {"melds": []},
        {"melds": "Q♣ K♣ A♣"},
        {"melds": ["Q♣ K♣ A♣", 7]},
        {"melds": ["Q♣ K♣ A♣"], "cards": "3♦ 3♥ 3♠"},
    ],
)
def test_a_wrong_meld_refuses_the_whole_entry_and_writes_nothing(
    table: Table, body: dict[str, Any]
):
    refused(table.post("melds", {"player": table.ann, **body}), 422)
    assert table.get_game()["entries"] == []
    assert count(table.client.application, Entry) == 0


def test_undo_and_delete_take_the_whole_entry_back(table: Table):
    first = ok(melds(table, table.ann, "Q♣ K♣ A♣", "3♦ 3♥ 3♠"), 201)
    undone = ok(table.post("undo", {"entry": first["entry"]}))
    assert undone["undone"] == first["entry"]
    assert undone["game"]["melds"] == []
    again = ok(melds(table, table.ann, "Q♣ K♣ A♣", "3♦ 3♥ 3♠"), 201)
    assert table.delete(again["melds"][1]["id"]).status_code == 204
    assert table.get_game()["entries"] == []
    third = ok(melds(table, table.ann, "Q♣ K♣ A♣", "3♦ 3♥ 3♠"), 201)
    assert table.delete(third["entry"]).status_code == 204
    assert count(table.client.application, Entry) == 0


def test_an_entry_of_several_melds_with_a_layoff_on_one_is_not_deleted(table: Table):
    answer = ok(melds(table, table.ann, "Q♣ K♣ A♣", "3♦ 3♥ 3♠"), 201)
    table.layoff(table.bob, answer["melds"][1]["id"], "3♣")
    refused(table.delete(answer["entry"]), 409)
    assert len(table.get_game()["melds"]) == 2


def test_an_entry_of_several_melds_is_not_corrected_in_place(table: Table):
    answer = ok(melds(table, table.ann, "Q♣ K♣ A♣", "3♦ 3♥ 3♠"), 201)
    for entry in (answer["entry"], answer["melds"][1]["id"]):
        error = refused(table.correct(entry, {"player": table.bob}), 409)
        assert "several melds" in error


def test_boathouse_rum_records_several_melds_worth_nothing(client: FlaskClient):
    session = ok(
        client.post(f"{API}/sessions", json={"players": ["A", "B"], "variant": "boathouse_rum"}),
        201,
    )
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    player = session["players"][0]["id"]
    body = {"player": player, "melds": ["K♠ A♠ 2♠", "9♦ 9♥ 9♣"]}
    answer = ok(client.post(f"{API}/games/{game['id']}/melds", json=body), 201)
    assert answer["value"] == 0
    assert [meld["value"] for meld in answer["melds"]] == [0, 0]
