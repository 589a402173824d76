"""Who may see and change a session in the browser: its keys, kept in the browser's cookie.

The phone that starts a session keeps the edit key. Other phones get in through the edit link or
the view-only link (``?key=...``), which puts the key into their cookie and leaves the address.

Any web page can make a phone open links (a top-level GET carries no proof that the person
chose it), so a key from a link is marked as such and may only take the place of another link's
key: it never pushes out a key the phone keeps, the edit key of a session it started or a key
the person kept on purpose with the session page's "Keep it on this phone" button (a POST with
the CSRF token). An edit key from a link (a friend's QR code to record with) is marked apart:
a view link's key never pushes it out, only another edit link's, the one opened longest ago.
When every place holds a key that a link's cannot push out, the link's key is not stored: its
page is shown this once and says so. Keeping a key on purpose (starting a session, the button)
makes room by dropping a view link's key, or else the key kept (or opened) longest ago.

A group's keys are kept alike, in a list of their own. Holding a group's key (either) also opens
its sessions' pages to watch, as their view key would.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any

import segno
from flask import flash, g, redirect, request, session, url_for
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, services
from scorekeeper.keys import Access, SessionKeys
from scorekeeper.web import trust

# The cookie keeps the keys of this many sessions; a key from a link drops out first.
KEPT_SESSIONS = 20
# Where the cookie keeps the keys of sessions, and of groups (as many again).
KEYS = "keys"
GROUP_KEYS = "group_keys"
# Where the cookie keeps the keys of club evenings (as many again).
EVENING_KEYS = "evening_keys"
# Pages that only the edit key opens, although they are read with GET: they are forms.
EDIT_PAGES = {
    "web.correct_entry",
    "web.finish",
    "web.abandon",
    "web.reopen",
    "web.change_session",
    "web.unseat_player",
}
# The page of a session, where a link's key that was not kept can be kept on purpose.
SESSION_PAGE = "web.session_page"
# Asked every few seconds by each phone on a session page: its key check reads one row.
VERSION_ANSWER = "web.session_version"
# The button that keeps a link's key on purpose posts here.
KEEP_PAGE = "web.keep_session"
# The start page's button that takes a session off this phone's list posts here.
FORGET_PAGE = "web.forget_session"
# In the cookie a key from a link is [id, key, FROM_LINK], an edit key from a link [id, key,
# FROM_EDIT_LINK]; a kept key is [id, key] (as before).
FROM_LINK = "link"
FROM_EDIT_LINK = "edit link"
# How lasting a key held is: a link's key pushes out only a key less lasting than a kept one.
VIEW_LINK, EDIT_LINK, KEPT = 0, 1, 2
# A group's page, the button that keeps its link's key, and the one that forgets it.
GROUP_PAGE = "web.group_page"
KEEP_GROUP_PAGE = "web.keep_group"
FORGET_GROUP_PAGE = "web.forget_group"


def _held(where: str = KEYS) -> dict[str, tuple[str, int]]:
    """Return each key this browser holds and how it is kept (``KEPT`` ...), by id, latest last.

    ``where`` is ``KEYS`` for sessions, ``GROUP_KEYS`` for groups.
    """
    # A list of pairs, not a dict: the cookie's serializer sorts a dict's keys, losing the order.
    held = session.get(where)
    if not isinstance(held, list):
        return {}
    return {
        str(entry[0]): (str(entry[1]), _how_kept(entry))
        for entry in held
        if isinstance(entry, list) and len(entry) in (2, 3)
    }


def _how_kept(entry: list[Any]) -> int:
    """Return how a key of the cookie is kept: on purpose, or from an edit or a view link."""
    if len(entry) == 2:
        return KEPT
    return EDIT_LINK if entry[2] == FROM_EDIT_LINK else VIEW_LINK


def _write(held: dict[str, tuple[str, int]], where: str) -> None:
    """Write the keys held into the cookie, in their order, each marked as it is kept."""
    marks = {VIEW_LINK: FROM_LINK, EDIT_LINK: FROM_EDIT_LINK}
    session[where] = [
        [public_id, key] if kept == KEPT else [public_id, key, marks[kept]]
        for public_id, (key, kept) in held.items()
    ]


def held_keys(where: str = KEYS) -> dict[str, str]:
    """Return every key this browser holds, by session (or group) id, the latest used last."""
    return {public_id: key for public_id, (key, _kept) in _held(where).items()}


def held_key(public_id: str, where: str = KEYS) -> str | None:
    """Return the key this browser holds for a session (or a group)."""
    return held_keys(where).get(public_id)


def keep_key(
    public_id: str, key: str, *, from_link: bool = False, edit: bool = False, where: str = KEYS
) -> bool:
    """Remember a session's key in this browser's cookie (signed by the app's secret key).

    A key from a link (``edit``: an edit key) takes the place of the one held for its session,
    if any (and is kept if that was), or of the oldest view link's key; an edit key from a link
    else of the oldest edit link's key. It is not stored (False) when the phone keeps
    ``KEPT_SESSIONS`` keys it cannot push out. A key kept on purpose always is.
    """
    held = _held(where)
    before = held.pop(public_id, None)
    kept = KEPT if not from_link else EDIT_LINK if edit else VIEW_LINK
    if before is not None and before[1] == KEPT:
        kept = KEPT
    while len(held) >= KEPT_SESSIONS:
        out = _pushed_out(held, kept)
        if out is None:
            return False
        del held[out]
    held[public_id] = (key, kept)
    _write(held, where)
    session.permanent = True
    if "kept_keys" in g and kept == KEPT:
        # A form's answer: a repeat of the form must hand out the key too.
        if where == KEYS:
            g.kept_keys[public_id] = key
        else:  # kept_group_keys, kept_evening_keys
            g.setdefault(f"kept_{where}", {})[public_id] = key
    return True


def _pushed_out(held: dict[str, tuple[str, int]], coming: int) -> str | None:
    """Return the key that makes room for one kept so (``coming``), or None when none may go.

    The oldest view link's key goes first; then, for an edit link's key, the oldest edit link's
    key; for a key kept on purpose, the key kept (or opened) longest ago.
    """
    links = [other for other, (_key, kept) in held.items() if kept == VIEW_LINK]
    if links:
        return links[0]
    if coming == EDIT_LINK:
        return next((other for other, (_key, kept) in held.items() if kept == EDIT_LINK), None)
    if coming == KEPT:
        return next(iter(held), None)
    return None


def forget_key(public_id: str, where: str = KEYS) -> None:
    """Drop a session's (or group's) key from this browser's cookie; it stays on the server."""
    held = _held(where)
    if held.pop(public_id, None) is None:
        return
    _write(held, where)


def keep_on_purpose(public_id: str, key: str, where: str = KEYS) -> None:
    """Keep a key the person chose to keep here; a view key leaves the edit key it comes from."""
    held = held_key(public_id, where)
    holds_edit_key = held is not None and _holds_edit_key_for(public_id, key, where)
    keep_key(public_id, held if holds_edit_key and held is not None else key, where=where)


def key_to_keep(public_id: str, where: str = KEYS) -> str | None:
    """Return the key that the session (or group) page offers to keep: a link's, not kept yet."""
    not_kept: str | None = g.get("key_not_kept")
    if not_kept is not None:
        return not_kept
    key, kept = _held(where).get(public_id, (None, KEPT))
    return None if kept == KEPT else key


def not_kept_notice() -> str | None:
    """Say why this page's key is not kept, if it came with a link the cookie had no room for."""
    if g.get("key_not_kept") is None:
        return None
    if request.endpoint == GROUP_PAGE:
        return str(
            gettext(
                "This phone keeps %(count)s groups already, so this one was not kept: open it "
                "from its link again, or keep it on this phone in place of the oldest.",
                count=KEPT_SESSIONS,
            )
        )
    return str(
        gettext(
            "This phone keeps %(count)s sessions already, so this one was not kept: open it "
            "from its link again, or keep it on this phone in place of the oldest.",
            count=KEPT_SESSIONS,
        )
    )


def let_in() -> BaseResponse | None:
    """Open a page about a session only with its key; take a key from a link into the cookie.

    A missing session and a missing or wrong key are the same "not found" page.
    """
    arguments = request.view_args or {}
    if "public_id" not in arguments and "game_id" not in arguments:
        return None
    if request.endpoint in (KEEP_PAGE, FORGET_PAGE):
        # The key to keep comes with the form, and the view checks it; a key to forget needs
        # no check: it only leaves this browser.
        return None
    # An empty key (a link cut off) offers nothing: it must not replace the key held.
    offered = (request.args.get("key") or None) if request.method == "GET" else None

    def key_for(public_id: str) -> str | None:
        return offered or held_key(public_id)

    need = Access.VIEW
    if request.method != "GET" or (request.endpoint in EDIT_PAGES and not offered):
        need = Access.EDIT
    reads = request.method == "GET"  # asks for no write lock (see services.access)
    if request.endpoint == VERSION_ANSWER:
        try:
            opened = services.access_to_session_id(
                arguments["public_id"], key_for, need, reads_only=reads
            )
        except services.NotFoundError:
            watched = _through_group(arguments["public_id"], need, offered)
            g.access, g.public_id = Access.VIEW, watched.public_id
            g.session_version = watched.version
            return None
        g.access, g.public_id, g.session_version = opened.access, opened.public_id, opened.version
        return None
    if "public_id" in arguments:
        try:
            game_session, granted = services.access_to_session(
                arguments["public_id"], key_for, need, reads_only=reads
            )
        except services.NotFoundError:
            game_session = _through_group(arguments["public_id"], need, offered)
            granted = Access.VIEW
        public_id = game_session.public_id
        g.game_session = game_session
    else:
        opened = services.access_to_game(arguments["game_id"], key_for, need, reads_only=reads)
        public_id, granted = opened.public_id, opened.access
    g.access = granted
    g.public_id = public_id
    if offered is not None:
        # A view link must not take away an edit key this browser holds already.
        takes_its_place = granted == Access.EDIT or not _holds_edit_key_for(public_id, offered)
        edit = granted == Access.EDIT
        if takes_its_place and not keep_key(public_id, offered, from_link=True, edit=edit):
            _not_kept(offered, granted)
            return None  # the page itself, with the key in its address this once
        rest = {
            name: value
            for name, value in request.args.items()
            if name != "key" and name not in arguments and not name.startswith("_")
        }
        values: dict[str, Any] = {**arguments, **rest}
        return redirect(url_for(request.endpoint or "web.home", **values))
    return None


def _through_group(public_id: str, need: Access, offered: str | None) -> queries.SessionRow:
    """Return a session to watch through a group key this phone holds, or raise NotFoundError.

    Only to watch: a page that records, and a link with a key of its own, need the session's.
    """
    if need == Access.VIEW and offered is None:
        watched = services.session_through_group(public_id, held_keys(GROUP_KEYS))
        if watched is not None:
            return watched
    raise services.NotFoundError("no_session")


def let_into_group() -> BaseResponse | None:
    """Open a group's pages only with its key; take a key from a link into the cookie.

    A missing group and a missing or wrong key are the same "not found" page. Its forms need
    the edit key.
    """
    arguments = request.view_args or {}
    if "group_id" not in arguments or request.endpoint in (KEEP_GROUP_PAGE, FORGET_GROUP_PAGE):
        return None
    g.group, g.access, kept = _let_in_by_key(
        arguments["group_id"], services.access_to_group, GROUP_KEYS, GROUP_PAGE
    )
    return kept


def let_into_evening() -> BaseResponse | None:
    """Open an evening's pages only with its key; take a key from a link into the cookie.

    As a group's (``let_into_group``): its buttons need the edit key; the board's link holds
    the view key, which only reads.
    """
    arguments = request.view_args or {}
    if "evening_id" not in arguments:
        return None
    g.evening, g.access, kept = _let_in_by_key(
        arguments["evening_id"], services.access_to_evening, EVENING_KEYS, "web.evening_page"
    )
    return kept


def _let_in_by_key(
    public_id: str, access_to: Callable[..., tuple[Any, Access]], where: str, page: str
) -> tuple[Any, Access, BaseResponse | None]:
    """Ask for a group's or an evening's access with the key of a link, else the cookie's.

    A GET reads and needs the view key, a form the edit key. Answers what was found, the access
    granted, and the redirect that keeps a link's key (``_keep_offered_key``) or None.
    """
    offered = (request.args.get("key") or None) if request.method == "GET" else None
    need = Access.VIEW if request.method == "GET" else Access.EDIT
    found, granted = access_to(
        public_id, offered or held_key(public_id, where), need, reads_only=request.method == "GET"
    )
    if offered is None:
        return found, granted, None
    return found, granted, _keep_offered_key(public_id, offered, granted, where, page)


def _keep_offered_key(
    public_id: str, offered: str, granted: Access, where: str, page: str
) -> BaseResponse | None:
    """Keep a key from a link (a group's or an evening's) and open its address without it.

    Where the cookie has no room for it, the page itself is shown, the key in its address this
    once.
    """
    takes_its_place = granted == Access.EDIT or not _holds_edit_key_for(public_id, offered, where)
    edit = granted == Access.EDIT
    if takes_its_place and not keep_key(public_id, offered, from_link=True, edit=edit, where=where):
        g.key_not_kept = offered
        return None
    return redirect(url_for(request.endpoint or page, **(request.view_args or {})))


def evening_keys(public_id: str) -> SessionKeys | None:
    """Return an evening's keys where this page was opened with its edit key."""
    key = held_key(public_id, EVENING_KEYS)
    if not can_edit() or key is None:
        return None
    return SessionKeys.from_edit_key(key)


def evening_link(endpoint: str, public_id: str, key: str) -> str:
    """Return the address of an evening's page with a key, as other phones and the TV open it."""
    names: dict[str, Any] = {"evening_id": public_id, "key": key}
    return trust.link_for(url_for(endpoint, **names)) or url_for(endpoint, _external=True, **names)


def table_link(public_id: str, key: str) -> str:
    """Return the address that opens a table's session with its edit key (its QR code)."""
    names: dict[str, Any] = {"public_id": public_id, "key": key}
    return trust.link_for(url_for(SESSION_PAGE, **names)) or url_for(
        SESSION_PAGE, _external=True, **names
    )


def _not_kept(offered: str, granted: Access) -> None:
    """Show the page of a link whose key the cookie has no room for, this once, and say so."""
    if request.endpoint in EDIT_PAGES and granted != Access.EDIT:
        raise NotFound()
    g.key_not_kept = offered
    if request.endpoint != SESSION_PAGE:  # the session page says it beside its button
        flash(not_kept_notice() or "", "error")


def _holds_edit_key_for(public_id: str, view_key: str, where: str = KEYS) -> bool:
    """Say whether the key held for a session is the edit key that this view key comes from."""
    held = held_key(public_id, where)
    return held is not None and SessionKeys.from_edit_key(held).has_view_key(view_key)


def can_edit() -> bool:
    """Say whether this page was opened with the edit key."""
    return bool(g.get("access") == Access.EDIT)


def share_links(public_id: str, where: str = KEYS) -> dict[str, str]:
    """Return the links to hand to the other phones: view-only always, edit with the edit key."""
    key = held_key(public_id, where)
    if key is None:
        return {}
    links = {}
    if can_edit():
        keys = SessionKeys.from_edit_key(key)
        links["edit"] = _link(public_id, keys.edit, where)
        key = keys.view
    links["view"] = _link(public_id, key, where)
    return links


def _link(public_id: str, key: str, where: str = KEYS) -> str:
    names: dict[str, Any] = {"key": key}
    if where == GROUP_KEYS:
        endpoint, names["group_id"] = GROUP_PAGE, public_id
    else:
        endpoint, names["public_id"] = "web.session_page", public_id
    # Served over HTTPS, other phones get the secure address, also from a plain-HTTP page.
    return trust.link_for(url_for(endpoint, **names)) or url_for(endpoint, _external=True, **names)


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
