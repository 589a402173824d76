"""The score sheet, its chart and its files read the same number of statements for any session."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import session_with_games, statements_for

# Every case runs on SQLite and on a real PostgreSQL server.
pytestmark = pytest.mark.parametrize("backend", ["sqlite", "postgresql"])

REQUESTS: dict[str, Callable[[FlaskClient, dict[str, Any]], Any]] = {
    "sheet page": lambda c, ids: c.get(f"/sessions/{ids['session']}/sheet"),
    "chart": lambda c, ids: c.get(f"/sessions/{ids['session']}/chart.svg"),
    "CSV download": lambda c, ids: c.get(f"/sessions/{ids['session']}/sheet.csv"),
    "export download": lambda c, ids: c.get(f"/sessions/{ids['session']}/export.json"),
    "session page with the chart": lambda c, ids: c.get(f"/sessions/{ids['session']}"),
    "GET sheet": lambda c, ids: c.get(f"/api/v1/sessions/{ids['session']}/sheet"),
    "GET sheet.csv": lambda c, ids: c.get(f"/api/v1/sessions/{ids['session']}/sheet.csv"),
    "GET export": lambda c, ids: c.get(f"/api/v1/sessions/{ids['session']}/export"),
}


@pytest.mark.parametrize("name", list(REQUESTS))
def test_the_statements_do_not_grow_with_the_games(
    app: Flask, client: FlaskClient, name: str
) -> None:
    # (finished games, melds in the open game, layoffs in the open game)
    small, large = (
        session_with_games(app, client, 1, 4, 2),
        session_with_games(app, client, 12, 8, 6),
    )
    request = REQUESTS[name]
    counted = statements_for(app, lambda: request(client, small))
    assert statements_for(app, lambda: request(client, large)) == counted
    assert counted <= 12
