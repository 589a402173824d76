"""Idempotency-Key: a request sent again, even at the same moment, is applied once."""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.api import idempotency
from scorekeeper.extensions import db
from scorekeeper.http import once
from scorekeeper.keys import digest
from scorekeeper.models import IdempotencyRecord, utcnow
from tests import live
from tests.rows import unanswer

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def new_game(client: FlaskClient) -> tuple[int, list[int]]:
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob", "Cid"]}).json
    game = client.post(f"/api/v1/sessions/{session['id']}/games").json
    return game["id"], [player["id"] for player in session["players"]]


def stored(client: Any, key: str, endpoint: str = "api.record_meld") -> str:
    """Return what is stored of a key sent with the edit key of the client's one session."""
    (edit_key,) = client.keys.values()
    return idempotency.stored_key(endpoint, digest(edit_key), key)


def test_a_repeated_meld_gets_the_first_answer_and_is_recorded_once(client: FlaskClient) -> None:
    game_id, (ann, _bob, _cid) = new_game(client)
    headers = {"Idempotency-Key": "meld-1"}
    body = {"player": ann, "cards": "6♠ 6♥ 6♦"}
    first = client.post(f"/api/v1/games/{game_id}/melds", json=body, headers=headers)
    again = client.post(f"/api/v1/games/{game_id}/melds", json=body, headers=headers)

    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    game = client.get(f"/api/v1/games/{game_id}").json
    assert len(game["entries"]) == 1
    assert game["points"][str(ann)] == 18


def test_a_repeated_undo_takes_back_one_entry(client: FlaskClient) -> None:
    game_id, (ann, bob, _cid) = new_game(client)
    client.post(f"/api/v1/games/{game_id}/melds", json={"player": ann, "cards": "2♣ 3♣ 4♣"})
    client.post(f"/api/v1/games/{game_id}/melds", json={"player": bob, "cards": "9♦ 9♥ 9♠"})
    headers = {"Idempotency-Key": "undo-1"}
    first = client.post(f"/api/v1/games/{game_id}/undo", headers=headers)
    again = client.post(f"/api/v1/games/{game_id}/undo", headers=headers)

    assert again.json == first.json
    assert len(client.get(f"/api/v1/games/{game_id}").json["entries"]) == 1


def test_a_repeated_correction_gets_the_first_answer(client: FlaskClient) -> None:
    game_id, (ann, bob, _cid) = new_game(client)
    meld = client.post(f"/api/v1/games/{game_id}/melds", json={"player": ann, "cards": "2♣ 3♣ 4♣"})
    url = f"/api/v1/games/{game_id}/entries/{meld.json['id']}"
    headers = {"Idempotency-Key": "correct-1"}
    first = client.patch(url, json={"player": bob}, headers=headers)
    again = client.patch(url, json={"player": bob}, headers=headers)

    assert first.status_code == again.status_code == 200
    assert again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert client.get(f"/api/v1/games/{game_id}").json["points"][str(bob)] == 9


def test_a_repeated_session_start_creates_one_session(client: FlaskClient) -> None:
    headers = {"Idempotency-Key": "2f1c9a4e-8b7d-4c3a-9e5f-6a0b1d2c3e4f"}
    body = {"players": ["Ann", "Bob"], "target": 300}
    first = client.post("/api/v1/sessions", json=body, headers=headers)
    again = client.post("/api/v1/sessions", json=body, headers=headers)
    other = client.post("/api/v1/sessions", json=body)

    assert first.status_code == again.status_code == 201
    assert again.json == first.json  # the same session, and the same keys
    assert other.json["id"] != first.json["id"]
    assert other.json["edit_key"] != first.json["edit_key"]


def age_records(app: Flask, ages: dict[str, timedelta]) -> None:
    """Make records look as old as given (by their stored keys, see ``stored``)."""
    with app.app_context():
        for key, age in ages.items():
            db.session.execute(
                sa.update(IdempotencyRecord)
                .where(IdempotencyRecord.key == key)
                .values(created_at=utcnow() - age)
            )
        db.session.commit()


def kept_keys(app: Flask) -> set[str]:
    """Return the stored keys of the records kept."""
    with app.app_context():
        return set(db.session.scalars(sa.select(IdempotencyRecord.key)))


@pytest.fixture
def forget_every(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Let every n-th remembered answer, counted from now, delete the old records."""

    def every(answers: int) -> None:
        monkeypatch.setattr(once, "FORGET_EVERY", answers)
        monkeypatch.setattr(once, "_answers_remembered", itertools.count(1))

    return every


def test_records_older_than_a_day_are_forgotten_when_the_next_answer_is_remembered(
    app: Flask, client: FlaskClient, forget_every: Callable[[int], None]
) -> None:
    forget_every(1)
    game_id, (ann, bob, _cid) = new_game(client)
    melds = f"/api/v1/games/{game_id}/melds"
    for key, cards in [("yesterday", "2♣ 3♣ 4♣"), ("this-morning", "9♦ 9♥ 9♠")]:
        client.post(melds, json={"player": ann, "cards": cards}, headers={"Idempotency-Key": key})
    age_records(
        app,
        {
            stored(client, "yesterday"): timedelta(hours=25),
            stored(client, "this-morning"): timedelta(hours=23),
        },
    )

    body = {"player": bob, "cards": "K♠ K♥ K♦"}
    assert client.post(melds, json=body, headers={"Idempotency-Key": "now"}).status_code == 201

    assert kept_keys(app) == {stored(client, "this-morning"), stored(client, "now")}


def test_only_every_n_th_answer_spends_a_transaction_on_forgetting(
    app: Flask, client: FlaskClient, forget_every: Callable[[int], None]
) -> None:
    game_id, (ann, _bob, _cid) = new_game(client)
    melds = f"/api/v1/games/{game_id}/melds"
    client.post(
        melds, json={"player": ann, "cards": "2♣ 3♣ 4♣"}, headers={"Idempotency-Key": "old"}
    )
    age_records(app, {stored(client, "old"): timedelta(days=2)})
    forget_every(2)

    body = {"player": ann, "cards": "9♦ 9♥ 9♠"}
    client.post(melds, json=body, headers={"Idempotency-Key": "first"})
    assert kept_keys(app) == {stored(client, "old"), stored(client, "first")}
    body = {"player": ann, "cards": "5♥ 6♥ 7♥"}
    client.post(melds, json=body, headers={"Idempotency-Key": "second"})
    assert kept_keys(app) == {stored(client, "first"), stored(client, "second")}


def test_each_answer_forgets_a_bounded_batch_of_old_records_the_oldest_first(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    forget_every: Callable[[int], None],
) -> None:
    forget_every(1)
    monkeypatch.setattr(once, "FORGET_AT_ONCE", 2)
    game_id, (ann, _bob, _cid) = new_game(client)
    melds = f"/api/v1/games/{game_id}/melds"
    cards = ["2♣ 3♣ 4♣", "9♦ 9♥ 9♠", "5♥ 6♥ 7♥", "J♠ Q♠ K♠", "3♦ 4♦ 5♦", "8♣ 8♥ 8♠"]
    for number, meld in enumerate(cards[:4]):
        headers = {"Idempotency-Key": f"old-{number}"}
        client.post(melds, json={"player": ann, "cards": meld}, headers=headers)
    age_records(
        app, {stored(client, f"old-{number}"): timedelta(days=2 + number) for number in range(4)}
    )

    for number, meld in enumerate(cards[4:]):
        headers = {"Idempotency-Key": f"new-{number}"}
        client.post(melds, json={"player": ann, "cards": meld}, headers=headers)
        if number == 0:  # the two oldest went with the first answer
            assert kept_keys(app) == {stored(client, k) for k in ("old-0", "old-1", "new-0")}

    assert kept_keys(app) == {stored(client, "new-0"), stored(client, "new-1")}


def meld_without_its_answer(
    app: Flask, client: FlaskClient, key: str, age: timedelta
) -> tuple[int, TestResponse, Callable[[], TestResponse]]:
    """Record a meld with a key, then leave its record without the answer, ``age`` old.

    Return the game, the first answer and a way to send the meld again with the same key.
    """
    game_id, (ann, _bob, _cid) = new_game(client)
    path = f"/api/v1/games/{game_id}/melds"
    body, headers = {"player": ann, "cards": "6♠ 6♥ 6♦"}, {"Idempotency-Key": key}
    first = client.post(path, json=body, headers=headers)
    assert first.status_code == 201
    unanswer(app, stored(client, key), age)
    return game_id, first, lambda: client.post(path, json=body, headers=headers)


def test_a_repeat_whose_first_answer_was_lost_is_told_so_at_once_and_applies_nothing(
    app: Flask, client: FlaskClient
) -> None:
    # As if the server stopped between saving the meld and remembering its answer.
    game_id, _, again = meld_without_its_answer(
        app, client, "meld-before-the-crash", timedelta(minutes=5)
    )

    answer = again()

    assert answer.status_code == 409
    assert "was applied, but its answer was lost" in answer.json["error"]
    assert len(client.get(f"/api/v1/games/{game_id}").json["entries"]) == 1


def test_a_repeat_waits_for_a_first_answer_still_being_written_and_gets_it(
    app: Flask, client: FlaskClient
) -> None:
    _, first, again = meld_without_its_answer(app, client, "slow-answer", timedelta(seconds=1))

    def answer_now() -> None:
        with app.app_context():
            db.session.execute(
                sa.update(IdempotencyRecord)
                .where(IdempotencyRecord.key == stored(client, "slow-answer"))
                .values(status=201, body=first.get_data(as_text=True))
            )
            db.session.commit()

    writer = threading.Timer(0.3, answer_now)
    writer.start()
    answer = again()
    writer.join()

    assert answer.status_code == 201
    assert answer.json == first.json
    assert answer.headers["Idempotent-Replayed"] == "true"


def test_a_repeat_whose_first_answer_does_not_come_in_time_is_told_to_try_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(once, "WAIT_SECONDS", 0.3)
    game_id, _, again = meld_without_its_answer(app, client, "no-answer-yet", timedelta(seconds=1))

    answer = again()

    assert answer.status_code == 409
    assert "still being answered" in answer.json["error"]
    assert len(client.get(f"/api/v1/games/{game_id}").json["entries"]) == 1


def test_a_key_used_for_another_request_is_refused_and_changes_nothing(
    client: FlaskClient,
) -> None:
    game_id, (ann, _bob, _cid) = new_game(client)
    headers = {"Idempotency-Key": "k"}
    client.post(
        f"/api/v1/games/{game_id}/melds", json={"player": ann, "cards": "6♠ 6♥ 6♦"}, headers=headers
    )
    before = client.get(f"/api/v1/games/{game_id}").json
    other = client.post(
        f"/api/v1/games/{game_id}/melds", json={"player": ann, "cards": "7♠ 7♥ 7♦"}, headers=headers
    )
    assert other.status_code == 422
    assert "another request" in other.json["error"]
    assert client.get(f"/api/v1/games/{game_id}").json == before


def test_the_same_json_written_anew_is_the_same_request(client: FlaskClient) -> None:
    game_id, (ann, _bob, _cid) = new_game(client)
    path = f"/api/v1/games/{game_id}/melds"
    headers = {"Idempotency-Key": "rewritten", "Content-Type": "application/json"}
    first = client.post(path, data=f'{{"player": {ann}, "cards": "6♠ 6♥ 6♦"}}', headers=headers)
    # Keys in another order, no spaces, the suits as \u escapes: the same JSON.
    escaped = '"6\\u2660 6\\u2665 6\\u2666"'
    again = client.post(path, data=f'{{"cards":{escaped},"player":{ann}}}', headers=headers)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    assert len(client.get(f"/api/v1/games/{game_id}").json["entries"]) == 1


@pytest.mark.parametrize("key", ["", "x" * 201, "tab\there"])
def test_an_unusable_key_is_refused(client: FlaskClient, key: str) -> None:
    answer = client.post(
        "/api/v1/sessions", json={"players": ["Ann", "Bob"]}, headers={"Idempotency-Key": key}
    )
    assert answer.status_code == 422
    assert answer.json["error"]


def test_a_refused_request_is_not_remembered(client: FlaskClient) -> None:
    game_id, (ann, _bob, _cid) = new_game(client)
    headers = {"Idempotency-Key": "try"}
    refused = client.post(
        f"/api/v1/games/{game_id}/melds", json={"player": ann, "cards": "6♠ 7♥ 6♦"}, headers=headers
    )
    assert refused.status_code == 422
    corrected = client.post(
        f"/api/v1/games/{game_id}/melds", json={"player": ann, "cards": "6♠ 6♥ 6♦"}, headers=headers
    )
    assert corrected.status_code == 201


def post(base: str, path: str, body: Any, key: str, edit_key: str = "") -> tuple[int, Any]:
    return live.send(base, "POST", path, body, edit_key, headers={"Idempotency-Key": key})


def test_the_same_request_sent_ten_times_at_once_is_applied_once(shared_server: str) -> None:
    # Without a session to scope it, the key must be a secret, and new on the shared server.
    new_session = str(uuid.uuid4())
    _, session = post(shared_server, "/api/v1/sessions", {"players": ["Ann", "Bob"]}, new_session)
    edit_key = session["edit_key"]
    _, game = post(shared_server, f"/api/v1/sessions/{session['id']}/games", {}, "g", edit_key)
    ann = session["players"][0]["id"]
    results: list[tuple[int, Any]] = []
    barrier = threading.Barrier(10)

    def send() -> None:
        barrier.wait()
        results.append(
            post(
                shared_server,
                f"/api/v1/games/{game['id']}/melds",
                {"player": ann, "cards": "J♦ Q♦ K♦"},
                "tap",
                edit_key,
            )
        )

    threads = [threading.Thread(target=send) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert [status for status, _ in results] == [201] * 10
    assert len({answer["id"] for _, answer in results}) == 1
    game_path = f"/api/v1/games/{game['id']}"
    status, got = live.send(shared_server, "GET", game_path, key=session["view_key"])
    assert status == 200
    assert len(got["entries"]) == 1
