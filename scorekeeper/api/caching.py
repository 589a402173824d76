"""Answers of the API that carry keys, or were read with one, are kept in no cache.

A request with ``Authorization`` was let in by its key, so its answer shows what only that key
may see; the answer that creates a session carries the session's keys (its repeats with the
``Idempotency-Key`` too). A browser's or a proxy's cache must keep none of them.
"""

from __future__ import annotations

from flask import request
from werkzeug.wrappers import Response as BaseResponse

# The answer of this endpoint hands out the new session's keys.
HANDS_OUT_KEYS = {"api.create_session"}


def keys_stay_out_of_caches(response: BaseResponse) -> BaseResponse:
    """Say ``Cache-Control: no-store`` on an answer read with a key or carrying keys."""
    if "Authorization" in request.headers or request.endpoint in HANDS_OUT_KEYS:
        response.headers["Cache-Control"] = "no-store"
    return response
