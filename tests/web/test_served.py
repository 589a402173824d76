"""What only a real ``scorekeeper serve`` shows: proxies, hosts, body limits, file modes.

Each test starts the server as an operator would, with its settings in the environment, on a
free loopback port and a database file of its own, and talks HTTP to it.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import stat
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterator
from email.message import Message
from pathlib import Path

import pytest
from waitress.adjustments import Adjustments

from scorekeeper import PROJECT_ROOT, _private_folder, create_app
from scorekeeper.cli import waitress_settings
from tests.pageforms import form_to, links

NEW_SESSION = {"names-0": "Ann", "names-1": "Bob", "names-2": "Cid", "target": "500"}
PUBLIC = "scores.example"
FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": PUBLIC,
    "X-Forwarded-For": "203.0.113.7",
}
LIMIT = 64 * 1024  # the app's MAX_CONTENT_LENGTH

Serve = Callable[..., str]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """Return a starter of ``scorekeeper serve`` with settings in its environment; yield its URL.

    The database is a new file (the server creates and migrates it); the umask is a usual 022.
    Every server started is stopped at the end of the test.
    """
    started: list[subprocess.Popen[str]] = []

    def start(**environment: str) -> str:
        folder = tmp_path / f"server{len(started)}"
        folder.mkdir()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder / 'scorekeeper.sqlite3'}",
            "SECRET_KEY": "served",
            "SESSION_LIMIT": "off",
            **environment,
        }
        for name in ("PROXIES", "TRUSTED_HOSTS"):
            if name not in environment:
                env.pop(name, None)
        command = [
            str(Path(sys.executable).parent / "scorekeeper"),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=env,
            umask=0o022,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"the server stopped: {process.communicate()[1]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return f"http://127.0.0.1:{port}"
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the server did not start")
                time.sleep(0.05)

    yield start
    for process in started:
        process.terminate()
        try:
            process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def ask(
    base: str,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, Message, str]:
    """Send one request; return the status, the headers and the answer's text."""
    address = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection("127.0.0.1", address.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode(errors="replace")
    finally:
        connection.close()


def local(location: str) -> str:
    """Return the path and query of a redirect's Location."""
    parts = urllib.parse.urlsplit(location)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def cookie_of(headers: Message) -> tuple[str, str]:
    """Return the session cookie's ``name=value`` and its Set-Cookie header."""
    found = [header for header in headers.get_all("Set-Cookie") or [] if "session=" in header]
    assert found, f"no session cookie set: {headers.get_all('Set-Cookie')}"
    return found[0].split(";")[0], found[0]


def attributes(set_cookie: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in set_cookie.split(";")[1:]}


def start_a_session(base: str, headers: dict[str, str]) -> tuple[str, str, str]:
    """Start a session through the start page, as a phone does, every request with ``headers``.

    Return the Set-Cookie header of the start page, the cookie's one after the start, and the
    session page.
    """
    status, answer, page = ask(base, "GET", "/", headers)
    assert status == 200, page
    cookie, first_set_cookie = cookie_of(answer)
    start = form_to(page, "/sessions")
    status, answer, page = ask(
        base,
        "POST",
        start.action,
        {
            **headers,
            "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            # A browser sends it to its own site; Flask-WTF checks it on HTTPS.
            "Referer": f"https://{PUBLIC}/",
        },
        urllib.parse.urlencode({**start.fields, **NEW_SESSION}).encode(),
    )
    assert status == 302, page
    cookie, later_set_cookie = cookie_of(answer)
    status, _, page = ask(base, "GET", local(answer["Location"]), {**headers, "Cookie": cookie})
    assert status == 200, page
    return first_set_cookie, later_set_cookie, page


def test_behind_one_proxy_the_share_links_name_the_public_https_address_and_the_cookie_is_secure(
    serve: Serve,
) -> None:
    base = serve(PROXIES="1")
    first, later, page = start_a_session(base, FORWARDED)
    offered = links(page)
    assert set(offered) == {"edit", "view"}
    for link in offered.values():
        assert link.startswith(f"https://{PUBLIC}/sessions/"), link
    assert "secure" in attributes(first)
    assert "secure" in attributes(later)


def test_without_proxies_the_forwarded_headers_are_not_believed(serve: Serve) -> None:
    base = serve()
    first, later, page = start_a_session(base, FORWARDED)
    for link in links(page).values():
        assert link.startswith(f"{base}/sessions/"), link
    assert "secure" not in attributes(first)
    assert "secure" not in attributes(later)
    assert PUBLIC not in page


def test_behind_a_proxy_a_request_over_plain_http_keeps_a_cookie_that_is_not_secure(
    serve: Serve,
) -> None:
    base = serve(PROXIES="1")
    first, _, page = start_a_session(base, {**FORWARDED, "X-Forwarded-Proto": "http"})
    assert links(page)["edit"].startswith(f"http://{PUBLIC}/sessions/")
    assert "secure" not in attributes(first)


def test_with_trusted_hosts_another_host_is_refused(serve: Serve) -> None:
    base = serve(TRUSTED_HOSTS="127.0.0.1, localhost")
    assert ask(base, "GET", "/")[0] == 200
    assert ask(base, "GET", "/", {"Host": "localhost"})[0] == 200
    assert ask(base, "GET", "/", {"Host": "evil.example"})[0] == 400
    assert ask(base, "GET", "/api/v1/sessions/nope", {"Host": "evil.example"})[0] == 400


def test_behind_a_proxy_trusted_hosts_checks_the_forwarded_host(serve: Serve) -> None:
    base = serve(PROXIES="1", TRUSTED_HOSTS=PUBLIC)
    _, _, page = start_a_session(base, FORWARDED)
    assert links(page)["view"].startswith(f"https://{PUBLIC}/sessions/")
    forged = {**FORWARDED, "X-Forwarded-Host": "evil.example"}
    assert ask(base, "GET", "/", forged)[0] == 400


def raw_answer(
    base: str, head: bytes, body: bytes = b"", timeout: float = 5
) -> tuple[bytes, float]:
    """Send a request's head (and body) on a socket; return the answer's first line and its time.

    The answer is read without waiting for the client to send more than it did.
    """
    address = urllib.parse.urlsplit(base)
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", address.port), timeout=timeout) as sock:
        sock.sendall(head)
        if body:
            # The server may close the connection before it took the whole body.
            with contextlib.suppress(OSError):
                sock.sendall(body)
        answer = b""
        while b"\r\n" not in answer:
            try:
                chunk = sock.recv(4096)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0], time.monotonic() - began


def post_head(length: int | None, chunked: bool = False) -> bytes:
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {length}"
    return (
        "POST /api/v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\n{framing}\r\n\r\n"
    ).encode()


def test_a_body_over_the_limit_is_refused_before_it_is_sent(serve: Serve) -> None:
    base = serve()
    # Only the head is sent: the server refuses from Content-Length, not after waiting for 70 KB.
    status, took = raw_answer(base, post_head(70 * 1024))
    assert status.split()[1:2] == [b"413"], status
    assert took < 3
    status, took = raw_answer(base, post_head(5_000_000))
    assert status.split()[1:2] == [b"413"], status
    assert took < 3


def test_a_body_over_the_limit_is_refused_when_sent_whole(serve: Serve) -> None:
    base = serve()
    status, took = raw_answer(base, post_head(70 * 1024), b"x" * (70 * 1024))
    assert status.split()[1:2] == [b"413"], status
    assert took < 3


def test_a_chunked_body_is_refused_once_it_passes_the_limit(serve: Serve) -> None:
    base = serve()
    chunk = b"x" * 8192
    body = (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * 9  # 72 KB, never ended
    status, took = raw_answer(base, post_head(None, chunked=True), body)
    assert status.split()[1:2] == [b"413"], status
    assert took < 3


def test_a_body_of_exactly_the_limit_reaches_the_app(serve: Serve) -> None:
    base = serve()
    body = b'{"players": ["Ann", "Bob"], "x": "' + b"x" * (LIMIT - 36) + b'"}'
    assert len(body) == LIMIT
    status, _, answer = ask(
        base, "POST", "/api/v1/sessions", {"Content-Type": "application/json"}, body
    )
    assert status != 413, answer


def test_the_database_file_and_the_instance_folder_are_readable_by_their_owner_only(
    serve: Serve, tmp_path: Path
) -> None:
    base = serve()
    assert ask(base, "GET", "/")[0] == 200
    database = tmp_path / "server0" / "scorekeeper.sqlite3"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    for companion in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        if companion.exists():
            assert stat.S_IMODE(companion.stat().st_mode) == 0o600
    assert stat.S_IMODE((PROJECT_ROOT / "instance").stat().st_mode) == 0o700


def test_a_new_instance_folder_is_made_for_its_owner_only(tmp_path: Path) -> None:
    before = os.umask(0)
    try:
        _private_folder(tmp_path / "made" / "instance")
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "made" / "instance").stat().st_mode) == 0o700
    opened = tmp_path / "opened"
    opened.mkdir(mode=0o755)
    _private_folder(opened)
    assert stat.S_IMODE(opened.stat().st_mode) == 0o700


@pytest.mark.parametrize(("proxies", "cleared"), [(0, True), (1, False), (2, False)])
def test_waitress_is_told_the_apps_limits_and_whether_to_pass_forwarded_headers_on(
    proxies: int, cleared: bool
) -> None:
    settings = waitress_settings(create_app({"SECRET_KEY": "test", "PROXIES": str(proxies)}))
    adjusted = Adjustments(**settings)  # waitress accepts them
    assert adjusted.clear_untrusted_proxy_headers is cleared
    assert adjusted.trusted_proxy is None  # ProxyFix alone reads the headers
    assert adjusted.max_request_body_size == LIMIT + 1
    assert adjusted.channel_timeout <= 30
    assert adjusted.channel_timeout + adjusted.cleanup_interval <= 60
    # 150 phones watching 50 tables, each keeping its connection, are served at once.
    assert adjusted.connection_limit >= 200
