"""Fixtures: one app per backend for the session (per worker under pytest-xdist), its tables
emptied before each test; schemas built by the migrations, as ``make run`` does.

A database test runs on SQLite. A test whose outcome can depend on the backend (locking,
statement counts, SQL that the backends read differently: docs/development.md lists them)
is marked ``both_backends`` and runs on PostgreSQL too when ``TEST_DATABASE_URL`` is set; one
marked ``postgres`` runs on PostgreSQL alone."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade
from hypothesis import HealthCheck, settings

from scorekeeper import create_app, push
from scorekeeper.database import normalize_url
from scorekeeper.extensions import cache, db, limiter

from .api_client import ApiClient
from .keeper_phone import KeeperPhone
from .openapi_check import CheckedClient

# Hypothesis: CI's profile draws as many examples as the properties were written for; the
# quick one (`make quick`, or HYPOTHESIS_PROFILE=quick) a few, for the loop between edits.
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "quick", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

DATA_TABLES = (
    "round_changes",
    "handovers",
    "keepers",
    "ended_keepers",
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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "both_backends: its outcome can depend on the backend; runs on SQLite and, with "
        "TEST_DATABASE_URL, on PostgreSQL (docs/development.md says why each is marked)",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The backends a database test runs on: SQLite; both when marked ``both_backends``;
    PostgreSQL alone when marked ``postgres``."""
    if "backend" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("postgres"):
        backends = ["postgresql"]
    elif metafunc.definition.get_closest_marker("both_backends"):
        backends = ["sqlite", "postgresql"]
    else:
        backends = ["sqlite"]
    metafunc.parametrize("backend", backends, indirect=True)


def make_app(database_url: str, **config: Any) -> Flask:
    """An app for tests on ``database_url``, with ``config`` besides the tests' settings."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "SECRET_KEY": "test-secret",
            # The suite starts many games from one address; tests/app/test_security.py checks
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


def empty(database_url: str) -> None:
    """Delete every row of the app's tables (the schema and its migration stay)."""
    engine = sa.create_engine(database_url)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql(f"TRUNCATE {', '.join(DATA_TABLES)} RESTART IDENTITY")
        else:
            for table in DATA_TABLES:
                connection.exec_driver_sql(f"DELETE FROM {table}")
    engine.dispose()


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """This session's (this worker's) SQLite file, migrated."""
    path = tmp_path_factory.mktemp("database") / "test.sqlite3"
    url = f"sqlite:///{path}"
    migrate(url)
    return url


def _worker_database(url: str) -> str:
    """Under pytest-xdist each worker works in a database of its own beside
    TEST_DATABASE_URL's (``test_gw0``, …), made when missing; else in that database."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    base = sa.engine.make_url(url)
    name = f"{base.database}_{worker}"
    engine = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        found = connection.exec_driver_sql(
            "SELECT 1 FROM pg_database WHERE datname = %(name)s", {"name": name}
        ).first()
        if not found:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


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
    try:
        url = _worker_database(url)
        engine = sa.create_engine(url)
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE")
            connection.exec_driver_sql("CREATE SCHEMA public")
        engine.dispose()
    except sa.exc.OperationalError as error:
        message = f"cannot reach PostgreSQL at TEST_DATABASE_URL: {error}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
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


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend of this test's database, "sqlite" or "postgresql" (pytest_generate_tests)."""
    name: str = request.param
    return name


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest) -> str:
    """The backend's database, every table empty."""
    url: str = request.getfixturevalue(f"{backend}_url".replace("postgresql", "postgres"))
    empty(url)
    return url


@contextmanager
def app_on(database_url: str, **config: Any) -> Iterator[Flask]:
    """An app of its own for tests on ``database_url``, its connections closed afterwards."""
    app = make_app(database_url, **config)
    yield app
    close(app)


def close(app: Flask) -> None:
    """Stop what the app runs beside its requests (the followed games' sweep), then close
    its database connections."""
    app.extensions["push"].close()
    with app.app_context():
        db.engine.dispose()


_apps: dict[str, Flask] = {}


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """The backend's app for the session, on empty tables, its limits and caches emptied and
    its settings put back after the test."""
    app = _apps.get(database_url)
    if app is None:
        app = _apps[database_url] = make_app(database_url)
    config = dict(app.config)
    with app.app_context():
        limiter.reset()
        cache.clear()
    yield app
    app.extensions["push"].close()
    push.init_app(app)  # a hub of its own for the next test
    app.config.clear()
    app.config.update(config)


def pytest_sessionfinish() -> None:
    for app in _apps.values():
        close(app)


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


@pytest.fixture
def phone(client: FlaskClient) -> KeeperPhone:
    """The KeeperPhone's phone: the round screen's taps, a form POST each."""
    return KeeperPhone(client)


@pytest.fixture
def other_phone(app: Flask) -> KeeperPhone:
    """Another phone at the table, with cookies of its own."""
    return KeeperPhone(app.test_client())


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say once why tests were skipped, rather than once per test."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else "skipped"
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"{count} skipped: {reason}")
