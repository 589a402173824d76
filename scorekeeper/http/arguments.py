"""A request's query arguments as the rules core takes them (the API and the pages alike)."""

from __future__ import annotations

from flask import request


def whole_argument(name: str) -> object:
    """Return a query argument as a whole number where it is one, else as sent (None: absent).

    The rules core refuses what is not a whole number in its range in its own words.
    """
    sent = request.args.get(name, "").strip()
    if not sent:
        return None
    return int(sent) if sent.isdecimal() and len(sent) < 7 else sent
