"""The score sheet: its rows and running totals against the games, its CSV, and the export."""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import cli, create_app, services, transfer
from scorekeeper.extensions import db
from scorekeeper.queries.sheet import WORDS

# The melds of the games below, legal in each rule system (German Rummy's are openings of 40).
MELDS = {
    "treppenromme": ("Q♣ K♣ A♣", "10♠ J♠ Q♠ K♠", "Q♥ Q♦ Q♣"),
    "german_rummy": ("Q♥ Q♦ Q♣ Q♠", "10♠ J♠ Q♠ K♠", "K♥ K♦ K♣ K♠"),
    "boathouse_rum": ("8♥ 8♦ 8♠", "10♠ J♠ Q♠ K♠", "Q♥ Q♦ Q♣"),
}
# Four games of three players: (melds as (seat, which meld), winner seat or None to abandon,
# the losers' hands as points counted or as cards).
GAMES = [
    ([(0, 0)], 0, {1: 12, 2: "A♠ 7♥"}),
    ([(1, 1), (2, 2)], 2, {0: 40, 1: 9}),
    ([(0, 0)], None, {}),
    ([(1, 0)], 1, {0: 5, 2: 17}),
]
# The points of each game worked out by hand, seat by seat.
# Treppenrommé: the winner collects the hands (A♠ 7♥ = 15 + 7); melds score (Q♣ K♣ A♣ 30,
# 10♠ J♠ Q♠ K♠ 40, Q♥ Q♦ Q♣ 30), also in the abandoned game.
# German Rummy: melds score nothing, the winner books 0, each loser minus the hand (ace 11).
# Boathouse Rum: the winner is paid the unmatched cards (A♠ 7♥: 11 + 7), the losers book 0.
EXPECTED = {
    "treppenromme": [[64, 0, 0], [0, 40, 79], [30, 0, 0], [0, 52, 0]],
    "german_rummy": [[0, -12, -18], [-40, -9, 0], [0, 0, 0], [-5, 0, -17]],
    "boathouse_rum": [[30, 0, 0], [0, 0, 49], [0, 0, 0], [0, 22, 0]],
}
VARIANTS = list(EXPECTED)


@dataclass(frozen=True)
class Played:
    """A session played through the use cases: its id and its players' ids in seat order."""

    session_id: int
    public_id: str
    players: list[int]


def play(variant: str, games: int = len(GAMES)) -> Played:
    """Play the first ``games`` of GAMES in a new session of a rule system."""
    session = services.create_session(["Ann", "Bob", "Cid"], variant=variant)
    seats = [player.id for player in session.players]
    played = Played(session.id, session.public_id, seats)
    for melds, winner, hands in GAMES[:games]:
        game = services.start_game(session.id).id
        for seat, which in melds:
            services.record_meld(game, seats[seat], MELDS[variant][which])
        if winner is None:
            services.abandon_game(game)
        else:
            hands_of = {seats[seat]: hand for seat, hand in hands.items()}
            services.finish_game(game, seats[winner], hands_of, False)
    return played


def sheet_of(played: Played) -> services.Sheet:
    return services.read_sheet(services.get_session(played.session_id))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_sheet_shows_each_games_points_and_the_running_totals_worked_out_by_hand(
    app: Flask, variant: str
) -> None:
    with app.app_context():
        played = play(variant)
        sheet = sheet_of(played)
        summary = services.summarize_session(services.get_session(played.session_id))
    expected = EXPECTED[variant]
    assert [row.number for row in sheet.rows] == [1, 2, 3, 4]
    assert [row.status for row in sheet.rows] == ["finished", "finished", "abandoned", "finished"]
    winners = [played.players[w] if w is not None else None for _m, w, _h in GAMES]
    assert [row.winner_id for row in sheet.rows] == winners
    assert [row.dealer_id for row in sheet.rows] == [
        summary.scores.games[i].dealer_id for i in range(4)
    ]
    for row, points in zip(sheet.rows, expected, strict=True):
        assert [row.points[player] for player in played.players] == points
    running = [list(itertools.accumulate(column)) for column in zip(*expected, strict=True)]
    for at, row in enumerate(sheet.rows):
        assert [row.totals[player] for player in played.players] == [r[at] for r in running]
    # The last running totals are the session's totals.
    assert sheet.rows[-1].totals == sheet.totals == summary.scores.totals
    assert [sheet.totals[player] for player in played.players] == [r[-1] for r in running]
    for row, game in zip(sheet.rows, summary.scores.games, strict=True):
        assert row.points == summary.scores.game_points[game.id]


def test_an_open_game_is_a_row_with_its_points_so_far(app: Flask) -> None:
    with app.app_context():
        played = play("treppenromme", games=2)
        game = services.start_game(played.session_id).id
        services.record_meld(game, played.players[1], "2♦ 3♦ 4♦")
        sheet = sheet_of(played)
        totals = services.summarize_session(services.get_session(played.session_id)).scores.totals
    assert [row.status for row in sheet.rows] == ["finished", "finished", "open"]
    assert sheet.rows[-1].points == {
        played.players[0]: 0,
        played.players[1]: 9,
        played.players[2]: 0,
    }
    assert (
        sheet.rows[-1].totals
        == totals
        == {
            played.players[0]: 64,
            played.players[1]: 49,
            played.players[2]: 79,
        }
    )
    assert sheet.games_ended == 2


def test_a_player_not_dealt_in_a_game_has_no_points_there_and_keeps_their_total(
    app: Flask,
) -> None:
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], variant="german_rummy")
        ann, bob, cid = (player.id for player in session.players)
        game = services.start_game(session.id).id
        services.record_meld(game, ann, "Q♥ Q♦ Q♣ Q♠")
        services.finish_game(game, ann, {bob: 12, cid: 18}, False)
        services.unseat_player(session.id, cid)
        dan = next(p.id for p in services.seat_player(session.id, "Dan").players if p.name == "Dan")
        game = services.start_game(session.id).id
        services.record_meld(game, dan, "10♠ J♠ Q♠ K♠")
        services.finish_game(game, dan, {ann: 7, bob: 9}, False)
        game = services.start_game(session.id).id
        sheet = services.read_sheet(services.get_session(session.id))
        totals = services.summarize_session(services.get_session(session.id)).scores.totals
    assert [player_id for player_id, _name in sheet.players] == [ann, bob, cid, dan]
    assert [row.points for row in sheet.rows] == [
        {ann: 0, bob: -12, cid: -18, dan: None},
        {ann: -7, bob: -9, cid: None, dan: 0},
        {ann: 0, bob: 0, cid: None, dan: 0},
    ]
    assert [row.totals for row in sheet.rows] == [
        {ann: 0, bob: -12, cid: -18, dan: 0},
        {ann: -7, bob: -21, cid: -18, dan: 0},
        {ann: -7, bob: -21, cid: -18, dan: 0},
    ]
    assert sheet.totals == totals
    assert sheet.to_go(cid) is None
    assert sheet.to_go(bob) == 479
    csv_rows = list(csv.reader(io.StringIO(services.sheet_csv(sheet, "en"))))
    assert csv_rows[0][5:] == ["Ann", "Bob", "Cid", "Dan"]
    assert csv_rows[1][5:] == ["0", "-12", "-18", ""]
    assert csv_rows[2][5:] == ["-7", "-9", "", "0"]
    assert csv_rows[-1][5:] == ["-7", "-21", "-18", "0"]


@pytest.mark.parametrize(
    ("variant", "house_rules", "said"),
    [
        ("treppenromme", None, "Target: 500"),
        ("german_rummy", None, "Limit: -500"),
        ("boathouse_rum", {"end": {"games": 6}}, "6 games, 2 left"),
        ("boathouse_rum", {"end": {"games": 5}}, "5 games, 1 left"),
    ],
)
def test_the_foot_of_the_sheet_says_how_the_session_ends(
    app: Flask, variant: str, house_rules: dict[str, object] | None, said: str
) -> None:
    with app.app_context():
        session = services.create_session(
            ["Ann", "Bob", "Cid"], variant=variant, house_rules=house_rules
        )
        ids = [player.id for player in session.players]
        for _ in range(4):
            game = services.start_game(session.id).id
            services.record_meld(game, ids[0], MELDS[variant][0])
            services.finish_game(game, ids[0], {ids[1]: 10, ids[2]: 10}, False)
        sheet = services.read_sheet(services.get_session(session.id))
    assert sheet.end.render("en") == said
    assert sheet.games_ended == 4


def test_the_csv_reads_back_as_games_by_players_with_a_total_row(app: Flask) -> None:
    with app.app_context():
        played = play("treppenromme")
        sheet = sheet_of(played)
    text = services.sheet_csv(sheet, "en")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Game", "Dealer", "Status", "Winner", "Rommé", "Ann", "Bob", "Cid"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4", "Total"]
    assert rows[1][:5] == ["1", "Ann", "finished", "Ann", ""]
    assert rows[3][2:4] == ["abandoned", ""]
    points = [[int(cell) for cell in row[5:]] for row in rows[1:5]]
    assert points == EXPECTED["treppenromme"]
    assert [int(cell) for cell in rows[5][5:]] == [sum(c) for c in zip(*points, strict=True)]
    assert rows[5][1:5] == ["", "", "", ""]
    assert text.endswith("\r\n") and not text.startswith("\ufeff")


def test_the_csv_speaks_the_language_asked_for(app: Flask) -> None:
    with app.app_context():
        sheet = sheet_of(play("boathouse_rum", games=3))
    header = next(csv.reader(io.StringIO(services.sheet_csv(sheet, "de"))))
    keys = ["game", "dealer", "status", "winner", "romme"]
    assert header[:5] == [WORDS[key].render("de") for key in keys]
    rows = list(csv.reader(io.StringIO(services.sheet_csv(sheet, "de"))))
    assert rows[-1][0] == WORDS["total"].render("de")
    assert rows[3][2] == WORDS["abandoned"].render("de")


def test_a_name_a_spreadsheet_would_run_is_written_as_text(app: Flask) -> None:
    with app.app_context():
        session = services.create_session(["=SUM(A1)", "+Bob", "Cid"])
        game = services.start_game(session.id).id
        ids = [player.id for player in session.players]
        services.record_meld(game, ids[0], "Q♣ K♣ A♣")
        services.finish_game(game, ids[0], {ids[1]: 4, ids[2]: 6}, False)
        sheet = services.read_sheet(services.get_session(session.id))
    rows = list(csv.reader(io.StringIO(services.sheet_csv(sheet, "en"))))
    assert rows[0][5:] == ["'=SUM(A1)", "'+Bob", "Cid"]
    assert rows[1][1] == rows[1][3] == "'=SUM(A1)"
    assert rows[1][5:] == ["40", "0", "0"]


def test_the_result_ranks_the_highest_total_first_and_shares_a_place_on_a_tie(
    app: Flask,
) -> None:
    with app.app_context():
        german = sheet_of(play("german_rummy"))
        session = services.create_session(["Ann", "Bob", "Cid"], variant="boathouse_rum")
        ids = [player.id for player in session.players]
        game = services.start_game(session.id).id
        services.record_meld(game, ids[1], "7♥ 7♦ 7♠")
        services.finish_game(game, ids[1], {ids[0]: 0, ids[2]: 14}, False)
        tied = services.read_sheet(services.get_session(session.id))
    assert services.result_text(german, "en", "24 Nov 2026") == (
        "German Rummy (24 Nov 2026), 4 games: 1. Bob -21, 2. Cid -35, 3. Ann -45"
    )
    assert services.result_text(tied, "en", "1 Dec 2026") == (
        "Boathouse Rum (1 Dec 2026), 1 game: 1. Bob 14, 2. Ann 0, 2. Cid 0"
    )


def test_a_won_session_says_who_won(app: Flask) -> None:
    with app.app_context():
        session = services.create_session(["Ann", "Bob"], target=50)
        ann, bob = (player.id for player in session.players)
        game = services.start_game(session.id).id
        services.record_meld(game, ann, "Q♣ K♣ A♣")
        services.finish_game(game, ann, {bob: 30}, False)
        sheet = services.read_sheet(services.get_session(session.id))
    assert sheet.status == "finished"
    assert services.result_text(sheet, "en", "today") == (
        "Treppenrommé (today), 1 game: 1. Ann 60, 2. Bob 0 Ann wins the session!"
    )


def test_a_player_who_left_is_named_after_the_ranking_and_cannot_lead_it(app: Flask) -> None:
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], target=500)
        ann, bob, cid = (player.id for player in session.players)
        game = services.start_game(session.id).id
        services.record_meld(game, ann, "Q♣ K♣ A♣")
        services.finish_game(game, ann, {bob: 20, cid: 30}, False)
        services.unseat_player(session.id, ann)
        game = services.start_game(session.id).id
        services.record_meld(game, bob, "7♥ 8♥ 9♥")
        services.finish_game(game, bob, {cid: 30}, False)
        sheet = services.read_sheet(services.get_session(session.id))
    assert [player_id for _place, player_id, _total in sheet.ranking()] == [bob, cid]
    assert services.result_text(sheet, "en", "today") == (
        "Treppenrommé (today), 2 games: 1. Bob 54, 2. Cid 0; left the table: Ann 80"
    )


@pytest.fixture
def empty_app(tmp_path: Path) -> Iterator[Flask]:
    """Return an app on a second, empty database built by the real migrations."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'imported.sqlite3'}",
        }
    )
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("variant", ["treppenromme", "boathouse_rum"])
def test_one_sessions_export_imports_into_an_empty_database_and_exports_the_same(
    app: Flask, empty_app: Flask, tmp_path: Path, variant: str
) -> None:
    with app.app_context():
        other = play("german_rummy", games=2)
        played = play(variant)
        game = services.start_game(played.session_id).id
        services.record_meld(game, played.players[2], MELDS[variant][2])
        document = transfer.export_sessions(played.session_id)
        everything = transfer.export_sessions()
    assert [session["public_id"] for session in document["sessions"]] == [played.public_id]
    assert other.public_id in {session["public_id"] for session in everything["sessions"]}
    assert document["sessions"][0] == next(
        session for session in everything["sessions"] if session["public_id"] == played.public_id
    )
    path = tmp_path / "one-session.json"
    path.write_text(transfer.dumps(document), encoding="utf-8")
    with empty_app.app_context():
        assert cli.import_from(str(path)) == 1
        again = transfer.export_sessions()
        imported = services.read_sheet(services.get_session(played.session_id))
    assert json.loads(transfer.dumps(again)) == json.loads(transfer.dumps(document))
    with app.app_context():
        original = sheet_of(played)
    assert imported.rows == original.rows
    assert imported.totals == original.totals
