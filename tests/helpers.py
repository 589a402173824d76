"""Shared test helpers: start a session and record through the API or the pages.

Test modules import from here, never from each other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import services
from scorekeeper.extensions import db
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
        return [
            (entry.player.name, " ".join(card.card for card in entry.cards), entry.value)
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
