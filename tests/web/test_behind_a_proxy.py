"""Behind a reverse proxy that ends HTTPS, share links name the address the phones use."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper import create_app
from scorekeeper.web import access
from tests.pageforms import links, start_in_browser

FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "rommee.example.org",
    "X-Forwarded-For": "203.0.113.7",
    # Proxies often pass these through from the client: never believed.
    "X-Forwarded-Prefix": "//elsewhere.example",
    "X-Forwarded-Port": "8443",
}


def session_page_through_the_proxy(app: Flask) -> str:
    """Start a session with every request carrying the proxy's headers; return its page."""
    browser = app.test_client()
    browser.environ_base.update(
        {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in FORWARDED.items()}
    )
    return browser.get(start_in_browser(browser)).get_data(as_text=True)


def test_behind_one_proxy_the_links_and_codes_name_the_public_https_address(
    app_with: Callable[..., Flask],
) -> None:
    app = app_with(PROXIES=1)
    page = session_page_through_the_proxy(app)
    offered = links(page)
    for link in offered.values():
        assert link.startswith("https://rommee.example.org/sessions/")
    with app.test_request_context():
        for link in offered.values():
            assert str(access.qr_code(link)) in page


def test_without_proxies_set_forwarded_headers_are_not_believed(
    app_with: Callable[..., Flask],
) -> None:
    page = session_page_through_the_proxy(app_with())
    assert links(page)["edit"].startswith("http://localhost/sessions/")


@pytest.mark.parametrize("setting", ["one", "-1", "1.5", "²"])
def test_a_proxies_setting_that_is_not_a_count_stops_the_start_with_the_reason(
    setting: str,
) -> None:
    with pytest.raises(ValueError, match="PROXIES must be 0 or the number of reverse proxies"):
        create_app({"SECRET_KEY": "test", "PROXIES": setting})


def test_proxies_is_read_from_the_environment(app_from_environment: Callable[..., Flask]) -> None:
    proxied = app_from_environment(PROXIES="2").wsgi_app
    assert isinstance(proxied, ProxyFix)
    assert (proxied.x_proto, proxied.x_host, proxied.x_for) == (2, 2, 2)
