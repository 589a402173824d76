"""The migrations: they build the schema the models describe, and they can be undone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db


def empty_app(tmp_path: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrations.sqlite3'}",
        }
    )


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
    tmp_path: Path,
) -> None:
    app = empty_app(tmp_path)
    with app.app_context():
        assert tables() == set()
        upgrade()
        assert tables() == set(db.metadata.tables)
        assert differences() == []
        db.engine.dispose()


def test_the_migrations_go_down_to_an_empty_database_and_up_again(tmp_path: Path) -> None:
    app = empty_app(tmp_path)
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


def test_each_card_lies_once_a_game_by_a_named_unique_constraint(tmp_path: Path) -> None:
    app = empty_app(tmp_path)
    with app.app_context():
        upgrade()
        names = {
            index["name"] for index in sa.inspect(db.engine).get_unique_constraints("table_cards")
        }
        assert "uq_table_cards_game_id_card" in names
        db.engine.dispose()
