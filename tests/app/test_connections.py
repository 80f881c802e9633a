"""PostgreSQL connections that the server closed: one idle in the pool is replaced before
it is used; one lost in the middle of a request, or one that cannot be opened, is answered
503 (try again), never a 500, and the next request is served on a new connection."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import database
from scorekeeper.extensions import db

from ..api_client import ApiClient
from ..conftest import app_on


@pytest.fixture
def pg_app(postgres_url: str) -> Iterator[Flask]:
    """The app on PostgreSQL (SQLite has no connection to lose)."""
    with app_on(postgres_url) as app:
        yield app


def pooled_backends(app: Flask) -> set[int]:
    """The server processes of the connections idle in the app's pool."""
    with app.app_context():
        pool = db.engine.pool
        connections = [pool.connect() for _ in range(pool.checkedin())]
        try:
            return {
                connection.driver_connection.info.backend_pid  # type: ignore[union-attr]
                for connection in connections
            }
        finally:
            for connection in connections:
                connection.close()


def close_on_server(url: str, backends: set[int]) -> None:
    """Close these connections from the server's side, as a restart would."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            for pid in backends:
                connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        engine.dispose()


def test_a_connection_closed_while_idle_is_replaced_before_it_is_used(
    pg_app: Flask, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = ApiClient(pg_app.test_client())
    game_id = api.create(["Ann", "Bob", "Cy"])["id"]
    backends = pooled_backends(pg_app)
    assert backends
    close_on_server(postgres_url, backends)
    monkeypatch.setattr(database, "PING_AFTER_IDLE", 0.0)  # as after a second in the pool

    assert api.trump(game_id, 1, "red")["version"] == 2
    assert pooled_backends(pg_app).isdisjoint(backends)


def test_a_connection_lost_moments_after_its_last_use_is_a_503_then_replaced(
    pg_app: Flask, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = ApiClient(pg_app.test_client())
    game_id = api.create(["Ann", "Bob", "Cy"])["id"]
    page = pg_app.test_client().get(f"/games/{game_id}/view")
    assert page.status_code == 200
    monkeypatch.setattr(database, "PING_AFTER_IDLE", 3600.0)  # not pinged: used moments ago

    close_on_server(postgres_url, pooled_backends(pg_app))
    response = api.put(game_id, 1, "trump", {"turned": "red"})
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert response.get_json()["detail"] == (
        "The database could not be reached: try again in a moment."
    )

    close_on_server(postgres_url, pooled_backends(pg_app))
    page = pg_app.test_client().get(f"/games/{game_id}/view")
    assert page.status_code == 503
    assert "The database could not be reached: try again in a moment." in page.text

    # Nothing was written, and the next tries are served on new connections.
    assert api.get(game_id)["version"] == 1
    assert api.trump(game_id, 1, "red")["version"] == 2


def test_a_connection_lost_retires_the_others_the_pool_held_then(
    pg_app: Flask, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart of the server cuts every connection: after the first 503, the next request
    gets a new connection, not another dead one from the pool."""
    api = ApiClient(pg_app.test_client())
    game_id = api.create(["Ann", "Bob", "Cy"])["id"]
    with pg_app.app_context():
        held = [db.engine.pool.connect() for _ in range(3)]
        for connection in held:
            connection.close()
    backends = pooled_backends(pg_app)
    assert len(backends) >= 3
    monkeypatch.setattr(database, "PING_AFTER_IDLE", 3600.0)  # not pinged: used moments ago

    close_on_server(postgres_url, backends)
    assert api.put(game_id, 1, "trump", {"turned": "red"}).status_code == 503
    assert api.trump(game_id, 1, "red")["version"] == 2
    assert api.bids(game_id, 1, [0, 1, 0])["version"] == 3
    assert pooled_backends(pg_app).isdisjoint(backends)


@contextmanager
def unreachable_server(*, answers: bool) -> Iterator[str]:
    """The URL of a PostgreSQL server that refuses connections (``answers=False``: nothing
    listens), or one that takes them and never says a word (closed after 10 s)."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    if not answers:
        server.close()
    silence = threading.Timer(10, server.close)
    silence.start()
    try:
        yield f"postgresql://tablet@127.0.0.1:{port}/tablet"
    finally:
        silence.cancel()
        server.close()


@pytest.mark.parametrize("answers", [False, True], ids=["refused", "silent"])
def test_a_database_that_cannot_be_reached_is_a_503_within_seconds(
    answers: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "CONNECT_TIMEOUT", 1)
    with unreachable_server(answers=answers) as url, app_on(url) as app:
        started = time.monotonic()
        response = app.test_client().post("/api/v1/games", json={"players": ["A", "B", "C"]})
        assert time.monotonic() - started < 5
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "1"
        assert response.get_json()["detail"] == (
            "The database could not be reached: try again in a moment."
        )
        page = app.test_client().get("/games/some-game/view")
        assert page.status_code == 503
        assert page.headers["Retry-After"] == "1"
        assert "The database could not be reached: try again in a moment." in page.text
