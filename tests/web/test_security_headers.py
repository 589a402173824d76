"""Every answer carries a strict Content-Security-Policy and the other security headers."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize(
    "path", ["/", "/api/v1/openapi.json", "/no-such-page", "/static/app.css", "/sw.js"]
)
def test_every_answer_forbids_inline_code_framing_and_sniffing(
    client: FlaskClient, path: str
) -> None:
    with client.get(path) as answer:
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "worker-src 'self'" in policy
        assert "unsafe-inline" not in policy
        assert "unsafe-eval" not in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["X-Frame-Options"] == "DENY"
