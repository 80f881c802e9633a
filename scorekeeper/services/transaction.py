"""The one write transaction every use case runs in, and the version bump that ends each
write (``docs/write-path.md``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, update

from ..database import WRITE_OPTION
from ..extensions import db
from ..models import GameRow

if TYPE_CHECKING:
    from .loading import GameSnapshot


# The version bump: a write's last statement, made on the game locked for it.
_BUMP = (
    update(GameRow)
    .where(GameRow.id == bindparam("game_id"))
    .values(version=bindparam("version"), updated_at=bindparam("now"))
    .execution_options(synchronize_session=False)
)


def bump_version(game: GameSnapshot, now: datetime) -> None:
    """The game's version grows by one and its update time is ``now`` (in the caller's write)."""
    db.session.execute(_BUMP, {"game_id": game.id, "version": game.version + 1, "now": now})


@contextmanager
def write_transaction() -> Iterator[None]:
    """One write transaction: commit on success, roll back on any error. SQLite's begins
    afresh (``BEGIN IMMEDIATE`` takes the write lock); PostgreSQL's goes on in the request's
    reads' transaction (READ COMMITTED: every read after the lock sees the latest commit)."""
    session = db.session()
    current = session.get_transaction()
    if current is not None and (
        not current.is_active or session.get_bind().dialect.name == "sqlite"
    ):
        session.rollback()
    if not session.in_transaction():
        session.connection(execution_options={WRITE_OPTION: True})
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise
