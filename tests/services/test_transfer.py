"""Export and import: every session as JSON, read back into an empty database unchanged."""

from __future__ import annotations

import copy
import io
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.keys import Access, SessionKeys
from scorekeeper.models import (
    AuditLine,
    Entry,
    Game,
    GameSession,
    MergedName,
    Player,
    SettlementLine,
    TableCard,
)
from scorekeeper.services.groups import NewGroup
from scorekeeper.transfer import (
    DatabaseNotEmptyError,
    MalformedDocumentError,
    UnknownFormatError,
    export_sessions,
    import_sessions,
)
from tests.helpers import as_version_5, as_version_6

# Every case runs on SQLite and on a real PostgreSQL server.
# What touches the database's own behaviour (ids, sequences, times, transactions) runs on
# SQLite and on a real PostgreSQL server; checks of the document's shape run on SQLite only.
BOTH = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def empty_database_url(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[str]:
    """Return the URL of a second database: a new SQLite file, or a migrated PostgreSQL one."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'imported.sqlite3'}"
        return
    cluster: str = request.getfixturevalue("postgres_cluster")
    admin: Callable[[str], None] = request.getfixturevalue("postgres_admin")
    name = f"imported_{uuid.uuid4().hex[:16]}"
    admin(f"CREATE DATABASE {name} TEMPLATE template_scorekeeper")
    yield f"{cluster}/{name}"
    admin(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def empty_app(
    empty_database_url: str, backend: str, request: pytest.FixtureRequest
) -> Iterator[Flask]:
    """Return an app on the second database, built by the real migrations and empty.

    On SQLite it is a copy of the file the migrations built once for the run: migrating a new
    file for each test took a second of each.
    """
    if backend == "sqlite":
        template: Path = request.getfixturevalue("sqlite_template")
        shutil.copyfile(template, empty_database_url.removeprefix("sqlite:///"))
    # Both are at the latest revision already: the template the migrations built, or its copy.
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": empty_database_url}
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def build_tables() -> dict[str, int]:
    """Fill the database through the use cases; return the ids a test goes on with.

    A long session with a Rommé game (one hand as cards, one as points), an abandoned game and
    an open game with melds, layoffs and a deleted entry; a short session won at its target;
    a Boathouse Rum session of five games without a game yet.
    """
    long = services.create_session(["Ann", "Bob", "Cid"], target=1000, first_dealer=1)
    ann, bob, cid = (player.id for player in long.players)
    game = services.start_game(long.id).id
    sixes = services.record_meld(game, bob, "6♠ 6♥ 6♦").id
    services.record_meld(game, ann, "Q♥ K♥ A♥ 2♥ 3♥ 4♥")
    services.record_layoff(game, ann, sixes, "6♣")
    finished = services.finish_game(game, ann, {bob: "A♠ 7♥", cid: 23}, True)
    assert finished.romme
    game = services.start_game(long.id).id
    services.record_meld(game, cid, "A♠ A♥ A♦")
    services.abandon_game(game)
    game = services.start_game(long.id).id
    diamonds = services.record_meld(game, bob, "J♦ Q♦ K♦").id
    sevens = services.record_meld(game, cid, "7♣ 7♠ 7♥").id
    services.record_layoff(game, ann, diamonds, "A♦")
    services.record_layoff(game, bob, sevens, "7♦")
    spades = services.record_meld(game, ann, "2♠ 3♠ 4♠").id
    services.record_meld(game, cid, "9♥ 10♥ J♥")
    services.delete_entry(game, spades)

    short = services.create_session(["Jürgen", "Zoë"], target=20)
    jurgen, zoe = (player.id for player in short.players)
    won = services.start_game(short.id).id
    services.record_meld(won, jurgen, "10♣ J♣ Q♣")
    services.finish_game(won, jurgen, {zoe: "K♠ 5♦"}, False)
    assert services.get_session(short.id).status == "finished"

    # Boathouse Rum to a number of games: a session with no target and its own house rules.
    services.create_session(
        ["Eve", "Dan"],
        variant="boathouse_rum",
        house_rules={"end": {"games": 5}},
        first_dealer=None,
    )
    return {"open_game": game, "ann": ann, "session": long.id}


def row_counts() -> dict[str, int]:
    """Return the number of committed rows of every table."""
    db.session.rollback()
    with db.engine.connect() as connection:
        return {
            table.name: connection.execute(
                sa.select(sa.func.count()).select_from(table)
            ).scalar_one()
            for table in db.metadata.sorted_tables
        }


def largest_ids() -> dict[str, int]:
    """Return the largest id of every table."""
    with db.engine.connect() as connection:
        return {
            table.name: connection.execute(sa.select(sa.func.max(table.c.id))).scalar_one() or 0
            for table in db.metadata.sorted_tables
        }


def build_group() -> int:
    """Play two sessions of a group, "Anni" at one and "Anna" at the other; merge the names.

    Return the group's id. The sessions come after those of build_tables(): Anni's, with
    Dora, is the document's sessions[3], Anna's, with Bob, sessions[4].
    """
    first = services.create_session(
        ["Anni", "Dora"], group=NewGroup("Thursdays", SessionKeys.new()), start_first_game=True
    )
    group = first.group_id
    assert group is not None
    services.create_session(["Anna", "Bob"], group=group, start_first_game=True)
    services.merge_names(group, "Anni", "Anna")
    return group


@pytest.fixture
def document(app: Flask) -> dict[str, Any]:
    """Return the export of a database filled by build_tables()."""
    with app.app_context():
        build_tables()
        return export_sessions()


@pytest.fixture
def grouped_document(app: Flask) -> dict[str, Any]:
    """Return the export of a database filled by build_tables() and build_group()."""
    with app.app_context():
        build_tables()
        build_group()
        return export_sessions()


def build_german_rummy() -> int:
    """Play a German Rummy session with what only version 6 keeps; return its id.

    Two copies of a card, jokers (one said, one in a set), an entry of two melds, a joker
    swap, and a player who left after the first game while another joined.
    """
    session = services.create_session(
        ["Ann", "Bob", "Cid"], variant="german_rummy", house_rules={"opening": 0}
    )
    ann, bob, cid = (player.id for player in session.players)
    game = services.start_game(session.id).id
    services.record_melds(game, ann, ["7♥ 8♥ 9♥", "Q♣ Q♦ JKR"])
    services.record_meld(game, bob, "7♥ 8♥ 9♥")
    run = services.record_meld(game, cid, "4♠ JKR=5♠ 6♠").id
    services.record_swap(game, ann, run, "5♠", "10♦ J♦ JKR=Q♦")
    services.finish_game(game, ann, {bob: "A♠ JKR", cid: "3♣"})
    services.unseat_player(session.id, bob)
    services.seat_player(session.id, "Dan")
    game = services.start_game(session.id).id
    services.record_meld(game, cid, "2♦ 3♦ 4♦")
    return session.id


@BOTH
def test_two_packs_jokers_swaps_and_seats_survive_the_round_trip(
    app: Flask, empty_app: Flask
) -> None:
    with app.app_context():
        session_id = build_german_rummy()
        exported = export_sessions()
        answer = services.session_scores(services.get_session(session_id))
    (session,) = exported["sessions"]
    first = session["games"][0]
    cards = [(card["code"], card["copy"]) for entry in first["entries"] for card in entry["cards"]]
    assert ("7♥", 1) in cards and ("JKR", 2) in cards
    assert {entry["kind"] for entry in first["entries"]} == {"meld", "swap"}
    assert any(card["stands_for"] == "5♠" for entry in first["entries"] for card in entry["cards"])
    assert sum(entry["group_id"] is not None for entry in first["entries"]) == 2
    players = {player["name"]: player for player in session["players"]}
    assert (players["Bob"]["left_game"], players["Dan"]["joined_game"]) == (2, 2)
    with empty_app.app_context():
        assert import_sessions(copy.deepcopy(exported)) == 1
        assert export_sessions() == exported
        imported = services.session_scores(services.get_session(session_id))
        # The imported game plays on: its table replays with every copy and joker.
        game = services.read_game(session["games"][1]["id"])
        services.record_meld(game.id, game.players[0].id, "JKR=8♣ 9♣ 10♣")
    assert imported.totals == answer.totals


def test_import_refuses_a_player_in_a_game_dealt_before_they_joined(
    app: Flask, empty_app: Flask
) -> None:
    with app.app_context():
        build_german_rummy()
        document = export_sessions()
    dan = next(player for player in document["sessions"][0]["players"] if player["name"] == "Dan")
    dan["joined_game"] = 3  # Dan's meld lies in game 2
    document["sessions"][0]["games"][1]["entries"][0]["player_id"] = dan["id"]
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match="did not sit"):
        import_sessions(document)
    assert nothing_in(empty_app)


@BOTH
def test_a_version_5_document_reads_every_card_once_and_every_player_seated(
    empty_app: Flask, document: dict[str, Any]
) -> None:
    with empty_app.app_context():
        assert import_sessions(as_version_5(document)) == 3
        assert export_sessions() == document


def play_with_a_tap_time(tapped: datetime) -> tuple[int, dict[str, Any]]:
    """Record Ann's meld with the time it was tapped, Bob's without; return the game, exported."""
    session = services.create_session(["Ann", "Bob"])
    ann, bob = (player.id for player in session.players)
    game = services.start_game(session.id).id
    services.record_meld(game, ann, "7♥ 8♥ 9♥", tapped_at=tapped)
    services.record_meld(game, bob, "Q♣ K♣ A♣")
    return game, export_sessions()


TAPPED = datetime(2026, 11, 28, 19, 6, 12, 345000, tzinfo=UTC)


@BOTH
def test_the_time_each_entry_was_tapped_survives_the_round_trip(
    app: Flask, empty_app: Flask
) -> None:
    with app.app_context():
        game, exported = play_with_a_tap_time(TAPPED)
    entries = exported["sessions"][0]["games"][0]["entries"]
    assert [entry["tapped_at"] is not None for entry in entries] == [True, False]
    assert datetime.fromisoformat(entries[0]["tapped_at"]) == TAPPED
    with empty_app.app_context():
        assert import_sessions(copy.deepcopy(exported)) == 1
        assert export_sessions() == exported
        kept = [entry.tapped_at for entry in services.read_game(game).entries]
    assert kept[0] is not None and kept[0].replace(tzinfo=UTC) == TAPPED
    assert kept[1] is None


def test_a_version_6_document_has_no_tap_times(app: Flask, empty_app: Flask) -> None:
    with app.app_context():
        _, exported = play_with_a_tap_time(TAPPED)
    with empty_app.app_context():
        assert import_sessions(as_version_6(exported)) == 1
        again = export_sessions()["sessions"][0]["games"][0]["entries"]
    assert [entry["tapped_at"] for entry in again] == [None, None]


def nothing_in(app: Flask) -> bool:
    with app.app_context():
        return set(row_counts().values()) == {0}


# --- the round trip ------------------------------------------------------------------------------


@BOTH
def test_exporting_what_an_import_wrote_gives_the_same_document(
    app: Flask, empty_app: Flask
) -> None:
    with app.app_context():
        build_tables()
        exported = export_sessions()
        counts = row_counts()
    assert json.loads(json.dumps(exported)) == exported
    with empty_app.app_context():
        assert import_sessions(copy.deepcopy(exported)) == 3
        assert export_sessions() == exported
        assert row_counts() == counts


@BOTH
def test_the_document_keeps_every_id_time_card_hand_and_running_total(
    app: Flask, document: dict[str, Any]
) -> None:
    assert (document["format"], document["version"]) == ("treppenromme-scorekeeper", 7)
    long, short, empty = document["sessions"]
    assert [player["name"] for player in long["players"]] == ["Ann", "Bob", "Cid"]
    assert [game["status"] for game in long["games"]] == ["finished", "abandoned", "open"]
    assert (short["status"], short["games"][0]["romme"], empty["games"]) == ("finished", False, [])
    assert long["house_rules"] == {"end": {"target": 1000}, "romme_doubling": "winner"}
    assert (empty["variant"], empty["target"]) == ("boathouse_rum", None)
    assert empty["house_rules"] == {"end": {"games": 5}}
    romme = long["games"][0]
    assert romme["romme"] is True
    assert romme["winner_id"] == long["players"][0]["id"]
    lines = {line["player_id"]: line for line in romme["settlement_lines"]}
    bob, cid = long["players"][1]["id"], long["players"][2]["id"]
    assert (lines[bob]["hand"], lines[bob]["factor"]) == ("A♠ 7♥", 2)
    assert (lines[cid]["hand"], lines[cid]["hand_points"]) == (None, 23)
    assert [line["meld_points"] for line in romme["settlement_lines"]] == [40, 18, 0]
    open_game = long["games"][2]
    assert [entry["position"] for entry in open_game["entries"]] == [1, 2, 3, 4, 6]
    layoff = open_game["entries"][2]
    assert (layoff["kind"], layoff["meld_id"]) == ("layoff", open_game["entries"][0]["id"])
    assert [(card["code"], card["position"], card["value"]) for card in layoff["cards"]] == [
        ("A♦", 0, 10)
    ]
    assert open_game["ended_at"] is None
    with app.app_context():
        banked = {player.id: player.banked for player in services.get_session(long["id"]).players}
    assert {player["id"]: player["banked"] for player in long["players"]} == banked
    for stamp in (long["created_at"], romme["ended_at"], layoff["created_at"]):
        assert datetime.fromisoformat(stamp).utcoffset() == timedelta(0)


@BOTH
def test_the_imported_database_plays_on_with_new_ids(
    app: Flask, empty_app: Flask, document: dict[str, Any]
) -> None:
    long = document["sessions"][0]
    ann, bob, cid = (player["id"] for player in long["players"])
    open_game = long["games"][2]["id"]
    with app.app_context():
        expected = services.session_scores(services.get_session(long["id"])).totals
    with empty_app.app_context():
        import_sessions(document)
        before = largest_ids()
        assert services.session_scores(services.get_session(long["id"])).totals == expected
        meld = services.record_meld(open_game, ann, "8♣ 8♦ 8♠")
        assert meld.id > before["entries"]
        assert min(card.id for card in meld.cards) > before["table_cards"]
        services.finish_game(open_game, ann, {bob: "2♥", cid: 5})
        assert largest_ids()["settlement_lines"] > before["settlement_lines"]
        new = services.create_session(["Ann", "Bob"])
        game = services.start_game(new.id)
        assert new.id > before["sessions"]
        assert min(player.id for player in new.players) > before["players"]
        assert game.id > before["games"]


@BOTH
def test_export_reads_the_same_handful_of_queries_whatever_the_database_holds(
    app: Flask,
) -> None:
    def statements() -> int:
        sent: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            sent.append(statement)

        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            export_sessions()
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
        return len(sent)

    with app.app_context():
        build_tables()
        small = statements()
        for _ in range(3):
            build_tables()
        assert statements() == small <= 9


@BOTH
def test_times_in_another_zone_are_imported_as_the_same_moment(
    empty_app: Flask, document: dict[str, Any]
) -> None:
    session = document["sessions"][0]
    moment = datetime.fromisoformat(session["created_at"])
    changed = copy.deepcopy(document)
    changed["sessions"][0]["created_at"] = moment.astimezone(
        timezone(timedelta(hours=2))
    ).isoformat()
    assert changed != document
    with empty_app.app_context():
        import_sessions(changed)
        assert export_sessions() == document


# --- refusals --------------------------------------------------------------------------------


@BOTH
def test_import_refuses_a_database_that_is_not_empty_and_writes_nothing(
    app: Flask, document: dict[str, Any]
) -> None:
    with app.app_context():
        before = export_sessions()
        with pytest.raises(DatabaseNotEmptyError, match="not empty"):
            import_sessions(document)
        assert export_sessions() == before


def test_import_refuses_even_a_database_with_only_an_empty_session(
    empty_app: Flask, document: dict[str, Any]
) -> None:
    with empty_app.app_context():
        services.create_session(["Ann", "Bob"])
        with pytest.raises(DatabaseNotEmptyError):
            import_sessions(document)
        assert row_counts()["sessions"] == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=8), "version 8"),
        (lambda d: d.update(version="1"), "version '1'"),
        (lambda d: d.update(format="something-else"), "not a scorekeeper export"),
        (lambda d: d.pop("format"), "not a scorekeeper export"),
    ],
)
def test_import_refuses_an_unknown_format_or_version_and_writes_nothing(
    empty_app: Flask,
    document: dict[str, Any],
    change: Callable[[dict[str, Any]], object],
    message: str,
) -> None:
    change(document)
    with empty_app.app_context(), pytest.raises(UnknownFormatError, match=message):
        import_sessions(document)
    assert nothing_in(empty_app)


@pytest.mark.parametrize("document", [None, [], "sessions", 1])
def test_import_refuses_what_is_not_a_document_at_all(empty_app: Flask, document: object) -> None:
    with empty_app.app_context(), pytest.raises(UnknownFormatError):
        import_sessions(document)


def test_the_keys_handed_out_before_still_open_the_imported_session(
    app: Flask, empty_app: Flask
) -> None:
    keys = SessionKeys.new()
    with app.app_context():
        public_id = services.create_session(["Ann", "Bob"], keys=keys).public_id
        exported = export_sessions()
    with empty_app.app_context():
        import_sessions(exported)
        session, granted = services.access_to_session(public_id, lambda _: keys.edit)
        assert granted == Access.EDIT
        assert [player.name for player in session.players] == ["Ann", "Bob"]
        _, granted = services.access_to_session(public_id, lambda _: keys.view)
        assert granted == Access.VIEW


def long_session(d: dict[str, Any]) -> dict[str, Any]:
    session: dict[str, Any] = d["sessions"][0]
    return session


def open_entries(d: dict[str, Any]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = long_session(d)["games"][2]["entries"]
    return entries


BROKEN: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "sessions not a list": (lambda d: d.update(sessions={}), r"sessions should be a list"),
    "a key missing": (lambda d: long_session(d).pop("target"), r"sessions\[0\] has no 'target'"),
    "an unknown key": (lambda d: long_session(d).update(colour="red"), "unknown 'colour'"),
    "a public id twice": (
        lambda d: d["sessions"][1].update(public_id=long_session(d)["public_id"]),
        r"sessions\[1\]\.public_id: empty, or the id of another session",
    ),
    "text for a number": (
        lambda d: long_session(d).update(target="1000"),
        r"sessions\[0\]\.target: '1000' is not a whole number",
    ),
    "true for a number": (
        lambda d: long_session(d)["players"][0].update(banked=True),
        r"players\[0\]\.banked: True",
    ),
    "an id too large": (lambda d: long_session(d).update(id=2**31), "from 1 to 2147483647"),
    "a status not known": (
        lambda d: long_session(d)["games"][0].update(status="won"),
        "'open' or 'finished' or 'abandoned'",
    ),
    "a time that is not one": (
        lambda d: long_session(d).update(created_at="yesterday"),
        "ISO 8601",
    ),
    "a time without its zone": (
        lambda d: long_session(d).update(created_at="2026-01-01T10:00:00"),
        "ISO 8601",
    ),
    "a name too long": (
        lambda d: long_session(d)["players"][0].update(name="A" * 41),
        "at most 40 characters",
    ),
    "a NUL in a name": (lambda d: long_session(d)["players"][0].update(name="A\x00"), "name"),
    "an unknown variant": (lambda d: long_session(d).update(variant="canasta"), "canasta"),
    "a card that is none": (
        lambda d: open_entries(d)[0]["cards"][0].update(code="X♠"),
        r"entries\[0\]\.cards\[0\]\.code",
    ),
    "a card not written canonically": (
        lambda d: open_entries(d)[0]["cards"][0].update(code="jd"),
        "should be written 'J♦'",
    ),
    "a card twice on a table": (
        lambda d: open_entries(d)[1]["cards"][0].update(code="J♦"),
        "J♦ lies on the table twice",
    ),
    "a layoff onto no meld": (
        lambda d: open_entries(d)[2].update(meld_id=999),
        "a layoff must name a meld",
    ),
    "a layoff onto a meld of another game": (
        lambda d: open_entries(d)[2].update(
            meld_id=long_session(d)["games"][0]["entries"][0]["id"]
        ),
        "a layoff must name a meld",
    ),
    "a meld onto a meld": (
        lambda d: open_entries(d)[1].update(meld_id=open_entries(d)[0]["id"]),
        "a meld lies on no meld",
    ),
    "a player of another session": (
        lambda d: long_session(d)["games"][0].update(
            dealer_id=d["sessions"][1]["players"][0]["id"]
        ),
        "does not play in this session",
    ),
    "an id twice": (
        lambda d: d["sessions"][1].update(id=long_session(d)["id"]),
        "appears twice",
    ),
    "a hand that is not cards": (
        lambda d: long_session(d)["games"][0]["settlement_lines"][1].update(hand="two kings"),
        r"settlement_lines\[1\]\.hand",
    ),
    "entries not a list": (
        lambda d: long_session(d)["games"][2].update(entries=None),
        "entries should be a list",
    ),
    "a card that is no object": (
        lambda d: open_entries(d)[0]["cards"].append("Q♠"),
        r"cards\[3\] should be an object",
    ),
}


@pytest.mark.parametrize("broken", BROKEN)
def test_import_refuses_a_malformed_document_with_a_plain_message_and_writes_nothing(
    empty_app: Flask, document: dict[str, Any], broken: str
) -> None:
    change, message = BROKEN[broken]
    change(document)
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match=message):
        import_sessions(document)
    assert nothing_in(empty_app)


def open_game(d: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = long_session(d)["games"][2]
    return game


# What the import let in before it checked contents, and what each broke: reads (500 or 422),
# pages, or the game, in which nothing could be recorded any more.
CRAFTED: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "an audit line with an empty before": (
        lambda d: open_game(d)["audit_lines"][0].update(before={}),
        r"games\[2\]\.audit_lines\[0\]\.before: the entry has no 'cards', 'id'",
    ),
    "an audit line naming its player by a text": (
        lambda d: open_game(d)["audit_lines"][0]["before"].update(player="abc"),
        r"audit_lines\[0\]\.before: player: 'abc' is not a whole number",
    ),
    "a first dealer in seat 99 of a session without games": (
        lambda d: d["sessions"][2].update(first_dealer_seat=99),
        r"sessions\[2\]\.first_dealer_seat: 99 is not a seat of the first game \(0 to 1\)",
    ),
    "a time in the year 9999": (
        lambda d: long_session(d).update(created_at="9999-12-31T23:59:59+00:00"),
        r"sessions\[0\]\.created_at: .* is not an ISO 8601 time with its zone, from 1970",
    ),
    "a time before the first year": (
        lambda d: open_entries(d)[0].update(created_at="0001-01-01T00:30:00+01:00"),
        r"games\[2\]\.entries\[0\]\.created_at",
    ),
    "an illegal meld": (
        lambda d: open_entries(d)[1]["cards"][0].update(code="2♣"),
        r"games\[2\]\.entries\[1\]: the rules of Treppenrommé refuse this entry here: ",
    ),
    "a copy beyond the packs": (
        lambda d: open_entries(d)[0]["cards"][0].update(copy=1),
        r"entries\[0\]\.cards\[0\]\.copy: the packs of Treppenrommé hold no copy 1 of J♦",
    ),
    "a joker in Treppenrommé": (
        lambda d: open_entries(d)[4]["cards"][0].update(code="JKR"),
        r"entries\[4\]\.cards\[0\]\.copy: the packs of Treppenrommé hold no copy 0 of JKR",
    ),
    "an entry without cards": (
        lambda d: open_entries(d)[4].update(cards=[]),
        r"games\[2\]\.entries\[4\]: the rules of Treppenrommé refuse this entry here: ",
    ),
    "a name with a direction override": (
        lambda d: long_session(d)["players"][0].update(name="\u202eAnn"),
        r"sessions\[0\]\.players\[0\]\.name: ",
    ),
    "two names merged into one person at one table": (
        lambda d: d["sessions"][3]["players"][1].update(name="Anna"),
        r"sessions\[3\]\.players: “Anna” and “Anni” count as one person in this group",
    ),
    "a merge of names that are one person already": (
        lambda d: d["groups"][0]["merges"].append(
            {**d["groups"][0]["merges"][0], "id": 99, "name": "ANNI", "name_key": "anni"}
        ),
        r"groups\[0\]\.merges\[1\]: “ANNI” and “Anna” count as one person already",
    ),
    "a public id that cannot be reached": (
        lambda d: long_session(d).update(public_id="a/b"),
        r"sessions\[0\]\.public_id: 'a/b' is not an id the app makes",
    ),
    # Reopening it answered 500, finishing it 409 for good.
    "an open game with settlement lines": (
        lambda d: open_game(d)["settlement_lines"].append(
            {**long_session(d)["games"][0]["settlement_lines"][0], "id": 99}
        ),
        r"games\[2\]\.settlement_lines: an open game has none",
    ),
    # The sheet said "1040 points, total 55"; a reopen left a total at -12265.
    "a total of 999999": (
        lambda d: long_session(d)["players"][0].update(banked=999999),
        r"sessions\[0\]\.players\[0\]\.banked: 999999 is not the sum of what the player's "
        r"ended games booked \(130\)",
    ),
    "a gain of 1000": (
        lambda d: long_session(d)["games"][0]["settlement_lines"][0].update(gain=1000),
        r"games\[0\]\.settlement_lines\[0\]\.gain: 1000 is not what the rules book \(90\)",
    ),
    "meld points of 12345": (
        lambda d: long_session(d)["games"][0]["settlement_lines"][1].update(meld_points=12345),
        r"games\[0\]\.settlement_lines\[1\]\.meld_points: 12345 is not what the rules book "
        r"\(18\)",
    ),
    "an entry value of 999": (
        lambda d: open_entries(d)[0].update(value=999),
        r"games\[2\]\.entries\[0\]\.value: 999 is not what the rules write for it \(30\)",
    ),
    "a card valued 99": (
        lambda d: open_entries(d)[2]["cards"][0].update(value=99),
        r"games\[2\]\.entries\[2\]\.cards: the values 99 are not what the rules write \(10\)",
    ),
    "a finished game without settlement lines": (
        lambda d: long_session(d)["games"][0].update(settlement_lines=[]),
        r"games\[0\]\.settlement_lines: Ann, Bob and Cid played the game; each has one line",
    ),
    "a finished game without a winner": (
        lambda d: long_session(d)["games"][0].update(winner_id=None, romme=None),
        r"games\[0\]: a game nobody went out of is abandoned, with no hand",
    ),
    "an abandoned game with a winner": (
        lambda d: long_session(d)["games"][1].update(winner_id=long_session(d)["players"][2]["id"]),
        r"games\[1\]: a game with a winner is finished",
    ),
    "a hand holding a card on the table": (
        lambda d: long_session(d)["games"][0]["settlement_lines"][1].update(hand="6♣ 7♥"),
        r"games\[0\]: the rules of Treppenrommé refuse this settlement: .*6♣",
    ),
    "a Rommé hand booked without its doubling": (
        lambda d: long_session(d)["games"][0].update(romme=False),
        r"games\[0\]\.settlement_lines\[0\]\.gain: 90 is not what the rules book \(45\)",
    ),
    "a session still open although won": (
        lambda d: d["sessions"][1].update(status="open"),
        r"sessions\[1\]\.status: 'open', but the rules say 'finished'",
    ),
    "two sessions with one edit key digest": (
        lambda d: d["sessions"][1].update(edit_key_digest=long_session(d)["edit_key_digest"]),
        r"sessions\[1\]\.edit_key_digest: the digest of another key of the document",
    ),
    "a view key that is the edit key": (
        lambda d: long_session(d).update(view_key_digest=long_session(d)["edit_key_digest"]),
        r"sessions\[0\]\.view_key_digest: the digest of another key of the document",
    ),
    "a group's key that opens a session": (
        lambda d: d["groups"][0].update(view_key_digest=long_session(d)["view_key_digest"]),
        r"sessions\[0\]\.view_key_digest: the digest of another key of the document",
    ),
}


@pytest.mark.parametrize("crafted", CRAFTED)
def test_import_refuses_contents_the_app_would_never_have_written(
    empty_app: Flask, grouped_document: dict[str, Any], crafted: str
) -> None:
    change, message = CRAFTED[crafted]
    change(grouped_document)
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match=message):
        import_sessions(grouped_document)
    assert nothing_in(empty_app)


def test_merges_keyed_before_names_were_compared_in_nfkc_import_with_nfkc_keys(
    empty_app: Flask, grouped_document: dict[str, Any]
) -> None:
    [group] = grouped_document["groups"]
    [merge] = group["merges"]  # "Anni" into "Anna"
    # Versions before wrote a full-width name's key only case folded, and took "Ａｎｎｉ" and
    # "Anni" for two names: both could be merged into "Anna".
    group["merges"] = [
        {**merge, "id": 7, "name": "Ａｎｎｉ", "name_key": "ａｎｎｉ"},
        {**merge, "id": 8},
    ]
    with empty_app.app_context():
        import_sessions(grouped_document)
        merges = db.session.execute(
            sa.select(MergedName.id, MergedName.name, MergedName.name_key, MergedName.same_as_key)
        ).all()
    # The second says nothing the first does not say now (as migration 0017 leaves it out).
    assert [tuple(row) for row in merges] == [(7, "Ａｎｎｉ", "anni", "anna")]


def test_a_merge_key_that_no_version_wrote_is_refused(
    empty_app: Flask, grouped_document: dict[str, Any]
) -> None:
    [group] = grouped_document["groups"]
    group["merges"][0]["name_key"] = "annie"
    with (
        empty_app.app_context(),
        pytest.raises(
            MalformedDocumentError,
            match=r"groups\[0\]\.merges\[0\]: the key of 'Anni' should be 'anni'",
        ),
    ):
        import_sessions(grouped_document)
    assert nothing_in(empty_app)


def booked_as_a_romme_hand_of_three_cards(app: Flask) -> dict[str, Any]:
    """Return a version 5 export of a game booked as versions before the card count booked it.

    Bob melds 6♠ 6♥ 6♦, then Ann goes out with Q♥ K♥ A♥: 3 of the 7 cards dealt after Bob's
    entry. Until a Rommé hand had to put down at least the cards dealt, the order of the
    entries alone made it one: Bob's K♠ Q♠ J♠ 10♦ 9♦ (49) counted twice, Ann's total 30 + 98 =
    128 reached the target of 100 and the session was over. Today's rules book 30 + 49 = 79.
    """
    with app.app_context():
        session = services.create_session(["Ann", "Bob"], target=100)
        ann, bob = (player.id for player in session.players)
        game = services.start_game(session.id).id
        services.record_meld(game, bob, "6♠ 6♥ 6♦")
        services.record_meld(game, ann, "Q♥ K♥ A♥")
        assert not services.finish_game(game, ann, {bob: "K♠ Q♠ J♠ 10♦ 9♦"}).romme
        document = export_sessions()
    [played] = document["sessions"]
    [booked] = played["games"]
    lines = {line["player_id"]: line for line in booked["settlement_lines"]}
    booked["romme"] = True
    lines[bob]["factor"] = 2
    lines[ann]["gain"] = 98
    played["players"][0]["banked"] = 128
    played["status"] = "finished"
    return as_version_5(document)


def test_an_export_from_before_a_romme_hand_counted_its_cards_is_imported_recomputed(
    app: Flask, empty_app: Flask
) -> None:
    document = booked_as_a_romme_hand_of_three_cards(app)
    [played] = document["sessions"]
    ann, bob = (player["id"] for player in played["players"])
    game_id = played["games"][0]["id"]
    with empty_app.app_context():
        assert import_sessions(document) == 1
        session = services.get_session(played["id"])
        assert session.status == "open"  # 79 of 100: the session plays on
        assert {player.name: player.banked for player in session.players} == {"Ann": 79, "Bob": 18}
        game = services.with_audit(services.read_game(game_id))
        assert (game.status, game.winner_id, game.romme) == ("finished", ann, False)
        assert game.points() == {ann: 79, bob: 18}
        [line] = game.audit
        assert line.action == "recomputed"
        assert line.before["romme"] is True and line.before["points"] == {
            str(ann): 128,
            str(bob): 18,
        }
        assert line.after is not None and line.after["romme"] is False
        assert line.after["points"] == {str(ann): 79, str(bob): 18}
        names = {ann: "Ann", bob: "Bob"}
        variant = services.variant_of(session)
        assert services.audit_text(line, names, variant) == (
            "recomputed when imported: Ann put down 3 cards after the other players' entries; "
            "a Rommé hand puts down at least the 7 cards dealt, so this is no Rommé hand. "
            "Points: Ann +128 → +79, Bob +18"
        )
        assert services.audit_text(line, names, variant, "de").startswith(
            "beim Import neu berechnet: Ann hat nach den Einträgen der anderen Spieler 3 Karten"
        )
        again = export_sessions()
    [game_again] = again["sessions"][0]["games"]
    assert game_again["romme"] is False
    assert [line["gain"] for line in game_again["settlement_lines"]] == [49, 0]
    assert game_again["audit_lines"][0]["action"] == "recomputed"
    with empty_app.app_context():
        db.session.execute(sa.delete(AuditLine))  # the database must be empty to import again
        for model in (SettlementLine, TableCard, Entry, Game, Player, GameSession):
            db.session.execute(sa.delete(model))
        db.session.commit()
        assert import_sessions(again) == 1  # today's export of it imports as it is


def test_a_doubling_that_no_reading_of_the_rules_gives_is_refused(
    app: Flask, empty_app: Flask
) -> None:
    document = booked_as_a_romme_hand_of_three_cards(app)
    [booked] = document["sessions"][0]["games"]
    booked["settlement_lines"][1]["factor"] = 3
    with (
        empty_app.app_context(),
        pytest.raises(
            MalformedDocumentError,
            match=r"games\[0\]\.settlement_lines\[1\]\.factor: 3 is not what the rules book \(2\)",
        ),
    ):
        import_sessions(document)
    assert nothing_in(empty_app)


def test_the_import_command_refuses_deep_nesting_odd_times_and_seats_in_one_line(
    app: Flask, empty_database_url: str, tmp_path: Path, console: Console
) -> None:
    with app.app_context():
        build_tables()
        document = export_sessions()
    nested = copy.deepcopy(document)
    nested["sessions"][0]["house_rules"] = json.loads('{"end": ' * 900 + "{}" + "}" * 900)
    odd_time = copy.deepcopy(document)
    odd_time["sessions"][0]["created_at"] = "0001-01-01T00:30:00+01:00"
    seat_99 = copy.deepcopy(document)
    seat_99["sessions"][2]["first_dealer_seat"] = 99
    files = {
        "deep.json": (("[" * 100_000 + "]" * 100_000).encode(), "nests"),
        "nested.json": (json.dumps(nested).encode(), "sessions[0].variant: "),
        "odd-time.json": (json.dumps(odd_time).encode(), "sessions[0].created_at: "),
        "seat-99.json": (json.dumps(seat_99).encode(), "sessions[2].first_dealer_seat: 99 "),
    }
    for name, (content, reason) in files.items():
        (tmp_path / name).write_bytes(content)
        if name in ("deep.json", "nested.json"):
            # How deep a document may nest depends on the stack a process has: its own one.
            refused = scorekeeper(empty_database_url, tmp_path, "import", str(tmp_path / name))
        else:
            refused = console(empty_database_url, "import", str(tmp_path / name))
        said = refused.stderr.decode()
        assert refused.returncode == 1, said
        assert "Traceback" not in said, said
        # Besides the migrations' log lines (a new database), one line says why.
        (line,) = [line for line in said.splitlines() if not line.startswith("INFO  [alembic")]
        assert line.startswith("scorekeeper import: ") and reason in line, said
    assert json.loads(console(empty_database_url, "export").stdout)["sessions"] == []


def test_whatever_fails_unforeseen_in_an_import_is_said_in_one_line_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorekeeper import cli, transfer

    def broken(document: object) -> int:
        raise KeyError("a check nobody foresaw")

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    monkeypatch.setattr(transfer, "import_sessions", broken)
    file = tmp_path / "empty.json"
    file.write_text('{"format": "treppenromme-scorekeeper", "version": 7}', encoding="utf-8")
    assert cli.main(["import", str(file)]) == 1
    said = capsys.readouterr().err.splitlines()
    # Besides the migrations' log lines (a new database), one line says why.
    assert [line for line in said if not line.startswith("INFO  [alembic")] == [
        "scorekeeper import: the document could not be imported (KeyError: 'a check nobody "
        "foresaw'); nothing was imported."
    ]


@BOTH
@pytest.mark.parametrize(
    "change",
    [
        # Both players in one seat: the sessions are written before the players are refused.
        lambda d: d["sessions"][1]["players"][1].update(seat=0),
        # Two players of one session with one name.
        lambda d: d["sessions"][1]["players"][1].update(name="Jürgen"),
        lambda d: open_entries(d)[1].update(position=1),
    ],
)
def test_a_document_the_database_refuses_writes_nothing_at_all(
    empty_app: Flask, document: dict[str, Any], change: Callable[[dict[str, Any]], object]
) -> None:
    change(document)
    # The database would refuse each; the import's own checks now refuse them before it.
    with empty_app.app_context(), pytest.raises(MalformedDocumentError):
        import_sessions(document)
    assert nothing_in(empty_app)
    with empty_app.app_context():
        services.create_session(["Ann", "Bob"])  # and the database is usable afterwards


# --- the console commands ----------------------------------------------------------------------


def scorekeeper(database_url: str, cwd: Path, *args: str, stdin: bytes = b"") -> Any:
    """Run the real ``scorekeeper`` console command on a database."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "cli-test"}
    command = Path(sys.executable).with_name("scorekeeper")
    return subprocess.run(
        [str(command), *args], cwd=cwd, env=env, input=stdin, capture_output=True, timeout=60
    )


@dataclass(frozen=True)
class Ran:
    """What a run of the console command gave: its exit code and what it wrote."""

    returncode: int
    stdout: bytes
    stderr: bytes


Console = Callable[..., Ran]


@pytest.fixture
def console(monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> Console:
    """Return a runner of the console command's own code (``cli.main``) in this process.

    It runs what ``scorekeeper`` runs, with the database in the environment and standard
    input, output and error its own, without the seconds a new Python takes to load the app;
    the real command runs where its process is what is tested (the round trip, nesting).
    """
    import scorekeeper
    from scorekeeper import cli

    made: list[Flask] = []
    real_create_app = scorekeeper.create_app

    def create_app(*args: Any, **kwargs: Any) -> Flask:
        made.append(real_create_app(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(scorekeeper, "create_app", create_app)

    def run(database_url: str, *args: str, stdin: bytes = b"") -> Ran:
        monkeypatch.setenv("DATABASE_URL", database_url)
        monkeypatch.setenv("SECRET_KEY", "cli-test")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        capsysbinary.readouterr()
        try:
            code = cli.main(list(args))
        finally:
            for app in made:  # as the end of a process would: no connection left open
                with app.app_context():
                    db.engine.dispose()
            made.clear()
        out, err = capsysbinary.readouterr()
        return Ran(code, out, err)

    return run


@BOTH
def test_the_console_commands_export_and_import_round_trip(
    app: Flask, empty_database_url: str, tmp_path: Path, console: Console
) -> None:
    with app.app_context():
        build_tables()
        expected = export_sessions()
        source = app.config["SQLALCHEMY_DATABASE_URI"]
    file = tmp_path / "sessions.json"

    exported = scorekeeper(source, tmp_path, "export", "--output", str(file))
    assert exported.returncode == 0, exported.stderr.decode()
    assert json.loads(file.read_text(encoding="utf-8")) == expected
    assert "Jürgen" in file.read_text(encoding="utf-8")  # UTF-8, not \u escapes

    # A new SQLite file is created and migrated by the import itself.
    imported = scorekeeper(empty_database_url, tmp_path, "import", str(file))
    assert imported.returncode == 0, imported.stderr.decode()
    again = scorekeeper(empty_database_url, tmp_path, "export")
    assert again.returncode == 0, again.stderr.decode()
    assert again.stdout == file.read_bytes()

    refused = console(empty_database_url, "import", "-", stdin=file.read_bytes())
    assert refused.returncode == 1
    assert "not empty" in refused.stderr.decode()
    assert console(empty_database_url, "export").stdout == file.read_bytes()


BAD_FILES = {
    b"{not json": "not JSON",
    b'{"format": "treppenromme-scorekeeper", "version": 9, "sessions": []}': "version 9",
    b'{"format": "treppenromme-scorekeeper", "version": 3, "sessions": [1]}': "object",
    b"\xff\xfe": "not UTF-8",
}


def test_the_import_command_refuses_a_bad_file_with_exit_code_1(
    empty_database_url: str, tmp_path: Path, console: Console
) -> None:
    file = tmp_path / "broken.json"
    for content, message in BAD_FILES.items():
        file.write_bytes(content)
        refused = console(empty_database_url, "import", str(file))
        assert (refused.returncode, refused.stdout) == (1, b""), content
        assert message in refused.stderr.decode(), content
    missing = console(empty_database_url, "import", str(tmp_path / "nowhere.json"))
    assert missing.returncode == 1
    assert "nowhere.json" in missing.stderr.decode()
    assert console(empty_database_url, "export").stdout.decode() == (
        '{\n  "format": "treppenromme-scorekeeper",\n  "version": 7,\n  "groups": [],\n'
        '  "sessions": []\n}\n'
    )


def test_the_flask_commands_export_and_import_as_well(
    app: Flask, empty_app: Flask, document: dict[str, Any], tmp_path: Path
) -> None:
    file = tmp_path / "flask.json"
    result = app.test_cli_runner().invoke(args=["export", "--output", str(file)])
    assert result.exit_code == 0, result.output
    assert json.loads(file.read_text(encoding="utf-8")) == document
    result = empty_app.test_cli_runner().invoke(args=["import", str(file)])
    assert result.exit_code == 0, result.output
    result = empty_app.test_cli_runner().invoke(args=["import", str(file)])
    assert result.exit_code == 1
    assert "not empty" in result.output
    with empty_app.app_context():
        assert export_sessions() == document


@BOTH
def test_a_version_2_document_imports_its_sessions_with_their_rule_systems_defaults(
    empty_app: Flask, document: dict[str, Any]
) -> None:
    document = as_version_5(document)
    document["version"] = 2
    document.pop("groups")
    for session in document["sessions"]:
        session.pop("group_id")
        session.pop("house_rules")
        session["target"] = session["target"] or 500
        for game in session["games"]:
            game.pop("audit_lines")
    with empty_app.app_context():
        assert import_sessions(document) == 3
        imported = export_sessions()["sessions"]
        # Kept as the one house rule they were played by (as migration 0016 keeps them).
        assert [session["house_rules"] for session in imported] == [
            {"end": {"target": 1000}},
            {"end": {"target": 20}},
            {"end": {"target": 500}},
        ]
        assert [session["target"] for session in imported] == [1000, 20, 500]
        rule_systems = [
            services.variant_of(services.get_session(session["id"])) for session in imported
        ]
        assert [variant.house_rules["end"] for variant in rule_systems] == [
            {"target": 1000},
            {"target": 20},
            {"target": 500},
        ]


@BOTH
@pytest.mark.parametrize(
    "house_rules", [{"end": {"games": 0}}, {"opening": 40}, "to 100", {"end": {"target": -1}}]
)
def test_import_refuses_house_rules_the_rule_system_does_not_allow(
    empty_app: Flask, document: dict[str, Any], house_rules: object
) -> None:
    document["sessions"][2]["house_rules"] = house_rules
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match="sessions\\[2\\]"):
        import_sessions(document)
    assert nothing_in(empty_app)


@BOTH
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda session: session.update(target=999), r"target: 999 is not the target"),
        (lambda session: session.update(target=5), r"target: 5 is not the target"),
    ],
)
def test_import_refuses_a_target_that_is_not_the_one_of_the_house_rules(
    empty_app: Flask,
    document: dict[str, Any],
    change: Callable[[dict[str, Any]], object],
    message: str,
) -> None:
    change(document["sessions"][0 if "999" in message else 2])
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match=message):
        import_sessions(document)
    assert nothing_in(empty_app)


@BOTH
def test_the_document_keeps_each_game_s_audit_trail_and_reads_version_3_without(
    empty_app: Flask, document: dict[str, Any]
) -> None:
    long = document["sessions"][0]
    assert [len(game["audit_lines"]) for game in long["games"]] == [0, 0, 1]
    (line,) = long["games"][2]["audit_lines"]
    assert (line["action"], line["kind"], line["after"]) == ("deleted", "meld", None)
    assert line["before"]["cards"] == ["2♠", "3♠", "4♠"]
    assert line["player_id"] == line["before"]["player"] == long["players"][0]["id"]
    assert datetime.fromisoformat(line["at"]).utcoffset() == timedelta(0)
    # Version 3 had no audit trail: its games have none, and a game that brings one is refused.
    older = as_version_5(document)
    older["version"] = 3
    older.pop("groups")  # nor groups (version 5)
    for session in older["sessions"]:
        session.pop("group_id")
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match="audit_lines"):
        import_sessions(copy.deepcopy(older))
    for session in older["sessions"]:
        for game in session["games"]:
            game.pop("audit_lines")
    with empty_app.app_context():
        assert import_sessions(older) == 3
        assert [game["audit_lines"] for game in export_sessions()["sessions"][0]["games"]] == [
            [],
            [],
            [],
        ]


@BOTH
def test_a_version_2_document_is_read_as_version_2_was_written(
    empty_app: Flask, document: dict[str, Any]
) -> None:
    document = as_version_5(document)
    document["version"] = 2
    document.pop("groups")  # groups came with version 5
    # Version 2 knew no house rules: a session that still carries them is refused.
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match="house_rules"):
        import_sessions(copy.deepcopy(document))
    for session in document["sessions"]:
        session.pop("group_id")
        session.pop("house_rules")
        for game in session["games"]:
            game.pop("audit_lines")
    document["sessions"][2]["target"] = None
    with empty_app.app_context(), pytest.raises(MalformedDocumentError, match="target"):
        import_sessions(document)
    assert nothing_in(empty_app)
