"""Long answers, prepared only a few at a time: a long session's sheet and files, statistics.

A score sheet, chart, CSV or export takes time in proportion to the session's games (about a
second for 2,000), a group's statistics to its sessions, and a server has only so many threads:
32 exports asked at once through one view link held every thread of ``scorekeeper serve`` for
ten seconds, and another table's meld waited behind them. So each process prepares at most
``PER_SESSION`` long answers of one session or group at once, ``PER_CLIENT`` for one client
address, and ``LONG_READS_AT_ONCE`` in all (``serve`` sets it to a quarter of its threads: the
rest is always there for the tables, and Python runs one thread at a time, so each long answer
running takes a share of every other request's time). One more is refused before any of its
work, with 429 and ``Retry-After``; a client asks again a moment later. The count in all is
kept by every process serving the database together (``Slots``: gunicorn's workers, sync ones
too, which answer one request each); the counts per session and per client are each process's
own.

A script that asks again at once, without waiting for ``Retry-After``, is answered its refusal
again for those seconds without the app (``RefusalsRepeated``, in front of it): each refusal
through the app costs about 2 ms of the server, and a script of 64 connections would keep the
tables' requests queuing behind them.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from flask import Flask, current_app, g, request

try:
    import fcntl
except ImportError:  # Windows: each process counts its own
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

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


class Slots:
    """The long answers prepared at once by every process serving one database: a lock each.

    Each is a file locked with ``flock`` in a folder of the database's own (in the system's
    temporary folder), so gunicorn's workers count together; a process that dies lets its
    locks go. Where files cannot be locked (no ``fcntl``), the process counts alone.
    """

    def __init__(self, name: str) -> None:
        self.folder = Path(tempfile.gettempdir()) / f"scorekeeper-long-reads-{name}"
        self._lock = threading.Lock()
        self._running = 0

    def take(self, at_once: int) -> int | None:
        """Take a free slot of ``at_once`` and return its file, or raise ``LongReadsBusy``."""
        if fcntl is None:
            with self._lock:
                if self._running >= at_once:
                    raise LongReadsBusy()
                self._running += 1
            return None
        self.folder.mkdir(mode=0o700, exist_ok=True)
        for number in range(at_once):
            held = os.open(self.folder / f"slot-{number}", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(held)
                continue
            return held
        raise LongReadsBusy()

    def give_back(self, held: int | None) -> None:
        """Let another long answer take the slot."""
        if held is None:
            with self._lock:
                self._running -= 1
            return
        os.close(held)  # closing the file lets its lock go


class LongReads:
    """How many long answers are prepared now: per session or group and client (this
    process), and in all (every process serving the database, ``Slots``)."""

    def __init__(self, name: str) -> None:
        self._lock = threading.Lock()
        self._scopes: Counter[str] = Counter()
        self._clients: Counter[str] = Counter()
        self.slots = Slots(name)

    def admit(self, client: str, at_once: int) -> int | None:
        """Count a long answer for a client and in all, or refuse it (``LongReadsBusy``).

        Returns the slot taken, for ``leave``.
        """
        with self._lock:
            if self._clients[client] >= PER_CLIENT:
                raise LongReadsBusy()
            self._clients[client] += 1
        try:
            return self.slots.take(at_once)
        except BaseException:
            self._let_client_go(client)
            raise

    def leave(self, client: str, held: int | None) -> None:
        """Stop counting a long answer admitted for a client."""
        self.slots.give_back(held)
        self._let_client_go(client)

    def _let_client_go(self, client: str) -> None:
        with self._lock:
            self._clients -= Counter({client: 1})

    @contextmanager
    def of(self, scope: str) -> Iterator[None]:
        """Count an admitted long answer for its session or group while it is prepared."""
        with self._lock:
            if self._scopes[scope] >= PER_SESSION:
                raise LongReadsBusy()
            self._scopes[scope] += 1
        try:
            yield
        finally:
            with self._lock:
                self._scopes -= Counter({scope: 1})

    @contextmanager
    def preparing(self, scope: str, client: str, at_once: int) -> Iterator[None]:
        """Count a long answer of a scope for a client while it is prepared, or refuse it."""
        held = self.admit(client, at_once)
        try:
            with self.of(scope):
                yield
        finally:
            self.leave(client, held)


def register(app: Flask) -> None:
    """Give the app its count of long answers, and let a request's count go when it ends.

    The processes serving one database (and instance folder) count together.
    """
    served = f"{app.instance_path}\n{app.config['SQLALCHEMY_DATABASE_URI']}"
    app.extensions["long_reads"] = LongReads(hashlib.sha256(served.encode()).hexdigest()[:16])
    app.teardown_request(_let_go)


def _reads() -> tuple[LongReads, str, int]:
    reads: LongReads = current_app.extensions["long_reads"]
    at_once = max(1, int(current_app.config.get("LONG_READS_AT_ONCE", AT_ONCE)))
    # The address ProxyFix believed (PROXIES): behind a proxy without it, every phone is one.
    return reads, request.remote_addr or "", at_once


def admit_first() -> None:
    """Count a request for a long answer for its client and in all, before its key is read.

    A request hook: a script asking again and again is refused before anything of the session
    is read, at the least cost. Which session it asks for is counted after its key opened it
    (``long_answer``), so that a refusal says nothing about a session to a client without a key.
    """
    view = current_app.view_functions.get(request.endpoint or "")
    if not getattr(view, "long_answer", False):
        return
    reads, client, at_once = _reads()
    g.long_read_slot = reads.admit(client, at_once)
    g.long_read_client = client


def _let_go(_error: BaseException | None) -> None:
    client = g.pop("long_read_client", None)
    if client is not None:
        current_app.extensions["long_reads"].leave(client, g.pop("long_read_slot", None))


@contextmanager
def long_read(kind: str, public_id: str) -> Iterator[None]:
    """Prepare a long answer of a session or group, or raise ``LongReadsBusy``.

    ``kind`` is ``session`` or ``group``. A request ``admit_first`` counted already is counted
    for its session or group alone.
    """
    reads, client, at_once = _reads()
    scope = f"{kind}:{public_id}"
    if g.get("long_read_client") is not None:
        with reads.of(scope):
            yield
        return
    with reads.preparing(scope, client, at_once):
        yield


def long_answer(kind: str, arg: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Make a view a long answer of the session or group (``kind``) its ``arg`` names."""

    def decorate(view: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(view)
        def prepared(*args: P.args, **kwargs: P.kwargs) -> R:
            with long_read(kind, str(kwargs[arg])):
                return view(*args, **kwargs)

        prepared.long_answer = True  # type: ignore[attr-defined]
        return prepared

    return decorate


# The refusals remembered at most, past which the expired ones are let go.
REMEMBERED = 1024


class RefusalsRepeated:
    """WSGI in front of the app: a GET answered 429 is answered so again for ``Retry-After``.

    By the client's address and the path: the same script asking the same address again before
    the seconds it was told to wait gets the same answer at once, the app never asked, without
    the cookie the app may have set. A request with a query (a link's key) always goes to the
    app. It sits behind ProxyFix, so the address is the one the proxies forwarded (``PROXIES``).
    """

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._refused: dict[tuple[str, str], tuple[float, str, list[tuple[str, str]], bytes]] = {}

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Answer a refusal again while it holds; otherwise ask the app, and keep its refusal."""
        # A query may hold a key (a view link): such a request is never answered for another.
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or environ.get("QUERY_STRING"):
            return self.app(environ, start_response)
        asked = (str(environ.get("REMOTE_ADDR", "")), str(environ.get("PATH_INFO", "")))
        kept = self._refused.get(asked)
        if kept is not None and kept[0] > time.monotonic():
            _until, status, headers, body = kept
            start_response(status, headers)
            return [body]
        answered: dict[str, Any] = {}

        def seen(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered.update(status=status, headers=headers)
            return start_response(status, headers, exc_info)

        result = self.app(environ, seen)
        retry = dict(answered.get("headers", [])).get("Retry-After", "")
        if not str(answered.get("status", "")).startswith("429") or not retry.isdecimal():
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        self._remember(asked, int(retry), answered["status"], answered["headers"], body)
        return [body]

    def _remember(
        self, asked: tuple[str, str], seconds: int, status: str, headers: Any, body: bytes
    ) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self._refused) >= REMEMBERED:
                for key in [key for key, kept in self._refused.items() if kept[0] <= now]:
                    del self._refused[key]
            if len(self._refused) < REMEMBERED:
                # Phones behind one address share it: none gets another's cookie.
                kept = [(name, value) for name, value in headers if name.lower() != "set-cookie"]
                self._refused[asked] = (now + seconds, status, kept, body)


def repeat_refusals(app: Flask) -> None:
    """Put ``RefusalsRepeated`` in front of the app (before ProxyFix goes in front of both)."""
    app.wsgi_app = RefusalsRepeated(app.wsgi_app)  # type: ignore[method-assign]
