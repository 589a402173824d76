"""The score sheet through the JSON API: the grid, its CSV and the session's export."""

from __future__ import annotations

import codecs
import csv
import io
import itertools

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transfer
from scorekeeper.queries.sheet import WORDS
from tests.helpers import API, ok, play_games_through_api

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.mark.parametrize("variant", ["treppenromme", "german_rummy", "boathouse_rum"])
def test_the_sheet_adds_up_the_sessions_games_to_its_totals(
    client: FlaskClient, variant: str
) -> None:
    session = play_games_through_api(client, variant, games=5)
    sheet = ok(client.get(f"{API}/sessions/{session['id']}/sheet"))
    assert sheet["session"] == session["id"]
    assert sheet["variant"] == variant
    assert sheet["players"] == session["players"]
    assert [game["number"] for game in sheet["games"]] == [1, 2, 3, 4, 5]
    keys = ("id", "number", "dealer", "status", "winner", "romme", "points")
    assert [{key: game[key] for key in keys} for game in sheet["games"]] == [
        {key: game[key] for key in keys} for game in session["games"]
    ]
    for player in session["players"]:
        pid = str(player["id"])
        points = [game["points"][pid] for game in sheet["games"]]
        running = list(itertools.accumulate(points))
        assert [game["totals"][pid] for game in sheet["games"]] == running
        assert running[-1] == session["totals"][pid] == sheet["totals"][pid]
    assert sheet["games"][2]["status"] == "abandoned"
    assert sheet["target"] == session["target"]
    assert sheet["winner"] is None


def test_the_sheet_says_the_limit_or_the_games_left_as_the_session_does(
    client: FlaskClient,
) -> None:
    german = play_games_through_api(client, "german_rummy", games=2)
    sheet = ok(client.get(f"{API}/sessions/{german['id']}/sheet"))
    assert (sheet["target"], sheet["limit"]) == (None, -500)
    assert "games_left" not in sheet
    counted = play_games_through_api(client, "boathouse_rum", games=3, end={"games": 7})
    sheet = ok(client.get(f"{API}/sessions/{counted['id']}/sheet"))
    assert sheet["games_left"] == counted["games_left"] == 4
    assert sheet["target"] is None
    assert "limit" not in sheet


def test_the_view_key_reads_the_sheet_the_csv_and_the_export(
    app: Flask, client: FlaskClient
) -> None:
    session = play_games_through_api(client, "treppenromme", games=2)
    stranger = app.test_client()
    view = {"Authorization": f"Bearer {session['view_key']}"}
    wrong = {"Authorization": "Bearer not-the-key"}
    for path in ("sheet", "sheet.csv", "export"):
        address = f"{API}/sessions/{session['id']}/{path}"
        assert stranger.get(address, headers=view).status_code == 200, path
        assert stranger.get(address).status_code == 404, path
        answer = stranger.get(address, headers=wrong)
        assert answer.status_code == 404, path
        assert answer.get_json()["error"]
        assert (
            stranger.get(f"{API}/sessions/no-such-session/{path}", headers=view).status_code == 404
        )


def test_the_sheet_answers_304_while_nothing_changed(client: FlaskClient) -> None:
    session = play_games_through_api(client, "boathouse_rum", games=1)
    address = f"{API}/sessions/{session['id']}/sheet"
    first = client.get(address)
    assert first.status_code == 200 and first.headers["ETag"]
    assert client.get(address, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    after = client.get(address, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200
    assert after.get_json()["games"][-1] == {
        "id": game["id"],
        "number": 2,
        "dealer": game["dealer"],
        "winner": None,
        "romme": None,
        "status": "open",
        "points": {str(player["id"]): 0 for player in session["players"]},
        "totals": session["totals"],
    }


def test_the_csv_is_games_by_players_in_utf_8_with_the_headers_in_the_language_asked(
    client: FlaskClient,
) -> None:
    session = play_games_through_api(client, "german_rummy", games=4)
    answer = client.get(f"{API}/sessions/{session['id']}/sheet.csv")
    assert answer.status_code == 200
    assert answer.mimetype == "text/csv"
    assert answer.mimetype_params.get("charset", "utf-8").lower() == "utf-8"
    assert answer.headers["Content-Disposition"].startswith("attachment; filename=german_rummy-")
    rows = list(csv.reader(io.StringIO(answer.get_data().decode("utf-8"))))
    names = [player["name"] for player in session["players"]]
    assert rows[0] == ["Game", "Dealer", "Status", "Winner", "Rommé", *names]
    for row, game in zip(rows[1:-1], session["games"], strict=True):
        assert int(row[0]) == game["number"]
        points = [game["points"][str(player["id"])] for player in session["players"]]
        assert [int(cell) for cell in row[5:]] == points
    assert rows[-1][0] == "Total"
    totals = [session["totals"][str(player["id"])] for player in session["players"]]
    assert [int(cell) for cell in rows[-1][5:]] == totals
    german = client.get(f"{API}/sessions/{session['id']}/sheet.csv?lang=de").get_data(as_text=True)
    header = next(csv.reader(io.StringIO(german)))
    assert (
        header
        == [WORDS[key].render("de") for key in ("game", "dealer", "status", "winner", "romme")]
        + names
    )


@pytest.mark.parametrize(("language", "separator"), [("en", ","), ("de", ";")])
def test_the_csv_for_a_spreadsheet_has_a_byte_order_mark_and_the_languages_separator(
    client: FlaskClient, language: str, separator: str
) -> None:
    session = play_games_through_api(client, "german_rummy", games=2)
    address = f"{API}/sessions/{session['id']}/sheet.csv?lang={language}"
    plain = client.get(address).get_data()
    assert not plain.startswith(codecs.BOM_UTF8)
    assert next(csv.reader(io.StringIO(plain.decode("utf-8"))))[0] == WORDS["game"].render(language)
    answer = client.get(f"{address}&spreadsheet=1")
    assert answer.status_code == 200
    data = answer.get_data()
    assert data.startswith(codecs.BOM_UTF8)
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=separator))
    names = [player["name"] for player in session["players"]]
    assert rows[0][5:] == names
    totals = [session["totals"][str(player["id"])] for player in session["players"]]
    assert [int(cell) for cell in rows[-1][5:]] == totals


def test_the_export_is_the_document_scorekeeper_import_reads_with_this_session_alone(
    app: Flask, client: FlaskClient
) -> None:
    play_games_through_api(client, "boathouse_rum", games=2)
    session = play_games_through_api(client, "treppenromme", games=3)
    answer = ok(client.get(f"{API}/sessions/{session['id']}/export"))
    assert answer["format"] == transfer.FORMAT
    assert answer["version"] == transfer.VERSION
    assert [exported["public_id"] for exported in answer["sessions"]] == [session["id"]]
    with app.app_context():
        everything = transfer.export_sessions()
    assert answer["sessions"][0] == next(
        exported for exported in everything["sessions"] if exported["public_id"] == session["id"]
    )
