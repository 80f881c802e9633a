"""The import use case: every game of an export becomes a new game, each round replayed
through the rules (:mod:`.import_file`); a file they refuse starts nothing."""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import attrgetter
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import selectinload

from ..errors import GameImportRefused, RoundImportRefused
from ..extensions import db
from ..models import Entry, Game, Grant, Round, utcnow
from ..rules.table import Table
from . import loading
from .games import NewGame, new_game_row
from .history import kept_by, restorable
from .import_file import ParsedGame, Refusal, game_label, games_of, parse_game
from .sharing import Device


@dataclass(frozen=True)
class Imported:
    """The games an import started, and how many it left out as the browser keeps them."""

    created: list[NewGame]
    already_kept: int = 0
    restorable: int = 0


def _identity(created_at: datetime, table: Table) -> tuple[datetime, Table]:
    """What makes two copies the same game: started at the same second (an export gives
    seconds) by the same table (the players in their seats, the first dealer, the rules)."""
    return created_at.astimezone(UTC).replace(microsecond=0), table


def kept_identities(device: Device | None) -> dict[tuple[datetime, Table], bool]:
    """The games ``device`` keeps, each with whether it is deleted (and still restorable)."""
    if device is None:
        return {}
    statement = (
        select(Game)
        .where(kept_by(device), or_(Game.deleted_at.is_(None), restorable()))
        .options(selectinload(Game.players))
    )
    return {
        _identity(loading.aware(game.created_at), loading.game_table(game)): game.deleted_at
        is not None
        for game in db.session.scalars(statement)
    }


def _one_import_at_a_time(device: Device) -> None:
    """Make an import wait for another one by the same browser (a form sent twice), so that
    it finds the games the first started: a PostgreSQL lock named after the browser (SQLite's
    write transactions run one at a time already)."""
    if db.session.get_bind().dialect.name == "postgresql":
        key = int(device.hash[:15], 16)  # 60 bits of the hash: within a bigint
        db.session.execute(select(func.pg_advisory_xact_lock(key)))


def import_games(document: Any, device: Device | None = None) -> Imported:
    """Every game of an export as a new game with a new id and token, or nothing when the
    rules refuse one; ``device`` gets the right to edit them. A game it keeps already (or
    deleted and can still restore) is left out, so a file imported twice starts no game twice."""
    now = utcnow()
    parsed: list[ParsedGame] = []
    for index, item in enumerate(games_of(document), start=1):
        try:
            parsed.append(parse_game(item, now))
        except Refusal as refusal:
            if refusal.round is not None:
                raise RoundImportRefused(
                    game=game_label(index, item), round=refusal.round, reason=refusal.reason
                ) from None
            raise GameImportRefused(game=game_label(index, item), reason=refusal.reason) from None
    created = []
    left_out: Counter[bool] = Counter()  # by whether the kept game is deleted
    with loading.write_transaction():
        if device is not None:
            _one_import_at_a_time(device)
        kept = kept_identities(device)
        for game in parsed:
            identity = _identity(game.created_at, game.table)
            if game.dated and identity in kept:
                left_out[kept[identity]] += 1
                continue
            token = secrets.token_urlsafe(loading.EDIT_TOKEN_BYTES)
            row = _game_row(game, token)
            db.session.add(row)
            if device is not None:
                kept[identity] = False  # the same game twice in one file: once
                db.session.add(Grant(device_hash=device.hash, game_id=row.id, created_at=now))
            created.append((row, token))
    return Imported(
        created=[NewGame(game=loading.snapshot(row), edit_token=token) for row, token in created],
        already_kept=left_out[False],
        restorable=left_out[True],
    )


def _game_row(game: ParsedGame, token: str) -> Game:
    table = game.table
    row = new_game_row(table, token, game.created_at, game.updated_at)
    # Each round's last correction (the latest time wins).
    corrected = {
        change.round_number: change.changed_at
        for change in sorted(game.audit, key=attrgetter("changed_at"))
        if change.kind == "correction"
    }
    for number, record in sorted(game.records.items()):
        round_row = Round(number=number, corrected_at=corrected.get(number))
        if record.trump is not None and not table.deals_every_card(number):
            round_row.trump_turned = record.trump.turned.value
            round_row.trump_suit = record.trump.suit.value if record.trump.suit else None
        if record.bids is not None:
            round_row.entries = [
                Entry(
                    game_id=row.id,
                    seat=seat,
                    bid=bid,
                    tricks=record.tricks[seat] if record.tricks is not None else None,
                )
                for seat, bid in enumerate(record.bids)
            ]
        row.rounds.append(round_row)
    for change in game.audit:
        change.game_id = row.id
        db.session.add(change)
    return row
