"""Names that cannot lie on screen: isolated in the pages, nothing invisible, one way to write."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player
from tests.helpers import API, book, finish_data, meld, start, text
from tests.rows import count

ALI = "\u0639\u0644\u064a"  # Ali, written right to left
A_RING = "\u00c5"  # Å written as one character
A_AND_RING = "A\u030a"  # Å written as A and a combining ring
INVISIBLE = "A name may not contain invisible or direction-changing characters."


def isolated(page: str) -> list[str]:
    """Return the text of every ``<bdi>`` of a page."""
    return re.findall(r"<bdi[^>]*>([^<]*)</bdi>", page)


def test_a_right_to_left_name_is_isolated_on_the_session_finish_and_history_pages(
    client: FlaskClient,
) -> None:
    table = start(client, (ALI, "Ann"))
    meld(client, table, ALI, "qc kc ac")
    session_page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert {ALI, "Ann"} <= set(isolated(session_page))
    # The totals, the points of the game, whose deal, the entries and the chips of the form.
    assert isolated(session_page).count(ALI) >= 4
    assert f"<bdi>{ALI}</bdi> 30" in session_page  # the points beside the name stay outside

    preview = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, ALI, {"Ann": "9s 2s"})
    ).get_data(as_text=True)
    assert f"<bdi>{ALI}</bdi> went out." in preview
    # A name in a table carries itself whole in its title, for when it is cut short.
    assert f'<th scope="row"><bdi title="{ALI}">{ALI}</bdi></th>' in preview
    assert '<th scope="row"><bdi title="Ann">Ann</bdi></th>' in preview

    book(client, table, finish_data(table, ALI, {"Ann": "9s 2s"}, romme="no"))
    history = client.get(f"/sessions/{table.session}/history").get_data(as_text=True)
    assert f"<bdi>{ALI}</bdi> went out." in history
    assert f"<bdi>{ALI}</bdi> 41 · <bdi>Ann</bdi> 0" in history
    assert f'<span class="who"><bdi>{ALI}</bdi></span>' in history
    assert f"Points: {ALI} 41 · Ann 0" in text(history)

    home = client.get("/").get_data(as_text=True)
    assert f"<bdi>{ALI}</bdi>, <bdi>Ann</bdi>" in home


def test_a_name_inside_a_sentence_is_isolated_and_still_escaped(client: FlaskClient) -> None:
    table = start(client, ("<b>Bo</b>", "Ann"))
    meld(client, table, "<b>Bo</b>", "qc kc ac")
    preview = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "<b>Bo</b>", {"Ann": "9s"})
    ).get_data(as_text=True)
    assert "<bdi>&lt;b&gt;Bo&lt;/b&gt;</bdi> went out." in preview
    assert "<b>Bo</b>" not in preview


@pytest.mark.parametrize("name", ["Ann\u202e", "An\u200bn", "\u2067Ann\u2069", "An\u00adn"])
def test_the_api_refuses_a_name_with_an_invisible_character(client: FlaskClient, name: str) -> None:
    answer = client.post(f"{API}/sessions", json={"players": ["Bob", name]})
    assert answer.status_code == 422
    assert answer.json == {"error": INVISIBLE}
    assert count(client.application, GameSession) == 0


@pytest.mark.parametrize("name", ["Ann\u202e", "An\u200bn", "\ufeffAnn"])
def test_the_form_refuses_a_name_with_an_invisible_character_beside_that_name(
    client: FlaskClient, name: str
) -> None:
    data = {"names-0": "Bob", "names-1": name, "target": "500", "dealer": "0"}
    answer = client.post("/sessions", data=data)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert f'<p id="names-1-error" class="error" role="alert">{INVISIBLE}' in page
    assert 'id="names-0-error"' not in page
    assert count(client.application, GameSession) == 0


@pytest.mark.parametrize("names", [[A_RING, A_AND_RING], [A_AND_RING, A_RING]])
def test_the_api_refuses_one_name_written_composed_and_decomposed(
    client: FlaskClient, names: list[str]
) -> None:
    answer = client.post(f"{API}/sessions", json={"players": names})
    assert answer.status_code == 422
    assert answer.json == {
        "error": f"“{A_RING}” is entered twice: every player needs their own name."
    }
    assert count(client.application, GameSession) == 0


def test_the_form_refuses_one_name_written_composed_and_decomposed(client: FlaskClient) -> None:
    data = {"names-0": A_RING, "names-1": A_AND_RING, "target": "500", "dealer": "0"}
    answer = client.post("/sessions", data=data)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert f'<p id="names-1-error" class="error" role="alert">“{A_RING}” is entered twice' in page
    assert count(client.application, GameSession) == 0


def stored_names(client: FlaskClient) -> list[str]:
    with client.application.app_context():
        return list(db.session.scalars(sa.select(Player.name).order_by(Player.id)))


def test_a_decomposed_name_is_stored_composed_through_the_api(client: FlaskClient) -> None:
    answer = client.post(f"{API}/sessions", json={"players": [A_AND_RING + "sa", "Bob"]})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    body = answer.get_json()
    assert isinstance(body, dict)
    assert [player["name"] for player in body["players"]] == [A_RING + "sa", "Bob"]
    assert stored_names(client) == [A_RING + "sa", "Bob"]


def test_a_decomposed_name_is_stored_composed_through_the_form(client: FlaskClient) -> None:
    start(client, (A_AND_RING + "sa", "Bob"))
    assert stored_names(client) == [A_RING + "sa", "Bob"]
