"""A database that takes no writes (its SQLite files locked, PostgreSQL read-only): every
write answers 503 with ``Retry-After`` and the page's sentence and changes nothing, reads go
on, and the server keeps serving (no worker dies of SIGBUS)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import sqlite_files
from scorekeeper.extensions import db

from ..conftest import make_app, migrate, migrated_sqlite_app
from ..keeper_phone import KeeperPhone, text
from .test_serving import serving

UNAVAILABLE = {
    "en": "The database takes no changes at the moment: try again in a moment.",
    "de": "Die Datenbank nimmt gerade keine Änderungen an: Versuch es gleich noch einmal.",
}
NAMES = ["Ann", "Bob", "Cy"]


@contextmanager
def locked(*paths: Path) -> Iterator[None]:
    """``paths`` locked against writing: immutable (``chattr +i``) for root, whom permission
    bits do not stop, else read-only by their permission bits."""
    done: list[Path] = []
    try:
        for path in paths:
            if os.geteuid() == 0:
                made = subprocess.run(
                    ["chattr", "+i", str(path)], check=False, capture_output=True, text=True
                )
                if made.returncode:
                    pytest.skip(
                        "root writes a file whatever its permission bits, and this file "
                        f"system takes no immutable flag: {made.stderr.strip()}"
                    )
            else:
                path.chmod(0o555 if path.is_dir() else 0o444)
            done.append(path)
        yield
    finally:
        for path in done:
            if os.geteuid() == 0:
                subprocess.run(["chattr", "-i", str(path)], check=True)
            else:
                path.chmod(0o755 if path.is_dir() else 0o644)


def files(database: Path) -> tuple[Path, Path, Path]:
    """The database file, its WAL and its WAL index."""
    return database, Path(f"{database}-wal"), Path(f"{database}-shm")


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    app = migrated_sqlite_app(tmp_path, "unwritable", RATELIMIT_ENABLED=False)
    yield app
    with app.app_context():
        db.engine.dispose()


def created(client: Any) -> tuple[str, dict[str, str]]:
    """A new game's id, and the headers that write to it."""
    game = client.post("/api/v1/games", json={"players": NAMES}).get_json()
    return game["id"], {"Authorization": f"Bearer {game['edit_token']}"}


def assert_unavailable(response: Any) -> None:
    """A problem+json 503 that says to try again, and when."""
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == "1"
    problem = response.get_json()
    assert problem["type"] == "/api/v1/problems/unavailable"
    assert problem["detail"] == UNAVAILABLE["en"]


def test_writes_to_locked_sqlite_files_answer_503_and_reads_go_on(
    sqlite_app: Flask, tmp_path: Path
) -> None:
    client = sqlite_app.test_client()
    game_id, auth = created(client)
    phone = KeeperPhone(sqlite_app.test_client())
    assert phone.start(NAMES).status_code == 303
    database, wal, _index = files(tmp_path / "unwritable.sqlite3")

    with locked(database, wal):
        trump = client.put(f"/api/v1/games/{game_id}/rounds/1/trump", json={"turned": "blue"})
        assert trump.status_code == 401  # refused as ever before the database is asked
        assert_unavailable(
            client.put(
                f"/api/v1/games/{game_id}/rounds/1/trump", json={"turned": "blue"}, headers=auth
            )
        )
        assert_unavailable(client.post("/api/v1/games", json={"players": NAMES}))
        assert_unavailable(client.delete(f"/api/v1/games/{game_id}", headers=auth))
        started = phone.client.post("/games/new", data=phone.new_game_form(NAMES))
        assert started.status_code == 503
        assert started.headers["Retry-After"] == "1"
        assert UNAVAILABLE["en"] in text(started)
        # Reads go on: the API, the round screen, the sheet, the spectator page.
        assert client.get(f"/api/v1/games/{game_id}").get_json()["version"] == 1
        for page in ("rounds/1", "sheet", "view"):
            assert phone.get(f"/games/{phone.game_id}/{page}").status_code == 200, page
        assert client.get("/healthz").get_json() == {"status": "ok"}

    # Nothing was written, and writes go on once the files may be written again.
    trump = client.put(
        f"/api/v1/games/{game_id}/rounds/1/trump", json={"turned": "blue"}, headers=auth
    )
    assert trump.status_code == 200
    assert trump.get_json()["version"] == 2


def test_a_file_locked_after_the_check_is_still_a_503(
    sqlite_app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The WAL locked between the check and the write: SQLite's own error (disk I/O) is
    answered 503 too, not 500."""
    if os.geteuid() != 0:
        pytest.skip("permission bits do not stop a file open for writing: only root locks one")
    client = sqlite_app.test_client()
    game_id, auth = created(client)
    monkeypatch.setattr(sqlite_files, "_writable", lambda _path: True)  # the check missed it
    trump = f"/api/v1/games/{game_id}/rounds/1/trump"
    with locked(Path(f"{tmp_path}/unwritable.sqlite3-wal")):
        assert_unavailable(client.put(trump, json={"turned": "blue"}, headers=auth))
    assert client.put(trump, json={"turned": "blue"}, headers=auth).get_json()["version"] == 2


def test_a_database_in_a_locked_directory_is_read_and_not_written(
    sqlite_app: Flask, tmp_path: Path
) -> None:
    """The directory locked while no connection is open, so that no WAL is left beside the
    database (as after a restart): SQLite cannot make one, yet the games are read."""
    client = sqlite_app.test_client()
    game_id, auth = created(client)
    with sqlite_app.app_context():
        db.engine.dispose()
    assert not Path(f"{tmp_path}/unwritable.sqlite3-wal").exists()
    trump = f"/api/v1/games/{game_id}/rounds/1/trump"
    with locked(tmp_path):
        assert client.get(f"/api/v1/games/{game_id}").get_json()["version"] == 1
        assert client.get(f"/games/{game_id}/view").status_code == 200
        assert_unavailable(client.put(trump, json={"turned": "blue"}, headers=auth))
    assert client.put(trump, json={"turned": "blue"}, headers=auth).get_json()["version"] == 2


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_tap_on_a_locked_sqlite_file_is_answered_with_the_page_sentence(
    sqlite_app: Flask, tmp_path: Path, language: str
) -> None:
    phone = KeeperPhone(sqlite_app.test_client())
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    assert phone.start(NAMES).status_code == 303
    version = phone.version(1)
    database, wal, _index = files(tmp_path / "unwritable.sqlite3")
    with locked(database, wal):
        tap = phone.client.post(
            phone.round_path(1),
            data={
                "csrf_token": phone.csrf(),
                "version": str(version),
                "action": "trump",
                "turned": "blue",
            },
            headers={"HX-Request": "true"},
        )
        assert tap.status_code == 503
        assert tap.headers["Retry-After"] == "1"
        assert UNAVAILABLE[language] in text(tap)
    assert phone.version(1) == version


def test_a_read_only_postgresql_database_answers_writes_503_and_reads_go_on(
    postgres_url: str,
) -> None:
    writable = make_app(postgres_url)
    game_id, auth = created(writable.test_client())
    separator = "&" if "?" in postgres_url else "?"
    read_only = make_app(
        f"{postgres_url}{separator}options=-c%20default_transaction_read_only%3Don"
    )
    client = read_only.test_client()
    try:
        assert_unavailable(
            client.put(
                f"/api/v1/games/{game_id}/rounds/1/trump", json={"turned": "red"}, headers=auth
            )
        )
        assert_unavailable(client.post("/api/v1/games", json={"players": NAMES}))
        assert client.get(f"/api/v1/games/{game_id}").get_json()["version"] == 1
        assert client.get(f"/games/{game_id}/view").status_code == 200
    finally:
        for app in (writable, read_only):
            with app.app_context():
                db.engine.dispose()


# -- A real server ---------------------------------------------------------------------------

WRITES = 50


def _request(port: int, method: str, path: str, **headers: str) -> tuple[int, str | None, Any]:
    body = {"PUT": {"turned": "blue"}, "POST": {"players": NAMES}}.get(method)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = json.dumps(body) if body else None
        connection.request(method, path, sent, {"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        return response.status, response.getheader("Retry-After"), json.loads(response.read())
    finally:
        connection.close()


def test_a_server_whose_sqlite_files_are_locked_keeps_serving(tmp_path: Path) -> None:
    """Locked under a running gunicorn (the WAL index too, which the worker holds mapped):
    every write is a 503 and no worker dies (of SIGBUS); reads go on within seconds."""
    database, *_ = locked_files = files(tmp_path / "serving.sqlite3")
    url = f"sqlite:///{database}"
    migrate(url)
    with serving(tmp_path, DATABASE_URL=url, RATELIMIT_ENABLED="false") as port:
        status, _, game = _request(port, "POST", "/api/v1/games")
        assert status == 201
        path = f"/api/v1/games/{game['id']}"
        auth = {"Authorization": f"Bearer {game['edit_token']}"}
        with locked(*locked_files):
            answers = [
                _request(port, "PUT", f"{path}/rounds/1/trump", **auth)[:2] for _ in range(WRITES)
            ]
            assert answers == [(503, "1")] * WRITES
            deadline = time.monotonic() + 15
            while (read := _request(port, "GET", path))[0] != 200:
                assert read[0] == 503
                assert time.monotonic() < deadline, "no read served within 15 s"
                time.sleep(0.2)
            assert read[2]["version"] == 1
        deadline = time.monotonic() + 15
        while (write := _request(port, "PUT", f"{path}/rounds/1/trump", **auth))[0] != 200:
            assert write[:2] == (503, "1")
            assert time.monotonic() < deadline, "no write served within 15 s of the unlock"
            time.sleep(0.2)
        assert write[2]["version"] == 2
