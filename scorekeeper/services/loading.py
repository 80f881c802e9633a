"""A game as the use cases see it: loaded (and locked) in a constant number of statements,
and what its facts give. Callers get :class:`GameSnapshot` values, never ORM objects; the
write transaction they run in is ``transaction.py`` (``docs/write-path.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from itertools import groupby
from operator import attrgetter
from typing import Any

from sqlalchemy import Row, and_, bindparam, select
from sqlalchemy.orm import selectinload

from ..errors import GameNotFound, RoundNotFound
from ..extensions import db
from ..models import EntryRow, GameRow, PlayerRow, RoundRow
from ..rules.cards import Suit, TrumpCard, Turned
from ..rules.game import GameView, RoundRecord, RoundView, evaluate
from ..rules.specials import CloudBid
from ..rules.table import Table
from ..rules.tally import Winner, tallied_tricks
from ..rules.variants import BidReveal, BidRule, GameRules, RoundPlan, Special
from .ids import valid_id


@dataclass(frozen=True)
class GameSnapshot:
    """A game at one version: its stored facts and everything the rules derive from them."""

    id: str
    version: int
    edit_token_hash: str
    created_at: datetime
    updated_at: datetime
    table: Table
    rounds: Mapping[int, RoundRecord] = field(default_factory=dict)
    #: When each round written again after it was scored was last corrected.
    corrected_at: Mapping[int, datetime] = field(default_factory=dict)

    @cached_property
    def view(self) -> GameView:
        """The game as the rules evaluate its facts."""
        return evaluate(self.table, self.rounds)

    @property
    def drafts(self) -> dict[int, tuple[int | None, ...]]:
        """Tricks tapped in so far, by round, for rounds being played (``None``: not yet)."""
        return {
            number: kept.drafts
            for number, kept in self.rounds.items()
            if kept.drafts is not None and any(draft is not None for draft in kept.drafts)
        }

    @property
    def corrected(self) -> frozenset[int]:
        """The rounds written again after they were scored."""
        return frozenset(self.corrected_at)

    def round(self, number: int) -> RoundView:
        """Round ``number``, or :class:`RoundNotFound` when the game has no such round."""
        check_round_number(self.table.rules.rounds, number)
        return self.view.round(number)

    def counts(self, number: int) -> tuple[int | None, ...]:
        """The tricks each seat has in round ``number`` so far (``None``: not known yet): the
        drafts (the counts tapped in), or with none, the tally's once every trick is
        tallied. A draft is only ever a count tapped in (:attr:`drafts`)."""
        tapped = self.drafts.get(number)
        if tapped is not None:
            return tapped
        record = self.rounds.get(number)
        tallied = tallied_tricks(self.table, number, record.tally) if record is not None else None
        return tallied if tallied is not None else (None,) * self.table.seats


def read_round(row: Any, entries: Sequence[Any]) -> RoundRecord:
    """The record of a round's row and its entries in seat order (objects or plain rows):
    bids once it has entries, tricks once every seat's are in, the counts tapped in."""
    trump = None
    if row.trump_turned is not None:
        trump = TrumpCard(
            Turned(row.trump_turned), Suit(row.trump_suit) if row.trump_suit else None
        )
    tricks = [entry.tricks for entry in entries]
    drafts = tuple(entry.draft_tricks for entry in entries)
    return RoundRecord(
        trump=trump,
        bids=tuple(entry.bid for entry in entries) if entries else None,
        tricks=tuple(tricks) if entries and None not in tricks else None,
        tally=read_tally(row.tally),
        bomb=bool(row.bomb),
        cloud=None if row.cloud_seat is None else CloudBid(row.cloud_seat, row.cloud_bid),
        drafts=drafts if any(draft is not None for draft in drafts) else None,
    )


def round_rows(
    game_id: str, table: Table, number: int, record: RoundRecord, corrected_at: datetime | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The rows that store round ``number``'s record: the round's, and one entry a seat once
    a bid is made (the round that deals every card stores no trump: the rules give it)."""
    trump = None if table.deals_every_card(number) else record.trump
    cloud = record.cloud
    row = {
        "game_id": game_id,
        "number": number,
        "trump_turned": trump.turned.value if trump is not None else None,
        "trump_suit": trump.suit.value if trump is not None and trump.suit else None,
        "corrected_at": corrected_at,
        "tally": list(record.tally) or None,
        "bomb": record.bomb,
        "cloud_seat": cloud.seat if cloud else None,
        "cloud_bid": cloud.bid if cloud else None,
    }
    if record.bids is None:
        return row, []
    blank = (None,) * len(record.bids)
    columns = zip(record.bids, record.tricks or blank, record.drafts or blank, strict=True)
    entries = [
        {
            "game_id": game_id,
            "round_number": number,
            "seat": seat,
            "bid": bid,
            "tricks": tricks,
            "draft_tricks": draft,
        }
        for seat, (bid, tricks, draft) in enumerate(columns)
    ]
    return row, entries


def read_tally(stored: Any) -> tuple[Winner, ...]:
    """A stored tally as winners (a list of seats and nulls; anything else reads as none)."""
    if not isinstance(stored, list):
        return ()
    if not all(winner is None or type(winner) is int for winner in stored):
        return ()
    return tuple(stored)


def aware(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (SQLite hands back naive ones)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def live_game(game_id: str, *columns: Any, lock: bool = False) -> Row[*tuple[Any, ...]]:
    """The ``columns`` of the game (undeleted) in one statement, its row locked for the rest
    of the transaction with ``lock``; :class:`GameNotFound` when there is no such game."""
    if not valid_id(game_id):
        raise GameNotFound()
    statement = select(*columns).where(GameRow.id == game_id, GameRow.deleted_at.is_(None))
    found = db.session.execute(statement.with_for_update() if lock else statement).first()
    if found is None:
        raise GameNotFound()
    return found


def check_round_number(rounds: int, number: int) -> None:
    """Raise :class:`RoundNotFound` unless a game of ``rounds`` rounds has round ``number``."""
    if not 1 <= number <= rounds:
        raise RoundNotFound(rounds=rounds, round=number)


# The two statements that read a game: its row with its players, then its version with its
# rounds and their entries (plain rows: no objects to keep track of). Built once.
_GAME = (
    select(
        GameRow.edit_token_hash,
        GameRow.first_dealer,
        GameRow.bid_rule,
        GameRow.last_bidder_may_bid_zero,
        GameRow.bid_reveal,
        GameRow.clairvoyance,
        GameRow.round_count,
        GameRow.round_plan,
        GameRow.special_cards,
        GameRow.created_at,
        PlayerRow.name,
    )
    .join(PlayerRow, PlayerRow.game_id == GameRow.id)
    .where(GameRow.id == bindparam("game_id"), GameRow.deleted_at.is_(None))
    .order_by(PlayerRow.seat)
)
_LOCKED_GAME = _GAME.with_for_update(of=GameRow)
_FACTS = (
    select(
        GameRow.version,
        GameRow.updated_at,
        RoundRow.number,
        RoundRow.trump_turned,
        RoundRow.trump_suit,
        RoundRow.corrected_at,
        RoundRow.tally,
        RoundRow.bomb,
        RoundRow.cloud_seat,
        RoundRow.cloud_bid,
        EntryRow.seat,
        EntryRow.bid,
        EntryRow.tricks,
        EntryRow.draft_tricks,
    )
    .outerjoin(RoundRow, RoundRow.game_id == GameRow.id)
    .outerjoin(
        EntryRow,
        and_(EntryRow.game_id == RoundRow.game_id, EntryRow.round_number == RoundRow.number),
    )
    .where(GameRow.id == bindparam("game_id"), GameRow.deleted_at.is_(None))
    .order_by(RoundRow.number, EntryRow.seat)
)


def load_game(game_id: str, *, lock: bool = False) -> GameSnapshot:
    """The game (undeleted) with its players, rounds and entries, in two statements; with
    ``lock``, its row is locked for the rest of the transaction. The version is read with
    the rounds, so that a write committed between the two statements cannot part them."""
    if not valid_id(game_id):
        raise GameNotFound()
    # Plain rows on the session's connection: no ORM objects to keep track of.
    connection = db.session.connection()
    rows = connection.execute(_LOCKED_GAME if lock else _GAME, {"game_id": game_id}).all()
    if not rows:
        raise GameNotFound()
    facts = connection.execute(_FACTS, {"game_id": game_id}).all()
    if not facts:
        raise GameNotFound()  # deleted between the two statements
    rounds, corrected = {}, {}
    for number, group in groupby(facts, key=attrgetter("number")):
        if number is not None:  # a game without rounds joins to one row of NULLs
            kept = list(group)
            rounds[number] = read_round(kept[0], [row for row in kept if row.seat is not None])
            if kept[0].corrected_at is not None:
                corrected[number] = aware(kept[0].corrected_at)
    first = rows[0]
    return GameSnapshot(
        id=game_id,
        version=facts[0].version,
        edit_token_hash=first.edit_token_hash,
        created_at=aware(first.created_at),
        updated_at=aware(facts[0].updated_at),
        table=game_table(first, tuple(row.name for row in rows)),
        rounds=rounds,
        corrected_at=corrected,
    )


def game_table(game: Any, players: Sequence[str] | None = None) -> Table:
    """The table a game's row gives (a :class:`GameRow` with its players loaded, or a row of
    its columns with the players' names in seat order)."""
    if players is None:
        players = [player.name for player in game.players]
    return Table(
        players=tuple(players),
        first_dealer=game.first_dealer,
        rules=GameRules(
            rounds=game.round_count,
            bid_rule=BidRule(game.bid_rule),
            last_bidder_may_bid_zero=game.last_bidder_may_bid_zero,
            bid_reveal=BidReveal(game.bid_reveal),
            clairvoyance=game.clairvoyance,
            special_cards=frozenset(
                Special(name) for name in game.special_cards.split(",") if name
            ),
            round_plan=RoundPlan(game.round_plan),
        ),
    )


#: What :func:`snapshot` reads of a game loaded as an object, in two more statements.
WITH_FACTS = (
    selectinload(GameRow.players),
    selectinload(GameRow.rounds).selectinload(RoundRow.entries),
)


def snapshot(game: GameRow) -> GameSnapshot:
    """What a game loaded as an object (with its players, rounds and entries) gives."""
    return GameSnapshot(
        id=game.id,
        version=game.version,
        edit_token_hash=game.edit_token_hash,
        created_at=aware(game.created_at),
        updated_at=aware(game.updated_at),
        table=game_table(game),
        rounds={row.number: read_round(row, row.entries) for row in game.rounds},
        corrected_at={
            row.number: aware(row.corrected_at) for row in game.rounds if row.corrected_at
        },
    )
