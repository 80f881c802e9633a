"""A game's recorded facts in and out of the database, in SQLAlchemy Core.

The hot paths (reading a game, and every write to a round) read plain rows into frozen
values and write only what changed, in as few statements as the backends allow: the ORM's
bookkeeping of objects costs more than the database work for games this small. The
service decides what may be written; this module only reads and writes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Connection,
    DateTime,
    Dialect,
    Table,
    TextClause,
    and_,
    bindparam,
    exists,
    select,
    text,
    update,
)

from . import rules
from .models import Entry, Game, Grant, Player, Round, RoundChange

GAMES: Table = Game.__table__
PLAYERS: Table = Player.__table__
ROUNDS: Table = Round.__table__
ENTRIES: Table = Entry.__table__
GRANTS: Table = Grant.__table__
ROUND_CHANGES: Table = RoundChange.__table__


class StoredEntry(NamedTuple):
    """One player's facts in one round (``None``: not yet)."""

    bid: int | None = None
    tricks: int | None = None
    draft: int | None = None


NO_ENTRY = StoredEntry()


@dataclass(frozen=True)
class StoredRound:
    """A round's row and its entries, one per seat (none before a bid or trick is kept)."""

    number: int
    trump_turned: str | None = None
    trump_suit: str | None = None
    corrected_at: datetime | None = None
    entries: tuple[StoredEntry, ...] = ()

    def record(self) -> rules.RoundRecord:
        """The facts as the rules take them."""
        trump = None
        if self.trump_turned is not None:
            suit = rules.Suit(self.trump_suit) if self.trump_suit else None
            trump = rules.Trump(rules.Turned(self.trump_turned), suit)
        entries = self.entries
        bids = tuple(entry.bid for entry in entries) if entries else None
        tricks: tuple[int, ...] | None = None
        if entries and all(entry.tricks is not None for entry in entries):
            tricks = tuple(entry.tricks or 0 for entry in entries)
        return rules.RoundRecord(trump=trump, bids=bids, tricks=tricks)

    def with_trump(self, trump: rules.Trump) -> StoredRound:
        """The round with this trump."""
        suit = trump.suit.value if trump.suit else None
        return replace(self, trump_turned=trump.turned.value, trump_suit=suit)

    def with_entries(self, seats: int, **columns: Sequence[int | None]) -> StoredRound:
        """The round with whole columns of its entries replaced: ``bid``, ``tricks`` or
        ``draft``, one value per seat; entries are made for every seat on first use."""
        entries = list(self.entries or (NO_ENTRY,) * seats)
        for name, values in columns.items():
            if len(values) != seats:
                raise ValueError(f"{name}: one value per seat")
            for seat, value in enumerate(values):
                entries[seat] = entries[seat]._replace(**{name: value})
        return replace(self, entries=tuple(entries))

    def with_entry(self, seats: int, seat: int, **values: int | None) -> StoredRound:
        """The round with one seat's entry changed."""
        entries = list(self.entries or (NO_ENTRY,) * seats)
        entries[seat] = entries[seat]._replace(**values)
        return replace(self, entries=tuple(entries))


@dataclass(frozen=True)
class StoredGame:
    """A game's row, players and rounds as stored."""

    id: str
    version: int
    edit_token_hash: str
    created_at: datetime
    updated_at: datetime
    table: rules.Table
    rounds: Mapping[int, StoredRound] = field(default_factory=dict)


def aware(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite hands back naive ones)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# -- Reading -------------------------------------------------------------------------------

_GAME = select(
    GAMES.c.version,
    GAMES.c.edit_token_hash,
    GAMES.c.first_dealer,
    GAMES.c.bid_rule,
    GAMES.c.last_bidder_may_bid_zero,
    GAMES.c.bid_reveal,
    GAMES.c.clairvoyance,
    GAMES.c.round_count,
    GAMES.c.created_at,
    GAMES.c.updated_at,
    PLAYERS.c.name,
).join_from(GAMES, PLAYERS, PLAYERS.c.game_id == GAMES.c.id)

_FACTS = select(
    GAMES.c.version,
    GAMES.c.updated_at,
    ROUNDS.c.number,
    ROUNDS.c.trump_turned,
    ROUNDS.c.trump_suit,
    ROUNDS.c.corrected_at,
    ENTRIES.c.seat,
    ENTRIES.c.bid,
    ENTRIES.c.tricks,
    ENTRIES.c.draft_tricks,
).select_from(
    GAMES.outerjoin(ROUNDS, ROUNDS.c.game_id == GAMES.c.id).outerjoin(
        ENTRIES,
        and_(ENTRIES.c.game_id == ROUNDS.c.game_id, ENTRIES.c.round_number == ROUNDS.c.number),
    )
)

# Built once: a statement object keeps its compiled form's cache key.
_READ_GAME = _GAME.where(GAMES.c.id == bindparam("g"), GAMES.c.deleted_at.is_(None)).order_by(
    PLAYERS.c.seat
)
_READ_GAME_LOCKED = _READ_GAME.with_for_update(of=GAMES)
_READ_FACTS = _FACTS.where(GAMES.c.id == bindparam("g"), GAMES.c.deleted_at.is_(None)).order_by(
    ROUNDS.c.number, ENTRIES.c.seat
)
_READ_CREDENTIALS = select(GAMES.c.edit_token_hash, GAMES.c.round_count).where(
    GAMES.c.id == bindparam("g"), GAMES.c.deleted_at.is_(None)
)
_HAS_GRANT = select(
    exists().where(GRANTS.c.game_id == bindparam("g"), GRANTS.c.device_hash == bindparam("d"))
)


def table_of(game: Any, players: tuple[str, ...]) -> rules.Table:
    """The table a game's row gives (a row of ``games`` or a :class:`Game`), with its players."""
    return rules.Table(
        players=players,
        first_dealer=game.first_dealer,
        rules=rules.GameRules(
            rounds=game.round_count,
            bid_rule=rules.BidRule(game.bid_rule),
            last_bidder_may_bid_zero=game.last_bidder_may_bid_zero,
            bid_reveal=rules.BidReveal(game.bid_reveal),
            clairvoyance=game.clairvoyance,
        ),
    )


def read_head(connection: Connection, game_id: str, *, lock: bool = False) -> StoredGame | None:
    """The game's row and players (not its rounds), or ``None`` without such a game.

    With ``lock`` the game's row is locked (``FOR UPDATE OF games`` on PostgreSQL; SQLite's
    write transaction holds its lock already).
    """
    rows = connection.execute(_READ_GAME_LOCKED if lock else _READ_GAME, {"g": game_id}).all()
    if not rows:
        return None
    first = rows[0]
    table = table_of(first, tuple(row.name for row in rows))
    return StoredGame(
        id=game_id,
        version=first.version,
        edit_token_hash=first.edit_token_hash,
        created_at=aware(first.created_at),
        updated_at=aware(first.updated_at),
        table=table,
    )


def read_facts(connection: Connection, head: StoredGame) -> StoredGame | None:
    """The game with its rounds (with their entries in seat order), in one statement.

    The statement reads the game's version with the rounds: in READ COMMITTED a write may
    commit between two statements, and the version given is the rounds' own. Under the
    game's lock it cannot. ``None`` when the game was deleted meanwhile.
    """
    rounds: dict[int, StoredRound] = {}
    entries: dict[int, list[StoredEntry]] = {}
    version = updated_at = None
    for row in connection.execute(_READ_FACTS, {"g": head.id}):
        version, updated_at = row.version, row.updated_at
        number = row.number
        if number is None:  # a game without rounds joins to one row of NULLs
            continue
        if number not in rounds:
            corrected = row.corrected_at
            rounds[number] = StoredRound(
                number=number,
                trump_turned=row.trump_turned,
                trump_suit=row.trump_suit,
                corrected_at=aware(corrected) if corrected is not None else None,
            )
            entries[number] = []
        if row.seat is not None:  # as is a round without entries
            entries[number].append(StoredEntry(row.bid, row.tricks, row.draft_tricks))
    if version is None or updated_at is None:
        return None
    return replace(
        head,
        version=version,
        updated_at=aware(updated_at),
        rounds={
            number: replace(stored, entries=tuple(entries[number])) if entries[number] else stored
            for number, stored in rounds.items()
        },
    )


def read_credentials(connection: Connection, game_id: str) -> tuple[str, int] | None:
    """The game's edit token hash and number of rounds, or ``None`` without such a game."""
    row = connection.execute(_READ_CREDENTIALS, {"g": game_id}).first()
    return None if row is None else (row.edit_token_hash, row.round_count)


def has_grant(connection: Connection, game_id: str, device_hash: str) -> bool:
    """Whether the browser known by ``device_hash`` keeps the score of the game."""
    return bool(connection.scalar(_HAS_GRANT, {"g": game_id, "d": device_hash}))


# -- Writing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """A write to one round for the audit trail: which use case, the facts before/after."""

    kind: str
    old: dict[str, object]
    new: dict[str, object]


# A round's write: the version bump, the round's row, its entries, the audit row. The bump
# is guarded: it changes the row only while the game is still at the version the write was
# decided on, undeleted, with the edit token it was checked against. Under the game's lock
# that always holds; a write decided on the version this process knew, without reading or
# locking the game, learns so whether it still does (and is then made again under the lock).
_BUMP = (
    "UPDATE games SET version = :v, updated_at = :now WHERE id = :g AND version = :was"
    " AND deleted_at IS NULL AND edit_token_hash = :h"
)
# A round's row and its entries are inserted, or replaced where they are already stored.
_INSERT_ROUND = "INSERT INTO rounds (game_id, number, trump_turned, trump_suit, corrected_at)"
_REPLACE_ROUND = (
    " ON CONFLICT (game_id, number) DO UPDATE SET trump_turned = excluded.trump_turned,"
    " trump_suit = excluded.trump_suit, corrected_at = excluded.corrected_at"
)
_INSERT_ENTRIES = "INSERT INTO entries (game_id, round_number, seat, bid, tricks, draft_tricks)"
_REPLACE_ENTRIES = (
    " ON CONFLICT (game_id, round_number, seat) DO UPDATE SET"
    " bid = excluded.bid, tricks = excluded.tricks, draft_tricks = excluded.draft_tricks"
)
_INSERT_AUDIT = "INSERT INTO round_changes (game_id, round_number, kind, changed_at, old, new)"
# SQLite runs the statements one by one and goes on only after the bump changed the row.
_ROUND = f"{_INSERT_ROUND} VALUES (:g, :n, :turned, :suit, :corrected){_REPLACE_ROUND}"
_ENTRIES = f"{_INSERT_ENTRIES} VALUES {{values}}{_REPLACE_ENTRIES}"
_ENTRY = "(:g, :n, {0}, :b{0}, :t{0}, :d{0})"
_AUDIT = f"{_INSERT_AUDIT} VALUES (:g, :n, :kind, :now, :old, :new)"
# PostgreSQL runs them as one statement of data-modifying CTEs (one round trip, atomic by
# itself), each of the others taking its rows from the bump's: none when the guard failed.
_PG_BUMP = f"{_BUMP} RETURNING id"
_PG_ROUND = (
    f"{_INSERT_ROUND} SELECT bump.id, CAST(:n AS INTEGER), CAST(:turned AS VARCHAR),"
    " CAST(:suit AS VARCHAR), CAST(:corrected AS TIMESTAMPTZ) FROM bump"
    f"{_REPLACE_ROUND}"
)
_PG_ENTRIES = (
    f"{_INSERT_ENTRIES} SELECT bump.id, CAST(:n AS INTEGER), e.seat, e.bid, e.tricks, e.draft"
    " FROM bump CROSS JOIN (VALUES {values}) AS e (seat, bid, tricks, draft)"
    f"{_REPLACE_ENTRIES}"
)
_PG_ENTRY = "({0}, CAST(:b{0} AS INTEGER), CAST(:t{0} AS INTEGER), CAST(:d{0} AS INTEGER))"
_PG_AUDIT = (
    f"{_INSERT_AUDIT} SELECT bump.id, CAST(:n AS INTEGER), CAST(:kind AS VARCHAR),"
    " CAST(:now AS TIMESTAMPTZ), CAST(:old AS JSON), CAST(:new AS JSON) FROM bump"
)

_TEXTS = (_BUMP, _ROUND, _ENTRIES, _ENTRY, _AUDIT)
_PG_TEXTS = (_PG_BUMP, _PG_ROUND, _PG_ENTRIES, _PG_ENTRY, _PG_AUDIT)


@functools.cache
def _round_statements(dialect: str, round_row: bool, seats: int, audited: bool) -> tuple[str, ...]:
    """The statements of a round's write: the guarded version bump, then the round's row if
    it changed, its ``seats`` entries if they changed (0: not), the audit row if ``audited``.

    On PostgreSQL they are one statement, which answers how many games it bumped (1 or 0).
    """
    postgresql = dialect == "postgresql"
    bump, round_sql, entries_sql, entry, audit = _PG_TEXTS if postgresql else _TEXTS
    parts = [("bump", bump)]
    if round_row:
        parts.append(("round_row", round_sql))
    if seats:
        values = ", ".join(entry.format(seat) for seat in range(seats))
        parts.append(("entry_rows", entries_sql.format(values=values)))
    if audited:
        parts.append(("audit", audit))
    if not postgresql:
        return tuple(sql for _name, sql in parts)
    with_clause = ", ".join(f"{name} AS ({sql})" for name, sql in parts)
    return (f"WITH {with_clause} SELECT count(*) FROM bump",)


@functools.cache
def _statement(sql: str) -> TextClause:
    """One statement object per text: SQLAlchemy caches its compiled form by the object."""
    return text(sql)


def write_round(
    connection: Connection,
    game: StoredGame,
    before: StoredRound | None,
    after: StoredRound,
    *,
    now: datetime,
    change: Change | None,
) -> bool:
    """Write round ``after`` (``before``: the round as stored, ``None`` without a row), bump
    the game's version and keep ``change`` in the audit trail, all in the caller's
    transaction. Only what changed is written (inserted or replaced).

    Nothing is written, and the answer is ``False``, unless the game is still as ``game``
    says: at its version, not deleted, with its edit token (always so under the game's lock).
    """
    round_changed = before is None or (
        before.trump_turned,
        before.trump_suit,
        before.corrected_at,
    ) != (after.trump_turned, after.trump_suit, after.corrected_at)
    entries_changed = after.entries != (before.entries if before is not None else ())
    params: dict[str, object] = {
        "g": game.id,
        "was": game.version,
        "h": game.edit_token_hash,
        "v": game.version + 1,
        "now": now,
        "n": after.number,
        "turned": after.trump_turned,
        "suit": after.trump_suit,
        "corrected": after.corrected_at,
    }
    for seat, entry in enumerate(after.entries):
        params |= {f"b{seat}": entry.bid, f"t{seat}": entry.tricks, f"d{seat}": entry.draft}
    if change is not None:
        params |= {
            "kind": change.kind,
            "old": json.dumps(change.old),
            "new": json.dumps(change.new),
        }
    dialect = connection.dialect.name
    bump, *rest = _round_statements(
        dialect, round_changed, len(after.entries) if entries_changed else 0, change is not None
    )
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    if dialect == "postgresql":  # the one statement counts the games it bumped
        # Through the driver's own cursor too, in its parameter style (%(g)s): the statement
        # is the same, SQLAlchemy's bookkeeping of it is not needed.
        try:
            return bool(
                _execute(
                    connection, cursor, _driver_text(bump, connection.dialect), params
                ).fetchone()[0]
            )
        finally:
            cursor.close()
    # SQLite: through the driver's own cursor (it takes the same named parameters), so the
    # write lock is held for the statements and little else: 12 % less time per write.
    # Times are turned into text by SQLAlchemy's own DateTime, as every other write does.
    stored_time = _sqlite_time(connection.dialect)
    params["now"] = stored_time(now)
    params["corrected"] = stored_time(after.corrected_at)
    try:
        if _execute(connection, cursor, bump, params).rowcount != 1:
            return False
        for sql in rest:
            _execute(connection, cursor, sql, params)
    finally:
        cursor.close()
    return True


def _execute(connection: Connection, cursor: Any, sql: str, params: dict[str, object]) -> Any:
    """Run ``sql`` on the driver's cursor as SQLAlchemy would: the engine's listeners are told
    (the statement counts of the tests and ``bench/`` see it), and a driver's error is handled
    by SQLAlchemy itself: raised as its own (a busy database is still answered 503), and a
    connection the server closed is thrown away with every other the pool held before it."""
    events = connection.dispatch
    events.before_cursor_execute(connection, cursor, sql, params, None, False)
    try:
        result = cursor.execute(sql, params)
    except connection.dialect.loaded_dbapi.Error as error:
        # SQLAlchemy's own handling of a statement's error (pinned below 2.1, where it is).
        connection._handle_dbapi_exception(error, sql, params, cursor, None)
    events.after_cursor_execute(connection, cursor, sql, params, None, False)
    return result


@functools.cache
def _driver_text(sql: str, dialect: Dialect) -> str:
    """A statement's text as SQLAlchemy hands it to the driver (psycopg: ``%(g)s`` for
    ``:g``)."""
    return str(_statement(sql).compile(dialect=dialect))


@functools.cache
def _sqlite_time(dialect: Dialect) -> Callable[[datetime | None], str | None]:
    """How SQLAlchemy stores a time on SQLite (``DateTime(timezone=True)``'s own processor)."""
    processor = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
    assert processor is not None
    return processor


def mark_deleted(connection: Connection, game: StoredGame, now: datetime) -> None:
    """The game reads as deleted from now on; its version grows by one."""
    connection.execute(
        update(GAMES)
        .where(GAMES.c.id == game.id)
        .values(version=game.version + 1, updated_at=now, deleted_at=now)
    )
