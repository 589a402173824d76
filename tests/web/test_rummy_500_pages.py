"""500 Rum's pages: offered on the start page, started by the form, melds, the settlement."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app, services, transfer
from scorekeeper.extensions import db
from tests.helpers import PageTable, meld, start, text, totals


def start_rum(
    client: FlaskClient, names: tuple[str, ...] = ("Ann", "Bob", "Cid"), **fields: str
) -> PageTable:
    """Start a 500 Rum session through the new-session form, the target left to its default."""
    return start(client, names, target="", variant="rummy_500", end="target", **fields)


def session_page(client: FlaskClient, table: PageTable) -> str:
    return text(client.get(f"/sessions/{table.session}").get_data(as_text=True))


def test_the_start_page_offers_500_rum_for_2_to_6_players(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'value="rummy_500"' in page
    assert "500 Rum 2 to 6" in text(page)
    client.get("/language/de")
    assert "500 Rum 2 bis 6" in text(client.get("/").get_data(as_text=True))


def test_a_500_rum_session_is_started_by_the_form_and_a_meld_scores_for_its_player(
    client: FlaskClient, app: Flask
) -> None:
    table = start_rum(client)
    with app.app_context():
        variant = services.variant_of(services.get_session(table.session_pk))
    assert variant.name == "rummy_500"
    assert variant.house_rules == {"end": {"target": 500}}
    page = meld(client, table, "Bob", "qh kh ah")
    assert "Q♥ K♥ A♥" in page
    assert "500 Rum · to 500 points" in page
    # The totals hold the open game's melds: Q♥ K♥ A♥ scores 35 for Bob.
    assert totals(app, table.session_pk) == {"Ann": 0, "Bob": 35, "Cid": 0}


def test_a_sequence_round_the_corner_is_refused_on_the_page(client: FlaskClient) -> None:
    table = start_rum(client)
    response = client.post(
        f"/games/{table.game}/melds",
        data={"player": table.players["Bob"], "cards": "K♠ A♠ 2♠"},
    )
    assert response.status_code == 422
    assert "in 500 Rum the ace may not turn the corner" in text(response.get_data(as_text=True))


def test_the_finish_page_books_table_minus_hand_with_an_ace_15(
    client: FlaskClient, app: Flask
) -> None:
    table = start_rum(client, ("Ann", "Bob"))
    meld(client, table, "Bob", "qh kh ah")
    meld(client, table, "Ann", "2s 3s 4s")
    data = {"winner": str(table.players["Bob"]), "romme": "auto"}
    data[f"hand_{table.players['Ann']}"] = "A♣ K♣"
    preview = client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"})
    said = text(preview.get_data(as_text=True))
    assert "every other player books minus the cards left in their hand (an ace 15)" in said
    assert "a joker" not in said
    booked = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert booked.status_code == 302, booked.get_data(as_text=True)
    assert totals(app, table.session_pk) == {"Ann": 9 - 25, "Bob": 35}


def test_the_finish_page_asks_no_romme_hand_in_500_rum_and_books_without_one(
    client: FlaskClient, app: Flask
) -> None:
    table = start_rum(client, ("Ann", "Bob"))
    meld(client, table, "Bob", "qh kh ah")
    page = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    assert 'name="romme"' not in page
    assert "Rommé hand?" not in text(page)
    # Sent without the Rommé choice, the finish books as the entries say.
    data = {"winner": str(table.players["Bob"]), f"hand_{table.players['Ann']}": "7♣"}
    booked = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert booked.status_code == 302, booked.get_data(as_text=True)
    assert totals(app, table.session_pk) == {"Ann": -7, "Bob": 35}
    # Another rule system still asks.
    other = start(client, ("Cid", "Dan"))
    assert 'name="romme"' in client.get(f"/games/{other.game}/finish").get_data(as_text=True)


def test_the_history_says_nobody_went_out_of_a_game_settled_without_a_winner(
    client: FlaskClient, app: Flask
) -> None:
    table = start_rum(client, ("Ann", "Bob"))
    meld(client, table, "Bob", "qh kh ah")
    with app.app_context():
        hands = {table.players["Ann"]: "5♦", table.players["Bob"]: "2♣"}
        services.finish_game(table.game, None, hands)
    history = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "Nobody went out: every hand was counted." in history
    assert "Ann 5♦ = 5: -5" in history
    booked = text(client.get(f"/games/{table.game}/finish").get_data(as_text=True))
    assert "Nobody went out: every hand was counted." in booked


def test_the_sheet_chart_csv_group_and_export_take_up_a_500_rum_session(
    client: FlaskClient, app: Flask, tmp_path: Path
) -> None:
    table = start_rum(client, ("Ann", "Bob"), group="new", group_name="Donnerstagsrunde")
    meld(client, table, "Bob", "qh kh ah")
    with app.app_context():
        services.finish_game(table.game, table.players["Bob"], {table.players["Ann"]: "A♣ K♣"})
        game = services.start_game(table.session_pk)
        services.finish_game(game.id, None, {table.players["Ann"]: "5♦", table.players["Bob"]: 3})
    assert totals(app, table.session_pk) == {"Ann": -30, "Bob": 32}
    sheet = text(client.get(f"/sessions/{table.session}/sheet").get_data(as_text=True))
    assert "Target: 500" in sheet
    chart = client.get(f"/sessions/{table.session}/chart.svg")
    assert chart.status_code == 200 and "<svg" in chart.get_data(as_text=True)
    csv = client.get(f"/sessions/{table.session}/sheet.csv").get_data(as_text=True)
    assert "-30" in csv and "32" in csv
    session_page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    group = re.search(r'href="/groups/([^"?]+)"', session_page)
    assert group is not None
    statistics = text(client.get(f"/groups/{group[1]}").get_data(as_text=True))
    assert "500 Rum" in statistics
    exported = client.get(f"/sessions/{table.session}/export.json")
    document = transfer.loads(exported.get_data())
    assert document["sessions"][0]["variant"] == "rummy_500"
    second = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'imported.sqlite3'}",
        }
    )
    with second.app_context():
        upgrade()
        assert transfer.import_sessions(document) == 1
        assert transfer.export_sessions()["sessions"] == document["sessions"]
        db.engine.dispose()
