"""The table's secure address in Chromium at 360 px, reached under a network name as a phone does.

``tisch.local`` is mapped to 127.0.0.1 for Chromium alone, so the origin is not ``localhost``
(which browsers treat as secure over plain HTTP too). A phone that trusts the table has the
authority in its own certificate store: here an NSS database in a HOME of its own, filled with
``certutil`` (Debian's libnss3-tools) from the file the trust page gives, as a phone installs it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from scorekeeper import create_app
from tests.browser.conftest import NARROW
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.helpers import entries
from tests.live import Served, serve_with

NAME = "tisch.local"
MAPPED = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"]
FIVE = [
    ("Ann", "Q♣ K♣ A♣", 30),
    ("Bob", "2♥ 3♥ 4♥", 9),
    ("Ann", "5♠ 5♥ 5♦", 15),
    ("Bob", "7♠ 7♥ 7♣", 21),
    ("Ann", "8♣ 8♦ 8♥", 24),
]
CERTUTIL = shutil.which("certutil")
needs_certutil = pytest.mark.skipif(
    CERTUTIL is None and not os.environ.get("CI"),
    reason="certutil is missing: apt-get install -y libnss3-tools",
)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Served]:
    """Serve the app as ``scorekeeper serve`` does, with the name the phones use."""
    folder = tmp_path / "server"
    folder.mkdir()
    served = serve_with(folder, "--name", NAME)
    yield served
    served.stop()


def phone_with_home(browser: Browser, home: Path) -> BrowserContext:
    """Launch Chromium as a phone whose certificate store lives in ``home``, at 360 px."""
    return browser.browser_type.launch_persistent_context(
        str(home / "profile"),
        executable_path=CHROMIUM,
        args=MAPPED,
        env={**os.environ, "HOME": str(home)},
        viewport=NARROW,
        has_touch=True,
        is_mobile=True,
        locale="en-GB",
        accept_downloads=True,
    )


def install(authority: Path, home: Path) -> None:
    """Install the downloaded authority into the phone's certificate store, trusted for sites."""
    if CERTUTIL is None:
        pytest.fail("certutil is missing: apt-get install -y libnss3-tools")
    store = home / ".pki" / "nssdb"
    store.mkdir(parents=True, exist_ok=True)
    database = f"sql:{store}"
    subprocess.run([CERTUTIL, "-d", database, "-N", "--empty-password"], check=True)
    subprocess.run(
        [CERTUTIL, "-d", database, "-A", "-t", "C,,", "-n", "table", "-i", str(authority)],
        check=True,
    )


def first_page(context: BrowserContext) -> Page:
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(15_000)
    return page


def until(page: Page, script: str) -> None:
    """Wait until a script's promise answers true."""
    for _ in range(150):
        if page.evaluate(script):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true: {script}")


def start_session(page: Page, base: str) -> str:
    """Start a session of Ann and Bob by the start page; return its page's path."""
    page.goto(base + "/")
    for seat, name in enumerate(["Ann", "Bob"]):
        page.fill(f"#names-{seat}", name)
    with page.expect_navigation():
        page.locator("form[data-seating] button[type=submit]").tap()
    return str(page.evaluate("location.pathname"))


def record(page: Page, name: str, cards: str) -> None:
    """Record a meld by taps: the player, the cards, the record button."""
    form = page.locator("form[data-entry]")
    form.locator("label.chip", has_text=name).tap()
    for card in cards.split():
        page.locator(f'[data-picker] button[data-card="{card}"]').tap()
    form.locator('button[data-mode="meld"]').tap()


def no_sideways_scrolling(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], (page.url, width)


@needs_certutil
def test_a_phone_follows_the_trust_page_and_then_records_through_an_offline_reload(
    browser: Browser, table: Served, tmp_path: Path
) -> None:
    secure = f"https://{NAME}:{table.port}"
    trust_address = f"http://{NAME}:{table.trust_port}/"

    # A phone that does not trust the table: the secure address is refused by the browser,
    # the trust address shows how to trust it, and plain HTTP on the port still serves the app.
    stranger = phone_with_home(browser, tmp_path / "stranger")
    refused = stranger.new_page()
    with pytest.raises(PlaywrightError, match="ERR_CERT_AUTHORITY_INVALID"):
        refused.goto(secure + "/")
    refused.close()
    page = first_page(stranger)
    page.goto(trust_address)
    expect(page.locator("h1")).to_have_text("Make this phone trust the table")
    no_sideways_scrolling(page)
    shown = page.locator("[data-secure-address]").get_attribute("href")
    assert shown == secure + "/"
    fingerprint = page.locator("[data-fingerprint]").get_attribute("data-fingerprint")
    with page.expect_download() as downloading:
        page.get_by_role("link", name="Download the certificate").tap()
    authority = tmp_path / "scorekeeper-table.crt"
    downloading.value.save_as(authority)
    assert downloading.value.suggested_filename == "scorekeeper-table.crt"
    # What the phone shows of the file is the fingerprint the page gives.
    assert fingerprint == ":".join(
        f"{byte:02X}" for byte in hashlib.sha256(authority.read_bytes()).digest()
    )
    # Plain HTTP on the main port: no secure context, and the recorder is told so.
    start_session(page, f"http://{NAME}:{table.port}")
    assert page.evaluate("isSecureContext") is False
    line = page.locator("[data-not-secure]")
    expect(line).to_contain_text("to reopen the page offline, trust this table (once)")
    assert line.locator("a").get_attribute("href") == "/trust"
    stranger.close()

    # The phone installs the authority as downloaded and opens the secure address.
    home = tmp_path / "trusting"
    install(authority, home)
    phone = phone_with_home(browser, home)
    page = first_page(phone)
    assert shown is not None
    path = start_session(page, shown.rstrip("/"))
    assert page.evaluate("isSecureContext") is True
    cdp = phone.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert '"name": "Rummy scorekeeper"' in manifest["data"]
    # The service worker installs and controls the game page, which it keeps.
    until(
        page,
        "navigator.serviceWorker.ready.then(() => Boolean(navigator.serviceWorker.controller))"
        ".then((controlled) => controlled && caches.open('scorekeeper-pages'))"
        ".then((cache) => cache && cache.match(location.pathname)).then(Boolean)",
    )
    heading = page.locator("h1").inner_text()
    game = int(str(page.locator("form[data-entry]").get_attribute("action")).rsplit("/", 2)[1])

    # Offline (a call, the tab put away): a reload opens the page from the phone.
    phone.set_offline(True)
    page.reload()
    expect(page.locator("h1")).to_have_text(heading)
    assert page.locator("html").get_attribute("data-offline-copy")
    assert page.evaluate("location.pathname") == path
    no_sideways_scrolling(page)
    waiting = page.locator("ol.entries > li[data-outbox]")
    for count, (name, cards, _) in enumerate(FIVE, start=1):
        record(page, name, cards)
        expect(waiting).to_have_count(count)

    # Back online: the five arrive at the server once each, in the order of the taps.
    phone.set_offline(False)
    expect(waiting).to_have_count(0, timeout=30_000)
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": table.database_url, "SECRET_KEY": "reading", "TESTING": True}
    )
    recorded = [(name, sorted(cards.split()), value) for name, cards, value in entries(app, game)]
    assert recorded == [(name, sorted(cards.split()), value) for name, cards, value in FIVE]
    phone.close()
