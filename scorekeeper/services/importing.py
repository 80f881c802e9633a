"""The import use case: every game of an export becomes a new game, each round replayed
through the rules (:mod:`.import_file`), read from the file (:mod:`.import_document`) and
written one game a transaction, with other requests let in between; a file they refuse starts
nothing."""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import itemgetter
from typing import IO, Any

from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.orm import selectinload

from .. import in_flight
from ..errors import GameImportRefused, RoundImportRefused
from ..extensions import db
from ..models import ChangeRow, EntryRow, GameRow, KeeperRow, RoundRow, utcnow
from ..rules.table import Table
from . import ids, import_document, loading, transaction
from .games import new_game_row
from .history import kept_by, restorable
from .import_document import Document
from .import_file import ParsedGame, game_label, parse_game
from .import_file.replay import Refusal
from .sharing import Browser

#: Games written in one transaction, and held in memory before. A transaction holds the write
#: lock (SQLite's, or the rows' on PostgreSQL) and the worker for as long as it takes, and
#: other requests run between them (and between the games while the file is read): one game
#: a transaction is the shortest wait for the other tables' writes.
BATCH_GAMES = 1
#: Games deleted by one statement when a failed import deletes what it wrote.
DISCARD_GAMES = 10


@dataclass(frozen=True)
class Started:
    """A game an import started: its id and its edit token, which is shown only this once."""

    id: str
    edit_token: str


@dataclass(frozen=True)
class Written:
    """A game an import wrote, whose keeper the browser is not yet."""

    id: str
    edit_token: str
    identity: tuple[datetime, Table]
    dated: bool


@dataclass(frozen=True)
class Imported:
    """The games an import started, and how many it left out as the browser keeps them."""

    created: list[Started]
    already_kept: int = 0
    restorable: int = 0


def _identity(created_at: datetime, table: Table) -> tuple[datetime, Table]:
    """What makes two copies the same game: started at the same second (an export gives
    seconds) by the same table (the players in their seats, the first dealer, the rules)."""
    return created_at.astimezone(UTC).replace(microsecond=0), table


def kept_identities(browser: Browser | None) -> dict[tuple[datetime, Table], bool]:
    """The games ``browser`` keeps, each with whether it is deleted (and still restorable)."""
    if browser is None:
        return {}
    statement = (
        select(GameRow)
        .where(kept_by(browser), or_(GameRow.deleted_at.is_(None), restorable()))
        .options(selectinload(GameRow.players))
    )
    return {
        _identity(loading.aware(game.created_at), loading.game_table(game)): game.deleted_at
        is not None
        for game in db.session.scalars(statement)
    }


def _one_import_at_a_time(browser: Browser) -> None:
    """Make an import wait for another one by the same browser (a form sent twice), so that
    it finds the games the first started: a PostgreSQL lock named after the browser (SQLite's
    write transactions run one at a time already)."""
    if db.session.get_bind().dialect.name == "postgresql":
        key = int(browser.hash[:15], 16)  # 60 bits of the hash: within a bigint
        db.session.execute(select(func.pg_advisory_xact_lock(key)))


def pause() -> None:
    """Let the worker's other requests run, and wait until it answers none (or has kept the
    import waiting :data:`.in_flight.LONGEST_WAIT`)."""
    in_flight.REQUESTS.give_way()


def read_document(file: IO[bytes]) -> Document:
    """The outline of an uploaded file, read in one pass that keeps nothing (see
    :mod:`.import_document`); :class:`~.import_document.NotJson` when it is no JSON."""
    return import_document.read(file, pause)


def _parsed(index: int, item: Any, now: datetime) -> ParsedGame:
    """Game ``index`` of the file read and replayed through the rules, or its refusal."""
    try:
        return parse_game(item, now)
    except Refusal as refusal:
        if refusal.round is not None:
            raise RoundImportRefused(
                game=game_label(index, item), round=refusal.round, reason=refusal.reason
            ) from None
        raise GameImportRefused(game=game_label(index, item), reason=refusal.reason) from None


def import_games(document: Document, browser: Browser | None = None) -> Imported:
    """Every game of an export as a new game with a new id and token, or nothing when the
    rules refuse one; ``browser`` becomes their keeper. A game it keeps already (or
    deleted and can still restore) is left out, so a file imported twice starts no game twice.

    The games are read from the file one at a time, and written in short transactions of
    :data:`BATCH_GAMES` games as they come, and the browser is made their keeper in a last one:
    until it commits, no one knows the new games' ids, and no list shows them. A game the rules
    refuse, or any failure on the way, deletes the games written before it: all or nothing."""
    import_document.count_games(document)  # the file's own refusals (the views asked too)
    kept = kept_identities(browser)
    db.session.rollback()  # the read ends: no transaction stays open while the file is read
    now = utcnow()
    batch: list[ParsedGame] = []
    written: list[Written] = []
    left_out: Counter[bool] = Counter()  # by whether the kept game is deleted
    try:
        for index, item in enumerate(document.games(), start=1):
            game = _parsed(index, item, now)
            pause()
            identity = _identity(game.created_at, game.table)
            if game.dated and identity in kept:
                left_out[kept[identity]] += 1
            else:
                batch.append(game)
                if browser is not None:
                    kept[identity] = False  # the same game twice in one file: once
            if len(batch) == BATCH_GAMES:
                written += _write_batch(batch)
                batch = []
        if batch:
            written += _write_batch(batch)
        if browser is not None:
            with transaction.write_transaction():
                written, left_out = _keep(written, left_out, browser)
    except BaseException:
        _discard([game.id for game in written])
        raise
    return Imported(
        created=[Started(id=game.id, edit_token=game.edit_token) for game in written],
        already_kept=left_out[False],
        restorable=left_out[True],
    )


def _write_batch(games: list[ParsedGame]) -> list[Written]:
    """``games`` written in one short transaction, then a pause for other requests."""
    with transaction.write_transaction():
        written = _write(games)
    pause()
    return written


def _keep(
    written: list[Written],
    left_out: Counter[bool],
    browser: Browser,
) -> tuple[list[Written], Counter[bool]]:
    """Make the browser the keeper of the games written, except those another import of the
    same browser made it keeper of meanwhile (a form sent twice): those are deleted again."""
    _one_import_at_a_time(browser)
    kept = kept_identities(browser)
    kept_now, again = [], []
    for game in written:
        if game.dated and game.identity in kept:
            left_out[kept[game.identity]] += 1
            again.append(game.id)
        else:
            kept_now.append(game)
    if again:
        db.session.execute(delete(GameRow).where(GameRow.id.in_(again)))
    if kept_now:
        now = utcnow()
        rows = [
            {"browser_hash": browser.hash, "game_id": game.id, "created_at": now}
            for game in kept_now
        ]
        db.session.execute(insert(KeeperRow), rows)
    return kept_now, left_out


def _discard(game_ids: list[str]) -> None:
    """Delete the games a failed import wrote (their rounds, entries and audit go with them)."""
    if not game_ids:
        return
    with transaction.write_transaction():
        for first in range(0, len(game_ids), DISCARD_GAMES):
            db.session.execute(
                delete(GameRow).where(GameRow.id.in_(game_ids[first : first + DISCARD_GAMES]))
            )


def _write(games: list[ParsedGame]) -> list[Written]:
    """New games for ``games``: their rows in a few statements, whatever their number."""
    written = []
    rounds: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    changes: list[dict[str, Any]] = []
    for game in games:
        token = secrets.token_urlsafe(ids.EDIT_TOKEN_BYTES)
        row = new_game_row(game.table, token, game.created_at, game.updated_at)
        db.session.add(row)
        _game_rows(game, row.id, rounds, entries)
        changes += [{**change, "game_id": row.id} for change in game.audit]
        identity = _identity(game.created_at, game.table)
        written.append(Written(row.id, token, identity, game.dated))
    db.session.flush()  # the games and their players, before the rows that name them
    for model, rows in ((RoundRow, rounds), (EntryRow, entries), (ChangeRow, changes)):
        if rows:
            db.session.execute(insert(model), rows)
    return written


def _game_rows(
    game: ParsedGame, game_id: str, rounds: list[dict[str, Any]], entries: list[dict[str, Any]]
) -> None:
    """The rows of the game's rounds and entries, added to ``rounds`` and ``entries``."""
    # Each round's last correction (the latest time wins).
    corrected = {
        change["round_number"]: change["changed_at"]
        for change in sorted(game.audit, key=itemgetter("changed_at"))
        if change["kind"] == "correction"
    }
    for number, record in sorted(game.records.items()):
        row, kept = loading.round_rows(game_id, game.table, number, record, corrected.get(number))
        rounds.append(row)
        entries += kept
