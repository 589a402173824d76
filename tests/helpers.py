"""Shared test helpers: start a session and record through the API or the pages.

Test modules import from here, never from each other.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.test import TestResponse

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys
from scorekeeper.models import GameSession

# --- the JSON API ------------------------------------------------------------------------------

API = "/api/v1"
DE_NO_GAME = (
    "Dieses Spiel gibt es nicht, oder es braucht den Schlüssel seiner Partie "
    "(den Link vom Handy, das sie begonnen hat)."
)
HUGE = 99999999999999999999


@dataclass(frozen=True)
class ApiTable:
    """A three-player session with its first game open."""

    client: FlaskClient
    session: str
    game: int
    ann: int
    bob: int
    cid: int

    def get_game(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/games/{self.game}"))

    def get_session(self) -> dict[str, Any]:
        return ok(self.client.get(f"{API}/sessions/{self.session}"))

    def state(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Return the game and the session as the API shows them now."""
        return self.get_game(), self.get_session()

    def post(self, path: str, body: Any = None) -> TestResponse:
        return self.client.post(f"{API}/games/{self.game}/{path}", json=body)

    def meld(self, player: int, cards: str | list[str]) -> dict[str, Any]:
        return ok(self.post("melds", {"player": player, "cards": cards}), 201)

    def layoff(self, player: int, meld: int, cards: str) -> dict[str, Any]:
        return ok(self.post("layoffs", {"player": player, "meld": meld, "cards": cards}), 201)

    def delete(self, entry: int) -> TestResponse:
        return self.client.delete(f"{API}/games/{self.game}/entries/{entry}")

    def correct(self, entry: int, body: Any) -> TestResponse:
        return self.client.patch(f"{API}/games/{self.game}/entries/{entry}", json=body)

    def finish(self, winner: int | None, hands: dict[int, str], **extra: Any) -> TestResponse:
        body = {"winner": winner, "hands": {str(p): cards for p, cards in hands.items()}}
        return self.post("finish", {**body, **extra})


def ok(response: TestResponse, status: int = 200) -> dict[str, Any]:
    """Assert the status and return the JSON body."""
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert isinstance(body, dict)
    return body


def refused(response: TestResponse, *statuses: int) -> str:
    """Assert a 4xx answer with a readable error and return the error."""
    assert response.status_code in statuses, response.get_data(as_text=True)
    body = response.get_json()
    assert isinstance(body, dict)
    assert isinstance(body["error"], str)
    assert body["error"].strip()
    return body["error"]


def bearer(key: str) -> dict[str, str]:
    """Return the header that sends a session's or group's key."""
    return {"Authorization": f"Bearer {key}"}


def new_session(client: FlaskClient, names: list[str], **extra: Any) -> dict[str, Any]:
    return ok(client.post(f"{API}/sessions", json={"players": names, **extra}), 201)


def open_table(
    client: FlaskClient, names: tuple[str, str, str] = ("Ann", "Bob", "Cid")
) -> ApiTable:
    session = new_session(client, list(names))
    game = ok(client.post(f"{API}/sessions/{session['id']}/games"), 201)
    ann, bob, cid = (player["id"] for player in session["players"])
    return ApiTable(client, session["id"], game["id"], ann, bob, cid)


# --- the pages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageTable:
    """A session just started through the home page, with its players and first game."""

    session: str  # the id in addresses
    session_pk: int  # the id the services take
    game: int
    players: dict[str, int]


def start(
    client: FlaskClient,
    names: tuple[str, ...] = ("Ann", "Bob", "Cid"),
    target: str = "500",
    dealer: str = "0",
    **fields: str,
) -> PageTable:
    """Start a session through the form (with more of its ``fields``) and return its ids."""
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    response = client.post("/sessions", data={**data, "target": target, "dealer": dealer, **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    public_id = response.location.rsplit("/", 1)[1]
    with client.application.app_context():
        session = db.session.scalar(sa.select(GameSession).filter_by(public_id=public_id))
        assert session is not None
        game = services.open_game(session)
        assert game is not None
        return PageTable(public_id, session.id, game.id, {p.name: p.id for p in session.players})


def meld(client: FlaskClient, table: PageTable, name: str, cards: str) -> str:
    """Record a meld and return the page shown after the redirect."""
    response = client.post(
        f"/games/{table.game}/melds",
        data={"player": table.players[name], "cards": cards},
        follow_redirects=True,
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return text(response.get_data(as_text=True))


def lay_off(client: FlaskClient, table: PageTable, name: str, onto: int, cards: str) -> None:
    """Record a layoff onto the meld entry ``onto`` and check that it was recorded."""
    response = client.post(
        f"/games/{table.game}/layoffs",
        data={"player": table.players[name], "meld": onto, "cards": cards},
    )
    assert response.status_code == 302, response.get_data(as_text=True)


def entries(app: Flask, game_id: int) -> list[tuple[str, str, int]]:
    """Return the entries of a game as (player, cards, value)."""
    with app.app_context():
        game = services.get_game(game_id)
        names = {player.id: player.name for player in game.players}
        return [
            (names[entry.player_id], " ".join(card.card for card in entry.cards), entry.value)
            for entry in game.entries
        ]


def totals(app: Flask, session_id: int) -> dict[str, int]:
    """Return each player's total by name."""
    with app.app_context():
        session = services.get_session(session_id)
        scores = services.session_scores(session)
        return {player.name: scores.totals[player.id] for player in session.players}


def text(html: str) -> str:
    """Return the words of a page without its tags, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", "", html).replace("&#39;", "'").split())


def meld_id(app: Flask, table: PageTable, position: int) -> int:
    """Return the id of the entry at a position of the game."""
    with app.app_context():
        return services.get_game(table.game).entries[position - 1].id


# --- the database directly, for the use cases --------------------------------------------------


def dump() -> dict[str, list[tuple[Any, ...]]]:
    """Return every committed row of every table, read on a connection of its own."""
    # End the ORM session's read transaction first: SQLite transactions hold the write lock.
    db.session.rollback()
    with db.engine.connect() as connection:
        return {
            table.name: sorted(
                (tuple(row) for row in connection.execute(sa.select(table))), key=repr
            )
            for table in db.metadata.sorted_tables
        }


def unversioned(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[tuple[Any, ...]]]:
    """Return the rows with each session's version left out (every change counts it up)."""
    at = list(GameSession.__table__.c.keys()).index("version")
    sessions = [row[:at] + row[at + 1 :] for row in rows["sessions"]]
    return {**rows, "sessions": sessions}


def assert_refused(
    error: type[BaseException], call: Callable[[], object], match: str | None = None
) -> None:
    """Assert that the call raises and leaves neither the database nor the session changed."""
    before = dump()
    with pytest.raises(error, match=match):
        call()
    assert not (db.session.new or db.session.dirty or db.session.deleted)
    assert dump() == before


def seated(names: tuple[str, ...] = ("Ann", "Bob", "Cid"), **kwargs: Any) -> GameSession:
    return services.create_session(list(names), **kwargs)


def ids(session: GameSession) -> list[int]:
    return [player.id for player in session.players]


def first_game(names: tuple[str, ...] = ("Ann", "Bob", "Cid")) -> tuple[int, list[int]]:
    session = seated(names)
    return services.start_game(session.id).id, ids(session)


# --- counting the statements of a request ------------------------------------------------------


# Melds of one game: four sequences that take layoffs one card at a time, then sets.
MELDS = [
    "2♠ 3♠ 4♠",
    "2♥ 3♥ 4♥",
    "2♦ 3♦ 4♦",
    "2♣ 3♣ 4♣",
    "K♠ K♥ K♣",
    "Q♠ Q♥ Q♦",
    "J♠ J♥ J♦",
    "10♠ 10♥ 10♦",
]
LAYOFF_RANKS = ["5", "6", "7", "8", "9", "10", "J", "Q"]


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    """Collect the SQL statements sent while the block runs."""
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def statements_for(app: Flask, request: Callable[[], Any]) -> int:
    with counted(app) as statements:
        answer = request()
    assert answer.status_code < 400, answer.get_data(as_text=True)
    return len(statements)


def session_with_games(
    app: Flask,
    client: FlaskClient,
    finished_games: int,
    melds_in_open_game: int,
    layoffs_in_open_game: int,
    other_sessions: int = 0,
) -> dict[str, Any]:
    """Make a session with finished games and an open game; return the ids to ask about.

    The client gets the session's edit key, for the API and (through the edit link) the pages.
    ``other_sessions`` are started before it, each with a game in progress, and the client
    holds their keys too (the start page lists them).
    """
    for _ in range(other_sessions):
        session_with_games(app, client, 0, 1, 0)
    keys = SessionKeys.new()
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], target=10**6, keys=keys)
        public_id = session.public_id
        ann, bob, cid = (player.id for player in session.players)
        session_id = session.id
        finished = None
        for _ in range(finished_games):
            game_id = finished = services.start_game(session_id).id
            for cards in MELDS[:4]:
                services.record_meld(game_id, ann, cards)
            services.finish_game(game_id, ann, {bob: "K♥ 9♦", cid: "A♠"})
        game_id = services.start_game(session_id).id
        melds = [
            services.record_meld(game_id, bob, cards).id for cards in MELDS[:melds_in_open_game]
        ]
        last = melds[-1]
        for index in range(layoffs_in_open_game):
            suit = "♠♥♦♣"[index % 4]
            rank = LAYOFF_RANKS[index // 4]
            last = services.record_layoff(game_id, cid, melds[index % 4], f"{rank}{suit}").id
    client.keys[public_id] = keys.edit  # type: ignore[attr-defined]
    client.game_sessions[game_id] = public_id  # type: ignore[attr-defined]
    assert client.get(f"/sessions/{public_id}?key={keys.edit}").status_code == 302
    return {
        "session": public_id,
        "game": game_id,
        "player": ann,
        "meld": melds[0],
        "last": last,
        "finished": finished,
    }


# --- export documents --------------------------------------------------------------------------


def as_version_6(document: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a version 7 document as version 6 wrote it (no tap times)."""
    older = copy.deepcopy(document)
    older["version"] = 6
    for session in older["sessions"]:
        for game in session["games"]:
            for entry in game["entries"]:
                del entry["tapped_at"]
    return older


def as_version_5(document: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a version 7 document as version 5 wrote it (no copies, swaps, seats)."""
    older = as_version_6(document)
    older["version"] = 5
    for session in older["sessions"]:
        for player in session["players"]:
            del player["joined_game"], player["left_game"]
        for game in session["games"]:
            for entry in game["entries"]:
                del entry["group_id"]
                for card in entry["cards"]:
                    del card["copy"], card["stands_for"]
    return older


# --- the OpenAPI contract ----------------------------------------------------------------------


DOCUMENT_URI = "urn:scorekeeper:openapi"


# Routes about groups; tests/web/test_groups_api.py checks their answers.
GROUPS_ONLY = {
    ("post", f"{API}/groups"),
    ("get", f"{API}/groups/{{group_id}}"),
    ("get", f"{API}/groups/{{group_id}}/statistics"),
    ("post", f"{API}/groups/{{group_id}}/merges"),
}

# A club's season; tests/web/test_season_api.py checks its answers.
SEASON_ONLY = {("get", f"{API}/groups/{{group_id}}/season")}

EVENINGS_ONLY = {
    ("post", f"{API}/evenings"),
    ("get", f"{API}/evenings/{{evening_id}}"),
    ("post", f"{API}/evenings/{{evening_id}}/series"),
    ("post", f"{API}/evenings/{{evening_id}}/draw"),
}


def pointer(*parts: str) -> str:
    """Return a URI fragment that points to a place in the document."""
    escaped = (part.replace("~", "~0").replace("/", "~1") for part in parts)
    return "#/" + "/".join(quote(part, safe="~") for part in escaped)


class Contract:
    """Validate answers against the response schemas, resolving $refs in the document."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(DOCUMENT_URI, resource)
        self.checked: set[tuple[str, str, str]] = set()

    def validate(self, method: str, path: str, status: int, body: Any) -> None:
        """Validate one answer against the schema the document gives for it."""
        responses = self.document["paths"][path][method]["responses"]
        assert str(status) in responses, f"{method.upper()} {path} does not document {status}"
        content = responses[str(status)].get("content")
        if content is None:
            assert body is None, f"{method.upper()} {path} {status} documents no body"
            return
        if "application/json" not in content:  # a file (CSV): not JSON, nothing to validate
            assert body is None, f"{method.upper()} {path} {status} documents no JSON"
            self.checked.add((method, path, str(status)))
            return
        where = pointer("paths", path, method, "responses", str(status), "content")
        schema = {"$ref": DOCUMENT_URI + where + "/application~1json/schema"}
        Draft202012Validator(schema, registry=self.registry).validate(body)
        self.checked.add((method, path, str(status)))


# --- the finish form ---------------------------------------------------------------------------


def finish_data(table: PageTable, winner: str, hands: dict[str, str], romme: str = "auto") -> dict:
    """Return the finish form's fields."""
    data = {"winner": str(table.players[winner]), "romme": romme}
    data.update({f"hand_{table.players[name]}": cards for name, cards in hands.items()})
    return data


def book(client: FlaskClient, table: PageTable, data: dict[str, str]) -> None:
    """Send the finish form's fields confirmed and check that the settlement was booked."""
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 302, response.get_data(as_text=True)


def win_session(client: FlaskClient) -> PageTable:
    """Play a session to 35 that Ann wins in game 1."""
    table = start(client, ("Ann", "Bob"), target="35")
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "9s"}, romme="no")
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 302
    return table


# --- whole games through the API ---------------------------------------------------------------


OPENING = {"treppenromme": "Q♣ K♣ A♣", "german_rummy": "Q♥ Q♦ Q♣ Q♠", "boathouse_rum": "8♥ 8♦ 8♠"}


def play_games_through_api(
    client: FlaskClient, variant: str, games: int, **rules: Any
) -> dict[str, Any]:
    """Play a session of three through the API; the third game is abandoned, the others won.

    Return the session's answer after the games, with its keys.
    """
    body: dict[str, Any] = {"players": ["Ann", "Bob", "Cid"], "variant": variant}
    if rules:
        body["rules"] = rules
    created = ok(client.post(f"{API}/sessions", json=body), 201)
    players = [player["id"] for player in created["players"]]
    for number in range(1, games + 1):
        game = ok(client.post(f"{API}/sessions/{created['id']}/games"), 201)
        winner = players[number % 3]
        meld = {"player": winner, "cards": OPENING[variant]}
        ok(client.post(f"{API}/games/{game['id']}/melds", json=meld), 201)
        finish: dict[str, Any] = {"winner": None}
        if number != 3:
            hands = {str(player): 2 + 3 * number + player % 5 for player in players}
            del hands[str(winner)]
            finish = {"winner": winner, "hands": hands, "romme": False}
        ok(client.post(f"{API}/games/{game['id']}/finish", json=finish))
    session = ok(client.get(f"{API}/sessions/{created['id']}"))
    return {**session, "edit_key": created["edit_key"], "view_key": created["view_key"]}


# --- other rule systems on the pages -----------------------------------------------------------


FIVE = ("Ann", "Bob", "Cid", "Dan", "Eve")


def start_boathouse(client: FlaskClient, names: tuple[str, ...] = FIVE, **fields: str) -> PageTable:
    """Start a Boathouse Rum session to 100 through the form with the fields given."""
    return start(client, names, **{"variant": "boathouse_rum", "target": "100", **fields})


def session_page(client: FlaskClient, table: PageTable) -> str:
    return text(client.get(f"/sessions/{table.session}").get_data(as_text=True))


FOUR = ("Ann", "Bob", "Cid", "Dan")


def start_german_rummy(
    client: FlaskClient, names: tuple[str, ...] = FOUR, **fields: str
) -> PageTable:
    """Start a German Rummy session through the form, ending at the usual limit."""
    form = {"variant": "german_rummy", "end": "limit", "limit": "", "target": "", **fields}
    return start_boathouse(client, names, **form)


def melds(client: FlaskClient, table: PageTable, name: str, *lines: str, status: int = 302):
    """Post melds put down together through the form without script: all lines but the last
    in the melds field, the last in the cards field."""
    *earlier, last = lines
    data = {"player": table.players[name], "melds": "\n".join(earlier), "cards": last}
    response = client.post(f"/games/{table.game}/melds", data=data)
    assert response.status_code == status, text(response.get_data(as_text=True))
    return response


def opened(client: FlaskClient, table: PageTable, name: str, *lines: str) -> str:
    """Record an opening and return the session page after it."""
    melds(client, table, name, *lines)
    return session_page(client, table)
