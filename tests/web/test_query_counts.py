"""The number of SQL statements a request makes does not grow with entries or games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from tests.helpers import MELDS, counted, session_with_games, statements_for

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


REQUESTS: dict[str, Callable[[FlaskClient, dict[str, Any]], Any]] = {
    "GET session": lambda c, ids: c.get(f"/api/v1/sessions/{ids['session']}"),
    "GET game": lambda c, ids: c.get(f"/api/v1/games/{ids['game']}"),
    "record a meld": lambda c, ids: c.post(
        f"/api/v1/games/{ids['game']}/melds", json={"player": ids["player"], "cards": "A♦ A♥ A♣"}
    ),
    "record a layoff": lambda c, ids: c.post(
        f"/api/v1/games/{ids['game']}/layoffs",
        json={"player": ids["player"], "meld": ids["meld"], "cards": "A♠"},
    ),
    "undo": lambda c, ids: c.post(f"/api/v1/games/{ids['game']}/undo"),
    "preview the settlement": lambda c, ids: c.post(
        f"/api/v1/games/{ids['game']}/settlement",
        json={
            "winner": ids["player"] + 1,
            "hands": {str(ids["player"]): "K♦", str(ids["player"] + 2): "A♦"},
        },
    ),
    "finish": lambda c, ids: c.post(
        f"/api/v1/games/{ids['game']}/finish",
        json={
            "winner": ids["player"] + 1,
            "hands": {str(ids["player"]): "K♦", str(ids["player"] + 2): "A♦"},
        },
    ),
    "session page": lambda c, ids: c.get(f"/sessions/{ids['session']}"),
    "history page": lambda c, ids: c.get(f"/sessions/{ids['session']}/history"),
    "history page of the earlier games": lambda c, ids: c.get(
        f"/sessions/{ids['session']}/history?before=2"
    ),
    "finish page": lambda c, ids: c.get(f"/games/{ids['game']}/finish"),
    "start page": lambda c, ids: c.get("/"),
    "change page": lambda c, ids: c.get(f"/sessions/{ids['session']}/change"),
    "entry page": lambda c, ids: c.get(f"/games/{ids['game']}/entries/{ids['meld']}/edit"),
    "abandon page": lambda c, ids: c.get(f"/games/{ids['game']}/abandon"),
    "reopen page": lambda c, ids: c.get(f"/games/{ids['finished']}/reopen"),
    "booked page": lambda c, ids: c.get(f"/games/{ids['finished']}/finish"),
    "settlement preview page": lambda c, ids: c.get(
        f"/games/{ids['game']}/finish",
        query_string={
            "winner": ids["player"] + 1,
            "romme": "no",
            f"hand_{ids['player']}": "K♦",
            f"hand_{ids['player'] + 2}": "A♦",
            "show": "1",
        },
    ),
    "the session's version": lambda c, ids: c.get(f"/sessions/{ids['session']}/version"),
    "delete the latest entry": lambda c, ids: c.delete(
        f"/api/v1/games/{ids['game']}/entries/{ids['last']}"
    ),
    "correct the latest entry": lambda c, ids: c.patch(
        f"/api/v1/games/{ids['game']}/entries/{ids['last']}", json={"player": ids["player"]}
    ),
    # The first meld, which the layoffs build on: the same cards, given to another player.
    "correct the first meld on the page": lambda c, ids: c.post(
        f"/games/{ids['game']}/entries/{ids['meld']}/edit",
        data={"player": ids["player"], "cards": MELDS[0]},
    ),
    "record a meld on the page": lambda c, ids: c.post(
        f"/games/{ids['game']}/melds", data={"player": ids["player"], "cards": "A♦ A♥ A♣"}
    ),
    "record a layoff on the page": lambda c, ids: c.post(
        f"/games/{ids['game']}/layoffs",
        data={"player": ids["player"], "meld": ids["meld"], "cards": "A♠"},
    ),
    "undo on the page": lambda c, ids: c.post(f"/games/{ids['game']}/undo"),
    "delete the latest entry on the page": lambda c, ids: c.post(
        f"/games/{ids['game']}/entries/{ids['last']}/delete"
    ),
    "finish on the page": lambda c, ids: c.post(
        f"/games/{ids['game']}/finish",
        data={
            "winner": str(ids["player"] + 1),
            "romme": "no",
            "confirm": "1",
            f"hand_{ids['player']}": "K♦",
            f"hand_{ids['player'] + 2}": "A♦",
        },
    ),
    "abandon on the page": lambda c, ids: c.post(f"/games/{ids['game']}/abandon"),
    "start the next game": lambda c, ids: (
        c.post(f"/api/v1/games/{ids['game']}/finish", json={"winner": None}),
        c.post(f"/api/v1/sessions/{ids['session']}/games"),
    )[1],
}


# What grows between the two sessions compared: (finished games, melds in the open game,
# layoffs in the open game, sessions started before, whose keys the client holds too).
GROWTH = {
    "games of a session, and sessions": ((1, 4, 2, 0), (8, 4, 2, 6)),
    "melds of a game": ((1, 1, 0), (1, 8, 0)),
    "layoffs of a game": ((1, 4, 1), (1, 4, 20)),
}


@pytest.mark.parametrize("grows", list(GROWTH))
@pytest.mark.parametrize("name", list(REQUESTS))
def test_statements_do_not_grow_with_the_games_or_the_entries(
    app: Flask, client: FlaskClient, name: str, grows: str
) -> None:
    small, large = (session_with_games(app, client, *sizes) for sizes in GROWTH[grows])
    request = REQUESTS[name]
    assert statements_for(app, lambda: request(client, large)) == statements_for(
        app, lambda: request(client, small)
    )


@pytest.mark.parametrize("before", ["", "?before=2"])
def test_the_history_pages_statements_do_not_grow_beyond_a_page_of_games(
    app: Flask, client: FlaskClient, before: str
) -> None:
    # The history shows a page of games at a time: three pages' worth costs what one game does.
    small, large = (
        session_with_games(app, client, games, 1, 0) for games in (1, 3 * services.HISTORY_GAMES)
    )
    assert statements_for(
        app, lambda: client.get(f"/sessions/{large['session']}/history{before}")
    ) == statements_for(app, lambda: client.get(f"/sessions/{small['session']}/history{before}"))


# What a phone on the session page and an API client ask while nothing changed: the answer is
# a 304 from the key check's one read (the session's row with its version).
UNCHANGED: dict[str, Callable[[dict[str, Any]], str]] = {
    "the session's version": lambda ids: f"/sessions/{ids['session']}/version",
    "GET session": lambda ids: f"/api/v1/sessions/{ids['session']}",
    "GET game": lambda ids: f"/api/v1/games/{ids['game']}",
}


@pytest.mark.parametrize("name", list(UNCHANGED))
def test_an_unchanged_answer_is_one_read_whatever_the_games_and_sessions(
    app: Flask, client: FlaskClient, name: str
) -> None:
    asked: list[list[str]] = []
    # The second session has more games, and more sessions were started before it.
    for sizes in ((1, 4, 2, 0), (8, 4, 2, 6)):
        path = UNCHANGED[name](session_with_games(app, client, *sizes))
        etag = client.get(path).headers["ETag"]
        with counted(app) as statements:
            answer = client.get(path, headers={"If-None-Match": etag})
        assert answer.status_code == 304
        asked.append([statement.split(None, 1)[0].upper() for statement in statements])
    assert asked[0] == asked[1]
    assert [kind for kind in asked[0] if kind not in ("BEGIN", "COMMIT", "ROLLBACK")] == ["SELECT"]


@pytest.mark.parametrize(
    "name",
    [
        "record a meld",
        "record a layoff",
        "undo",
        "correct the latest entry",
        "finish",
        "start the next game",
    ],
)
def test_a_write_through_the_api_is_one_transaction_answer_included(
    app: Flask, client: FlaskClient, name: str
) -> None:
    # A second transaction for the answer would wait in line behind every other writer again.
    ids = session_with_games(
        app, client, finished_games=1, melds_in_open_game=4, layoffs_in_open_game=2
    )
    if name == "start the next game":
        client.post(f"/api/v1/games/{ids['game']}/finish", json={"winner": None})
        request = lambda: client.post(f"/api/v1/sessions/{ids['session']}/games")  # noqa: E731
    else:
        request = lambda: REQUESTS[name](client, ids)  # noqa: E731
    begun: list[object] = []

    def note(connection: object) -> None:
        begun.append(connection)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "begin", note)
    try:
        answer = request()
    finally:
        sa.event.remove(engine, "begin", note)
    assert answer.status_code < 300, answer.get_data(as_text=True)
    assert len(begun) == 1
