"""How a use case reads its game: the rows the key check read, and the entries every time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import services, store
from scorekeeper.extensions import db
from scorekeeper.store.games import ENTRY_ROWS, add_entry_row

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """Run the test inside an app context, as a request would."""
    with app.app_context():
        yield


@contextmanager
def statements_sent(app: Flask) -> Iterator[list[str]]:
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


def read_from_the_database(game_id: int) -> list[store.EntryRow]:
    """Read a game's entries with the statement a read uses."""
    entries: list[store.EntryRow] = []
    for row in db.session.connection().execute(ENTRY_ROWS, {"game_id": game_id}):
        add_entry_row(entries, row)
    db.session.rollback()
    return entries


def german_game() -> tuple[int, list[int]]:
    session = services.create_session(
        ["Ann", "Bob", "Cid"], variant="german_rummy", house_rules={"opening": 0}
    )
    game = services.start_game(session.id)
    return game.id, [player.id for player in game.players]


@pytest.mark.usefixtures("ctx")
def test_every_kind_of_entry_reads_back_as_its_write_answered() -> None:
    """The times too: a write answers with its entry's time as the database gives it back."""
    game, (ann, bob, cid) = german_game()
    meld = services.record_meld(game, ann, "7♥ 8♥ 9♥").entry
    melds = [
        row for row, _meld in services.record_melds(game, bob, ["2♠ 3♠ JKR=4♠", "K♣ K♦ K♠"]).melds
    ]
    services.record_meld(game, cid, "5♣ 6♣ 7♣")
    layoff = services.record_layoff(game, cid, meld.id, "10♥").entry
    swap = services.record_swap(game, ann, melds[0].id, "4♠", "5♦ JKR=6♦ 7♦")
    answered = [meld, *melds, layoff, swap.entry, swap.new_meld_row]
    read = services.read_game(game).entries
    assert read == read_from_the_database(game)
    assert [entry.kind for entry in read] == [
        "meld",
        "meld",
        "meld",
        "meld",
        "layoff",
        "swap",
        "meld",
    ]
    assert [read[at] for at in (0, 1, 2, 4, 5, 6)] == answered
    assert [entry.created_at for entry in answered] == [
        read[at].created_at for at in (0, 1, 2, 4, 5, 6)
    ]


def test_a_write_through_the_api_reads_the_game_once_the_key_checks_rows_and_its_entries(
    app: Flask,
) -> None:
    """The key check's read of the game is handed to the use case; the entries are read anew."""
    client = app.test_client()
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).get_json()
    game = client.post(f"/api/v1/sessions/{session['id']}/games").get_json()["id"]
    ann, bob = (player["id"] for player in session["players"])
    melds = f"/api/v1/games/{game}/melds"
    meld = client.post(melds, json={"player": ann, "cards": "7♥ 8♥ 9♥"}).get_json()["id"]
    with statements_sent(app) as statements:
        layoff = client.post(
            f"/api/v1/games/{game}/layoffs", json={"player": bob, "meld": meld, "cards": "10♥"}
        )
    assert layoff.status_code == 201, layoff.get_json()
    assert sum("FROM games JOIN sessions" in statement for statement in statements) == 1
    assert sum("FROM entries" in statement for statement in statements) == 1
    with statements_sent(app) as statements:
        read = client.get(f"/api/v1/games/{game}").get_json()
    assert sum("FROM games JOIN sessions" in statement for statement in statements) == 1
    assert [entry["type"] for entry in read["entries"]] == ["meld", "layoff"]


def test_a_write_through_the_pages_reads_the_games_rows_once_too(app: Flask) -> None:
    """The page's own read of the game and its use case both take the rows the key check read."""
    client = app.test_client()
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).get_json()
    game = client.post(f"/api/v1/sessions/{session['id']}/games").get_json()["id"]
    ann, bob = (player["id"] for player in session["players"])
    melds = f"/api/v1/games/{game}/melds"
    meld = client.post(melds, json={"player": ann, "cards": "7♥ 8♥ 9♥"}).get_json()["id"]
    assert client.get(f"/sessions/{session['id']}?key={session['edit_key']}").status_code == 302
    with statements_sent(app) as statements:
        layoff = client.post(
            f"/games/{game}/layoffs", data={"player": bob, "meld": meld, "cards": "10♥"}
        )
    assert layoff.status_code == 302, layoff.get_data(as_text=True)
    assert sum("FROM games JOIN sessions" in statement for statement in statements) == 1
    assert client.get(f"/api/v1/games/{game}").get_json()["entries"][-1]["type"] == "layoff"


@pytest.mark.usefixtures("ctx")
def test_rows_the_key_check_read_are_not_taken_in_a_later_transaction() -> None:
    """A use case run again after a race reads its game again: the rows may have changed."""
    game, (ann, _bob, _cid) = german_game()
    uow = store.unit_of_work()
    uow.games.check(game, reads_only=False)
    assert uow.kept("game", game, lock=True)
    # Rolled back as a write run again after a race is, around the unit of work.
    db.session.rollback()
    assert uow.kept("game", game, lock=False) is None
    db.session.connection()
    assert uow.kept("game", game, lock=False) is None
    services.abandon_game(game)
    assert services.read_game(game).status == "abandoned"
    with pytest.raises(services.ConflictError):
        services.record_meld(game, ann, "7♥ 8♥ 9♥")


@pytest.mark.usefixtures("ctx")
def test_rows_read_without_the_lock_do_not_serve_a_write_nor_another_game() -> None:
    game, _players = german_game()
    other, _others = german_game()
    uow = store.unit_of_work()
    uow.games.check(game, reads_only=True)
    assert uow.kept("game", game, lock=False)
    assert uow.kept("game", game, lock=True) is None
    assert uow.kept("game", other, lock=False) is None
    assert services.read_game(other).id == other
    db.session.rollback()


def test_an_entry_written_by_another_process_is_read_not_missed(
    app: Flask, app_with: Callable[..., Flask]
) -> None:
    """Another server on the same database writes between two of this one's entries."""
    other = app_with()
    with app.app_context():
        game, (ann, bob, cid) = german_game()
        services.record_meld(game, ann, "7♥ 8♥ 9♥")
    with other.app_context():
        theirs = services.record_meld(game, bob, "2♠ 3♠ 4♠").entry.id
    with app.app_context():
        services.record_meld(game, cid, "5♣ 6♣ 7♣")
        services.record_layoff(game, cid, theirs, "5♠")
        entries = services.read_game(game).entries
        assert [entry.kind for entry in entries] == ["meld", "meld", "meld", "layoff"]
        assert entries == read_from_the_database(game)
