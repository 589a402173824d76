"""A club evening's pages: the start form, the organiser's page with QR codes, board, results."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from scorekeeper.i18n import LANGUAGE_COOKIE
from tests.helpers import text

NINE = [f"Spieler {number}" for number in range(1, 10)]


def start_evening(client: FlaskClient, **fields: str) -> str:
    """Start an evening through the form; return its id."""
    data = {
        "name": "Spielabend",
        "variant": "treppenromme",
        "players": "\n".join(NINE),
        "series": "2",
        "end": "games",
        "length": "1",
        "table_size": "3",
        "seating": "standing",
        **fields,
    }
    answer = client.post("/evenings/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return str(answer.headers["Location"].rsplit("/", 1)[1])


def test_the_organiser_starts_an_evening_and_sees_a_qr_code_per_table(client: FlaskClient) -> None:
    evening = start_evening(client)
    page = client.get(f"/evenings/{evening}").get_data(as_text=True)
    assert page.count('class="evening-table"') == 3
    assert page.count("<svg") >= 3
    links = re.findall(r'href="([^"]*/sessions/[^"]*\?key=[^"]+)"', page)
    assert len(links) == 3
    seated = [name for name in NINE if name in page]
    assert seated == NINE
    assert "Draw again" in page


def test_a_tables_qr_link_opens_its_session_to_record(client: FlaskClient, app) -> None:
    evening = start_evening(client)
    page = client.get(f"/evenings/{evening}").get_data(as_text=True)
    link = re.findall(r'href="([^"]*/sessions/[^"]*\?key=[^"]+)"', page)[0].replace("&amp;", "&")
    phone = app.test_client()
    opened = phone.get(link.split("localhost", 1)[-1], follow_redirects=True)
    assert opened.status_code == 200
    session = opened.request.path.rsplit("/", 1)[1]
    dealt = phone.post(f"/sessions/{session}/games", data={})
    assert dealt.status_code == 302, dealt.get_data(as_text=True)
    # Another phone without the table's key cannot record there.
    assert app.test_client().post(f"/sessions/{session}/games", data={}).status_code == 404


def test_the_board_opens_with_the_view_key_and_writes_nothing(client: FlaskClient, app) -> None:
    evening = start_evening(client)
    page = client.get(f"/evenings/{evening}").get_data(as_text=True)
    board = re.search(r'href="([^"]*/board\?key=[^"]+)"', page)
    assert board is not None
    tv = app.test_client()
    shown = tv.get(board.group(1).split("localhost", 1)[-1], follow_redirects=True)
    assert shown.status_code == 200
    html = shown.get_data(as_text=True)
    assert "data-live=" in html and "Table 3" in html
    assert tv.post(f"/evenings/{evening}/series", data={}).status_code in (400, 404)
    version = tv.get(f"/evenings/{evening}/version")
    assert version.status_code == 200
    again = tv.get(
        f"/evenings/{evening}/version", headers={"If-None-Match": version.headers["ETag"]}
    )
    assert again.status_code == 304


def test_a_stranger_finds_no_evening(client: FlaskClient, app) -> None:
    evening = start_evening(client)
    assert app.test_client().get(f"/evenings/{evening}").status_code == 404


def test_the_form_refuses_an_evening_of_too_few_players_beside_the_field(
    client: FlaskClient,
) -> None:
    answer = client.post(
        "/evenings/new",
        data={
            "name": "Abend",
            "players": "Ann\nBob",
            "series": "2",
            "end": "games",
            "length": "5",
            "table_size": "4",
            "seating": "standing",
            "variant": "treppenromme",
        },
    )
    assert answer.status_code == 422
    assert "6 to 60 players" in text(answer.get_data(as_text=True))


def test_the_pages_speak_german(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "de")
    evening = start_evening(client)
    assert "Tisch 1" in client.get(f"/evenings/{evening}").get_data(as_text=True)
    assert "Spielabend" in client.get("/evenings/new").get_data(as_text=True)


def test_the_results_list_ranks_every_player(client: FlaskClient) -> None:
    evening = start_evening(client)
    page = text(client.get(f"/evenings/{evening}/results").get_data(as_text=True))
    assert all(name in page for name in NINE)


def table_page(client: FlaskClient, app, evening: str) -> str:
    """Open table 1's session from its QR link on a phone of its own; return its page as text."""
    page = client.get(f"/evenings/{evening}").get_data(as_text=True)
    link = re.findall(r'href="([^"]*/sessions/[^"]*\?key=[^"]+)"', page)[0].replace("&amp;", "&")
    opened = app.test_client().get(link.split("localhost", 1)[-1], follow_redirects=True)
    assert opened.status_code == 200
    return text(opened.get_data(as_text=True))


def test_a_tables_page_says_its_evening_series_and_end(client: FlaskClient, app) -> None:
    page = table_page(client, app, start_evening(client, name="Clubabend März", length="5"))
    assert "Table 1 · series 1 of 2" in page
    assert "Club evening Clubabend März" in page
    assert "5 games a series" in page


def test_a_table_of_a_series_of_minutes_counts_no_games_as_its_end(
    client: FlaskClient, app
) -> None:
    page = table_page(client, app, start_evening(client, end="minutes", length="90"))
    assert "90 minutes a series; the game being played then is the last" in page
    assert "1000" not in page and "1,000" not in page


def test_the_form_offers_the_rule_systems_house_rules_for_every_table(
    client: FlaskClient, app
) -> None:
    form = client.get("/evenings/new").get_data(as_text=True)
    assert 'name="romme_doubling"' in form and "data-variant-only" in form
    evening = start_evening(client, romme_doubling="loser")
    page = table_page(client, app, evening)
    assert "the hand of a player who never melded doubles" in page


def test_a_repeated_start_of_an_evening_starts_one_and_opens_it_for_the_repeat(app) -> None:
    tapped_twice, other_tab = app.test_client(), app.test_client()
    form = tapped_twice.get("/evenings/new").get_data(as_text=True)
    once = re.search(r'name="once" type="hidden" value="([^"]+)"', form)
    assert once is not None
    data = {
        "name": "Spielabend",
        "variant": "treppenromme",
        "players": "\n".join(NINE),
        "series": "2",
        "end": "games",
        "length": "1",
        "table_size": "3",
        "seating": "standing",
        "once": once.group(1),
    }
    first = tapped_twice.post("/evenings/new", data=data)
    # The repeat arrives without the first answer's cookie, as when the browser dropped it.
    again = other_tab.post("/evenings/new", data=data)
    assert again.status_code == 303
    assert again.headers["Location"] == first.headers["Location"]
    page = other_tab.get(again.headers["Location"])
    assert page.status_code == 200
    assert page.get_data(as_text=True).count('class="evening-table"') == 3
