"""The end of a game and of a session on the pages: the finish form, play again, reopening."""

from __future__ import annotations

import re
from dataclasses import replace

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.models import Entry, Game, SettlementLine
from tests.helpers import (
    book,
    entries,
    finish_data,
    lay_off,
    meld,
    meld_id,
    start,
    text,
    totals,
    win_session,
)
from tests.rows import count

# --- the end of a game -----------------------------------------------------------------------


def test_the_finish_form_has_a_hand_field_for_every_player(client: FlaskClient) -> None:
    table = start(client)
    page = client.get(f"/games/{table.game}/finish").get_data(as_text=True)
    for player_id in table.players.values():
        assert f'<label for="hand_{player_id}">' in page
        assert f'<label for="points_{player_id}">' in page
    assert "<legend>Who went out?</legend>" in page
    assert 'name="romme" id="romme-0" value="auto" checked>' in page


def test_the_finish_preview_shows_the_settlement_and_writes_nothing(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    response = client.post(
        f"/games/{table.game}/finish",
        data=finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}),
    )
    assert response.status_code == 200
    page = text(response.get_data(as_text=True))
    assert "The settlement, not booked yet" in page
    assert "Rommé hand: the cards left in the other hands count double." in page
    assert "Bob K♦ 7♥ = 17 × 2 = 34 +0" in page
    assert "Cid A♠ = 15 × 2 = 30 +0" in page
    assert "Ann went out +64" in page
    assert "Confirm and book the settlement" in page
    html = response.get_data(as_text=True)
    assert 'name="romme" id="romme-1" value="yes" checked>' in html
    with app.app_context():
        assert services.get_game(table.game).status == "open"
    assert count(app, SettlementLine) == 0
    assert totals(app, table.session_pk)["Ann"] == 52


def test_the_preview_says_when_no_romme_hand_is_possible(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Ann", "9d 10d jd")
    response = client.post(
        f"/games/{table.game}/finish",
        data=finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"}),
    )
    page = text(response.get_data(as_text=True))
    assert "Ann put cards down before another player's entry, so this is no Rommé hand." in page
    assert "Ann went out +12" in page
    assert 'name="romme" id="romme-2" value="no" checked>' in response.get_data(as_text=True)


def test_a_winner_whose_last_turn_laid_off_one_card_is_offered_no_romme_hand(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Bob", "4c 5c 6c")
    lay_off(client, table, "Ann", meld_id(app, table, 1), "7c")
    response = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"})
    )
    page = text(response.get_data(as_text=True))
    assert (
        "Ann put down 1 card after the other players' entries; a Rommé hand puts down at least "
        "the 7 cards dealt, so this is no Rommé hand." in page
    )
    assert "Ann went out +12" in page
    refused = client.post(
        f"/games/{table.game}/finish",
        data={**finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"}, romme="yes"), "confirm": "1"},
    )
    assert refused.status_code == 422
    assert "the 7 cards dealt" in text(refused.get_data(as_text=True))
    assert count(app, SettlementLine) == 0


def test_a_proposed_romme_hand_says_why_so_the_recorder_can_decide(client: FlaskClient) -> None:
    table = start(client)
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")
    response = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"})
    )
    page = text(response.get_data(as_text=True))
    assert (
        "Every entry of Ann comes after the other players' entries, with 7 cards (7 were dealt): "
        "a Rommé hand is possible. If Ann put cards down in an earlier turn, choose “No”." in page
    )
    assert "Ann went out +24" in page


def test_confirming_books_the_doubled_romme_settlement_and_the_totals(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    data = finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}, romme="yes")
    response = client.post(
        f"/games/{table.game}/finish", data={**data, "confirm": "1"}, follow_redirects=True
    )
    assert "Game 1 is over: Ann went out and gains 64 points." in text(
        response.get_data(as_text=True)
    )
    with app.app_context():
        game = services.get_game(table.game)
        assert game.status == "finished"
        assert game.romme is True
        lines = {line.player_id: line for line in game.settlement_lines}
        assert lines[table.players["Bob"]].hand == "K♦ 7♥"
        assert lines[table.players["Bob"]].factor == 2
        assert lines[table.players["Ann"]].gain == 64
    assert totals(app, table.session_pk) == {"Ann": 116, "Bob": 0, "Cid": 0}


def test_confirming_without_a_romme_hand_counts_the_hands_once(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}, romme="no")
    book(client, table, data)
    assert totals(app, table.session_pk) == {"Ann": 62, "Bob": 0, "Cid": 0}


def test_the_confirm_form_carries_exactly_the_previewed_values(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Ann", "4d 5d 6d 7d")  # a Rommé hand puts down 7 cards at least
    response = client.post(
        f"/games/{table.game}/finish",
        data=finish_data(table, "Ann", {"Bob": "kd 7h", "Cid": "as"}),
    )
    html = response.get_data(as_text=True)
    confirm = html[html.index("The settlement, not booked yet") : html.index("Change something")]
    fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', confirm))
    assert fields["confirm"] == "1"
    assert fields["romme"] == "yes"
    client.post(f"/games/{table.game}/finish", data=fields)
    assert totals(app, table.session_pk)["Ann"] == 116


def test_finishing_with_a_hand_card_on_the_table_is_refused(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "kc 7h", "Cid": "as"})
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 422
    assert "K♣ is on the table, so is not in Bob's hand." in text(response.get_data(as_text=True))
    assert 'value="kc 7h"' in response.get_data(as_text=True)
    with app.app_context():
        assert services.get_game(table.game).status == "open"
    assert count(app, SettlementLine) == 0


def test_finishing_without_every_other_hand_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    response = client.post(
        f"/games/{table.game}/finish", data=finish_data(table, "Ann", {"Bob": "kd", "Cid": ""})
    )
    assert response.status_code == 422
    assert "enter the cards left in every other hand" in response.get_data(as_text=True)


def test_a_romme_hand_that_was_not_possible_is_refused(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    meld(client, table, "Bob", "5s 5h 5c")
    meld(client, table, "Ann", "9d 10d jd")
    data = finish_data(table, "Ann", {"Bob": "kd", "Cid": "2s"}, romme="yes")
    response = client.post(f"/games/{table.game}/finish", data={**data, "confirm": "1"})
    assert response.status_code == 422
    assert "so this is no Rommé hand" in response.get_data(as_text=True)
    assert count(app, SettlementLine) == 0


def test_abandoning_asks_first_then_keeps_the_melds_and_scores_no_hands(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    ask = client.get(f"/games/{table.game}/abandon")
    assert "Yes, abandon the game" in ask.get_data(as_text=True)
    with app.app_context():
        assert services.get_game(table.game).status == "open"
    response = client.post(f"/games/{table.game}/abandon", follow_redirects=True)
    page = text(response.get_data(as_text=True))
    assert "Game 1 was abandoned: its melds stand." in page
    assert "Game 1: abandoned" in page
    with app.app_context():
        assert services.get_game(table.game).status == "abandoned"
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 0, "Cid": 0}


def test_entries_of_a_closed_game_cannot_change(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    client.post(f"/games/{table.game}/abandon")
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "5s 5h 5c"}
    )
    assert response.status_code == 409
    assert "Game 1 is over: its entries are final." in response.get_data(as_text=True)
    assert client.post(f"/games/{table.game}/undo").status_code == 409
    assert client.get(f"/games/{table.game}/finish").status_code == 409
    assert len(entries(app, table.game)) == 1


def test_the_next_game_passes_the_deal_to_the_left(client: FlaskClient, app: Flask) -> None:
    table = start(client, ("Ann", "Bob", "Cid"), dealer="2")
    client.post(f"/games/{table.game}/abandon")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Next deal: Ann." in page
    response = client.post(f"/sessions/{table.session}/games", follow_redirects=True)
    assert "Game 2: Ann deals." in text(response.get_data(as_text=True))
    client.post(f"/games/{services_open_game(app, table.session_pk)}/abandon")
    client.post(f"/sessions/{table.session}/games")
    with app.app_context():
        session = services.get_session(table.session_pk)
        names = {player.id: player.name for player in session.players}
        dealers = [names[game.dealer_id] for game in services.game_summaries(session)]
    assert dealers == ["Cid", "Ann", "Bob"]


def services_open_game(app: Flask, session_id: int) -> int:
    """Return the id of the session's open game."""
    with app.app_context():
        game = services.open_game(services.get_session(session_id))
        assert game is not None
        return game.id


def test_a_second_game_cannot_start_while_one_is_open(client: FlaskClient, app: Flask) -> None:
    table = start(client)
    response = client.post(f"/sessions/{table.session}/games")
    assert response.status_code == 409
    assert "A game is still open" in response.get_data(as_text=True)
    assert count(app, Game) == 1


# --- the end of the session ------------------------------------------------------------------


def test_play_again_fills_in_the_same_players_and_target_for_this_phone_only(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    again = re.search(r'href="(/\?again=[^"]+)"', page)
    assert again is not None
    form = client.get(again.group(1)).get_data(as_text=True)
    assert re.search(r'<input [^>]*name="names-0"[^>]*value="Ann"', form)
    assert re.search(r'<input [^>]*name="names-1"[^>]*value="Bob"', form)
    assert re.search(r'<input [^>]*name="target"[^>]*value="35"', form)
    stranger = app.test_client().get(again.group(1)).get_data(as_text=True)
    assert 'value="Ann"' not in stranger


def test_the_winner_of_the_session_is_shown_at_the_top_and_no_form_is_left(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    html = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    page = text(html)
    assert "Ann wins the session!" in page
    assert page.index("Ann wins the session!") < page.index("Session to 35 points")
    assert "<form" not in html
    with app.app_context():
        assert services.get_session(table.session_pk).status == "finished"


def test_a_finished_session_refuses_changes_and_keeps_everything(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    before = totals(app, table.session_pk)
    response = client.post(
        f"/games/{table.game}/melds", data={"player": table.players["Bob"], "cards": "5s 5h 5c"}
    )
    assert response.status_code == 409
    assert "This session is over" in response.get_data(as_text=True)
    for url in (
        f"/sessions/{table.session}/games",
        f"/games/{table.game}/undo",
        f"/games/{table.game}/abandon",
        f"/games/{table.game}/entries/{meld_id(app, table, 1)}/delete",
        f"/games/{table.game}/finish",
    ):
        assert client.post(url).status_code == 409, url
    assert totals(app, table.session_pk) == before
    assert count(app, Game) == 1
    assert count(app, Entry) == 1


def test_a_tie_at_the_top_above_the_target_says_another_game_is_played(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client, ("Ann", "Bob"), target="10")
    meld(client, table, "Ann", "5c 6c 7c")
    meld(client, table, "Bob", "5d 6d 7d")
    client.post(f"/games/{table.game}/abandon")
    page = text(client.get(f"/sessions/{table.session}").get_data(as_text=True))
    assert "Tie at the top: another game is played." in page
    assert "wins the session" not in page
    assert "Start the next game" in page


# --- reopening a booked game -------------------------------------------------------------------


def test_a_won_session_reopens_its_last_game_after_asking_and_plays_on(
    client: FlaskClient, app: Flask
) -> None:
    table = win_session(client)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    reopen = f"/games/{table.game}/reopen"
    assert f'href="{reopen}"' in page
    ask = text(client.get(reopen).get_data(as_text=True))
    assert "Reopen game 1?" in ask
    assert totals(app, table.session_pk) == {"Ann": 39, "Bob": 0}

    answer = client.post(reopen, follow_redirects=True)
    shown = text(answer.get_data(as_text=True))
    assert "Game 1 is open again: finish it anew." in shown
    assert "Ann wins the session!" not in shown
    assert totals(app, table.session_pk) == {"Ann": 30, "Bob": 0}  # the meld stands
    assert entries(app, table.game) == [("Ann", "Q♣ K♣ A♣", 30)]
    assert client.post(reopen).status_code == 409  # open now: nothing to take back


def test_only_the_last_game_can_be_reopened_and_only_by_the_edit_key(
    client: FlaskClient, app: Flask
) -> None:
    table = start(client)
    meld(client, table, "Ann", "qc kc ac")
    data = finish_data(table, "Ann", {"Bob": "9s", "Cid": "2h"}, romme="no")
    book(client, table, data)
    client.post(f"/sessions/{table.session}/games")
    second = table.game + 1
    meld(client, replace(table, game=second), "Bob", "7h 7d 7s")
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    assert "/reopen" not in page  # game 2 has an entry
    refused = client.post(f"/games/{table.game}/reopen")
    assert refused.status_code == 409
    assert "Game 2 was played after it" in text(refused.get_data(as_text=True))
    assert app.test_client().post(f"/games/{table.game}/reopen").status_code == 404
    assert totals(app, table.session_pk) == {"Ann": 41, "Bob": 21, "Cid": 0}


def test_the_standing_shows_the_best_total_first_with_the_seat_breaking_a_tie(
    client: FlaskClient,
) -> None:
    table = start(client, ("Ann", "Bob", "Cid", "Dan"))
    meld(client, table, "Cid", "qc kc ac")
    meld(client, table, "Dan", "7h 8h 9h")
    book(client, table, finish_data(table, "Dan", {"Ann": "2c", "Bob": "2d", "Cid": "5s"}))
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    standing = page[page.index('<table class="standing">') : page.index("</table>")]
    rows = re.findall(r"<bdi[^>]*>(\w+)</bdi>.*?<td class=\"num\">(-?\d+)</td>", standing, re.S)
    totals = [int(total) for _name, total in rows]
    assert totals == sorted(totals, reverse=True)
    assert [name for name, _total in rows][:2] == ["Dan", "Cid"]
    # Ann and Bob paid the same: the seat decides.
    assert [name for name, _total in rows][2:] == ["Ann", "Bob"]
    assert totals[2] == totals[3]
