"""Counting the SQL statements a request runs, through SQLAlchemy's public engine events."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event

from scorekeeper.extensions import db


@contextmanager
def count_statements(app: Flask) -> Iterator[list[str]]:
    """The statements the app's engine runs inside the block (not the BEGIN of SQLite's
    transactions, which the engine's "begin" event sends)."""
    statements: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if not statement.startswith("BEGIN"):
            statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)
