"""A German catalogue that was never compiled is said loudly at start, with the command."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper import cli, create_app

COMPILE = "pybabel compile -d"


@pytest.fixture
def uncompiled(tmp_path: Path) -> Path:
    """Return a copy of the translations folder without its compiled catalogues."""
    folder = tmp_path / "translations"
    shutil.copytree(
        Path(scorekeeper.__file__).parent / "translations",
        folder,
        ignore=shutil.ignore_patterns("*.mo"),
    )
    assert not list(folder.rglob("*.mo"))
    return folder


def test_create_app_warns_that_the_german_catalogue_is_not_compiled_and_how_to_compile_it(
    uncompiled: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="scorekeeper"):
        create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                "BABEL_TRANSLATION_DIRECTORIES": str(uncompiled),
            }
        )
    warnings = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == 1
    said = warnings[0].getMessage()
    assert "German message catalogue is not compiled" in said
    assert f"{COMPILE} {uncompiled}" in said


def test_create_app_says_nothing_of_a_compiled_catalogue(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="scorekeeper"):
        create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            }
        )
    assert not [record for record in caplog.records if COMPILE in record.getMessage()]


def test_serve_warns_that_the_german_catalogue_is_not_compiled(
    uncompiled: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    served = []
    monkeypatch.setattr(scorekeeper, "TRANSLATIONS", uncompiled)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'served.sqlite3'}")
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    monkeypatch.setattr(cli, "_serve", lambda app, *_: served.append(app) or 0)
    monkeypatch.setattr("scorekeeper.backup.start_daily_backups", lambda *_: None)

    with caplog.at_level(logging.WARNING, logger="scorekeeper"):
        assert cli.main(["serve", "--port", "0"]) == 0

    assert served
    said = [record.getMessage() for record in caplog.records]
    assert any(f"{COMPILE} {uncompiled}" in line for line in said), said
