"""Importing exported games (the rest of a browser's history is in :mod:`services.history`,
its statistics in :mod:`services.statistics`).

Like :mod:`service`, every write is one transaction and callers get plain values back.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import selectinload

from . import rules, service, store
from .errors import GameImportRefused, ImportRefused, RoundImportRefused
from .extensions import db
from .models import Entry, Game, Grant, Player, Round, RoundChange, utcnow
from .rules import _
from .service import Device, NewGame
from .services.history import KINDS
from .services.history import kept_by as _kept_by
from .services.history import restorable as _restorable

MAX_IMPORT_GAMES = 2000


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
                new=service.facts_json(record),
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
    return service.facts_json(
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
        _identity(store.aware(game.created_at), service.game_table(game)): game.deleted_at
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
    with service.write_transaction():
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
            token = secrets.token_urlsafe(service.EDIT_TOKEN_BYTES)
            row = _game_row(game, token)
            db.session.add(row)
            if device is not None:
                db.session.add(Grant(device_hash=device.hash, game_id=row.id, created_at=now))
            created.append((row, token))
    return Imported(
        created=[NewGame(game=service.snapshot(row), edit_token=token) for row, token in created],
        already_kept=already_kept,
        restorable=restorable,
    )


def _game_row(game: _Parsed, token: str) -> Game:
    table = game.table
    row = Game(
        id=secrets.token_urlsafe(service.GAME_ID_BYTES),
        edit_token_hash=service.hash_token(token),
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
