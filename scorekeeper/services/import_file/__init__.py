"""Reading an export file: how many games it holds, and each game read through the export's
models and replayed round by round through the rules. Each refusal says, in the app's words,
what in the file is wrong."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from ...rules.cards import TrumpCard, Turned
from ...rules.game import RoundRecord
from ...rules.messages import Count, RuleError
from ...rules.messages import gettext_noop as _
from ...rules.specials import (
    CloudBid,
)
from ...rules.table import MAX_PLAYERS, NAME_MAX_LENGTH, Table, clean_names
from ...rules.variants import (
    GameRules,
    parse_bid_reveal,
    parse_bid_rule,
    parse_round_plan,
    parse_specials,
)
from ...schemas.document import (
    KINDS,
    MAX_AUDIT_ENTRIES,
    AuditFile,
    Facts,
    FactsFile,
    GameExport,
    GameFile,
    TappedInFile,
)
from ...schemas.faults import first_fault
from .replay import Refusal, bad, replay, trump_of


def _time(value: str | None) -> datetime | None:
    """A time of the file in UTC, or ``None`` without one (or one that is no time in UTC)."""
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        return None


#: An audit trail's entry as the ``round_changes`` table takes it (the import adds the id).
AuditRow = dict[str, Any]


@dataclass
class ParsedGame:
    table: Table
    records: dict[int, RoundRecord]
    created_at: datetime
    updated_at: datetime
    audit: list[AuditRow]
    #: Whether the file gives the game's start (without it, the game has no identity to
    #: find it by among the kept ones).
    dated: bool = True


def _read(item: Any) -> GameExport:
    """One game of the file through the export's models; their first fault in the app's words."""
    if not isinstance(item, dict) or not isinstance(item.get("game"), dict):
        raise bad(_("%(what)s is not a JSON object."), what="game")
    audit = item.get("audit")
    if isinstance(audit, list) and len(audit) > MAX_AUDIT_ENTRIES:
        raise bad(
            _("its audit trail holds more than %(max)s entries, more than a game writes."),
            max=Count(MAX_AUDIT_ENTRIES),
        )
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
            raise bad(message, index=loc[1]) from None
        number = int(loc[2]) + 1 if loc[:2] == ("game", "rounds") and len(loc) > 2 else None
        raise Refusal(RuleError("%(fault)s", fault=fault.detail), number) from None


def _table(game: GameFile) -> Table:
    for seat, player in enumerate(game.players):
        if player.seat != seat:
            raise bad(
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
            special_cards=parse_specials(options.special_cards),
            round_plan=parse_round_plan(options.round_plan),
        ),
    )


def _audit_rows(
    entries: list[AuditFile],
    table: Table,
    records: Mapping[int, RoundRecord],
    now: datetime,
) -> list[AuditRow]:
    rows = []
    for index, entry in enumerate(entries):
        if not 1 <= entry.round <= table.rules.rounds or entry.kind not in KINDS:
            raise bad(
                _("audit[%(index)d] names no round of this game or no kind of change."),
                index=index,
            )
        try:
            sides = [
                Facts.stored(_change_facts(facts, table, entry.round))
                for facts in (entry.old, entry.new)
            ]
        except (RuleError, Refusal, ValueError):
            raise bad(
                _("audit[%(index)d] holds facts that are not a round's."), index=index
            ) from None
        rows.append(
            {
                "round_number": entry.round,
                "kind": entry.kind,
                "changed_at": _time(entry.at) or now,
                "old": sides[0],
                "new": sides[1],
                "reached": None,  # the history imported: never on top of the stack
            }
        )
    # The import's rows start the undo stack afresh (nothing under them: undo stops there),
    # reaching the round after the last one scored.
    reached = 1
    for number, record in sorted(records.items()):
        reached = max(reached, number + (record.tricks is not None))
        new = Facts.stored(record)
        rows.append(
            {"round_number": number, "kind": "import", "changed_at": now, "old": None, "new": new}
            | {"reached": reached}
        )
    return rows


def _change_facts(facts: FactsFile | None, table: Table, number: int) -> RoundRecord | None:
    """The facts of an entry of the file's audit trail, as a record; a ``ValueError`` (or
    the rules' refusal) when they are not this game's."""
    if facts is None:
        return None
    trump = facts.trump
    none_left = trump is not None and trump.turned == Turned.NONE.value
    card = TrumpCard.NO_CARD_LEFT if none_left else trump_of(trump, table, number)
    for values in (facts.bids, facts.tricks):
        if values is not None and len(values) != table.seats:
            raise ValueError(values)
    if facts.drafts is not None and not _fit(facts.drafts, table, number):
        raise ValueError(facts.drafts)
    bids = tuple(facts.bids) if facts.bids is not None else None
    tricks = tuple(count or 0 for count in facts.tricks) if facts.tricks is not None else None
    cloud = CloudBid(facts.cloud.seat, facts.cloud.bid) if facts.cloud is not None else None
    if cloud is not None and not (0 <= cloud.seat < table.seats and cloud.bid >= 0):
        raise ValueError(cloud)
    tally, seats = tuple(facts.tally or ()), range(table.seats)
    if len(tally) > table.cards(number) or any(w is not None and w not in seats for w in tally):
        raise ValueError(tally)
    drafts = None if facts.drafts is None else tuple(facts.drafts)
    return RoundRecord(card, bids, tricks, facts.bomb, cloud, tally=tally, drafts=drafts)


def parse_game(item: Any, now: datetime) -> ParsedGame:
    game = (entry := _read(item)).game
    try:
        table = _table(game)
    except RuleError as error:
        raise Refusal(error) from None
    records, view = replay(table, game.rounds, entry.audit or [])
    started = _time(game.created_at)
    if game.totals is not None and game.totals != view.totals:
        raise bad(_("the totals in the file do not follow from its rounds."))
    return ParsedGame(
        table=table,
        records=_tapped_in(entry.drafts or [], table, records),
        created_at=started or now,
        dated=started is not None,
        updated_at=_time(game.updated_at) or now,
        audit=_audit_rows(entry.audit or [], table, records, now),
    )


def _tapped_in(
    drafts: list[TappedInFile], table: Table, records: Mapping[int, RoundRecord]
) -> dict[int, RoundRecord]:
    """The records with the trick counts tapped in: as the tricks step takes them, only in a
    round whose bids are all in and whose tricks are not, each within the cards dealt."""
    tapped = dict(records)
    for kept in drafts:
        record, counts = records.get(kept.round), tuple(kept.tricks)
        if (
            record is None
            or record.tricks is not None
            or record.bids is None
            or None in record.bids
            or not _fit(counts, table, kept.round)
        ):
            refusal = _(
                "its tricks tapped in need every bid in, no tricks yet, counts to its cards."
            )
            raise bad(refusal, kept.round)
        tapped[kept.round] = replace(record, drafts=counts)
    return tapped


def _fit(counts: Sequence[int | None], table: Table, number: int) -> bool:
    """Whether trick counts tapped in give one a seat (or none yet), each to the cards dealt."""
    return len(counts) == table.seats and all(
        count is None or table.holds(number, count) for count in counts
    )


def game_label(index: int, item: Any) -> str:
    """The game's place in the file and its players, to name it in a refusal."""
    try:
        names = [str(player["name"]) for player in item["game"]["players"]][:MAX_PLAYERS]
    except (KeyError, TypeError, IndexError):
        return str(index)
    return f"{index} ({', '.join(name[:NAME_MAX_LENGTH] for name in names)})"
