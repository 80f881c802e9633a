"""Fixtures: an app on a fresh database per test, on SQLite always and on PostgreSQL when
``TEST_DATABASE_URL`` is set. Schemas are built by the migrations, as ``make run`` does."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.database import normalize_url
from scorekeeper.extensions import db

from .api_client import ApiClient
from .openapi_check import CheckedClient

BACKENDS = ["sqlite", "postgresql"]
DATA_TABLES = (
    "round_changes",
    "handovers",
    "grants",
    "table_codes",
    "entries",
    "rounds",
    "players",
    "games",
)
RAISED_LIMITS = {
    "RATELIMIT_CREATE_GAME": "100000 per minute",
    "RATELIMIT_HAND_OVER": "100000 per minute",
    "RATELIMIT_TABLE_CODE": "100000 per minute",
    "RATELIMIT_IMPORT_GAMES": "100000 per minute",
    "RATELIMIT_STATISTICS": "100000 per minute",
}


def make_app(database_url: str, **config: Any) -> Flask:
    """An app for tests on ``database_url``, with ``config`` besides the tests' settings."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "SECRET_KEY": "test-secret",
            # The suite starts many games from one address; tests/test_security.py checks
            # the limits at their real values.
            **RAISED_LIMITS,
            **config,
        }
    )
    app.test_client_class = CheckedClient
    return app


def migrated_sqlite_app(folder: Path, name: str, **config: Any) -> Flask:
    """An app on a SQLite file of its own in ``folder``, migrated, with ``config`` as given
    (for tests that serve it or need settings the ``app`` fixture does not have)."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/{name}.sqlite3",
            "SECRET_KEY": f"{name}-tests",
            "INSTANCE_PATH": str(folder / "instance"),
            **config,
        }
    )
    with app.app_context():
        upgrade()
    return app


def migrate(database_url: str) -> None:
    """Build the schema through the migrations."""
    app = make_app(database_url)
    with app.app_context():
        upgrade()
        db.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite database, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The PostgreSQL test database, migrated afresh; skipped without TEST_DATABASE_URL."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip(
            "PostgreSQL tests need TEST_DATABASE_URL, e.g. "
            "postgresql://postgres@127.0.0.1:5432/test (CI sets it)"
        )
    url = normalize_url(url)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE")
            connection.exec_driver_sql("CREATE SCHEMA public")
    except sa.exc.OperationalError as error:
        message = f"cannot reach PostgreSQL at TEST_DATABASE_URL: {error}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    finally:
        engine.dispose()
    migrate(url)
    return url


REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_url() -> str:
    """The Redis server of the tests marked ``redis``; skipped without one, failed under CI.
    Each test keeps its keys apart (a key prefix or an address of its own)."""
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError as error:
        message = f"the tests marked redis need Redis at {REDIS_URL}: {error}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return REDIS_URL


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, migrated database on each backend."""
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql(f"TRUNCATE {', '.join(DATA_TABLES)} CASCADE")
    engine.dispose()
    return url


@contextmanager
def app_on(database_url: str) -> Iterator[Flask]:
    """An app for tests on ``database_url``, its connections closed afterwards."""
    app = make_app(database_url)
    yield app
    close(app)


def close(app: Flask) -> None:
    """Stop what the app runs beside its requests (the followed games' sweep), then close
    its database connections."""
    app.extensions["push"].close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """The app on a fresh database."""
    with app_on(database_url) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client whose API responses are checked against the OpenAPI document."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """Runs the app's ``flask`` commands."""
    return app.test_cli_runner()


@pytest.fixture
def api(client: FlaskClient) -> ApiClient:
    """A small client for the JSON API."""
    return ApiClient(client)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once why tests were skipped, rather than once per test."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else "skipped"
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"{count} skipped: {reason}")
