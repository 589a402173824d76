"""A hidden one-time token in every form, so that a form sent twice is applied once.

A double tap, a reload that sends the form again, or a retry after the network dropped all carry
the token of the page they came from: the first is applied, the others are sent where the first
went. The token is remembered with the change, in the same transaction (see http.once).
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable
from typing import Any

from flask import Response, flash, g, jsonify, make_response, redirect, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import store
from scorekeeper.http.once import AnswerLost, IdempotencyError, StillAnswering, apply_once
from scorekeeper.web import access

FIELD = "once"
# How soon a tap still being saved is asked again (the 409 that passes).
RETRY_AFTER_SECONDS = 1


def new_token() -> str:
    """Return a token for one form on one page."""
    return secrets.token_urlsafe(16)


def once_per_form(view: Callable[..., Any]) -> Callable[..., Any]:
    """Apply a form's POST once per token; repeats go where the first answer went."""

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        token = request.form.get(FIELD) if request.method == "POST" else None
        if not token or len(token) > 64 or not token.isprintable():
            return view(*args, **kwargs)  # not one of our pages' forms: nothing to tell apart
        g.kept_keys = {}
        # The form is parsed already (CSRF), so its fields, not the raw body, tell sends apart.
        fields = sorted((k, v) for k, v in request.form.items(multi=True) if k != "csrf_token")
        try:
            return apply_once(
                f"form:{token}",
                lambda: make_response(view(*args, **kwargs)),
                _replay,
                _remember,
                content=json.dumps(fields).encode(),
            )
        except IdempotencyError:
            # The page was sent before with something else in it (back button, then changed).
            store.rollback()
            notice = gettext(
                "This form was sent before: nothing was recorded twice. If it was something "
                "new, enter it again here."
            )
            return _not_applied(notice, 422)
        except AnswerLost:
            # The first send was saved, but the server stopped before it could answer.
            store.rollback()
            return _not_applied(gettext("This form was saved before: look at the page."), 409)
        except StillAnswering:
            # The first send has not answered in time: show the page. The script's tap (or the
            # outbox's send) asks again in a moment: a 409 that passes, marked so with
            # Retry-After; every other 409 is a refusal.
            store.rollback()
            notice = gettext(
                "This form was sent before and is still being saved: look at the page."
            )
            return _not_applied(notice, 409, retry_after=RETRY_AFTER_SECONDS)

    return run


def _not_applied(notice: str, status: int, *, retry_after: int | None = None) -> BaseResponse:
    """Answer a send that was not applied now: in place with its reason, else on the page.

    The game page's script and the outbox ask for JSON (``Accept: application/json``): they
    are told why, as an ``error`` sentence, with ``Retry-After`` only for a send that passes
    (the first is still being saved); a redirect would tell them nothing. A page's form is
    sent back where it came from, the sentence in the bar.
    """
    if request.accept_mimetypes.best == "application/json":
        answer = jsonify(error=notice)
        answer.status_code = status
        if retry_after is not None:
            answer.headers["Retry-After"] = str(retry_after)
        return answer
    flash(notice, "error")
    return redirect(_back())


def _remember(response: BaseResponse) -> str:
    """Remember where the answer went, and the keys it gave this browser.

    An answer in place (the game page's script asked for JSON) is remembered whole: a repeat of
    the tap is told the same.
    """
    answered = response.get_data(as_text=True) if response.mimetype == "application/json" else None
    return json.dumps(
        {
            "location": response.headers.get("Location"),
            "keys": g.kept_keys,
            "group_keys": g.get("kept_group_keys", {}),
            "evening_keys": g.get("kept_evening_keys", {}),
            "answer": answered,
            "status": response.status_code,
        }
    )


def _replay(record: store.RecordRow) -> BaseResponse:
    stored = json.loads(record.body or "{}")
    if stored.get("answer") is not None:
        return Response(stored["answer"], stored.get("status", 200), mimetype="application/json")
    for public_id, key in stored.get("keys", {}).items():
        access.keep_key(public_id, key)
    for public_id, key in stored.get("group_keys", {}).items():
        access.keep_key(public_id, key, where=access.GROUP_KEYS)
    for public_id, key in stored.get("evening_keys", {}).items():
        access.keep_key(public_id, key, where=access.EVENING_KEYS)
    return redirect(stored.get("location") or _back(), 303)


def _back() -> str:
    public_id = g.get("public_id")
    if public_id is not None:
        return url_for("web.session_page", public_id=public_id, _anchor="game")
    return url_for("web.home")
