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

from ..rules.bids import can_bid, verify_one_bid_per_seat
from ..rules.cards import DECK_SIZE, NO_TRUMP, Trump, Turned, trump_from
from ..rules.game import GameView, RoundRecord, RoundState, evaluate
from ..rules.messages import BidError, Count, RuleError
from ..rules.messages import gettext_noop as _
from ..rules.referee import verify_bids_turn, verify_tricks_turn, verify_trump_turn
from ..rules.scoring import add_scores, score
from ..rules.specials import (
    Cloud,
    verify_bomb,
    verify_cloud,
    verify_cloud_took_a_trick,
    verify_one_bomb,
)
from ..rules.table import MAX_PLAYERS, MIN_PLAYERS, NAME_MAX_LENGTH, Table, clean_names
from ..rules.tally import Winner, tallied_tricks, verify_tally
from ..rules.tricks import verify_one_count_per_seat
from ..rules.variants import (
    GameRules,
    parse_bid_reveal,
    parse_bid_rule,
    parse_round_plan,
    parse_specials,
)
from ..schemas.document import (
    KINDS,
    AuditFile,
    FactsFile,
    GameExport,
    GameFile,
    RoundFile,
    TappedInFile,
    TrumpFile,
)
from ..schemas.faults import first_fault
from . import loading

#: Audit entries one game of a file may hold: at most 20 rounds (60 cards, 3 players), each
#: written 8 times (trump, 3 bids, 3 trick counts, the scoring), and 17 corrections of every
#: round (more players play fewer rounds). An export carries the latest as many.
MAX_AUDIT_ENTRIES = DECK_SIZE // MIN_PLAYERS * 25


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
        raise _bad(_("%(what)s is not a JSON object."), what="game")
    audit = item.get("audit")
    if isinstance(audit, list) and len(audit) > MAX_AUDIT_ENTRIES:
        raise _bad(
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
            special_cards=parse_specials(options.special_cards),
            round_plan=parse_round_plan(options.round_plan),
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
    chosen = None
    if turned == Turned.WIZARD.value:
        chosen = suit
    elif turned == Turned.WEREWOLF.value:
        chosen = suit or NO_TRUMP
    trump = trump_from(turned, chosen, table.rules.special_cards)
    if (trump.suit.value if trump.suit else None) != suit:
        raise _bad(_("the trump suit does not match the card turned."), number)
    return trump


def _replay(
    table: Table, rounds: list[RoundFile], audit: list[AuditFile]
) -> tuple[dict[int, RoundRecord], GameView]:
    """The rounds of the file, each checked by the rules as if it were recorded now, in
    order; the game they make.

    The checks ask the game the whole file makes, evaluated once: a round's turn (the round
    before it scored, the trump before the bids, every bid before the tricks), its bid
    limits and its scores depend only on it and the rounds before it, which are the same
    there as when it was recorded. Evaluating the game anew before each write, as a table
    does, would cost a game of 20 rounds 80 evaluations. Bids the standings forbid now
    (the Canadian rule) are taken when the standings ``audit`` gives for the moment they
    were written allowed them: a later correction of an earlier round leaves them as they
    were recorded."""
    if len(rounds) != table.rules.rounds:
        raise _bad(
            _("rounds must list every round of the game, 1 to %(rounds)d."),
            rounds=table.rules.rounds,
        )
    records: dict[int, RoundRecord] = {}
    given: dict[int, tuple[Trump | None, tuple[int | None, ...] | None, RoundFile]] = {}
    for number, data in enumerate(rounds, start=1):
        if data.number != number:
            raise _bad(_("the rounds are not numbered 1, 2, 3, … in order."), number)
        try:
            trump = _trump(data.trump, table, number)
        except RuleError as error:
            raise Refusal(error, number) from None
        bids = tuple(data.bids) if data.bids is not None else None
        if bids is not None and all(bid is None for bid in bids):
            bids = None  # nobody has bid yet (or the bids were hidden at export)
        tricks = tuple(data.tricks) if data.tricks is not None else None
        tally = tuple(data.tally or ())
        given[number] = (trump, bids, data)
        cloud = Cloud(data.cloud.seat, data.cloud.bid) if data.cloud is not None else None
        try:
            _verify_facts(table, number, data, trump, cloud)
        except RuleError as error:
            raise Refusal(error, number) from None
        if trump is not None or bids is not None or tricks is not None or tally:
            records[number] = RoundRecord(
                trump, bids, tricks, tally=tally, bomb=data.bomb, cloud=cloud
            )
    game = evaluate(table, records)
    for number, (trump, bids, data) in given.items():
        try:
            if trump is not None:
                verify_trump_turn(game, number)
            elif (bids is not None or data.tricks is not None) and not table.deals_every_card(
                number
            ):
                raise _bad(_("bids or tricks are given without a trump."), number)
            if bids is not None:
                try:
                    verify_bids_turn(game, number, bids)
                except BidError:
                    then = _totals_when_bid(table, audit, number, bids)
                    if then is None or not can_bid(table, number, bids, then):
                        raise
            if data.tricks is not None:
                verify_tricks_turn(game, number, tuple(data.tricks))
        except RuleError as error:
            raise Refusal(error, number) from None
        _verify_tally(game, number, tuple(data.tally or ()), bids_given=bids is not None)
        if data.scores is not None and data.scores != game.round(number).scores:
            raise _bad(_("the scores in the file do not follow from its bids and tricks."), number)
    return records, game


def _verify_facts(
    table: Table, number: int, data: RoundFile, trump: Trump | None, cloud: Cloud | None
) -> None:
    """What a round's facts must be before the game is evaluated: one value a seat, the
    deck's one Bomb either turned up or played, the Cloud's seat the table's and its change
    one from a bid, given to a seat that took a trick."""
    if data.bids is not None:
        verify_one_bid_per_seat(table, data.bids)
    if data.tricks is not None:
        verify_one_count_per_seat(table, data.tricks)
    verify_bomb(table, data.bomb)
    verify_one_bomb(trump, data.bomb)
    bids = data.bids if data.bids is None or any(bid is not None for bid in data.bids) else None
    verify_cloud(table, number, bids, cloud)
    tricks = data.tricks or tallied_tricks(table, number, tuple(data.tally or ()))
    verify_cloud_took_a_trick(table, cloud, tricks)


def _verify_tally(
    game: GameView, number: int, tally: tuple[Winner, ...], *, bids_given: bool
) -> None:
    """Raise unless round ``number`` can hold ``tally``: once every bid is in (or hidden: a
    file gives secret bids as null), each trick as a tally written live is checked."""
    if not tally:
        return
    state = game.round(number).state
    if state in (RoundState.WAITING, RoundState.TRUMP) or (
        state is RoundState.BIDDING and bids_given
    ):
        raise _bad(_("its tally is given before every bid is in."), number)
    try:
        verify_tally(game.table, number, tally, game.round(number).trump)
    except RuleError as error:
        raise Refusal(error, number) from None


def _totals_when_bid(
    table: Table, audit: list[AuditFile], number: int, bids: tuple[int | None, ...]
) -> list[int] | None:
    """The totals before round ``number`` when its bids were last changed to ``bids``, from
    the audit trail (its entries in the order written); ``None`` when it does not tell."""
    writes = [entry for entry in audit if entry.kind != "import" and entry.new is not None]
    last = None
    for index, entry in enumerate(writes):
        new = entry.new.bids if entry.new is not None else None
        old = entry.old.bids if entry.old is not None else None
        if entry.round == number and new is not None and tuple(new) == bids and old != new:
            last = index
    if last is None:
        return None
    facts = {entry.round: entry.new for entry in writes[:last] if entry.round < number}
    totals = [0] * table.seats
    for earlier in range(1, number):
        then = facts.get(earlier)
        if then is None or then.bids is None or then.tricks is None:
            return None
        if None in then.bids or None in then.tricks or len(then.bids) != table.seats:
            return None
        points = [
            score(bid or 0, won or 0) for bid, won in zip(then.bids, then.tricks, strict=True)
        ]
        totals = add_scores(totals, points)
    return totals


def _audit_rows(
    entries: list[AuditFile],
    table: Table,
    records: Mapping[int, RoundRecord],
    now: datetime,
) -> list[AuditRow]:
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
            {
                "round_number": entry.round,
                "kind": entry.kind,
                "changed_at": _time(entry.at) or now,
                "old": sides[0],
                "new": sides[1],
            }
        )
    return rows + [
        {
            "round_number": number,
            "kind": "import",
            "changed_at": now,
            "old": None,
            "new": loading.facts_json(record),
        }
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
    if facts.drafts is not None and not _fit(facts.drafts, table, number):
        raise ValueError(facts.drafts)
    bids = tuple(facts.bids) if facts.bids is not None else None
    tricks = tuple(count or 0 for count in facts.tricks) if facts.tricks is not None else None
    cloud = Cloud(facts.cloud.seat, facts.cloud.bid) if facts.cloud is not None else None
    if cloud is not None and not (0 <= cloud.seat < table.seats and cloud.bid >= 0):
        raise ValueError(cloud)
    tally, seats = tuple(facts.tally or ()), range(table.seats)
    if len(tally) > table.cards(number) or any(w is not None and w not in seats for w in tally):
        raise ValueError(tally)
    record = RoundRecord(card, bids, tricks, tally=tally, bomb=facts.bomb, cloud=cloud)
    drafts = facts.drafts
    return loading.facts_json(record) | ({} if drafts is None else {"drafts": drafts})


def parse_game(item: Any, now: datetime) -> ParsedGame:
    game = (entry := _read(item)).game
    try:
        table = _table(game)
    except RuleError as error:
        raise Refusal(error) from None
    records, view = _replay(table, game.rounds, entry.audit or [])
    started = _time(game.created_at)
    if game.totals is not None and game.totals != view.totals:
        raise _bad(_("the totals in the file do not follow from its rounds."))
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
            raise _bad(refusal, kept.round)
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
