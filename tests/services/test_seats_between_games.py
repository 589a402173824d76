"""Players join and leave a session between games: the use cases and migration 0012."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app, rules, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player
from tests.helpers import assert_refused

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """Run the test inside an app context, as a request would."""
    with app.app_context():
        yield


def seated(names: tuple[str, ...] = ("Ann", "Bob", "Cid"), **kwargs: Any) -> GameSession:
    return services.create_session(list(names), **kwargs)


def ids_by_name(session_id: int) -> dict[str, int]:
    return {player.name: player.id for player in services.get_session(session_id).players}


def names_at_the_table(session_id: int) -> list[str]:
    return [player.name for player in services.get_session(session_id).seated]


def play(session_id: int, winner: str, melds: dict[str, str], hands: dict[str, str]) -> int:
    """Deal the next game, record the melds, and settle it with the hands; return its id."""
    game = services.start_game(session_id)
    ids = ids_by_name(session_id)
    for name, cards in melds.items():
        services.record_meld(game.id, ids[name], cards)
    services.finish_game(game.id, ids[winner], {ids[name]: hand for name, hand in hands.items()})
    return game.id


def game_as_answered(game_id: int) -> dict[str, Any]:
    """Return what a finished game shows: its players, dealer, first player, points, hands."""
    game = services.read_game(game_id)
    deal = services.deal_of(game)
    lines = {line.player_id: line.hand for line in services.get_game(game_id).settlement_lines}
    return {
        "players": [(player.id, player.name) for player in game.players],
        "dealer": game.dealer_id,
        "first_player": deal.first_player,
        "points": services.game_points(game),
        "hands": lines,
    }


@pytest.mark.usefixtures("ctx")
def test_a_player_joins_at_the_seat_chosen_and_is_dealt_in_from_the_next_game() -> None:
    session = seated()
    first = play(session.id, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣"})
    before = game_as_answered(first)
    version = services.get_session(session.id).version
    services.seat_player(session.id, "  Dan ", 1)
    assert names_at_the_table(session.id) == ["Ann", "Dan", "Bob", "Cid"]
    assert game_as_answered(first) == before
    assert services.get_session(session.id).version == version + 1
    # Ann dealt game 1: the deal passes to the player after her, now Dan.
    second = services.start_game(session.id)
    assert [player.name for player in second.players] == ["Ann", "Dan", "Bob", "Cid"]
    assert second.dealer.name == "Dan"
    totals = services.session_scores(services.get_session(session.id)).totals
    dan = ids_by_name(session.id)["Dan"]
    assert totals[dan] == 0 and dan not in services.game_points(services.read_game(first))


@pytest.mark.usefixtures("ctx")
def test_a_player_who_leaves_keeps_their_points_and_is_dealt_in_no_more() -> None:
    session = seated()
    melds = {"Ann": "2♠ 3♠ 4♠", "Bob": "J♦ Q♦ K♦"}
    first = play(session.id, "Ann", melds, {"Bob": "7♥", "Cid": "K♣"})
    before = game_as_answered(first)
    ids = ids_by_name(session.id)
    services.unseat_player(session.id, ids["Bob"])
    assert names_at_the_table(session.id) == ["Ann", "Cid"]
    scores = services.session_scores(services.get_session(session.id))
    assert scores.totals[ids["Bob"]] == 30
    assert ids["Bob"] not in scores.standing.totals
    assert game_as_answered(first) == before
    second = services.start_game(session.id)
    assert [player.name for player in second.players] == ["Ann", "Cid"]
    # Ann dealt game 1; Bob, her left neighbour, left: the deal passes on to Cid.
    assert second.dealer.name == "Cid"
    with pytest.raises(services.InvalidRequestError):
        services.record_meld(second.id, ids["Bob"], "4♠ 5♠ 6♠")


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("leaving", "deals"),
    [("Bob", "Cid"), ("Cid", "Dan"), ("Ann", "Cid")],
)
def test_the_deal_follows_the_new_seating_when_someone_leaves(leaving: str, deals: str) -> None:
    session = seated(("Ann", "Bob", "Cid", "Dan"), first_dealer=1)
    services.abandon_game(services.start_game(session.id).id)  # Bob dealt game 1
    services.unseat_player(session.id, ids_by_name(session.id)[leaving])
    assert services.next_dealer(services.get_session(session.id)).name == deals
    assert services.start_game(session.id).dealer.name == deals


@pytest.mark.usefixtures("ctx")
def test_boathouse_rum_two_players_left_the_winner_deals() -> None:
    session = seated(variant="boathouse_rum")
    play(session.id, "Bob", {"Bob": "J♦ Q♦ K♦"}, {"Ann": "7♥", "Cid": "K♣"})
    services.unseat_player(session.id, ids_by_name(session.id)["Cid"])
    game = services.start_game(session.id)
    assert game.dealer.name == "Bob"  # B5: with two players the winner deals
    assert services.deal_of(game).first_player == ids_by_name(session.id)["Ann"]


@pytest.mark.usefixtures("ctx")
def test_before_the_first_game_the_chosen_first_dealer_still_deals() -> None:
    session = seated(first_dealer=2)
    services.seat_player(session.id, "Dan", 0)
    assert services.next_dealer(services.get_session(session.id)).name == "Cid"
    cid = ids_by_name(session.id)["Cid"]
    services.unseat_player(session.id, cid)
    # Cid played no game: the seat goes without a trace, and the player after Cid deals.
    assert "Cid" not in ids_by_name(session.id)
    assert names_at_the_table(session.id) == ["Dan", "Ann", "Bob"]
    assert services.start_game(session.id).dealer.name == "Dan"


@pytest.mark.usefixtures("ctx")
def test_the_rule_systems_range_of_players_holds_for_the_new_seating() -> None:
    full = seated(("Ann", "Bob", "Cid", "Dan"))
    assert_refused(
        rules.SeatingError, lambda: services.seat_player(full.id, "Eve"), match="2 to 4 players"
    )
    pair = seated(("Ann", "Bob"))
    bob = ids_by_name(pair.id)["Bob"]
    assert_refused(
        rules.SeatingError, lambda: services.unseat_player(pair.id, bob), match="2 to 4 players"
    )
    six = seated(("Ann", "Bob", "Cid", "Dan", "Eve"), variant="german_rummy")
    services.seat_player(six.id, "Fay")
    assert len(names_at_the_table(six.id)) == 6


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("name", "seat", "said"),
    [
        ("ann", None, "entered twice"),
        ("", None, "needs a name"),
        ("x" * 41, None, "at most 40"),
        ("Dan", 4, "no seat 4"),
        ("Dan", -1, "no seat -1"),
    ],
)
def test_a_new_player_is_checked_as_at_the_start(name: str, seat: int | None, said: str) -> None:
    session = seated()
    assert_refused(
        rules.SeatingError, lambda: services.seat_player(session.id, name, seat), match=said
    )


@pytest.mark.usefixtures("ctx")
def test_the_name_of_a_player_who_left_stays_theirs() -> None:
    session = seated()
    play(session.id, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣"})
    services.unseat_player(session.id, ids_by_name(session.id)["Bob"])
    assert_refused(
        rules.SeatingError, lambda: services.seat_player(session.id, "BOB"), match="left"
    )
    cid = ids_by_name(session.id)["Cid"]
    assert_refused(
        rules.SeatingError,
        lambda: services.rename_player(session.id, cid, "bob"),
        match="entered twice",
    )


@pytest.mark.usefixtures("ctx")
def test_seats_change_only_between_games_of_a_session_still_played() -> None:
    session = seated(house_rules={"end": {"games": 1}})
    game = services.start_game(session.id)
    ann = ids_by_name(session.id)["Ann"]
    assert_refused(services.ConflictError, lambda: services.seat_player(session.id, "Dan"))
    assert_refused(services.ConflictError, lambda: services.unseat_player(session.id, ann))
    services.record_meld(game.id, ann, "J♦ Q♦ K♦")
    ids = ids_by_name(session.id)
    services.finish_game(game.id, ann, {ids["Bob"]: "7♥", ids["Cid"]: "K♣"})
    assert services.get_session(session.id).status == "finished"
    assert_refused(
        services.ConflictError, lambda: services.seat_player(session.id, "Dan"), match="over"
    )
    assert_refused(
        services.ConflictError, lambda: services.unseat_player(session.id, ann), match="over"
    )


@pytest.mark.usefixtures("ctx")
def test_a_player_not_at_the_table_cannot_leave_it() -> None:
    session, other = seated(), seated(("Eve", "Fay"))
    stranger = ids_by_name(other.id)["Eve"]
    assert_refused(services.NotFoundError, lambda: services.unseat_player(session.id, stranger))
    play(session.id, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣"})
    bob = ids_by_name(session.id)["Bob"]
    services.unseat_player(session.id, bob)
    assert_refused(
        services.ConflictError, lambda: services.unseat_player(session.id, bob), match="already"
    )


@pytest.mark.usefixtures("ctx")
def test_a_seating_that_would_decide_a_tie_at_the_top_is_refused() -> None:
    session = seated(house_rules={"end": {"games": 1}})
    game = services.start_game(session.id)
    ids = ids_by_name(session.id)
    services.record_meld(game.id, ids["Ann"], "J♦ Q♦ K♦")
    services.record_meld(game.id, ids["Bob"], "J♣ Q♣ K♣")
    services.abandon_game(game.id)  # Ann 30, Bob 30: the tie plays on
    assert services.get_session(session.id).status == "open"
    assert_refused(
        services.ConflictError,
        lambda: services.unseat_player(session.id, ids["Bob"]),
        match="Ann would win",
    )
    services.unseat_player(session.id, ids["Cid"])
    assert names_at_the_table(session.id) == ["Ann", "Bob"]


@pytest.mark.usefixtures("ctx")
def test_the_winner_of_the_session_is_among_the_players_at_the_table() -> None:
    session = seated(target=40)
    melds = {"Ann": "J♦ Q♦ K♦", "Bob": "2♠ 3♠ 4♠"}
    play(session.id, "Bob", melds, {"Ann": "2♥", "Cid": "3♣"})  # Ann 30, Bob 14: play on
    services.unseat_player(session.id, ids_by_name(session.id)["Ann"])
    play(session.id, "Cid", {"Cid": "4♠ 5♠ 6♠"}, {"Bob": "10♥ 10♣ 10♦ 10♠"})  # Cid 15 + 40
    finished = services.get_session(session.id)
    assert finished.status == "finished"
    scores = services.session_scores(finished)
    assert scores.standing.winner == ids_by_name(session.id)["Cid"]
    assert scores.totals[ids_by_name(session.id)["Ann"]] == 30


@pytest.mark.usefixtures("ctx")
def test_a_game_reopened_after_the_seating_changed_is_played_by_its_own_players() -> None:
    session = seated()
    first = play(session.id, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣"})
    before = game_as_answered(first)
    ids = ids_by_name(session.id)
    services.seat_player(session.id, "Dan", 1)
    services.unseat_player(session.id, ids["Bob"])
    reopened = services.reopen_game(first)
    assert [player.name for player in reopened.players] == ["Ann", "Bob", "Cid"]
    assert services.session_scores(services.get_session(session.id)).totals[ids["Bob"]] == 0
    services.finish_game(first, ids["Ann"], {ids["Bob"]: "7♥", ids["Cid"]: "K♣"})
    assert game_as_answered(first) == before
    second = services.start_game(session.id)
    assert [player.name for player in second.players] == ["Ann", "Dan", "Cid"]
    assert second.dealer.name == "Dan"


@pytest.mark.usefixtures("ctx")
def test_renaming_counts_only_the_players_at_the_table() -> None:
    session = seated(("Ann", "Bob", "Cid", "Dan"))
    play(session.id, "Ann", {"Ann": "J♦ Q♦ K♦"}, {"Bob": "7♥", "Cid": "K♣", "Dan": "2♠"})
    services.unseat_player(session.id, ids_by_name(session.id)["Dan"])
    services.seat_player(session.id, "Eve")
    services.rename_player(session.id, ids_by_name(session.id)["Eve"], "Evelyn")
    assert names_at_the_table(session.id) == ["Ann", "Bob", "Cid", "Evelyn"]
    assert [player.seat for player in services.get_session(session.id).players] == [0, 1, 2, 3, 4]


# --- migration 0012 --------------------------------------------------------------------------


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> str:
    if backend != "sqlite":
        # Flask-Migrate exits on a refusal and leaves psycopg's connection to the garbage
        # collector, which the warnings-as-errors setting turns into a failure (as in
        # test_migrations); the migration's SQL is the same on both.
        pytest.skip("migration 0012 is checked on SQLite here; test_migrations runs both")
    return f"sqlite:///{tmp_path / 'seats.sqlite3'}"


def migrated_app(url: str) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": url,
            "SESSION_LIMIT": "off",
        }
    )


def test_players_stored_before_0012_joined_at_the_first_game_and_sit_at_the_table(
    empty_url: str,
) -> None:
    app = migrated_app(empty_url)
    with app.app_context():
        upgrade(revision="0011_session_versions")
        with db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO sessions (id, public_id, variant, target, first_dealer_seat,"
                    " status, created_at) VALUES (1, 's1', 'treppenromme', 500, 0, 'open',"
                    " '2026-11-01')"
                )
            )
            for seat, name in enumerate(("Ann", "Bob")):
                connection.execute(
                    sa.text(
                        "INSERT INTO players (session_id, seat, name) VALUES (1, :seat, :name)"
                    ),
                    {"seat": seat, "name": name},
                )
        upgrade()
        stored = db.session.scalars(sa.select(Player).order_by(Player.seat)).all()
        assert [(p.name, p.joined_game, p.left_game, p.seated) for p in stored] == [
            ("Ann", 1, None, True),
            ("Bob", 1, None, True),
        ]
        db.session.remove()
        db.engine.dispose()


def test_going_back_before_0012_is_refused_while_a_player_left_and_allowed_after(
    empty_url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    app = migrated_app(empty_url)
    with app.app_context():
        upgrade()
        session_id = services.create_session(["Ann", "Bob", "Cid"]).id
        services.abandon_game(services.start_game(session_id).id)
        services.unseat_player(session_id, ids_by_name(session_id)["Cid"])
        db.session.remove()
        with pytest.raises(SystemExit):
            downgrade(revision="0011_session_versions")
        assert "joined or left between games" in capfd.readouterr().err
        with db.engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("players")}
            assert {"joined_game", "left_game"} <= columns
            connection.execute(sa.text("DELETE FROM settlement_lines"))
            connection.execute(sa.text("DELETE FROM games"))
            connection.execute(sa.text("DELETE FROM players WHERE left_game IS NOT NULL"))
            connection.commit()
        downgrade(revision="0011_session_versions")
        with db.engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("players")}
        assert "left_game" not in columns
        upgrade()
        assert names_at_the_table(session_id) == ["Ann", "Bob"]
        db.session.remove()
        db.engine.dispose()
