"""Language choice: German or English, from a cookie the switch sets, else the browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import request
from flask_babel import get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

LANGUAGES = ("de", "en")
LANGUAGE_COOKIE = "language"


def select_locale() -> str:
    """Return the language to answer in: the chosen one, else the browser's best match."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def template_words() -> dict[str, Any]:
    """Give a template the gettext and ngettext of the request's catalogue, looked up once.

    Flask-Babel's template functions look the catalogue up through the request context on
    every call (about 18 µs each, a millisecond on the game page); these are bound to it once
    per page and say the same: a message is a format string, escaped where the page is.
    """
    translations = get_translations()
    return {
        "gettext": _bound_gettext(translations.ugettext),
        "ngettext": _bound_ngettext(translations.ungettext),
    }


def _bound_gettext(translate: Callable[[str], str]) -> Callable[..., str]:
    @pass_context
    def gettext(context: Context, message: str, /, **values: Any) -> str:
        translated = translate(message)
        if context.eval_ctx.autoescape:
            translated = Markup(translated)
        return translated % values

    return gettext


def _bound_ngettext(translate: Callable[[str, str, int], str]) -> Callable[..., str]:
    @pass_context
    def ngettext(context: Context, singular: str, plural: str, num: int, /, **values: Any) -> str:
        values.setdefault("num", num)
        translated = translate(singular, plural, num)
        if context.eval_ctx.autoescape:
            translated = Markup(translated)
        return translated % values

    return ngettext
