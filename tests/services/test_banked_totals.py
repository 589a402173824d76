"""A player's banked total is what the settlement lines of their ended games booked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, SettlementLine

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """Run the test inside an app context, as a request would."""
    with app.app_context():
        yield


def banked_and_booked(session_id: int) -> tuple[dict[str, int], dict[str, int]]:
    """Return each player's banked total and the sum of their settlement lines."""
    players = db.session.scalars(
        sa.select(Player).where(Player.session_id == session_id).order_by(Player.seat)
    ).all()
    banked = {player.name: player.banked for player in players}
    lines = db.session.execute(
        sa.select(Player.name, SettlementLine.meld_points + SettlementLine.gain)
        .join(SettlementLine, SettlementLine.player_id == Player.id)
        .join(Game, Game.id == SettlementLine.game_id)
        .where(Game.session_id == session_id)
    ).all()
    booked = dict.fromkeys(banked, 0)
    for name, points in lines:
        booked[name] += points
    return banked, booked


@pytest.mark.usefixtures("ctx")
def test_the_banked_totals_follow_the_settlement_lines_through_ends_reopens_and_seating() -> None:
    session = services.create_session(["Ann", "Bob", "Cid"])
    ids = {player.name: player.id for player in services.get_session(session.id).players}
    first = services.start_game(session.id)
    services.record_meld(first.id, ids["Ann"], "7♠ 7♥ 7♦")
    services.record_meld(first.id, ids["Bob"], "J♣ Q♣ K♣")
    services.finish_game(first.id, ids["Ann"], {ids["Bob"]: "10♠", ids["Cid"]: "A♥ 3♥"})
    banked, booked = banked_and_booked(session.id)
    assert banked == booked
    assert banked["Bob"] != 0
    # Entered wrong: reopened and settled again with another winner.
    services.reopen_game(first.id)
    assert banked_and_booked(session.id) == ({"Ann": 0, "Bob": 0, "Cid": 0},) * 2
    services.finish_game(first.id, ids["Bob"], {ids["Ann"]: "10♠", ids["Cid"]: "A♥ 3♥"})
    assert banked_and_booked(session.id)[0] == banked_and_booked(session.id)[1]
    services.abandon_game(services.start_game(session.id).id)
    services.seat_player(session.id, "Dan", after=ids["Ann"])
    services.unseat_player(session.id, ids["Cid"])
    third = services.start_game(session.id)
    dan = next(p.id for p in services.get_session(session.id).players if p.name == "Dan")
    services.record_meld(third.id, dan, "2♦ 3♦ 4♦")
    services.finish_game(third.id, dan, {ids["Ann"]: "K♠", ids["Bob"]: "5♣"})
    banked, booked = banked_and_booked(session.id)
    assert banked == booked
    assert set(banked) == {"Ann", "Bob", "Cid", "Dan"}
