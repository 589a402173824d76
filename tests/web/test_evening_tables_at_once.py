"""Three tables of an evening recording at once, each from its own process, on a real server."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests.live import send

# Each table's phone is a process of its own, playing its game through tests.live.play_a_table.
PLAY = (
    "import json, sys; from tests.live import play_a_table; "
    "print(json.dumps(play_a_table(*sys.argv[1:4], json.loads(sys.argv[4]), float(sys.argv[5]))))"
)

# Every case runs on SQLite and on a real PostgreSQL server (three gunicorn workers there).
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def test_three_tables_recording_at_once_all_count_in_the_ranking(live_server: str) -> None:
    body = {
        "name": "Spielabend",
        "players": [f"P{number}" for number in range(1, 10)],
        "series": 2,
        "games_per_series": 1,
        "table_size": 3,
    }
    status, evening = send(live_server, "POST", "/api/v1/evenings", body)
    assert status == 201, evening
    tables = evening["series"][0]["tables"]
    players = []
    for table in tables:  # read one after the other: the game is what is played at once
        status, session = send(
            live_server, "GET", f"/api/v1/sessions/{table['session']}", key=table["edit_key"]
        )
        assert status == 200, session
        players.append(json.dumps([player["id"] for player in session["players"]]))
    start_at = time.time() + 2.0
    phones = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                PLAY,
                live_server,
                table["session"],
                table["edit_key"],
                ids,
                str(start_at),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for table, ids in zip(tables, players, strict=True)
    ]
    results = [json.loads(phone.communicate(timeout=60)[0]) for phone in phones]
    assert results == [[201, 201, 201, 201, 200]] * 3
    status, after = send(
        live_server, "GET", f"/api/v1/evenings/{evening['id']}", key=evening["view_key"]
    )
    assert status == 200
    assert all(table["ended"] for table in after["series"][0]["tables"])
    winners = {table["players"][0] for table in tables}
    assert {row["player"] for row in after["ranking"] if row["games_won"] == 1} == winners
    assert [row["place"] for row in after["ranking"][:3]] == [1, 1, 1]
    status, seated = send(
        live_server, "POST", f"/api/v1/evenings/{evening['id']}/series", key=evening["edit_key"]
    )
    assert status == 201, seated
    assert sorted(seated["series"][1]["tables"][0]["players"]) == sorted(winners)
