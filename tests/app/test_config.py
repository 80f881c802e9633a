"""Configuration from the environment, and ``make run`` serving the API as the README says."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.database import normalize_url

ROOT = Path(__file__).resolve().parents[2]


def test_secret_key_is_generated_once_and_kept_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app({"INSTANCE_PATH": str(tmp_path)})
    second = create_app({"INSTANCE_PATH": str(tmp_path)})
    key_file = tmp_path / "secret_key"
    assert len(first.config["SECRET_KEY"]) >= 64
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert key_file.read_text() == first.config["SECRET_KEY"]
    assert key_file.stat().st_mode & 0o077 == 0, "only the owner may read the key"


def test_secret_key_from_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert not (tmp_path / "secret_key").exists()


def test_default_database_is_sqlite_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path}/scorekeeper.sqlite3"


def test_database_url_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://scorer@db.invalid/wizard")
    app = create_app({"INSTANCE_PATH": str(tmp_path)})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://scorer@db.invalid/wizard"


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql://u@h:5432/db", "postgresql+psycopg://u@h:5432/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:////var/lib/tot.sqlite3", "sqlite:////var/lib/tot.sqlite3"),
    ],
)
def test_postgresql_urls_use_psycopg_3(given: str, used: str) -> None:
    assert normalize_url(given) == used


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_make_run_migrates_and_serves_the_api(tmp_path: Path) -> None:
    """The README's first command: a new game from curl's example body gets 201."""
    port = _free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{tmp_path}/run.sqlite3",
    }
    server = subprocess.Popen(
        ["make", "--no-print-directory", "run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        # Kept on this machine, it says localhost (and serves 127.0.0.1).
        printed_address = f"http://localhost:{port}/"
        address = f"http://127.0.0.1:{port}/"
        printed = ""
        assert server.stdout is not None
        while printed_address not in printed:
            line = server.stdout.readline()
            assert line, f"make run stopped before printing {printed_address}: {printed}"
            printed += line
        body = json.dumps({"players": ["Thomas", "Ute", "Kevin"]}).encode()
        request = urllib.request.Request(
            f"{address}api/v1/games",
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    status, game = response.status, json.load(response)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert status == 201
        assert [p["name"] for p in game["players"]] == ["Thomas", "Ute", "Kevin"]
        assert game["rules"]["rounds"] == 20
        assert (tmp_path / "run.sqlite3").exists(), "make run serves the DATABASE_URL it is given"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()
