"""What every page shares: template filters and globals, the layout's values, the request hooks."""

from __future__ import annotations

from typing import Any

from flask import g, request, url_for
from flask_babel import format_decimal, get_locale
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import long_reads
from scorekeeper.web import access, playing_cards, view_models, words
from scorekeeper.web.blueprint import bp
from scorekeeper.web.forms import hidden_fields
from scorekeeper.web.offline import KEPT_PAGES
from scorekeeper.web.once import new_token

# Before the keys: a page that is a long answer is counted (or refused) at the least cost.
bp.before_request(long_reads.admit_first)
bp.before_request(access.let_in)
bp.before_request(access.let_into_group)
bp.before_request(access.let_into_evening)


@bp.after_request
def _keys_stay_out_of_caches(response: BaseResponse) -> BaseResponse:
    """Keep out of caches every page that was read with a key or may show one.

    A key in the address, a page a key opened, and any page of a browser whose cookie holds
    keys (its start page lists their sessions; an error page may answer a keyed address).
    """
    if (
        g.get("no_store")
        or g.get("access") is not None
        or "key" in request.args
        or access.held_keys()
        or access.held_keys(access.GROUP_KEYS)
    ):
        response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_filter("suits")
def _suits(text: object) -> Any:
    return playing_cards.suits(text)


bp.add_app_template_filter(access.qr_code, "qr_code")
bp.add_app_template_global(new_token, "once_token")  # a global: imported macros see it
bp.add_app_template_global(hidden_fields, "hidden_fields")
bp.add_app_template_global(playing_cards.rank_letters, "rank_letters")  # for the imported parts too
bp.add_app_template_filter(words.hhmm, "hhmm")
bp.add_app_template_filter(words.day_and_time, "day_and_time")
bp.add_app_template_filter(words.points, "points")
bp.add_app_template_filter(words.signed, "signed")
bp.add_app_template_filter(words.session_end, "session_end")
bp.add_app_template_filter(words.meld_kind, "meld_kind")
bp.add_app_template_filter(view_models.entry_cards, "entry_cards")
bp.add_app_template_filter(view_models.entry_cards_label, "entry_cards_label")
bp.add_app_template_filter(playing_cards.cards_label, "cards_label")
bp.add_app_template_filter(words.bdi, "bdi")
bp.add_app_template_filter(words.message_text, "message_text")
bp.add_app_template_filter(words.message_html, "message_html")
bp.record_once(lambda state: state.app.jinja_env.globals.update(kept_pages=KEPT_PAGES))


@bp.app_context_processor
def _layout() -> dict[str, Any]:
    return {
        "current_language": str(get_locale() or "en"),
        "here": _here(),
        "can_edit": access.can_edit(),
    }


def _here() -> str:
    """Return the page to come back to after switching the language."""
    if request.method == "GET":
        query = request.query_string.decode()
        return request.path + (f"?{query}" if query else "")
    if g.get("public_id") is not None:
        return url_for("web.session_page", public_id=g.public_id)
    if g.get("group") is not None:
        return url_for("web.group_page", group_id=g.group.public_id)
    return url_for("web.home")


def _average(value: float | None) -> str:
    """Return points per game with one decimal in the page's language (``40,5`` in German)."""
    if value is None:
        return "–"
    return str(format_decimal(value, "#,##0.0"))


bp.add_app_template_filter(_average, "average")
