"""``Idempotency-Key``: a POST sent again with the same key is answered, not applied, again.

The record of a key is written in the same transaction as the change the request makes (a
``before_commit`` hook), so a change and its record stand or fall together. A repeat that
arrives while the first request is still answering waits for that answer; two at the same
moment are put in line by the database (SQLite's write lock, PostgreSQL's advisory lock).
Records are kept for at least a day (``KEPT_FOR``) and deleted with a later answer: a retry comes
within minutes, and the first answer to a new session holds its keys, which should not outlive
that need.

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
import itertools
import json
import logging
import string
import time
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Response, g, has_request_context, make_response, request
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.api.body import json_body
from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyRecord, utcnow

HEADER = "Idempotency-Key"
LONGEST_KEY = 200
# The caller of a request that no session key let in (creating a session).
ANONYMOUS = "anonymous"
# What a key without a caller must look like to hold at least 128 random bits (``is_secret``).
_HEX_DIGITS = frozenset(string.hexdigits)
_BASE64URL = frozenset(string.ascii_letters + string.digits + "-_")
SECRET_HEX_DIGITS = 32  # 4 bits each: a UUID's 32
SECRET_BASE64URL = 22  # 6 bits each: what secrets.token_urlsafe(16) makes
SECRET_DIFFERENT = 6  # not one character repeated, nor the nil UUID
WAIT_SECONDS = 10.0
# A record this old without its answer belongs to a request that stopped between its change and
# its answer. Several app hosts on one database must agree on the time to well within this.
LOST_AFTER = timedelta(minutes=1)
KEPT_FOR = timedelta(days=1)
# Every FORGET_EVERY-th answer a process remembers also deletes at most FORGET_AT_ONCE old
# records, the oldest first: the housekeeping costs a transaction of its own, so it is not paid
# on every request, yet it keeps up (500 per 50 answers). Rows that another request is deleting
# are skipped (PostgreSQL), so nobody waits for it.
FORGET_EVERY = 50
FORGET_AT_ONCE = 500
_answers_remembered = itertools.count(1)

_records = IdempotencyRecord.__table__
_FORGET_OLD = sa.delete(_records).where(
    _records.c.id.in_(
        sa.select(_records.c.id)
        .where(_records.c.created_at < sa.bindparam("before"))
        .order_by(_records.c.created_at)
        .limit(sa.bindparam("at_once"))
        .with_for_update(skip_locked=True)
    )
)
log = logging.getLogger(__name__)


class IdempotencyError(ValueError):
    """The key is unusable, or was used for another request (422)."""


class StillAnswering(Exception):
    """The first request with this key has not answered in time (409)."""


class AnswerLost(StillAnswering):
    """The first request with this key was applied, but its answer was never stored (409).

    The record is written with the change and the answer just after; a record without an
    answer long after its change means the process stopped in between.
    """


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


def apply_once(
    key: str,
    answer: Callable[[], BaseResponse],
    replay: Callable[[IdempotencyRecord], BaseResponse],
    remember: Callable[[BaseResponse], str] = lambda response: response.get_data(as_text=True),
    content: bytes | None = None,
) -> BaseResponse:
    """Answer a request with this key once; repeats get ``replay`` of what was remembered.

    ``key`` is stored as given: the API passes ``stored_key``, scoped to endpoint and caller.
    The fingerprint of the request (method, path and ``content``, the body unless given) is
    kept with the key: the same key on another request is refused.
    """
    if content is None:
        content = request.get_data()
    fingerprint = hashlib.sha256(
        request.method.encode() + request.path.encode() + b"\n" + content
    ).hexdigest()
    _queue_behind_same_key(key)
    if _record(key) is not None:
        return replay(_answered(key, fingerprint))
    g.idempotency = {"key": key, "request": fingerprint, "written": False}
    try:
        response = answer()
    finally:
        pending = g.pop("idempotency", None)
    if pending and pending["written"]:
        try:
            _remember(key, response, remember(response))
        except sa.exc.SQLAlchemyError:
            # The change is saved: answer it. A repeat is told that its answer was lost.
            db.session.rollback()
            log.warning("The answer to %s %s was not remembered.", request.method, request.path)
    return response


def _queue_behind_same_key(key: str) -> None:
    """On PostgreSQL, hold a lock on the key until this transaction ends."""
    if db.session.get_bind().dialect.name == "postgresql":
        number = zlib.crc32(key.encode()) - 2**31
        db.session.execute(sa.select(sa.func.pg_advisory_xact_lock(number)))
    # SQLite: every transaction already holds the write lock from its start (database.py).


def _record(key: str) -> IdempotencyRecord | None:
    return db.session.scalar(sa.select(IdempotencyRecord).where(IdempotencyRecord.key == key))


def _answered(key: str, fingerprint: str) -> IdempotencyRecord:
    """Wait for the first request with this key to answer, and return what it remembered."""
    deadline = time.monotonic() + WAIT_SECONDS
    first_look = True
    while True:
        record = _record(key)
        if record is not None and record.request != fingerprint:
            raise IdempotencyError(
                _l("This %(header)s was used for another request already.", header=HEADER)
            )
        if record is not None and record.status is not None:
            db.session.rollback()
            return record
        if first_look and record is not None and _age(record.created_at) > LOST_AFTER:
            # A live request answers within seconds of its change (at worst it waits for the
            # write lock, WAIT_SECONDS): this one stopped in between. Say so at once instead
            # of keeping a worker thread waiting.
            raise AnswerLost()
        first_look = False
        db.session.rollback()  # let the first request write its answer
        if time.monotonic() > deadline:
            raise StillAnswering()
        time.sleep(0.05)


def _age(created_at: datetime) -> timedelta:
    # Only UTC times are written (models.utcnow); SQLite gives them back without their zone.
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=UTC)
    return utcnow() - created_at


def _json_answer(record: IdempotencyRecord) -> Response:
    replayed = Response(record.body, status=record.status, mimetype="application/json")
    replayed.headers["Idempotent-Replayed"] = "true"
    return replayed


def _remember(key: str, response: BaseResponse, body: str) -> None:
    db.session.execute(
        sa.update(IdempotencyRecord)
        .where(IdempotencyRecord.key == key)
        .values(status=response.status_code, body=body)
    )
    db.session.commit()
    if next(_answers_remembered) % FORGET_EVERY == 0:
        _forget_old_records()


def _forget_old_records() -> None:
    """Delete records older than a day: whoever remembers an answer tidies up, no job to run."""
    try:
        db.session.execute(_FORGET_OLD, {"before": utcnow() - KEPT_FOR, "at_once": FORGET_AT_ONCE})
        db.session.commit()
    except sa.exc.SQLAlchemyError:
        # The change and its answer are stored already; the next answer tries again.
        db.session.rollback()
        log.warning("Old idempotency records were not deleted this time.", exc_info=True)


@sa.event.listens_for(so.Session, "before_commit")
def _write_record_with_the_change(session: so.Session) -> None:
    if not has_request_context():
        return
    pending = g.get("idempotency")
    if pending is None or pending["written"]:
        return
    session.add(IdempotencyRecord(key=pending["key"], request=pending["request"]))
    pending["written"] = True


@sa.event.listens_for(so.Session, "after_rollback")
def _forget_record_on_rollback(session: so.Session) -> None:
    if has_request_context():
        pending = g.get("idempotency")
        if pending is not None:
            pending["written"] = False
