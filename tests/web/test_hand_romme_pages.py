"""The finish page's Rommé proposal: the German Rummy dealer who goes out in the first turn (G6)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import PageTable, start, text, totals

# Twelve cards: the dealer plays first without drawing, so this is all the hand held.
TWELVE = ["9h 10h jh qh kh ah", "5s 5h 5d", "7c 8c 9c"]


def rommé(client: FlaskClient) -> PageTable:
    """Start German Rummy for Ann, Bob and Cid through the form; Ann deals and plays first."""
    return start(
        client,
        variant="german_rummy",
        end="limit",
        limit="",
        target="",
        hand_romme_doubles="yes",
    )


def melds(client: FlaskClient, table: PageTable, name: str, *lines: str) -> None:
    """Record melds put down together through the form without script."""
    *earlier, last = lines
    data = {"player": table.players[name], "melds": "\n".join(earlier), "cards": last}
    response = client.post(f"/games/{table.game}/melds", data=data)
    assert response.status_code == 302, text(response.get_data(as_text=True))


def finish_form(table: PageTable, winner: str, hands: dict[str, str]) -> dict[str, str]:
    """Return the finish form's fields with the Rommé question left to the entries."""
    data = {"winner": str(table.players[winner]), "romme": "auto"}
    data.update({f"hand_{table.players[name]}": cards for name, cards in hands.items()})
    return data


def test_the_finish_page_proposes_a_hand_rommé_for_the_dealer_who_goes_out_with_twelve_cards(
    client: FlaskClient, app: Flask
) -> None:
    table = rommé(client)
    melds(client, table, "Ann", *TWELVE)
    data = finish_form(table, "Ann", {"Bob": "9c", "Cid": "4d"})
    response = client.post(f"/games/{table.game}/finish", data=data)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'name="romme" id="romme-1" value="yes" checked' in html, text(html)
    page = text(html)
    assert "with 12 cards (13 were dealt): a Rommé hand is possible" in page
    assert "A Hand-Rommé: under the rules of this session the minus points count double." in page
    booked = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert booked.status_code == 302, text(booked.get_data(as_text=True))
    assert totals(app, table.session_pk) == {"Ann": 0, "Bob": -18, "Cid": -8}


def test_the_finish_page_proposes_no_hand_rommé_for_twelve_cards_of_a_player_who_drew(
    client: FlaskClient,
) -> None:
    table = rommé(client)
    melds(client, table, "Bob", *TWELVE)
    data = finish_form(table, "Bob", {"Ann": "9c", "Cid": "4d"})
    html = client.post(f"/games/{table.game}/finish", data=data).get_data(as_text=True)
    assert 'name="romme" id="romme-2" value="no" checked' in html, text(html)
    assert "puts down at least the 13 cards dealt, so this is no Rommé hand" in text(html)
