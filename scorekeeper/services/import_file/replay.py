"""One game of an export file replayed round by round through the rules, and the refusal
that names the round a file gets wrong."""

from __future__ import annotations

from typing import Any

from ...rules.bids import can_bid, verify_one_bid_per_seat
from ...rules.cards import NO_TRUMP, TrumpCard, Turned, trump_from
from ...rules.game import GameView, RoundRecord, RoundState, evaluate
from ...rules.messages import BidError, RuleError
from ...rules.messages import gettext_noop as _
from ...rules.referee import verify_bids_turn, verify_tricks_turn, verify_trump_turn
from ...rules.scoring import add_scores, score
from ...rules.specials import (
    CloudBid,
    verify_bomb,
    verify_cloud,
    verify_cloud_took_a_trick,
    verify_one_bomb,
)
from ...rules.table import Table
from ...rules.tally import Winner, tallied_tricks, verify_tally
from ...rules.tricks import verify_one_count_per_seat
from ...schemas.document import (
    AuditFile,
    RoundFile,
    TrumpFile,
)


class Refusal(Exception):
    """A reason inside one game, before the game's label is known."""

    def __init__(self, reason: RuleError, round_number: int | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.round = round_number


def bad(message: str, round_number: int | None = None, **params: Any) -> Refusal:
    return Refusal(RuleError(message, **params), round_number)


def trump_of(value: TrumpFile | None, table: Table, number: int) -> TrumpCard | None:
    if value is None:
        return None
    turned, suit = value.turned, value.suit
    if turned == Turned.NONE.value:
        if not table.deals_every_card(number) or suit is not None:
            raise bad(_("only the round that deals every card has no card turned."), number)
        return None  # the rules record it themselves
    chosen = None
    if turned == Turned.WIZARD.value:
        chosen = suit
    elif turned == Turned.WEREWOLF.value:
        chosen = suit or NO_TRUMP
    trump = trump_from(turned, chosen, table.rules.special_cards)
    if (trump.suit.value if trump.suit else None) != suit:
        raise bad(_("the trump suit does not match the card turned."), number)
    return trump


def replay(
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
        raise bad(
            _("rounds must list every round of the game, 1 to %(rounds)d."),
            rounds=table.rules.rounds,
        )
    records: dict[int, RoundRecord] = {}
    given: dict[int, tuple[TrumpCard | None, tuple[int | None, ...] | None, RoundFile]] = {}
    for number, data in enumerate(rounds, start=1):
        if data.number != number:
            raise bad(_("the rounds are not numbered 1, 2, 3, … in order."), number)
        try:
            trump = trump_of(data.trump, table, number)
        except RuleError as error:
            raise Refusal(error, number) from None
        bids = tuple(data.bids) if data.bids is not None else None
        if bids is not None and all(bid is None for bid in bids):
            bids = None  # nobody has bid yet (or the bids were hidden at export)
        tricks = tuple(data.tricks) if data.tricks is not None else None
        tally = tuple(data.tally or ())
        given[number] = (trump, bids, data)
        cloud = CloudBid(data.cloud.seat, data.cloud.bid) if data.cloud is not None else None
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
                raise bad(_("bids or tricks are given without a trump."), number)
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
            raise bad(_("the scores in the file do not follow from its bids and tricks."), number)
    return records, game


def _verify_facts(
    table: Table, number: int, data: RoundFile, trump: TrumpCard | None, cloud: CloudBid | None
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
        raise bad(_("its tally is given before every bid is in."), number)
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
