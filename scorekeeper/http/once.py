"""A request applied once per key: a repeat is given the first answer, not applied again.

The API's ``Idempotency-Key`` (``api.idempotency``) and the pages' one-time form tokens
(``web.once``) both answer through ``apply_once``. The record of a key is written in the same
transaction as the change the request makes (just before its commit, ``store.records``), so a
change and its record stand or fall together. A repeat that arrives while the first request is
still answering waits for that answer; two at the same moment are put in line by the database
(SQLite's write lock, PostgreSQL's advisory lock). Records are kept for at least a day
(``KEPT_FOR``) and deleted with a later answer: a retry comes within minutes, and the first
answer to a new session holds its keys, which should not outlive that need.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from flask import g, has_request_context, request
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import store

WAIT_SECONDS = 10.0
# A record this old without its answer belongs to a request that stopped between its change and
# its answer. Several app hosts on one database must agree on the time to well within this.
LOST_AFTER = timedelta(minutes=1)
KEPT_FOR = timedelta(days=1)
# Every FORGET_EVERY-th answer a process remembers also deletes at most FORGET_AT_ONCE old
# records, the oldest first: the housekeeping costs a transaction of its own, so it is not paid
# on every request, yet it keeps up (500 per 50 answers).
FORGET_EVERY = 50
FORGET_AT_ONCE = 500
_answers_remembered = itertools.count(1)
log = logging.getLogger(__name__)

HEADER = "Idempotency-Key"


class IdempotencyError(ValueError):
    """The key is unusable, or was used for another request (422)."""


class StillAnswering(Exception):
    """The first request with this key has not answered in time (409)."""


class AnswerLost(StillAnswering):
    """The first request with this key was applied, but its answer was never stored (409).

    The record is written with the change and the answer just after; a record without an
    answer long after its change means the process stopped in between.
    """


def apply_once(
    key: str,
    answer: Callable[[], BaseResponse],
    replay: Callable[[store.RecordRow], BaseResponse],
    remember: Callable[[BaseResponse], str] = lambda response: response.get_data(as_text=True),
    content: bytes | None = None,
) -> BaseResponse:
    """Answer a request with this key once; repeats get ``replay`` of what was remembered.

    ``key`` is stored as given: the API passes its ``stored_key``, scoped to endpoint and
    caller. The fingerprint of the request (method, path and ``content``, the body unless
    given) is kept with the key: the same key on another request is refused.
    """
    if content is None:
        content = request.get_data()
    fingerprint = hashlib.sha256(
        request.method.encode() + request.path.encode() + b"\n" + content
    ).hexdigest()
    records = store.unit_of_work().records
    records.queue_behind(key)
    if records.find(key) is not None:
        return replay(_answered(key, fingerprint))
    g.idempotency = {"key": key, "request": fingerprint, "written": False}
    try:
        response = answer()
    finally:
        pending = g.pop("idempotency", None)
    if pending and pending["written"]:
        # The change is saved: answer it. A repeat is told that its answer was lost.
        if not records.answer(key, response.status_code, remember(response)):
            log.warning("The answer to %s %s was not remembered.", request.method, request.path)
        elif next(_answers_remembered) % FORGET_EVERY == 0:
            # Whoever remembers an answer tidies up: no job to run.
            records.forget_older_than(_now() - KEPT_FOR, FORGET_AT_ONCE)
    return response


def _answered(key: str, fingerprint: str) -> store.RecordRow:
    """Wait for the first request with this key to answer, and return what it remembered."""
    records = store.unit_of_work().records
    deadline = time.monotonic() + WAIT_SECONDS
    first_look = True
    while True:
        record = records.find(key)
        if record is not None and record.request != fingerprint:
            raise IdempotencyError(
                _l("This %(header)s was used for another request already.", header=HEADER)
            )
        if record is not None and record.status is not None:
            store.rollback()
            return record
        if first_look and record is not None and _age(record.created_at) > LOST_AFTER:
            # A live request answers within seconds of its change (at worst it waits for the
            # write lock, WAIT_SECONDS): this one stopped in between. Say so at once instead
            # of keeping a worker thread waiting.
            raise AnswerLost()
        first_look = False
        store.rollback()  # let the first request write its answer
        if time.monotonic() > deadline:
            raise StillAnswering()
        time.sleep(0.05)


def _age(created_at: datetime) -> timedelta:
    # Only UTC times are written; SQLite gives them back without their zone.
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=UTC)
    return _now() - created_at


def _now() -> datetime:
    return datetime.now(UTC)


def _pending() -> store.Pending | None:
    """Return the record the request in progress writes with its change, if not written yet."""
    if not has_request_context():
        return None
    pending = g.get("idempotency")
    if pending is None or pending["written"]:
        return None
    return store.Pending(pending["key"], pending["request"])


def _written(written: bool) -> None:
    """Note whether the request's record is in the database now (a rollback takes it out)."""
    if has_request_context():
        pending = g.get("idempotency")
        if pending is not None:
            pending["written"] = written


store.write_with_each_change(_pending, _written)
