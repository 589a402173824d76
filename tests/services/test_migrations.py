"""The migrations: they build the schema the models describe, and they can be undone."""

from __future__ import annotations

import types
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.keys import Access
from scorekeeper.models import utcnow

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def empty_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """Return the URL of an empty database (no tables at all)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'migrations.sqlite3'}"
        return
    cluster = request.getfixturevalue("postgres_cluster")
    name = f"empty_{uuid.uuid4().hex[:16]}"
    admin = request.getfixturevalue("postgres_admin")
    admin(f"CREATE DATABASE {name}")
    yield f"{cluster}/{name}"
    admin(f"DROP DATABASE {name} WITH (FORCE)")


def empty_app(url: str) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})


def differences() -> list[Any]:
    """Return what autogenerate would change to make the database match the models."""
    with db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection,
            opts={"compare_type": True, "compare_server_default": True, "render_as_batch": True},
        )
        return list(compare_metadata(context, db.metadata))


def tables() -> set[str]:
    return set(sa.inspect(db.engine).get_table_names()) - {"alembic_version"}


def test_upgrading_an_empty_database_builds_exactly_what_the_models_describe(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        assert tables() == set()
        upgrade()
        assert tables() == set(db.metadata.tables)
        assert differences() == []
        db.engine.dispose()


def test_the_migrations_go_down_to_an_empty_database_and_up_again(empty_url: str) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        downgrade(revision="base")
        assert tables() == set()
        upgrade()
        assert differences() == []
        with db.engine.connect() as connection:
            head = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        assert head is not None
        db.engine.dispose()


def test_each_copy_of_a_card_lies_once_a_game_by_a_named_unique_constraint(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        names = {
            index["name"] for index in sa.inspect(db.engine).get_unique_constraints("table_cards")
        }
        assert "uq_table_cards_game_id_card_copy" in names
        db.engine.dispose()


def test_running_totals_are_filled_in_for_games_that_ended_before_the_upgrade(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0001_initial")
        with db.engine.begin() as connection:

            def run(statement: str, values: tuple[object, ...] = ()) -> None:
                names = {f"p{index}": value for index, value in enumerate(values)}
                for index in range(len(values)):
                    statement = statement.replace("?", f":p{index}", 1)
                connection.execute(sa.text(statement), names)

            run(
                "INSERT INTO sessions (id, variant, target, first_dealer_seat, status, created_at)"
                " VALUES (1, 'treppenromme', 500, 0, 'open', '2026-11-01')"
            )
            run("INSERT INTO players (id, session_id, seat, name) VALUES (1, 1, 0, 'Ann')")
            run("INSERT INTO players (id, session_id, seat, name) VALUES (2, 1, 1, 'Bob')")
            for game_id, status, winner in ((1, "finished", 1), (2, "abandoned", None)):
                run(
                    "INSERT INTO games (id, session_id, number, dealer_id, status, winner_id,"
                    " started_at) VALUES (?, 1, ?, 1, ?, ?, '2026-11-01')",
                    (game_id, game_id, status, winner),
                )
            entries = [(1, 1, 1, 1, 18), (2, 1, 2, 2, 30), (3, 2, 1, 2, 6), (4, 2, 2, 1, 24)]
            for entry_id, game_id, position, player_id, value in entries:
                run(
                    "INSERT INTO entries (id, game_id, position, kind, player_id, meld_kind,"
                    " value, created_at) VALUES (?, ?, ?, 'meld', ?, 'set', ?, '2026-11-01')",
                    (entry_id, game_id, position, player_id, value),
                )
            run(
                "INSERT INTO settlement_lines (game_id, player_id, hand, hand_points, factor, gain)"
                " VALUES (1, 1, NULL, NULL, 1, 7), (1, 2, '7♥', 7, 1, 0)"
            )
        upgrade()
        with db.engine.connect() as connection:
            banked = dict(connection.execute(sa.text("SELECT id, banked FROM players")).all())
            lines = connection.execute(
                sa.text(
                    "SELECT game_id, player_id, meld_points, gain FROM settlement_lines"
                    " ORDER BY game_id, player_id"
                )
            ).all()
        db.engine.dispose()
    assert [tuple(line) for line in lines] == [
        (1, 1, 18, 7),
        (1, 2, 30, 0),
        (2, 1, 24, 0),
        (2, 2, 6, 0),
    ]
    assert banked == {1: 18 + 7 + 24, 2: 30 + 6}


def test_sessions_from_before_keys_get_a_random_id_and_stay_closed_until_new_keys(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0003_idempotency_records")
        with db.engine.begin() as connection:
            for session_id in (1, 2):
                connection.execute(
                    sa.text(
                        "INSERT INTO sessions (id, variant, target, first_dealer_seat, status,"
                        " created_at) VALUES (:id, 'treppenromme', 500, 0, 'open', '2026-11-01')"
                    ),
                    {"id": session_id},
                )
                connection.execute(
                    sa.text("INSERT INTO players (session_id, seat, name) VALUES (:id, 0, 'Ann')"),
                    {"id": session_id},
                )
        upgrade()
        with db.engine.connect() as connection:
            rows = connection.execute(
                sa.text("SELECT public_id, edit_key_digest, view_key_digest FROM sessions")
            ).all()
        public_ids = [row.public_id for row in rows]
        assert len(set(public_ids)) == 2
        assert all(len(public_id) == 22 for public_id in public_ids)
        assert all(len(row.edit_key_digest) == len(row.view_key_digest) == 64 for row in rows)
        with pytest.raises(services.NotFoundError):
            services.access_to_session(public_ids[0], lambda _: "", Access.VIEW)
        keys = services.replace_keys(public_ids[0])
        opened, granted = services.access_to_session(public_ids[0], lambda _: keys.edit)
        assert granted == Access.EDIT
        assert [player.name for player in opened.players] == ["Ann"]
        db.session.remove()
        db.engine.dispose()


def test_idempotency_records_older_than_a_day_go_with_migration_0005(empty_url: str) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0004_session_keys")
        records = sa.table(
            "idempotency_records",
            sa.column("key"),
            sa.column("request"),
            sa.column("created_at", sa.DateTime(timezone=True)),
        )
        now = utcnow()
        with db.engine.begin() as connection:
            connection.execute(
                records.insert(),
                [
                    {"key": "last-week", "request": "-", "created_at": now - timedelta(days=7)},
                    {"key": "an-hour-ago", "request": "-", "created_at": now - timedelta(hours=1)},
                ],
            )
        upgrade()
        with db.engine.connect() as connection:
            kept = connection.execute(sa.select(records.c.key)).scalars().all()
        assert kept == ["an-hour-ago"]
        db.engine.dispose()


_GAME_OF_REVISION_0005 = [
    "INSERT INTO sessions (id, public_id, edit_key_digest, view_key_digest, variant, target,"
    " first_dealer_seat, status, created_at) VALUES (1, 'abc', '-', '-', 'treppenromme', 500,"
    " 0, 'open', :now)",
    "INSERT INTO players (id, session_id, seat, name, banked) VALUES (1, 1, 0, 'Ann', 0),"
    " (2, 1, 1, 'Bob', 0)",
    "INSERT INTO games (id, session_id, number, dealer_id, status, started_at)"
    " VALUES (1, 1, 1, 1, 'open', :now)",
    "INSERT INTO entries (id, game_id, position, kind, player_id, meld_id, meld_kind, value,"
    " created_at) VALUES (1, 1, 1, 'meld', 1, NULL, 'sequence', 9, :now),"
    " (2, 1, 2, 'layoff', 2, 1, NULL, 5, :now)",
    "INSERT INTO table_cards (id, entry_id, game_id, card, position, value) VALUES"
    " (1, 1, 1, '2♠', 0, 2), (2, 1, 1, '3♠', 1, 3), (3, 1, 1, '4♠', 2, 4), (4, 2, 1, '5♠', 0, 5)",
]


def test_entries_keep_their_rows_through_migration_0006_and_their_ids_never_come_back(
    empty_url: str, backend: str
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0005_forget_old_answers")
        # The rows a game of that time left: Ann's meld and Bob's layoff (the models of today
        # have columns that schema lacks, so the rows are written as SQL).
        ann, bob = 1, 2
        game = types.SimpleNamespace(id=1)
        with db.engine.begin() as connection:
            for statement in _GAME_OF_REVISION_0005:
                connection.execute(sa.text(statement), {"now": utcnow()})
            if backend == "postgresql":  # ids written by hand leave the sequences behind
                for table in ("sessions", "players", "games", "entries", "table_cards"):
                    connection.execute(
                        sa.text(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))")
                    )
        db.session.remove()
        before = _rows("entries"), _rows("table_cards")
        upgrade()
        # Later migrations add columns (0008: group_id, empty): the rows are otherwise the same.
        after = _rows("entries"), _rows("table_cards")
        assert [
            [row[: len(old[0])] for row in rows] for rows, old in zip(after, before, strict=True)
        ] == [list(rows) for rows in before]
        if backend == "sqlite":
            with db.engine.connect() as connection:
                assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1

        undone = services.record_meld(game.id, ann, "J♣ Q♣ K♣")
        services.undo_last_entry(game.id)
        after = services.record_meld(game.id, bob, "7♥ 8♥ 9♥")
        assert after.id > undone.id
        with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO table_cards (entry_id, game_id, card, position, value)"
                    " VALUES (999999, :game, 'A♠', 0, 1)"
                ),
                {"game": game.id},
            )
        db.session.remove()
        db.engine.dispose()


def test_an_upgrade_that_would_leave_a_row_pointing_at_nothing_changes_nothing(
    empty_url: str, backend: str
) -> None:
    if backend != "sqlite":
        pytest.skip("only SQLite lets a row point at nothing (foreign keys switched off)")
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0005_forget_old_answers")
        with db.engine.connect() as connection:
            raw = connection.connection.dbapi_connection
            assert raw is not None
            raw.execute("PRAGMA foreign_keys=OFF")
            raw.execute(
                "INSERT INTO table_cards (entry_id, game_id, card, position, value)"
                " VALUES (7, 7, 'A♠', 0, 1)"
            )
            raw.execute("PRAGMA foreign_keys=ON")
        with pytest.raises(SystemExit):  # Flask-Migrate logs the error and exits
            upgrade()
        with db.engine.connect() as connection:
            version = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
            autoincrement = connection.exec_driver_sql(
                "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'"
            ).scalar()
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert (version, autoincrement) == ("0005_forget_old_answers", 0)
        db.engine.dispose()


def _rows(table: str) -> list[tuple[Any, ...]]:
    with db.engine.connect() as connection:
        return [
            tuple(row) for row in connection.execute(sa.text(f"SELECT * FROM {table} ORDER BY id"))
        ]


def test_sessions_from_before_house_rules_read_as_treppenromme_with_their_target(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0006_entry_ids_never_reused")
        with db.engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO sessions (id, public_id, edit_key_digest, view_key_digest,"
                    " variant, target, first_dealer_seat, status, created_at) VALUES"
                    " (1, 'old', '-', '-', 'treppenromme', 1000, 0, 'open', CURRENT_TIMESTAMP)"
                )
            )
            connection.execute(
                sa.text(
                    "INSERT INTO players (session_id, seat, name)"
                    " VALUES (1, 0, 'Ann'), (1, 1, 'Bob')"
                )
            )
        upgrade()
        session = services.get_session(1)
        # Its target is kept as the one house rule it was played by (0016): sessions.target went.
        assert session.house_rules == '{"end": {"target": 1000}}'
        assert services.variant_of(session).house_rules == {
            "end": {"target": 1000},
            "romme_doubling": "winner",
        }
        assert services.summarize_session(session).target == 1000
        # A session to a number of games has no target; going back gives it the default one.
        services.create_session(["Cid", "Dan"], house_rules={"end": {"games": 3}})
        db.session.remove()
        downgrade(revision="0006_entry_ids_never_reused")
        with db.engine.connect() as connection:
            targets = connection.execute(sa.text("SELECT target FROM sessions ORDER BY id")).all()
        assert [row.target for row in targets] == [1000, 500]
        db.engine.dispose()


def test_going_back_before_house_rules_is_refused_while_boathouse_sessions_exist(
    empty_url: str, backend: str, capfd: pytest.CaptureFixture[str]
) -> None:
    if backend != "sqlite":
        # Flask-Migrate exits on the refusal and leaves psycopg's connection to the garbage
        # collector, which the warnings-as-errors setting turns into a failure; the guard's SQL
        # is the same on both.
        pytest.skip("the refusal is checked on SQLite")
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        services.create_session(["Ann", "Bob"], variant="boathouse_rum")
        db.session.remove()
        with pytest.raises(SystemExit):
            downgrade(revision="0006_entry_ids_never_reused")
        assert "another rule system than Treppenrommé" in capfd.readouterr().err
        with db.engine.connect() as connection:
            columns = {column["name"] for column in sa.inspect(connection).get_columns("sessions")}
        assert "house_rules" in columns
        db.engine.dispose()


def test_going_back_before_two_packs_is_refused_while_jokers_or_second_copies_lie(
    empty_url: str, backend: str, capfd: pytest.CaptureFixture[str]
) -> None:
    if backend != "sqlite":
        # As above: Flask-Migrate exits on the refusal; the guard's SQL is the same on both.
        pytest.skip("the refusal is checked on SQLite")
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        session = services.create_session(
            ["Ann", "Bob"], variant="german_rummy", house_rules={"opening": 0}
        )
        game = services.start_game(session.id)
        ann, bob = (player.id for player in game.players)
        services.record_meld(game.id, ann, "7♥ 8♥ 9♥")
        services.record_meld(game.id, bob, "7♥ JKR 9♥")
        db.session.remove()
        with pytest.raises(SystemExit):
            downgrade(revision="0009_sessions_by_age")
        assert "second copies, jokers or joker swaps" in capfd.readouterr().err
        with db.engine.connect() as connection:
            stored = connection.execute(
                sa.text("SELECT card, copy, stands_for FROM table_cards ORDER BY id")
            ).all()
        assert [tuple(row) for row in stored] == [
            ("7♥", 0, None),
            ("8♥", 0, None),
            ("9♥", 0, None),
            ("7♥", 1, None),
            ("JKR", 0, "8♥"),
            ("9♥", 1, None),
        ]
        db.engine.dispose()


def test_cards_of_one_pack_go_back_before_two_packs_and_up_again(empty_url: str) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        session = services.create_session(["Ann", "Bob"])
        game = services.start_game(session.id)
        ann = game.players[0].id
        services.record_meld(game.id, ann, "J♣ Q♣ K♣")
        db.session.remove()
        downgrade(revision="0009_sessions_by_age")
        with db.engine.connect() as connection:
            columns = {c["name"] for c in sa.inspect(connection).get_columns("table_cards")}
        assert "copy" not in columns
        upgrade()
        assert [card.card for card in services.read_game(game.id).entries[0].cards] == [
            "J♣",
            "Q♣",
            "K♣",
        ]
        db.session.remove()
        db.engine.dispose()


def test_going_back_before_the_audit_trail_is_refused_while_lines_exist_and_fine_without(
    empty_url: str, backend: str, capfd: pytest.CaptureFixture[str]
) -> None:
    if backend != "sqlite":
        # As above: Flask-Migrate exits on the refusal; the guard's SQL is the same on both.
        pytest.skip("the refusal is checked on SQLite")
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        session = services.create_session(["Ann", "Bob"])
        game = services.start_game(session.id)
        services.record_meld(game.id, game.players[0].id, "J♣ Q♣ K♣")
        services.undo_last_entry(game.id)
        db.session.remove()
        with pytest.raises(SystemExit):
            downgrade(revision="0013_groups")
        assert "lines of the audit trail are stored" in capfd.readouterr().err
        assert "audit_lines" in tables()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM audit_lines"))
        downgrade(revision="0013_groups")
        assert "audit_lines" not in tables()
        upgrade()
        assert differences() == []
        db.engine.dispose()


def test_going_back_before_restored_lines_is_refused_while_one_exists_and_fine_without(
    empty_url: str, backend: str, capfd: pytest.CaptureFixture[str]
) -> None:
    if backend != "sqlite":
        # As above: Flask-Migrate exits on the refusal; the guard's SQL is the same on both.
        pytest.skip("the refusal is checked on SQLite")
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        session = services.create_session(["Ann", "Bob"])
        game = services.start_game(session.id)
        ann = game.players[0].id
        undone = services.record_meld(game.id, ann, "J♣ Q♣ K♣").id
        services.undo_last_entry(game.id)
        services.record_meld(game.id, ann, "J♣ Q♣ K♣", restores=undone)
        db.session.remove()
        with pytest.raises(SystemExit):
            downgrade(revision="0014_audit_trail")
        assert "lines of restored entries" in capfd.readouterr().err
        with db.engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM audit_lines WHERE action = 'restored'"))
        downgrade(revision="0014_audit_trail")
        # The old check holds again: a restored line no longer fits.
        with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE audit_lines SET action = 'restored' WHERE action = 'undone'")
            )
        upgrade()
        assert differences() == []


def test_the_target_moves_into_the_house_rules_with_0016_and_comes_back_on_the_way_down(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0015_restored_lines")
        sessions = sa.table(
            "sessions",
            *(
                sa.column(name)
                for name in (
                    "id",
                    "public_id",
                    "variant",
                    "target",
                    "house_rules",
                    "first_dealer_seat",
                    "status",
                    "created_at",
                )
            ),
        )
        stored = [
            # Stored before house rules existed: its target is all it has.
            (1, "treppenromme", 700, None),
            (2, "treppenromme", 1000, '{"end": {"target": 1000}, "romme_doubling": "loser"}'),
            (3, "boathouse_rum", None, '{"end": {"games": 5}}'),
        ]
        with db.engine.begin() as connection:
            connection.execute(
                sessions.insert(),
                [
                    {
                        "id": session_id,
                        "public_id": f"s{session_id}",
                        "variant": variant,
                        "target": target,
                        "house_rules": house_rules,
                        "first_dealer_seat": 0,
                        "status": "open",
                        "created_at": utcnow(),
                    }
                    for session_id, variant, target, house_rules in stored
                ],
            )
            connection.execute(
                sa.text(
                    "INSERT INTO players (session_id, seat, name) VALUES"
                    " (1, 0, 'Ann'), (1, 1, 'Bob'), (2, 0, 'Cid'), (2, 1, 'Dan'),"
                    " (3, 0, 'Eva'), (3, 1, 'Fin')"
                )
            )
        upgrade()
        assert differences() == []
        with db.engine.connect() as connection:
            columns = {column["name"] for column in sa.inspect(connection).get_columns("sessions")}
        assert "target" not in columns
        read = [services.variant_of(services.get_session(number)) for number in (1, 2, 3)]
        assert [variant.house_rules["end"] for variant in read] == [
            {"target": 700},
            {"target": 1000},
            {"games": 5},
        ]
        assert read[0].house_rules["romme_doubling"] == "winner"  # the default, as before
        assert read[1].house_rules["romme_doubling"] == "loser"
        assert [services.summarize_session(services.get_session(n)).target for n in (1, 2, 3)] == [
            700,
            1000,
            None,
        ]
        db.session.remove()
        downgrade(revision="0015_restored_lines")
        with db.engine.connect() as connection:
            back = connection.execute(sa.text("SELECT target FROM sessions ORDER BY id")).all()
        assert [row.target for row in back] == [700, 1000, None]
        with db.engine.begin() as connection, pytest.raises(sa.exc.IntegrityError):
            connection.execute(sa.text("UPDATE sessions SET target = 0 WHERE id = 1"))
        upgrade()
        assert differences() == []
        db.engine.dispose()


def test_merged_names_get_keys_in_nfkc_with_0017_and_merges_that_say_nothing_new_go(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade(revision="0016_target_in_house_rules")
        with db.engine.begin() as connection:
            for group in (1, 2):
                connection.execute(
                    sa.text(
                        "INSERT INTO groups (id, public_id, edit_key_digest, view_key_digest,"
                        " name, created_at) VALUES (:id, :public, :digest, :digest, 'Runde', :at)"
                    ),
                    {"id": group, "public": f"g{group}", "digest": "0" * 64, "at": utcnow()},
                )
            stored = [
                # (id, group, name, same_as, the keys 0013 to 0016 wrote: NFC, case folded)
                (1, 1, "Ａｎｎｉ", "Anna", "ａｎｎｉ", "anna"),
                (2, 1, "Anni", "Anna", "anni", "anna"),  # the same merge, in NFKC
                (3, 1, "Ｂｏｂ", "Bob", "ｂｏｂ", "bob"),  # one name, in NFKC
                (4, 1, "Cid", "Ｄａｎ", "cid", "ｄａｎ"),
                (5, 1, "Dan", "Cid", "dan", "cid"),  # one person already, by merge 4
                (6, 2, "Anni", "Anna", "anni", "anna"),  # another group's: it stays
            ]
            connection.execute(
                sa.text(
                    "INSERT INTO merged_names (id, group_id, name, same_as, name_key,"
                    " same_as_key, created_at) VALUES (:id, :group, :name, :same_as, :key,"
                    " :same_key, :at)"
                ),
                [
                    dict(
                        zip(("id", "group", "name", "same_as", "key", "same_key"), row, strict=True)
                    )
                    | {"at": utcnow()}
                    for row in stored
                ],
            )
        keys = "SELECT id, name_key, same_as_key FROM merged_names ORDER BY id"
        upgrade()
        assert differences() == []
        with db.engine.connect() as connection:
            after = [tuple(row) for row in connection.execute(sa.text(keys))]
        assert after == [(1, "anni", "anna"), (4, "cid", "dan"), (6, "anni", "anna")]
        db.session.remove()
        downgrade(revision="0016_target_in_house_rules")
        with db.engine.connect() as connection:
            back = [tuple(row) for row in connection.execute(sa.text(keys))]
        assert back == [(1, "ａｎｎｉ", "anna"), (4, "cid", "ｄａｎ"), (6, "anni", "anna")]
        upgrade()
        assert differences() == []
        db.engine.dispose()


def test_tap_times_come_with_0021_and_go_on_the_way_down_with_every_entry_kept(
    empty_url: str,
) -> None:
    app = empty_app(empty_url)
    with app.app_context():
        upgrade()
        session = services.create_session(["Ann", "Bob", "Cid"], target=500)
        ann, bob, _cid = (player.id for player in session.players)
        game = services.start_game(session.id).id
        tapped = utcnow() - timedelta(minutes=5)
        meld = services.record_meld(game, ann, "Q♣ K♣ A♣", tapped_at=tapped)
        services.record_layoff(game, bob, meld.id, "J♣")
        entries = "SELECT id, position, kind, player_id, value FROM entries ORDER BY id"
        with db.engine.connect() as connection:
            before = [tuple(row) for row in connection.execute(sa.text(entries))]
            kept = connection.execute(sa.text("SELECT tapped_at FROM entries ORDER BY id")).all()
        assert [row.tapped_at is not None for row in kept] == [True, False]
        db.session.remove()
        downgrade(revision="0020_evenings")
        with db.engine.connect() as connection:
            columns = {column["name"] for column in sa.inspect(connection).get_columns("entries")}
            assert [tuple(row) for row in connection.execute(sa.text(entries))] == before
        assert "tapped_at" not in columns
        upgrade()
        assert differences() == []
        with db.engine.connect() as connection:
            again = connection.execute(sa.text("SELECT tapped_at FROM entries")).all()
        assert [row.tapped_at for row in again] == [None, None]
        assert [(e.id, e.tapped_at) for e in services.get_game(game).entries] == [
            (row[0], None) for row in before
        ]
        db.session.remove()
        db.engine.dispose()
