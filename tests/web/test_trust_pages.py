"""The trust page, its downloads, the line where the page is not secure, and the secure links."""

from __future__ import annotations

import plistlib
import re
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from flask import Flask
from werkzeug.test import Client, TestResponse

from scorekeeper.certificates import TableAuthority
from scorekeeper.serving import trust_address_only
from tests.pageforms import links

LAN = "http://192.168.1.20:8000"
TRUST_ADDRESS = "http://192.168.1.20:8001"
NEW_SESSION = {"names-0": "Ann", "names-1": "Bob", "target": "500"}
NOT_SECURE = {
    "en": "Offline recording works; to reopen the page offline,",
    "de": "Offline aufschreiben geht; damit die Seite auch offline wieder aufgeht,",
}
HEADING = {"en": "Make this phone trust the table", "de": "Dieses Handy dem Tisch vertrauen lassen"}


@pytest.fixture
def authority(app: Flask, tmp_path: Path) -> TableAuthority:
    """Serve the app as ``scorekeeper serve`` does with the table's own authority, on port 8000."""
    made = TableAuthority.in_folder(tmp_path / "table-ca", ["vm"])
    app.config["HTTPS_PORT"] = 8000
    app.config["TABLE_CA"] = str(made.folder / "ca.crt")
    return made


def get(app: Flask, base: str, path: str, language: str = "en", **options: Any) -> TestResponse:
    return app.test_client().get(
        path, base_url=base, headers={"Accept-Language": language}, **options
    )


def session_page(app: Flask, base: str, language: str = "en") -> str:
    """Start a session through the start page at an address; return its page."""
    client = app.test_client()
    headers = {"Accept-Language": language}
    started = client.post("/sessions", data=NEW_SESSION, base_url=base, headers=headers)
    assert started.status_code == 302, started.get_data(as_text=True)
    page = client.get(started.location, base_url=base, headers=headers)
    assert page.status_code == 200
    return page.get_data(as_text=True)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_trust_page_gives_the_secure_address_the_downloads_the_steps_and_the_fingerprint(
    app: Flask, authority: TableAuthority, language: str
) -> None:
    answer = get(app, TRUST_ADDRESS, "/trust", language)
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert HEADING[language] in page
    # The secure address is the table's port on the host the phone used, as link and QR code.
    assert 'href="https://192.168.1.20:8000/" data-secure-address' in page
    assert page.count('class="qr"') == 1
    assert 'href="/trust/scorekeeper-table.crt"' in page
    assert 'href="/trust/scorekeeper-table.mobileconfig"' in page
    for platform in ("android", "iphone"):
        steps = re.search(rf'id="{platform}".*?<ol class="steps">(.*?)</ol>', page, re.S)
        assert steps is not None
        assert 3 <= steps.group(1).count("<li>") <= 4
    fingerprint = authority.fingerprint()
    assert f'data-fingerprint="{fingerprint}"' in page
    assert fingerprint[:23] in page  # its first line, as the phone shows it


def test_the_downloads_are_the_authority_in_the_form_each_platform_installs(
    app: Flask, authority: TableAuthority
) -> None:
    android = get(app, TRUST_ADDRESS, "/trust/scorekeeper-table.crt")
    assert android.status_code == 200
    assert android.mimetype == "application/x-x509-ca-cert"
    assert "scorekeeper-table.crt" in android.headers["Content-Disposition"]
    assert x509.load_der_x509_certificate(android.data) == authority.certificate
    iphone = get(app, TRUST_ADDRESS, "/trust/scorekeeper-table.mobileconfig")
    assert iphone.status_code == 200
    assert iphone.mimetype == "application/x-apple-aspen-config"
    (root,) = plistlib.loads(iphone.data)["PayloadContent"]
    assert root["PayloadType"] == "com.apple.security.root"
    assert x509.load_der_x509_certificate(root["PayloadContent"]) == authority.certificate
    for answer in (android, iphone):
        assert b"PRIVATE KEY" not in answer.data


def test_without_the_tables_own_authority_there_is_no_trust_page(app: Flask) -> None:
    for path in ("/trust", "/trust/scorekeeper-table.crt", "/trust/scorekeeper-table.mobileconfig"):
        assert get(app, LAN, path).status_code == 404


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_session_page_over_plain_http_on_the_network_says_so_and_links_the_trust_page(
    app: Flask, authority: TableAuthority, language: str
) -> None:
    page = session_page(app, LAN, language)
    line = re.search(r'<p class="hint not-secure" data-not-secure>(.*?)</p>', page, re.S)
    assert line is not None
    assert NOT_SECURE[language] in line.group(1)
    assert '<a href="/trust">' in line.group(1)


@pytest.mark.parametrize(
    "base", ["https://192.168.1.20:8000", "http://127.0.0.1:8000", "http://localhost:8000"]
)
def test_a_secure_context_says_nothing_about_trust(
    app: Flask, authority: TableAuthority, base: str
) -> None:
    assert "data-not-secure" not in session_page(app, base)


def test_without_the_tables_own_authority_the_page_says_nothing_about_trust(app: Flask) -> None:
    assert "data-not-secure" not in session_page(app, LAN)


def test_the_share_links_name_the_secure_address_also_on_a_plain_http_page(
    app: Flask, authority: TableAuthority
) -> None:
    for link in links(session_page(app, LAN)).values():
        assert link.startswith("https://192.168.1.20:8000/sessions/"), link
    for link in links(session_page(app, "http://[fd00::7]:8000")).values():
        assert link.startswith("https://[fd00::7]:8000/sessions/"), link


def test_on_this_machines_loopback_the_share_links_stay_plain(
    app: Flask, authority: TableAuthority
) -> None:
    # Its browser treats plain HTTP there as secure, and may not trust the table's authority.
    for link in links(session_page(app, "http://127.0.0.1:8000")).values():
        assert link.startswith("http://127.0.0.1:8000/sessions/"), link


def test_over_plain_http_alone_the_share_links_stay_as_they_were(app: Flask) -> None:
    for link in links(session_page(app, LAN)).values():
        assert link.startswith(f"{LAN}/sessions/"), link


def test_the_trust_address_answers_the_trust_page_and_nothing_else(
    app: Flask, authority: TableAuthority
) -> None:
    client = Client(trust_address_only(app))
    home = client.get("/", base_url=TRUST_ADDRESS, headers={"Accept-Language": "de"})
    assert home.status_code == 200
    assert HEADING["de"] in home.get_data(as_text=True)
    for path in ("/trust/scorekeeper-table.crt", "/static/app.css", "/language/en?next=/"):
        answer = client.get(path, base_url=TRUST_ADDRESS)
        answer.close()
        assert answer.status_code in (200, 302), path
    for path in ("/sessions/abc", "/api/v1/sessions", "/sw.js", "/groups/x"):
        answer = client.get(path, base_url=TRUST_ADDRESS)
        assert answer.status_code == 303, path
        assert answer.headers["Location"] == "/"
