"""Reading the audit trail: the history and a game's answer make as many statements for many
lines and games as for one."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.keys import SessionKeys
from tests.helpers import statements_for

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


def played(app: Flask, client: FlaskClient, games: int, changes: int) -> dict[str, object]:
    """Play ``games`` games, each with ``changes`` corrections and undos and a reopen.

    Every game but the last is finished again; the client gets the session's edit key.
    """
    keys = SessionKeys.new()
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], target=10**6, keys=keys)
        public_id, session_id = session.public_id, session.id
        ann, bob, cid = (player.id for player in session.players)
        for number in range(1, games + 1):
            game_id = services.start_game(session_id).id
            meld = services.record_meld(game_id, ann, "6♠ 6♥ 6♦").id
            for _ in range(changes):
                services.correct_entry(game_id, meld, None, bob)
                services.correct_entry(game_id, meld, None, ann)
                services.record_meld(game_id, cid, "9♣ 10♣ J♣")
                services.undo_last_entry(game_id)
            services.finish_game(game_id, ann, {bob: "K♥", cid: "2♥"})
            services.reopen_game(game_id)
            if number < games:
                services.finish_game(game_id, ann, {bob: "K♥", cid: "2♥"})
    client.keys[public_id] = keys.edit  # type: ignore[attr-defined]
    client.game_sessions[game_id] = public_id  # type: ignore[attr-defined]
    assert client.get(f"/sessions/{public_id}?key={keys.edit}").status_code == 302
    return {"session": public_id, "game": game_id}


def test_the_history_reads_every_game_s_trail_in_as_many_statements_for_many_lines(
    app: Flask, client: FlaskClient
) -> None:
    small, large = played(app, client, 1, 1), played(app, client, 6, 5)

    def page(ids: dict[str, object]) -> object:
        return client.get(f"/sessions/{ids['session']}/history")

    assert statements_for(app, lambda: page(large)) == statements_for(app, lambda: page(small))
    assert page(large).get_data(as_text=True).count('<li class="audit">') == 6 * (3 * 5 + 1)


def test_a_game_s_answer_reads_its_trail_in_as_many_statements_for_many_lines(
    app: Flask, client: FlaskClient
) -> None:
    small, large = played(app, client, 1, 1), played(app, client, 2, 8)

    def answer(ids: dict[str, object]) -> object:
        return client.get(f"/api/v1/games/{ids['game']}")

    assert statements_for(app, lambda: answer(large)) == statements_for(app, lambda: answer(small))
    assert len(answer(large).get_json()["audit"]) == 3 * 8 + 1
