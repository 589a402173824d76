"""Parts of pages drawn once for what they show, then kept: an entry's line, the page's head.

A game's entries stay as they were recorded while the game goes on, and a finished game's for
good: the session page after a tap and the history draw only what is new. The key of a part is
everything its macro reads (hashable values, such as a frozen ``helpers.EntryShown``), the
page's language and the app's address, so a corrected entry or a renamed player is a new part,
never a stale one.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable

from flask import Blueprint, current_app, g, get_template_attribute, request
from flask.blueprints import BlueprintSetupState
from markupsafe import Markup

from scorekeeper.web import helpers

KEPT = "scorekeeper.kept"
# Parts kept per process, the least recently shown forgotten first: some 500 bytes each.
MOST_KEPT = 4096
# The macros are in this template; a part is one call of one of them.
MACROS = "_kept.html"
# Where a request keeps what the key of its parts needs (in flask.g).
_ASKED = "kept_asked"


def register(bp: Blueprint) -> None:
    """Give each app that registers the pages a store of its own (its time zone, its address)."""

    def store(state: BlueprintSetupState) -> None:
        state.app.extensions[KEPT] = functools.lru_cache(maxsize=MOST_KEPT)(_draw)

    bp.record_once(store)
    bp.add_app_template_global(kept, "kept")


def kept(macro: str, *shown: Hashable) -> Markup:
    """Return the macro of ``_kept.html`` drawn with ``shown``, drawn once and kept.

    ``shown`` is all the macro reads besides the language and the app's address. While
    templates reload (debug), every part is drawn anew.
    """
    asked = g.get(_ASKED)
    if asked is None:
        # What the key needs of the request, looked up once a page (a page draws a part for
        # every entry it shows).
        app = current_app
        draw = _draw if app.jinja_env.auto_reload else app.extensions[KEPT]
        asked = g.setdefault(_ASKED, (draw, helpers.language(), request.script_root))
    draw, language, root = asked
    return draw(macro, language, root, shown)  # type: ignore[no-any-return]


def _draw(macro: str, _language: str, _root: str, shown: tuple[Hashable, ...]) -> Markup:
    # The language and the address are the request's own: they are part of the key only.
    return Markup(str(get_template_attribute(MACROS, macro)(*shown)))
