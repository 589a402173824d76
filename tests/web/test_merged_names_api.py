"""Names merged into one person, through /api/v1: one person sits at one table once.

Starting a session, seating a player and renaming one answer 422 naming the merge; a merge of a
name that was dealt no game answers 422 as ``docs/api.md`` says.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.helpers import API, ok, refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

MERGED = (
    "“Anni” and “Anna” count as one person in this group (the names were merged): one person "
    "cannot sit at the table twice."
)
MERGED_DE = (
    "„Anni“ und „Anna“ zählen in dieser Spielrunde als eine Person (die Namen wurden "
    "zusammengeführt): Eine Person kann nicht zweimal am Tisch sitzen."
)


def session_in(client: FlaskClient, group: dict[str, Any], players: list[str]) -> TestResponse:
    return client.post(
        f"{API}/sessions",
        json={"players": players, "group": group["id"], "group_key": group["edit_key"]},
    )


def played(client: FlaskClient, group: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """Start a session of the group and abandon its first game; return the session."""
    session = ok(session_in(client, group, players), 201)
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    ok(client.post(f"{API}/games/{game['id']}/finish", json={"winner": None}))
    return session


def merge(client: FlaskClient, group: dict[str, Any], name: str, same_as: str) -> TestResponse:
    return client.post(
        f"{API}/groups/{group['id']}/merges",
        json={"name": name, "same_as": same_as},
        headers={"Authorization": f"Bearer {group['edit_key']}"},
    )


@pytest.fixture
def group(client: FlaskClient) -> dict[str, Any]:
    """A group where Anna and Anni played apart, and "Anni" was merged into "Anna"."""
    group = ok(client.post(f"{API}/groups", json={"name": "Donnerstagsrunde"}), 201)
    played(client, group, ["Anna", "Bob", "Cid"])
    played(client, group, ["Anni", "Dora"])
    ok(merge(client, group, "Anni", "Anna"), 201)
    return group


def sessions_of(client: FlaskClient, group: dict[str, Any]) -> int:
    answer = client.get(
        f"{API}/groups/{group['id']}", headers={"Authorization": f"Bearer {group['edit_key']}"}
    )
    return len(ok(answer)["sessions"])


def test_a_session_where_both_merged_names_sit_is_refused_naming_the_merge(
    client: FlaskClient, group: dict[str, Any]
) -> None:
    assert refused(session_in(client, group, ["Anna", "Bob", "Anni"]), 422) == MERGED
    assert sessions_of(client, group) == 2
    answer = client.post(
        f"{API}/sessions?lang=de",
        json={
            "players": ["Anna", "Bob", "Anni"],
            "group": group["id"],
            "group_key": group["edit_key"],
        },
    )
    assert refused(answer, 422) == MERGED_DE


def test_a_merged_name_seated_between_games_beside_its_other_name_is_refused(
    client: FlaskClient, group: dict[str, Any]
) -> None:
    session = played(client, group, ["Anna", "Bob", "Cid"])
    seats = f"{API}/sessions/{session['id']}/players"
    assert refused(client.post(seats, json={"name": "Anni"}), 422) == MERGED
    assert refused(client.post(f"{seats}?lang=de", json={"name": "Anni", "seat": 1}), 422) == (
        MERGED_DE
    )
    players = ok(client.get(f"{API}/sessions/{session['id']}"))["players"]
    assert [player["name"] for player in players] == ["Anna", "Bob", "Cid"]
    bob = players[1]["id"]
    renamed = client.patch(f"{seats}/{bob}", json={"name": "Anni"})
    assert refused(renamed, 422) == MERGED
    ok(client.post(seats, json={"name": "Dora"}), 201)  # anyone else sits down as before


def test_a_merge_of_a_name_dealt_no_game_is_refused_with_a_plain_reason(
    client: FlaskClient, group: dict[str, Any]
) -> None:
    waiting = ok(session_in(client, group, ["Annie", "Eve"]), 201)  # no game dealt yet
    said = refused(merge(client, group, "Annie", "Anna"), 422)
    assert said == (
        "“Annie” sat at a table of this group, but no game was dealt there: only names that "
        "played a game can be merged."
    )
    ok(client.post(f"{API}/sessions/{waiting['id']}/games"), 201)
    assert ok(merge(client, group, "Annie", "Anna"), 201)["merges"] == [
        {"name": "Anni", "same_as": "Anna"},
        {"name": "Annie", "same_as": "Anna"},
    ]


def test_a_full_width_spelling_of_a_merged_name_cannot_sit_beside_the_other(
    client: FlaskClient, group: dict[str, Any]
) -> None:
    full_width = "\uff21\uff4e\uff4e\uff49"  # Ａｎｎｉ
    answer = session_in(client, group, ["Anna", "Bob", full_width])
    assert refused(answer, 422) == MERGED.replace("“Anni”", f"“{full_width}”")
    assert sessions_of(client, group) == 2
