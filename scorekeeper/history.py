"""The use cases of a browser's history: its games list, deleting and restoring, the purge,
a round's audit trail, and the players' statistics.

Like :mod:`service`, every write is one transaction and callers get plain values back.
Statistics are SQL aggregates whose number of statements does not grow with the games.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    String,
    and_,
    case,
    cast,
    delete,
    distinct,
    exists,
    func,
    literal,
    literal_column,
    null,
    or_,
    select,
    union_all,
)
from sqlalchemy.orm import selectinload

from . import errors, rules, service, store
from .database import folded
from .extensions import db
from .models import Entry, Game, Grant, Player, Round, RoundChange, utcnow
from .service import Device, GameSnapshot

RESTORE_DAYS = 30
GAMES_PAGE = 20
MAX_GAMES_SHOWN = 1000
FOLLOWED_MAX = 100
SPARK_POINTS = 30


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
    if device is None:
        return literal(False)
    return exists().where(Grant.game_id == Game.id, Grant.device_hash == device.hash)


def restorable(now: datetime | None = None) -> ColumnElement[bool]:
    """Deleted within the last :data:`RESTORE_DAYS` days: the game can still be restored."""
    return Game.deleted_at >= (now or utcnow()) - timedelta(days=RESTORE_DAYS)


def _finished() -> ColumnElement[bool]:
    """Every round scored: the rounds with tricks (written for every seat at once) number
    the rounds of the game."""
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
    """The games this browser keeps or follows, newest activity first.

    ``status``: ``in_progress``, ``finished`` or ``""`` (all); ``search``: part of a
    player's name, any case.
    """
    limit = max(1, min(limit, MAX_GAMES_SHOWN))
    followed_ids = [game_id for game_id in followed if service.valid_id(game_id)]
    kept = kept_by(device)
    whose = or_(kept, Game.id.in_(followed_ids)) if followed_ids else kept
    statement = select(Game, kept.label("kept")).where(whose, Game.deleted_at.is_(None))
    if status == rules.GameStatus.FINISHED:
        statement = statement.where(_finished())
    elif status == rules.GameStatus.IN_PROGRESS:
        statement = statement.where(~_finished())
    needle = rules.fold_case(search.strip()[: rules.NAME_MAX_LENGTH])
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
        .options(
            selectinload(Game.players),
            selectinload(Game.rounds).selectinload(Round.entries),
        )
    )
    rows = db.session.execute(statement).all()
    games = [ListedGame(service.snapshot(game), bool(is_kept)) for game, is_kept in rows[:limit]]
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
    result = []
    for game in db.session.scalars(statement):
        deleted_at = store.aware(game.deleted_at or utcnow())
        result.append(
            DeletedGame(
                id=game.id,
                players=tuple(player.name for player in game.players),
                deleted_at=deleted_at,
                restorable_until=deleted_at + timedelta(days=RESTORE_DAYS),
            )
        )
    return result


def restore_game(game_id: str, device: Device | None) -> GameSnapshot:
    """Undo the deletion of a game, within :data:`RESTORE_DAYS` days of it."""
    if device is None:
        raise errors.TokenMissing()
    if not service.valid_id(game_id):
        raise errors.GameNotFound()
    with service.write_transaction():
        game = db.session.scalars(
            select(Game)
            .where(Game.id == game_id, restorable())
            .with_for_update()
            .execution_options(populate_existing=True)
        ).one_or_none()
        if game is None:
            raise errors.GameNotFound()
        if not service.has_grant(game.id, device):
            raise errors.NotKeeper()
        game.deleted_at = None
        game.version += 1
        game.updated_at = utcnow()
        return service.snapshot(game)


def purge_deleted(days: int = RESTORE_DAYS, now: datetime | None = None) -> int:
    """Delete for good the games deleted more than ``days`` days ago; how many there were."""
    cutoff = (now or utcnow()) - timedelta(days=days)
    with service.write_transaction():
        result = db.session.execute(
            delete(Game)
            .where(Game.deleted_at.is_not(None), Game.deleted_at < cutoff)
            .execution_options(synchronize_session=False)
        )
    count: int = getattr(result, "rowcount", 0) or 0
    return count


# -- The audit trail -----------------------------------------------------------------------


class Hidden(enum.Enum):
    """A bid made whose value the reveal mode still hides from the table."""

    BID = "hidden"


#: A bid made but hidden (see :class:`Hidden`).
HIDDEN = Hidden.BID

#: One fact of a round as the history shows it: a trump, a bid or trick count, a bid made
#: but hidden, or ``None``: not recorded (a bid not made, tricks not counted, no trump yet).
Value = rules.Trump | int | Hidden | None


@dataclass(frozen=True)
class Facts:
    """A round's facts at one moment (``None``: not recorded)."""

    trump: rules.Trump | None
    #: The bids by seat; a bid the reveal mode still hides reads ``None`` here too.
    bids: tuple[int | None, ...] | None
    tricks: tuple[int, ...] | None
    #: The seats whose bid is made but hidden from the table for now.
    hidden_bids: frozenset[int] = frozenset()

    def bid(self, seat: int) -> int | Hidden | None:
        """The seat's bid as the table may see it: :data:`HIDDEN` when made but hidden,
        ``None`` when not made."""
        if seat in self.hidden_bids:
            return HIDDEN
        return _at(self.bids, seat)

    def tricks_of(self, seat: int) -> int | None:
        """The tricks the seat won, ``None`` before they are recorded."""
        return _at(self.tricks, seat)


def _at(values: tuple[int | None, ...] | None, seat: int) -> int | None:
    return values[seat] if values is not None and seat < len(values) else None


class Fact(enum.StrEnum):
    """What of a round a change can write otherwise."""

    TRUMP = "trump"
    BID = "bid"
    TRICKS = "tricks"


@dataclass(frozen=True)
class Difference:
    """One fact a change wrote otherwise; ``old`` ``None`` when the change recorded it for the
    first time."""

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
        """Only what the change wrote otherwise: the trump, then the players by seat, each
        with the facts of theirs it changed. Empty for a write that repeated what was there,
        or whose every change is of bids still hidden (comparing hidden bids would tell)."""
        old = self.old or _NOTHING
        new = self.new or _NOTHING
        lines = []
        if old.trump != new.trump:
            lines.append(Line(None, (Difference(Fact.TRUMP, old.trump, new.trump),)))
        for seat in range(max(_seats(old), _seats(new))):
            pairs = (
                (Fact.BID, old.bid(seat), new.bid(seat)),
                (Fact.TRICKS, old.tricks_of(seat), new.tricks_of(seat)),
            )
            differences = tuple(Difference(*pair) for pair in pairs if pair[1] != pair[2])
            if differences:
                lines.append(Line(seat, differences))
        return lines

    @property
    def hides_bids(self) -> bool:
        """Whether bids the reveal mode still hides were there before or after the change
        (so a change without :attr:`lines` may have changed one of them)."""
        return any(facts is not None and facts.hidden_bids for facts in (self.old, self.new))


_NOTHING = Facts(trump=None, bids=None, tricks=None)


def _seats(facts: Facts) -> int:
    return max(len(facts.bids or ()), len(facts.tricks or ()))


def _facts(data: Any, *, hide_bids: bool) -> Facts | None:
    """Stored facts back as values (they were checked when written or imported); with
    ``hide_bids``, the bids made read as made, without their values."""
    if not isinstance(data, dict):
        return None
    trump = None
    raw_trump = data.get("trump")
    if isinstance(raw_trump, dict):
        suit = raw_trump.get("suit")
        trump = rules.Trump(
            rules.Turned(str(raw_trump.get("turned"))), rules.Suit(suit) if suit else None
        )
    bids = data.get("bids")
    tricks = data.get("tricks")
    shown_bids = tuple(bids) if isinstance(bids, list) else None
    hidden: frozenset[int] = frozenset()
    if hide_bids and shown_bids is not None:
        hidden = frozenset(seat for seat, bid in enumerate(shown_bids) if bid is not None)
        shown_bids = tuple(None for _bid in shown_bids)
    return Facts(
        trump=trump,
        bids=shown_bids,
        tricks=tuple(tricks) if isinstance(tricks, list) else None,
        hidden_bids=hidden,
    )


def audit_trail(game: GameSnapshot, number: int | None = None) -> list[Change]:
    """Every write to the game's rounds (or to round ``number``), oldest first. Bids the
    reveal mode still hides (a round being bid on in covered or secret mode) read ``None``,
    their seats in :attr:`Facts.hidden_bids`."""
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
                at=store.aware(row.changed_at),
                old=_facts(row.old, hide_bids=hide),
                new=_facts(row.new, hide_bids=hide),
            )
        )
    return trails


def kept_snapshots(device: Device | None) -> list[GameSnapshot]:
    """Every game this browser keeps, newest activity first (for "export everything")."""
    return service.kept_games(device, limit=None)


def facts_json(facts: Facts | None) -> dict[str, object] | None:
    """Facts as the export writes them."""
    if facts is None:
        return None
    return service.facts_json(rules.RoundRecord(facts.trump, facts.bids, facts.tricks))


# -- Statistics ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """One player (by name, any case) over the games this browser keeps."""

    name: str
    games: int
    finished: int
    wins: int
    average: float | None
    best: int | None
    rounds: int
    exact: int
    over: int
    over_by: float | None
    under: int
    under_by: float | None
    zero_bids: int
    zero_made: int
    longest_run: int
    history: list[int]

    @property
    def win_rate(self) -> float | None:
        """Wins (shared wins count) per finished game."""
        return self.wins / self.finished if self.finished else None

    @property
    def accuracy(self) -> float | None:
        """Exact bids per round played."""
        return self.exact / self.rounds if self.rounds else None

    @property
    def zero_success(self) -> float | None:
        """Bids of 0 made per bid of 0."""
        return self.zero_made / self.zero_bids if self.zero_bids else None


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the finished games they played together."""

    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int

    @property
    def ties(self) -> int:
        """The games neither ended ahead of the other."""
        return self.games - self.first_ahead - self.second_ahead


@dataclass(frozen=True)
class Statistics:
    """Every player this browser has kept score of, most games first, and each pair."""

    players: list[PlayerStats]
    pairs: list[HeadToHead]


def score_sql(bid: Any, tricks: Any) -> ColumnElement[int]:
    """The rules' score (:func:`rules.score`) as an SQL expression, from the same constants."""
    return case(
        (bid == tricks, rules.EXACT_BID_BONUS + rules.POINTS_PER_TRICK * tricks),
        else_=-rules.POINTS_PER_TRICK * func.abs(bid - tricks),
    )


#: The most rounds a game has (three players): the widest pattern of exact bids.
MOST_ROUNDS = rules.DECK_SIZE // rules.MIN_PLAYERS
PAIRS_SHOWN = 50


def _as_int(value: Any) -> int:
    return int(value or 0)


def _sql(text: str) -> ColumnElement[Any]:
    """A whole number written into the SQL (a bound parameter would let PostgreSQL pick a
    2-byte integer for it, too small for a pattern shifted by 20)."""
    return literal_column(text, Integer)


def _bytewise(column: Any) -> Any:
    """Compare names as Python does (by code point) on PostgreSQL too."""
    return column.collate("C") if db.engine.dialect.name == "postgresql" else column


def _bits(pattern: Any, shift: Any, width: int) -> ColumnElement[bool]:
    """Whether the ``width`` rounds from bit ``shift`` up were all bid exactly."""
    ones = _sql(str((1 << width) - 1))
    shifted = pattern.op(">>")(shift) if shift is not None else pattern
    all_set: ColumnElement[bool] = shifted.op("&")(ones) == ones
    return all_set


def _longest_inside(pattern: Any) -> ColumnElement[int]:
    """The longest run of exact bids inside one game, from its pattern (bit ``r - 1`` set:
    round ``r`` bid exactly): a run of ``k`` exists when the pattern ANDed with itself
    shifted by 1 … ``k - 1`` is not 0. Asked from 2 upwards, so a short run costs little."""

    def run_of(length: int) -> ColumnElement[bool]:
        combined: Any = pattern
        for shift in range(1, length):
            combined = combined.op("&")(pattern.op(">>")(_sql(str(shift))))
        none_left: ColumnElement[bool] = combined == 0
        return none_left

    whens = [(pattern == 0, 0)]
    whens += [(run_of(length), length - 1) for length in range(2, MOST_ROUNDS + 1)]
    return case(*whens, else_=MOST_ROUNDS)


def _exact_head(pattern: Any, rounds: Any) -> ColumnElement[int]:
    """The rounds bid exactly from round 1 on (the rounds are scored in order, from 1)."""
    whens = [(~_bits(pattern, None, width), width - 1) for width in range(1, MOST_ROUNDS + 1)]
    return case(*whens, else_=rounds)


def _exact_tail(pattern: Any, rounds: Any, all_exact: Any) -> ColumnElement[int]:
    """The rounds bid exactly back from the last round scored (round ``rounds``)."""
    whens = [(all_exact, rounds)]
    whens += [
        (~_bits(pattern, rounds - width, width), width - 1) for width in range(1, MOST_ROUNDS + 1)
    ]
    return case(*whens, else_=rounds)


def _per_game(device: Device) -> Any:
    """One row per player per kept game (a CTE, so computed once per statement): the total,
    whether the game is finished, the game's top total, the player's bids against tricks,
    and the pattern of exact bids (the longest run inside, the runs at either end), summed
    over the rounds scored. One pass over the kept games' entries, along their indexes:
    grants by device, games and players by primary key, entries by (game, seat, round)."""
    missed_by = Entry.bid - Entry.tricks
    exact = Entry.bid == Entry.tricks
    sums = (
        select(
            Grant.game_id,
            Entry.seat,
            cast(func.count(), Integer).label("rounds"),  # a shift count on PostgreSQL
            func.sum(score_sql(Entry.bid, Entry.tricks)).label("total"),
            func.sum(case((exact, 1), else_=0)).label("exact"),
            func.sum(case((missed_by > 0, 1), else_=0)).label("over"),
            func.sum(case((missed_by > 0, missed_by), else_=0)).label("over_sum"),
            func.sum(case((missed_by < 0, -missed_by), else_=0)).label("under_sum"),
            func.sum(case((Entry.bid == 0, 1), else_=0)).label("zero_bids"),
            func.sum(case((and_(Entry.bid == 0, Entry.tricks == 0), 1), else_=0)).label(
                "zero_made"
            ),
            func.sum(case((exact, _sql("1").op("<<")(Entry.round_number - 1)), else_=0)).label(
                "pattern"
            ),
        )
        .select_from(Grant)
        .join(Entry, Entry.game_id == Grant.game_id)
        .where(
            Grant.device_hash == device.hash,
            Entry.tricks.is_not(None),
            Entry.bid.is_not(None),
        )
        # In the order of the grants' and the entries' indexes: no sorting to group.
        .group_by(Grant.game_id, Entry.seat)
        .subquery("sums")
    )
    all_exact = sums.c.exact == sums.c.rounds
    return (
        select(
            *[column for column in sums.c if column.name != "pattern"],
            Player.name,
            folded(Player.name).label("key"),
            Game.created_at,
            (sums.c.rounds == Game.round_count).label("finished"),
            (sums.c.rounds - sums.c.exact - sums.c.over).label("under"),
            func.max(sums.c.total).over(partition_by=sums.c.game_id).label("top"),
            all_exact.label("all_exact"),
            _longest_inside(sums.c.pattern).label("inside"),
            _exact_head(sums.c.pattern, sums.c.rounds).label("head"),
            _exact_tail(sums.c.pattern, sums.c.rounds, all_exact).label("tail"),
        )
        .join_from(sums, Game, Game.id == sums.c.game_id)
        .join(Player, and_(Player.game_id == sums.c.game_id, Player.seat == sums.c.seat))
        .where(Game.deleted_at.is_(None))
    ).cte("per_game")


def _runs(games: Any) -> Any:
    """Each player's longest run of exact bids over the rounds in time order, from the
    per-game rows (gaps and islands over games): a run inside a game, or one that crosses
    games: the exact tail of a game, every round of the games bid all exactly after it,
    and the exact head of the next game. Each game not bid all exactly starts an island."""
    order = (games.c.created_at, games.c.game_id)
    islands = select(
        games.c.key,
        games.c.inside,
        case((games.c.all_exact, games.c.rounds), else_=games.c.tail).label("carried"),
        case((games.c.all_exact, None), else_=games.c.head).label("opening"),
        func.sum(case((games.c.all_exact, 0), else_=1))
        .over(partition_by=games.c.key, order_by=order)
        .label("island"),
    ).subquery("islands")
    chains = (
        select(
            islands.c.key,
            islands.c.island,
            func.max(islands.c.inside).label("inside"),
            func.sum(islands.c.carried).label("carried"),
            func.max(islands.c.opening).label("opening"),
        )
        .group_by(islands.c.key, islands.c.island)
        .subquery("chains")
    )
    linked = select(
        chains.c.key,
        chains.c.inside,
        (
            chains.c.carried
            + func.coalesce(
                func.lead(chains.c.opening).over(
                    partition_by=chains.c.key, order_by=chains.c.island
                ),
                0,
            )
        ).label("crossing"),
    ).subquery("linked")
    inside, crossing = func.max(linked.c.inside), func.max(linked.c.crossing)
    return (
        select(linked.c.key, case((inside > crossing, inside), else_=crossing).label("longest"))
        .group_by(linked.c.key)
        .subquery("runs")
    )


def statistics(device: Device | None) -> Statistics:
    """The players' statistics over the games this browser keeps, in one statement (its
    cost grows with the kept games' entries, read once; its count does not): the
    players' totals, each player's last :data:`SPARK_POINTS` final totals (the
    sparklines) and the :data:`PAIRS_SHOWN` pairs who shared the most finished games (the
    head-to-head table) come back as rows of one UNION, told apart by their first column."""
    if device is None:
        return Statistics(players=[], pairs=[])
    games = _per_game(device)
    done = games.c.finished
    runs = _runs(games)
    totals = (
        select(
            games.c.key,
            func.max(games.c.name).label("name"),
            func.count().label("games"),
            func.sum(case((done, 1), else_=0)).label("finished"),
            func.sum(case((and_(done, games.c.total == games.c.top), 1), else_=0)).label("wins"),
            func.max(case((done, games.c.total), else_=None)).label("best"),
            func.sum(games.c.rounds).label("rounds"),
            func.sum(games.c.exact).label("exact"),
            func.sum(games.c.over).label("over"),
            func.sum(games.c.over_sum).label("over_sum"),
            func.sum(games.c.under).label("under"),
            func.sum(games.c.under_sum).label("under_sum"),
            func.sum(games.c.zero_bids).label("zero_bids"),
            func.sum(games.c.zero_made).label("zero_made"),
            func.avg(case((done, games.c.total), else_=None)).label("average"),
        )
        .group_by(games.c.key)
        .subquery("totals")
    )
    player_rows = select(
        literal_column("'player'", String).label("kind"),
        totals.c.key,
        totals.c.name,
        *[totals.c[name] for name in _PLAYER_COUNTS],
        runs.c.longest,
        totals.c.average,
    ).join_from(totals, runs, runs.c.key == totals.c.key)
    finals = (
        select(
            games.c.key,
            games.c.total,
            func.row_number()
            .over(
                partition_by=games.c.key,
                order_by=(games.c.created_at.desc(), games.c.game_id.desc()),
            )
            .label("latest"),
        )
        .where(done)
        .subquery("finals")
    )
    nothing = [null() for _ in range(len(_PLAYER_COUNTS) - 1)]
    history_rows = select(
        literal_column("'final'", String),
        finals.c.key,
        null(),
        finals.c.latest,
        finals.c.total,
        *nothing,
        null(),
    ).where(finals.c.latest <= SPARK_POINTS)
    first, second = games.alias("first_player"), games.alias("second_player")
    together = (
        select(
            first.c.key.label("first"),
            second.c.key.label("second"),
            func.count().label("games"),
            func.sum(case((first.c.total > second.c.total, 1), else_=0)).label("ahead"),
            func.sum(case((first.c.total < second.c.total, 1), else_=0)).label("behind"),
        )
        .join_from(
            first,
            second,
            and_(
                second.c.game_id == first.c.game_id,
                _bytewise(first.c.key) < _bytewise(second.c.key),
            ),
        )
        .where(first.c.finished, second.c.finished)
        .group_by(first.c.key, second.c.key)
        .order_by(func.count().desc(), _bytewise(first.c.key), _bytewise(second.c.key))
        .limit(PAIRS_SHOWN)
        .subquery("together")
    )
    pair_rows = select(
        literal_column("'pair'", String),
        together.c.first,
        together.c.second,
        together.c.games,
        together.c.ahead,
        together.c.behind,
        *nothing[2:],
        null(),
        null(),
    )
    rows = db.session.execute(union_all(player_rows, history_rows, pair_rows)).all()
    return _folded(rows)


#: The whole numbers of a player's row, in the order of the UNION's columns.
_PLAYER_COUNTS = (
    "games",
    "finished",
    "wins",
    "best",
    "rounds",
    "exact",
    "over",
    "over_sum",
    "under",
    "under_sum",
    "zero_bids",
    "zero_made",
)


def _alphabetical(name: str) -> tuple[str, str]:
    """A name's place in an alphabetical list, as a German or English reader looks for it:
    in any case, a letter with an accent or umlaut beside the plain one (Ännchen among the
    A's, not after Uwe), then the name as it is, so the order is always the same."""
    folded = rules.fold_case(name)
    plain = "".join(
        char for char in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(char)
    )
    return plain, name


def _folded(rows: Sequence[Any]) -> Statistics:
    """The UNION's rows as statistics: players most games first, sparklines oldest first,
    pairs most games together first (each a handful of rows: the sorting is by key)."""
    names: dict[str, str] = {}
    counts: dict[str, list[int | None]] = {}
    extra: dict[str, tuple[int, float | None]] = {}
    finals: dict[str, list[tuple[int, int]]] = {}
    pairs: list[tuple[str, str, int, int, int]] = []
    for kind, raw_key, name, *numbers in rows:
        key = str(raw_key)
        if kind == "player":
            names[key] = str(name)
            values = numbers[: len(_PLAYER_COUNTS)]
            counts[key] = [None if value is None else int(value) for value in values]
            longest, average = numbers[len(_PLAYER_COUNTS) :]
            extra[key] = (_as_int(longest), float(average) if average is not None else None)
        elif kind == "final":
            finals.setdefault(key, []).append((int(numbers[0]), int(numbers[1])))
        else:
            pairs.append(
                (key, str(name), _as_int(numbers[0]), _as_int(numbers[1]), _as_int(numbers[2]))
            )
    players = []
    for key in sorted(counts, key=lambda key: (-_as_int(counts[key][0]), *_alphabetical(key))):
        games, finished, wins, best, *rest = counts[key]
        rounds_played, exact, over, over_sum, under, under_sum, zero_bids, zero_made = (
            _as_int(value) for value in rest
        )
        longest, average = extra[key]
        players.append(
            PlayerStats(
                name=names[key],
                games=_as_int(games),
                finished=_as_int(finished),
                wins=_as_int(wins),
                average=average,
                best=best,
                rounds=rounds_played,
                exact=exact,
                over=over,
                over_by=over_sum / over if over else None,
                under=under,
                under_by=under_sum / under if under else None,
                zero_bids=zero_bids,
                zero_made=zero_made,
                longest_run=longest,
                history=[total for _latest, total in sorted(finals.get(key, []), reverse=True)],
            )
        )
    pairs.sort(key=lambda pair: (-pair[2], *_alphabetical(pair[0]), *_alphabetical(pair[1])))
    return Statistics(
        players=players,
        pairs=[
            HeadToHead(names.get(a, a), names.get(b, b), together, ahead, behind)
            for a, b, together, ahead, behind in pairs
        ],
    )
