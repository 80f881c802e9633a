"""The use cases of a browser's history: its games list, deleting and restoring, the purge,
and the games "export everything" reads."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import (
    ColumnElement,
    and_,
    delete,
    distinct,
    exists,
    func,
    literal,
    or_,
    select,
)
from sqlalchemy.orm import selectinload

from .. import errors
from ..extensions import db
from ..models import EntryRow, GameRow, KeeperRow, PlayerRow, utcnow
from ..rules.game import GameStatus
from ..rules.table import NAME_MAX_LENGTH, search_key
from . import ids, loading, sharing, transaction
from .loading import GameSnapshot
from .paging import cursor, read_cursor
from .sharing import Browser

RESTORE_DAYS = 30
#: Games on one page of the list; ``shown`` may ask for more, up to MAX_GAMES_SHOWN.
GAMES_PAGE = 20
MAX_GAMES_SHOWN = 50
FOLLOWED_MAX = 100
#: Games read at a time by "export everything".
EXPORT_CHUNK = 50

# -- The games list ------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedGame:
    """A game of the list: kept (this browser may change it) or followed (read only)."""

    game: GameSnapshot
    kept: bool


@dataclass(frozen=True)
class GameList:
    """One page of the list, newest activity first; ``older``: where the next page starts
    (``None``: this is the last)."""

    games: list[ListedGame]
    older: str | None = None


@dataclass(frozen=True)
class DeletedGame:
    """A deleted game that can still be restored."""

    id: str
    players: tuple[str, ...]
    deleted_at: datetime
    restorable_until: datetime


def kept_by(browser: Browser | None) -> ColumnElement[bool]:
    """Whether ``browser`` keeps the game (holds the right to change it)."""
    if browser is None:
        return literal(False)
    return exists().where(KeeperRow.game_id == GameRow.id, KeeperRow.browser_hash == browser.hash)


def restorable(now: datetime | None = None) -> ColumnElement[bool]:
    """Deleted within the last :data:`RESTORE_DAYS` days: the game can still be restored."""
    return GameRow.deleted_at >= (now or utcnow()) - timedelta(days=RESTORE_DAYS)


def of_status(status: GameStatus) -> ColumnElement[bool]:
    """The games of ``status``: the rules' :attr:`rules.game.GameView.status` asked in SQL,
    so that the list filters without evaluating every game. Finished once every
    round is scored, and a round is scored once its tricks are in (written for every seat at
    once): the rounds with tricks number the game's rounds. The two agree game by game
    (tests/services/test_history.py)."""
    scored = (
        select(func.count(distinct(EntryRow.round_number)))
        .where(EntryRow.game_id == GameRow.id, EntryRow.tricks.is_not(None))
        .scalar_subquery()
    )
    finished = scored == GameRow.round_count
    return finished if status is GameStatus.FINISHED else ~finished


def searchable(search: str) -> bool:
    """Whether ``search`` can be part of a name: no name holds a control character (NUL,
    a line break, …), so a search with one finds nothing, without asking the database."""
    return not any(unicodedata.category(char) == "Cc" for char in search)


def game_list(
    browser: Browser | None,
    followed: Sequence[str] = (),
    *,
    status: str = "",
    search: str = "",
    before: str = "",
    limit: int = GAMES_PAGE,
) -> GameList:
    """A page of the games this browser keeps or follows, newest activity first, of a
    ``status`` (``in_progress``, ``finished`` or ``""``: all), with a player whose name holds
    ``search`` (case-folded), and older than the :func:`cursor` ``before``."""
    limit = max(1, min(limit, MAX_GAMES_SHOWN))
    if not searchable(search.strip()):
        return GameList(games=[])
    followed_ids = [game_id for game_id in followed if ids.valid_id(game_id)]
    kept = kept_by(browser)
    whose = or_(kept, GameRow.id.in_(followed_ids)) if followed_ids else kept
    statement = select(GameRow, kept.label("kept")).where(whose, GameRow.deleted_at.is_(None))
    if status in tuple(GameStatus):
        statement = statement.where(of_status(GameStatus(status)))
    needle = search_key(search.strip()[:NAME_MAX_LENGTH])
    if needle:
        statement = statement.where(
            exists().where(
                PlayerRow.game_id == GameRow.id,
                PlayerRow.search_name.contains(needle, autoescape=True),
            )
        )
    start = read_cursor(before)
    if start is not None:
        moment, game_id = start
        statement = statement.where(
            or_(
                GameRow.updated_at < moment,
                and_(GameRow.updated_at == moment, GameRow.id > game_id),
            )
        )
    statement = (
        statement.order_by(GameRow.updated_at.desc(), GameRow.id)
        .limit(limit + 1)
        .options(*loading.WITH_FACTS)
    )
    rows = db.session.execute(statement).all()
    games = [ListedGame(loading.snapshot(game), bool(is_kept)) for game, is_kept in rows[:limit]]
    last = rows[limit - 1][0] if len(rows) > limit else None
    return GameList(games=games, older=cursor(last.updated_at, last.id) if last else None)


def deleted_games(browser: Browser | None, now: datetime | None = None) -> list[DeletedGame]:
    """The games this browser deleted that can still be restored, the latest first."""
    if browser is None:
        return []
    statement = (
        select(GameRow)
        .join(KeeperRow, KeeperRow.game_id == GameRow.id)
        .where(KeeperRow.browser_hash == browser.hash, restorable(now))
        .order_by(GameRow.deleted_at.desc())
        .limit(GAMES_PAGE)
        .options(selectinload(GameRow.players))
    )
    return [
        DeletedGame(
            id=game.id,
            players=tuple(player.name for player in game.players),
            deleted_at=(deleted_at := loading.aware(game.deleted_at or utcnow())),
            restorable_until=deleted_at + timedelta(days=RESTORE_DAYS),
        )
        for game in db.session.scalars(statement)
    ]


def restore_game(game_id: str, browser: Browser | None) -> GameSnapshot:
    """Undo the deletion of a game, within :data:`RESTORE_DAYS` days of it."""
    if browser is None:
        raise errors.TokenMissing()
    if not ids.valid_id(game_id):
        raise errors.GameNotFound()
    with transaction.write_transaction():
        game = db.session.scalars(
            select(GameRow)
            .where(GameRow.id == game_id, restorable())
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if game is None:
            raise errors.GameNotFound()
        if not sharing.is_keeper(game.id, browser):
            raise errors.NotKeeper()
        game.deleted_at = None
        game.version += 1
        game.updated_at = utcnow()
        return loading.snapshot(game)


def purge_deleted(days: int = RESTORE_DAYS, now: datetime | None = None) -> int:
    """Delete for good the games deleted more than ``days`` days ago; how many there were."""
    cutoff = (now or utcnow()) - timedelta(days=days)
    with transaction.write_transaction():
        result = db.session.execute(
            delete(GameRow)
            .where(GameRow.deleted_at.is_not(None), GameRow.deleted_at < cutoff)
            .execution_options(synchronize_session=False)
        )
    return int(getattr(result, "rowcount", 0) or 0)


# -- Export everything ----------------------------------------------------------------


def kept_ids(browser: Browser | None) -> list[str]:
    """The ids of every game this browser keeps, newest activity first (for "export
    everything", which reads them :data:`EXPORT_CHUNK` at a time)."""
    if browser is None:
        return []
    statement = (
        select(GameRow.id)
        .join(KeeperRow, KeeperRow.game_id == GameRow.id)
        .where(KeeperRow.browser_hash == browser.hash, GameRow.deleted_at.is_(None))
        .order_by(GameRow.updated_at.desc(), GameRow.id)
    )
    return list(db.session.scalars(statement))


def kept_chunk(ids: Sequence[str]) -> list[GameSnapshot]:
    """The games of ``ids`` (those not deleted since), in that order."""
    statement = (
        select(GameRow).where(GameRow.id.in_(list(ids)), GameRow.deleted_at.is_(None))
    ).options(*loading.WITH_FACTS)
    found = {game.id: loading.snapshot(game) for game in db.session.scalars(statement)}
    return [found[game_id] for game_id in ids if game_id in found]
