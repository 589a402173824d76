"""The pages' error answers: not found, not possible now, a form that is not ours."""

from __future__ import annotations

from flask import flash, g, jsonify, make_response, render_template
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import queries, services, store
from scorekeeper.long_reads import RETRY_SECONDS, LongReadsBusy
from scorekeeper.web import playing_cards, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.session_page import render_session_page
from scorekeeper.web.shared import Answer, in_place, to_session

LONG_READS_BUSY = _l(
    "The server is preparing other long answers (score sheets, charts, files, statistics) right "
    "now. Try again in a moment."
)


@bp.errorhandler(services.NotFoundError)
@bp.errorhandler(NotFound)
def _not_found(error: Exception) -> Answer:
    store.rollback()
    missing = getattr(error, "message_id", None)
    if missing == "no_entry" and g.get("public_id") is not None:
        # Deleted or undone since the page was drawn (another phone, or back after a delete).
        flash(gettext("That entry is not in the game (any more): it was deleted or undone."))
        return to_session()
    message = gettext("This page does not exist: %(reason)s", reason=_reason(error))
    return render_template("message.html", title=gettext("Not found"), message=message), 404


@bp.errorhandler(services.ConflictError)
def _conflict(error: Exception) -> Answer:
    """Show why the action cannot be done now, on the session page when there is one."""
    store.rollback()
    session_id = g.get("session_id")
    if in_place():
        return _said_in_place(words.rules_message(error), 409)
    if session_id is not None:
        problem = words.rules_message(error)
        return render_session_page(queries.get_session(session_id), status=409, problem=problem)
    message = words.rules_message(error)
    return render_template("message.html", title=gettext("Not possible"), message=message), 409


@bp.errorhandler(CSRFError)
def _form_not_ours(_error: CSRFError) -> Answer:
    """Refuse a form without this browser's CSRF token on the app's own page, in its language."""
    store.rollback()
    message = gettext(
        "This form was open too long or came from elsewhere: open the page again and repeat."
    )
    if in_place():
        return _said_in_place(message, 400)
    return render_template("message.html", title=gettext("Not possible"), message=message), 400


@bp.errorhandler(LongReadsBusy)
def _long_reads_busy(_error: LongReadsBusy) -> BaseResponse:
    """Refuse one more long answer (a score sheet, a file, statistics) with a page to retry."""
    store.rollback()
    page = render_template(
        "busy.html", title=gettext("Busy for a moment"), message=str(LONG_READS_BUSY)
    )
    answer = make_response(page, 429)
    answer.headers["Retry-After"] = str(RETRY_SECONDS)
    return answer


def _said_in_place(message: str, status: int) -> BaseResponse:
    """Answer the script's in-place request with why nothing was recorded."""
    response = jsonify(error=str(playing_cards.suits(message)))
    response.status_code = status
    return response


def _reason(error: Exception) -> str:
    if isinstance(error, NotFound):
        return str(gettext("there is nothing at this address."))
    return words.rules_message(error)
