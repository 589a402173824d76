"""Count the SQL statements of each page and main API call, on SQLite and PostgreSQL.

The tests check that these counts do not grow with the games and entries
(``tests/web/test_query_counts.py``); this prints the counts themselves, for one session of
the tests' shape (a finished game, an open game of four melds and two layoffs), so that a
change to the reads and writes can show its figures before and after:

    .venv/bin/python bench/statements.py

PostgreSQL is counted when ``initdb`` and ``pg_ctl`` are on the machine (a throwaway server,
as the tests start one).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app, services  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.keys import SessionKeys  # noqa: E402

MELDS = ["2♠ 3♠ 4♠", "2♥ 3♥ 4♥", "2♦ 3♦ 4♦", "2♣ 3♣ 4♣"]
Ids = dict[str, Any]
Ask = Callable[[FlaskClient, Ids, dict[str, str]], Any]


def _api(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


# The requests of tests/web/test_query_counts.py, in its order.
REQUESTS: dict[str, Ask] = {
    "GET session": lambda c, ids, h: c.get(f"/api/v1/sessions/{ids['session']}", headers=h),
    "GET game": lambda c, ids, h: c.get(f"/api/v1/games/{ids['game']}", headers=h),
    "record a meld": lambda c, ids, h: c.post(
        f"/api/v1/games/{ids['game']}/melds",
        json={"player": ids["player"], "cards": "A♦ A♥ A♣"},
        headers=h,
    ),
    "record a layoff": lambda c, ids, h: c.post(
        f"/api/v1/games/{ids['game']}/layoffs",
        json={"player": ids["player"], "meld": ids["meld"], "cards": "A♠"},
        headers=h,
    ),
    "undo": lambda c, ids, h: c.post(f"/api/v1/games/{ids['game']}/undo", headers=h),
    "preview the settlement": lambda c, ids, h: c.post(
        f"/api/v1/games/{ids['game']}/settlement",
        json={"winner": ids["bob"], "hands": {str(ids["player"]): "K♦", str(ids["cid"]): "A♦"}},
        headers=h,
    ),
    "finish": lambda c, ids, h: c.post(
        f"/api/v1/games/{ids['game']}/finish",
        json={"winner": ids["bob"], "hands": {str(ids["player"]): "K♦", str(ids["cid"]): "A♦"}},
        headers=h,
    ),
    "delete the latest entry": lambda c, ids, h: c.delete(
        f"/api/v1/games/{ids['game']}/entries/{ids['last']}", headers=h
    ),
    "correct the latest entry": lambda c, ids, h: c.patch(
        f"/api/v1/games/{ids['game']}/entries/{ids['last']}",
        json={"player": ids["player"]},
        headers=h,
    ),
    "start the next game": lambda c, ids, h: c.post(
        f"/api/v1/sessions/{ids['session']}/games", headers=h
    ),
    "the sheet (API)": lambda c, ids, h: c.get(
        f"/api/v1/sessions/{ids['session']}/sheet", headers=h
    ),
    "session page": lambda c, ids, _h: c.get(f"/sessions/{ids['session']}"),
    "history page": lambda c, ids, _h: c.get(f"/sessions/{ids['session']}/history"),
    "history page of the earlier games": lambda c, ids, _h: c.get(
        f"/sessions/{ids['session']}/history?before=2"
    ),
    "sheet page": lambda c, ids, _h: c.get(f"/sessions/{ids['session']}/sheet"),
    "finish page": lambda c, ids, _h: c.get(f"/games/{ids['game']}/finish"),
    "start page": lambda c, _ids, _h: c.get("/"),
    "change page": lambda c, ids, _h: c.get(f"/sessions/{ids['session']}/change"),
    "entry page": lambda c, ids, _h: c.get(f"/games/{ids['game']}/entries/{ids['meld']}/edit"),
    "abandon page": lambda c, ids, _h: c.get(f"/games/{ids['game']}/abandon"),
    "reopen page": lambda c, ids, _h: c.get(f"/games/{ids['finished']}/reopen"),
    "booked page": lambda c, ids, _h: c.get(f"/games/{ids['finished']}/finish"),
    "settlement preview page": lambda c, ids, _h: c.get(
        f"/games/{ids['game']}/finish",
        query_string={
            "winner": ids["bob"],
            "romme": "no",
            f"hand_{ids['player']}": "K♦",
            f"hand_{ids['cid']}": "A♦",
            "show": "1",
        },
    ),
    "the session's version": lambda c, ids, _h: c.get(f"/sessions/{ids['session']}/version"),
    "record a meld on the page": lambda c, ids, _h: c.post(
        f"/games/{ids['game']}/melds", data={"player": ids["player"], "cards": "A♦ A♥ A♣"}
    ),
    "record a layoff on the page": lambda c, ids, _h: c.post(
        f"/games/{ids['game']}/layoffs",
        data={"player": ids["player"], "meld": ids["meld"], "cards": "A♠"},
    ),
    "check an entry on the page": lambda c, ids, _h: c.post(
        f"/games/{ids['game']}/check", json={"player": ids["player"], "cards": "A♦ A♥ A♣"}
    ),
    "undo on the page": lambda c, ids, _h: c.post(f"/games/{ids['game']}/undo"),
    "delete the latest entry on the page": lambda c, ids, _h: c.post(
        f"/games/{ids['game']}/entries/{ids['last']}/delete"
    ),
    "correct the first meld on the page": lambda c, ids, _h: c.post(
        f"/games/{ids['game']}/entries/{ids['meld']}/edit",
        data={"player": ids["player"], "cards": MELDS[0]},
    ),
    "finish on the page": lambda c, ids, _h: c.post(
        f"/games/{ids['game']}/finish",
        data={
            "winner": str(ids["bob"]),
            "romme": "no",
            "confirm": "1",
            f"hand_{ids['player']}": "K♦",
            f"hand_{ids['cid']}": "A♦",
        },
    ),
    "abandon on the page": lambda c, ids, _h: c.post(f"/games/{ids['game']}/abandon"),
}
# Asked with the session's game finished first (the next game can only start then).
AFTER_A_FINISH = {"start the next game"}


def session_with_games(app: Flask, client: FlaskClient) -> tuple[Ids, str]:
    """Start a session with a finished game and an open game of four melds and two layoffs."""
    keys = SessionKeys.new()
    with app.app_context():
        session = services.create_session(["Ann", "Bob", "Cid"], target=10**6, keys=keys)
        public_id, session_id = session.public_id, session.id
        ann, bob, cid = (player.id for player in session.players)
        finished = services.start_game(session_id).id
        for cards in MELDS:
            services.record_meld(finished, ann, cards)
        services.finish_game(finished, ann, {bob: "K♥ 9♦", cid: "A♠"})
        game = services.start_game(session_id).id
        melds = [services.record_meld(game, bob, cards).id for cards in MELDS]
        last = 0
        for index, card in enumerate(("5♠", "5♥")):
            last = services.record_layoff(game, cid, melds[index], card).id
    assert client.get(f"/sessions/{public_id}?key={keys.edit}").status_code == 302
    ids = {
        "session": public_id,
        "game": game,
        "player": ann,
        "bob": bob,
        "cid": cid,
        "meld": melds[0],
        "last": last,
        "finished": finished,
    }
    return ids, keys.edit


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    """Collect the SQL statements sent while the block runs."""
    statements: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)


def count_all(url: str) -> dict[str, int]:
    """Return the statements of each request, each asked of a session of its own."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "SESSION_LIMIT": "off",
        }
    )
    with app.app_context():
        upgrade()
    counts = {}
    for name, ask in REQUESTS.items():
        client = app.test_client()
        ids, key = session_with_games(app, client)
        headers = _api(key)
        if name in AFTER_A_FINISH:
            done = client.post(
                f"/api/v1/games/{ids['game']}/finish", json={"winner": None}, headers=headers
            )
            assert done.status_code == 200, done.get_data(as_text=True)
        with counted(app) as statements:
            answer = ask(client, ids, headers)
        assert answer.status_code < 400, (name, answer.status_code, answer.get_data(as_text=True))
        counts[name] = len(statements)
    with app.app_context():
        db.engine.dispose()
    return counts


@contextmanager
def postgres() -> Iterator[str | None]:
    """Run a throwaway PostgreSQL server; yield the URL of an empty database, or None."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        initdb = initdb or shutil.which("initdb", path=str(folder))
        pg_ctl = pg_ctl or shutil.which("pg_ctl", path=str(folder))
    if not (initdb and pg_ctl):
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        run_as = ["runuser", "-u", "nobody", "--"]
        shutil.chown(folder, "nobody")
    data = folder / "data"
    subprocess.run(
        [*run_as, initdb, "-D", str(data), "-U", "bench", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        [*run_as, pg_ctl, "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    try:
        time.sleep(0.2)
        yield f"postgresql+psycopg://bench@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*run_as, pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Count every request's statements and print them as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-postgres", action="store_true", help="count on SQLite only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        sqlite = count_all(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
    columns = {"SQLite": sqlite}
    if not args.no_postgres:
        with postgres() as url:
            if url is not None:
                columns["PostgreSQL"] = count_all(url)
    print("| request | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name in REQUESTS:
        print(f"| {name} | " + " | ".join(str(counts[name]) for counts in columns.values()) + " |")


if __name__ == "__main__":
    main()
