"""Bids: the range of a bid, and the bid rule's one forbidden bid for the dealer, who bids
last; ``verify_bids`` raises a readable refusal, ``can_bid`` asks it."""

from __future__ import annotations

from collections.abc import Sequence

from .messages import BidError, Count
from .messages import gettext_noop as _
from .messages import ngettext_noop as _n
from .scoring import leaders
from .table import Table


def all_bids_in(bids: Sequence[int | None] | None) -> bool:
    """Whether every player has bid (``None``: no bid recorded yet)."""
    return bids is not None and all(bid is not None for bid in bids)


def forbidden_bid(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
) -> int | None:
    """The one bid the dealer may not make, once every other bid is in; else ``None``.
    ``totals_before``, the totals before this round, say whether the dealer leads outright."""
    dealer_seat = table.dealer(round_number)
    others = [bid for seat, bid in enumerate(bids) if seat != dealer_seat]
    if any(bid is None for bid in others):
        return None
    rules = table.rules
    leads = leaders(totals_before) == [dealer_seat]
    if not rules.policy.restricts(dealer_leads_outright=leads):
        return None
    cards = table.cards(round_number)
    value = cards - sum(bid for bid in others if bid is not None)
    if value < 0:
        return None
    if value == 0 and rules.policy.zero_always_allowed(
        last_bidder_may_bid_zero=rules.last_bidder_may_bid_zero
    ):
        return None
    return value


def verify_one_bid_per_seat(table: Table, bids: Sequence[int | None]) -> None:
    """Raise unless ``bids`` has one place for each seat."""
    if len(bids) != table.seats:
        raise BidError(
            _("Give one bid for each of the %(players)d players, in seat order, not %(given)d."),
            field="bids",
            players=table.seats,
            given=len(bids),
        )


def verify_bid_range(table: Table, round_number: int, bids: Sequence[int | None]) -> None:
    """Raise unless ``bids`` has one place for each seat and every bid given is 0 to the
    cards in hand: what no other bid and no standings can make right."""
    verify_one_bid_per_seat(table, bids)
    for seat, bid in enumerate(bids):
        if bid is not None and not table.holds(round_number, bid):
            raise BidError(
                _("In round %(round)d %(name)s can bid 0 to %(cards)d, not %(bid)s."),
                field=f"bids[{seat}]",
                round=round_number,
                name=table.players[seat],
                cards=table.cards(round_number),
                bid=Count(bid),
            )


def verify_bids(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
    *,
    hidden: bool = False,
) -> None:
    """Raise unless every bid given is allowed; the bid rule is checked once all are in.

    ``hidden``: the table cannot see the bids now (covered bids before they are all in,
    secret bids before the round is scored), so a refusal must not name the dealer's bid.
    """
    verify_bid_range(table, round_number, bids)
    dealer_seat = table.dealer(round_number)
    dealer_bid = bids[dealer_seat]
    if dealer_bid is None or dealer_bid != forbidden_bid(table, round_number, bids, totals_before):
        return
    # Hidden bids: say what the rule forbids without naming the dealer's bid. Once the bids
    # are shown (covered ones in play, any on the correction of a scored round), the dealer's
    # bid is named: the sentence is then about the bid the table sees.
    message = (
        _n(
            "These bids would add up to the %(num)d trick of this round, which the "
            "bid rule forbids: %(name)s, who deals, must bid something else.",
            "These bids would add up to the %(num)d tricks of this round, which the "
            "bid rule forbids: %(name)s, who deals, must bid something else.",
        )
        if hidden
        else _n(
            "%(name)s deals and may not bid %(bid)d: the bids would add up to the "
            "%(num)d trick of this round.",
            "%(name)s deals and may not bid %(bid)d: the bids would add up to "
            "the %(num)d tricks of this round.",
        )
    )
    raise BidError(
        message,
        num=table.cards(round_number),
        field=f"bids[{dealer_seat}]",
        note=table.rules.policy.refusal_note,
        name=table.players[dealer_seat],
        **({} if hidden else {"bid": dealer_bid}),
    )


def can_bid(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
) -> bool:
    """Whether :func:`verify_bids` accepts these bids."""
    try:
        verify_bids(table, round_number, bids, totals_before)
    except BidError:
        return False
    return True
