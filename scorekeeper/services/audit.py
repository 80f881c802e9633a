"""A game's audit trail: every write to its rounds, with the facts before and after, as a
round's history shows it (a page at a time) and an export carries it (the latest writes)."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from sqlalchemy import ColumnElement, func, select, tuple_

from ..extensions import db
from ..models import ChangeRow
from ..rules.cards import TrumpCard
from ..rules.game import RoundRecord
from ..schemas import document
from . import loading
from .loading import GameSnapshot
from .paging import cursor, read_cursor

#: Changes on one page of a round's history, the latest first.
CHANGES_PAGE = 50
#: The latest writes of a game an export carries: as many as an import takes, so that every
#: export imports back (a real game makes a few hundred).
AUDIT_EXPORTED = document.MAX_AUDIT_ENTRIES


class Hidden(enum.Enum):
    """A bid made whose value the reveal mode still hides from the table."""

    BID = "hidden"


HIDDEN = Hidden.BID

#: One fact of a round as the history shows it: a trump, a bid or trick count, a bid made
#: but hidden, or ``None``: not recorded (a bid not made, tricks not counted, no trump yet).
Value = TrumpCard | int | Hidden | None
#: What of a round a change can write otherwise.
Fact = Literal["trump", "bid", "tricks", "draft"]


@dataclass(frozen=True)
class ShownFacts(RoundRecord):
    """A round's facts at one moment, as the table may see them: with the bids the reveal
    mode still hides, ``bids`` and ``cloud`` read ``None``."""

    #: The seats whose bid is made but hidden from the table for now.
    hidden_bids: frozenset[int] = frozenset()
    #: The seat whose bid the Cloud changed while the bids are hidden.
    hidden_cloud: int | None = None

    def bid(self, seat: int) -> int | Hidden | None:
        """The seat's bid as the table may see it (:data:`HIDDEN`: made but hidden)."""
        if seat in self.hidden_bids:
            return HIDDEN
        return _at(self.bids, seat)

    def tricks_of(self, seat: int) -> int | None:
        """The tricks the seat won, ``None`` before they are recorded."""
        return _at(self.tricks, seat)

    def draft_of(self, seat: int) -> int | None:
        """The tricks tapped in for the seat, ``None`` when none are (or not kept)."""
        return _at(self.drafts, seat)


def _at(values: tuple[int | None, ...] | None, seat: int) -> int | None:
    return values[seat] if values is not None and seat < len(values) else None


@dataclass(frozen=True)
class Difference:
    """One fact a change wrote otherwise (``old`` ``None``: recorded for the first time)."""

    fact: Fact
    old: Value
    new: Value


@dataclass(frozen=True)
class ChangedLine:
    """What a change did to the trump (``seat`` ``None``) or to one player's bid and tricks."""

    seat: int | None
    differences: tuple[Difference, ...]


@dataclass(frozen=True)
class CloudChange:
    """What a change did to the Cloud's change of a bid: ``seat`` changes ``made`` (the bid
    as made) to ``bid``; ``seat`` ``None``: the change was taken back; ``made`` and ``bid``
    ``None``: the bids are hidden, and their values would tell."""

    seat: int | None
    made: int | None = None
    bid: int | None = None


@dataclass(frozen=True)
class Change:
    """One write to a round."""

    round: int
    kind: str
    at: datetime
    old: ShownFacts | None
    new: ShownFacts | None

    @property
    def lines(self) -> list[ChangedLine]:
        """What the change wrote otherwise: the trump, then each player's changed facts by
        seat (bids still hidden are not compared: that would tell)."""
        old = self.old or _NOTHING
        new = self.new or _NOTHING
        lines = []
        if old.trump != new.trump:
            lines.append(ChangedLine(None, (Difference("trump", old.trump, new.trump),)))
        for seat in range(max(_seats(old), _seats(new))):
            pairs: tuple[tuple[Fact, Value, Value], ...] = (
                ("bid", old.bid(seat), new.bid(seat)),
                ("tricks", old.tricks_of(seat), new.tricks_of(seat)),
                ("draft", old.draft_of(seat), new.draft_of(seat)),
            )
            differences = tuple(Difference(*pair) for pair in pairs if pair[1] != pair[2])
            if differences:
                lines.append(ChangedLine(seat, differences))
        return lines

    @property
    def trick(self) -> tuple[int, int | None] | None:
        """The trick the change tallied, with its winner (``None``: it tallied none)."""
        old = (self.old or _NOTHING).tally
        new = (self.new or _NOTHING).tally
        if len(new) == len(old) + 1 and new[: len(old)] == old:
            return len(new), new[-1]
        return None

    @property
    def bomb(self) -> bool | None:
        """What the change said of the Bomb: played (``True``), taken back (``False``), or
        nothing (``None``)."""
        old = (self.old or _NOTHING).bomb
        new = (self.new or _NOTHING).bomb
        return None if old == new else new

    @property
    def cloud(self) -> CloudChange | None:
        """What the change did to the Cloud's change of a bid (``None``: nothing)."""
        old = _cloud(self.old or _NOTHING)
        new = _cloud(self.new or _NOTHING)
        if old == new:
            return None
        if new is None:
            return CloudChange(None)
        seat, bid = new
        if bid is None:
            return CloudChange(seat)
        made = _at((self.new or _NOTHING).bids, seat)
        return CloudChange(seat, made, bid)

    @property
    def hides_bids(self) -> bool:
        """Whether hidden bids were there before or after (so the change may be of them)."""
        return any(facts is not None and facts.hidden_bids for facts in (self.old, self.new))


_NOTHING = ShownFacts()


def _cloud(facts: ShownFacts) -> tuple[int, int | None] | None:
    """The Cloud's change as the table may see it: the seat and the new bid (``None``:
    hidden)."""
    if facts.cloud is not None:
        return facts.cloud.seat, facts.cloud.bid
    return None if facts.hidden_cloud is None else (facts.hidden_cloud, None)


def _seats(facts: ShownFacts) -> int:
    counts = (facts.bids, facts.tricks, facts.drafts)
    return max(*(len(values or ()) for values in counts), *(seat + 1 for seat in facts.hidden_bids))


def _facts(stored: object, *, hide_bids: bool) -> ShownFacts | None:
    """An audit row's facts; with ``hide_bids``, the bids made without their values."""
    record = document.Facts.read(stored)
    if record is None:
        return None
    facts = ShownFacts(**vars(record))
    if not hide_bids or record.bids is None:
        return facts
    hidden = frozenset(seat for seat, bid in enumerate(record.bids) if bid is not None)
    cloud = None if record.cloud is None else record.cloud.seat
    return replace(facts, bids=None, cloud=None, hidden_bids=hidden, hidden_cloud=cloud)


@dataclass(frozen=True)
class ChangePage:
    """A page of a round's history, the latest change first; ``older``: where the next page
    starts (``None``: this page reaches the first change)."""

    changes: list[Change]
    older: str | None = None


def round_changes(
    game: GameSnapshot, number: int, before: str = "", limit: int | None = None
) -> ChangePage:
    """The writes to round ``number``, the latest first, a page of ``limit`` from the
    :func:`cursor` ``before``; bids the reveal mode still hides read ``None``, their seats in
    :attr:`Facts.hidden_bids`."""
    game.round(number)  # an unknown round is a RoundNotFound
    limit = limit or CHANGES_PAGE
    statement = select(ChangeRow).where(
        ChangeRow.game_id == game.id, ChangeRow.round_number == number
    )
    start = read_cursor(before)
    # The row's id: ASCII digits that fit the id column (a longer key starts no page).
    if start is not None and start[1].isascii() and start[1].isdigit() and len(start[1]) <= 18:
        statement = statement.where(
            tuple_(ChangeRow.changed_at, ChangeRow.id) < tuple_(start[0], int(start[1]))
        )
    statement = statement.order_by(ChangeRow.changed_at.desc(), ChangeRow.id.desc())
    rows = list(db.session.scalars(statement.limit(limit + 1)))
    last = rows[limit - 1] if len(rows) > limit else None
    return ChangePage(
        changes=list(_changes(game, rows[:limit])),
        older=cursor(last.changed_at, last.id) if last else None,
    )


def audit_trail(game: GameSnapshot, number: int | None = None) -> list[Change]:
    """The latest :data:`AUDIT_EXPORTED` writes to the game's rounds (or to round
    ``number``), oldest first."""
    if number is not None:
        game.round(number)  # an unknown round is a RoundNotFound
    return audit_trails([game], number).get(game.id, [])


def audit_trails(
    games: Sequence[GameSnapshot], number: int | None = None
) -> dict[str, list[Change]]:
    """The audit trails of several games (each its latest :data:`AUDIT_EXPORTED` writes,
    oldest first), by game id, in one statement."""
    by_id = {game.id: game for game in games}
    if not by_id:
        return {}
    chosen: list[ColumnElement[bool]] = [ChangeRow.game_id.in_(list(by_id))]
    if number is not None:
        chosen.append(ChangeRow.round_number == number)
    latest = (
        func.row_number()
        .over(
            partition_by=ChangeRow.game_id,
            order_by=(ChangeRow.changed_at.desc(), ChangeRow.id.desc()),
        )
        .label("latest")
    )
    ranked = select(ChangeRow.id, latest).where(*chosen).subquery()
    statement = (
        select(ChangeRow)
        .join(ranked, ranked.c.id == ChangeRow.id)
        .where(ranked.c.latest <= AUDIT_EXPORTED)
        .order_by(ChangeRow.changed_at, ChangeRow.id)
    )
    trails: dict[str, list[Change]] = {game_id: [] for game_id in by_id}
    for row in db.session.scalars(statement):
        trails[row.game_id].extend(_changes(by_id[row.game_id], [row]))
    return trails


def _changes(game: GameSnapshot, rows: Sequence[ChangeRow]) -> Iterator[Change]:
    for row in rows:
        if not 1 <= row.round_number <= game.table.rules.rounds:
            continue
        hide = not game.view.round(row.round_number).bids_visible
        yield Change(
            round=row.round_number,
            kind=row.kind,
            at=loading.aware(row.changed_at),
            old=_facts(row.old, hide_bids=hide),
            new=_facts(row.new, hide_bids=hide),
        )
