"""``Idempotency-Key``: a POST sent again with the same key is answered, not applied, again.

Answered once through ``http.once.apply_once``, as the pages' form tokens are: the record of a
key is written in the transaction of the change, a repeat waits for the first answer.

A key is the caller's own, for one endpoint: what is stored is a SHA-256 of the endpoint, the
digest of the session key that let the request in, and the ``Idempotency-Key`` (``stored_key``).
So one session's ``meld-1`` is not another's, and nobody without a session's key can replay an
answer about it. Creating a session needs no key: every caller of it is "anonymous", and the
``Idempotency-Key`` is all that tells one caller's request from another's, so there it must be a
secret nobody can guess (``is_secret``: at least 128 bits), or a stranger who sent the same key
and body would be given the first caller's edit key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import string
from collections.abc import Callable
from typing import Any

from flask import Response, g, make_response, request
from flask_babel import lazy_gettext as _l

from scorekeeper import store
from scorekeeper.api.body import json_body
from scorekeeper.http.once import (
    HEADER,
    AnswerLost,
    IdempotencyError,
    StillAnswering,
    apply_once,
)

__all__ = [
    "HEADER",
    "AnswerLost",
    "IdempotencyError",
    "StillAnswering",
    "idempotent",
    "is_secret",
    "scope_to_caller",
    "stored_key",
]

LONGEST_KEY = 200
# The caller of a request that no session key let in (creating a session).
ANONYMOUS = "anonymous"
# What a key without a caller must look like to hold at least 128 random bits (``is_secret``).
_HEX_DIGITS = frozenset(string.hexdigits)
_BASE64URL = frozenset(string.ascii_letters + string.digits + "-_")
SECRET_HEX_DIGITS = 32  # 4 bits each: a UUID's 32
SECRET_BASE64URL = 22  # 6 bits each: what secrets.token_urlsafe(16) makes
SECRET_DIFFERENT = 6  # not one character repeated, nor the nil UUID


def scope_to_caller(caller: str | None) -> None:
    """Say who sends this request: the digest of the session key that let it in.

    None for a request that no key let in (creating a session): its caller is ``ANONYMOUS``.
    Said for every request, so nothing of an earlier one's is left where an app context is
    shared (tests).
    """
    g.idempotency_caller = caller


def stored_key(endpoint: str, caller: str, key: str) -> str:
    """Return what is stored of an ``Idempotency-Key``: a SHA-256 of its scope and itself.

    64 hex digits, whatever the key's length: the column keeps its size, and the key, which
    may be the only secret of an anonymous request, is not stored as it came.
    """
    parts = json.dumps([endpoint, caller, key], ensure_ascii=False)
    return hashlib.sha256(parts.encode(errors="surrogatepass")).hexdigest()


def is_secret(key: str) -> bool:
    """Say whether a key has the form of at least 128 random bits.

    That is a UUID or 32 hexadecimal digits (hyphens anywhere), or 22 characters of base64url
    (letters, digits, ``-`` and ``_``; ``=`` padding at the end is not counted), with at least
    6 different characters. A key of hexadecimal digits alone needs 32 of them.

    >>> [is_secret(k) for k in ("order-42", "00000000-0000-0000-0000-000000000000")]
    [False, False]
    >>> is_secret("0b8a5f0e-3c1e-4f7a-9d62-5c1f7e2b9a44"), is_secret("k3Jx9_QmZ-a1Bv7TwP0sYe")
    (True, True)
    """
    digits = key.replace("-", "")
    if digits and set(digits) <= _HEX_DIGITS:
        return len(digits) >= SECRET_HEX_DIGITS and len(set(digits.lower())) >= SECRET_DIFFERENT
    text = key.rstrip("=")
    return (
        len(text) >= SECRET_BASE64URL
        and set(text) <= _BASE64URL
        and len(set(text)) >= SECRET_DIFFERENT
    )


NOT_A_SECRET = _l(
    "An Idempotency-Key for a new session must be a secret nobody can guess, of at least 128 "
    "random bits: a UUID, 32 hexadecimal digits or 22 characters of base64url."
)


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """Apply a POST once per ``Idempotency-Key`` and give the first answer to every repeat.

    A key counts for its caller (``scope_to_caller``) and the endpoint only.
    """

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        key = request.headers.get(HEADER)
        if key is None:
            return view(*args, **kwargs)
        if not 1 <= len(key) <= LONGEST_KEY or not key.isprintable():
            raise IdempotencyError(
                _l(
                    "%(header)s must be 1 to %(longest)s printable characters, e.g. a UUID.",
                    header=HEADER,
                    longest=LONGEST_KEY,
                )
            )
        caller = g.get("idempotency_caller")
        if caller is None:
            caller = ANONYMOUS
            if not is_secret(key):
                if not _readable_body():
                    # Refused for its body, as without the key (400 or 422): nothing to apply,
                    # nothing to remember. The body is what is wrong first.
                    return view(*args, **kwargs)
                raise IdempotencyError(NOT_A_SECRET)
        return apply_once(
            stored_key(request.endpoint or request.path, caller, key),
            lambda: make_response(view(*args, **kwargs)),
            _json_answer,
            content=_canonical_body(),
        )

    return run


def _readable_body() -> bool:
    """Say whether the body is JSON that can be stored (every request without a caller has one)."""
    try:
        json_body()
    except ValueError:
        return False
    return True


def _canonical_body() -> bytes:
    """Return a JSON body in one form (keys sorted, no spaces), other bodies as they came.

    A client that retries may write the same JSON anew, its keys in another order.
    """
    try:
        parsed = json_body()
    except ValueError:
        return request.get_data()
    return json.dumps(parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _json_answer(record: store.RecordRow) -> Response:
    replayed = Response(record.body, status=record.status, mimetype="application/json")
    replayed.headers["Idempotent-Replayed"] = "true"
    return replayed
