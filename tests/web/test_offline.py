"""Offline at the table, the server's half: the service worker at the root, a fresh CSRF token."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient


def test_the_service_worker_is_served_from_the_root_with_the_apps_fingerprinted_files(
    client: FlaskClient,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] in ("no-cache", "no-store")
    assert "worker-src 'self'" in answer.headers["Content-Security-Policy"]
    worker = answer.get_data(as_text=True)
    first = worker.splitlines()[0]
    assets = re.findall(r'"(/static/[^"]+)"', first)
    # Every file the pages load, each with its fingerprint; not the worker itself.
    page = client.get("/").get_data(as_text=True)
    for loaded in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        assert loaded in assets
    assert all(re.fullmatch(r"/static/[\w.-]+\?v=[0-9a-f]{12}", asset) for asset in assets)
    assert not any("sw.js" in asset for asset in assets)
    # Every page registers it.
    assert 'data-worker="/sw.js"' in page


def test_a_fresh_csrf_token_lets_a_form_kept_past_its_hour_be_sent(
    app_with: Callable[..., Flask],
) -> None:
    client = app_with(WTF_CSRF_ENABLED=True).test_client()
    forget = "/sessions/AAAAAAAAAAAAAAAAAAAAAA/forget"
    assert client.post(forget, data={"csrf_token": "expired"}).status_code == 400
    answer = client.get("/csrf-token")
    assert answer.headers["Cache-Control"] == "no-store"
    token = answer.get_json()["csrf_token"]
    assert client.post(forget, data={"csrf_token": token}).status_code == 302
