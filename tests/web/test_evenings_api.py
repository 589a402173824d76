"""Club evenings through /api/v1: the draw, the tables as sessions, the ranking, the next series."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, EVENINGS_ONLY, Contract, bearer, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

ELEVEN = [f"Player {number}" for number in range(1, 12)]


def new_evening(client: FlaskClient, **body: Any) -> dict[str, Any]:
    fields = {
        "name": "Spielabend im März",
        "players": ELEVEN,
        "series": 2,
        "games_per_series": 1,
        "table_size": 4,
        "seating": "standing",
        **body,
    }
    return ok(client.post(f"{API}/evenings", json=fields), 201)


def read(client: FlaskClient, evening: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    return ok(
        client.get(f"{API}/evenings/{evening['id']}", headers=bearer(key or evening["edit_key"]))
    )


def play_one_game(client: FlaskClient, table: dict[str, Any], winner_at: int = 0) -> None:
    """Deal a table's game, meld for one player and settle it with every other hand counted."""
    headers = bearer(table["edit_key"])
    session = ok(client.get(f"{API}/sessions/{table['session']}", headers=headers))
    ids = [player["id"] for player in session["players"]]
    game = ok(client.post(f"{API}/sessions/{table['session']}/games", headers=headers), 201)
    winner = ids[winner_at]
    meld = {"player": winner, "cards": "Q♣ K♣ A♣"}
    ok(client.post(f"{API}/games/{game['id']}/melds", json=meld, headers=headers), 201)
    losers = [player for player in ids if player != winner]
    hands = {str(player): card for player, card in zip(losers, ["5♥", "7♦", "9♠"], strict=False)}
    finish = {"winner": winner, "hands": hands, "romme": False}
    ok(client.post(f"{API}/games/{game['id']}/finish", json=finish, headers=headers))


def test_an_evening_draws_series_1_into_tables_of_4_and_3(client: FlaskClient) -> None:
    evening = new_evening(client)
    assert {"id", "edit_key", "view_key"} <= set(evening)
    (series,) = evening["series"]
    assert series["number"] == 1
    assert [len(table["players"]) for table in series["tables"]] == [4, 4, 3]
    seated = [name for table in series["tables"] for name in table["players"]]
    assert sorted(seated) == sorted(ELEVEN)
    assert all(table["edit_key"] for table in series["tables"])
    assert [row["place"] for row in evening["ranking"]] == [1] * 11


def test_each_table_is_a_session_opened_by_its_own_key(client: FlaskClient) -> None:
    evening = new_evening(client)
    first, second, _third = evening["series"][0]["tables"]
    session = ok(
        client.get(f"{API}/sessions/{first['session']}", headers=bearer(first["edit_key"]))
    )
    assert [player["name"] for player in session["players"]] == first["players"]
    other = client.get(f"{API}/sessions/{first['session']}", headers=bearer(second["edit_key"]))
    refused(other, 404)


def test_the_view_key_reads_the_evening_without_the_tables_keys(client: FlaskClient) -> None:
    evening = new_evening(client)
    viewed = read(client, evening, evening["view_key"])
    assert all("edit_key" not in table for table in viewed["series"][0]["tables"])
    assert viewed["ranking"]
    refused(
        client.post(f"{API}/evenings/{evening['id']}/series", headers=bearer(evening["view_key"])),
        404,
    )
    refused(client.get(f"{API}/evenings/{evening['id']}", headers=bearer("wrong")), 404)


def test_the_next_series_waits_for_every_table_then_seats_by_the_standing(
    client: FlaskClient,
) -> None:
    evening = new_evening(client)
    tables = evening["series"][0]["tables"]
    play_one_game(client, tables[0])
    early = client.post(
        f"{API}/evenings/{evening['id']}/series", headers=bearer(evening["edit_key"])
    )
    assert "tables 2 and 3" in refused(early, 409)
    for table in tables[1:]:
        play_one_game(client, table)
    after = read(client, evening)
    assert all(table["ended"] for table in after["series"][0]["tables"])
    assert after["next_series_possible"]
    standing = [row["player"] for row in after["ranking"]]
    seated = ok(
        client.post(f"{API}/evenings/{evening['id']}/series", headers=bearer(evening["edit_key"])),
        201,
    )
    second = seated["series"][1]
    assert second["number"] == 2 and not second["drawn"]
    assert [sorted(table["players"]) for table in second["tables"]] == [
        sorted(standing[0:4]),
        sorted(standing[4:8]),
        sorted(standing[8:11]),
    ]
    # The tables of series 1 are over: no further game is dealt there.
    over = client.post(
        f"{API}/sessions/{tables[0]['session']}/games", headers=bearer(tables[0]["edit_key"])
    )
    refused(over, 409)


def test_the_ranking_sums_the_series_and_counts_the_games_won(client: FlaskClient) -> None:
    evening = new_evening(client)
    tables = evening["series"][0]["tables"]
    for table in tables:
        play_one_game(client, table)
    ranking = read(client, evening)["ranking"]
    winners = {table["players"][0] for table in tables}
    assert {row["player"] for row in ranking if row["games_won"] == 1} == winners
    for row in ranking:
        assert row["total"] == sum(row["series"])
        assert len(row["series"]) == 1
    totals = [row["total"] for row in ranking]
    assert totals == sorted(totals, reverse=True)


def test_series_1_is_drawn_again_until_play_begins(client: FlaskClient) -> None:
    evening = new_evening(client)
    url = f"{API}/evenings/{evening['id']}/draw"
    before = evening["series"][0]
    redrawn = ok(client.post(url, headers=bearer(evening["edit_key"])))["series"][0]
    assert redrawn["seed"] != before["seed"]
    # The tables keep their sessions and keys: the QR codes printed still open them.
    assert [t["session"] for t in redrawn["tables"]] == [t["session"] for t in before["tables"]]
    table = redrawn["tables"][1]
    session = ok(
        client.get(f"{API}/sessions/{table['session']}", headers=bearer(table["edit_key"]))
    )
    assert [player["name"] for player in session["players"]] == table["players"]
    play_one_game(client, table)
    assert "table 2" in refused(client.post(url, headers=bearer(evening["edit_key"])), 409)


def test_a_table_of_an_evening_keeps_its_players_and_its_end(client: FlaskClient) -> None:
    evening = new_evening(client)
    table = evening["series"][0]["tables"][0]
    url, headers = f"{API}/sessions/{table['session']}", bearer(table["edit_key"])
    assert "evening" in refused(
        client.post(f"{url}/players", json={"name": "Zoe"}, headers=headers), 409
    )
    session = ok(client.get(url, headers=headers))
    first = session["players"][0]["id"]
    renamed = client.patch(f"{url}/players/{first}", json={"name": "Zoe"}, headers=headers)
    assert "evening" in refused(renamed, 409)
    assert "evening" in refused(client.delete(f"{url}/players/{first}", headers=headers), 409)
    ended = client.patch(url, json={"rules": {"end": {"target": 100}}}, headers=headers)
    assert "evening" in refused(ended, 409)


def test_a_series_of_games_ends_at_a_table_even_on_a_tie_at_its_top(client: FlaskClient) -> None:
    evening = new_evening(client, players=ELEVEN[:6], table_size=3)
    table = evening["series"][0]["tables"][0]
    url, headers = f"{API}/sessions/{table['session']}", bearer(table["edit_key"])
    game = ok(client.post(f"{url}/games", headers=headers), 201)
    ok(client.post(f"{API}/games/{game['id']}/finish", json={"winner": None}, headers=headers))
    session = ok(client.get(url, headers=headers))
    assert session["status"] == "finished"
    assert all(total == 0 for total in session["totals"].values())


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": ELEVEN[:5]}, "6 to 60"),
        ({"table_size": 3}, "table"),
        ({"seating": "best"}, "seat"),
        ({"games_per_series": None, "minutes_per_series": None}, "series"),
        ({"house_rules": {"end": {"target": 500}}}, "evening"),
        ({"name": "  "}, "name"),
    ],
)
def test_an_evening_planned_wrong_is_refused_in_plain_words(
    client: FlaskClient, body: dict[str, Any], words: str
) -> None:
    fields = {
        "name": "Abend",
        "players": ELEVEN,
        "series": 2,
        "games_per_series": 1,
        "table_size": 4,
        **body,
    }
    fields = {key: value for key, value in fields.items() if value is not None}
    error = refused(client.post(f"{API}/evenings", json=fields), 422)
    assert words in error.lower() or words in error


def test_the_answers_about_evenings_match_the_openapi_document(client: FlaskClient) -> None:
    contract = Contract(ok(client.get(f"{API}/openapi.json")))

    def call(
        method: str, path: str, status: int, json: Any = None, key: str = "", **ids: Any
    ) -> Any:
        response = client.open(
            path.format(**ids), method=method.upper(), json=json, headers=bearer(key) if key else {}
        )
        assert response.status_code == status, response.get_data(as_text=True)
        body = response.get_json(silent=True) if response.data else None
        contract.validate(method, path, status, body)
        return body

    evenings, path = f"{API}/evenings", f"{API}/evenings/{{evening_id}}"
    body = {"name": "Abend", "players": ELEVEN[:6], "series": 2, "minutes_per_series": 60}
    evening = call("post", evenings, 201, body)
    call("post", evenings, 422, {**body, "players": ELEVEN[:3]})
    eid, edit, view = evening["id"], evening["edit_key"], evening["view_key"]
    call("get", path, 200, key=view, evening_id=eid)
    call("get", path, 200, key=edit, evening_id=eid)
    call("get", path, 404, evening_id=eid)
    call("post", path + "/draw", 200, key=edit, evening_id=eid)
    call("post", path + "/draw", 404, key=view, evening_id=eid)
    call("post", path + "/series", 409, key=edit, evening_id=eid)
    call("post", path + "/series", 404, evening_id=eid)
    table = evening["series"][0]["tables"][0]
    play_one_game(client, table)
    call("post", path + "/draw", 409, key=edit, evening_id=eid)
    assert {(method, route) for method, route, _ in contract.checked} == EVENINGS_ONLY
