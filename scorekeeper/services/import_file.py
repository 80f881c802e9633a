"""Reading an export file: its games, each read through the export's models and replayed
round by round through the rules, before anything is written. Each refusal says, in the
app's words, what in the file is wrong."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from ..errors import ImportRefused
from ..models import RoundChange
from ..rules.cards import Trump, Turned, trump_from
from ..rules.game import RoundRecord, evaluate
from ..rules.messages import RuleError
from ..rules.messages import gettext_noop as _
from ..rules.referee import verify_bids_turn, verify_tricks_turn, verify_trump_turn
from ..rules.table import MAX_PLAYERS, NAME_MAX_LENGTH, Table, clean_names
from ..rules.variants import GameRules, parse_bid_reveal, parse_bid_rule
from ..schemas.document import (
    KINDS,
    AuditFile,
    FactsFile,
    GameExport,
    GameFile,
    RoundFile,
    TrumpFile,
)
from ..schemas.faults import first_fault
from . import loading

MAX_IMPORT_GAMES = 2000
#: An export of many games is larger than a round's body.
IMPORT_MAX_BYTES = 16 * 1024 * 1024


class Refusal(Exception):
    """A reason inside one game, before the game's label is known."""

    def __init__(self, reason: RuleError, round_number: int | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.round = round_number


def _bad(message: str, round_number: int | None = None, **params: Any) -> Refusal:
    return Refusal(RuleError(message, **params), round_number)


def _time(value: str | None) -> datetime | None:
    """A time of the file in UTC, or ``None`` without one (or one that is no time in UTC)."""
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        return None


@dataclass
class ParsedGame:
    table: Table
    records: dict[int, RoundRecord]
    created_at: datetime
    updated_at: datetime
    audit: list[RoundChange]
    #: Whether the file gives the game's start (without it, the game has no identity to
    #: find it by among the kept ones).
    dated: bool = True


def _read(item: Any) -> GameExport:
    """One game of the file through the export's models; their first fault in the app's words."""
    if not isinstance(item, dict) or not isinstance(item.get("game"), dict):
        raise _bad(_("%(what)s is not a JSON object."), what="game")
    try:  # as JSON, where the audit's cards are read from their names
        return GameExport.model_validate_json(json.dumps(item))
    except ValidationError as error:
        fault = first_fault(GameExport, error)
        loc = fault.loc
        if loc[:1] == ("audit",) and len(loc) > 2:
            if loc[2] in ("round", "kind"):
                message = _("audit[%(index)d] names no round of this game or no kind of change.")
            else:
                message = _("audit[%(index)d] holds facts that are not a round's.")
            raise _bad(message, index=loc[1]) from None
        number = int(loc[2]) + 1 if loc[:2] == ("game", "rounds") and len(loc) > 2 else None
        raise Refusal(RuleError("%(fault)s", fault=fault.detail), number) from None


def _table(game: GameFile) -> Table:
    for seat, player in enumerate(game.players):
        if player.seat != seat:
            raise _bad(
                _("players[%(seat)d] must be the player in seat %(seat)d, with a name."),
                seat=seat,
            )
    options = game.rules
    return Table(
        players=clean_names([player.name for player in game.players]),
        first_dealer=game.first_dealer,
        rules=GameRules(
            rounds=options.rounds,
            bid_rule=parse_bid_rule(options.bid_rule),
            last_bidder_may_bid_zero=options.last_bidder_may_bid_zero,
            bid_reveal=parse_bid_reveal(options.bid_reveal),
            clairvoyance=options.clairvoyance,
        ),
    )


def _trump(value: TrumpFile | None, table: Table, number: int) -> Trump | None:
    if value is None:
        return None
    turned, suit = value.turned, value.suit
    if turned == Turned.NONE.value:
        if not table.deals_every_card(number) or suit is not None:
            raise _bad(_("only the round that deals every card has no card turned."), number)
        return None  # the rules record it themselves
    trump = trump_from(turned, suit if turned == Turned.WIZARD.value else None)
    if (trump.suit.value if trump.suit else None) != suit:
        raise _bad(_("the trump suit does not match the card turned."), number)
    return trump


def _replay(table: Table, rounds: list[RoundFile]) -> dict[int, RoundRecord]:
    """The rounds of the file, each checked by the rules as if it were recorded now."""
    if len(rounds) != table.rules.rounds:
        raise _bad(
            _("rounds must list every round of the game, 1 to %(rounds)d."),
            rounds=table.rules.rounds,
        )
    records: dict[int, RoundRecord] = {}
    for number, data in enumerate(rounds, start=1):
        if data.number != number:
            raise _bad(_("the rounds are not numbered 1, 2, 3, … in order."), number)
        try:
            trump, tricks = _trump(data.trump, table, number), data.tricks
            bids = tuple(data.bids) if data.bids is not None else None
            if bids is not None and all(bid is None for bid in bids):
                bids = None  # nobody has bid yet (or the bids were hidden at export)
            if trump is not None:
                verify_trump_turn(evaluate(table, records), number)
                records[number] = RoundRecord(trump=trump)
            elif (bids is not None or tricks is not None) and not table.deals_every_card(number):
                raise _bad(_("bids or tricks are given without a trump."), number)
            if bids is not None:
                verify_bids_turn(evaluate(table, records), number, bids)
                records[number] = RoundRecord(trump=trump, bids=bids)
            if tricks is not None:
                verify_tricks_turn(evaluate(table, records), number, tuple(tricks))
                records[number] = RoundRecord(trump, bids, tuple(tricks))
        except RuleError as error:
            raise Refusal(error, number) from None
        derived = evaluate(table, records).round(number).scores
        if data.scores is not None and data.scores != derived:
            raise _bad(_("the scores in the file do not follow from its bids and tricks."), number)
    return records


def _audit_rows(
    entries: list[AuditFile],
    table: Table,
    records: Mapping[int, RoundRecord],
    now: datetime,
) -> list[RoundChange]:
    rows = []
    for index, entry in enumerate(entries):
        if not 1 <= entry.round <= table.rules.rounds or entry.kind not in KINDS:
            raise _bad(
                _("audit[%(index)d] names no round of this game or no kind of change."),
                index=index,
            )
        try:
            sides = [_change_facts(facts, table, entry.round) for facts in (entry.old, entry.new)]
        except (RuleError, Refusal, ValueError):
            raise _bad(
                _("audit[%(index)d] holds facts that are not a round's."), index=index
            ) from None
        rows.append(
            RoundChange(
                round_number=entry.round,
                kind=entry.kind,
                changed_at=_time(entry.at) or now,
                old=sides[0],
                new=sides[1],
            )
        )
    return rows + [
        RoundChange(
            round_number=number,
            kind="import",
            changed_at=now,
            old=None,
            new=loading.facts_json(record),
        )
        for number, record in sorted(records.items())
    ]


def _change_facts(facts: FactsFile | None, table: Table, number: int) -> dict[str, object] | None:
    if facts is None:
        return None
    trump = facts.trump
    none_left = trump is not None and trump.turned == Turned.NONE.value
    card = Trump.NO_CARD_LEFT if none_left else _trump(trump, table, number)
    for values in (facts.bids, facts.tricks):
        if values is not None and len(values) != table.seats:
            raise ValueError(values)
    bids = tuple(facts.bids) if facts.bids is not None else None
    tricks = tuple(count or 0 for count in facts.tricks) if facts.tricks is not None else None
    return loading.facts_json(RoundRecord(card, bids, tricks))


def parse_game(item: Any, now: datetime) -> ParsedGame:
    game = (entry := _read(item)).game
    try:
        table = _table(game)
    except RuleError as error:
        raise Refusal(error) from None
    records = _replay(table, game.rounds)
    started = _time(game.created_at)
    if game.totals is not None and game.totals != evaluate(table, records).totals:
        raise _bad(_("the totals in the file do not follow from its rounds."))
    return ParsedGame(
        table=table,
        records=records,
        created_at=started or now,
        dated=started is not None,
        updated_at=_time(game.updated_at) or now,
        audit=_audit_rows(entry.audit or [], table, records, now),
    )


def game_label(index: int, item: Any) -> str:
    """The game's place in the file and its players, to name it in a refusal."""
    try:
        names = [str(player["name"]) for player in item["game"]["players"]][:MAX_PLAYERS]
    except (KeyError, TypeError, IndexError):
        return str(index)
    return f"{index} ({', '.join(name[:NAME_MAX_LENGTH] for name in names)})"


def games_of(document: Any) -> list[Any]:
    if not isinstance(document, dict):
        raise ImportRefused(reason=RuleError(_("it is not a JSON object.")))
    if document.get("schema_version") != 1:
        refusal = _("it is not a file this version of the Tablet of Truth exported.")
        raise ImportRefused(reason=RuleError(refusal))
    if "games" in document:
        games = document["games"]
        if not isinstance(games, list):
            raise ImportRefused(reason=RuleError(_("games must be a list.")))
    elif "game" in document:
        games = [{"game": document["game"], "audit": document.get("audit")}]
    else:
        raise ImportRefused(reason=RuleError(_("it holds no game.")))
    if not games:
        raise ImportRefused(reason=RuleError(_("it holds no game.")))
    if len(games) > MAX_IMPORT_GAMES:
        raise ImportRefused(
            reason=RuleError(
                _("it holds more than %(max)d games: import them in parts."),
                max=MAX_IMPORT_GAMES,
            )
        )
    return games
