"""Security headers on every answer: a strict Content-Security-Policy, no sniffing, no framing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

# Everything comes from this server; no inline script or style (the pages have none). The
# service worker (/sw.js) is this server's too: said on its own, not left to default-src.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "worker-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# A cookie signed this recently is not signed anew with a page: its 400 days barely moved, and
# signing took a twentieth of the session page's time.
RENEWED_WITHIN = timedelta(hours=1)
# The endpoint a session page asks every few seconds (static/js/live.js).
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
        """Open the cookie's session for a page; give API requests an empty, read-only one.

        The session remembers when its cookie was signed (``signed_at``), as Flask's does not.
        """
        if request.path.startswith("/api/"):
            return self.make_null_session(app)
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        lifetime = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed_at = serializer.loads(cookie, max_age=lifetime, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed_at  # type: ignore[attr-defined]
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """Renew the cookie with a page when it was signed over an hour ago, unless it changed.

        Not with a watching phone's question: a phone on a session page asks every 2 s whether
        anything changed, and signing the cookie anew cost a third of an unchanged answer.
        """
        if not session.modified:
            if request.endpoint == WATCHING_PHONES_QUESTION:
                return False
            signed_at: datetime | None = getattr(session, "signed_at", None)
            if signed_at is not None and datetime.now(UTC) - signed_at < RENEWED_WITHIN:
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
