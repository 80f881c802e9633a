"""Errors the API answers itself: unknown addresses, wrong methods, and its last resort."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from scorekeeper import create_app, database
from scorekeeper.database import is_lock_timeout
from scorekeeper.extensions import db
from scorekeeper.services import rounds

from ..conftest import migrated_sqlite_app


def test_unknown_api_address_is_a_problem_document(client: FlaskClient) -> None:
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["detail"] == "There is nothing at this address of the API."


def test_wrong_method_names_the_allowed_ones(client: FlaskClient) -> None:
    response = client.patch("/api/v1/games")
    assert response.status_code == 405
    assert response.mimetype == "application/problem+json"
    assert "POST" in response.headers["Allow"]


def test_an_unexpected_failure_is_a_problem_document_and_changes_nothing(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last resort: a bug answers 500 as problem+json, and the write is rolled back."""
    created = app.test_client().post("/api/v1/games", json={"players": ["A", "B", "C"]})
    game = created.get_json()

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(rounds, "trump_from", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    plain = FlaskClient(app, app.response_class, use_cookies=False)
    response = plain.put(
        f"/api/v1/games/{game['id']}/rounds/1/trump",
        json={"turned": "red"},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["detail"] == (
        "Something went wrong on the server, and nothing was changed."
    )
    after = plain.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["version"] == 1
    assert after["rounds"][0]["trump"] is None


@pytest.mark.parametrize("path", ["trump", "bids"])
def test_a_write_that_cannot_have_sqlites_lock_in_time_is_a_503_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """Another program holds SQLite's write lock longer than the app waits for it."""
    monkeypatch.setattr(database, "LOCK_TIMEOUT_MS", 100)
    app = migrated_sqlite_app(tmp_path, "busy")
    client = FlaskClient(app, app.response_class, use_cookies=False)
    game = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    base = f"/api/v1/games/{game['id']}"
    if path == "bids":
        client.put(f"{base}/rounds/1/trump", json={"turned": "red"}, headers=auth)
    body = {"trump": {"turned": "blue"}, "bids": {"bids": [0, 1, None]}}[path]
    before = client.get(base).get_json()

    other = sqlite3.connect(tmp_path / "busy.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        response = client.put(f"{base}/rounds/1/{path}", json=body, headers=auth)
    finally:
        other.execute("ROLLBACK")
        other.close()

    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert response.get_json()["detail"] == "The database is busy: try again in a moment."
    assert client.get(base).get_json() == before
    assert client.put(f"{base}/rounds/1/{path}", json=body, headers=auth).status_code == 200
    with app.app_context():
        db.engine.dispose()


def test_a_database_fault_is_a_500_not_a_busy_database(tmp_path: Path) -> None:
    """A missing table is no reason to 'try again in a moment': it is the server's fault."""
    app = create_app(
        {
            "INSTANCE_PATH": str(tmp_path),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/not-migrated.sqlite3",
            "SECRET_KEY": "test",
        }
    )
    plain = FlaskClient(app, app.response_class)
    response = plain.post("/api/v1/games", json={"players": ["A", "B", "C"]})
    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    assert "Retry-After" not in response.headers
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize(
    ("message", "busy"),
    [("database is locked", True), ("no such table: games", False), ("disk I/O error", False)],
)
def test_only_a_lock_timeout_counts_as_a_busy_database(message: str, busy: bool) -> None:
    error = OperationalError("SELECT 1", {}, sqlite3.OperationalError(message))
    assert is_lock_timeout(error) is busy
