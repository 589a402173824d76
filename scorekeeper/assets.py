"""Static files with a fingerprint in their URL, cached for a year; compressed answers."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask, Response, request

ONE_YEAR = 365 * 24 * 60 * 60
COMPRESSED_TYPES = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
]


def register(app: Flask) -> None:
    """Fingerprint static URLs (``?v=<hash>``) and let fingerprinted files be cached for good."""
    from flask_compress import Compress

    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    Compress(app)
    fingerprints: dict[str, tuple[float, str]] = {}

    @app.url_defaults
    def _fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint != "static" or "filename" not in values or "v" in values:
            return
        path = Path(app.static_folder or "") / values["filename"]
        try:
            changed = path.stat().st_mtime
        except OSError:
            return
        known = fingerprints.get(values["filename"])
        if known is None or known[0] != changed:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            known = fingerprints[values["filename"]] = (changed, digest)
        values["v"] = known[1]

    @app.after_request
    def _cache_fingerprinted(response: Response) -> Response:
        fingerprinted = request.endpoint == "static" and request.args.get("v")
        if fingerprinted and response.status_code in (200, 304):
            # Replaces Flask's "no-cache", which would make the browser ask again every time.
            response.headers["Cache-Control"] = f"public, max-age={ONE_YEAR}, immutable"
        return response
