"""A club's season through /api/v1: a group's evenings ranked by points for places, best k of n."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.helpers import API, SEASON_ONLY, Contract, bearer, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

SIX = ["Anna", "Bert", "Cora", "Dirk", "Emil", "Fred"]


def new_group(client: FlaskClient) -> dict[str, Any]:
    return ok(client.post(f"{API}/groups", json={"name": "Rommé-Club"}), 201)


def evening_of(
    client: FlaskClient, group: dict[str, Any] | None, players: list[str]
) -> dict[str, Any]:
    """Start an evening of one series of one game at tables of 3, in the group if given."""
    body: dict[str, Any] = {
        "name": "Clubabend",
        "players": players,
        "series": 1,
        "games_per_series": 1,
        "table_size": 3,
    }
    if group is not None:
        body |= {"group": group["id"], "group_key": group["edit_key"]}
    return ok(client.post(f"{API}/evenings", json=body), 201)


def play_every_table(client: FlaskClient, evening: dict[str, Any], winner_at: int) -> None:
    """Settle one game at each table, the player in seat ``winner_at`` winning it."""
    for table in evening["series"][0]["tables"]:
        headers = bearer(table["edit_key"])
        session = ok(client.get(f"{API}/sessions/{table['session']}", headers=headers))
        ids = [player["id"] for player in session["players"]]
        game = ok(client.post(f"{API}/sessions/{table['session']}/games", headers=headers), 201)
        winner = ids[winner_at]
        meld = {"player": winner, "cards": "Q♣ K♣ A♣"}
        ok(client.post(f"{API}/games/{game['id']}/melds", json=meld, headers=headers), 201)
        losers = [player for player in ids if player != winner]
        hands = {str(player): card for player, card in zip(losers, ["5♥", "9♠"], strict=False)}
        finish = {"winner": winner, "hands": hands, "romme": False}
        ok(client.post(f"{API}/games/{game['id']}/finish", json=finish, headers=headers))


def season(client: FlaskClient, group: dict[str, Any], query: str = "") -> dict[str, Any]:
    return ok(
        client.get(f"{API}/groups/{group['id']}/season{query}", headers=bearer(group["view_key"]))
    )


def places(client: FlaskClient, evening: dict[str, Any]) -> dict[str, int]:
    """Return each player's points for their place at an evening: players less place plus 1."""
    ranking = ok(
        client.get(f"{API}/evenings/{evening['id']}", headers=bearer(evening["view_key"]))
    )["ranking"]
    return {row["player"]: len(ranking) - row["place"] + 1 for row in ranking}


def test_a_season_sums_each_persons_points_for_places_over_the_groups_evenings(
    client: FlaskClient,
) -> None:
    group = new_group(client)
    first, second = evening_of(client, group, SIX), evening_of(client, group, SIX)
    evening_of(client, None, SIX)  # not the club's: not in its season
    play_every_table(client, first, winner_at=0)
    play_every_table(client, second, winner_at=1)
    earned = [places(client, first), places(client, second)]
    answer = season(client, group)
    assert [each["id"] for each in answer["evenings"]] == [first["id"], second["id"]]
    assert answer["best"] is None and answer["planned"] is None
    rows = {row["player"]: row for row in answer["ranking"]}
    assert set(rows) == set(SIX)
    for name, row in rows.items():
        assert row["evenings"] == [earned[0][name], earned[1][name]]
        assert row["points"] == earned[0][name] + earned[1][name]
        assert row["counted"] == [True, True] and row["played"] == 2
    points = [row["points"] for row in answer["ranking"]]
    assert points == sorted(points, reverse=True)
    assert answer["ranking"][0]["place"] == 1


def test_best_k_counts_only_each_persons_best_evenings(client: FlaskClient) -> None:
    group = new_group(client)
    first, second = evening_of(client, group, SIX), evening_of(client, group, SIX)
    play_every_table(client, first, winner_at=0)
    play_every_table(client, second, winner_at=1)
    earned = [places(client, first), places(client, second)]
    answer = season(client, group, "?best=1&evenings=12")
    assert answer["best"] == 1 and answer["planned"] == 12
    for row in answer["ranking"]:
        name = row["player"]
        assert row["points"] == max(earned[0][name], earned[1][name])
        assert sum(row["counted"]) == 1


def test_names_the_group_merged_are_one_person_over_the_season(client: FlaskClient) -> None:
    group = new_group(client)
    joined = {"group": group["id"], "group_key": group["edit_key"]}
    # A merge takes two names that each played in the group, never at one session.
    for players in (["Anna", "Bert"], ["Anni", "Bert"]):
        session = ok(client.post(f"{API}/sessions", json={"players": players, **joined}), 201)
        headers = bearer(session["edit_key"])
        ok(client.post(f"{API}/sessions/{session['id']}/games", headers=headers), 201)
    merge = {"name": "Anni", "same_as": "Anna"}
    ok(
        client.post(
            f"{API}/groups/{group['id']}/merges", json=merge, headers=bearer(group["edit_key"])
        ),
        201,
    )
    evening_of(client, group, SIX)
    evening_of(client, group, ["Anni", *SIX[1:]])
    rows = season(client, group)["ranking"]
    annas = [row for row in rows if row["player"] in ("Anna", "Anni")]
    assert len(annas) == 1
    assert annas[0]["played"] == 2 and annas[0]["player"] == "Anni"  # the name played last
    # The merged names cannot both play at one of the club's evenings.
    body = {"name": "Abend", "players": [*SIX, "Anni"], "series": 1, "games_per_series": 1}
    refused(client.post(f"{API}/evenings", json={**body, **joined}), 422)


@pytest.mark.parametrize("query", ["?best=3&evenings=2", "?best=0", "?best=seven", "?evenings=1"])
def test_a_season_the_club_cannot_have_is_refused_in_plain_words(
    client: FlaskClient, query: str
) -> None:
    group = new_group(client)
    evening_of(client, group, SIX)
    evening_of(client, group, SIX)
    response = client.get(
        f"{API}/groups/{group['id']}/season{query}", headers=bearer(group["view_key"])
    )
    assert "evenings" in refused(response, 422)


def test_an_evening_joins_a_group_only_with_the_groups_edit_key(client: FlaskClient) -> None:
    group = new_group(client)
    body = {"name": "Abend", "players": SIX, "series": 1, "games_per_series": 1}
    wrong = {"group": group["id"], "group_key": group["view_key"]}
    refused(client.post(f"{API}/evenings", json={**body, **wrong}), 404)
    assert season(client, group)["evenings"] == []


def test_the_season_answers_match_the_openapi_document(client: FlaskClient) -> None:
    contract = Contract(ok(client.get(f"{API}/openapi.json")))
    group = new_group(client)
    evening = evening_of(client, group, SIX)
    path = f"{API}/groups/{{group_id}}/season"
    for query, key, status in [
        ("?best=1", group["view_key"], 200),
        ("", group["edit_key"], 200),
        ("?best=2&evenings=1", group["view_key"], 422),
        ("", evening["edit_key"], 404),
    ]:
        response = client.get(path.format(group_id=group["id"]) + query, headers=bearer(key))
        assert response.status_code == status, response.get_data(as_text=True)
        contract.validate("get", path, status, response.get_json())
    assert {(method, route) for method, route, _ in contract.checked} == SEASON_ONLY
