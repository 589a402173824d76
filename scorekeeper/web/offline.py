"""What a phone needs offline: the service worker, and a fresh CSRF token for the outbox."""

from __future__ import annotations

import json
from pathlib import Path

from flask import current_app, jsonify, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.assets import modules
from scorekeeper.web.blueprint import bp

# The service worker's code, in the static folder; /sw.js serves it with the app's files.
SERVICE_WORKER = "sw.js"
# The pages a phone keeps to open without a network, by path under the site's root: the start
# page, a session's page and its history, and a game's finish page (kept from its session page,
# so that a game ends offline too; the start page drops them again). One list for the worker
# (sw.js, given it in its first lines) and the page's script (offline.js, on its script tag).
KEPT_PAGES = r"^/(sessions/[^/]+(/history)?|games/\d+/finish)?$"


@bp.get("/sw.js")
def service_worker() -> BaseResponse:
    """Serve the service worker from the site's root, so that it may keep the session pages.

    Its first line lists the app's files with their fingerprints, and every module of the browser
    code (those a page loads on demand too) under the modules' version: a changed file changes
    the worker's bytes, so phones install the new worker, which fetches the new files and drops
    the old ones.
    """
    folder = Path(current_app.static_folder or "")
    files = sorted(
        path.name for path in folder.iterdir() if path.is_file() and path.name != SERVICE_WORKER
    )
    assets = [url_for("static", filename=name) for name in files]
    assets += [url_for("module", name=name) for name in modules().names]
    worker = (folder / SERVICE_WORKER).read_text(encoding="utf-8")
    answer = current_app.response_class(
        f"var ASSETS = {json.dumps(assets)};\n"
        f"var KEPT_PAGES = new RegExp({json.dumps(KEPT_PAGES)});\n{worker}",
        mimetype="text/javascript",
    )
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/csrf-token")
def csrf_token() -> BaseResponse:
    """Give a page's script a fresh CSRF token: the outbox sends waiting forms with it.

    A token lasts an hour (``WTF_CSRF_TIME_LIMIT``); a page kept offline longer holds an
    expired one.
    """
    answer = jsonify(csrf_token=generate_csrf())
    answer.headers["Cache-Control"] = "no-store"
    return answer
