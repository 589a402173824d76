"""Idempotency-Key scoped to the caller (issue 20): one caller's key is nobody else's record.

A key counts for the endpoint and the session key that sent it; creating a session has no
session key, so there the Idempotency-Key must itself be a secret (at least 128 bits).
"""

from __future__ import annotations

import base64
import re
import secrets
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.api import idempotency
from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, IdempotencyRecord
from tests import live
from tests.helpers import API
from tests.rows import count

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

NOT_A_SECRET = (
    "An Idempotency-Key for a new session must be a secret nobody can guess, of at least 128 "
    "random bits: a UUID, 32 hexadecimal digits or 22 characters of base64url."
)
NEW_SESSION = {"players": ["Ann", "Bob", "Cid"]}


def table_with_keys(client: FlaskClient) -> dict[str, Any]:
    """Start a session with a game open; return its ids and keys."""
    session = client.post(f"{API}/sessions", json=NEW_SESSION).json
    game = client.post(f"{API}/sessions/{session['id']}/games").json
    ann, bob, _cid = (player["id"] for player in session["players"])
    return {
        "game": game["id"],
        "ann": ann,
        "bob": bob,
        "edit": {"Authorization": f"Bearer {session['edit_key']}"},
        "view": {"Authorization": f"Bearer {session['view_key']}"},
    }


def stored_keys(app: Flask) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(sa.select(IdempotencyRecord.key)))


# --- one key, two sessions ---------------------------------------------------------------------


def test_two_sessions_each_record_a_meld_with_the_same_key(app: Flask) -> None:
    first, second = app.test_client(), app.test_client()
    tables = [table_with_keys(first), table_with_keys(second)]
    once = {"Idempotency-Key": "meld-1"}

    answers = [
        phone.post(
            f"{API}/games/{table['game']}/melds",
            json={"player": table["ann"], "cards": "6♠ 6♥ 6♦"},
            headers={**once, **table["edit"]},
        )
        for phone, table in zip((first, second), tables, strict=True)
    ]

    assert [answer.status_code for answer in answers] == [201, 201]
    assert ["Idempotent-Replayed" in answer.headers for answer in answers] == [False, False]
    assert answers[0].json["id"] != answers[1].json["id"]
    assert count(app, Entry) == 2
    for phone, table in zip((first, second), tables, strict=True):
        game = phone.get(f"{API}/games/{table['game']}", headers=table["view"]).json
        assert [entry["cards"] for entry in game["entries"]] == [["6♠", "6♥", "6♦"]]


def test_the_same_key_and_body_in_two_sessions_are_two_requests(client: FlaskClient) -> None:
    tables = [table_with_keys(client), table_with_keys(client)]
    once = {"Idempotency-Key": "next"}
    for table in tables:
        path = f"{API}/games/{table['game']}/undo"
        client.post(
            f"{API}/games/{table['game']}/melds",
            json={"player": table["ann"], "cards": "2♣ 3♣ 4♣"},
            headers=table["edit"],
        )
        undone = client.post(path, headers={**once, **table["edit"]})
        assert undone.status_code == 200
        assert "Idempotent-Replayed" not in undone.headers
        again = client.post(path, headers={**once, **table["edit"]})
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.json == undone.json


def test_a_view_key_cannot_replay_what_the_edit_key_recorded(app: Flask) -> None:
    owner, watcher = app.test_client(), app.test_client()
    table = table_with_keys(owner)
    path = f"{API}/games/{table['game']}/melds"
    body, once = {"player": table["ann"], "cards": "2♠ 3♠ 4♠"}, {"Idempotency-Key": "meld-1"}
    assert owner.post(path, json=body, headers={**once, **table["edit"]}).status_code == 201

    replay = watcher.post(path, json=body, headers={**once, **table["view"]})

    assert replay.status_code == 404
    assert "edit_key" not in replay.json and "id" not in replay.json
    assert count(app, Entry) == 1


def test_a_key_used_on_another_endpoint_of_the_same_session_is_another_record(
    client: FlaskClient,
) -> None:
    table = table_with_keys(client)
    game, edit = f"{API}/games/{table['game']}", table["edit"]
    once = {**edit, "Idempotency-Key": "step-1"}

    meld = client.post(
        f"{game}/melds", json={"player": table["ann"], "cards": "J♦ Q♦ K♦"}, headers=once
    )
    layoff = client.post(
        f"{game}/layoffs",
        json={"player": table["bob"], "meld": meld.json["id"], "cards": "A♦"},
        headers=once,
    )
    undo = client.post(f"{game}/undo", headers=once)

    assert [meld.status_code, layoff.status_code, undo.status_code] == [201, 201, 200]
    assert "Idempotent-Replayed" not in layoff.headers
    assert undo.json["undone"] == layoff.json["id"]
    assert len(stored_keys(client.application)) == 3


def test_the_same_key_on_the_same_endpoint_of_a_session_is_still_one_request(
    client: FlaskClient,
) -> None:
    table = table_with_keys(client)
    path, once = f"{API}/games/{table['game']}/melds", {**table["edit"], "Idempotency-Key": "k"}
    client.post(path, json={"player": table["ann"], "cards": "6♠ 6♥ 6♦"}, headers=once)

    other = client.post(path, json={"player": table["ann"], "cards": "7♠ 7♥ 7♦"}, headers=once)

    assert other.status_code == 422
    assert "another request" in other.json["error"]


def test_what_is_stored_is_a_digest_of_the_scope_not_the_key(client: FlaskClient) -> None:
    table = table_with_keys(client)
    client.post(
        f"{API}/games/{table['game']}/melds",
        json={"player": table["ann"], "cards": "6♠ 6♥ 6♦"},
        headers={**table["edit"], "Idempotency-Key": "meld-1"},
    )
    secret = str(uuid.uuid4())
    client.post(f"{API}/sessions", json=NEW_SESSION, headers={"Idempotency-Key": secret})

    keys = stored_keys(client.application)
    assert len(keys) == 2
    assert all(re.fullmatch(r"[0-9a-f]{64}", key) for key in keys)
    assert idempotency.stored_key("api.create_session", idempotency.ANONYMOUS, secret) in keys


# --- creating a session: the key is the only secret ------------------------------------------


SECRETS = {
    "UUID": "0b8a5f0e-3c1e-4f7a-9d62-5c1f7e2b9a44",
    "UUID in capitals": "0B8A5F0E-3C1E-4F7A-9D62-5C1F7E2B9A44",
    "32 hex digits": "9f86d081884c7d659a2feaa0c55ad015",
    "token_urlsafe(16)": "k3Jx9_QmZ-a1Bv7TwP0sYe",
    "base64url with padding": "q1Ue0vYt3Zx8cKp2LmN4rA==",
}
GUESSABLE = {
    "short": "order-42",
    "words": "start-evening",
    "nil UUID": "00000000-0000-0000-0000-000000000000",
    "31 hex digits": "9f86d081884c7d659a2feaa0c55ad01",
    "25 hex digits (100 bits)": "9f86d081884c7d659a2feaa0c",
    "21 base64url characters": "k3Jx9_QmZ-a1Bv7TwP0sY",
    "one letter repeated": "a" * 40,
    "not base64url": "order 42, table 7, Friday evening",
}


@pytest.mark.parametrize("key", SECRETS.values(), ids=SECRETS.keys())
def test_a_key_of_at_least_128_bits_starts_a_session(client: FlaskClient, key: str) -> None:
    answer = client.post(f"{API}/sessions", json=NEW_SESSION, headers={"Idempotency-Key": key})
    assert answer.status_code == 201
    assert idempotency.is_secret(key)


@pytest.mark.parametrize("key", GUESSABLE.values(), ids=GUESSABLE.keys())
def test_a_guessable_key_for_a_new_session_is_refused_with_422_and_creates_nothing(
    client: FlaskClient, key: str
) -> None:
    answer = client.post(f"{API}/sessions", json=NEW_SESSION, headers={"Idempotency-Key": key})

    assert answer.status_code == 422
    assert answer.json == {"error": NOT_A_SECRET}
    assert count(client.application, GameSession) == 0
    assert stored_keys(client.application) == []


def test_a_random_key_for_a_new_session_replays_for_the_same_caller(client: FlaskClient) -> None:
    once = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"{API}/sessions", json=NEW_SESSION, headers=once)
    again = client.post(f"{API}/sessions", json=NEW_SESSION, headers=once)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json
    assert count(client.application, GameSession) == 1


def test_another_callers_random_key_starts_another_session(app: Flask) -> None:
    mine, theirs = app.test_client(), app.test_client()
    first = mine.post(
        f"{API}/sessions", json=NEW_SESSION, headers={"Idempotency-Key": secrets.token_hex(16)}
    )
    other = theirs.post(
        f"{API}/sessions",
        json=NEW_SESSION,
        headers={"Idempotency-Key": base64.urlsafe_b64encode(secrets.token_bytes(16)).decode()},
    )

    assert (first.status_code, other.status_code) == (201, 201)
    assert other.json["id"] != first.json["id"]
    assert other.json["edit_key"] != first.json["edit_key"]
    assert count(app, GameSession) == 2


def test_a_session_key_sent_along_does_not_make_a_guessable_key_acceptable(
    client: FlaskClient,
) -> None:
    """Creating a session checks no key: one sent along is anybody's, and scopes nothing."""
    table = table_with_keys(client)
    answer = client.post(
        f"{API}/sessions",
        json=NEW_SESSION,
        headers={**table["edit"], "Idempotency-Key": "order-42"},
    )
    assert answer.status_code == 422
    assert answer.json == {"error": NOT_A_SECRET}


def test_a_body_that_cannot_be_read_is_refused_for_the_body_first(client: FlaskClient) -> None:
    answer = client.post(
        f"{API}/sessions",
        data="{not json",
        content_type="application/json",
        headers={"Idempotency-Key": "order-42"},
    )
    assert answer.status_code == 400
    assert answer.json == {"error": "The body is not valid JSON."}


# --- against a real server ---------------------------------------------------------------------


def test_on_a_real_server_keys_are_scoped_and_a_guessable_new_session_key_refused(
    shared_server: str,
) -> None:
    status, refusal = live.send(
        shared_server,
        "POST",
        f"{API}/sessions",
        NEW_SESSION,
        headers={"Idempotency-Key": "order-42"},
    )
    assert (status, refusal) == (422, {"error": NOT_A_SECRET})

    once = {"Idempotency-Key": str(uuid.uuid4())}
    _, first = live.send(shared_server, "POST", f"{API}/sessions", NEW_SESSION, headers=once)
    status, again = live.send(shared_server, "POST", f"{API}/sessions", NEW_SESSION, headers=once)
    assert (status, again) == (201, first)

    melds = []
    for _ in range(2):
        _, session = live.send(shared_server, "POST", f"{API}/sessions", NEW_SESSION)
        key = session["edit_key"]
        _, game = live.send(shared_server, "POST", f"{API}/sessions/{session['id']}/games", {}, key)
        body = {"player": session["players"][0]["id"], "cards": "6♠ 6♥ 6♦"}
        path = f"{API}/games/{game['id']}/melds"
        melds.append(
            live.send(shared_server, "POST", path, body, key, {"Idempotency-Key": "meld-1"})
        )
    assert [status for status, _ in melds] == [201, 201]
    assert melds[0][1]["id"] != melds[1][1]["id"]
