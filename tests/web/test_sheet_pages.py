"""The score sheet's pages: the grid, the chart, the result to share and the downloads."""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import transfer
from scorekeeper.extensions import db
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.models import GameSession
from scorekeeper.queries.sheet import WORDS
from tests.helpers import API, ok, play_games_through_api, text

SVG = "{http://www.w3.org/2000/svg}"


def opened(client: FlaskClient, session: dict[str, Any], key: str = "edit_key") -> str:
    """Open the session's link on this client (its key goes into the cookie); return the id."""
    answer = client.get(f"/sessions/{session['id']}?key={session[key]}")
    assert answer.status_code == 302
    return str(session["id"])


def running_totals(html: str) -> list[int]:
    """Return the running totals of the sheet's cells, row by row."""
    return [int(value) for value in re.findall(r'<span class="running">(-?\d+)</span>', html)]


def foot_totals(html: str) -> list[int]:
    total_row = re.search(r'<tr class="total">(.*?)</tr>', html, re.S)
    assert total_row is not None
    return [int(value) for value in re.findall(r'<td class="num">(-?\d+)</td>', total_row[1])]


def test_the_sheet_shows_every_game_with_its_points_over_the_running_totals(
    client: FlaskClient,
) -> None:
    session = play_games_through_api(client, "treppenromme", games=5)
    sid = opened(client, session)
    page = client.get(f"/sessions/{sid}/sheet")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    sheet = ok(client.get(f"{API}/sessions/{sid}/sheet"))
    players = [str(player["id"]) for player in session["players"]]
    assert running_totals(html) == [
        game["totals"][player] for game in sheet["games"] for player in players
    ]
    points = re.findall(r"</span>\s*(-?\d+)</span>\s*<span class=\"running\">", html)
    assert [int(value) for value in points] == [
        game["points"][player] for game in sheet["games"] for player in players
    ]
    assert foot_totals(html) == [session["totals"][player] for player in players]
    words = text(html)
    assert "Target: 500" in words
    assert "To go" in words
    for number in range(1, 6):
        assert f'href="/sessions/{sid}/history#game-{number}"' in html
    assert html.count('class="num out"') == 4  # the winners of four games; one was abandoned
    assert "✕" in html


def test_each_row_opens_its_game_in_the_history(client: FlaskClient) -> None:
    session = play_games_through_api(client, "boathouse_rum", games=3)
    sid = opened(client, session)
    history = client.get(f"/sessions/{sid}/history").get_data(as_text=True)
    for number in (1, 2, 3):
        assert f'id="game-{number}"' in history
    assert f'href="/sessions/{sid}/sheet"' in history


def test_the_sheet_marks_the_dealer_the_winner_and_a_romme_hand(client: FlaskClient) -> None:
    created = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    ann, bob = (player["id"] for player in created["players"])
    game = ok(client.post(f"{API}/sessions/{created['id']}/games"), 201)
    melds = {"player": bob, "melds": ["Q♣ K♣ A♣", "7♥ 7♦ 7♠ 7♣"]}
    ok(client.post(f"{API}/games/{game['id']}/melds", json=melds), 201)
    finished = {"winner": bob, "hands": {str(ann): "9♠ 2♦"}, "romme": True}
    booked = ok(client.post(f"{API}/games/{game['id']}/finish", json=finished))
    assert booked["romme"] is True
    sid = opened(client, created)
    html = client.get(f"/sessions/{sid}/sheet").get_data(as_text=True)
    cells = re.findall(r"<td class=\"num[^\"]*\">(.*?)</td>", html, re.S)
    ann_cell, bob_cell = cells[:2]
    assert "◆" in ann_cell and "★" not in ann_cell  # Ann dealt
    assert "★R" in bob_cell and "◆" not in bob_cell  # Bob went out with a Rommé hand
    assert "went out" in text(bob_cell) and "(Rommé hand)" in text(bob_cell)
    # Bob melded 30 + 28 and collects Ann's 9 + 2, doubled for the Rommé hand.
    assert running_totals(html) == [0, 80]
    assert booked["session"]["totals"] == {str(ann): 0, str(bob): 80}


def test_the_view_link_opens_the_sheet_the_chart_and_the_downloads_and_nothing_else_does(
    app: Flask, client: FlaskClient
) -> None:
    session = play_games_through_api(client, "german_rummy", games=2)
    watcher = app.test_client()
    sid = opened(watcher, session, "view_key")
    stranger = app.test_client()
    for path in ("sheet", "chart.svg", "sheet.csv", "export.json"):
        address = f"/sessions/{sid}/{path}"
        answer = watcher.get(address)
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "no-store", path
        assert stranger.get(address).status_code == 404, path
    assert watcher.get("/sessions/no-such-session/sheet").status_code == 404


@pytest.mark.parametrize("variant", ["treppenromme", "german_rummy", "boathouse_rum"])
def test_the_chart_draws_a_line_per_player_to_its_total_with_its_name_at_the_end(
    client: FlaskClient, variant: str
) -> None:
    session = play_games_through_api(client, variant, games=4)
    sid = opened(client, session)
    answer = client.get(f"/sessions/{sid}/chart.svg")
    assert answer.mimetype == "image/svg+xml"
    body = answer.get_data(as_text=True)
    assert "<script" not in body and "style=" not in body and "<style" not in body
    svg = ET.fromstring(body)
    assert svg.get("role") == "img"
    lines = [g for g in svg.iter(f"{SVG}g") if "chart-line" in (g.get("class") or "")]
    sheet = ok(client.get(f"{API}/sessions/{sid}/sheet"))
    assert [int(line.get("data-player") or 0) for line in lines] == [
        player["id"] for player in session["players"]
    ]
    ends: dict[int, float] = {}
    dashes: set[str | None] = set()
    shapes: set[str] = set()
    for line, player in zip(lines, session["players"], strict=True):
        total = session["totals"][str(player["id"])]
        assert int(line.get("data-total") or 0) == total
        label = line.find(f"{SVG}text")
        assert label is not None and label.text == f"{player['name']} {total}"
        path = line.find(f"{SVG}path")
        assert path is not None
        points = re.findall(r"[ML](-?[\d.]+) (-?[\d.]+)", path.get("d") or "")
        assert len(points) == len(sheet["games"]) + 1  # the start at 0, then each game
        ys = [float(y) for _x, y in points]
        # The same total lies at the same height; a higher total lies higher (a smaller y).
        totals = [0, *(game["totals"][str(player["id"])] for game in sheet["games"])]
        for at in range(1, len(ys)):
            assert (ys[at] < ys[at - 1]) == (totals[at] > totals[at - 1])
            assert (ys[at] == ys[at - 1]) == (totals[at] == totals[at - 1])
        ends[total] = ys[-1]
        dashes.add(path.get("stroke-dasharray"))
        marker = line.find(f"{SVG}path[@class='chart-marker']")
        assert marker is not None and marker.get("d")
        shapes.add(re.sub(r"[\d.\s-]+", " ", marker.get("d") or "").split("M")[1])
    # Told apart without colour: each line its own dashes and its own marker shape.
    assert len(dashes) == len(shapes) == len(lines)
    assert sorted(ends, reverse=True) == sorted(ends, key=lambda total: ends[total])


def test_a_session_without_a_game_draws_an_empty_chart(client: FlaskClient) -> None:
    created = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    sid = opened(client, created)
    answer = client.get(f"/sessions/{sid}/chart.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert "chart-line" not in answer.get_data(as_text=True)
    page = client.get(f"/sessions/{sid}/sheet").get_data(as_text=True)
    assert "No games yet." in text(page)
    session_page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'class="chart"' not in session_page
    assert "data-share-text" not in session_page


def test_the_first_game_open_with_nothing_recorded_shows_no_chart_yet(client: FlaskClient) -> None:
    created = ok(client.post(f"{API}/sessions", json={"players": ["Ann", "Bob"]}), 201)
    ok(client.post(f"{API}/sessions/{created['id']}/games"), 201)
    sid = opened(client, created)
    session_page = client.get(f"/sessions/{sid}")
    assert session_page.status_code == 200
    assert 'class="chart"' not in session_page.get_data(as_text=True)
    sheet = client.get(f"/sessions/{sid}/sheet").get_data(as_text=True)
    assert running_totals(sheet) == [0, 0]
    assert 'class="chart"' not in sheet
    chart = client.get(f"/sessions/{sid}/chart.svg")
    assert chart.status_code == 200
    assert chart.get_data(as_text=True).count("chart-line p") == 2


def test_between_games_the_session_page_offers_the_chart_the_result_and_the_files(
    client: FlaskClient,
) -> None:
    session = play_games_through_api(client, "treppenromme", games=4)
    sid = opened(client, session)
    html = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'class="chart"' in html
    assert f'href="/sessions/{sid}/sheet"' in html
    assert f'href="/sessions/{sid}/sheet.csv"' in html
    assert f'href="/sessions/{sid}/export.json"' in html
    assert re.search(r'<script type="module" src="/static/js/\w+/share\.js"', html)
    shared = re.search(r"<textarea[^>]*data-share-text[^>]*>(.*?)</textarea>", html, re.S)
    assert shared is not None
    names = {str(player["id"]): player["name"] for player in session["players"]}
    ranked = sorted(session["totals"].items(), key=lambda item: -item[1])
    ranking = ", ".join(
        f"{place}. {names[pid]} {total}" for place, (pid, total) in enumerate(ranked, start=1)
    )
    assert re.fullmatch(
        rf"Treppenrommé \([^()]+ 2\d\d\d\), 4 games: {re.escape(ranking)}", shared[1]
    )


def test_while_a_game_is_open_the_chart_stays_and_the_sharing_waits(
    client: FlaskClient,
) -> None:
    session = play_games_through_api(client, "boathouse_rum", games=2)
    ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    sid = opened(client, session)
    html = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'class="chart"' in html
    assert "share.js" not in html and "data-share-text" not in html
    assert f'href="/sessions/{sid}/sheet"' in html


@pytest.mark.parametrize(
    ("language", "separator", "name"),
    [
        ("en", ",", "german-rummy-nov-26-2026.csv"),
        ("de", ";", "rommé-26.11.2026.csv"),
    ],
)
def test_the_csv_download_is_for_a_spreadsheet_in_the_pages_language(
    app: Flask, client: FlaskClient, language: str, separator: str, name: str
) -> None:
    session = play_games_through_api(client, "german_rummy", games=3)
    sid = opened(client, session)
    with app.app_context():
        started = db.session.scalars(sa.select(GameSession).filter_by(public_id=sid)).one()
        started.created_at = datetime(2026, 11, 26, 19, 30, tzinfo=UTC)
        db.session.commit()
    client.set_cookie(LANGUAGE_COOKIE, language)
    answer = client.get(f"/sessions/{sid}/sheet.csv")
    assert answer.mimetype == "text/csv"
    data = answer.get_data()
    assert data.startswith(codecs.BOM_UTF8)
    # The name in the page's language (RFC 5987), with an ASCII name beside it.
    disposition = answer.headers["Content-Disposition"]
    assert disposition.isascii()
    assert disposition.startswith('attachment; filename="')
    assert disposition.endswith(f"; filename*=UTF-8''{quote(name)}")
    plain = disposition.split('filename="', 1)[1].split('"', 1)[0]
    assert plain == name.replace("é", "e")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=separator))
    keys = ("game", "dealer", "status", "winner", "romme")
    names = [player["name"] for player in session["players"]]
    assert rows[0] == [WORDS[key].render(language) for key in keys] + names
    assert rows[-1][0] == WORDS["total"].render(language)
    totals = [session["totals"][str(player["id"])] for player in session["players"]]
    assert [int(cell) for cell in rows[-1][5:]] == totals


def test_the_export_download_is_the_sessions_document(app: Flask, client: FlaskClient) -> None:
    play_games_through_api(client, "treppenromme", games=1)
    session = play_games_through_api(client, "boathouse_rum", games=2)
    sid = opened(client, session)
    answer = client.get(f"/sessions/{sid}/export.json")
    assert answer.mimetype == "application/json"
    assert answer.headers["Content-Disposition"].startswith("attachment; filename=boathouse_rum-")
    document = json.loads(answer.get_data().decode("utf-8"))
    with app.app_context():
        pk = db.session.scalar(sa.select(GameSession.id).filter_by(public_id=sid))
        assert pk is not None
        expected = transfer.export_sessions(pk)
    assert [exported["public_id"] for exported in document["sessions"]] == [sid]
    assert document == expected


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_sheet_and_the_session_page_have_no_inline_script_or_style(
    client: FlaskClient, language: str
) -> None:
    session = play_games_through_api(client, "treppenromme", games=3)
    sid = opened(client, session)
    client.set_cookie(LANGUAGE_COOKIE, language)
    for address in (f"/sessions/{sid}/sheet", f"/sessions/{sid}", f"/sessions/{sid}/chart.svg"):
        html = client.get(address).get_data(as_text=True)
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], address
        assert "<style" not in html, address
        assert re.findall(r"\s(on[a-z]+|style)=", html) == [], address
    sheet_page = client.get(f"/sessions/{sid}/sheet").get_data(as_text=True)
    assert f'<html lang="{language}">' in sheet_page
    totals = [session["totals"][str(player["id"])] for player in session["players"]]
    assert foot_totals(sheet_page) == totals


def test_names_with_markup_stay_text_on_the_sheet_in_the_chart_and_in_the_result(
    client: FlaskClient,
) -> None:
    names = ['<b>Ann</b> & "Co"', "Bob</text><script>x</script>"]
    created = ok(client.post(f"{API}/sessions", json={"players": names}), 201)
    ann, bob = (player["id"] for player in created["players"])
    game = ok(client.post(f"{API}/sessions/{created['id']}/games"), 201)
    ok(
        client.post(f"{API}/games/{game['id']}/melds", json={"player": ann, "cards": "Q♣ K♣ A♣"}),
        201,
    )
    ok(
        client.post(
            f"{API}/games/{game['id']}/finish", json={"winner": ann, "hands": {str(bob): 8}}
        )
    )
    sid = opened(client, created)
    for address in (f"/sessions/{sid}/sheet", f"/sessions/{sid}", f"/sessions/{sid}/chart.svg"):
        html = client.get(address).get_data(as_text=True)
        assert "<b>Ann" not in html and "<script>x" not in html, address
        assert "&lt;b&gt;Ann&lt;/b&gt; &amp; " in html or "&lt;b&gt;Ann…" in html, address
    chart = ET.fromstring(client.get(f"/sessions/{sid}/chart.svg").get_data(as_text=True))
    titles = [title.text for title in chart.iter(f"{SVG}title")]
    assert f"{names[0]} 38" in titles and f"{names[1]} 0" in titles
