"""Engine set-up per backend: SQLite gets WAL, foreign keys and IMMEDIATE write transactions."""

from __future__ import annotations

import functools
import time
from typing import Any

from flask import Flask
from sqlalchemy import ColumnElement, event, func, make_url
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError
from sqlalchemy.orm import QueryableAttribute

from .extensions import db
from .rules import fold_case

#: Execution option that makes a SQLite transaction begin IMMEDIATE: the service's writes.
WRITE_OPTION = "scorekeeper_write"

# How long a write waits for another writer's lock before the request gets a 503 (kept
# well below gunicorn's 30 s worker timeout). The same bound on both backends.
LOCK_TIMEOUT_MS = 15_000
_LOCK_TIMEOUT = f"-c lock_timeout={LOCK_TIMEOUT_MS}"
# A PostgreSQL connection idle in the pool longer than this is pinged before it is used.
PING_AFTER_IDLE = 1.0  # seconds


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
        # psycopg prepares a statement on the server once a connection has run it a few
        # times (parsed and planned once). It forgets them all at a ROLLBACK, so reads end
        # with COMMIT (end_read_transaction).
        # Pinged before use when idle a while (see _ping_if_idle), not before each request.
        return {"connect_args": {"options": options.strip()}}
    return {"pool_pre_ping": True}


def init_engine(app: Flask) -> None:
    """Install the backend's connection settings on the app's engine (SQLite: pragmas and
    IMMEDIATE writes; PostgreSQL: COMMIT ending read-only requests, pings of idle connections)."""
    with app.app_context():
        engine = db.engine
    # Registered after Flask-SQLAlchemy's teardown, so it runs before it.
    app.teardown_appcontext(end_read_transaction)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    if engine.dialect.name == "postgresql":
        event.listen(engine, "checkin", _returned)
        event.listen(engine, "checkout", functools.partial(_ping_if_idle, engine.dialect))


def _returned(_dbapi_connection: Any, record: Any) -> None:
    record.info["returned_at"] = time.monotonic()


def _ping_if_idle(dialect: Dialect, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Make sure a connection that sat idle in the pool is still good before it is used.

    Its server may have gone away meanwhile (restarted, or it closed idle connections):
    the pool then throws it away and opens another. A connection given back moments ago
    is not pinged: a round trip before every request costs a good part of a write's time.
    Should its server have gone away in that moment all the same, the request is
    answered 503 (try again), and the pool replaces its connections.
    """
    returned_at = record.info.get("returned_at")
    if returned_at is None or time.monotonic() - returned_at < PING_AFTER_IDLE:
        return  # just opened, or back from a request a moment ago
    # In autocommit, so the ping leaves no transaction open (a request's write may want
    # autocommit itself, and psycopg allows the switch only outside a transaction).
    dbapi_connection.autocommit = True
    try:
        dialect.do_ping(dbapi_connection)
    except dialect.loaded_dbapi.Error as error:
        raise DisconnectionError(str(error)) from error
    finally:
        if not dbapi_connection.closed:
            dbapi_connection.autocommit = False


def end_read_transaction(error: BaseException | None) -> None:
    """End a request's open transaction with COMMIT on PostgreSQL: it can only have read,
    and COMMIT then does what Flask-SQLAlchemy's ROLLBACK would, but keeps psycopg's
    prepared statements.

    Nothing written waits here: every write commits or rolls back in its own use case
    (``services.loading.write_transaction``), handled errors included. A request that ended
    in an unhandled error, or left ORM changes pending, is rolled back as before.
    """
    if error is not None or not db.session.registry.has():
        return
    session = db.session()
    if not session.in_transaction() or session.new or session.dirty or session.deleted:
        return
    if session.get_bind().dialect.name != "postgresql":
        return  # SQLite has no prepared statements to keep
    try:
        session.commit()
    except SQLAlchemyError:
        session.rollback()


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
    # SQLite's own lower() folds A to Z only: "Özil" would stay "Özil", and a search for
    # "özil" (or the statistics' "ÖZIL") would miss it. Python's folds every alphabet, as
    # PostgreSQL's does. (No index is built on lower(): none depends on which one it is.)
    dbapi_connection.create_function("lower", 1, _lower, deterministic=True)


def _lower(value: object) -> object:
    return fold_case(value) if isinstance(value, str) else value


def folded(column: ColumnElement[str] | QueryableAttribute[str]) -> ColumnElement[str]:
    """A text column in lower case, to find and to count names in any case: the same
    letters as :func:`fold_case` makes of what is searched for."""
    return func.replace(func.lower(column), "ς", "σ")


def _sqlite_begin(connection: Connection) -> None:
    # A write takes the write lock when it begins, so two writers queue up instead of one
    # failing with "database is locked" when it tries to upgrade a read lock; reads stay
    # deferred and run beside a writer thanks to WAL. (SQLAlchemy's own recipe for pysqlite:
    # the driver's transaction handling is off, see _sqlite_connect, and BEGIN is sent here.)
    write = connection.get_execution_options().get(WRITE_OPTION)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def is_connection_lost(error: Exception) -> bool:
    """Whether a database error means "the connection to the server was lost" (the server
    restarted, say): the pool opens new connections, and the request may be tried again."""
    return bool(getattr(error, "connection_invalidated", False))


def is_lock_timeout(error: Exception) -> bool:
    """Whether a database error means "another writer held the lock too long"."""
    original = getattr(error, "orig", None)
    if getattr(original, "sqlstate", None) == "55P03":  # PostgreSQL lock_not_available
        return True
    return "database is locked" in str(original or error)
