"""What keeps the pages cheap: what never changes within a language is done once, not per page.

Counted, not timed: each test counts the work a page asks for and fails when it is done again.
"""

from __future__ import annotations

import re

import pytest
from babel import support
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import i18n
from scorekeeper.i18n import LANGUAGE_COOKIE
from scorekeeper.web import playing_cards
from tests.helpers import meld, opened
from tests.helpers import start as start_treppenromme
from tests.helpers import start_german_rummy as start_german


def test_the_picker_draws_its_buttons_once_per_language_and_number_of_packs(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    drawn: list[tuple[str, int]] = []
    draw = playing_cards._draw_buttons

    def counted(lang: str, packs: int) -> playing_cards.Buttons:
        drawn.append((lang, packs))
        return draw(lang, packs)

    monkeypatch.setattr(playing_cards, "_draw_buttons", counted)
    # The app serves the other tests too: start with nothing drawn.
    monkeypatch.delitem(client.application.extensions, playing_cards.PICKER_BUTTONS, raising=False)
    treppenromme = start_treppenromme(client)
    german = start_german(client, opening="0")
    for language, cards, german_cards in (
        ("en", "5c 6c 7c", "6s 6h jkr"),
        ("de", "9h 9d 9s", "6s 6d 6c"),
    ):
        client.set_cookie(LANGUAGE_COOKIE, language)
        for table in (treppenromme, german):
            for _ in range(2):
                assert client.get(f"/sessions/{table.session}").status_code == 200
                assert client.get(f"/games/{table.game}/finish").status_code == 200
        # More cards on the table: the next pages pick other buttons, drawn already.
        meld(client, treppenromme, "Ann", cards)
        opened(client, german, "Ann" if language == "en" else "Bob", german_cards)
    page = client.get(f"/sessions/{treppenromme.session}").get_data(as_text=True)
    assert re.search(r'data-card="9♥"[^>]*disabled aria-disabled="true" data-taken>9♥<', page)
    assert re.search(r'data-card="8♥"[^>]*aria-pressed="false">8♥<', page)
    page = client.get(f"/sessions/{german.session}").get_data(as_text=True)
    assert re.search(r'data-card="6♠"[^>]*data-left="0" disabled', page)
    assert re.search(r'data-card="6♦"[^>]*data-left="1" aria-pressed="false">6♦<', page)
    assert sorted(drawn) == [("de", 1), ("de", 2), ("en", 1), ("en", 2)]


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_page_looks_its_catalogue_up_once_for_the_words_of_its_template(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, language: str
):
    client.set_cookie(LANGUAGE_COOKIE, language)
    table = start_treppenromme(client)
    for cards in ("5c 6c 7c", "9h 9d 9s", "jd qd kd"):
        meld(client, table, "Ann", cards)
    looked_up = []
    look_up = i18n.get_translations

    def counted() -> support.NullTranslations:
        looked_up.append(1)
        return look_up()

    monkeypatch.setattr(i18n, "get_translations", counted)
    page = client.get(f"/sessions/{table.session}").get_data(as_text=True)
    # Dozens of the template's words, said in the page's language from one lookup.
    assert len(looked_up) == 1
    said = "Neue Kombination" if language == "de" else "New meld"
    assert said in page


def test_the_template_words_say_what_flask_babels_say(app: Flask):
    templates = [
        "{{ _('Session') }}",
        "{{ _('%(name)s went out.', name='<b>Ann</b>') }}",
        "{{ _('%(name)s went out.', name='<b>Ann</b>'|bdi) }}",
        "{{ ngettext('%(num)s game left', '%(num)s games left', 1) }}",
        "{{ ngettext('%(num)s game left', '%(num)s games left', 3) }}",
        "{{ gettext('100%% sure') }}",
    ]
    for language in ("de", "en"):
        with app.test_request_context("/", headers={"Cookie": f"{LANGUAGE_COOKIE}={language}"}):
            for source in templates:
                template = app.jinja_env.from_string(source)
                assert template.render(i18n.template_words()) == template.render()


def test_a_page_with_a_form_reads_no_catalogue_from_disk(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
):
    client.set_cookie(LANGUAGE_COOKIE, "de")
    table = start_treppenromme(client)
    meld(client, table, "Ann", "5c 6c 7c")
    loaded = []
    load = support.Translations.load

    def counted(*args: object, **kwargs: object) -> support.NullTranslations:
        loaded.append(args)
        return load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(support.Translations, "load", counted)
    for path in (f"/sessions/{table.session}", f"/games/{table.game}/finish"):
        assert client.get(path).status_code == 200
    assert loaded == []
