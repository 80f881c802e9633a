"""The referee: which facts may be recorded now, given the game as the facts so far make it,
and what a change of one bid does to the dealer's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bids import forbidden_bid, verify_bids, verify_one_bid_per_seat
from .cards import TrumpCard
from .game import GameView, RoundState, RoundView, bids_visible
from .messages import BidError, OutOfTurnError
from .messages import gettext_noop as _
from .messages import ngettext_noop as _n
from .specials import CloudBid, verify_bomb, verify_cloud, verify_one_bomb
from .tricks import verify_tricks


def verify_trump_turn(game: GameView, round_number: int) -> None:
    """Raise unless round ``round_number``'s trump may be recorded now."""
    view = game.round(round_number)
    _verify_not_waiting(game, view)
    if game.table.deals_every_card(round_number):
        raise OutOfTurnError(
            _(
                "Round %(round)d deals every card, so no card is turned and there is no "
                "trump to record."
            ),
            round=round_number,
        )


def verify_bids_turn(game: GameView, round_number: int, bids: Sequence[int | None]) -> None:
    """Raise unless these bids may be recorded now (after the trump; complete once scored)."""
    view = game.round(round_number)
    _verify_not_waiting(game, view)
    if view.state is RoundState.TRUMP:
        raise OutOfTurnError(
            _("Record the trump of round %(round)d before the bids."), round=round_number
        )
    verify_one_bid_per_seat(game.table, bids)
    if view.state is RoundState.SCORED and any(bid is None for bid in bids):
        seat = next(seat for seat, bid in enumerate(bids) if bid is None)
        raise BidError(
            _("Round %(round)d is scored, so every bid stays: give %(name)s's bid too."),
            field=f"bids[{seat}]",
            round=round_number,
            name=game.table.players[seat],
        )
    verify_bids(game.table, round_number, bids, view.totals_before, hidden=not view.bids_visible)


def verify_tricks_turn(
    game: GameView, round_number: int, tricks: Sequence[int], *, bomb: bool | None = None
) -> None:
    """Raise unless these tricks may be recorded now (once every bid is in); ``bomb``:
    whether the Bomb was played (``None``: as recorded)."""
    view = game.round(round_number)
    _verify_bids_in(game, view)
    verify_tricks(game.table, round_number, tricks, bomb=view.bomb if bomb is None else bomb)


def verify_specials_turn(
    game: GameView,
    round_number: int,
    *,
    bomb: bool,
    cloud: CloudBid | None,
    bids: Sequence[int | None] | None = None,
    trump: TrumpCard | None = None,
    tricks: Sequence[int | None] | None = None,
) -> None:
    """Raise unless the Bomb's and the Cloud's facts may be recorded now: once every bid is
    in, with the cards in the deck, a Bomb played not the one turned up, the Cloud's winner
    with a trick (``tricks``), its change one from the bid (``bids`` and ``trump``: as they
    will be; ``None``: as recorded)."""
    view = game.round(round_number)
    _verify_bids_in(game, view)
    verify_bomb(game.table, bomb)
    verify_one_bomb(trump or view.trump, bomb)
    hidden = not view.bids_visible
    bids = view.bids if bids is None else bids
    verify_cloud(game.table, round_number, bids, cloud, hidden=hidden, tricks=tricks)


def verify_being_played(game: GameView, round_number: int) -> None:
    """Raise unless round ``round_number`` is being played (its bids in, not scored yet), as a
    count tapped in, a trick tallied, the Bomb and the Cloud need: a scored round is
    corrected as a whole."""
    _verify_bids_in(game, game.round(round_number))
    verify_not_scored(game, round_number)


def verify_not_scored(game: GameView, round_number: int) -> None:
    """Raise once round ``round_number`` is scored: from then on it is corrected as a whole."""
    if game.round(round_number).state is RoundState.SCORED:
        raise OutOfTurnError(
            _("Round %(round)d is scored already: correct it from the sheet."),
            round=round_number,
        )


def _verify_bids_in(game: GameView, view: RoundView) -> None:
    _verify_not_waiting(game, view)
    if view.state in (RoundState.TRUMP, RoundState.BIDDING):
        raise OutOfTurnError(
            _("Record every bid of round %(round)d before the tricks."), round=view.number
        )


def _verify_not_waiting(game: GameView, view: RoundView) -> None:
    if view.state is RoundState.WAITING:
        raise OutOfTurnError(
            _(
                "Round %(round)d waits until round %(current)d is scored: finish round "
                "%(current)d first."
            ),
            round=view.number,
            current=game.current_round,
        )


@dataclass(frozen=True)
class BidChange:
    """The bids once one player's bid is changed, and why the dealer's bid was taken back
    when the change left it forbidden (``None``: it was not)."""

    bids: tuple[int | None, ...]
    #: The dealer's bid refused beside the new one, told at the seat that changed.
    dealer_bids_again: BidError | None = None


def change_bid(game: GameView, round_number: int, seat: int, bid: int | None) -> BidChange:
    """The bids of a round not yet scored once ``seat`` bids ``bid`` (``None``: takes it back),
    or the refusal.

    The restriction falls on the dealer: when another player's new bid leaves the dealer's
    bid forbidden (the bids would add up to the cards), the new bid stands and the dealer's
    bid is taken back, for the dealer to bid again, as the table does when bids are revealed
    together. Refusing the new bid instead would leave the keeper no way to record it
    before the dealer's (which the bids as they stand may forbid in turn).
    """
    view = game.round(round_number)
    table = game.table
    bids = list(view.bids or (None,) * table.seats)
    bids[seat] = bid
    dealer_seat = view.dealer
    dealer_bid = bids[dealer_seat]
    again = None
    if (
        seat != dealer_seat
        and bid is not None
        and dealer_bid is not None
        and dealer_bid == forbidden_bid(table, round_number, bids, view.totals_before)
    ):
        # With the dealer's bid taken back the round is bidding again (covered bids hide).
        hidden = not bids_visible(table.rules.bid_reveal, RoundState.BIDDING)
        message = (
            _n(
                "%(name)s's bid is saved, but with it the bids would add up to the %(num)d "
                "trick of this round, which the bid rule forbids: %(dealer)s, who deals, "
                "must bid again.",
                "%(name)s's bid is saved, but with it the bids would add up to the %(num)d "
                "tricks of this round, which the bid rule forbids: %(dealer)s, who deals, "
                "must bid again.",
            )
            if hidden
            else _n(
                "%(name)s now bids %(bid)d, so %(dealer)s, who deals, may not keep %(old)d "
                "(the bids would add up to the %(num)d trick of this round) and must bid again.",
                "%(name)s now bids %(bid)d, so %(dealer)s, who deals, may not keep %(old)d "
                "(the bids would add up to the %(num)d tricks of this round) and must bid again.",
            )
        )
        again = BidError(
            message,
            num=table.cards(round_number),
            field=f"bids[{seat}]",
            note=table.rules.policy.refusal_note,
            name=table.players[seat],
            dealer=table.players[dealer_seat],
            **({} if hidden else {"bid": bid, "old": dealer_bid}),
        )
        bids[dealer_seat] = None
    verify_bids_turn(game, round_number, bids)
    return BidChange(tuple(bids), again)
