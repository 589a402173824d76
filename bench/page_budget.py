"""The bytes each page costs a phone, compressed as the server sends them to Chromium.

For each main page: the first visit (the page, its stylesheet and the modules it loads at first
paint: its scripts and what they import, preloaded), what it loads later on demand (on a tap),
and the repeat visit once the service worker keeps the app's files (the page itself: the worker
answers every file from its copy). Once per version of the app the worker's install fetches
every file it keeps (``/sw.js``'s ``ASSETS``), in the background of a first visit.

The command: ``.venv/bin/python bench/page_budget.py`` (writes a Markdown table to stdout).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.assets import STATIC_IMPORT  # noqa: E402

# What Chromium says it accepts.
PHONE = {"Accept-Encoding": "gzip, deflate, br, zstd"}
LINKED = re.compile(r'(?:href|src)="(/static/[^"]+)"')
DYNAMIC_IMPORT = re.compile(r"""import\(\s*["']\./([\w-]+\.js)["']\s*\)""")


def start(client: FlaskClient, names: list[str], **fields: str) -> tuple[str, int, list[int]]:
    """Start a session through the start page's form; return its id, its game and players."""
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    answer = client.post("/sessions", data={**data, "dealer": "0", **fields})
    session = answer.location.rsplit("/", 1)[1]
    page = client.get(f"/sessions/{session}").get_data(as_text=True)
    game = int(re.findall(r'action="/games/(\d+)/melds"', page)[0])
    chips = re.findall(r'name="player" id="player-\d+" value="(\d+)"', page)
    players = [int(value) for value in chips]
    return session, game, players


def wire(client: FlaskClient, path: str) -> tuple[int, str]:
    """Return the bytes of an answer as sent to the phone, and its text."""
    with client.get(path, headers=PHONE) as answer:
        sent = len(answer.get_data())
    with client.get(path) as plain:
        text = plain.get_data().decode("utf-8", "replace")
    return sent, text


def weigh(client: FlaskClient, path: str) -> dict[str, int | str]:
    """Weigh a page: its HTML, what it loads at first paint, and what it may load on demand."""
    html_bytes, html = wire(client, path)
    # The icons and the manifest are asked for once and kept by the browser (and the worker).
    first = {a for a in LINKED.findall(html) if "icon" not in a and "manifest" not in a}
    first_bytes = 0
    later: set[str] = set()
    for asset in first:
        sent, text = wire(client, asset)
        first_bytes += sent
        if asset.endswith(".js"):
            later.update(DYNAMIC_IMPORT.findall(text))
    folder = next((a.rsplit("/", 1)[0] for a in first if "/static/js/" in a), "")
    loaded = {a.rsplit("/", 1)[1] for a in first}
    # What those load on demand, and everything they import in turn.
    waiting = sorted(later - loaded)
    on_demand: set[str] = set()
    while waiting:
        name = waiting.pop()
        if name in on_demand or name in loaded:
            continue
        on_demand.add(name)
        _, text = wire(client, f"{folder}/{name}")
        waiting.extend(STATIC_IMPORT.findall(text) + DYNAMIC_IMPORT.findall(text))
    later_bytes = sum(wire(client, f"{folder}/{name}")[0] for name in on_demand)
    return {
        "html": html_bytes,
        "first": first_bytes,
        "total": html_bytes + first_bytes,
        "later": later_bytes,
        "later_names": " ".join(sorted(name.removesuffix(".js") for name in on_demand)),
    }


def main() -> None:
    """Seed a database, weigh the pages, print the table."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/pages.sqlite3",
                "WTF_CSRF_ENABLED": False,
                "SESSION_LIMIT": "off",
            }
        )
        with app.app_context():
            upgrade()
        client = app.test_client()
        # The session page of the page-weight test: four players, four melds and a layoff.
        session, game, players = start(client, ["Annemarie", "Bartholomäus", "Cid", "Dorothea"])
        melds = [(0, "8d 9d 10d"), (0, "7s 7h 7c"), (1, "jc qc kc"), (2, "qh kh ah 2h 3h")]
        for player, cards in melds:
            client.post(f"/games/{game}/melds", data={"player": players[player], "cards": cards})
        page = client.get(f"/sessions/{session}").get_data(as_text=True)
        first = re.findall(r'name="meld" value="(\d+)"', page)[0]
        layoff = {"player": players[3], "meld": first, "cards": "jd"}
        client.post(f"/games/{game}/layoffs", data=layoff)
        german, _, _ = start(
            client, ["Ann", "Bob", "Cid", "Dan"], variant="german_rummy", end="limit", limit=""
        )
        pages = [
            ("start page", "/"),
            ("session page (game in progress)", f"/sessions/{session}"),
            ("German Rummy session page (110-card picker)", f"/sessions/{german}"),
            ("finish a game", f"/games/{game}/finish"),
            ("an entry's page (correct, delete)", f"/games/{game}/entries/1/edit"),
            ("history", f"/sessions/{session}/history"),
        ]
        worker_bytes, worker = wire(client, "/sw.js")
        kept = re.findall(r'"(/static/[^"]+)"', worker.splitlines()[0])
        install = worker_bytes + sum(wire(client, asset)[0] for asset in kept)
        print(
            "| page | HTML | first paint: CSS + JS | first visit | on demand later (modules) "
            "| repeat visit (the worker keeps the files) |"
        )
        print("|---|---|---|---|---|---|")
        for name, path in pages:
            row = weigh(client, path)
            print(
                f"| {name} | {row['html']} | {row['first']} | **{row['total']}** | "
                f"{row['later']} ({row['later_names'] or '–'}) | {row['html']} |"
            )
        print()
        print(
            f"The worker's install, once per version of the app: {install} bytes "
            f"({len(kept)} files and /sw.js)."
        )


if __name__ == "__main__":
    main()
