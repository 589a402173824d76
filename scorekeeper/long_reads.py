"""Long answers, prepared only a few at a time: a long session's sheet and files, statistics.

A score sheet, chart, CSV or export takes time in proportion to the session's games (about a
second for 2,000), a group's statistics to its sessions, and a server has only so many threads:
32 exports asked at once through one view link held every thread of ``scorekeeper serve`` for
ten seconds, and another table's meld waited behind them. So each process prepares at most
``PER_SESSION`` long answers of one session or group at once, ``PER_CLIENT`` for one client
address, and ``LONG_READS_AT_ONCE`` in all (``serve`` sets it to a quarter of its threads: the
rest is always there for the tables, and Python runs one thread at a time, so each long answer
running takes a share of every other request's time). One more is refused before any of its
work, with 429 and ``Retry-After``; a client asks again a moment later. The counts are the
process's own: under several gunicorn workers each worker keeps them for itself.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

from flask import current_app, request

PER_SESSION = 2
PER_CLIENT = 1
# In all, where the app's settings say nothing (gunicorn's threads are not known to the app).
AT_ONCE = 1
# Seconds a refused client is asked to wait: a long answer takes about that long.
RETRY_SECONDS = 1

P = ParamSpec("P")
R = TypeVar("R")


class LongReadsBusy(Exception):
    """As many long answers as allowed are being prepared; this one is refused before its work."""


class LongReads:
    """How many long answers this process prepares now: per session or group, client, in all."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._scopes: Counter[str] = Counter()
        self._clients: Counter[str] = Counter()
        self._running = 0

    @contextmanager
    def preparing(self, scope: str, client: str, at_once: int) -> Iterator[None]:
        """Count a long answer of a scope for a client while it is prepared, or refuse it."""
        with self._lock:
            if (
                self._running >= at_once
                or self._scopes[scope] >= PER_SESSION
                or self._clients[client] >= PER_CLIENT
            ):
                raise LongReadsBusy()
            self._running += 1
            self._scopes[scope] += 1
            self._clients[client] += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                self._scopes -= Counter({scope: 1})
                self._clients -= Counter({client: 1})


def register(app: Any) -> None:
    """Give the app its count of long answers being prepared."""
    app.extensions["long_reads"] = LongReads()


@contextmanager
def long_read(kind: str, public_id: str) -> Iterator[None]:
    """Prepare a long answer of a session or group, or raise ``LongReadsBusy``.

    ``kind`` is ``session`` or ``group``. The client is the address ProxyFix believed
    (``PROXIES``): behind a proxy without it, every phone counts as the proxy.
    """
    reads: LongReads = current_app.extensions["long_reads"]
    at_once = int(current_app.config.get("LONG_READS_AT_ONCE", AT_ONCE))
    client = request.remote_addr or ""
    with reads.preparing(f"{kind}:{public_id}", client, max(1, at_once)):
        yield


def long_answer(kind: str, arg: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Make a view a long answer of the session or group (``kind``) its ``arg`` names."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(view)
        def prepared(*args: P.args, **kwargs: P.kwargs) -> R:
            with long_read(kind, str(kwargs[arg])):
                return view(*args, **kwargs)

        return prepared

    return decorate
