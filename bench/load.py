"""A load generator: simulated tables that post to a server on loopback for a fixed time.

A table records through the JSON API (``play_table``) or, as a phone does, through the session
page's form (``tap_table``); phones that watch a session ask for its version as
``static/js/live.js`` does (``watch``).
"""

from __future__ import annotations

import http.client
import json
import random
import re
import ssl
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# One game as a table records it: (kind, player seat, cards, index of the meld for layoffs).
GAME_SCRIPT: list[tuple[str, int, str, int]] = [
    ("meld", 0, "2♠ 3♠ 4♠", -1),
    ("meld", 1, "7♥ 7♦ 7♣", -1),
    ("layoff", 2, "5♠", 0),
    ("meld", 0, "J♦ Q♦ K♦", -1),
    ("layoff", 1, "7♠", 1),
    ("undo", 1, "", -1),
    ("layoff", 1, "7♠", 1),
    ("layoff", 2, "A♦", 2),
    ("meld", 2, "9♣ 10♣ J♣", -1),
    ("layoff", 0, "6♠", 0),
]
FINISH_HANDS = {1: "A♥ 8♥", 2: "K♣"}
# The melds a phone records through the session page, one game's worth: 16 sequences, the
# whole pack but the kings. Then the game is abandoned and the next one dealt.
PHONE_MELDS = [
    " ".join(f"{rank}{suit}" for rank in run)
    for suit in "♠♥♦♣"
    for run in (["A", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["10", "J", "Q"])
]
# How often a phone on a session page asks whether anything changed (live.js: data-live-seconds).
WATCH_SECONDS = 2.0


@dataclass
class Results:
    """Latencies in seconds per request (or per tap), failures, and the answers' statuses."""

    latencies: list[float] = field(default_factory=list)
    failures: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # What the phones watching the tables' sessions were answered (run_load's watchers).
    watching: Results | None = None

    def add(self, seconds: float, ok: bool, status: int = 0) -> None:
        """Record one request."""
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] += 1
            if not ok:
                self.failures += 1


# A load over HTTPS trusts this context's authorities (bench/servers.py sets it); else plain HTTP.
TLS: ssl.SSLContext | None = None
# One item per connection opened (over HTTPS: per full or resumed TLS handshake).
OPENED: list[int] = []


def connect(port: int) -> http.client.HTTPConnection:
    """Open a connection to the server on loopback, over HTTPS when ``TLS`` is set."""
    OPENED.append(port)
    if TLS is None:
        return http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    return http.client.HTTPSConnection("127.0.0.1", port, timeout=30, context=TLS)


class KeptAlive:
    """A kept-alive HTTP connection to the server on loopback."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = connect(port)

    def exchange(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[http.client.HTTPResponse, bytes] | None:
        """Send one request and return the answer and its body; None if the connection failed.

        As a browser does, a request that finds its connection closed by the server (gunicorn
        closes one idle for 2 s) is sent again once on a new connection.
        """
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                return response, response.read()
            except (OSError, http.client.HTTPException) as error:
                self.connection.close()
                self.connection = connect(self.port)
                closed = isinstance(error, http.client.RemoteDisconnected | ConnectionResetError)
                if attempt == 2 or not closed:
                    return None
        return None


class Client(KeptAlive):
    """A kept-alive connection to the API that times each request."""

    def __init__(self, port: int, results: Results) -> None:
        super().__init__(port)
        self.results = results
        # Sent with every request once a session has answered with an edit key.
        self.headers: dict[str, str] = {}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        """Send one request and return the decoded JSON answer (None for no body)."""
        payload = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if payload is not None:
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        answer = self.exchange(method, path, payload, headers)
        if answer is None:
            self.results.add(time.perf_counter() - started, False)
            return None
        response, data = answer
        self.results.add(time.perf_counter() - started, response.status == expect, response.status)
        return json.loads(data) if data else None


class Window:
    """The measured time of a load, which every table and phone starts at once.

    Each first gets ready unmeasured (starts its session, opens its link or page), so that
    the measured time holds the steady load only. ``started`` is called as the time begins.
    """

    def __init__(self, parties: int, seconds: float, started: Callable[[], None] | None) -> None:
        self.stop_at = 0.0
        self._seconds = seconds
        self._started = started
        self._line = threading.Barrier(parties, action=self._begin)

    def _begin(self) -> None:
        if self._started is not None:
            self._started()
        self.stop_at = time.monotonic() + self._seconds

    def ready(self) -> None:
        """Wait until every table and phone is ready (or one could not get ready in time)."""
        try:
            self._line.wait(timeout=120)
        except threading.BrokenBarrierError:
            self.stop_at = 0.0

    def open(self) -> bool:
        """Say whether the measured time still runs."""
        return time.monotonic() < self.stop_at


# Called with the session a table starts, or None if it could not (to send phones to watch it).
OnSession = Callable[[dict[str, Any] | None], None]


def _new_session(port: int, on_session: OnSession | None) -> dict[str, Any] | None:
    """Start a table's session through the API, unmeasured; send phones to watch it."""
    session: dict[str, Any] | None = Client(port, Results()).call(
        "POST",
        "/api/v1/sessions",
        {"players": ["Ann", "Bob", "Cid"], "target": 10**9},
        expect=201,
    )
    if on_session is not None:
        on_session(session)
    return session


def play_table(
    port: int, results: Results, window: Window, on_session: OnSession | None = None
) -> None:
    """Play games through the scorekeeper's API until the time is up."""
    session = _new_session(port, on_session)
    window.ready()
    if session is None:
        return
    client = Client(port, results)
    client.headers["Authorization"] = f"Bearer {session['edit_key']}"
    players = [player["id"] for player in session["players"]]
    while window.open():
        game = client.call("POST", f"/api/v1/sessions/{session['id']}/games", expect=201)
        if game is None or "id" not in game:
            return
        melds: list[int] = []
        for kind, seat, cards, onto in GAME_SCRIPT:
            if not window.open():
                return
            if kind == "meld":
                answer = client.call(
                    "POST",
                    f"/api/v1/games/{game['id']}/melds",
                    {"player": players[seat], "cards": cards},
                    expect=201,
                )
                melds.append(answer["id"] if answer else 0)
            elif kind == "layoff":
                client.call(
                    "POST",
                    f"/api/v1/games/{game['id']}/layoffs",
                    {"player": players[seat], "meld": melds[onto], "cards": cards},
                    expect=201,
                )
            else:
                client.call("POST", f"/api/v1/games/{game['id']}/undo")
        hands = {str(players[seat]): cards for seat, cards in FINISH_HANDS.items()}
        client.call(
            "POST",
            f"/api/v1/games/{game['id']}/finish",
            {"winner": players[0], "hands": hands, "romme": False},
        )


def insert_loop(
    port: int, results: Results, window: Window, on_session: OnSession | None = None
) -> None:
    """Post to the reference app's one endpoint until the time is up."""
    client = Client(port, results)
    window.ready()
    while window.open():
        client.call("POST", "/insert", {"cards": "2♠ 3♠ 4♠"}, expect=201)


class Phone(KeptAlive):
    """A browser on one connection: it keeps its cookie and sends forms as a page does."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.cookies: dict[str, str] = {}

    def send(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str, str]:
        """Send one request; return its status, its Location and its body as text."""
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            # A browser names the page a form came from; over HTTPS the CSRF check wants it.
            scheme = "http" if TLS is None else "https"
            sent["Referer"] = f"{scheme}://127.0.0.1:{self.port}{path}"
        answer = self.exchange(method, path, body, sent)
        if answer is None:
            return 0, "", ""
        response, data = answer
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        location = urllib.parse.urlsplit(response.getheader("Location", ""))
        where = location.path + (f"?{location.query}" if location.query else "")
        return response.status, where, data.decode("utf-8", "replace")


# The session page's entry form (it records a new meld) and its hidden tokens.
_MELD_FORM = re.compile(r'<form[^>]*action="(/games/\d+/melds)"(.*?)</form>', re.S)
_HIDDEN = re.compile(r'<input[^>]*name="(once|csrf_token)"[^>]*value="([^"]*)"')


def meld_form(page: str) -> tuple[str, dict[str, str]] | None:
    """Return where the page's meld form posts and its hidden fields (CSRF and one-time token)."""
    found = _MELD_FORM.search(page)
    if found is None:
        return None
    return found.group(1), dict(_HIDDEN.findall(found.group(2)))


def tap_table(
    port: int, results: Results, window: Window, on_session: OnSession | None = None
) -> None:
    """Record melds through the session page as a phone does until the time is up.

    One tap is the form's POST (with its CSRF token and one-time token), its redirect and the
    session page it leads to, timed together. After 16 melds the table abandons the game and
    deals the next through the API (not timed). The phone opens its edit link and the first
    game's page before the measured time.
    """
    session = _new_session(port, on_session)
    api, phone = Client(port, Results()), Phone(port)
    game, page = None, ""
    if session is not None:
        api.headers["Authorization"] = f"Bearer {session['edit_key']}"
        game = api.call("POST", f"/api/v1/sessions/{session['id']}/games", expect=201)
        page_path = f"/sessions/{session['id']}"
        if phone.send("GET", f"{page_path}?key={session['edit_key']}")[0] == 302:
            page = phone.send("GET", page_path)[2]
    window.ready()
    if session is None or not game or "id" not in game or not page:
        return
    players = [str(player["id"]) for player in session["players"]]
    taps = 0
    while window.open():
        for cards in PHONE_MELDS:
            form = meld_form(page)
            if form is None or not window.open():
                return
            action, fields = form
            fields |= {"player": players[taps % len(players)], "meld": "", "cards": cards}
            taps += 1
            started = time.perf_counter()
            status, location, _ = phone.send("POST", action, fields)
            ok = status in (302, 303) and location.startswith(page_path)
            if ok:
                status, _, page = phone.send("GET", location)
                ok = status == 200
            results.add(time.perf_counter() - started, ok, status)
            if not ok:
                page = phone.send("GET", page_path)[2]
        api.call("POST", f"/api/v1/games/{game['id']}/finish", {"winner": None})
        game = api.call("POST", f"/api/v1/sessions/{session['id']}/games", expect=201)
        if game is None or "id" not in game:
            return
        page = phone.send("GET", page_path)[2]


def watch(
    port: int, session: dict[str, Any] | None, results: Results, window: Window, every: float
) -> None:
    """Ask for a session's version every few seconds, as live.js does on the session page.

    The phone opens the view link (its key goes into the cookie), then sends the version it
    has seen as ``If-None-Match``: an unchanged session answers 304, a changed one its new
    version, which the phone then takes as seen. It does not reload the page (see run.py).
    """
    phone = Phone(port)
    path, opened = "", False
    if session is not None:
        path = f"/sessions/{session['id']}"
        opened = phone.send("GET", f"{path}?key={session['view_key']}")[0] == 302
    window.ready()
    if not opened:
        return
    seen = "v0"
    # Phones open the page at different moments: their questions are spread over the interval.
    next_at = time.monotonic() + random.uniform(0, every)
    while True:
        time.sleep(max(0.0, next_at - time.monotonic()))
        if not window.open():
            return
        next_at += every
        started = time.perf_counter()
        asked = {"If-None-Match": f'"{seen}"'}  # the ETag live.js sends: the version seen
        status, _, body = phone.send("GET", f"{path}/version", headers=asked)
        results.add(time.perf_counter() - started, status in (200, 304), status)
        if status == 200:
            seen = f"v{json.loads(body)['version']}"


def run_load(
    port: int,
    tables: int,
    seconds: float,
    *,
    reference: bool = False,
    phone: bool = False,
    watchers_per_table: int = 0,
    started: Callable[[], None] | None = None,
) -> Results:
    """Run ``tables`` simulated tables at once against a server and return the results.

    ``phone`` records through the session page instead of the API; ``watchers_per_table``
    phones watch each table's session (their answers are in the results' ``watching``). The
    measured ``seconds`` begin once every table and phone is ready; ``started`` is called then.
    """
    results = Results(watching=Results())
    window = Window(tables * (1 + watchers_per_table) + 1, seconds, started)
    target = insert_loop if reference else tap_table if phone else play_table
    watchers: list[threading.Thread] = []
    lock = threading.Lock()

    def send_watchers(session: dict[str, Any] | None) -> None:
        assert results.watching is not None
        for _ in range(watchers_per_table):
            watcher = threading.Thread(
                target=watch,
                args=(port, session, results.watching, window, WATCH_SECONDS),
                daemon=True,
            )
            with lock:
                watchers.append(watcher)
            watcher.start()

    on_session = send_watchers if watchers_per_table else None
    threads = [
        threading.Thread(target=target, args=(port, results, window, on_session), daemon=True)
        for _ in range(tables)
    ]
    for thread in threads:
        thread.start()
    window.ready()
    for thread in [*threads, *watchers]:
        thread.join(seconds + 60)
    return results
