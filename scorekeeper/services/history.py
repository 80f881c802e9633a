"""The use cases of a browser's history: its games list, deleting and restoring, the purge,
and a round's audit trail."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import ColumnElement, delete, distinct, exists, func, literal, or_, select
from sqlalchemy.orm import selectinload

from .. import errors
from ..database import folded
from ..extensions import db
from ..models import Entry, Game, Grant, Player, RoundChange, utcnow
from ..rules.cards import Suit, Trump, Turned
from ..rules.game import GameStatus
from ..rules.table import NAME_MAX_LENGTH, fold_case
from . import games, loading, sharing
from .loading import GameSnapshot
from .sharing import Device

RESTORE_DAYS = 30
GAMES_PAGE = 20
MAX_GAMES_SHOWN = 1000
FOLLOWED_MAX = 100

# -- The games list ------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedGame:
    """A game of the list: kept (this browser may change it) or followed (read only)."""

    game: GameSnapshot
    kept: bool


@dataclass(frozen=True)
class GameList:
    """One screenful of the list, newest activity first; ``more``: there are further games."""

    games: list[ListedGame]
    more: bool


@dataclass(frozen=True)
class DeletedGame:
    """A deleted game that can still be restored."""

    id: str
    players: tuple[str, ...]
    deleted_at: datetime
    restorable_until: datetime


def kept_by(device: Device | None) -> ColumnElement[bool]:
    """Whether ``device`` keeps the game (holds the right to change it)."""
    if device is None:
        return literal(False)
    return exists().where(Grant.game_id == Game.id, Grant.device_hash == device.hash)


def restorable(now: datetime | None = None) -> ColumnElement[bool]:
    """Deleted within the last :data:`RESTORE_DAYS` days: the game can still be restored."""
    return Game.deleted_at >= (now or utcnow()) - timedelta(days=RESTORE_DAYS)


def _finished() -> ColumnElement[bool]:
    """Every round scored: the rounds with tricks (written for every seat at once) number
    the game's rounds."""
    scored = (
        select(func.count(distinct(Entry.round_number)))
        .where(Entry.game_id == Game.id, Entry.tricks.is_not(None))
        .scalar_subquery()
    )
    return scored == Game.round_count


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def game_list(
    device: Device | None,
    followed: Sequence[str] = (),
    *,
    status: str = "",
    search: str = "",
    limit: int = GAMES_PAGE,
) -> GameList:
    """The games this browser keeps or follows, newest activity first, of a ``status``
    (``in_progress``, ``finished`` or ``""``: all) and with a player named ``search``."""
    limit = max(1, min(limit, MAX_GAMES_SHOWN))
    followed_ids = [game_id for game_id in followed if loading.valid_id(game_id)]
    kept = kept_by(device)
    whose = or_(kept, Game.id.in_(followed_ids)) if followed_ids else kept
    statement = select(Game, kept.label("kept")).where(whose, Game.deleted_at.is_(None))
    if status == GameStatus.FINISHED:
        statement = statement.where(_finished())
    elif status == GameStatus.IN_PROGRESS:
        statement = statement.where(~_finished())
    needle = fold_case(search.strip()[:NAME_MAX_LENGTH])
    if needle:
        statement = statement.where(
            exists().where(
                Player.game_id == Game.id,
                folded(Player.name).like(f"%{_like_escaped(needle)}%", escape="\\"),
            )
        )
    statement = (
        statement.order_by(Game.updated_at.desc(), Game.id)
        .limit(limit + 1)
        .options(*loading.WITH_FACTS)
    )
    rows = db.session.execute(statement).all()
    games = [ListedGame(loading.snapshot(game), bool(is_kept)) for game, is_kept in rows[:limit]]
    return GameList(games=games, more=len(rows) > limit)


def deleted_games(device: Device | None, now: datetime | None = None) -> list[DeletedGame]:
    """The games this browser deleted that can still be restored, the latest first."""
    if device is None:
        return []
    statement = (
        select(Game)
        .join(Grant, Grant.game_id == Game.id)
        .where(Grant.device_hash == device.hash, restorable(now))
        .order_by(Game.deleted_at.desc())
        .limit(GAMES_PAGE)
        .options(selectinload(Game.players))
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


def restore_game(game_id: str, device: Device | None) -> GameSnapshot:
    """Undo the deletion of a game, within :data:`RESTORE_DAYS` days of it."""
    if device is None:
        raise errors.TokenMissing()
    if not loading.valid_id(game_id):
        raise errors.GameNotFound()
    with loading.write_transaction():
        game = db.session.scalars(
            select(Game)
            .where(Game.id == game_id, restorable())
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if game is None:
            raise errors.GameNotFound()
        if not sharing.has_grant(game.id, device):
            raise errors.NotKeeper()
        game.deleted_at = None
        game.version += 1
        game.updated_at = utcnow()
        return loading.snapshot(game)


def purge_deleted(days: int = RESTORE_DAYS, now: datetime | None = None) -> int:
    """Delete for good the games deleted more than ``days`` days ago; how many there were."""
    cutoff = (now or utcnow()) - timedelta(days=days)
    with loading.write_transaction():
        result = db.session.execute(
            delete(Game)
            .where(Game.deleted_at.is_not(None), Game.deleted_at < cutoff)
            .execution_options(synchronize_session=False)
        )
    return int(getattr(result, "rowcount", 0) or 0)


# -- The audit trail -----------------------------------------------------------------------


class Hidden(enum.Enum):
    """A bid made whose value the reveal mode still hides from the table."""

    BID = "hidden"


HIDDEN = Hidden.BID

#: One fact of a round as the history shows it: a trump, a bid or trick count, a bid made
#: but hidden, or ``None``: not recorded (a bid not made, tricks not counted, no trump yet).
Value = Trump | int | Hidden | None
#: What of a round a change can write otherwise.
Fact = Literal["trump", "bid", "tricks"]


@dataclass(frozen=True)
class Facts:
    """A round's facts at one moment (``None``: not recorded)."""

    trump: Trump | None
    #: The bids by seat; a bid the reveal mode still hides reads ``None`` here too.
    bids: tuple[int | None, ...] | None
    tricks: tuple[int, ...] | None
    #: The seats whose bid is made but hidden from the table for now.
    hidden_bids: frozenset[int] = frozenset()

    def bid(self, seat: int) -> int | Hidden | None:
        """The seat's bid as the table may see it (:data:`HIDDEN`: made but hidden)."""
        if seat in self.hidden_bids:
            return HIDDEN
        return _at(self.bids, seat)

    def tricks_of(self, seat: int) -> int | None:
        """The tricks the seat won, ``None`` before they are recorded."""
        return _at(self.tricks, seat)


def _at(values: tuple[int | None, ...] | None, seat: int) -> int | None:
    return values[seat] if values is not None and seat < len(values) else None


@dataclass(frozen=True)
class Difference:
    """One fact a change wrote otherwise (``old`` ``None``: recorded for the first time)."""

    fact: Fact
    old: Value
    new: Value


@dataclass(frozen=True)
class Line:
    """What a change did to the trump (``seat`` ``None``) or to one player's bid and tricks."""

    seat: int | None
    differences: tuple[Difference, ...]


@dataclass(frozen=True)
class Change:
    """One write to a round."""

    round: int
    kind: str
    at: datetime
    old: Facts | None
    new: Facts | None

    @property
    def lines(self) -> list[Line]:
        """What the change wrote otherwise: the trump, then each player's changed facts by
        seat (bids still hidden are not compared: that would tell)."""
        old = self.old or _NOTHING
        new = self.new or _NOTHING
        lines = []
        if old.trump != new.trump:
            lines.append(Line(None, (Difference("trump", old.trump, new.trump),)))
        for seat in range(max(_seats(old), _seats(new))):
            pairs: tuple[tuple[Fact, Value, Value], ...] = (
                ("bid", old.bid(seat), new.bid(seat)),
                ("tricks", old.tricks_of(seat), new.tricks_of(seat)),
            )
            differences = tuple(Difference(*pair) for pair in pairs if pair[1] != pair[2])
            if differences:
                lines.append(Line(seat, differences))
        return lines

    @property
    def hides_bids(self) -> bool:
        """Whether hidden bids were there before or after (so the change may be of them)."""
        return any(facts is not None and facts.hidden_bids for facts in (self.old, self.new))


_NOTHING = Facts(trump=None, bids=None, tricks=None)


def _seats(facts: Facts) -> int:
    return max(len(facts.bids or ()), len(facts.tricks or ()))


def _facts(data: Any, *, hide_bids: bool) -> Facts | None:
    """Stored facts back as values; with ``hide_bids``, the bids made without their values."""
    if not isinstance(data, dict):
        return None
    trump = None
    raw_trump = data.get("trump")
    if isinstance(raw_trump, dict):
        suit = raw_trump.get("suit")
        trump = Trump(Turned(str(raw_trump.get("turned"))), Suit(suit) if suit else None)
    bids, tricks = data.get("bids"), data.get("tricks")
    facts = Facts(trump, _tuple(bids), _tuple(tricks))
    if hide_bids and isinstance(bids, list):
        hidden = frozenset(seat for seat, bid in enumerate(bids) if bid is not None)
        return replace(facts, bids=(None,) * len(bids), hidden_bids=hidden)
    return facts


def _tuple(values: Any) -> tuple[Any, ...] | None:
    return tuple(values) if isinstance(values, list) else None


def audit_trail(game: GameSnapshot, number: int | None = None) -> list[Change]:
    """Every write to the game's rounds (or to round ``number``), oldest first; bids the
    reveal mode still hides read ``None``, their seats in :attr:`Facts.hidden_bids`."""
    if number is not None:
        game.round(number)  # an unknown round is a RoundNotFound
    return audit_trails([game], number).get(game.id, [])


def audit_trails(
    games: Sequence[GameSnapshot], number: int | None = None
) -> dict[str, list[Change]]:
    """The audit trails of several games, by game id, in one statement."""
    by_id = {game.id: game for game in games}
    if not by_id:
        return {}
    statement = select(RoundChange).where(RoundChange.game_id.in_(list(by_id)))
    if number is not None:
        statement = statement.where(RoundChange.round_number == number)
    statement = statement.order_by(RoundChange.changed_at, RoundChange.id)
    trails: dict[str, list[Change]] = {game_id: [] for game_id in by_id}
    for row in db.session.scalars(statement):
        game = by_id[row.game_id]
        if not 1 <= row.round_number <= game.table.rules.rounds:
            continue
        hide = not game.view.round(row.round_number).bids_visible
        trails[row.game_id].append(
            Change(
                round=row.round_number,
                kind=row.kind,
                at=loading.aware(row.changed_at),
                old=_facts(row.old, hide_bids=hide),
                new=_facts(row.new, hide_bids=hide),
            )
        )
    return trails


def kept_snapshots(device: Device | None) -> list[GameSnapshot]:
    """Every game this browser keeps, newest activity first (for "export everything")."""
    return games.kept_games(device, limit=None)
