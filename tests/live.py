"""Talk JSON to a live server (``scorekeeper serve`` or gunicorn) over HTTP, as a client would."""

from __future__ import annotations

import http.client
import http.cookies
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


def send(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    key: str = "",
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, Any]:
    """Send one JSON request with the session's key; return the status and the decoded answer.

    An error status is returned like any other, with its JSON body (None for an empty one).
    """
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", "Authorization": f"Bearer {key}", **(headers or {})}
    request = urllib.request.Request(base + path, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read() or b"null")


class Browser:
    """A browser's cookie over HTTP, for posting a live server's forms; redirects are not followed.

    ``at_once`` sends the same form from several threads with the same cookie, as a phone does
    when a tap is repeated before the first answer arrived.
    """

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}

    def get(self, path: str) -> tuple[int, str, str]:
        """Return the status, the Location header and the page."""
        return self._send("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        """Send a form; return the status, the Location header and the page."""
        return self._send("POST", path, urllib.parse.urlencode(fields).encode())

    def at_once(self, path: str, fields: dict[str, str], times: int) -> list[tuple[int, str]]:
        """Send one form ``times`` times from as many threads, released together."""
        barrier = threading.Barrier(times)
        answers: list[tuple[int, str]] = [(0, "")] * times
        cookie = self._cookie()

        def send(index: int) -> None:
            barrier.wait()
            status, location, _ = self._send(
                "POST", path, urllib.parse.urlencode(fields).encode(), cookie
            )
            answers[index] = (status, location)

        threads = [threading.Thread(target=send, args=(index,)) for index in range(times)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        return answers

    def _cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def _send(
        self, method: str, path: str, body: bytes | None = None, cookie: str | None = None
    ) -> tuple[int, str, str]:
        address = urllib.parse.urlsplit(self.base)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        headers = {"Cookie": self._cookie() if cookie is None else cookie}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        if cookie is None:  # the threads of at_once leave the cookie as it was
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in http.cookies.SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
        return response.status, response.headers.get("Location", ""), page
