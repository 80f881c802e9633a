"""Reading an export file: its games, each checked field by field and replayed round by
round through the rules, before anything is written. Each refusal says, in the rules'
words, what in the file is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .. import rules, service
from ..errors import ImportRefused
from ..models import RoundChange
from ..rules import _
from ..schemas.document import KINDS

MAX_IMPORT_GAMES = 2000


class Refusal(Exception):
    """A reason inside one game, before the game's label is known."""

    def __init__(self, reason: rules.RuleError, round_number: int | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.round = round_number


def _bad(message: str, round_number: int | None = None, **params: Any) -> Refusal:
    return Refusal(rules.RuleError(message, **params), round_number)


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
class ParsedGame:
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
            raise Refusal(error, number) from None
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
            except (rules.RuleError, Refusal, ValueError):
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


def parse_game(item: Any, now: datetime) -> ParsedGame:
    wrapper = _object(item, "game")
    game = _object(wrapper.get("game"), "game")
    try:
        table = _table(game)
    except rules.RuleError as error:
        raise Refusal(error) from None
    records = _replay(table, game.get("rounds"))
    started = _moment(game.get("created_at"))
    totals = game.get("totals")
    if totals is not None and totals != rules.evaluate(table, records).totals:
        raise _bad(_("the totals in the file do not follow from its rounds."))
    return ParsedGame(
        table=table,
        records=records,
        created_at=started or now,
        dated=started is not None,
        updated_at=_time(game.get("updated_at"), now),
        audit=_audit_rows(wrapper.get("audit"), table, records, now),
    )


def game_label(index: int, item: Any) -> str:
    """The game's place in the file and its players, to name it in a refusal."""
    try:
        names = [str(player["name"]) for player in item["game"]["players"]][: rules.MAX_PLAYERS]
    except (KeyError, TypeError, IndexError):
        return str(index)
    return f"{index} ({', '.join(name[: rules.NAME_MAX_LENGTH] for name in names)})"


def games_of(document: Any) -> list[Any]:
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
