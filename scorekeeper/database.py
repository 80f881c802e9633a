"""Engine set-up per backend: SQLite gets WAL, foreign keys and IMMEDIATE write transactions."""

from __future__ import annotations

import functools
import re
import time
from typing import Any

from flask import Flask, request
from sqlalchemy import ColumnElement, event, func, make_url
from sqlalchemy.engine import Connection, Dialect, ExceptionContext
from sqlalchemy.exc import DisconnectionError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import QueryableAttribute

from .extensions import db
from .rules.table import fold_case
from .sqlite_files import (
    REPLACE_WORKER,
    FilesUnwritable,
    SqliteFiles,
    database_path,
    open_immutable,
)

#: Execution option that makes a SQLite transaction begin IMMEDIATE: the service's writes.
WRITE_OPTION = "scorekeeper_write"

# How long a write waits for another writer's lock before the request gets a 503 (kept
# well below gunicorn's 30 s worker timeout). The same bound on both backends.
LOCK_TIMEOUT_MS = 15_000
_LOCK_TIMEOUT = f"-c lock_timeout={LOCK_TIMEOUT_MS}"
# A PostgreSQL connection idle in the pool longer than this is pinged before it is used.
PING_AFTER_IDLE = 1.0  # seconds
# A PostgreSQL server that does not answer a new connection within this long is unreachable
# (503) rather than waited for as long as the network lets a request hang.
CONNECT_TIMEOUT = 5  # seconds


def normalize_url(url: str) -> str:
    """Use psycopg 3 for PostgreSQL URLs given the short way (``postgres://``, ``postgresql://``)."""
    return re.sub(r"^postgres(ql)?://", "postgresql+psycopg://", url)


def engine_options(url: str) -> dict[str, Any]:
    """Engine options for the backend of ``url``."""
    if url.startswith("sqlite"):
        # The driver waits up to this long for another writer's lock before giving up.
        return {"connect_args": {"timeout": LOCK_TIMEOUT_MS / 1000}}
    if url.startswith("postgresql"):
        # Options given in the URL (``?options=-c search_path=...``, ``connect_timeout``) are kept.
        query = make_url(url).query
        given = query.get("options", "")
        options = " ".join([*([given] if isinstance(given, str) else given), _LOCK_TIMEOUT])
        # Not pinged before each request (_ping_if_idle); reads end with COMMIT, which keeps
        # psycopg's prepared statements (end_read_transaction).
        timeout = query.get("connect_timeout", CONNECT_TIMEOUT)
        return {"connect_args": {"options": options.strip(), "connect_timeout": timeout}}
    return {"pool_pre_ping": True}


def init_engine(app: Flask) -> None:
    """Install the backend's connection settings and transaction handling on the app's engine."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "sqlite":
        path = database_path(engine.url)
        files = SqliteFiles(path) if path else None
        event.listen(engine, "connect", functools.partial(_sqlite_connect, files))
        event.listen(engine, "begin", functools.partial(_sqlite_begin, files))
        if files is not None and not engine.url.query.get("uri"):
            event.listen(engine, "do_connect", functools.partial(_sqlite_do_connect, files))
            event.listen(engine, "checkout", functools.partial(_sqlite_checkout, files))
        if files is not None:
            app.teardown_request(functools.partial(_ask_to_replace, files))
    if engine.dialect.name == "postgresql":
        # Registered after Flask-SQLAlchemy's teardown, so it runs before it.
        app.teardown_appcontext(end_read_transaction)
        event.listen(engine, "checkin", _returned)
        event.listen(engine, "checkout", functools.partial(_ping_if_idle, engine.dialect))
        event.listen(engine, "handle_error", _unreachable)


def _unreachable(context: ExceptionContext) -> None:
    """A connection that could not be opened (the server down, unknown or silent) is lost
    like one cut in use: a retry may find it back (503), no fault of this server (500)."""
    if context.connection is None and isinstance(context.sqlalchemy_exception, OperationalError):
        context.is_disconnect = True


def _returned(_dbapi_connection: Any, record: Any) -> None:
    record.info["returned_at"] = time.monotonic()


def _ping_if_idle(dialect: Dialect, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Ping a connection idle in the pool a while (its server may have gone), not every one:
    a round trip costs a good part of a write; a rare miss is answered 503 (try again)."""
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
    """End a request's read-only transaction with COMMIT on PostgreSQL, which keeps psycopg's
    prepared statements that Flask-SQLAlchemy's ROLLBACK would drop (writes commit in
    ``services.transaction.write_transaction``; an error or pending change still rolls back)."""
    if error is not None or not db.session.registry.has():
        return
    session = db.session()
    if not session.in_transaction() or session.new or session.dirty or session.deleted:
        return
    try:
        session.commit()
    except SQLAlchemyError:
        session.rollback()


def _sqlite_do_connect(
    files: SqliteFiles, _dialect: Dialect, record: Any, cargs: list[str], cparams: dict[str, Any]
) -> None:
    """Open a database that can only be read as immutable so (sqlite_files.py)."""
    record.info["immutable"] = files.immutable()
    if record.info["immutable"]:
        open_immutable(files.paths[0], cargs, cparams)


def _sqlite_checkout(files: SqliteFiles, _dbapi_connection: Any, record: Any, _proxy: Any) -> None:
    """Replace a connection opened as immutable once the database may be written again (a
    writer would not see it, nor it the writer's changes)."""
    if record.info.get("immutable") and not files.immutable():
        raise DisconnectionError("the database may be written again")


def _ask_to_replace(files: SqliteFiles, _error: BaseException | None) -> None:
    """Tell the server that this process had better be replaced: a new process reads a
    database locked against writing, and writes one unlocked again (sqlite_files.py)."""
    if files.replace:
        request.environ[REPLACE_WORKER] = True


def _sqlite_connect(files: SqliteFiles | None, dbapi_connection: Any, _record: Any) -> None:
    if files is not None:
        files.connected()
    # Take transaction control away from the driver: _sqlite_begin issues BEGIN itself.
    dbapi_connection.isolation_level = None
    dbapi_connection.executescript(
        f"PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {LOCK_TIMEOUT_MS}; "
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
    )
    # SQLite's own lower() folds A to Z only: "Özil" would stay "Özil", and a search for
    # "özil" (or the statistics' "ÖZIL") would miss it. Python's folds every alphabet, as
    # PostgreSQL's does. (No index is built on lower(): none depends on which one it is.)
    dbapi_connection.create_function("lower", 1, _lower, deterministic=True)


def _lower(value: object) -> object:
    return fold_case(value) if isinstance(value, str) else value


def folded(column: ColumnElement[str] | QueryableAttribute[str]) -> ColumnElement[str]:
    """A text column in the same lower case :func:`fold_case` makes of what is searched for."""
    return func.replace(func.lower(column), "ς", "σ")


def _sqlite_begin(files: SqliteFiles | None, connection: Connection) -> None:
    # A write locks when it begins, so two writers queue up instead of one failing to upgrade
    # a read lock ("database is locked"); reads stay deferred beside a writer thanks to WAL.
    write = bool(connection.get_execution_options().get(WRITE_OPTION))
    if files is not None:
        files.check(write=write)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def is_connection_lost(error: Exception) -> bool:
    """Whether a database error means the connection was lost (a retry gets a new one), or
    a SQLite database could not be opened (its WAL cannot be made in a read-only directory)."""
    if _sqlite_error(getattr(error, "orig", None)).startswith("SQLITE_CANTOPEN"):
        return True
    return bool(getattr(error, "connection_invalidated", False))


def is_read_only(error: Exception) -> bool:
    """Whether a database error means "the database takes no writes now": a SQLite file the
    server may not write (or whose disk is full), a PostgreSQL server in read-only mode."""
    original = getattr(error, "orig", None)
    if getattr(original, "sqlstate", None) == "25006":  # PostgreSQL read_only_sql_transaction
        return True
    if isinstance(original, FilesUnwritable):
        return True
    # SQLITE_IOERR_WRITE and kin: a file made immutable while the server had it open.
    return _sqlite_error(original).startswith(_UNWRITABLE)


_UNWRITABLE = (
    "SQLITE_READONLY",
    "SQLITE_FULL",
    "SQLITE_IOERR_WRITE",
    "SQLITE_IOERR_FSYNC",
    "SQLITE_IOERR_DIR_FSYNC",
    "SQLITE_IOERR_TRUNCATE",
    "SQLITE_IOERR_SHMSIZE",
    "SQLITE_IOERR_DELETE",
)


def _sqlite_error(original: object) -> str:
    """The SQLite error's name ("SQLITE_READONLY_DBMOVED"), "" for another database's."""
    name = getattr(original, "sqlite_errorname", "")
    return name if isinstance(name, str) else ""


def is_lock_timeout(error: Exception) -> bool:
    """Whether a database error means "another writer held the lock too long"."""
    original = getattr(error, "orig", None)
    if getattr(original, "sqlstate", None) == "55P03":  # PostgreSQL lock_not_available
        return True
    return "database is locked" in str(original or error)
