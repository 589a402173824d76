"""Fixtures: the browser's modules (scorekeeper/static/js) in Chromium, served without the app.

A page of a made-up origin (``https://modules.test``, a secure context: IndexedDB, Web Locks and
BroadcastChannel are there as on the app's own pages over HTTPS) whose every request Playwright
answers from the static folder: no server, no database. A test imports the modules it needs in
the page (``await import("/js/draft.js")``) and asks them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

ORIGIN = "https://modules.test"
MODULES = Path(__file__).resolve().parents[2] / "scorekeeper" / "static" / "js"
# The page the modules run in: a CSRF token as the app's pages carry one, and the Content
# Security Policy of the app (scripts of this origin only, no inline ones).
PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>modules</title>
</head><body><main><input type="hidden" name="csrf_token" value="token"></main></body></html>"""
POLICY = "default-src 'self'; object-src 'none'"


class Modules:
    """A page with the modules at hand, and more pages (tabs) of the same browser profile."""

    def __init__(self, context: BrowserContext, lang: str) -> None:
        self.context = context
        self.lang = lang
        self.page = self.tab()

    def tab(self) -> Page:
        """Open another page of the origin, as a second tab of the phone."""
        page = self.context.new_page()
        page.goto(f"{ORIGIN}/?lang={self.lang}")
        return page

    def run(self, script: str, arg: Any = None, page: Page | None = None) -> Any:
        """Run an async function in the page and answer what it answers."""
        return (page or self.page).evaluate(script, arg)


def _serve(route: Route) -> None:
    """Answer a request of the made-up origin from the static folder."""
    url = urlparse(route.request.url)
    if url.path == "/":
        lang = "de" if "lang=de" in url.query else "en"
        route.fulfill(
            body=PAGE.format(lang=lang),
            content_type="text/html; charset=utf-8",
            headers={"Content-Security-Policy": POLICY},
        )
        return
    name = url.path.removeprefix("/js/")
    path = MODULES / name
    if url.path.startswith("/js/") and "/" not in name and path.is_file():
        route.fulfill(body=path.read_text(encoding="utf-8"), content_type="text/javascript")
        return
    route.fulfill(status=404, body="not here")


@pytest.fixture(params=["en"])
def lang(request: pytest.FixtureRequest) -> str:
    """Return the page's language; a module parametrizes it to run in German too."""
    return str(request.param)


@pytest.fixture
def modules(browser: Browser, lang: str) -> Iterator[Modules]:
    """Return a page of the made-up origin, its modules served from the static folder."""
    context = browser.new_context(locale="de-DE" if lang == "de" else "en-GB")
    context.set_default_timeout(5_000)
    context.route(f"{ORIGIN}/**", _serve)
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    yield Modules(context, lang)
    context.close()
    assert errors == [], errors
