"""The moment of the tap: from "record" to the entry on the recorder's own screen.

Run from the project folder: ``.venv/bin/python bench/tap.py`` (about a minute; ``--taps N``).
It serves the app (``scorekeeper serve`` on a fresh SQLite database), opens a session page in
Debian's Chromium at 360 px, and for each network (loopback, and DevTools' own "Slow 4G" and
"3G" through ``Network.emulateNetworkConditions`` on a CDP session) records ``--taps`` melds by
taps on the picker and the record button. Each tap is timed in the page, from the button's click
to the first animation frame where

- *taken*: its cards are taken in the picker (disabled) and its meld lies on the table, greyed
  while it waits, so that a layoff onto it can be tapped;
- *screen*: the recorded entry is shown in the page's list of entries (sent or confirmed);
- *confirmed*: that entry is the server's answer (no longer marked as waiting).

Without the in-place recorder both are the reloaded page. It prints a Markdown table of the
medians and appends it to ``docs/performance-tap.md`` (``--no-write`` to only print);
``docs/performance.md``, which ``bench/run.py`` writes anew, links it.

``--https`` serves the secure address as a phone at the table opens it: ``scorekeeper serve``
(HTTPS), the page at ``https://tisch.local:<port>`` (the name mapped to loopback for Chromium
alone), Chromium trusting the table's certificate authority from an NSS store in a HOME of its
own (``certutil``, Debian's libnss3-tools). Without it the app is served over plain HTTP by
``scorekeeper serve --http`` (waitress). DevTools' own records of the taps' requests say how
many connections they used and how many of those began with a TLS handshake.
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playwright.sync_api import CDPSession, Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "docs" / "performance-tap.md"
CHROMIUM = "/usr/bin/chromium"
PHONE: ViewportSize = {"width": 360, "height": 780}
# DevTools' presets: latency in ms, throughput in bytes per second.
NETWORKS: dict[str, dict[str, float] | None] = {
    "loopback": None,
    "Slow 4G": {"latency": 150, "down": 1.6e6 / 8, "up": 750e3 / 8},
    "3G": {"latency": 562.5, "down": 1.44e6 / 8, "up": 675e3 / 8},
}
SUITS = "♠♥♦"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# The name the phone reaches the table by over HTTPS, mapped to loopback for Chromium alone.
TABLE_NAME = "tisch.local"


@contextmanager
def served(https: bool) -> Iterator[str]:
    """Serve the app on a free loopback port on a fresh database; yield its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
            "SECRET_KEY": "bench",
            "SESSION_LIMIT": "off",
        }
        program = Path(sys.executable).parent / "scorekeeper"
        command = [str(program), "serve", "--host", "127.0.0.1", "--port", str(port)]
        command += ["--name", TABLE_NAME, "--trust-port", "0"] if https else ["--http"]
        process = subprocess.Popen(
            command, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield f"https://{TABLE_NAME}:{port}" if https else f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=10)


def start_session(page: Page, base: str) -> None:
    """Start a session of three through the home page, as a phone does."""
    page.goto(base + "/")
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        page.fill(f"#names-{seat}", name)
    with page.expect_navigation():
        page.locator("form[data-seating] button[type=submit]").last.click()
    page.wait_for_selector("[data-picker] button[data-card]")


def watched(page: Page) -> tuple[CDPSession, list[dict[str, Any]]]:
    """Return a CDP session of the page and the list it fills with its responses' records.

    Each record is DevTools' own account of a response: its connection, whether the connection
    was reused, and when its TLS handshake began (-1: none).
    """
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    records: list[dict[str, Any]] = []
    cdp.on("Network.responseReceived", lambda event: records.append(event["response"]))
    return cdp, records


def handshakes(records: list[dict[str, Any]]) -> int:
    """Count the responses whose connection was new and began with a TLS handshake."""
    return sum(
        1
        for record in records
        if not record.get("connectionReused") and record.get("timing", {}).get("sslStart", -1) >= 0
    )


def throttle(cdp: CDPSession, network: dict[str, float] | None) -> None:
    """Emulate a network on the page with DevTools' own conditions."""
    if network is None:
        return
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": network["latency"],
            "downloadThroughput": network["down"],
            "uploadThroughput": network["up"],
        },
    )


def trusting_home(folder: Path) -> Path:
    """Return a HOME whose NSS store trusts the table's certificate authority, as a phone."""
    authority = ROOT / "instance" / "table-ca" / "ca.crt"
    store = folder / ".pki" / "nssdb"
    store.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{store}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [
            "certutil",
            "-d",
            f"sql:{store}",
            "-A",
            "-t",
            "C,,",
            "-n",
            "table",
            "-a",
            "-i",
            str(authority),
        ],
        check=True,
    )
    return folder


def one_tap(page: Page, cards: list[str]) -> tuple[float, float, float]:
    """Pick a meld's cards, tap record and return ms to taken, to screen and to confirmed."""
    for card in cards:
        page.locator(f'[data-picker] button[data-card="{card}"]').click()
    page.wait_for_function(
        "() => /✓/.test(document.querySelector('[data-preview]').textContent)", polling="raf"
    )
    label = " ".join(cards)
    page.evaluate(
        """() => { const b = document.querySelector('button[data-mode="meld"]');
        requestAnimationFrame(() => { sessionStorage.setItem("bench-start", String(Date.now()));
        b.click(); }); }"""
    )
    found = """([cards, waiting]) => {
      const start = Number(sessionStorage.getItem("bench-start"));
      const hit = Array.from(document.querySelectorAll("ol.entries > li")).some((li) =>
        li.getClientRects().length && li.querySelector(".cards") &&
        li.querySelector(".cards").textContent.replace(/\\s+/g, " ").trim() === cards &&
        (waiting || !li.hasAttribute("data-waiting")));
      return start && hit ? Date.now() - start : false;
    }"""
    taken = """(cards) => {
      const start = Number(sessionStorage.getItem("bench-start"));
      const free = cards.some((card) => !document.querySelector(
        `[data-picker] button[data-card="${card}"]`).disabled);
      const lies = Array.from(document.querySelectorAll("label.meld-choice .cards")).some((c) =>
        cards.every((card) => c.textContent.includes(card)));
      return start && !free && lies ? Date.now() - start : false;
    }"""
    gone = page.wait_for_function(taken, arg=cards, polling="raf").json_value()
    screen = page.wait_for_function(found, arg=[label, True], polling="raf").json_value()
    confirmed = page.wait_for_function(found, arg=[label, False], polling="raf").json_value()
    page.evaluate("() => sessionStorage.removeItem('bench-start')")
    # The next tap starts from a settled page: its cards are taken in the picker.
    page.wait_for_load_state("load")
    page.wait_for_function(
        '(card) => document.querySelector(`[data-picker] button[data-card="${card}"]`).disabled',
        arg=cards[0],
        polling="raf",
    )
    return float(gone), float(screen), float(confirmed)


def measure(taps: int, https: bool) -> dict[str, dict[str, Any]]:
    """Return, per network, the taps' times in ms and their connections."""
    results: dict[str, dict[str, Any]] = {}
    with (
        served(https) as base,
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as home,
    ):
        args = ["--no-sandbox", "--disable-gpu"]
        env: dict[str, str | float | bool] = dict(os.environ)
        if https:
            args.append(f"--host-resolver-rules=MAP {TABLE_NAME} 127.0.0.1")
            env["HOME"] = str(trusting_home(Path(home)))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args, env=env)
        for name, network in NETWORKS.items():
            context = browser.new_context(
                viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB"
            )
            page = context.new_page()
            cdp, records = watched(page)
            start_session(page, base)
            opening = handshakes(records)
            throttle(cdp, network)
            takes, screens, confirms = [], [], []
            # One tap more than measured: the first warms the server and the page's caches.
            for number in range(taps + 1):
                if number == 1:
                    records.clear()
                rank = RANKS[number % len(RANKS)]
                gone, screen, confirmed = one_tap(page, [rank + suit for suit in SUITS])
                if number:
                    takes.append(gone)
                    screens.append(screen)
                    confirms.append(confirmed)
            results[name] = {
                "taken": takes,
                "screen": screens,
                "confirmed": confirms,
                "network": network,
                "requests": len(records),
                "connections": len({record["connectionId"] for record in records}),
                "handshakes": handshakes(records),
                "opening": opening,
            }
            context.close()
        browser.close()
    return results


def report(results: dict[str, dict[str, Any]], label: str, taps: int) -> str:
    """Return the results as Markdown."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"### {label} ({when}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"medians of {taps} taps)",
        "",
        "| network | latency ms | tap to cards taken ms | tap to screen ms | tap to confirmed ms "
        "| every tap (taken / screen / confirmed) "
        "| the taps' requests / connections / TLS handshakes "
        "| TLS handshakes opening the page |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, result in results.items():
        latency = result["network"]["latency"] if result["network"] else 0
        every = ", ".join(
            f"{t:.0f}/{s:.0f}/{c:.0f}"
            for t, s, c in zip(result["taken"], result["screen"], result["confirmed"], strict=True)
        )
        lines.append(
            f"| {name} | {latency:g} | {statistics.median(result['taken']):.0f} "
            f"| {statistics.median(result['screen']):.0f} "
            f"| {statistics.median(result['confirmed']):.0f} | {every} "
            f"| {result['requests']} / {result['connections']} / {result['handshakes']} "
            f"| {result['opening']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    """Measure and report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--taps", type=int, default=7)
    parser.add_argument("--label", default="The game page")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--https", action="store_true", help="the secure address (else plain HTTP, waitress)"
    )
    options = parser.parse_args()
    text = report(measure(options.taps, options.https), options.label, options.taps)
    print(text)
    if not options.no_write:
        with REPORT.open("a", encoding="utf-8") as out:
            out.write("\n" + text)


if __name__ == "__main__":
    main()
