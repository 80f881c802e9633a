"""Engine set-up per backend: SQLite gets WAL, foreign keys and IMMEDIATE write transactions."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import event, make_url
from sqlalchemy.engine import Connection

from .extensions import db

#: Execution option that makes a SQLite transaction begin IMMEDIATE: the service's writes.
WRITE_OPTION = "scorekeeper_write"

# How long a write waits for another writer's lock before the request gets a 503 (kept
# well below gunicorn's 30 s worker timeout). The same bound on both backends.
LOCK_TIMEOUT_MS = 15_000
_LOCK_TIMEOUT = f"-c lock_timeout={LOCK_TIMEOUT_MS}"


def normalize_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL URLs given the short way (``postgres://``, ``postgresql://``)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def engine_options(url: str) -> dict[str, Any]:
    """Engine options for the backend of ``url``."""
    if url.startswith("sqlite"):
        # The driver waits up to this long for another writer's lock before giving up.
        return {"connect_args": {"timeout": LOCK_TIMEOUT_MS / 1000}}
    if url.startswith("postgresql"):
        # Options given in the URL (``?options=-c search_path=...``) are kept.
        given = make_url(url).query.get("options", "")
        options = " ".join([*([given] if isinstance(given, str) else given), _LOCK_TIMEOUT])
        # No server-side prepared statements: psycopg drops them all (DEALLOCATE ALL, one
        # more round trip) at every ROLLBACK, which ends every read, so they would be
        # prepared (another round trip) and thrown away over and over.
        connect_args = {"options": options.strip(), "prepare_threshold": None}
        return {"pool_pre_ping": True, "connect_args": connect_args}
    return {"pool_pre_ping": True}


def init_engine(app: Flask) -> None:
    """Install the SQLite connection settings on the app's engine."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Take transaction control away from the driver: _sqlite_begin issues BEGIN itself.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {LOCK_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # A write takes the write lock when it begins, so two writers queue up instead of one
    # failing with "database is locked" when it tries to upgrade a read lock; reads stay
    # deferred and run beside a writer thanks to WAL.
    if connection.get_execution_options().get(WRITE_OPTION):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")


def is_lock_timeout(error: Exception) -> bool:
    """Whether a database error means "another writer held the lock too long"."""
    original = getattr(error, "orig", None)
    if getattr(original, "sqlstate", None) == "55P03":  # PostgreSQL lock_not_available
        return True
    return "database is locked" in str(original or error)
