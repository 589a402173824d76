"""Static files with a fingerprint in their URL, cached for a year; compressed answers."""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import brotli
from flask import Flask, Response, current_app, request, send_from_directory

ONE_YEAR = 365 * 24 * 60 * 60
COMPRESSED_TYPES = [
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
]


# The browser code: ES modules in static/js/ that import each other by relative address
# ("./send.js"). They are served under one version of the whole folder (/static/js/<version>/…),
# so an import needs no fingerprint of its own and a changed module changes every address.
MODULES = "js"
# A static import or re-export at the start of a line; a dynamic ``import("./x.js")`` is not one.
STATIC_IMPORT = re.compile(
    r"""^(?:import|export)\b(?!\s*\()[^;"']*?["']\./([\w-]+\.js)["']""", re.MULTILINE
)


class Modules:
    """The browser's modules: one version for the folder, and what each imports statically."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._seen: tuple[tuple[str, float], ...] = ()
        self._version = ""
        self._imports: dict[str, list[str]] = {}

    def _read(self) -> None:
        files = sorted(self.folder.glob("*.js"))
        seen = tuple((path.name, path.stat().st_mtime) for path in files)
        if seen == self._seen:
            return
        digest = hashlib.sha256()
        imports = {}
        for path in files:
            code = path.read_bytes()
            digest.update(path.name.encode() + b"\0" + code + b"\0")
            imports[path.name] = STATIC_IMPORT.findall(code.decode("utf-8"))
        self._seen, self._version, self._imports = seen, digest.hexdigest()[:12], imports

    @property
    def version(self) -> str:
        """Return the folder's version: a digest of every module's name and bytes."""
        self._read()
        return self._version

    @property
    def names(self) -> list[str]:
        """Return the modules' file names."""
        self._read()
        return sorted(self._imports)

    def graph(self, names: Iterable[str]) -> list[str]:
        """Return the named modules, then every module they import statically, each once."""
        self._read()
        found: list[str] = []
        waiting = list(names)
        while waiting:
            name = waiting.pop(0)
            if name not in found:
                found.append(name)
                waiting.extend(self._imports.get(name, []))
        return found


@functools.lru_cache(maxsize=256)
def _squeezed(path: Path, changed: float, coding: str) -> bytes:
    """Return a file compressed at the best level of a coding (its mtime keys the cache)."""
    data = path.read_bytes()
    return brotli.compress(data, quality=11) if coding == "br" else gzip.compress(data, 9, mtime=0)


def modules() -> Modules:
    """Return the app's modules."""
    found: Modules = current_app.extensions["scorekeeper.modules"]
    return found


def register(app: Flask) -> None:
    """Fingerprint static URLs (``?v=<hash>``) and let fingerprinted files be cached for good."""
    from flask_compress import Compress

    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    Compress(app)
    fingerprints: dict[str, tuple[float, str]] = {}

    @app.url_defaults
    def _fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint != "static" or "filename" not in values or "v" in values:
            return
        path = Path(app.static_folder or "") / values["filename"]
        try:
            changed = path.stat().st_mtime
        except OSError:
            return
        known = fingerprints.get(values["filename"])
        if known is None or known[0] != changed:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
            known = fingerprints[values["filename"]] = (changed, digest)
        values["v"] = known[1]

    folder = Path(app.static_folder or "") / MODULES
    app.extensions["scorekeeper.modules"] = Modules(folder)

    @app.get(f"/static/{MODULES}/<version>/<name>", endpoint="module")
    def _module(version: str, name: str) -> Response:
        answer = send_from_directory(folder, name, mimetype="text/javascript")
        if version == modules().version:
            answer.cache_control.no_cache = None
            answer.cache_control.public = True
            answer.cache_control.max_age = ONE_YEAR
            answer.cache_control.immutable = True
        else:
            # A page drawn before the app changed asks for its old version: today's file,
            # asked again next time.
            answer.cache_control.no_cache = True
        return answer

    @app.url_defaults
    def _module_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "module" and "version" not in values:
            values["version"] = modules().version

    app.add_template_global(lambda *names: modules().graph(names), "module_graph")

    @app.after_request
    def _compressed_once(response: Response) -> Response:
        """Send a static file or module compressed at the best level, compressed once.

        Brotli at 11 makes the game page's modules about a sixth smaller than the level the
        pages are compressed at while they are asked for (4); a file is compressed once per
        start and change. Runs before Flask-Compress, which leaves an answer so sent alone.
        """
        if (
            response.status_code != 200
            or response.mimetype not in COMPRESSED_TYPES
            or "Content-Encoding" in response.headers
            or request.view_args is None
        ):
            return response
        if request.endpoint == "static":
            path = Path(app.static_folder or "") / request.view_args["filename"]
        elif request.endpoint == "module":
            path = folder / request.view_args["name"]
        else:
            return response
        accepted = request.accept_encodings
        coding = "br" if accepted["br"] else "gzip" if accepted["gzip"] else None
        if coding is None or not path.is_file():
            return response
        data = _squeezed(path, path.stat().st_mtime, coding)
        response.close()  # the file it was to stream
        response.direct_passthrough = False
        response.set_data(data)
        response.headers["Content-Encoding"] = coding
        response.vary.add("Accept-Encoding")
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}:{coding}", weak=bool(weak))
        return response

    @app.after_request
    def _cache_fingerprinted(response: Response) -> Response:
        fingerprinted = request.endpoint == "static" and request.args.get("v")
        if fingerprinted and response.status_code in (200, 304):
            # Replaces Flask's "no-cache", which would make the browser ask again every time.
            response.headers["Cache-Control"] = f"public, max-age={ONE_YEAR}, immutable"
        return response
