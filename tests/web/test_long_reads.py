"""Long answers a few at a time: one view link cannot take every thread from the other tables.

A score sheet, its chart and files, the export and a group's statistics grow with what was
played; while as many as allowed are being prepared, one more is refused at once (429 with
Retry-After) and every other request, a meld of another table above all, is answered as usual.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import cli, queries
from scorekeeper.i18n import LANGUAGE_COOKIE
from tests.helpers import API, new_session
from tests.live import Server, send

BUSY = (
    "The server is preparing other long answers (score sheets, charts, files, statistics) right "
    "now. Try again in a moment."
)


class Held:
    """Score sheets of chosen sessions that wait in the middle of their work until let go."""

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.inside = threading.Semaphore(0)
        self.go = threading.Event()

    def wait_until_inside(self, count: int) -> None:
        for _ in range(count):
            assert self.inside.acquire(timeout=20), "a long answer never began"


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    """Make the score sheets of ``held.sessions`` wait until ``held.go`` is set."""
    holding = Held()
    read_sheet = queries.read_sheet

    def waiting(session: Any, *args: Any, **kwargs: Any) -> Any:
        if session.public_id in holding.sessions:
            holding.inside.release()
            holding.go.wait(20)
        return read_sheet(session, *args, **kwargs)

    monkeypatch.setattr(queries, "read_sheet", waiting)
    yield holding
    holding.go.set()


@pytest.fixture
def roomy(app_with: Callable[..., Flask]) -> Flask:
    """Return the app with room for 8 long answers in all: the bounds per session and client."""
    return app_with(LONG_READS_AT_ONCE=8)


def session_with_a_game(client: FlaskClient) -> dict[str, Any]:
    """Start a session through the API and deal its first game; return it with its keys."""
    session = new_session(client, ["Ann", "Bob"])
    headers = {"Authorization": f"Bearer {session['edit_key']}"}
    game = client.post(f"{API}/sessions/{session['id']}/games", headers=headers).get_json()
    return {**session, "game": game["id"], "headers": headers}


def from_address(app: Flask, address: str) -> FlaskClient:
    """Return a client whose requests come from another address."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def sheet(client: FlaskClient, session: dict[str, Any]) -> Any:
    return client.get(f"{API}/sessions/{session['id']}/sheet", headers=session["headers"])


def another_tables_meld(client: FlaskClient, session: dict[str, Any]) -> int:
    body = {"player": session["players"][0]["id"], "cards": "Q♣ K♣ A♣"}
    answer = client.post(
        f"{API}/games/{session['game']}/melds", json=body, headers=session["headers"]
    )
    return answer.status_code


def begun(app: Flask, held: Held, asked: list[tuple[str, dict[str, Any]]]) -> Any:
    """Ask for these sheets (client address, session) at once and wait until all are begun."""
    pool = ThreadPoolExecutor(len(asked))
    futures = [
        pool.submit(sheet, from_address(app, address), session) for address, session in asked
    ]
    held.wait_until_inside(len(asked))
    return pool, futures


def test_a_third_long_answer_of_one_session_is_refused_and_other_tables_record(
    roomy: Flask, held: Held
) -> None:
    app, client = roomy, roomy.test_client()
    long = session_with_a_game(client)
    other = session_with_a_game(client)
    held.sessions.add(long["id"])
    pool, futures = begun(app, held, [("10.0.0.1", long), ("10.0.0.2", long)])

    third = from_address(app, "10.0.0.3")
    refused = sheet(third, long)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    assert refused.get_json() == {"error": BUSY}
    export = third.get(f"{API}/sessions/{long['id']}/export", headers=long["headers"])
    assert export.status_code == 429
    german = third.get(f"{API}/sessions/{long['id']}/export?lang=de", headers=long["headers"])
    assert german.get_json()["error"] != BUSY
    # The other table: its meld, its own sheet, and the long session's quick reads.
    assert another_tables_meld(third, other) == 201
    assert sheet(third, other).status_code == 200
    game = third.get(f"{API}/games/{long['game']}", headers=long["headers"])
    assert game.status_code == 200

    held.go.set()
    assert [future.result().status_code for future in futures] == [200, 200]
    pool.shutdown()
    assert sheet(from_address(app, "10.0.0.9"), long).status_code == 200


def test_the_pages_refuse_a_long_answer_in_the_phones_language_and_say_when_to_retry(
    roomy: Flask, held: Held
) -> None:
    app, client = roomy, roomy.test_client()
    long = session_with_a_game(client)
    held.sessions.add(long["id"])
    pool, futures = begun(app, held, [("10.0.0.1", long), ("10.0.0.2", long)])
    phone = from_address(app, "10.0.0.3")
    phone.get(f"/sessions/{long['id']}?key={long['view_key']}")
    phone.set_cookie(LANGUAGE_COOKIE, "de")
    for path in ("sheet", "chart.svg", "sheet.csv", "export.json"):
        page = phone.get(f"/sessions/{long['id']}/{path}")
        assert page.status_code == 429, path
        assert page.headers["Retry-After"] == "1"
        assert "Bitte gleich noch einmal versuchen." in page.get_data(as_text=True)
    assert phone.get(f"/sessions/{long['id']}/history").status_code == 200
    # Without a key the session is not there, busy or not.
    stranger = from_address(app, "10.0.0.4")
    assert stranger.get(f"/sessions/{long['id']}/sheet").status_code == 404
    held.go.set()
    assert [future.result().status_code for future in futures] == [200, 200]
    pool.shutdown()
    time.sleep(1.1)  # the Retry-After it was given
    assert phone.get(f"/sessions/{long['id']}/sheet").status_code == 200


def test_one_client_prepares_one_long_answer_at_a_time_whichever_session(
    roomy: Flask, held: Held
) -> None:
    app, client = roomy, roomy.test_client()
    first, second = session_with_a_game(client), session_with_a_game(client)
    held.sessions.add(first["id"])
    pool, futures = begun(app, held, [("10.0.0.7", first)])
    assert sheet(from_address(app, "10.0.0.7"), second).status_code == 429
    assert sheet(from_address(app, "10.0.0.8"), second).status_code == 200
    held.go.set()
    assert futures[0].result().status_code == 200
    pool.shutdown()


def test_the_server_prepares_no_more_long_answers_in_all_than_its_setting(
    app_with: Callable[..., Flask], held: Held
) -> None:
    app = app_with(LONG_READS_AT_ONCE=1)
    client = app.test_client()
    first, second = session_with_a_game(client), session_with_a_game(client)
    held.sessions.add(first["id"])
    pool, futures = begun(app, held, [("10.0.0.1", first)])
    assert sheet(from_address(app, "10.0.0.2"), second).status_code == 429
    assert another_tables_meld(from_address(app, "10.0.0.2"), second) == 201
    held.go.set()
    assert futures[0].result().status_code == 200
    pool.shutdown()
    assert sheet(from_address(app, "10.0.0.5"), second).status_code == 200


def test_scorekeeper_serve_keeps_three_quarters_of_its_threads_for_the_tables() -> None:
    assert [cli.long_reads_at_once(threads) for threads in (1, 4, 8, 16)] == [1, 1, 2, 4]


def test_a_real_server_under_parallel_exports_of_one_view_link_records_another_tables_meld(
    sqlite_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "served.sqlite3"
    shutil.copyfile(sqlite_template, database)
    monkeypatch.setenv("SESSION_LIMIT", "off")
    server = Server(tmp_path, f"sqlite:///{database}")
    base = server.start()
    try:
        body = {"players": ["Ann", "Bob"], "rules": {"end": {"target": 100_000}}}
        status, long = send(base, "POST", "/api/v1/sessions", body)
        assert status == 201
        key = long["edit_key"]
        ann = long["players"][0]["id"]
        for _ in range(100):  # a session long enough that its export takes a while
            started, game = send(base, "POST", f"/api/v1/sessions/{long['id']}/games", key=key)
            assert started == 201, game
            send(
                base,
                "POST",
                f"/api/v1/games/{game['id']}/melds",
                {"player": ann, "cards": "Q♣ K♣ A♣"},
                key,
            )
            send(base, "POST", f"/api/v1/games/{game['id']}/finish", {"winner": None}, key)
        _, other = send(base, "POST", "/api/v1/sessions", {"players": ["Cid", "Dan"]})
        _, game = send(base, "POST", f"/api/v1/sessions/{other['id']}/games", key=other["edit_key"])

        together = threading.Barrier(24)

        def export(_: int) -> tuple[int, Any]:
            together.wait(30)  # all 24 at once, as a script behind one view link sends them
            path = f"/api/v1/sessions/{long['id']}/export"
            return send(base, "GET", path, key=long["view_key"])

        with ThreadPoolExecutor(24) as pool:
            exports = pool.map(export, range(24))
            meld = {"player": other["players"][0]["id"], "cards": "7♥ 7♦ 7♠"}
            path = f"/api/v1/games/{game['id']}/melds"
            status, _ = send(base, "POST", path, meld, other["edit_key"])
            statuses = sorted(answer for answer, _ in exports)
    finally:
        server.kill()
    assert status == 201
    assert set(statuses) == {200, 429}, statuses


def test_the_document_names_the_429_of_every_long_answer_of_the_api(client: FlaskClient) -> None:
    document = client.get(f"{API}/openapi.json").get_json()
    for path in (
        "/sessions/{session_id}",
        "/sessions/{session_id}/sheet",
        "/sessions/{session_id}/sheet.csv",
        "/sessions/{session_id}/export",
        "/groups/{group_id}/statistics",
    ):
        said = document["paths"][f"{API}{path}"]["get"]["responses"]["429"]
        assert "Retry-After" in said["headers"], path


def test_another_table_records_while_an_export_is_being_read(
    roomy: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An export read inside SQLite's write lock: every meld waited for the whole export.
    from scorekeeper.transfer import export as exporting

    client = roomy.test_client()
    long, other = session_with_a_game(client), session_with_a_game(client)
    inside, go = threading.Event(), threading.Event()
    read = exporting._read

    def waiting(*args: Any, **kwargs: Any) -> Any:
        answer = read(*args, **kwargs)
        inside.set()
        go.wait(20)
        return answer

    monkeypatch.setattr(exporting, "_read", waiting)
    with ThreadPoolExecutor(2) as pool:
        export = pool.submit(
            from_address(roomy, "10.0.0.1").get,
            f"{API}/sessions/{long['id']}/export",
            headers=long["headers"],
        )
        assert inside.wait(20)
        meld = pool.submit(another_tables_meld, from_address(roomy, "10.0.0.2"), other)
        try:
            assert meld.result(timeout=5) == 201  # while the export is still being read
        finally:
            go.set()
        assert export.result().status_code == 200


def test_another_table_records_while_a_groups_statistics_are_being_read(
    roomy: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = roomy.test_client()
    group = client.post(f"{API}/groups", json={"name": "Runde"}).get_json()
    other = session_with_a_game(client)
    inside, go = threading.Event(), threading.Event()
    read_statistics = queries.read_statistics

    def waiting(*args: Any, **kwargs: Any) -> Any:
        answer = read_statistics(*args, **kwargs)
        inside.set()
        go.wait(20)
        return answer

    monkeypatch.setattr(queries, "read_statistics", waiting)
    with ThreadPoolExecutor(2) as pool:
        statistics = pool.submit(
            from_address(roomy, "10.0.0.1").get,
            f"{API}/groups/{group['id']}/statistics",
            headers={"Authorization": f"Bearer {group['view_key']}"},
        )
        assert inside.wait(20)
        meld = pool.submit(another_tables_meld, from_address(roomy, "10.0.0.2"), other)
        try:
            assert meld.result(timeout=5) == 201  # while the statistics are still being read
        finally:
            go.set()
        assert statistics.result().status_code == 200


def test_a_refusal_is_given_again_without_the_app_until_its_retry_after_has_passed(
    roomy: Flask, held: Held
) -> None:
    client = roomy.test_client()
    long = session_with_a_game(client)
    held.sessions.add(long["id"])
    pool, futures = begun(roomy, held, [("10.0.0.1", long), ("10.0.0.2", long)])
    script = from_address(roomy, "10.0.0.3")
    assert sheet(script, long).status_code == 429
    held.go.set()
    assert [future.result().status_code for future in futures] == [200, 200]
    pool.shutdown()
    # The slots are free again, but the script was told to wait a second: it hears so again.
    again = sheet(script, long)
    assert again.status_code == 429
    assert again.headers["Retry-After"] == "1"
    assert "Set-Cookie" not in again.headers
    assert sheet(from_address(roomy, "10.0.0.4"), long).status_code == 200  # another client
    query = f"{API}/sessions/{long['id']}/sheet?lang=de"
    assert script.get(query, headers=long["headers"]).status_code == 200  # a query goes through
    time.sleep(1.1)
    assert sheet(script, long).status_code == 200


def test_two_processes_of_one_database_prepare_no_more_long_answers_in_all_than_the_setting(
    app_with: Callable[..., Flask], held: Held
) -> None:
    # Two apps on one database stand for two gunicorn workers: they count together.
    first, second = app_with(LONG_READS_AT_ONCE=1), app_with(LONG_READS_AT_ONCE=1)
    long = session_with_a_game(first.test_client())
    other = session_with_a_game(second.test_client())
    held.sessions.add(long["id"])
    pool, futures = begun(first, held, [("10.0.0.1", long)])
    assert sheet(from_address(second, "10.0.0.2"), other).status_code == 429
    assert another_tables_meld(from_address(second, "10.0.0.2"), other) == 201
    held.go.set()
    assert futures[0].result().status_code == 200
    pool.shutdown()
    assert sheet(from_address(second, "10.0.0.3"), other).status_code == 200
