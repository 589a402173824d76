"""A game's entries kept by the process that wrote them are the entries the database holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.services import rows
from tests.helpers import counted


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def read_from_the_database(game_id: int) -> list[rows.EntryRow]:
    """Read a game's entries with the statement a read uses, past anything kept."""
    entries: list[rows.EntryRow] = []
    for row in db.session.connection().execute(rows.ENTRY_ROWS, {"game_id": game_id}):
        rows.add_entry_row(entries, row)
    db.session.rollback()
    return entries


def reads_entries(app: Flask, read: Callable[[], object]) -> bool:
    """Tell whether a read of a game asked the database for its entries."""
    with counted(app) as statements:
        read()
    db.session.rollback()
    return any("FROM entries" in statement for statement in statements)


def german_game() -> tuple[int, list[int]]:
    session = services.create_session(
        ["Ann", "Bob", "Cid"], variant="german_rummy", house_rules={"opening": 0}
    )
    game = services.start_game(session.id)
    return game.id, [player.id for player in game.players]


@pytest.mark.usefixtures("ctx")
def test_after_every_kind_of_entry_the_kept_entries_are_those_stored(app: Flask) -> None:
    game, (ann, bob, cid) = german_game()
    meld = services.record_meld(game, ann, "7♥ 8♥ 9♥").entry.id
    services.record_melds(game, bob, ["2♠ 3♠ JKR=4♠", "K♣ K♦ K♠"])
    services.record_meld(game, cid, "5♣ 6♣ 7♣")
    services.record_layoff(game, cid, meld, "10♥")
    joker = services.read_game(game).entries[1].id
    services.record_swap(game, ann, joker, "4♠", "5♦ JKR=6♦ 7♦")
    services.record_layoff(game, bob, meld, "6♥")
    kept = services.read_game(game).entries
    assert not reads_entries(app, lambda: services.read_game(game))
    assert kept == read_from_the_database(game)
    assert [entry.kind for entry in kept] == [
        "meld",
        "meld",
        "meld",
        "meld",
        "layoff",
        "swap",
        "meld",
        "layoff",
    ]
    # The times too are as the database gives them back (SQLite keeps no time zone).
    assert [entry.created_at for entry in kept] == [
        entry.created_at for entry in read_from_the_database(game)
    ]


@pytest.mark.usefixtures("ctx")
def test_a_change_that_keeps_nothing_is_read_from_the_database(app: Flask) -> None:
    game, (ann, bob, _cid) = german_game()
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    services.record_meld(game, bob, "2♠ 3♠ 4♠")
    services.undo_last_entry(game)
    assert reads_entries(app, lambda: services.read_game(game))
    assert [entry.player_id for entry in services.read_game(game).entries] == [ann]
    # The next entry is kept again, in the place after the undo.
    services.record_meld(game, bob, "J♦ Q♦ K♦")
    assert not reads_entries(app, lambda: services.read_game(game))
    assert services.read_game(game).entries == read_from_the_database(game)


@pytest.mark.usefixtures("ctx")
def test_a_corrected_entry_is_read_with_its_new_cards(app: Flask) -> None:
    game, (ann, bob, _cid) = german_game()
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    meld = services.record_meld(game, bob, "2♠ 3♠ 4♠").entry.id
    services.correct_entry(game, meld, "2♣ 3♣ 4♣")
    assert reads_entries(app, lambda: services.read_game(game))
    entries = services.read_game(game).entries
    assert [card.card for card in entries[1].cards] == ["2♣", "3♣", "4♣"]
    assert entries == read_from_the_database(game)


def test_the_api_answers_the_same_from_kept_entries(app: Flask) -> None:
    """Through the API the key check's rows tell the version; the game reads the same."""
    client = app.test_client()
    session = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).get_json()
    game = client.post(f"/api/v1/sessions/{session['id']}/games").get_json()["id"]
    ann, bob = (player["id"] for player in session["players"])
    melds = f"/api/v1/games/{game}/melds"
    meld = client.post(melds, json={"player": ann, "cards": "7♥ 8♥ 9♥"}).get_json()["id"]
    with counted(app) as statements:
        layoff = client.post(
            f"/api/v1/games/{game}/layoffs", json={"player": bob, "meld": meld, "cards": "10♥"}
        )
    assert layoff.status_code == 201, layoff.get_json()
    assert not any("FROM entries" in statement for statement in statements)
    from_kept = client.get(f"/api/v1/games/{game}").get_json()
    with app.app_context():
        db.engine.dispose()  # forgets what was kept
    with counted(app) as statements:
        read = client.get(f"/api/v1/games/{game}").get_json()
    assert any("FROM entries" in statement for statement in statements)
    assert from_kept == read
    assert [entry["type"] for entry in read["entries"]] == ["meld", "layoff"]


def test_an_entry_written_by_another_process_is_read_not_missed(
    app: Flask, app_with: Callable[..., Flask]
) -> None:
    """Another server on the same file writes between two of this one's entries."""
    other = app_with()
    with app.app_context():
        game, (ann, bob, cid) = german_game()
        services.record_meld(game, ann, "7♥ 8♥ 9♥")
    with other.app_context():
        theirs = services.record_meld(game, bob, "2♠ 3♠ 4♠").entry.id
    with app.app_context():
        # Kept entries would not know the other server's meld: cid's meld would take its place
        # and the layoff onto it would be refused.
        services.record_meld(game, cid, "5♣ 6♣ 7♣")
        services.record_layoff(game, cid, theirs, "5♠")
        entries = services.read_game(game).entries
        assert [entry.kind for entry in entries] == ["meld", "meld", "meld", "layoff"]
        assert entries == read_from_the_database(game)


@pytest.mark.usefixtures("ctx")
def test_only_the_latest_games_are_kept(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows, "KEPT_GAMES", 2)
    games = [german_game() for _ in range(3)]
    for game, (ann, _bob, _cid) in games:
        services.record_meld(game, ann, "7♥ 8♥ 9♥")
    first = games[0][0]
    assert [reads_entries(app, partial(services.read_game, game)) for game, _ in games] == [
        True,
        False,
        False,
    ]
    assert services.read_game(first).entries == read_from_the_database(first)


@pytest.mark.parametrize("backend", ["postgresql"])
@pytest.mark.usefixtures("ctx")
def test_postgresql_reads_the_entries_every_time(app: Flask) -> None:
    """A statement waiting for the game's lock reads the session's version as it was before."""
    game, (ann, _bob, _cid) = german_game()
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    assert reads_entries(app, lambda: services.read_game(game))


@pytest.mark.usefixtures("ctx")
def test_a_write_kept_after_a_later_one_does_not_replace_it(app: Flask) -> None:
    """Threads keep their entries after the commit let the next writer in, in either order."""
    game, (ann, bob, _cid) = german_game()
    services.record_meld(game, ann, "7♥ 8♥ 9♥")
    earlier = services.read_game(game)
    services.record_meld(game, bob, "2♠ 3♠ 4♠")
    later = services.read_game(game)
    sessions = rows.SESSIONS.c
    version = db.session.scalar(
        sa.select(sessions.version).where(sessions.public_id == later.session_public_id)
    )
    db.session.rollback()
    rows.keep_entries(db.engine, earlier, version - 1)
    assert not reads_entries(app, lambda: services.read_game(game))
    assert services.read_game(game).entries == later.entries == read_from_the_database(game)
