"""``scorekeeper serve`` over HTTPS: one port for HTTPS and plain HTTP, and the trust address.

The main port looks at each new connection's first byte: a TLS handshake (0x16) is answered
with the table's certificate, anything else as plain HTTP, as before, so a phone that has not
trusted the table yet (a guest who only watches) is never locked out. The handshake happens in
the worker thread that serves the connection, never in the thread that accepts connections.
A second, plain-HTTP port serves only the trust page ("Make this phone trust the table").

cheroot serves both (docs/deployment.md says why it and not gunicorn; waitress speaks no TLS).
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import logging
import os
import socket
import ssl
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cheroot import server as cheroot_server
from cheroot import wsgi
from cheroot.errors import MaxSizeExceeded
from cheroot.makefile import MakeFile

from scorekeeper.certificates import Names, TableAuthority

log = logging.getLogger(__name__)

# The first byte of a TLS record that carries a handshake: a ClientHello.
TLS_HANDSHAKE = 0x16
# Names and addresses a phone reached the table by that the certificate did not name yet:
# each gets a certificate of its own (the authority's constraints permitting), kept this many.
EXTRA_NAMES = 32
# The paths the trust address answers; every other path there leads to the trust page.
TRUST_PATHS = ("/trust", "/static/", "/language/")

WSGIApp = Callable[..., Iterable[bytes]]


def server_context(certificate: Path, key: Path | None = None) -> ssl.SSLContext:
    """Return a TLS server context for a certificate (and key, when in another file)."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(certificate), None if key is None else str(key))
    return context


class TableCertificates:
    """The server certificate of the table's authority, and one for each new name a phone used.

    A phone that reaches the table by a name or address the certificate does not name (a new
    address from the router, another ``.local`` name) gets a certificate that names it too,
    signed at its first handshake, if the authority may sign for it.
    """

    def __init__(self, authority: TableAuthority, names: Names) -> None:
        self.authority = authority
        self.names = authority.permitted(names)
        self.context = server_context(authority.server_for(self.names))
        self.context.sni_callback = self._choose
        self._extra: OrderedDict[str, ssl.SSLContext] = OrderedDict()
        self._lock = threading.Lock()

    def _choose(self, connection: Any, server_name: str | None, _context: ssl.SSLContext) -> None:
        """Give a handshake the certificate for the name or address the phone asked for."""
        wanted: str | None = server_name
        if wanted is None:
            # An address has no server name in the handshake: the phone connected to it.
            with contextlib.suppress(OSError, ValueError, IndexError):
                wanted = str(ipaddress.ip_address(connection.getsockname()[0].split("%")[0]))
        if wanted is None:
            return
        extra = Names.of([wanted])
        if not (extra.dns <= self.names.dns and extra.ips <= self.names.ips):
            context = self._context_for(wanted, extra)
            if context is not None:
                connection.context = context

    def _context_for(self, wanted: str, extra: Names) -> ssl.SSLContext | None:
        with self._lock:
            if wanted in self._extra:
                self._extra.move_to_end(wanted)
                return self._extra[wanted]
            if self.authority.permitted(extra) != extra:
                return None
            certificate, key = self.authority.issue(self.names | extra)
            context = _context_in_memory(certificate, key)
            self._extra[wanted] = context
            if len(self._extra) > EXTRA_NAMES:
                self._extra.popitem(last=False)
            log.info("Made a certificate that also names %s.", wanted)
            return context


def _context_in_memory(certificate: bytes, key: bytes) -> ssl.SSLContext:
    """Return a server context for a PEM certificate and key held in memory."""
    # ssl reads certificates only from files: a private temporary one, gone at once.
    handle, name = tempfile.mkstemp(prefix="scorekeeper-tls-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(certificate + key)
        return server_context(Path(name))
    finally:
        os.unlink(name)


class EitherConnection(cheroot_server.HTTPConnection):
    """A connection that speaks TLS when its first byte starts a handshake, else plain HTTP."""

    context: ssl.SSLContext
    _decided = False

    def communicate(self) -> bool:
        """Decide TLS or plain HTTP on the first request; then read and answer requests."""
        if not self._decided:
            self._decided = True
            if not self._begin():
                return False
        return bool(super().communicate())  # type: ignore[no-untyped-call]

    def _begin(self) -> bool:
        try:
            first = self.socket.recv(1, socket.MSG_PEEK)
        except OSError:
            return False
        if not first:
            return False
        if first[0] != TLS_HANDSHAKE:
            return True
        secure = self.context.wrap_socket(
            self.socket, server_side=True, do_handshake_on_connect=False
        )
        # The plain socket is now part of the TLS one: closing the connection closes that one.
        self.socket = secure
        try:
            secure.do_handshake()
        except (OSError, ssl.SSLError) as error:
            # A phone that does not trust the table yet ends the handshake: nothing to log.
            log.debug("TLS handshake with %s failed: %s", self.remote_addr, error)
            return False
        self.rfile = MakeFile(secure, "rb", self.rbufsize)
        self.wfile = MakeFile(secure, "wb", self.wbufsize)
        self.ssl_env = {"wsgi.url_scheme": "https", "HTTPS": "on"}
        return True

    def _close_kernel_socket(self) -> None:
        """End the connection; a socket the peer already dropped is no reason to stop serving."""
        # cheroot stops the whole server on an error while closing a connection.
        with contextlib.suppress(OSError):
            super()._close_kernel_socket()  # type: ignore[misc]


def trust_address_only(app: WSGIApp) -> WSGIApp:
    """Return an app that answers only the trust page and what it needs; the root is the page."""

    def answer(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "") or "/"
        if path == "/":
            environ["PATH_INFO"] = "/trust"
        elif not path.startswith(TRUST_PATHS):
            start_response("303 See Other", [("Location", "/"), ("Content-Length", "0")])
            return [b""]
        return app(environ, start_response)

    return answer


def whole_chunked_bodies(app: WSGIApp, limit: int) -> WSGIApp:
    """Return an app that reads a chunked body whole before the app sees it, up to ``limit``.

    The app then refuses a longer one with its own 413 (as from Content-Length) instead of
    meeting cheroot's size error halfway through reading it (a 400).
    """

    def answer(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("wsgi.input_terminated") and not environ.get("CONTENT_LENGTH"):
            try:
                body = environ["wsgi.input"].read(limit + 1)
                too_long = len(body) > limit
            except (MaxSizeExceeded, OSError) as error:
                # cheroot says a chunk would pass its limit with an OSError of these words.
                if isinstance(error, OSError) and str(error) != "Request Entity Too Large":
                    raise
                body, too_long = b"", True
            environ["CONTENT_LENGTH"] = str(limit + 1 if too_long else len(body))
            environ["wsgi.input"] = io.BytesIO(b"" if too_long else body)
            environ["wsgi.input_terminated"] = False
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # else the length would not be read
        return app(environ, start_response)

    return answer


def cheroot_server_for(
    app: WSGIApp,
    host: str,
    port: int,
    threads: int,
    settings: dict[str, Any],
    context: ssl.SSLContext | None = None,
) -> wsgi.Server:
    """Return a cheroot server of ``app`` on an address; with a context, it speaks TLS too."""
    limit = settings["max_request_body_size"]
    server = wsgi.Server(
        (host, port),
        whole_chunked_bodies(app, limit - 1) if limit else app,
        numthreads=threads,
        max=threads,
        server_name="scorekeeper",
        request_queue_size=1024,
        timeout=settings["idle_seconds"],
    )
    server.max_request_body_size = limit
    server.max_request_header_size = settings["max_request_header_size"]
    server.keep_alive_conn_limit = settings["connections"]
    if context is not None:
        connection_class = type("TableConnection", (EitherConnection,), {"context": context})
        server.ConnectionClass = connection_class
    return server


def serve_both(servers: list[wsgi.Server]) -> None:
    """Run several cheroot servers until interrupted; stop them all together."""
    for server in servers:
        if not server.ready:
            server.prepare()
    threads = [
        threading.Thread(target=server.serve, name=f"serve-{index}", daemon=True)
        for index, server in enumerate(servers)
    ]
    for thread in threads:
        thread.start()
    try:
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for server in servers:
            server.stop()
