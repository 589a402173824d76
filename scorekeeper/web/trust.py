"""The table's secure address: the trust page, its downloads, and the links that name it.

``scorekeeper serve`` tells the app where it speaks HTTPS (``HTTPS_PORT``) and, with the
table's own certificate authority, where its certificate lies (``TABLE_CA``). The trust page
("Make this phone trust the table") gives a phone the authority in the form it installs; the
links and QR codes the pages show name the secure address, also on a page opened over plain HTTP.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import abort, current_app, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.web.blueprint import bp

if TYPE_CHECKING:
    from scorekeeper.certificates import TableAuthority

# What each platform installs: Android a certificate file (DER), iPhone a configuration profile.
CERTIFICATE_TYPE = "application/x-x509-ca-cert"
PROFILE_TYPE = "application/x-apple-aspen-config"
CERTIFICATE_FILE = "scorekeeper-table.crt"
PROFILE_FILE = "scorekeeper-table.mobileconfig"
# Browsers treat these hosts as secure contexts over plain HTTP too.
LOOPBACK_NAMES = ("localhost",)


def _authority() -> TableAuthority | None:
    """Return the table's certificate authority this server uses, if it uses one."""
    where = current_app.config.get("TABLE_CA")
    if not where:
        return None
    # Read here, not at import: the app starts without the cryptography package's load.
    from scorekeeper.certificates import CertificateError, TableAuthority, certificate_in

    path = Path(where)
    try:
        return TableAuthority(path.parent, certificate_in(path))
    except CertificateError:
        return None


def _host_name() -> str:
    """Return the host name or address the phone asked for, without its port."""
    host = urllib.parse.urlsplit("//" + request.host).hostname or ""
    return host.lower()


def secure_origin() -> str | None:
    """Return this table's secure origin for the host the phone used, when it serves HTTPS.

    Behind a proxy (``PROXIES``) the proxy's scheme and host are the public ones: None.
    """
    port = current_app.config.get("HTTPS_PORT")
    if not port or current_app.config.get("PROXIES"):
        return None
    host = _host_name()
    if ":" in host:
        host = f"[{host}]"
    return f"https://{host}" + ("" if int(port) == 443 else f":{port}")


def secure_url(path: str) -> str | None:
    """Return a path of this app at the secure address, or None when there is none."""
    origin = secure_origin()
    return None if origin is None else origin + path


def link_for(path: str) -> str | None:
    """Return the secure address of a path to hand to another phone, when it needs one.

    Not from a page on this machine's own loopback: its browser treats plain HTTP there as
    secure already, and may not trust the table's authority.
    """
    return None if _on_loopback() else secure_url(path)


def is_secure_context() -> bool:
    """Say whether the browser treats this page as a secure context (service worker and all)."""
    return request.is_secure or _on_loopback()


def _on_loopback() -> bool:
    """Say whether the page was asked for by a loopback name or address."""
    host = _host_name()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@bp.app_context_processor
def _not_secure() -> dict[str, Any]:
    """Give the pages the trust page's address where the phone has no secure context yet."""
    if not current_app.config.get("TABLE_CA") or is_secure_context():
        return {"not_secure": None}
    return {"not_secure": url_for("web.trust")}


@bp.get("/trust")
def trust() -> str:
    """Show how to make this phone trust the table: the downloads, the steps, the fingerprint."""
    authority = _authority()
    if authority is None:
        abort(404)
    secure = secure_url("/") or "/"
    fingerprint = authority.fingerprint()
    pairs = fingerprint.split(":")
    return render_template(
        "trust.html",
        secure=secure,
        fingerprint=fingerprint,
        # Eight pairs a line: the whole fits a phone's screen and is read line by line.
        fingerprint_lines=[":".join(pairs[start : start + 8]) for start in range(0, len(pairs), 8)],
        certificate_file=CERTIFICATE_FILE,
        profile_file=PROFILE_FILE,
    )


@bp.get(f"/trust/{CERTIFICATE_FILE}")
def trust_certificate() -> BaseResponse:
    """Give the table's certificate authority as a certificate file, as Android installs it."""
    authority = _authority() or abort(404)
    return _download(authority.der(), CERTIFICATE_TYPE, CERTIFICATE_FILE)


@bp.get(f"/trust/{PROFILE_FILE}")
def trust_profile() -> BaseResponse:
    """Give the table's certificate authority as a configuration profile, for an iPhone."""
    authority = _authority() or abort(404)
    profile = authority.profile(gettext("Rummy scorekeeper: this table"))
    return _download(profile, PROFILE_TYPE, PROFILE_FILE)


def _download(body: bytes, mimetype: str, name: str) -> BaseResponse:
    answer = current_app.response_class(body, mimetype=mimetype)
    answer.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    answer.headers["Cache-Control"] = "no-cache"
    return answer
