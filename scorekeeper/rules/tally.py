"""The trick tally: the winner of each trick of a round, tapped in as it falls, and what it
tells each player while the round is played (bid, tricks won so far, what they still need).

A trick's winner is a seat, or ``None``: nobody won it (the trick with a Bomb)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .cards import TrumpCard
from .messages import TrickError
from .messages import gettext_noop as _
from .messages import ngettext_noop as _n
from .specials import bomb_turned
from .table import Table
from .tricks import fill_tricks
from .variants import Special

#: The winner of one trick: a seat, or ``None`` for nobody (a Bomb's trick).
Winner = int | None


def bomb_tallied(tally: Sequence[Winner]) -> bool:
    """Whether a trick of the tally went to nobody: the Bomb's, so the Bomb was played."""
    return None in tally


def nobody_allowed(table: Table, tally: Sequence[Winner], trump: TrumpCard | None = None) -> bool:
    """Whether the next trick may be won by nobody: only the Bomb's trick is, so the game's
    deck holds the Bomb, it was not turned up for the round's ``trump``, and no trick of the
    round tallied so far went to nobody."""
    return (
        Special.BOMB in table.rules.special_cards
        and not bomb_turned(trump)
        and not bomb_tallied(tally)
    )


def verify_trick_winner(
    table: Table,
    round_number: int,
    tally: Sequence[Winner],
    winner: Winner,
    trump: TrumpCard | None = None,
) -> None:
    """Raise unless ``winner`` may win the next trick of the round tallied so far: a seat of
    the table (or nobody, where :func:`nobody_allowed`), while a trick is left to play."""
    cards = table.cards(round_number)
    if len(tally) >= cards:
        raise TrickError(
            _("All %(cards)d tricks of round %(round)d are tallied already."),
            field="winner",
            cards=cards,
            round=round_number,
        )
    if winner is None:
        if bomb_turned(trump):
            raise TrickError(
                _(
                    "The Bomb was turned up for trump in round %(round)d, so no trick of it "
                    "goes to nobody."
                ),
                field="winner",
                round=round_number,
            )
        if not nobody_allowed(table, tally):
            raise TrickError(
                _(
                    "Every trick of round %(round)d is won by a player: only a Bomb's trick "
                    "goes to nobody."
                ),
                field="winner",
                round=round_number,
            )
        return
    if not 0 <= winner < table.seats:
        raise TrickError(
            _("There is no seat %(seat)d at this table to win a trick."),
            field="winner",
            seat=winner,
        )


def verify_tally(
    table: Table, round_number: int, tally: Sequence[Winner], trump: TrumpCard | None = None
) -> None:
    """Raise unless ``tally``, given whole (as an import gives it), is one the round can
    have: each winner one :func:`verify_trick_winner` takes after the tricks before it."""
    cards = table.cards(round_number)
    for index, winner in enumerate(tally):
        try:
            verify_trick_winner(table, round_number, tally[:index], winner, trump)
        except TrickError:
            if index >= cards:
                raise TrickError(
                    _n(
                        "The tally lists more tricks than round %(round)d's %(num)d card.",
                        "The tally lists more tricks than round %(round)d's %(num)d cards.",
                    ),
                    field="tally",
                    num=cards,
                    round=round_number,
                ) from None
            if winner is not None:
                message = _("The tally gives trick %(trick)d to a seat this table does not have.")
            elif bomb_turned(trump):
                message = _(
                    "The tally gives trick %(trick)d to nobody, but the Bomb was turned up "
                    "for trump, so no trick of the round goes to nobody."
                )
            elif Special.BOMB not in table.rules.special_cards:
                message = _(
                    "The tally gives trick %(trick)d to nobody, but only a Bomb's trick goes "
                    "to nobody, and this game is played without the Bomb."
                )
            else:
                message = _(
                    "The tally gives trick %(trick)d to nobody, but only one trick a round, "
                    "the Bomb's, goes to nobody."
                )
            raise TrickError(message, field=f"tally[{index}]", trick=index + 1) from None


def tricks_won(seats: int, tally: Sequence[Winner]) -> tuple[int, ...]:
    """The tricks each seat has won in the tally so far, in seat order."""
    return tuple(sum(1 for winner in tally if winner == seat) for seat in range(seats))


def tallied_tricks(
    table: Table, round_number: int, tally: Sequence[Winner]
) -> tuple[int, ...] | None:
    """The tricks step's counts once every trick of the round is tallied (``None`` before)."""
    if len(tally) != table.cards(round_number):
        return None
    return tricks_won(table.seats, tally)


def won_so_far(
    total: int, tapped: Sequence[int | None], tally: Sequence[Winner]
) -> tuple[int | None, ...]:
    """Each seat's tricks won so far, in seat order, as the tricks step counts them (of its
    ``total``): the counts ``tapped`` in, which come first, as they are what is scored (the
    one missing filled in from the sum; ``None``: not known yet); with none tapped in, the
    tricks of the tally so far."""
    if any(count is not None for count in tapped):
        return fill_tricks(total, tapped)
    return tricks_won(len(tapped), tally)


def tricks_so_far(total: int, tapped: Sequence[int | None], tally: Sequence[Winner]) -> int:
    """The round's tricks won so far (:func:`won_so_far`), of which the Bomb's, won by
    nobody, is none."""
    return sum(count or 0 for count in won_so_far(total, tapped, tally))


class Need(StrEnum):
    """Where a player stands against their bid while the round is played."""

    NEEDS = "needs"  # fewer tricks than bid, and enough tricks left to make it
    ENOUGH = "enough"  # exactly the bid, with tricks left to play: one more would miss it
    MADE = "made"  # exactly the bid, every trick played
    OVER = "over"  # more tricks than bid
    OUT_OF_REACH = "out_of_reach"  # fewer tricks left to play than still needed


@dataclass(frozen=True)
class Progress:
    """One player's round so far: the bid (``None``: not shown), tricks won, and what is
    still needed."""

    seat: int
    bid: int | None
    won: int
    #: Tricks of the round not played yet.
    left: int

    @property
    def need(self) -> Need | None:
        """Where the player stands (``None`` without a bid to compare with)."""
        if self.bid is None:
            return None
        if self.won > self.bid:
            return Need.OVER
        if self.won == self.bid:
            return Need.MADE if not self.left else Need.ENOUGH
        return Need.NEEDS if self.bid - self.won <= self.left else Need.OUT_OF_REACH

    @property
    def missing(self) -> int:
        """Tricks still needed to make the bid (0 once made or over)."""
        return max((self.bid or 0) - self.won, 0)

    @property
    def over(self) -> int:
        """Tricks won beyond the bid."""
        return max(self.won - (self.bid or 0), 0) if self.bid is not None else 0


def progress(cards: int, bids: Sequence[int | None], tally: Sequence[Winner]) -> list[Progress]:
    """Each player's progress in seat order, from the bids as shown (``None``: hidden or
    not made) and the tally so far."""
    won = tricks_won(len(bids), tally)
    left = cards - len(tally)
    return [Progress(seat, bid, won[seat], left) for seat, bid in enumerate(bids)]
