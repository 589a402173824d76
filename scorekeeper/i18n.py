"""Language choice: German or English, from a cookie the switch sets, else the browser."""

from __future__ import annotations

from flask import request

LANGUAGES = ("de", "en")
LANGUAGE_COOKIE = "language"


def select_locale() -> str:
    """Return the language to answer in: the chosen one, else the browser's best match."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"
