"""The JSON body of an API request, parsed once however often it is asked for."""

from __future__ import annotations

import json
from typing import Any

from flask import g, request

_UNREADABLE = object()


def json_body() -> Any:
    """Return the body parsed as JSON; raise ``ValueError`` when it is not JSON.

    Any content type is read, as the API always did. ``null`` is JSON: it comes back as None.
    """
    if "json_body" not in g:
        try:
            g.json_body = json.loads(request.get_data())
        except (ValueError, RecursionError):  # RecursionError: nested too deeply to decode
            g.json_body = _UNREADABLE
    if g.json_body is _UNREADABLE:
        raise ValueError("The body is not valid JSON.")
    return g.json_body
