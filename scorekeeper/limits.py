"""How often one client address may start a session: the setting SESSION_LIMIT.

A session costs a few rows and nothing else stops a script from starting thousands. The
limit is Flask-Limiter's notation (``30 per minute``, the default) or ``off``. The counts
live in the memory of each server process: with several gunicorn workers each counts on its
own, so the limit a client meets is up to the number of workers times the setting.
"""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from flask_babel import force_locale, gettext, lazy_gettext
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from scorekeeper.rules import language_of

DEFAULT = "30 per minute"
TOO_MANY = lazy_gettext(
    "Too many sessions were started from this address: wait a minute, then try again."
)
# The views that start a session: the API's and the start page's form (which may start a
# group with it), and the API's that starts a group: a group too costs rows and nothing else.
STARTS = ("api.create_session", "web.create_session", "api.create_group")


def limit_session_starts(app: Flask) -> None:
    """Limit the requests that start a session per client address, as SESSION_LIMIT says.

    The client address is the one ProxyFix believed (PROXIES), so behind a proxy each phone
    counts, not the proxy. Each app has its own limiter: tests make many apps, and the counts
    of one must not reach another.
    """
    setting = str(app.config.get("SESSION_LIMIT", DEFAULT)).strip()
    if setting.lower() == "off":
        return
    try:
        parse_many(setting)
    except ValueError:
        raise ValueError(
            f'SESSION_LIMIT must be a rate such as "30 per minute", or "off"; not {setting!r}'
        ) from None
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri="memory://",
        headers_enabled=True,
        default_limits=[],
    )
    starts = limiter.shared_limit(setting, scope="session-starts", methods=["POST"])
    for endpoint in STARTS:
        app.view_functions[endpoint] = starts(app.view_functions[endpoint])  # type: ignore[assignment]
    app.extensions["session_limiter"] = limiter
    app.register_error_handler(429, _too_many_page)


def _too_many_page(error: Exception) -> tuple[str | Response, int]:
    """Say that too many sessions were started: the API in JSON (``?lang=de``), pages in HTML."""
    if request.path.startswith("/api/"):
        with force_locale(language_of(request.args.get("lang", "en"))):
            return jsonify(error=str(TOO_MANY)), 429
    page = render_template(
        "message.html",
        title=gettext("Too many new sessions"),
        message=str(TOO_MANY),
    )
    return page, 429
