"""The start page: a phone's own sessions first, the new-session form one tap further."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from tests.helpers import PageTable, start, text


def test_a_new_phone_sees_the_new_session_form_at_once(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "<h1>New session</h1>" in page
    assert '<details class="new-session"' not in page
    assert "Sessions on this phone" not in page


def test_a_phone_with_sessions_sees_new_session_on_top_then_them_the_running_one_first(
    client: FlaskClient, app: Flask
) -> None:
    running = start(client, ("Ann", "Bob", "Cid"))
    over = start_one_game(client, ("Dan", "Eve", "Fay"))
    with app.app_context():
        services.record_meld(over.game, over.players["Dan"], "A♠ A♥ A♦")
        hands = {over.players["Eve"]: "K♥", over.players["Fay"]: "2♠"}
        services.finish_game(over.game, over.players["Dan"], hands)
        assert services.get_session(over.session_pk).status == "finished"

    page = client.get("/").get_data(as_text=True)

    listed = page.index("Sessions on this phone")
    form = page.index('<details class="new-session">')
    # "New session" is one tap at the top, its form folded under it.
    assert form < page.index('<form method="post" action="/sessions"') < listed
    assert '<summary class="button primary">New session</summary>' in page
    words = text(page)
    # The running session first, though the finished one was started later.
    assert words.index("Ann, Bob, Cid") < words.index("Dan, Eve, Fay")
    assert "1 game · 1 game played · Dan won · over" in words
    assert running.session in page


def start_one_game(client: FlaskClient, names: tuple[str, ...]) -> PageTable:
    """Start a session of one game through the form."""
    return start(client, names, end="games", games="1")


def test_a_form_sent_back_with_a_problem_is_shown_open(client: FlaskClient) -> None:
    start(client, ("Ann", "Bob", "Cid"))
    answer = client.post("/sessions", data={"names-0": "Ann", "target": "500", "dealer": "0"})
    assert answer.status_code == 422
    assert '<details class="new-session" open>' in answer.get_data(as_text=True)
