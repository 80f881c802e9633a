"""The use cases of a browser's history: its games list, deleting and restoring, the purge,
a round's audit trail, importing exported games, and the players' statistics.

Like :mod:`service`, every write is one transaction and callers get plain values back.
Statistics are SQL aggregates whose number of statements does not grow with the games.
"""

from __future__ import annotations

import enum
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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

from . import errors, rules
from .database import folded
from .errors import GameImportRefused, ImportRefused, RoundImportRefused
from .extensions import db
from .models import Entry, Game, Grant, Player, Round, RoundChange, utcnow
from .rules import _
from .services import games, loading, sharing
from .services.games import NewGame
from .services.loading import GameSnapshot
from .services.sharing import Device

RESTORE_DAYS = 30
GAMES_PAGE = 20
MAX_GAMES_SHOWN = 1000
FOLLOWED_MAX = 100
MAX_IMPORT_GAMES = 2000
SPARK_POINTS = 30

#: What wrote to a round (see :class:`models.RoundChange`).
KINDS = ("trump", "bids", "tricks", "score", "correction", "import")


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


def _kept_by(device: Device | None) -> ColumnElement[bool]:
    if device is None:
        return literal(False)
    return exists().where(Grant.game_id == Game.id, Grant.device_hash == device.hash)


def _restorable(now: datetime | None = None) -> ColumnElement[bool]:
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
    followed_ids = [game_id for game_id in followed if loading.valid_id(game_id)]
    kept = _kept_by(device)
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
    games = [ListedGame(loading.snapshot(game), bool(is_kept)) for game, is_kept in rows[:limit]]
    return GameList(games=games, more=len(rows) > limit)


def deleted_games(device: Device | None, now: datetime | None = None) -> list[DeletedGame]:
    """The games this browser deleted that can still be restored, the latest first."""
    if device is None:
        return []
    statement = (
        select(Game)
        .join(Grant, Grant.game_id == Game.id)
        .where(Grant.device_hash == device.hash, _restorable(now))
        .order_by(Game.deleted_at.desc())
        .limit(GAMES_PAGE)
        .options(selectinload(Game.players))
    )
    result = []
    for game in db.session.scalars(statement):
        deleted_at = loading.aware(game.deleted_at or utcnow())
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
    if not loading.valid_id(game_id):
        raise errors.GameNotFound()
    with loading.write_transaction():
        game = db.session.scalars(
            select(Game)
            .where(Game.id == game_id, _restorable())
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
                at=loading.aware(row.changed_at),
                old=_facts(row.old, hide_bids=hide),
                new=_facts(row.new, hide_bids=hide),
            )
        )
    return trails


def kept_snapshots(device: Device | None) -> list[GameSnapshot]:
    """Every game this browser keeps, newest activity first (for "export everything")."""
    return games.kept_games(device, limit=None)


def facts_json(facts: Facts | None) -> dict[str, object] | None:
    """Facts as the export writes them."""
    if facts is None:
        return None
    return loading.facts_json(rules.RoundRecord(facts.trump, facts.bids, facts.tricks))


# -- Import --------------------------------------------------------------------------------


class _Refusal(Exception):
    """A reason inside one game, before the game's label is known."""

    def __init__(self, reason: rules.RuleError, round_number: int | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.round = round_number


def _bad(message: str, round_number: int | None = None, **params: Any) -> _Refusal:
    return _Refusal(rules.RuleError(message, **params), round_number)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(value: Any, what: str, round_number: int | None = None) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(_("%(what)s is not a JSON object."), round_number, what=what)
    return value


def _ints(
    value: Any, what: str, round_number: int, *, nullable: bool
) -> tuple[int | None, ...] | None:
    if value is None:
        return None
    ok = isinstance(value, list) and all(
        _is_int(item) or (nullable and item is None) for item in value
    )
    if not ok:
        raise _bad(_("%(what)s must be a list of whole numbers."), round_number, what=what)
    return tuple(value)


def _moment(value: Any) -> datetime | None:
    """A time of the file in UTC (as every time is stored), or ``None`` without one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _time(value: Any, default: datetime) -> datetime:
    """A time of the file, or ``default`` without one."""
    return _moment(value) or default


@dataclass
class _Parsed:
    table: rules.Table
    records: dict[int, rules.RoundRecord]
    created_at: datetime
    updated_at: datetime
    audit: list[RoundChange]
    #: Whether the file gives the game's start (without it, the game has no identity to
    #: find it by among the kept ones).
    dated: bool = True


def _table(game: dict[str, Any]) -> rules.Table:
    players = game.get("players")
    if not isinstance(players, list):
        raise _bad(_("players must be a list of the players by seat."))
    names = []
    for seat, player in enumerate(players):
        entry = _object(player, f"players[{seat}]")
        name = entry.get("name")
        if entry.get("seat") != seat or not isinstance(name, str):
            raise _bad(
                _("players[%(seat)d] must be the player in seat %(seat)d, with a name."),
                seat=seat,
            )
        names.append(name)
    options = _object(game.get("rules"), "rules")
    first_dealer: Any = game.get("first_dealer")
    rounds: Any = options.get("rounds")
    flags = (options.get("last_bidder_may_bid_zero"), options.get("clairvoyance"))
    if not _is_int(first_dealer) or not _is_int(rounds) or not all(type(f) is bool for f in flags):
        raise _bad(_("first_dealer and the rules are missing or of the wrong type."))
    return rules.Table(
        players=rules.clean_names(names),
        first_dealer=int(first_dealer),
        rules=rules.GameRules(
            rounds=int(rounds),
            bid_rule=rules.parse_bid_rule(str(options.get("bid_rule"))),
            last_bidder_may_bid_zero=bool(flags[0]),
            bid_reveal=rules.parse_bid_reveal(str(options.get("bid_reveal"))),
            clairvoyance=bool(flags[1]),
        ),
    )


def _trump(value: Any, table: rules.Table, number: int) -> rules.Trump | None:
    if value is None:
        return None
    data = _object(value, "trump", number)
    turned, suit = data.get("turned"), data.get("suit")
    if turned == rules.Turned.NONE.value:
        if not table.deals_every_card(number) or suit is not None:
            raise _bad(_("only the round that deals every card has no card turned."), number)
        return None  # the rules record it themselves
    trump = rules.trump_from(
        str(turned), str(suit) if turned == rules.Turned.WIZARD.value and suit else None
    )
    if (trump.suit.value if trump.suit else None) != suit:
        raise _bad(_("the trump suit does not match the card turned."), number)
    return trump


def _replay(table: rules.Table, rounds: Any) -> dict[int, rules.RoundRecord]:
    """The rounds of the file, each checked by the rules as if it were recorded now."""
    if not isinstance(rounds, list) or len(rounds) != table.rules.rounds:
        raise _bad(
            _("rounds must list every round of the game, 1 to %(rounds)d."),
            rounds=table.rules.rounds,
        )
    records: dict[int, rules.RoundRecord] = {}
    for number, raw in enumerate(rounds, start=1):
        data = _object(raw, f"rounds[{number - 1}]", number)
        if data.get("number") != number:
            raise _bad(_("the rounds are not numbered 1, 2, 3, … in order."), number)
        try:
            trump = _trump(data.get("trump"), table, number)
            bids = _ints(data.get("bids"), "bids", number, nullable=True)
            tricks = _ints(data.get("tricks"), "tricks", number, nullable=False)
            if bids is not None and all(bid is None for bid in bids):
                bids = None  # nobody has bid yet (or the bids were hidden at export)
            if trump is not None:
                rules.verify_trump_turn(rules.evaluate(table, records), number)
                records[number] = rules.RoundRecord(trump=trump)
            elif (bids is not None or tricks is not None) and not table.deals_every_card(number):
                raise _bad(_("bids or tricks are given without a trump."), number)
            if bids is not None:
                rules.verify_bids_turn(rules.evaluate(table, records), number, bids)
                records[number] = rules.RoundRecord(trump=trump, bids=bids)
            if tricks is not None:
                view = rules.evaluate(table, records)
                counts = tuple(t or 0 for t in tricks)
                rules.verify_tricks_turn(view, number, counts)
                records[number] = rules.RoundRecord(trump=trump, bids=bids, tricks=counts)
        except rules.RuleError as error:
            raise _Refusal(error, number) from None
        scores = data.get("scores")
        derived = rules.evaluate(table, records).round(number).scores
        if scores is not None and scores != derived:
            raise _bad(_("the scores in the file do not follow from its bids and tricks."), number)
    return records


def _audit_rows(
    entries: Any, table: rules.Table, records: Mapping[int, rules.RoundRecord], now: datetime
) -> list[RoundChange]:
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        raise _bad(_("audit must be a list of changes."))
    rows = []
    for index, raw in enumerate(entries):
        entry = _object(raw, f"audit[{index}]")
        raw_number: Any = entry.get("round")
        kind = entry.get("kind")
        number = int(raw_number) if _is_int(raw_number) else 0
        if not 1 <= number <= table.rules.rounds or kind not in KINDS:
            raise _bad(
                _("audit[%(index)d] names no round of this game or no kind of change."),
                index=index,
            )
        sides = []
        for side in ("old", "new"):
            value = entry.get(side)
            try:
                sides.append(_change_facts(value, table, number))
            except (rules.RuleError, _Refusal, ValueError):
                raise _bad(
                    _("audit[%(index)d] holds facts that are not a round's."), index=index
                ) from None
        rows.append(
            RoundChange(
                round_number=number,
                kind=str(kind),
                changed_at=_time(entry.get("at"), now),
                old=sides[0],
                new=sides[1],
            )
        )
    for number, record in sorted(records.items()):
        rows.append(
            RoundChange(
                round_number=number,
                kind="import",
                changed_at=now,
                old=None,
                new=loading.facts_json(record),
            )
        )
    return rows


def _change_facts(value: Any, table: rules.Table, number: int) -> dict[str, object] | None:
    if value is None:
        return None
    data = _object(value, "facts", number)
    raw_trump = data.get("trump")
    trump = None
    if isinstance(raw_trump, dict) and raw_trump.get("turned") == rules.Turned.NONE.value:
        trump = rules.Trump.NO_CARD_LEFT
    else:
        trump = _trump(raw_trump, table, number)
    bids = _ints(data.get("bids"), "bids", number, nullable=True)
    tricks = _ints(data.get("tricks"), "tricks", number, nullable=False)
    for values in (bids, tricks):
        if values is not None and len(values) != table.seats:
            raise ValueError(values)
    return loading.facts_json(
        rules.RoundRecord(
            trump, bids, tuple(int(t or 0) for t in tricks) if tricks is not None else None
        )
    )


def _parse_game(item: Any, now: datetime) -> _Parsed:
    wrapper = _object(item, "game")
    game = _object(wrapper.get("game"), "game")
    try:
        table = _table(game)
    except rules.RuleError as error:
        raise _Refusal(error) from None
    records = _replay(table, game.get("rounds"))
    started = _moment(game.get("created_at"))
    totals = game.get("totals")
    if totals is not None and totals != rules.evaluate(table, records).totals:
        raise _bad(_("the totals in the file do not follow from its rounds."))
    return _Parsed(
        table=table,
        records=records,
        created_at=started or now,
        dated=started is not None,
        updated_at=_time(game.get("updated_at"), now),
        audit=_audit_rows(wrapper.get("audit"), table, records, now),
    )


def _label(index: int, item: Any) -> str:
    """The game's place in the file and its players, to name it in a refusal."""
    try:
        names = [str(player["name"]) for player in item["game"]["players"]][: rules.MAX_PLAYERS]
    except (KeyError, TypeError, IndexError):
        return str(index)
    return f"{index} ({', '.join(name[: rules.NAME_MAX_LENGTH] for name in names)})"


def _games_of(document: Any) -> list[Any]:
    if not isinstance(document, dict):
        raise ImportRefused(reason=rules.RuleError(_("it is not a JSON object.")))
    if document.get("schema_version") != 1:
        refusal = _("it is not a file this version of the Tablet of Truth exported.")
        raise ImportRefused(reason=rules.RuleError(refusal))
    if "games" in document:
        games = document["games"]
        if not isinstance(games, list):
            raise ImportRefused(reason=rules.RuleError(_("games must be a list.")))
    elif "game" in document:
        games = [{"game": document["game"], "audit": document.get("audit")}]
    else:
        raise ImportRefused(reason=rules.RuleError(_("it holds no game.")))
    if not games:
        raise ImportRefused(reason=rules.RuleError(_("it holds no game.")))
    if len(games) > MAX_IMPORT_GAMES:
        raise ImportRefused(
            reason=rules.RuleError(
                _("it holds more than %(max)d games: import them in parts."),
                max=MAX_IMPORT_GAMES,
            )
        )
    return games


@dataclass(frozen=True)
class Imported:
    """What an import did: the games it started, and how many of the file's it left out as
    the browser already keeps them, in its list or deleted and still restorable."""

    created: list[NewGame]
    already_kept: int = 0
    restorable: int = 0


def _identity(created_at: datetime, table: rules.Table) -> tuple[datetime, rules.Table]:
    """What makes two copies the same game: started at the same second (an export gives
    seconds) by the same table (the players in their seats, the first dealer, the rules)."""
    return created_at.astimezone(UTC).replace(microsecond=0), table


def _kept_identities(device: Device | None) -> dict[tuple[datetime, rules.Table], bool]:
    """The games ``device`` keeps, each with whether it is deleted (and still restorable)."""
    if device is None:
        return {}
    statement = (
        select(Game)
        .where(_kept_by(device), or_(Game.deleted_at.is_(None), _restorable()))
        .options(selectinload(Game.players))
    )
    return {
        _identity(loading.aware(game.created_at), loading.game_table(game)): game.deleted_at
        is not None
        for game in db.session.scalars(statement)
    }


def _one_import_at_a_time(device: Device) -> None:
    """Make an import by ``device`` wait for another one of its imports in progress (a form
    sent twice), so that the second finds the games the first started. SQLite's write
    transaction runs alone already; PostgreSQL's takes a lock named after the browser,
    released when the transaction ends."""
    if db.session.get_bind().dialect.name == "postgresql":
        key = int(device.hash[:15], 16)  # 60 bits of the hash: within a bigint
        db.session.execute(select(func.pg_advisory_xact_lock(key)))


def import_games(document: Any, device: Device | None = None) -> Imported:
    """Every game of an export (one game or many) as a new game with a new id and token,
    each round checked by the rules. A game or round the rules refuse refuses the whole
    file: nothing is imported. ``device`` gets the edit right to every imported game; a game
    it already keeps (the original, or a copy imported before, whatever was played in it
    since) is left out, so importing a file twice starts no game twice; so is one it deleted
    and can still restore (restoring it gives it back, with its address)."""
    now = utcnow()
    parsed: list[_Parsed] = []
    for index, item in enumerate(_games_of(document), start=1):
        try:
            parsed.append(_parse_game(item, now))
        except _Refusal as refusal:
            if refusal.round is not None:
                raise RoundImportRefused(
                    game=_label(index, item), round=refusal.round, reason=refusal.reason
                ) from None
            raise GameImportRefused(game=_label(index, item), reason=refusal.reason) from None
    created = []
    already_kept = restorable = 0
    with loading.write_transaction():
        if device is not None:
            _one_import_at_a_time(device)
        kept = _kept_identities(device)
        for game in parsed:
            identity = _identity(game.created_at, game.table)
            if game.dated and identity in kept:
                if kept[identity]:
                    restorable += 1
                else:
                    already_kept += 1
                continue
            if device is not None:
                kept[identity] = False  # the same game twice in one file: once
            token = secrets.token_urlsafe(loading.EDIT_TOKEN_BYTES)
            row = _game_row(game, token)
            db.session.add(row)
            if device is not None:
                db.session.add(Grant(device_hash=device.hash, game_id=row.id, created_at=now))
            created.append((row, token))
    return Imported(
        created=[NewGame(game=loading.snapshot(row), edit_token=token) for row, token in created],
        already_kept=already_kept,
        restorable=restorable,
    )


def _game_row(game: _Parsed, token: str) -> Game:
    table = game.table
    row = Game(
        id=secrets.token_urlsafe(loading.GAME_ID_BYTES),
        edit_token_hash=sharing.hash_token(token),
        version=1,
        first_dealer=table.first_dealer,
        bid_rule=table.rules.bid_rule.value,
        last_bidder_may_bid_zero=table.rules.last_bidder_may_bid_zero,
        bid_reveal=table.rules.bid_reveal.value,
        clairvoyance=table.rules.clairvoyance,
        round_count=table.rules.rounds,
        created_at=game.created_at,
        updated_at=game.updated_at,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(table.players)],
    )
    corrected: dict[int, datetime] = {}
    for change in game.audit:
        if change.kind == "correction":
            corrected[change.round_number] = max(
                change.changed_at, corrected.get(change.round_number, change.changed_at)
            )
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
