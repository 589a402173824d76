"""Who may see and change a session in the browser: its keys, kept in the browser's cookie.

The phone that starts a session keeps the edit key. Other phones get in through the edit link or
the view-only link (``?key=...``), which puts the key into their cookie and leaves the address.
"""

from __future__ import annotations

import functools
import io
from typing import Any

import segno
from flask import g, redirect, request, session, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import services
from scorekeeper.keys import Access, SessionKeys

# The cookie keeps the keys of this many sessions, the latest used; older ones drop out.
KEPT_SESSIONS = 20
# Pages that only the edit key opens, although they are read with GET: they are forms.
EDIT_PAGES = {"web.correct_entry", "web.finish", "web.abandon", "web.reopen"}


def held_keys() -> dict[str, str]:
    """Return every key this browser holds, by session id, the latest used last."""
    # A list of pairs, not a dict: the cookie's serializer sorts a dict's keys, losing the order.
    held = session.get("keys")
    if not isinstance(held, list):
        return {}
    return {
        str(pair[0]): str(pair[1]) for pair in held if isinstance(pair, list) and len(pair) == 2
    }


def held_key(public_id: str) -> str | None:
    """Return the key this browser holds for a session."""
    return held_keys().get(public_id)


def keep_key(public_id: str, key: str) -> None:
    """Remember a session's key in this browser's cookie (signed by the app's secret key)."""
    held = held_keys()
    held.pop(public_id, None)
    held[public_id] = key
    session["keys"] = [[kept, value] for kept, value in list(held.items())[-KEPT_SESSIONS:]]
    session.permanent = True
    if "kept_keys" in g:  # a form's answer: a repeat of the form must hand out the key too
        g.kept_keys[public_id] = key


def let_in() -> BaseResponse | None:
    """Open a page about a session only with its key; take a key from a link into the cookie.

    A missing session and a missing or wrong key are the same "not found" page.
    """
    arguments = request.view_args or {}
    if "public_id" not in arguments and "game_id" not in arguments:
        return None
    # An empty key (a link cut off) offers nothing: it must not replace the key held.
    offered = (request.args.get("key") or None) if request.method == "GET" else None

    def key_for(public_id: str) -> str | None:
        return offered or held_key(public_id)

    need = Access.VIEW
    if request.method != "GET" or (request.endpoint in EDIT_PAGES and not offered):
        need = Access.EDIT
    if "public_id" in arguments:
        game_session, granted = services.access_to_session(arguments["public_id"], key_for, need)
        public_id = game_session.public_id
        g.game_session = game_session
    else:
        public_id, granted = services.access_to_game(arguments["game_id"], key_for, need)
    g.access = granted
    g.public_id = public_id
    if offered is not None:
        # A view link must not take away an edit key this browser holds already.
        if granted == Access.EDIT or not _holds_edit_key_for(public_id, offered):
            keep_key(public_id, offered)
        rest = {
            name: value
            for name, value in request.args.items()
            if name != "key" and name not in arguments and not name.startswith("_")
        }
        values: dict[str, Any] = {**arguments, **rest}
        return redirect(url_for(request.endpoint or "web.home", **values))
    return None


def _holds_edit_key_for(public_id: str, view_key: str) -> bool:
    """Say whether the key held for a session is the edit key that this view key comes from."""
    held = held_key(public_id)
    return held is not None and SessionKeys.from_edit_key(held).has_view_key(view_key)


def can_edit() -> bool:
    """Say whether this page was opened with the edit key."""
    return bool(g.get("access") == Access.EDIT)


def share_links(public_id: str) -> dict[str, str]:
    """Return the links to hand to the other phones: view-only always, edit with the edit key."""
    key = held_key(public_id)
    if key is None:
        return {}
    links = {}
    if can_edit():
        keys = SessionKeys.from_edit_key(key)
        links["edit"] = _link(public_id, keys.edit)
        key = keys.view
    links["view"] = _link(public_id, key)
    return links


def _link(public_id: str, key: str) -> str:
    return url_for("web.session_page", public_id=public_id, key=key, _external=True)


@functools.lru_cache(maxsize=256)
def qr_code(link: str) -> Markup:
    """Return a QR code of a link as inline SVG, dark on light whatever the page's theme.

    Kept per link, since drawing two codes took longer than the rest of the session page.
    """
    svg = io.BytesIO()
    segno.make(link, error="m").save(
        svg,
        kind="svg",
        scale=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        svgns=False,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    return Markup(svg.getvalue().decode())
