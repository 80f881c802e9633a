"""A game as the use cases see it: loaded (and locked) in a constant number of statements,
what its facts give, and the one write transaction every use case runs in
(``docs/write-path.md``). Callers get :class:`GameSnapshot` values, never ORM objects.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from itertools import groupby
from operator import attrgetter
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, select, update
from sqlalchemy.orm import selectinload

from ..database import WRITE_OPTION
from ..errors import GameNotFound, RoundNotFound
from ..extensions import db
from ..models import Entry, Game, Player, Round
from ..rules.cards import Suit, Trump, Turned
from ..rules.game import GameView, RoundRecord, RoundView, evaluate
from ..rules.specials import Cloud
from ..rules.table import Table
from ..rules.tally import Winner, tallied_tricks
from ..rules.variants import BidReveal, BidRule, GameRules, RoundPlan, Special

GAME_ID_BYTES = 18  # 144 random bits, 24 URL-safe characters
EDIT_TOKEN_BYTES = 32  # 256 random bits
MAX_ID_LENGTH = 32  # the width of games.id
_ID_CHARS = frozenset(string.ascii_letters + string.digits + "-_")


@dataclass(frozen=True)
class GameSnapshot:
    """A game at one version: its stored facts and everything the rules derive from them."""

    id: str
    version: int
    edit_token_hash: str
    created_at: datetime
    updated_at: datetime
    table: Table
    rounds: Mapping[int, RoundFacts] = field(default_factory=dict)

    @cached_property
    def view(self) -> GameView:
        """The game as the rules evaluate its facts."""
        return evaluate(self.table, {n: kept.record() for n, kept in self.rounds.items()})

    @property
    def drafts(self) -> dict[int, tuple[int | None, ...]]:
        """Tricks tapped in so far, by round, for rounds being played (``None``: not yet)."""
        return {
            number: tuple(entry.draft for entry in kept.entries)
            for number, kept in self.rounds.items()
            if any(entry.draft is not None for entry in kept.entries)
        }

    @property
    def corrected(self) -> frozenset[int]:
        """The rounds written again after they were scored."""
        return frozenset(number for number, kept in self.rounds.items() if kept.corrected_at)

    def round(self, number: int) -> RoundView:
        """Round ``number``, or :class:`RoundNotFound` when the game has no such round."""
        check_round_number(self.table.rules.rounds, number)
        return self.view.round(number)

    def draft(self, number: int) -> tuple[int | None, ...]:
        """The tricks tapped in so far in round ``number`` (``None``: not yet); with none
        tapped in, the counts of its trick tally once every trick is tallied."""
        tapped = self.drafts.get(number)
        if tapped is not None:
            return tapped
        kept = self.rounds.get(number)
        tallied = tallied_tricks(self.table, number, kept.tally) if kept is not None else None
        return tallied if tallied is not None else (None,) * self.table.seats


class EntryFacts(NamedTuple):
    """One player's facts in one round (``None``: not yet)."""

    bid: int | None = None
    tricks: int | None = None
    draft: int | None = None


@dataclass(frozen=True)
class RoundFacts:
    """A round's recorded facts, one entry per seat (none before a bid or trick is kept)."""

    number: int
    trump_turned: str | None = None
    trump_suit: str | None = None
    corrected_at: datetime | None = None
    entries: tuple[EntryFacts, ...] = ()
    #: The winner of each trick tallied so far (a seat, or ``None``: nobody).
    tally: tuple[Winner, ...] = ()
    bomb: bool = False
    cloud: Cloud | None = None

    @classmethod
    def of(cls, row: Any, entries: Iterable[Any]) -> RoundFacts:
        """The facts of a round's row and its entries in seat order (objects or plain rows)."""
        corrected = row.corrected_at
        return cls(
            number=row.number,
            trump_turned=row.trump_turned,
            trump_suit=row.trump_suit,
            corrected_at=aware(corrected) if corrected is not None else None,
            entries=tuple(
                EntryFacts(entry.bid, entry.tricks, entry.draft_tricks) for entry in entries
            ),
            tally=read_tally(row.tally),
            bomb=bool(row.bomb),
            cloud=None if row.cloud_seat is None else Cloud(row.cloud_seat, row.cloud_bid),
        )

    def record(self) -> RoundRecord:
        """The facts as the rules take them."""
        trump = None
        if self.trump_turned is not None:
            suit = Suit(self.trump_suit) if self.trump_suit else None
            trump = Trump(Turned(self.trump_turned), suit)
        entries = self.entries
        bids = tuple(entry.bid for entry in entries) if entries else None
        tricks: tuple[int, ...] | None = None
        if entries and all(entry.tricks is not None for entry in entries):
            tricks = tuple(entry.tricks or 0 for entry in entries)
        return RoundRecord(
            trump=trump,
            bids=bids,
            tricks=tricks,
            tally=self.tally,
            bomb=self.bomb,
            cloud=self.cloud,
        )

    def with_trump(self, trump: Trump) -> RoundFacts:
        """The round with this trump."""
        suit = trump.suit.value if trump.suit else None
        return replace(self, trump_turned=trump.turned.value, trump_suit=suit)

    def with_entries(self, seats: int, **columns: Sequence[int | None]) -> RoundFacts:
        """The round with whole columns (``bid``, ``tricks``, ``draft``) of its entries replaced."""
        entries = list(self.entries or (EntryFacts(),) * seats)
        for name, values in columns.items():
            if len(values) != seats:
                raise ValueError(f"{name}: one value per seat")
            for seat, value in enumerate(values):
                entries[seat] = entries[seat]._replace(**{name: value})
        return replace(self, entries=tuple(entries))


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


def valid_id(game_id: str) -> bool:
    """Whether ``game_id`` can be a game's id at all: NUL bytes (which PostgreSQL refuses in
    text) or overlong strings are not sent to the database."""
    return len(game_id) <= MAX_ID_LENGTH and _ID_CHARS.issuperset(game_id) and bool(game_id)


def check_round_number(rounds: int, number: int) -> None:
    """Raise :class:`RoundNotFound` unless a game of ``rounds`` rounds has round ``number``."""
    if not 1 <= number <= rounds:
        raise RoundNotFound(rounds=rounds, round=number)


# The two statements that read a game: its row with its players, then its version with its
# rounds and their entries (plain rows: no objects to keep track of). Built once.
_GAME = (
    select(
        Game.edit_token_hash,
        Game.first_dealer,
        Game.bid_rule,
        Game.last_bidder_may_bid_zero,
        Game.bid_reveal,
        Game.clairvoyance,
        Game.round_count,
        Game.round_plan,
        Game.special_cards,
        Game.created_at,
        Player.name,
    )
    .join(Player, Player.game_id == Game.id)
    .where(Game.id == bindparam("game_id"), Game.deleted_at.is_(None))
    .order_by(Player.seat)
)
_LOCKED_GAME = _GAME.with_for_update(of=Game)
_FACTS = (
    select(
        Game.version,
        Game.updated_at,
        Round.number,
        Round.trump_turned,
        Round.trump_suit,
        Round.corrected_at,
        Round.tally,
        Round.bomb,
        Round.cloud_seat,
        Round.cloud_bid,
        Entry.seat,
        Entry.bid,
        Entry.tricks,
        Entry.draft_tricks,
    )
    .outerjoin(Round, Round.game_id == Game.id)
    .outerjoin(Entry, and_(Entry.game_id == Round.game_id, Entry.round_number == Round.number))
    .where(Game.id == bindparam("game_id"), Game.deleted_at.is_(None))
    .order_by(Round.number, Entry.seat)
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
    rounds = {}
    for number, group in groupby(facts, key=attrgetter("number")):
        if number is not None:  # a game without rounds joins to one row of NULLs
            kept = list(group)
            rounds[number] = RoundFacts.of(kept[0], [row for row in kept if row.seat is not None])
    first = rows[0]
    return GameSnapshot(
        id=game_id,
        version=facts[0].version,
        edit_token_hash=first.edit_token_hash,
        created_at=aware(first.created_at),
        updated_at=aware(facts[0].updated_at),
        table=game_table(first, tuple(row.name for row in rows)),
        rounds=rounds,
    )


def game_table(game: Any, players: Sequence[str] | None = None) -> Table:
    """The table a game's row gives (a :class:`Game` with its players loaded, or a row of
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
WITH_FACTS = (selectinload(Game.players), selectinload(Game.rounds).selectinload(Round.entries))


def snapshot(game: Game) -> GameSnapshot:
    """What a game loaded as an object (with its players, rounds and entries) gives."""
    return GameSnapshot(
        id=game.id,
        version=game.version,
        edit_token_hash=game.edit_token_hash,
        created_at=aware(game.created_at),
        updated_at=aware(game.updated_at),
        table=game_table(game),
        rounds={row.number: RoundFacts.of(row, row.entries) for row in game.rounds},
    )


def facts_json(record: RoundRecord) -> dict[str, object]:
    """A round's recorded facts as the audit trail keeps them: the trick tally only once a
    trick is tallied, ``bomb`` and ``cloud`` only when the Bomb was played or the Cloud
    changed a bid."""
    trump = record.trump
    facts: dict[str, object] = {
        "trump": None
        if trump is None
        else {"turned": trump.turned.value, "suit": trump.suit.value if trump.suit else None},
        "bids": list(record.bids) if record.bids is not None else None,
        "tricks": list(record.tricks) if record.tricks is not None else None,
    }
    if record.tally:
        facts["tally"] = list(record.tally)
    if record.bomb:
        facts["bomb"] = True
    if record.cloud is not None:
        facts["cloud"] = {"seat": record.cloud.seat, "bid": record.cloud.bid}
    return facts


# The version bump: a write's last statement, made on the game locked for it.
_BUMP = (
    update(Game)
    .where(Game.id == bindparam("game_id"))
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
