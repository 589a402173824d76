"""The JSON body of an API request, parsed once however often it is asked for."""

from __future__ import annotations

import json
from typing import Any

from flask import g, request

_UNREADABLE = object()
_NOT_UNICODE = object()


class NotUnicodeError(ValueError):
    """The body is JSON, but holds text that is no Unicode (a lone surrogate such as \\ud800)."""


def json_body() -> Any:
    """Return the body parsed as JSON; raise ``ValueError`` when it is not JSON.

    Any content type is read, as the API always did. ``null`` is JSON: it comes back as None.
    """
    if "json_body" not in g:
        try:
            g.json_body = json.loads(request.get_data())
        except (ValueError, RecursionError):  # RecursionError: nested too deeply to decode
            g.json_body = _UNREADABLE
        else:
            # JSON may escape half a character ("\\ud800"); no database can store it.
            if not _unicode(g.json_body):
                g.json_body = _NOT_UNICODE
    if g.json_body is _UNREADABLE:
        raise ValueError("The body is not valid JSON.")
    if g.json_body is _NOT_UNICODE:
        raise NotUnicodeError("The body holds text that is not Unicode.")
    return g.json_body


def _unicode(value: Any) -> bool:
    """Tell whether every text in a parsed body (keys included) can be written as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True
