"""Parts of pages drawn once for what they show, then kept: an entry's line, the page's head.

A game's entries stay as they were recorded while the game goes on, and a finished game's for
good: the session page after a tap and the history draw only what is new. The key of a part is
everything its macro reads (hashable values, such as a frozen ``helpers.EntryShown``), the
page's language and the app's address, so a corrected entry or a renamed player is a new part,
never a stale one. Nothing a visitor writes (the page's address) and no key is ever part of a
key or a part: what is kept stays in the server's memory, shared by every phone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable

from flask import Blueprint, current_app, get_template_attribute, request
from flask.blueprints import BlueprintSetupState
from markupsafe import Markup

from scorekeeper.web import helpers

KEPT = "scorekeeper.kept"
# Parts kept per macro and process, the least recently shown forgotten first. Most parts are
# well under 2 KB (an entry's line about 600 bytes), about 8 MB for all at most; a chart is up
# to 30 KB, and only the charts of the sessions being looked at need keeping.
MOST_KEPT = 4096
MOST_KEPT_OF = {"chart": 64}
# The macros are in this template; a part is one call of one of them.
MACROS = "_kept.html"
# Where a request keeps what the key of its parts needs (in its WSGI environment: its own).
_ASKED = "scorekeeper.kept"

Draw = Callable[[str, str, str, tuple[Hashable, ...]], Markup]


def register(bp: Blueprint) -> None:
    """Give each app that registers the pages stores of its own (its time zone, its address)."""

    def stores(state: BlueprintSetupState) -> None:
        state.app.extensions[KEPT] = {}

    bp.record_once(stores)
    bp.add_app_template_global(kept, "kept")


def kept(macro: str, *shown: Hashable) -> Markup:
    """Return the macro of ``_kept.html`` drawn with ``shown``, drawn once and kept.

    ``shown`` is all the macro reads besides the language and the app's address. While
    templates reload (debug), every part is drawn anew.
    """
    environ = request.environ
    asked = environ.get(_ASKED)
    if asked is None:
        # What the key needs of the request, looked up once a page (a page draws a part for
        # every entry it shows).
        app = current_app
        asked = environ[_ASKED] = (
            None if app.jinja_env.auto_reload else app.extensions[KEPT],
            helpers.language(),
            request.script_root,
        )
    stores, language, root = asked
    draw: Draw = _draw if stores is None else _store(stores, macro)
    return draw(macro, language, root, shown)


def _store(stores: dict[str, Draw], macro: str) -> Draw:
    """Return the store of a macro's parts; two requests making it at once make the same."""
    store = stores.get(macro)
    if store is None:
        size = MOST_KEPT_OF.get(macro, MOST_KEPT)
        store = stores.setdefault(macro, functools.lru_cache(maxsize=size)(_draw))
    return store


def _draw(macro: str, _language: str, _root: str, shown: tuple[Hashable, ...]) -> Markup:
    # The language and the address are the request's own: they are part of the key only.
    return Markup(str(get_template_attribute(MACROS, macro)(*shown)))
