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
    assert variant.house_rules == {"end": {"target": 500}, "with_jokers": False, "two_packs": False}
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


# --- F5: a game nobody went out of, on the page ------------------------------------------------


def nobody_out(table: PageTable, hands: dict[str, str]) -> dict[str, str]:
    """Return the finish form's fields for "Nobody went out" with every player's hand."""
    data = {"winner": "0"}
    data.update({f"hand_{table.players[name]}": hand for name, hand in hands.items()})
    return data


def ann_and_ulf(client: FlaskClient) -> PageTable:
    """Start Ann and Ulf at 500 Rum: Ann melds J♠ Q♠ K♠ (30), Ulf A♥ 2♥ 3♥ 4♥ (10)."""
    table = start_rum(client, ("Ann", "Ulf"))
    meld(client, table, "Ann", "js qs ks")
    meld(client, table, "Ulf", "ah 2h 3h 4h")
    return table


def test_the_finish_page_offers_nobody_went_out_where_the_rule_system_settles_it(
    client: FlaskClient,
) -> None:
    table = start_rum(client, ("Ann", "Ulf"))
    page = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    assert re.search(r'name="winner"[^>]*value="0"', page)
    assert "Nobody went out (the stock ran out)" in text(page)
    # Every player's hand is asked: the choice is no player's, so no hand is hidden for it.
    assert all(f'data-hand="{player}"' in page for player in table.players.values())
    client.get("/language/de")
    german = text(client.get(f"/games/{table.game}/finish").get_data(as_text=True))
    assert "Niemand hat ausgemacht (der Stapel ist aufgebraucht)" in german
    # A rule system that abandons such a game does not offer it.
    other = start(client, ("Cid", "Dan"))
    treppe = client.get(f"/games/{other.game}/finish").get_data(as_text=True)
    assert not re.search(r'name="winner"[^>]*value="0"', treppe)


def test_the_preview_of_a_game_nobody_went_out_of_shows_each_players_table_minus_hand(
    client: FlaskClient,
) -> None:
    table = ann_and_ulf(client)
    data = nobody_out(table, {"Ann": "5♦", "Ulf": "K♣ 8♦ 4♣"})
    page = client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"})
    assert page.status_code == 200, page.get_data(as_text=True)
    html = page.get_data(as_text=True)
    said = text(html)
    assert "Nobody went out: every hand counts." in said
    assert "Ulf K♣ 8♦ 4♣ = 22 10 - 22 = -12" in said
    assert "Ann 5♦ = 5 30 - 5 = 25" in said
    assert (
        "Nobody went out: every player books minus the cards left in their hand (an ace 15)."
        in said
    )
    assert "went out." not in said.replace("Nobody went out", "")
    client.get("/language/de")
    german = text(
        client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"}).get_data(
            as_text=True
        )
    )
    assert "Niemand hat ausgemacht: jede Hand zählt." in german
    assert "10 - 22 = -12" in german


def test_the_preview_of_a_game_won_shows_the_winners_table_and_each_others_net(
    client: FlaskClient,
) -> None:
    table = ann_and_ulf(client)
    data = {"winner": str(table.players["Ann"]), f"hand_{table.players['Ulf']}": "K♣ 8♦ 4♣"}
    said = text(
        client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"}).get_data(
            as_text=True
        )
    )
    assert "Ann went out 30 - 0 = 30" in said
    assert "Ulf K♣ 8♦ 4♣ = 22 10 - 22 = -12" in said


def test_a_game_nobody_went_out_of_is_booked_from_the_page_and_said_on_the_session_page(
    client: FlaskClient, app: Flask
) -> None:
    table = ann_and_ulf(client)
    data = nobody_out(table, {"Ann": "5♦", "Ulf": "K♣ 8♦ 4♣"})
    booked = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert booked.status_code == 302, booked.get_data(as_text=True)
    assert totals(app, table.session_pk) == {"Ann": 25, "Ulf": -12}
    page = text(client.get(booked.location).get_data(as_text=True))
    assert "Game 1 is over: nobody went out; Ann books -5, Ulf books -22." in page
    with app.app_context():
        services.start_game(table.session_pk)
    page = session_page(client, table)
    assert "Game 1: nobody went out, every hand counted Ann 25 · Ulf -12" in page
    assert "None" not in page
    client.get("/language/de")
    german = session_page(client, table)
    assert "Spiel 1: niemand hat ausgemacht, jede Hand gezählt Ann 25 · Ulf -12" in german
    assert "None" not in german


def test_nobody_went_out_without_every_hand_is_refused_on_the_page_and_books_nothing(
    client: FlaskClient, app: Flask
) -> None:
    table = ann_and_ulf(client)
    data = nobody_out(table, {"Ann": "5♦", "Ulf": ""})
    refused = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert refused.status_code == 422
    assert "Nobody went out, so every player still holds cards" in text(
        refused.get_data(as_text=True)
    )
    assert totals(app, table.session_pk) == {"Ann": 30, "Ulf": 10}


def test_the_abandon_page_of_500_rum_points_to_the_finish_for_a_game_nobody_went_out_of(
    client: FlaskClient,
) -> None:
    table = start_rum(client, ("Ann", "Ulf"))
    page = text(client.get(f"/games/{table.game}/abandon").get_data(as_text=True))
    assert "finish it instead and choose “Nobody went out (the stock ran out)”" in page
    other = start(client, ("Cid", "Dan"))
    assert "Nobody went out" not in text(
        client.get(f"/games/{other.game}/abandon").get_data(as_text=True)
    )


def test_abandoning_a_500_rum_game_on_the_page_still_counts_no_hand(
    client: FlaskClient, app: Flask
) -> None:
    table = ann_and_ulf(client)
    client.post(f"/games/{table.game}/abandon", data={"once": "x"})
    with app.app_context():
        assert services.get_game(table.game).status == "abandoned"
    assert totals(app, table.session_pk) == {"Ann": 30, "Ulf": 10}


def test_reopening_a_game_nobody_went_out_of_opens_the_finish_with_nobody_and_every_hand(
    client: FlaskClient,
) -> None:
    table = ann_and_ulf(client)
    data = nobody_out(table, {"Ann": "5♦", "Ulf": "K♣ 8♦ 4♣"})
    client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    reopened = client.post(f"/games/{table.game}/reopen", data={"once": "y"})
    assert reopened.status_code == 302
    page = client.get(reopened.location).get_data(as_text=True)
    assert re.search(r'name="winner"[^>]*value="0"[^>]*checked', page)
    assert 'value="5♦"' in page and 'value="K♣ 8♦ 4♣"' in page


# --- F6, F7: jokers and two packs, chosen on the start page ------------------------------------


def test_the_start_page_offers_jokers_and_two_packs_for_500_rum(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for key in ("with_jokers", "two_packs"):
        shown = re.search(
            rf'<div data-variant-only="([^"]*)">(?:(?!</div>).)*name="{key}"', page, re.S
        )
        assert shown is not None and shown.group(1).split() == ["rummy_500"], key
    said = text(page)
    assert "two a pack, each 15" in said
    assert "two packs, 7 cards each, up to 8 players" in said
    # Eight players can be named: the most a table of 500 Rum with two packs seats.
    assert 'name="names-7"' in page


def test_a_session_with_jokers_and_two_packs_is_started_by_the_form(
    client: FlaskClient, app: Flask
) -> None:
    names = tuple(f"P{seat}" for seat in range(8))
    table = start_rum(client, names, with_jokers="yes", two_packs="yes")
    with app.app_context():
        variant = services.variant_of(services.get_session(table.session_pk))
    assert (variant.packs, variant.jokers, variant.max_players) == (2, 4, 8)
    page = session_page(client, table)
    assert "500 Rum · to 500 points · two jokers a pack, each 15 · two packs, 7 cards each" in page


def test_the_game_page_with_jokers_picks_jokers_and_offers_no_swap(client: FlaskClient) -> None:
    table = start_rum(client, ("Ann", "Bob"), with_jokers="yes")
    said = meld(client, table, "Ann", "7s 7h jkr")
    assert "7♠ 7♥ JKR" in said
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert re.search(r'data-card="JKR"[^>]*data-left="1"', page)
    assert "Swap the joker" not in page
    assert "Record joker swap" not in page
    assert "data-places=" not in page


def test_a_joker_in_doubt_is_refused_on_the_page_with_the_cards_it_can_stand_for(
    client: FlaskClient,
) -> None:
    table = start_rum(client, ("Ann", "Bob"), with_jokers="yes")
    response = client.post(
        f"/games/{table.game}/melds",
        data={"player": table.players["Ann"], "cards": "jkr 2d 3d"},
    )
    assert response.status_code == 422
    said = text(response.get_data(as_text=True))
    assert "a joker can stand for A♦ or 4♦" in said
    checked = client.post(
        f"/games/{table.game}/check",
        json={"player": table.players["Ann"], "cards": "JKR 2♦ 3♦"},
    ).get_json()
    assert checked["joker_choices"] == ["A♦", "4♦"]
    assert "JKR=A♦ 2♦ 3♦" in meld(client, table, "Ann", "jkr=ad 2d 3d")


def test_a_joker_left_in_a_hand_costs_15_on_the_finish_page(
    client: FlaskClient, app: Flask
) -> None:
    table = start_rum(client, ("Ann", "Bob"), with_jokers="yes")
    meld(client, table, "Ann", "7s 7h jkr")
    data = {"winner": str(table.players["Ann"]), f"hand_{table.players['Bob']}": "JKR 2♣"}
    said = text(
        client.get(f"/games/{table.game}/finish", query_string={**data, "show": "1"}).get_data(
            as_text=True
        )
    )
    assert "Bob JKR 2♣ = 17 0 - 17 = -17" in said
    assert "(an ace 15, a joker 15)" in said
    booked = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert booked.status_code == 302, booked.get_data(as_text=True)
    assert totals(app, table.session_pk) == {"Ann": 29, "Bob": -17}


def test_a_session_with_jokers_and_two_packs_is_exported_and_imported_as_it_was(
    client: FlaskClient, app: Flask, tmp_path: Path
) -> None:
    table = start_rum(client, ("Ann", "Bob", "Cid"), with_jokers="yes", two_packs="yes")
    meld(client, table, "Ann", "7s 7h jkr")
    meld(client, table, "Bob", "7s 7h 7d")
    with app.app_context():
        hands = {table.players["Ann"]: "JKR", table.players["Bob"]: "7♣", table.players["Cid"]: 4}
        services.finish_game(table.game, None, hands)
    assert totals(app, table.session_pk) == {"Ann": 29 - 15, "Bob": 21 - 7, "Cid": -4}
    document = transfer.loads(client.get(f"/sessions/{table.session}/export.json").get_data())
    assert document["sessions"][0]["house_rules"] == {
        "end": {"target": 500},
        "with_jokers": True,
        "two_packs": True,
    }
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
