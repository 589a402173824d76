"""Reopening a game after the seating changed: the use cases against a real database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Player

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """Run the test inside an app context, as a request would."""
    with app.app_context():
        yield


def ids_by_name(session_id: int) -> dict[str, int]:
    return {player.name: player.id for player in services.get_session(session_id).players}


def where_things_stand(session_id: int) -> tuple[object, ...]:
    session = services.get_session(session_id)
    games = [(game.number, game.status) for game in services.game_summaries(session)]
    stays = [(p.name, p.joined_game, p.left_game, p.banked) for p in session.players]
    return games, stays


@pytest.mark.usefixtures("ctx")
def test_a_reopen_that_would_remove_the_game_after_which_the_seating_changed_changes_nothing() -> (
    None
):
    session = services.create_session(["Ann", "Bob", "Cid"])
    first = services.start_game(session.id)
    ids = ids_by_name(session.id)
    services.record_meld(first.id, ids["Ann"], "7♠ 7♥ 7♦")
    services.finish_game(first.id, ids["Ann"], {ids["Bob"]: "10♠", ids["Cid"]: "10♥"})
    second = services.abandon_game(services.start_game(session.id).id).game
    services.seat_player(session.id, "Dan", after=ids["Ann"])
    services.unseat_player(session.id, ids["Bob"])
    services.reopen_game(second.id)
    before = where_things_stand(session.id)
    with pytest.raises(services.ConflictError) as refusal:
        services.reopen_game(first.id)
    assert refusal.value.message_id == "seating_changed_after"
    assert refusal.value.message("de").startswith("Spiel 1 lässt sich nicht wieder öffnen")
    assert where_things_stand(session.id) == before
    services.abandon_game(second.id)
    third = services.start_game(session.id)
    assert [player.name for player in third.players] == ["Ann", "Dan", "Cid"]
    assert services.deal_of(services.read_game(third.id)).cards_dealt > 0


@pytest.mark.usefixtures("ctx")
def test_a_change_made_before_the_next_game_was_dealt_lets_that_game_go() -> None:
    session = services.create_session(["Ann", "Bob", "Cid"])
    first = services.start_game(session.id)
    ids = ids_by_name(session.id)
    services.record_meld(first.id, ids["Ann"], "7♠ 7♥ 7♦")
    services.finish_game(first.id, ids["Ann"], {ids["Bob"]: "10♠", ids["Cid"]: "10♥"})
    services.seat_player(session.id, "Dan", after=ids["Ann"])
    services.unseat_player(session.id, ids["Bob"])
    services.start_game(session.id)  # game 2: Ann, Dan, Cid, nothing recorded
    reopened = services.reopen_game(first.id)
    assert [player.name for player in reopened.players] == ["Ann", "Bob", "Cid"]
    assert [game.number for game in services.game_summaries(services.get_session(session.id))] == [
        1
    ]
    services.finish_game(first.id, ids["Ann"], {ids["Bob"]: "10♠", ids["Cid"]: "10♥"})
    again = services.start_game(session.id)
    assert [player.name for player in again.players] == ["Ann", "Dan", "Cid"]
    assert again.dealer_id in {player.id for player in again.players}


@pytest.mark.usefixtures("ctx")
def test_a_seating_change_stored_for_a_later_game_leaves_the_next_deal_among_its_players() -> None:
    # A database from before such reopens were refused: Dan's join and Bob's leave count from
    # game 3, but game 2 was removed and is dealt next.
    session = services.create_session(["Ann", "Bob", "Cid"])
    first = services.start_game(session.id)
    ids = ids_by_name(session.id)
    services.record_meld(first.id, ids["Ann"], "7♠ 7♥ 7♦")
    services.finish_game(first.id, ids["Ann"], {ids["Bob"]: "10♠", ids["Cid"]: "10♥"})
    services.seat_player(session.id, "Dan", after=ids["Ann"])
    services.unseat_player(session.id, ids["Bob"])
    players = Player.__table__
    db.session.execute(sa.update(players).where(players.c.name == "Dan").values(joined_game=3))
    db.session.execute(sa.update(players).where(players.c.name == "Bob").values(left_game=3))
    db.session.commit()
    second = services.start_game(session.id)
    assert [player.name for player in second.players] == ["Ann", "Bob", "Cid"]
    assert second.dealer.name == "Bob"  # the next after Ann among those dealt in
    deal = services.deal_of(services.read_game(second.id))  # the game's read answers
    assert deal.first_player in {player.id for player in second.players}
