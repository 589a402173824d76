"""Schemathesis against the OpenAPI document: no 5xx, and every answer is the one documented.

Each operation gets requests that fit its schema (positive) and requests that break it
(negative), through the WSGI app on a database with sessions, games and melds in it, so
that the small ids the generator likes point at real rows. Generation is derandomized and
bounded, so a run is the same every time and takes seconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup, ServerError
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.api.document import OPENAPI

MAX_EXAMPLES = 20
CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
OPERATIONS = [
    (method.upper(), path)
    for path, item in OPENAPI["paths"].items()
    for method in item
    if method in {"get", "post", "put", "patch", "delete"}
]
# The document itself takes no input, so no request to it can break the schema.
TAKES_NO_INPUT = {("GET", "/api/v1/openapi.json")}
IDENTITY = {"Accept-Encoding": "identity"}
POSITIVE, NEGATIVE = schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE
MODES = [POSITIVE, NEGATIVE]

REQUESTS: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def report_requests() -> Iterator[None]:
    """Print how many requests were sent, by status (shown with -s or -rP)."""
    yield
    print(
        f"\nschemathesis: {REQUESTS.total()} requests, by status {dict(sorted(REQUESTS.items()))}"
    )


def seed(client: FlaskClient) -> dict[str, Any]:
    """Fill the database: sessions, open and finished games, melds and a layoff.

    Return the ids of the last session, its open game and that game's latest entry, and the
    session's edit key.
    """

    def post(path: str, body: Any = None) -> Any:
        response = client.post(f"/api/v1{path}", json=body)
        assert response.status_code in (200, 201), response.get_json()
        return response.get_json()

    for players in (["Ann", "Bob"], ["Cid", "Dora", "Ede"]):
        session = post("/sessions", {"players": players, "target": 100})
        ids = [player["id"] for player in session["players"]]
        game = post(f"/sessions/{session['id']}/games")
        meld = post(f"/games/{game['id']}/melds", {"player": ids[0], "cards": "J♦ Q♦ K♦"})
        post(f"/games/{game['id']}/layoffs", {"player": ids[1], "meld": meld["id"], "cards": "A♦"})
        post(f"/games/{game['id']}/melds", {"player": ids[1], "cards": "6♠ 6♥ 6♣"})
        hands = {str(player): f"{rank}♣" for player, rank in zip(ids[1:], "789", strict=False)}
        post(f"/games/{game['id']}/finish", {"winner": ids[0], "hands": hands})
        game = post(f"/sessions/{session['id']}/games")
        meld = post(f"/games/{game['id']}/melds", {"player": ids[-1], "cards": "2♥ 3♥ 4♥"})
    return {
        "edit_key": session["edit_key"],
        "session_id": session["id"],
        "game_id": game["id"],
        "entry_id": meld["entry"],
        "meld": meld["id"],
        **{f"player{seat}": player for seat, player in enumerate(ids)},
    }


# Cards that read: legal melds, layoffs onto 2♥ 3♥ 4♥, and cards already on the table.
CARD_TEXTS = ["5♥", "A♥", "5♥ 6♥", "9♠ 10♠ J♠", "K♣ K♦ K♠", "qc kc ac", "3♥", "7♣ 8♣", "2♥ 2♠"]


def with_real_ids(seeded: dict[str, Any]) -> Any:
    """Return a function that points a generated body at real players and melds, with cards."""
    players = [value for name, value in seeded.items() if name.startswith("player")]

    def fix(drawn: tuple[schemathesis.Case, int, str]) -> schemathesis.Case:
        case, seat, cards = drawn
        if isinstance(case.body, dict):
            for field, value in (
                ("player", players[seat % len(players)]),
                ("meld", seeded["meld"]),
                ("cards", cards),
                ("winner", players[seat % len(players)]),
            ):
                if field in case.body and not (field == "winner" and case.body[field] is None):
                    case.body[field] = value
        return case

    return fix


@pytest.fixture
def seeded(app: Flask) -> dict[str, Any]:
    """Seed the app's database; return the ids of an open game, its session and an entry."""
    return seed(app.test_client())


# The schema loaded from each app object: the tests of a backend share the app, and loading
# and resolving the document took about half a second of each test.
SCHEMAS: dict[int, tuple[Flask, Any]] = {}


@pytest.fixture
def api_schema(app: Flask, seeded: dict[str, Any]) -> Any:
    """Load the OpenAPI document from the app (once for each app), on a seeded database."""
    if id(app) not in SCHEMAS:
        SCHEMAS[id(app)] = (app, schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app))
    return SCHEMAS[id(app)][1]


@pytest.mark.parametrize("ids", ["seeded-ids", "generated-ids"])
@pytest.mark.parametrize("mode", MODES, ids=str)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[" ".join(o) for o in OPERATIONS])
def test_every_operation_answers_as_documented_and_never_with_a_server_error(
    api_schema: Any,
    seeded: dict[str, Any],
    method: str,
    path: str,
    mode: schemathesis.GenerationMode,
    ids: str,
) -> None:
    if mode is NEGATIVE and (method, path) in TAKES_NO_INPUT:
        pytest.skip("no parameters and no body: nothing to send that breaks the schema")
    operation = api_schema[path][method]
    # Generated ids mostly miss (404); pinned to the open game, the bodies reach the rules.
    pinned = {name: value for name, value in seeded.items() if f"{{{name}}}" in path}
    if ids == "seeded-ids" and not pinned:
        pytest.skip("no ids in the path")
    if ids == "seeded-ids" and mode is NEGATIVE and method in {"GET", "DELETE"}:
        pytest.skip("only the ids in the path are input, and they are pinned")
    strategy = operation.as_strategy(
        generation_mode=mode, path_parameters=pinned if ids == "seeded-ids" else None
    )
    if ids == "seeded-ids" and mode is POSITIVE:
        # Bodies that fit the schema and name real players, melds and cards reach the writes.
        strategy = st.tuples(strategy, st.integers(0, 3), st.sampled_from(CARD_TEXTS)).map(
            with_real_ids(seeded)
        )
    checks = list(CONFORMANCE)
    if mode is NEGATIVE:
        checks.append(negative_data_rejection)

    # The seeded session's edit key opens it; generated ids of other sessions stay closed (404).
    headers = {**IDENTITY, "Authorization": f"Bearer {seeded['edit_key']}"}

    @settings(
        max_examples=MAX_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def send(case: schemathesis.Case) -> None:
        # Ask for the body as it is: the test client would not undo Flask-Compress' encoding.
        response = case.call_and_validate(checks=checks, headers=headers)
        REQUESTS[str(response.status_code)] += 1

    send()


def test_the_check_catches_a_server_error(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make sure the test above can fail: a view that breaks answers 500, and that is caught."""

    def broken() -> Any:
        raise RuntimeError("boom")

    # Put back afterwards: the app object is shared by the tests that come after.
    monkeypatch.setitem(app.view_functions, "api.check", broken)
    operation = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)["/api/v1/check"]["POST"]

    @settings(max_examples=1, derandomize=True, deadline=None, database=None)
    @given(case=operation.as_strategy())
    def send(case: schemathesis.Case) -> None:
        case.call_and_validate(checks=CONFORMANCE, headers=IDENTITY)

    with pytest.raises(FailureGroup) as caught:
        send()
    assert caught.group_contains(ServerError)
