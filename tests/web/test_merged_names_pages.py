"""Names merged into one person, on the pages: one person sits at one table once.

The start page, the form that seats a new player and the one that renames a player are shown
again (422) with the reason beside the name, in English and German.
"""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.models import GameSession, Group
from tests.helpers import text
from tests.pageforms import form_to

MERGED = (
    "“Anni” and “Anna” count as one person in this group (the names were merged): one person "
    "cannot sit at the table twice."
)
MERGED_DE = (
    "„Anni“ und „Anna“ zählen in dieser Spielrunde als eine Person (die Namen wurden "
    "zusammengeführt): Eine Person kann nicht zweimal am Tisch sitzen."
)


def post_the_start_form(client: FlaskClient, names: tuple[str, ...], group: str) -> TestResponse:
    """Post the start page's form: the names in seating order, in a group ("new": a new one)."""
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    named = "Donnerstagsrunde" if group == "new" else ""
    return client.post("/sessions", data={**data, "group": group, "group_name": named})


def started(client: FlaskClient, names: tuple[str, ...], group: str) -> str:
    answer = post_the_start_form(client, names, group)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return str(answer.headers["Location"].rsplit("/", 1)[1])


def abandon_the_game(app: Flask, session_id: str) -> None:
    with app.app_context():
        session = db.session.scalars(
            sa.select(GameSession).where(GameSession.public_id == session_id)
        ).one()
        game = services.open_game(session)
        assert game is not None
        services.abandon_game(game.id)


def error_beside(page: str, field: str) -> str:
    """Return the words of the error shown beside a field of the page."""
    found = re.search(rf'<p id="{field}-error" class="error"[^>]*>(.*?)</p>', page, re.S)
    assert found, f"no error beside {field}"
    return text(found.group(1))


@pytest.fixture
def group(app: Flask, client: FlaskClient) -> str:
    """A group where Anna and Anni played apart, and "Anni" was merged into "Anna"."""
    first = started(client, ("Anna", "Bob", "Cid"), "new")
    with app.app_context():
        public_id = db.session.scalar(
            sa.select(Group.public_id)
            .join(GameSession, GameSession.group_id == Group.id)
            .where(GameSession.public_id == first)
        )
    assert public_id is not None
    abandon_the_game(app, first)
    abandon_the_game(app, started(client, ("Anni", "Dora"), public_id))
    merge = form_to(client.get(f"/groups/{public_id}").get_data(as_text=True), "/merges")
    merged = client.post(merge.action, data={**merge.fields, "name": "Anni", "same_as": "Anna"})
    assert merged.status_code == 302
    return str(public_id)


def test_the_start_page_refuses_both_merged_names_with_the_reason_beside_the_name(
    client: FlaskClient, group: str
) -> None:
    answer = post_the_start_form(client, ("Anna", "Bob", "Anni"), group)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert error_beside(page, "names-2") == MERGED
    assert 'value="Anni"' in page  # the form as it was filled in
    client.set_cookie(LANGUAGE_COOKIE, "de")
    assert (
        error_beside(
            post_the_start_form(client, ("Anna", "Bob", "Anni"), group).get_data(as_text=True),
            "names-2",
        )
        == MERGED_DE
    )


def test_seating_or_renaming_a_player_to_the_other_merged_name_is_refused_beside_the_name(
    app: Flask, client: FlaskClient, group: str
) -> None:
    session = started(client, ("Anna", "Bob", "Cid"), group)
    abandon_the_game(app, session)
    with app.app_context():
        session_row = db.session.scalars(
            sa.select(GameSession).where(GameSession.public_id == session)
        ).one()
        bob, cid = (player.id for player in session_row.players[1:])
    change = client.get(f"/sessions/{session}/change").get_data(as_text=True)
    seat = form_to(change, "/players")
    seat.fields["seat"] = str(cid)  # the page offers: after Cid
    answer = client.post(seat.action, data={**seat.fields, "name": "Anni"})
    assert answer.status_code == 422
    assert error_beside(answer.get_data(as_text=True), "new-name") == MERGED
    with app.app_context():
        names = [player.name for player in services.get_session(session_row.id).players]
    assert names == ["Anna", "Bob", "Cid"]
    rename = form_to(change, f"/players/{bob}/name")
    answer = client.post(rename.action, data={**rename.fields, "name": "Anni"})
    assert answer.status_code == 422
    assert error_beside(answer.get_data(as_text=True), f"p{bob}-name") == MERGED
    client.set_cookie(LANGUAGE_COOKIE, "de")
    answer = client.post(seat.action, data={**seat.fields, "name": "Anni"})
    assert error_beside(answer.get_data(as_text=True), "new-name") == MERGED_DE
