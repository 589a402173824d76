"""The pages with rule systems: starting Boathouse Rum with house rules, playing and settling it."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.models import GameSession
from tests.helpers import FIVE, book, finish_data, meld, session_page, text
from tests.helpers import start_boathouse as start
from tests.rows import count


def test_the_start_page_offers_the_rule_systems_six_seats_and_the_house_rules(
    client: FlaskClient,
):
    page = client.get("/").get_data(as_text=True)
    assert 'name="variant" id="variant-0" value="treppenromme" checked' in page
    assert 'value="boathouse_rum"' in page
    assert 'name="names-5"' in page
    assert 'name="end" id="end-0" value="target" checked' in page
    assert 'name="games"' in page
    assert 'name="romme_doubling" id="romme_doubling-0" value="winner" checked' in page
    assert '<option value="5">Player 6</option>' in page


def test_boathouse_rum_for_five_says_the_deal_and_who_plays_first(client: FlaskClient, app: Flask):
    table = start(client, dealer="1")
    page = session_page(client, table)
    assert "Bob deals 6 cards each; Cid plays first." in page
    assert "The rules of this session: Boathouse Rum · to 100 points" in page
    assert "Session to 100 points" in page


def test_the_session_page_speaks_german_for_the_deal_and_the_rules(client: FlaskClient):
    table = start(client, names=("Ann", "Bob"))
    client.get("/language/de")
    page = session_page(client, table)
    assert "Ann gibt jedem 10 Karten; Bob spielt zuerst." in page
    assert "Die Regeln dieser Partie: Boathouse Rum · bis 100 Punkte" in page


def test_boathouse_melds_are_recorded_and_score_nothing(client: FlaskClient, app: Flask):
    table = start(client)
    page = meld(client, table, "Cid", "ks as 2s")
    assert "Cid: sequence K♠ A♠ 2♠ — 0 points" in page
    refused = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Dan"], "cards": "ks qs js"}
    )
    assert refused.status_code == 422
    assert "K♠ is already on the table" in text(refused.get_data(as_text=True))


def test_the_boathouse_settlement_shows_what_was_matched_and_what_is_paid(
    client: FlaskClient, app: Flask
):
    table = start(client, names=("Ann", "Bob", "Cid"))
    meld(client, table, "Ann", "jh qh kh")
    meld(client, table, "Bob", "4c 5c 6c")
    hands = {"Bob": "7s 7h 7d 8d 9d", "Cid": "ks as 2s 9h"}
    response = client.post(f"/games/{table.game}/finish", data=finish_data(table, "Ann", hands))
    assert response.status_code == 200
    page = text(response.get_data(as_text=True))
    assert "matched: 7♦ 8♦ 9♦; paid for: 7♠ 7♥ = 14" in page
    assert "matched: K♠ A♠ 2♠; paid for: 9♥ = 9" in page
    assert "Ann scores the cards left in the other hands once: 23." in page
    assert "Melds score nothing: only the cards paid for count." in page
    assert count(app, GameSession) == 1
    book(client, table, finish_data(table, "Ann", hands))
    history = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "matched: 7♦ 8♦ 9♦; paid for: 7♠ 7♥ = 14" in history
    assert "The rules of this session: Boathouse Rum · to 100 points" in history
    assert "Ann 23 · Bob 0 · Cid 0" in history


def test_a_boathouse_romme_shows_the_doubled_payment(client: FlaskClient, app: Flask):
    table = start(client, names=("Ann", "Bob", "Cid"))
    meld(client, table, "Bob", "4c 5c 6c")
    meld(client, table, "Ann", "jh qh kh")
    meld(client, table, "Ann", "2s 3s 4s 5s")  # a Rommé hand puts down the 7 cards dealt
    hands = {"Bob": "ac 5h", "Cid": "qd"}
    response = client.post(f"/games/{table.game}/finish", data=finish_data(table, "Ann", hands))
    page = text(response.get_data(as_text=True))
    assert "Rommé hand: the cards left in the other hands count double." in page
    assert "paid for: 5♥ A♣ = 16 × 2 = 32" in page
    assert "paid for: Q♦ = 10 × 2 = 20" in page


def test_a_session_of_a_number_of_games_is_started_and_counts_down(client: FlaskClient, app: Flask):
    table = start(client, names=("Ann", "Bob"), end="games", games="3", target="")
    page = session_page(client, table)
    assert "Session of 3 games" in page
    assert "Boathouse Rum · 3 games · 3 games left" in page
    meld(client, table, "Bob", "jh qh kh")
    book(client, table, finish_data(table, "Bob", {"Ann": "9h"}))
    assert "Boathouse Rum · 3 games · 2 games left" in session_page(client, table)


def test_treppenromme_with_seed_003s_doubling_is_chosen_on_the_form(
    client: FlaskClient, app: Flask
):
    table = start(
        client,
        names=("Ann", "Bob", "Cid"),
        variant="treppenromme",
        target="500",
        romme_doubling="loser",
    )
    page = session_page(client, table)
    assert "Treppenrommé · to 500 points · the hand of a player who never melded doubles" in page
    meld(client, table, "Bob", "4c 5c 6c")
    meld(client, table, "Ann", "jh qh kh")
    meld(client, table, "Ann", "2d 3d 4d 5d")
    # Cid never melded: his hand doubles; Bob's does not, and Ann's Rommé hand doubles nothing.
    data = finish_data(table, "Ann", {"Bob": "9h", "Cid": "9s"})
    preview = text(client.post(f"/games/{table.game}/finish", data=data).get_data(as_text=True))
    assert "A Rommé hand; under the rules of this session it doubles no hand by itself." in preview
    assert "so the hands count double" not in preview
    assert "Bob 9♥ = 9 +0" in preview
    assert "Cid 9♠ = 9 × 2 = 18 +0" in preview
    assert "The hands of the players who never melded or laid off count double" in preview
    book(client, table, data)
    history = text(client.get(f"/sessions/{table.session}/history").get_data(as_text=True))
    assert "9♠ = 9 × 2 (never melded)" in history
    assert "(Rommé hand)" not in history
    with app.app_context():
        session = services.get_session(table.session_pk)
        totals = services.session_scores(session).totals
    assert totals[table.players["Ann"]] == 30 + 14 + 9 + 18
    assert totals[table.players["Bob"]] == 15


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"names-4": "Eve", "variant": "treppenromme", "target": "500"},
            "Treppenrommé is played by 2 to 4 players; 5 were entered.",
        ),
        ({"end": "games", "games": "", "target": ""}, "Enter the number of games, e.g. 5."),
        ({"end": "games", "games": "0"}, "The number of games is a whole number from 1 to 1000."),
    ],
)
def test_a_session_form_that_cannot_be_played_says_why_and_saves_nothing(
    client: FlaskClient, app: Flask, fields: dict[str, str], message: str
):
    data = {f"names-{seat}": name for seat, name in enumerate(FIVE[:4])}
    form = {"variant": "boathouse_rum", "target": "100", "dealer": "0", **data, **fields}
    response = client.post("/sessions", data=form)
    assert response.status_code == 422
    assert message in text(response.get_data(as_text=True))
    assert count(app, GameSession) == 0


@pytest.mark.parametrize(("variant", "usual"), [("treppenromme", 500), ("boathouse_rum", 100)])
def test_a_target_left_empty_is_the_usual_target_of_the_rule_system(
    client: FlaskClient, app: Flask, variant: str, usual: int
):
    table = start(client, names=("Ann", "Bob"), variant=variant, target="")
    with app.app_context():
        session = services.get_session(table.session_pk)
        assert services.variant_of(session).house_rules["end"] == {"target": usual}
    assert f"Session to {usual} points" in session_page(client, table)


def test_play_again_keeps_the_rule_system_and_the_house_rules(client: FlaskClient):
    table = start(client, names=("Ann", "Bob"), end="games", games="1", target="")
    meld(client, table, "Bob", "jh qh kh")
    book(client, table, finish_data(table, "Bob", {"Ann": "9h"}))
    form = client.get(f"/?again={table.session}").get_data(as_text=True)
    assert re.search(r'name="variant" id="variant-\d" value="boathouse_rum" checked', form)
    assert re.search(r'name="end" id="end-\d" value="games" checked', form)
    assert re.search(r'<input [^>]*name="games"[^>]*value="1"', form)
