"""Talk JSON to a live server (``scorekeeper serve`` or gunicorn) over HTTP, as a client would."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


def send(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    key: str = "",
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, Any]:
    """Send one JSON request with the session's key; return the status and the decoded answer.

    An error status is returned like any other, with its JSON body (None for an empty one).
    """
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", "Authorization": f"Bearer {key}", **(headers or {})}
    request = urllib.request.Request(base + path, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read() or b"null")
