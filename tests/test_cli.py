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
        wait_until_answering(f"{base}/api/v1/openapi.json", process, seconds=15)
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
        with urllib.request.urlopen(f"{base}/api/v1/sessions/{session['id']}", timeout=5) as got:
            assert json.load(got)["target"] == 300
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/api/v1/sessions/999", timeout=5)
        assert refused.value.code == 404
        assert json.load(refused.value)["error"]
    finally:
        process.terminate()
        try:
            stdout, stderr = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
    assert f"http://127.0.0.1:{port}/" in stdout, stdout + stderr
    assert database.exists()
