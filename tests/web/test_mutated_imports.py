"""An export changed anywhere is refused by the import, or everything it brings in reads.

A real export (a session of each rule system played through the app's use cases) is changed
by Hypothesis, one to three places at a time, and imported: the import refuses it with its own
error and writes nothing, or every read and page of the imported sessions answers 200.
"""

from __future__ import annotations

import copy
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys, digest
from scorekeeper.services.groups import NewGroup
from scorekeeper.transfer import TransferError, export_sessions, import_sessions

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Played:
    """An export of sessions played through the app, with the edit keys that open them."""

    document: dict[str, Any]
    keys: dict[str, str]  # a key's digest -> the key


def _app(file: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{file}",
            "WTF_CSRF_ENABLED": False,
            "SESSION_LIMIT": "off",
        }
    )


def _play() -> dict[str, SessionKeys]:
    """Play a small session of each rule system, in one group; return their keys."""
    keys = {name: SessionKeys.new() for name in ("group", "treppe", "german", "boat")}
    group = NewGroup("Thursdays", keys["group"])
    treppe = services.create_session(["Ann", "Bob", "Cid"], target=500, keys=keys["treppe"])
    ann, bob, cid = (player.id for player in treppe.players)
    game = services.start_game(treppe.id).id
    sixes = services.record_meld(game, bob, "6♠ 6♥ 6♦").id
    services.record_meld(game, ann, "Q♥ K♥ A♥")
    services.record_layoff(game, ann, sixes, "6♣")
    services.finish_game(game, ann, {bob: "A♠ 7♥", cid: 23})
    services.reopen_game(game)
    services.finish_game(game, ann, {bob: "A♠ 7♥", cid: 20})
    game = services.start_game(treppe.id).id
    diamonds = services.record_meld(game, cid, "J♦ Q♦ K♦").id
    services.record_layoff(game, ann, diamonds, "A♦")
    spades = services.record_meld(game, bob, "2♠ 3♠ 4♠").id
    services.correct_entry(game, spades, "3♠ 4♠ 5♠")
    clubs = services.record_meld(game, bob, "8♣ 9♣ 10♣").id
    services.delete_entry(game, clubs)

    german = services.create_session(
        ["Ann", "Bob", "Cid"],
        variant="german_rummy",
        house_rules={"opening": 0},
        keys=keys["german"],
        group=group,
    )
    ann, bob, cid = (player.id for player in german.players)
    game = services.start_game(german.id).id
    services.record_melds(game, ann, ["7♥ 8♥ 9♥", "Q♣ Q♦ JKR"])
    services.record_meld(game, bob, "7♥ 8♥ 9♥")
    run = services.record_meld(game, cid, "4♠ JKR=5♠ 6♠").id
    services.record_swap(game, ann, run, "5♠", "10♦ J♦ JKR=Q♦")
    services.finish_game(game, ann, {bob: "A♠ JKR", cid: "3♣"})
    services.unseat_player(german.id, bob)
    services.seat_player(german.id, "Dan")
    game = services.start_game(german.id).id
    services.record_meld(game, cid, "2♦ 3♦ 4♦")

    boat = services.create_session(
        ["Eve", "Dan"],
        variant="boathouse_rum",
        house_rules={"end": {"games": 5}},
        keys=keys["boat"],
        group=german.group_id,
    )
    eve, dan = (player.id for player in boat.players)
    game = services.start_game(boat.id).id
    services.record_meld(game, eve, "3♥ 4♥ 5♥")
    services.finish_game(game, eve, {dan: "K♠"})
    services.merge_names(german.group_id, "Eve", "Cid")
    return keys


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Played:
    """Return the export of the played sessions and the keys that open them."""
    file = tmp_path_factory.mktemp("played") / "played.sqlite3"
    shutil.copyfile(sqlite_template, file)
    app = _app(file)
    with app.app_context():
        keys = _play()
        document = export_sessions()
        db.engine.dispose()
    by_digest = {digest(key.edit): key.edit for key in keys.values()}
    return Played(document, by_digest)


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[Flask]:
    """Return an app on an empty database that each example imports into and empties again."""
    file = tmp_path_factory.mktemp("imported") / "imported.sqlite3"
    shutil.copyfile(sqlite_template, file)
    app = _app(file)
    yield app
    with app.app_context():
        db.engine.dispose()


def _paths(value: Any, path: Path_ = ()) -> Iterator[Path_]:
    """Yield the path of every value in a document, containers included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.sampled_from([99, 2**31 - 1, 2**31, -(2**31), 2**53]),
    st.sampled_from(["7♥", "A♠", "JKR", "JKR=7♠", "10♣", "", "abc", "a/b", "x" * 40]),
    st.sampled_from(["set", "sequence", "meld", "layoff", "swap", "open", "finished"]),
    st.sampled_from(["\u202eAnn", "Ann", "ann", " Bob", "\u200b", "Zoë"]),
    st.sampled_from(
        [
            "9999-12-31T23:59:59+00:00",
            "0001-01-01T00:30:00+01:00",
            "1970-01-01T00:00:00+00:00",
            "2199-12-31T23:59:59+00:00",
            "2026-01-01T12:00:00-12:00",
        ]
    ),
    st.just({}),
    st.just([]),
    st.just({"player": "abc"}),
    st.text(max_size=4),
)


def _mutate(document: dict[str, Any], data: st.DataObject) -> None:
    """Change one value of the document, or drop or repeat one item of a list.

    Most changes give a field a value the same field has elsewhere in the document (an id of
    another player, a card of another entry, a time of another game): those pass the checks
    of the document's shape, and only its contents tell whether they fit.
    """
    paths = [path for path in _paths(document) if path]
    how = data.draw(
        st.sampled_from(["same field"] * 5 + ["nudge", "odd", "drop", "repeat"]), label="how"
    )
    if how in ("drop", "repeat"):
        paths = [path for path in paths if isinstance(path[-1], int)] or paths
    elif how in ("same field", "nudge"):
        paths = [path for path in paths if isinstance(path[-1], str)]
    path = data.draw(st.sampled_from(paths), label="path")
    parent: Any = document
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "drop":
        del parent[last]
    elif how == "repeat" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif how == "same field":
        values = [value for value in _fields(document, last) if value != parent[last]]
        if values:
            parent[last] = copy.deepcopy(data.draw(st.sampled_from(values), label="value"))
    elif how == "nudge" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] += data.draw(st.sampled_from([-2, -1, 1, 2]), label="by")
    else:
        parent[last] = data.draw(ODD_VALUES, label="value")


def _fields(value: Any, key: str | int) -> Iterator[Any]:
    """Yield every value of a field of this name in the document."""
    if isinstance(value, dict):
        for name, item in value.items():
            if name == key:
                yield item
            yield from _fields(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from _fields(item, key)


def _empty(app: Flask) -> bool:
    with app.app_context(), db.engine.connect() as connection:
        return all(
            connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one() == 0
            for table in db.metadata.sorted_tables
        )


def _forget_everything(app: Flask) -> None:
    with app.app_context():
        db.session.rollback()
        with db.engine.begin() as connection:
            for table in reversed(db.metadata.sorted_tables):
                connection.execute(table.delete())


def _reads(app: Flask, document: dict[str, Any], keys: dict[str, str]) -> dict[str, int]:
    """Return the status of every read and page of the imported sessions, by address."""
    client = app.test_client()
    answers: dict[str, int] = {}

    def get(address: str, key: str) -> None:
        # A link's key goes into the cookie, and the page is opened again without it (302).
        response = client.get(
            address, headers={"Authorization": f"Bearer {key}"}, follow_redirects=True
        )
        answers[address] = response.status_code

    for group in document.get("groups", []):
        key = keys.get(group["edit_key_digest"])
        if key is not None:
            get(f"/groups/{group['public_id']}?key={key}", key)
            get(f"/api/v1/groups/{group['public_id']}", key)
            get(f"/api/v1/groups/{group['public_id']}/statistics", key)
    for session in document["sessions"]:
        key = keys.get(session["edit_key_digest"])
        if key is None:
            continue  # no key opens it: nothing of it can be read
        public_id = session["public_id"]
        get(f"/sessions/{public_id}?key={key}", key)
        for page in ("history", "sheet", "sheet.csv", "export.json", "chart.svg"):
            get(f"/sessions/{public_id}/{page}", key)
        get(f"/api/v1/sessions/{public_id}", key)
        get(f"/api/v1/sessions/{public_id}/sheet", key)
        get(f"/api/v1/sessions/{public_id}/export", key)
        for game in session["games"]:
            get(f"/api/v1/games/{game['id']}", key)
            if game["status"] == "open":
                get(f"/games/{game['id']}/finish", key)
    answers["/"] = client.get("/").status_code
    return answers


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_changed_export_is_refused_or_reads_everywhere(
    played: Played, target: Flask, data: st.DataObject
) -> None:
    document = copy.deepcopy(played.document)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="changes")):
        _mutate(document, data)
    try:
        with target.app_context():
            import_sessions(copy.deepcopy(document))
    except TransferError:
        event("refused")  # --hypothesis-show-statistics tells how many got in
        assert _empty(target)
        return
    event("imported")
    try:
        answers = _reads(target, document, played.keys)
    finally:
        _forget_everything(target)
    failed = {address: status for address, status in answers.items() if status != 200}
    assert not failed
