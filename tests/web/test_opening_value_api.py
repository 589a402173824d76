"""What a meld counts towards the opening (G3) in the API's answers about melds: `opening_value`
on each meld recorded, on an entry of several melds, on the game's melds and its meld entries;
not on layoffs and swaps, and not where the rule system has no opening."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, ok, open_table

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


class Rommé:
    """A German Rummy game of Ann, Bob and Cid through the API."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        body = {"players": ["Ann", "Bob", "Cid"], "variant": "german_rummy"}
        session = ok(client.post(f"{API}/sessions", json=body), 201)
        self.ids = {player["name"]: player["id"] for player in session["players"]}
        self.game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)["id"]

    def post(self, path: str, name: str, **body: Any) -> dict[str, Any]:
        response = self.client.post(
            f"{API}/games/{self.game}/{path}", json={"player": self.ids[name], **body}
        )
        return ok(response, 201)

    def read(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/games/{self.game}"))


def test_an_opening_of_two_melds_answers_what_each_and_both_count(client: FlaskClient) -> None:
    table = Rommé(client)
    opened = table.post("melds", "Ann", melds=["Q♣ K♣ A♣", "3♦ 3♥ 3♠"])
    assert [meld["opening_value"] for meld in opened["melds"]] == [31, 9]
    assert opened["opening_value"] == 40
    # An addition: what was there stays as it was.
    assert opened["value"] == 0
    assert [meld["value"] for meld in opened["melds"]] == [0, 0]


def test_a_single_meld_answers_what_it_counts_towards_the_opening(client: FlaskClient) -> None:
    table = Rommé(client)
    melded = table.post("melds", "Ann", cards="10♥ J♥ Q♥ K♥ JKR=A♥")
    assert (melded["value"], melded["opening_value"]) == (0, 51)


def test_the_game_says_what_each_meld_counted_as_put_down_and_each_meld_entry_together(
    client: FlaskClient,
) -> None:
    table = Rommé(client)
    opening = table.post("melds", "Ann", melds=["Q♣ K♣ A♣", "3♦ 3♥ 3♠"])
    set_id = opening["melds"][1]["id"]
    later = table.post("melds", "Ann", cards="6♠ 6♥ JKR")
    table.post("layoffs", "Ann", meld=set_id, cards="3♣")
    table.post("swaps", "Ann", meld=later["id"], cards="6♦", new_meld="8♥ JKR 10♥")
    game = table.read()
    melds = {meld["id"]: meld for meld in game["melds"]}
    # The layoff onto the set lies there, and never counts towards an opening.
    assert melds[set_id]["cards"] == ["3♠", "3♥", "3♦", "3♣"]
    assert melds[set_id]["opening_value"] == 9
    assert melds[later["id"]]["opening_value"] == 18
    entries = {entry["type"]: entry for entry in reversed(game["entries"])}
    assert game["entries"][0]["opening_value"] == 40
    assert entries["meld"]["opening_value"] == 40
    assert "opening_value" not in entries["layoff"]
    assert "opening_value" not in entries["swap"]


def test_layoffs_and_swaps_answer_without_an_opening_value(client: FlaskClient) -> None:
    table = Rommé(client)
    opening = table.post("melds", "Ann", melds=["Q♣ K♣ A♣", "6♠ 6♥ JKR"])
    set_id = opening["melds"][1]["id"]
    laid_off = table.post("layoffs", "Ann", meld=opening["entry"], cards="J♣")
    swapped = table.post("swaps", "Ann", meld=set_id, cards="6♦", new_meld="8♥ JKR 10♥")
    assert "opening_value" not in laid_off
    assert "opening_value" not in laid_off["meld"]
    assert "opening_value" not in swapped["meld"]
    assert "opening_value" not in swapped["new_meld"]


def test_a_rule_system_without_an_opening_keeps_its_answers_as_they_were(
    client: FlaskClient,
) -> None:
    table = open_table(client)
    melded = table.meld(table.ann, "Q♣ K♣ A♣")
    assert "opening_value" not in melded
    game = table.get_game()
    assert "opening_value" not in game["melds"][0]
    assert "opening_value" not in game["entries"][0]


def test_the_openapi_document_names_the_opening_value_of_melds_and_entries(
    client: FlaskClient,
) -> None:
    document = ok(client.get(f"{API}/openapi.json"))
    schemas = document["components"]["schemas"]
    for name in ("Meld", "Entry"):
        assert schemas[name]["properties"]["opening_value"]["type"] == "integer"
    answer = document["paths"]["/api/v1/games/{game_id}/melds"]["post"]["responses"]["201"]
    several = answer["content"]["application/json"]["schema"]["oneOf"][1]
    assert several["properties"]["opening_value"]["type"] == "integer"
    assert several["properties"]["melds"]["items"]["properties"]["opening_value"]
