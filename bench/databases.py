"""Throw-away databases for the in-process benchmarks (queries, racing, stats), which run the
app of this checkout through Flask's test client: a temporary SQLite file, or a schema of its
own in the PostgreSQL database named by ``BENCH_DATABASE_URL`` (else ``TEST_DATABASE_URL``),
dropped afterwards. Both are built by the migrations, as ``make run`` builds its own. (The
load and crash tests run the server as a subprocess instead: bench/server.py.)"""

from __future__ import annotations

import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.database import normalize_url
from scorekeeper.extensions import db

from .server import BACKENDS, Unavailable, postgres_base_url

__all__ = ["BACKENDS", "Unavailable", "database", "migrate"]


def migrate(url: str) -> None:
    """Build the schema at ``url`` through the migrations."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
        db.engine.dispose()


@contextmanager
def database(backend: str) -> Iterator[str]:
    """A fresh, migrated database on ``backend``; its URL (dropped on leaving)."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="tablet-bench-") as folder:
            url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            migrate(url)
            yield url
        return
    base = normalize_url(postgres_base_url())
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(base)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    except sa.exc.OperationalError as error:
        engine.dispose()
        raise Unavailable(f"cannot reach PostgreSQL: {error.orig}") from error
    separator = "&" if "?" in base else "?"
    url = f"{base}{separator}options={quote(f'-c search_path={schema}')}"
    try:
        migrate(url)
        yield url
    finally:
        with engine.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        engine.dispose()
