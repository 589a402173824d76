"""The JSON body of an API request: declared as JSON, and parsed once however often asked for."""

from __future__ import annotations

import json
from typing import Any

from flask import g, request
from werkzeug.exceptions import UnsupportedMediaType

JSON = "application/json"
_UNREADABLE = object()
_NOT_UNICODE = object()


class NotUnicodeError(ValueError):
    """The body is JSON, but holds text that is no Unicode (a lone surrogate such as \\ud800)."""


def require_json() -> None:
    """Refuse a request whose body is not declared ``application/json`` (415).

    A charset parameter is fine, and case does not matter. What a web page of another site can
    send without asking (a "simple" request: ``text/plain``, a form, a multipart upload) is
    never JSON, so it is refused before it is read. A request with neither a Content-Type nor
    a body declares nothing and passes: a DELETE, an undo; where a body is needed, the view
    says it is missing (400).
    """
    if request.mimetype == JSON:
        return
    if not request.headers.get("Content-Type") and not _has_body():
        return
    raise UnsupportedMediaType()


def _has_body() -> bool:
    """Say whether the request has a body, without reading more of it than one byte.

    A byte read is lost to the view, but then the request is refused anyway.
    """
    if request.content_length is not None:
        return request.content_length > 0
    return bool(request.stream.read(1))  # sent in chunks: look


def json_body() -> Any:
    """Return the body parsed as JSON; raise ``ValueError`` when it is not JSON.

    The content type was checked before (``require_json``). ``null`` is JSON: it comes back as
    None.
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
