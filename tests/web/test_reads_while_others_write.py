"""Pages that read a session in several statements while another phone writes to it.

On PostgreSQL each statement of a transaction sees the latest commit: a game dealt between the
page's statements must not break the page (SQLite's reader sees one snapshot throughout).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from tests.helpers import PageTable as Table
from tests.helpers import book, finish_data, meld, start, text

pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@contextmanager
def another_phone_deals_after_the_games_are_read(app: Flask, table: Table) -> Iterator[None]:
    """Deal the next game and record a meld in it, once, right after a page reads the games."""
    dealt: list[bool] = []

    def deal(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if dealt or not statement.lstrip().startswith("SELECT games.id, games.number"):
            return
        dealt.append(True)  # once: the other phone's own reads pass here too
        with app.app_context():  # its own database session and connection, committed
            game = services.start_game(table.session_pk)
            services.record_meld(game.id, table.players["Bob"], "7h 7d 7s")

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "after_cursor_execute", deal)
    try:
        yield
    finally:
        sa.event.remove(engine, "after_cursor_execute", deal)
    assert dealt, "the page read no games"


def one_game_played(client: FlaskClient) -> Table:
    """Start a session and play its first game: Ann melds and goes out."""
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    book(client, table, finish_data(table, "Ann", {"Bob": "9s", "Cid": "2h"}, romme="no"))
    return table


def test_the_history_shows_the_games_it_read_while_the_next_is_dealt(
    client: FlaskClient, app: Flask
) -> None:
    table = one_game_played(client)
    with another_phone_deals_after_the_games_are_read(app, table):
        answer = client.get(f"/sessions/{table.session}/history")
    assert answer.status_code == 200
    page = text(answer.get_data(as_text=True))
    assert "Ann sequence Q♣ K♣ A♣" in page
    # The next look shows the game dealt meanwhile.
    again = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "Game 2" in again and "Bob set 7♠ 7♥ 7♦" in again


def test_the_session_page_shows_the_games_it_read_while_the_next_is_dealt(
    client: FlaskClient, app: Flask
) -> None:
    table = one_game_played(client)
    with another_phone_deals_after_the_games_are_read(app, table):
        answer = client.get(f"/sessions/{table.session}")
    assert answer.status_code == 200
    assert "Game 1" in text(answer.get_data(as_text=True))
