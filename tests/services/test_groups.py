"""Groups against a real database: statistics counted by hand, merged names, queries, migration."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app, rules, services, transfer
from scorekeeper.extensions import db
from scorekeeper.keys import Access, SessionKeys
from scorekeeper.models import GameSession, Group
from scorekeeper.rules.groups import GroupError, PersonStatistics, RuleSystemStatistics
from tests.helpers import as_version_5, counted

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def new_group(name: str = "Donnerstagsrunde") -> tuple[int, str, SessionKeys]:
    keys = SessionKeys.new()
    group = services.create_group(name, keys)
    return group.id, group.public_id, keys


def session_in(group: int, names: list[str], variant: str = "treppenromme", **house: Any) -> Any:
    return services.create_session(names, variant=variant, house_rules=house, group=group)


def play(
    session: Any,
    entries: list[tuple[str, str] | tuple[str, str, str]],
    winner: str | None,
    hands: dict[str, str],
) -> None:
    """Play the session's next game: melds (name, cards) and layoffs (name, cards, onto cards)."""
    game = services.start_game(session.id)
    ids = {player.name: player.id for player in game.players}
    melds: dict[str, int] = {}
    for entry in entries:
        if len(entry) == 2:
            name, cards = entry
            melds[cards] = services.record_meld(game.id, ids[name], cards).id
        else:
            name, cards, onto = entry
            services.record_layoff(game.id, ids[name], melds[onto], cards)
    services.finish_game(
        game.id,
        ids[winner] if winner is not None else None,
        {ids[name]: hand for name, hand in hands.items()},
    )


def seed_group(bob_holds: str = "A♠ JKR") -> tuple[int, Group]:
    """Seed a group: two sessions of Treppenrommé and one of German Rummy (see the numbers)."""
    group, _, _ = new_group()
    first = session_in(group, ["Anna", "Bob", "Cid"], end={"games": 2})
    # Game 1: Anna 45 + 15 (layoff) + the hands 10 + 5 = 75; Bob 26; Cid 0.
    play(
        first,
        [("Anna", "A♠ A♥ A♦"), ("Bob", "5♣ 6♣ 7♣ 8♣"), ("Anna", "A♣", "A♠ A♥ A♦")],
        "Anna",
        {"Bob": "K♥", "Cid": "2♠ 3♠"},
    )
    # Game 2: Cid goes out at once with 8 cards, a Rommé hand: 49 + 12 + (10 + 15) x 2 = 111.
    play(
        first,
        [("Cid", "9♥ 10♥ J♥ Q♥ K♥"), ("Cid", "4♦ 4♣ 4♠")],
        "Cid",
        {"Anna": "K♠", "Bob": "7♦ 8♦"},
    )
    # "anna " is Anna: case and spaces do not count. anna 40 + 15 + 3 = 58; Dora 27.
    second = session_in(group, ["anna ", "Bob", "Dora"], end={"games": 1})
    play(
        second,
        [("Dora", "2♣ 3♣ 4♣ 5♣ 6♣ 7♣"), ("anna", "K♠ K♥ K♦ K♣")],
        "anna",
        {"Bob": "A♦", "Dora": "3♥"},
    )
    # German Rummy: melds score nothing; Bob books -41 (ace 11, joker 30), Eve -5.
    german = session_in(group, ["Anni", "Bob", "Eve"], "german_rummy", opening=0, end={"games": 1})
    play(
        german,
        [("Anni", "7♥ 8♥ 9♥ 10♥"), ("Eve", "Q♠ Q♥ Q♦"), ("Anni", "3♣ 3♦ 3♠")],
        "Anni",
        {"Bob": bob_holds, "Eve": "5♦"},
    )
    return group, group_row(group)


def group_row(group_id: int | None) -> Group:
    found = db.session.get(Group, group_id)
    assert found is not None
    return found


def people(system: RuleSystemStatistics) -> dict[str, PersonStatistics]:
    return {person.name: person for person in system.people}


def counts(person: PersonStatistics) -> tuple[int, int, int, int, int, int]:
    return (
        person.sessions,
        person.sessions_won,
        person.games,
        person.games_won,
        person.points,
        person.romme,
    )


@pytest.mark.usefixtures("ctx")
def test_the_statistics_of_a_seeded_group_are_what_the_table_counts_by_hand() -> None:
    _, group = seed_group()
    statistics = services.read_statistics(group)
    treppen, german = statistics.rule_systems
    assert (treppen.variant.name, treppen.sessions, treppen.games) == ("treppenromme", 2, 3)
    assert (german.variant.name, german.sessions, german.games) == ("german_rummy", 1, 1)

    # Won sessions first, then won games; the latest spelling names the person.
    assert [person.name for person in treppen.people] == ["anna", "Cid", "Bob", "Dora"]
    found = people(treppen)
    assert found["anna"].names == ("Anna", "anna")
    assert counts(found["anna"]) == (2, 1, 3, 2, 75 + 0 + 58, 0)
    assert found["anna"].average == pytest.approx(133 / 3)
    assert counts(found["Cid"]) == (1, 1, 2, 1, 0 + 111, 1)
    assert counts(found["Bob"]) == (2, 0, 3, 0, 26, 0)
    assert counts(found["Dora"]) == (1, 0, 1, 0, 27, 0)
    assert found["Bob"].average == pytest.approx(26 / 3)

    # The best meld is the highest value written (45 beats 40); the longest sequence the most cards.
    best = found["anna"].best_meld
    assert best is not None
    assert (best.cards, best.value, best.kind) == (("A♠", "A♥", "A♦"), 45, "set")
    assert found["anna"].longest_sequence is None
    longest = found["Dora"].longest_sequence
    assert longest is not None
    assert (len(longest.cards), longest.value) == (6, 27)
    cid_best = found["Cid"].best_meld
    assert cid_best is not None
    assert (cid_best.value, cid_best.game) == (49, 2)

    # The latest sessions first, each with its winner and totals, the best total first.
    assert [(result.winner, result.totals) for result in treppen.last_results] == [
        ("anna", (("anna", 58), ("Dora", 27), ("Bob", 0))),
        ("Cid", (("Cid", 111), ("Anna", 75), ("Bob", 26))),
    ]

    # German Rummy: minus points, and the best meld is the one of the most cards.
    found = people(german)
    assert [person.name for person in german.people] == ["Anni", "Bob", "Eve"]
    assert counts(found["Anni"]) == (1, 1, 1, 1, 0, 0)
    assert counts(found["Bob"]) == (1, 0, 1, 0, -41, 0)
    assert found["Eve"].average == -5
    anni_best = found["Anni"].best_meld
    assert anni_best is not None
    assert anni_best.cards == ("7♥", "8♥", "9♥", "10♥")
    assert found["Bob"].best_meld is None
    # German Rummy shows the fewest minus points first.
    assert german.last_results[0].totals == (("Anni", 0), ("Eve", -5), ("Bob", -41))


@pytest.mark.usefixtures("ctx")
def test_merged_names_count_as_one_person_and_keep_the_name_merged_into() -> None:
    group_id, group = seed_group()
    merges = services.merge_names(group_id, " Anni", "ANNA")
    assert [(merge.name, merge.same_as) for merge in merges] == [("Anni", "ANNA")]
    statistics = services.read_statistics(group)
    german = people(statistics.rule_systems[1])
    # Nobody spelt "Anna" in German Rummy: the person is called as the merge wrote the name.
    assert german["ANNA"].names == ("Anni",)
    assert counts(german["ANNA"]) == (1, 1, 1, 1, 0, 0)
    assert "anna" in people(statistics.rule_systems[0])


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(
    ("name", "same_as", "refused"),
    [
        ("ANNA", "anna", "group.same_name"),
        ("A n n a", "anna", "group.same_name"),
        ("Zed", "Anna", "group.nobody_called"),
        ("Bob", "Anna", "group.played_together"),
        ("Dora", "bob", "group.played_together"),
        ("", "Anna", "seating.no_name"),
    ],
)
def test_a_merge_that_cannot_be_is_refused_and_changes_nothing(
    name: str, same_as: str, refused: str
) -> None:
    group_id, group = seed_group()
    with pytest.raises(GroupError) as caught:
        services.merge_names(group_id, name, same_as)
    assert caught.value.message_id == refused
    assert services.group_sessions(group).merges == []


@pytest.mark.usefixtures("ctx")
def test_names_merged_already_are_not_merged_again_and_merges_follow_each_other() -> None:
    group_id, group = seed_group()
    services.merge_names(group_id, "Anni", "Anna")
    with pytest.raises(GroupError) as caught:
        services.merge_names(group_id, "anna", "anni")
    assert caught.value.message_id == "group.same_person"
    # Eve never sat with Dora: Eve is Dora, and through Anni nobody else.
    services.merge_names(group_id, "Eve", "Dora")
    read = services.group_sessions(group)
    assert read.people.key("eve") == "dora"
    assert read.people.key("Anni") == "anna"


@pytest.mark.usefixtures("ctx")
def test_a_new_group_needs_a_name_of_at_most_forty_characters() -> None:
    with pytest.raises(rules.RulesError) as caught:
        new_group("   ")
    assert caught.value.message_id == "group.no_name"
    with pytest.raises(rules.RulesError) as caught:
        new_group("x" * 41)
    assert caught.value.message_id == "group.name_too_long"
    assert new_group(" Skat  freunde ")[0] > 0


@pytest.mark.usefixtures("ctx")
def test_a_session_started_with_a_new_group_is_one_transaction() -> None:
    keys = SessionKeys.new()
    with pytest.raises(rules.RulesError):
        services.create_session(["Ann"], group=services.NewGroup("Runde", keys))
    assert db.session.scalar(sa.text("SELECT count(*) FROM groups")) == 0
    session = services.create_session(["Ann", "Bob"], group=services.NewGroup("Runde", keys))
    group, granted = services.access_to_group(
        group_row(session.group_id).public_id, keys.view, Access.VIEW
    )
    assert (group.name, granted) == ("Runde", Access.VIEW)
    assert [fact.public_id for fact in services.group_sessions(group).sessions] == [
        session.public_id
    ]


@pytest.mark.usefixtures("ctx")
def test_a_group_key_opens_its_sessions_to_watch_and_no_others() -> None:
    group_id, public_id, keys = new_group()
    inside = session_in(group_id, ["Ann", "Bob"])
    outside = services.create_session(["Ann", "Bob"])
    held = {public_id: keys.view}
    assert services.session_through_group(inside.public_id, held) is not None
    assert services.session_through_group(outside.public_id, held) is None
    assert services.session_through_group(inside.public_id, {public_id: "wrong"}) is None
    with pytest.raises(services.NotFoundError):
        services.access_to_group(public_id, keys.view, Access.EDIT)


def grown_group(app: Flask, sessions: int) -> tuple[str, SessionKeys]:
    """Make a group of sessions of a few games each, both rule systems; return its id, keys."""
    with app.app_context():
        group_id, public_id, keys = new_group()
        for number in range(sessions):
            variant = "german_rummy" if number % 3 == 2 else "treppenromme"
            extra = {"opening": 0} if variant == "german_rummy" else {}
            session = session_in(
                group_id, ["Ann", "Bob", f"P{number}"], variant, end={"games": 3}, **extra
            )
            for _ in range(2):
                play(
                    session,
                    [("Ann", "7♥ 8♥ 9♥"), ("Bob", "K♠ K♥ K♦"), ("Ann", "10♥", "7♥ 8♥ 9♥")],
                    "Ann",
                    {"Bob": "2♣", f"P{number}": "3♣"},
                )
        return public_id, keys


def statements_for_statistics(app: Flask, public_id: str) -> int:
    with app.app_context():
        group = db.session.scalars(sa.select(Group).where(Group.public_id == public_id)).one()
        with counted(app) as statements:
            statistics = services.read_statistics(group)
        assert statistics.rule_systems
    return len(statements)


def test_the_statistics_read_as_many_statements_for_two_sessions_as_for_six(app: Flask) -> None:
    few = statements_for_statistics(app, grown_group(app, 2)[0])
    many = statements_for_statistics(app, grown_group(app, 6)[0])
    assert few == many <= 7


# --- the migration ---------------------------------------------------------------------------


@pytest.fixture
def empty_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'groups.sqlite3'}"
        return
    pytest.skip("the migration's refusal is checked on SQLite (Flask-Migrate exits on it)")


def test_going_back_before_groups_is_refused_while_a_group_exists_and_clean_without(
    empty_url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": empty_url})
    with app.app_context():
        upgrade()
        group_id, _, _ = new_group()
        session = session_in(group_id, ["Ann", "Bob"])
        db.session.remove()
        with pytest.raises(SystemExit):
            downgrade(revision="0012_seats_between_games")
        assert "Groups of players are stored" in capfd.readouterr().err
        with db.engine.begin() as connection:
            connection.execute(sa.text("UPDATE sessions SET group_id = NULL"))
            connection.execute(sa.text("DELETE FROM groups"))
        downgrade(revision="0012_seats_between_games")
        with db.engine.connect() as connection:
            tables = set(sa.inspect(connection).get_table_names())
            columns = {column["name"] for column in sa.inspect(connection).get_columns("sessions")}
        assert not {"groups", "merged_names"} & tables
        assert "group_id" not in columns
        upgrade()
        assert services.get_session(session.id).group_id is None
        db.session.remove()
        db.engine.dispose()


# --- export and import -----------------------------------------------------------------------


@pytest.fixture
def second_app(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """Return an app on a second, empty database built by the real migrations."""
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'imported.sqlite3'}"
    else:
        cluster: str = request.getfixturevalue("postgres_cluster")
        admin = request.getfixturevalue("postgres_admin")
        name = f"groups_{uuid.uuid4().hex[:16]}"
        admin(f"CREATE DATABASE {name} TEMPLATE template_scorekeeper")
        request.addfinalizer(lambda: admin(f"DROP DATABASE {name} WITH (FORCE)"))
        url = f"{cluster}/{name}"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


def test_groups_and_merged_names_go_through_export_and_import_unchanged(
    app: Flask, second_app: Flask
) -> None:
    with app.app_context():
        group_id, group = seed_group(bob_holds="A♠ JKR")
        services.merge_names(group_id, "Anni", "Anna")
        _, _, keys = new_group("Leer")
        public_id = group.public_id
        before = services.read_statistics(group)
        document = transfer.export_sessions()
        first = db.session.scalar(sa.select(sa.func.min(GameSession.id)))
        alone = transfer.export_sessions(first)
    assert document["version"] == transfer.VERSION
    assert [item["name"] for item in document["groups"]] == ["Donnerstagsrunde", "Leer"]
    assert [(m["name"], m["same_as"]) for m in document["groups"][0]["merges"]] == [
        ("Anni", "Anna")
    ]
    assert {session["group_id"] for session in document["sessions"]} == {group_id}
    # One session alone goes without its group.
    assert alone["groups"] == [] and alone["sessions"][0]["group_id"] is None
    with second_app.app_context():
        assert transfer.import_sessions(transfer.loads(transfer.dumps(document))) == 3
        assert transfer.export_sessions() == document
        imported, _ = services.access_to_group(public_id, None, Access.NONE)
        after = services.read_statistics(imported)
        assert after.rule_systems == before.rule_systems
        empty = db.session.scalars(sa.select(Group).where(Group.name == "Leer")).one()
        assert services.access_to_group(empty.public_id, keys.edit, Access.EDIT)[1] == Access.EDIT


def test_a_document_of_version_4_imports_its_sessions_without_groups(
    app: Flask, second_app: Flask
) -> None:
    with app.app_context():
        seed_group(bob_holds="A♠ K♦")
        document = transfer.export_sessions()
    older = as_version_5(document)
    older["version"] = 4
    with second_app.app_context(), pytest.raises(transfer.MalformedDocumentError, match="groups"):
        transfer.import_sessions(copy.deepcopy(older))
    older.pop("groups")
    for session in older["sessions"]:
        session.pop("group_id")
    with second_app.app_context():
        assert transfer.import_sessions(older) == 3
        assert {session["group_id"] for session in transfer.export_sessions()["sessions"]} == {None}
    document["sessions"][0]["group_id"] = 999
    with second_app.app_context(), pytest.raises(transfer.MalformedDocumentError, match="group"):
        transfer.import_sessions(document)


def statements_for_requests(app: Flask, public_id: str, keys: SessionKeys) -> tuple[int, int]:
    """Return the statements of the statistics' JSON answer and of the group's page."""
    client = app.test_client()
    assert client.get(f"/groups/{public_id}?key={keys.view}").status_code == 302
    headers = {"Authorization": f"Bearer {keys.view}"}
    with counted(app) as api:
        assert (
            client.get(f"/api/v1/groups/{public_id}/statistics", headers=headers).status_code == 200
        )
    with counted(app) as page:
        assert client.get(f"/groups/{public_id}").status_code == 200
    return len(api), len(page)


def test_the_answers_about_statistics_read_as_many_statements_for_two_sessions_as_for_six(
    app: Flask,
) -> None:
    few = statements_for_requests(app, *grown_group(app, 2))
    many = statements_for_requests(app, *grown_group(app, 6))
    assert few == many
