"""A group's pages: started with a session, opened by its key only, statistics in two languages."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.keys import SessionKeys
from scorekeeper.models import GameSession, Group
from tests.helpers import text
from tests.pageforms import form_to, links


def start_with_group(
    client: FlaskClient, names: tuple[str, ...], group: str = "new", **fields: str
) -> str:
    """Start a session through the start page, in a group; return the session's id."""
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    data.update({"end": "games", "games": "1", "group": group, **fields})
    answer = client.post("/sessions", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return str(answer.headers["Location"].rsplit("/", 1)[1])


def group_of(app: Flask, session_id: str) -> str:
    with app.app_context():
        group = db.session.scalar(
            sa.select(Group.public_id)
            .join(GameSession, GameSession.group_id == Group.id)
            .where(GameSession.public_id == session_id)
        )
    assert group is not None
    return str(group)


def finish_at_once(app: Flask, session_id: str, winner: str, cards: str, hands: dict) -> None:
    """Record one meld for the winner and finish the open game (a session of one game)."""
    with app.app_context():
        session = db.session.scalars(
            sa.select(GameSession).where(GameSession.public_id == session_id)
        ).one()
        game = services.open_game(session)
        assert game is not None
        ids = {player.name: player.id for player in session.players}
        services.record_meld(game.id, ids[winner], cards)
        services.finish_game(
            game.id, ids[winner], {ids[name]: hand for name, hand in hands.items()}
        )


@pytest.fixture
def played(app: Flask, client: FlaskClient) -> tuple[str, str]:
    """A group "Donnerstagsrunde" started with a session that Ann won; return both ids."""
    session = start_with_group(client, ("Ann", "Bob", "Cid"), group_name="Donnerstagsrunde")
    finish_at_once(app, session, "Ann", "A♠ A♥ A♦", {"Bob": "K♥", "Cid": "2♠"})
    return group_of(app, session), session


def test_a_session_started_with_a_new_group_shows_on_the_group_page(
    client: FlaskClient, played: tuple[str, str]
) -> None:
    group, session = played
    page = client.get(f"/groups/{group}")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    words = text(page.get_data(as_text=True))
    assert "Donnerstagsrunde" in words
    # Ann: 1/1 sessions, 1/1 games, 45 + 12 points in one game, no Rommé.
    assert "Ann 1/1 1/1 57.0 0" in words
    assert "Ann A♠ A♥ A♦ 45" in words
    assert f'href="/sessions/{session}"' in page.get_data(as_text=True)
    session_page = client.get(f"/sessions/{session}").get_data(as_text=True)
    assert f'href="/groups/{group}"' in session_page
    home = client.get("/").get_data(as_text=True)
    assert f'<a href="/groups/{group}"><bdi>Donnerstagsrunde</bdi></a>' in home


def test_the_group_page_without_its_key_is_not_found_as_a_session_is(
    app: Flask, played: tuple[str, str]
) -> None:
    group, session = played
    stranger = app.test_client()
    missing = stranger.get(f"/sessions/{session}")
    assert missing.status_code == 404
    for address in (f"/groups/{group}", f"/groups/{group}?key=wrong", "/groups/no-such-group"):
        answer = stranger.get(address)
        assert answer.status_code == 404
        assert "There is no such group" in answer.get_data(as_text=True)
    posted = stranger.post(f"/groups/{group}/merges", data={"name": "Ann", "same_as": "Bob"})
    assert posted.status_code == 404


def test_the_view_link_shows_the_statistics_and_the_sessions_to_watch_only(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, session = played
    shared = links(client.get(f"/groups/{group}").get_data(as_text=True))
    assert set(shared) == {"edit", "view"}
    watcher = app.test_client()
    opened = watcher.get(shared["view"].replace("http://localhost", ""))
    assert opened.status_code == 302
    assert opened.headers["Location"] == f"/groups/{group}"
    page = watcher.get(f"/groups/{group}").get_data(as_text=True)
    assert "Ann 1/1 1/1 57.0 0" in text(page)
    assert "/merges" not in page  # no merge form without the edit key
    assert set(links(page)) == {"view"}
    # The group's key opens its sessions to watch: the page and the history, no forms.
    watched = watcher.get(f"/sessions/{session}")
    assert watched.status_code == 200
    assert "data-entry" not in watched.get_data(as_text=True)
    assert watcher.get(f"/sessions/{session}/history").status_code == 200
    assert watcher.post(f"/sessions/{session}/games").status_code == 404
    assert watcher.get(f"/sessions/{session}/change").status_code == 404
    # A session in play asks whether anything changed: the group's key answers that too.
    playing = start_with_group(client, ("Ann", "Bob"), group=group)
    assert watcher.get(f"/sessions/{playing}/version").status_code == 200
    with app.app_context():
        other = services.create_session(["Eve", "Mal"]).public_id
    assert watcher.get(f"/sessions/{other}").status_code == 404


def test_play_again_keeps_the_group(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, session = played
    home = client.get(f"/?again={session}").get_data(as_text=True)
    assert re.search(rf'<option selected value="{group}">Donnerstagsrunde</option>', home)
    form = form_to(home, "/sessions")
    names = {name: value for name, value in form.fields.items() if name.startswith("names-")}
    again = start_with_group(client, tuple(names.values())[:3], group=group)
    assert group_of(app, again) == group
    finish_at_once(app, again, "Bob", "K♠ K♥ K♦", {"Ann": "3♣", "Cid": "4♣"})
    words = text(client.get(f"/groups/{group}").get_data(as_text=True))
    assert "Ann 1/2 1/2" in words
    assert "Bob 1/2 1/2" in words


def test_a_group_this_phone_cannot_add_to_is_refused_on_the_start_page(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, _ = played
    other = app.test_client()
    view = links(client.get(f"/groups/{group}").get_data(as_text=True))["view"]
    other.get(view.replace("http://localhost", ""))
    data = {"names-0": "Ann", "names-1": "Bob", "group": group}
    refused = other.post("/sessions", data=data)
    assert refused.status_code == 422
    assert "There is no such group" in refused.get_data(as_text=True)
    nameless = other.post("/sessions", data={**data, "group": "new"})
    assert nameless.status_code == 422
    assert "A new group needs a name" in nameless.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Group)) == 1


def test_names_are_merged_on_the_group_page(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, _ = played
    later = start_with_group(client, ("Anni", "Dora"), group=group)
    finish_at_once(app, later, "Anni", "5♦ 6♦ 7♦", {"Dora": "9♣"})
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    merge = form_to(page, "/merges")
    refused = client.post(merge.action, data={**merge.fields, "name": "Bob", "same_as": "Ann"})
    assert refused.status_code == 422
    assert "played in the same session, so they are two people" in text(
        refused.get_data(as_text=True)
    )
    done = client.post(
        merge.action, data={**merge.fields, "name": "Anni", "same_as": "Ann"}, follow_redirects=True
    )
    words = text(done.get_data(as_text=True))
    assert "“Anni” counts as “Ann” now." in words
    # Ann and Anni are one person: 2 sessions, 2 games won, 57 + 27 points.
    assert "Ann (Anni) 2/2 2/2 42.0 0" in words


def test_the_german_group_page_shows_the_numbers_with_a_decimal_comma(
    client: FlaskClient, played: tuple[str, str]
) -> None:
    group, _ = played
    client.set_cookie(LANGUAGE_COOKIE, "de")
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    assert 'lang="de"' in page
    assert "Ann 1/1 1/1 57,0 0" in text(page)
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert re.findall(r"\s(on[a-z]+|style)=", page) == []


def test_the_group_page_starts_a_session_in_the_group(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, _ = played
    page = client.get(f"/groups/{group}").get_data(as_text=True)
    start = re.search(r'<a class="button primary" href="(/\?group=[^"]+)">', page)
    assert start is not None
    home = client.get(start.group(1)).get_data(as_text=True)
    assert f'<option selected value="{group}">Donnerstagsrunde</option>' in home
    # Another group's id in the address preselects nothing.
    other = client.get("/?group=no-such-group").get_data(as_text=True)
    assert '<option selected value="">No group</option>' in other


def test_a_group_link_is_kept_on_purpose_and_taken_off_the_phone(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, _ = played
    view = links(client.get(f"/groups/{group}").get_data(as_text=True))["view"]
    other = app.test_client()
    other.get(view.replace("http://localhost", ""))
    page = other.get(f"/groups/{group}").get_data(as_text=True)
    kept = form_to(page, "/keep")
    answer = other.post(kept.action, data=kept.fields, follow_redirects=True)
    assert "This group is kept on this phone." in answer.get_data(as_text=True)
    assert "/keep" not in other.get(f"/groups/{group}").get_data(as_text=True)
    home = other.get("/").get_data(as_text=True)
    forget = form_to(home, f"/groups/{group}/forget")
    other.post(forget.action, data=forget.fields)
    assert f"/groups/{group}" not in other.get("/").get_data(as_text=True)
    assert other.get(f"/groups/{group}").status_code == 404


def test_the_german_group_page_shows_its_cards_in_their_letters_and_colours(
    app: Flask, client: FlaskClient
) -> None:
    session = start_with_group(client, ("Ann", "Bob", "Cid"), group_name="Runde")
    finish_at_once(app, session, "Ann", "J♦ Q♦ K♦", {"Bob": "K♥", "Cid": "2♠"})
    client.set_cookie(LANGUAGE_COOKIE, "de")
    page = client.get(f"/groups/{group_of(app, session)}").get_data(as_text=True)
    shown = '<span class="card red">B♦</span> <span class="card red">D♦</span>'
    assert page.count(f'{shown} <span class="card red">K♦</span>') == 2  # best, longest


def test_the_group_page_ranks_the_clubs_evenings_over_the_season(
    app: Flask, client: FlaskClient, played: tuple[str, str]
) -> None:
    group, _session = played
    six = ["Ann", "Bob", "Cid", "Dan", "Eva", "Flo"]
    with app.app_context():
        group_id = db.session.scalar(sa.select(Group.id).where(Group.public_id == group))
        for name in ("Clubabend März", "Clubabend April"):
            services.start_evening(
                name,
                players=six,
                series=1,
                games_per_series=1,
                table_size=3,
                keys=SessionKeys.new(),
                group=group_id,
            )
        # An evening of no group is in no season.
        services.start_evening(
            "Anderswo", players=six, series=1, games_per_series=1, keys=SessionKeys.new()
        )
    page = text(client.get(f"/groups/{group}").get_data(as_text=True))
    assert "The season 2 evenings" in page
    # Nobody has played yet: all six share the first place, 6 points an evening.
    assert "1= Ann 2 12" in page and "1= Flo 2 12" in page
    assert "Clubabend April" in page and "Anderswo" not in page
    best = text(client.get(f"/groups/{group}?best=1").get_data(as_text=True))
    assert "each player's best evening counts" in best and "1= Ann 2 6" in best
    refused = text(client.get(f"/groups/{group}?best=0").get_data(as_text=True))
    assert "A season counts each player's best 1 to" in refused and "1= Ann 2 12" in refused
