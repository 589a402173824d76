"""Security headers on every answer: a strict Content-Security-Policy, no sniffing, no framing."""

from __future__ import annotations

from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin

# Everything comes from this server; no inline script or style (the pages have none).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# The endpoint a session page asks every few seconds (static/live.js).
WATCHING_PHONES_QUESTION = "web.session_version"
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


class PagesOnlySessions(SecureCookieSessionInterface):
    """Keep the signed cookie (the keys a phone holds) for the pages only.

    The API takes keys from ``Authorization`` alone, so its requests neither read the cookie
    nor spend time verifying its signature.
    """

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Open the cookie's session for a page; give API requests an empty, read-only one."""
        if request.path.startswith("/api/"):
            return self.make_null_session(app)
        return super().open_session(app, request)

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """Renew the cookie with every page, but not with a watching phone's question.

        A phone on a session page asks every 2 s whether anything changed; signing the cookie
        anew for each answer cost a third of an unchanged answer. The page renewed it.
        """
        if not session.modified and request.endpoint == WATCHING_PHONES_QUESTION:
            return False
        return super().should_set_cookie(app, session)


def register(app: Flask) -> None:
    """Add the security headers to every answer, and keep the cookie's session to the pages."""
    app.session_interface = PagesOnlySessions()

    @app.after_request
    def _secure(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
