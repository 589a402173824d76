"""``scorekeeper serve``: a real server process that upgrades its database and answers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def wait_until_answering(url: str, process: subprocess.Popen[str], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            _stdout, stderr = process.communicate()
            pytest.fail(f"the server stopped with exit code {process.returncode}:\n{stderr}")
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.05)
    pytest.fail(f"the server did not answer {url} within {seconds} seconds")


def test_serve_upgrades_the_database_prints_its_address_and_records_a_session(
    tmp_path: Path,
) -> None:
    port = free_port()
    database = tmp_path / "served.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "SECRET_KEY": "cli-test",
        "PYTHONUNBUFFERED": "1",
    }
    command = Path(sys.executable).with_name("scorekeeper")
    process = subprocess.Popen(
        [str(command), "serve", "--host", "127.0.0.1", "--port", str(port), "--threads", "2"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(f"{base}/api/v1/openapi.json", process, seconds=30)
        request = urllib.request.Request(
            f"{base}/api/v1/sessions",
            data=json.dumps({"players": ["Ann", "Bob", "Cid"], "target": 300}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 201
            session = json.load(response)
        assert [player["name"] for player in session["players"]] == ["Ann", "Bob", "Cid"]
        read = urllib.request.Request(
            f"{base}/api/v1/sessions/{session['id']}",
            headers={"Authorization": f"Bearer {session['view_key']}"},
        )
        with urllib.request.urlopen(read, timeout=5) as got:
            assert json.load(got)["target"] == 300
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/api/v1/sessions/{session['id']}", timeout=5)
        assert refused.value.code == 404
        assert json.load(refused.value)["error"]
    finally:
        process.terminate()
        try:
            stdout, stderr = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
    # The address printed is the secure one; the trust address is the port after it.
    assert f"Open https://127.0.0.1:{port}/ on a phone" in stdout, stdout + stderr
    assert f"open http://127.0.0.1:{port + 1}/ once" in stdout or "is not free" in stderr
    assert "SHA-256: " in stdout
    assert database.exists()


def test_new_session_ids_never_start_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper import keys

    drawn = iter(["-starts-like-an-option", "Ab-c_d"])
    monkeypatch.setattr(keys.secrets, "token_urlsafe", lambda _size: next(drawn))
    assert keys.new_public_id() == "Ab-c_d"


# A session made before ids stopped starting with "-" is still named on the command line.
@pytest.mark.parametrize("old_id", [None, "-GARvl_MqgILycBC7wMD7g"])
def test_keys_lists_the_sessions_and_hands_out_new_keys_for_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    old_id: str | None,
) -> None:
    import sqlalchemy as sa

    from scorekeeper import cli, create_app, services
    from scorekeeper.extensions import db
    from scorekeeper.keys import Access, SessionKeys
    from scorekeeper.models import GameSession

    url = f"sqlite:///{tmp_path / 'keys.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "cli-test")
    assert cli.main(["keys"]) == 0  # upgrades the empty database; no sessions yet
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"})
    lost = SessionKeys.new()
    with app.app_context():
        public_id = services.create_session(["Ann", "Bob"], keys=lost).public_id
        if old_id is not None:
            db.session.execute(sa.update(GameSession).values(public_id=old_id))
            db.session.commit()
            public_id = old_id
        db.engine.dispose()
    capsys.readouterr()

    assert cli.main(["keys"]) == 0
    listed = capsys.readouterr().out
    assert public_id in listed and "Ann, Bob" in listed

    assert cli.main(["keys", public_id]) == 0
    printed = capsys.readouterr().out
    new_edit = printed.split(f"/sessions/{public_id}?key=")[1].split()[0]
    with app.app_context():
        _, granted = services.access_to_session(public_id, lambda _: new_edit)
        assert granted == Access.EDIT
        with pytest.raises(services.NotFoundError):
            services.access_to_session(public_id, lambda _: lost.edit)
        db.engine.dispose()

    assert cli.main(["keys", "no-such-session"]) == 1
    assert "no session" in capsys.readouterr().err
