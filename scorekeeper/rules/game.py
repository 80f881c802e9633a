"""A whole game: from the recorded facts to rounds, totals, standings and winners, derived
anew each time (nothing derived is ever stored)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .bids import all_bids_in, forbidden_bid
from .cards import TrumpCard
from .scoring import Placing, add_scores, leaders, score, standings
from .specials import CloudBid, scored_bids
from .table import Table
from .variants import BidReveal


class RoundState(StrEnum):
    """Where a round stands."""

    WAITING = "waiting"  # an earlier round is not scored
    TRUMP = "trump"  # the trump is to be recorded
    BIDDING = "bidding"  # not every bid is in
    PLAYING = "playing"  # every bid is in, the tricks are not
    SCORED = "scored"  # the tricks are in


class GameStatus(StrEnum):
    """Whether every round is scored."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


def bids_visible(reveal: BidReveal, state: RoundState) -> bool:
    """Whether the table sees a round's bids in this state: open ones always, covered ones
    once every bid is in, secret ones once the round is scored."""
    if reveal is BidReveal.OPEN:
        return True
    if reveal is BidReveal.COVERED:
        return state in (RoundState.PLAYING, RoundState.SCORED)
    return state is RoundState.SCORED


@dataclass(frozen=True)
class RoundRecord:
    """What was recorded of one round: trump, bids (``None``: not bid yet), tricks, whether
    the Bomb was played, how the Cloud changed a bid (``None``: it did not), the winner
    of each trick tallied so far (a seat, or ``None``: nobody), and the tricks tapped in by
    seat while it is played (``None``: none yet; never scored)."""

    trump: TrumpCard | None = None
    bids: tuple[int | None, ...] | None = None
    tricks: tuple[int, ...] | None = None
    bomb: bool = False
    cloud: CloudBid | None = None
    tally: tuple[int | None, ...] = ()
    drafts: tuple[int | None, ...] | None = None

    def __post_init__(self) -> None:
        # "No bids yet" has one form, whatever the way there (a fresh round, an undo, a
        # write of nothing but nulls, an import): ``None``.
        if self.bids is not None and all(bid is None for bid in self.bids):
            object.__setattr__(self, "bids", None)


@dataclass(frozen=True)
class RoundView:
    """One round as the rules see it: the recorded facts and what they give."""

    number: int
    cards: int
    dealer: int
    bid_order: list[int]
    state: RoundState
    trump: TrumpCard | None
    bids: tuple[int | None, ...] | None
    forbidden_bid: int | None
    tricks: tuple[int, ...] | None
    scores: list[int] | None
    totals_before: list[int]
    bid_reveal: BidReveal = field(repr=False)
    #: The winner of each trick tallied so far, in order (a seat, or ``None``: nobody).
    tally: tuple[int | None, ...] = ()
    #: Whether the Bomb was played: the tricks add up to the cards minus one.
    bomb: bool = False
    #: The Cloud's change of a bid (the round is scored on it); ``None``: none.
    cloud: CloudBid | None = None

    @property
    def totals_after(self) -> list[int] | None:
        """The totals once the round is scored (``None``: not yet)."""
        return None if self.scores is None else add_scores(self.totals_before, self.scores)

    @property
    def tricks_total(self) -> int:
        """The tricks the players win together: one per card, but the Bomb's trick."""
        return self.cards - self.bomb

    @property
    def cloud_bid(self) -> tuple[int, int] | None:
        """The Cloud's change as the table may see it: the seat and its new bid, once the
        bids are visible (``None``: no change, or the bids are hidden)."""
        if self.cloud is None or not self.bids_visible:
            return None
        return self.cloud.seat, self.cloud.bid

    @property
    def shown_scored_bids(self) -> tuple[int | None, ...] | None:
        """The bids as the table may see them, the Cloud's change in its winner's once they
        are visible: the bids the round is scored on, as far as the table knows them."""
        return scored_bids(self.shown_bids, self.cloud if self.cloud_bid else None)

    def changed_bid(self, seat: int) -> int | None:
        """The bid the Cloud changed ``seat``'s to, once the bids are visible (``None``: it
        changed none of that seat's, or the bids are hidden)."""
        shown = self.cloud_bid
        return shown[1] if shown is not None and shown[0] == seat else None

    @property
    def bids_visible(self) -> bool:
        """Whether the reveal mode lets the table see the bids now."""
        return bids_visible(self.bid_reveal, self.state)

    @property
    def shown_bids(self) -> tuple[int | None, ...] | None:
        """The bids as the table may see them: hidden ones read ``None``."""
        if self.bids is None or self.bids_visible:
            return self.bids
        return tuple(None for _bid in self.bids)

    @property
    def shown_forbidden_bid(self) -> int | None:
        """The dealer's forbidden bid once the bids are visible: before, it would give away
        the sum of the hidden bids."""
        return self.forbidden_bid if self.bids_visible else None

    @property
    def has_bid(self) -> list[bool] | None:
        """Who has bid (shown in every reveal mode)."""
        if self.bids is None:
            return None
        return [bid is not None for bid in self.bids]


@dataclass(frozen=True)
class GameView:
    """A game as the rules see it: every round, the totals, standings and winners."""

    table: Table
    rounds: list[RoundView]
    totals: list[int]

    @property
    def current_round(self) -> int | None:
        """The first round not scored; ``None`` once the game is over."""
        for view in self.rounds:
            if view.state is not RoundState.SCORED:
                return view.number
        return None

    @property
    def status(self) -> GameStatus:
        """In progress until every round is scored."""
        return GameStatus.IN_PROGRESS if self.current_round is not None else GameStatus.FINISHED

    @property
    def standings(self) -> list[Placing]:
        """The players by total, with competition ranks."""
        return standings(self.table.players, self.totals)

    @property
    def winners(self) -> list[int]:
        """The seats sharing the top total once the game is over, else none."""
        return leaders(self.totals) if self.status is GameStatus.FINISHED else []

    def round(self, number: int) -> RoundView:
        """Round ``number`` (1-based)."""
        return self.rounds[number - 1]


def evaluate(table: Table, records: Mapping[int, RoundRecord]) -> GameView:
    """Everything the recorded facts give, derived anew from the first round: nothing
    derived is ever stored."""
    views: list[RoundView] = []
    totals = [0] * table.seats
    # Every round after one not scored waits for it.
    blocked = False
    for number in range(1, table.rules.rounds + 1):
        record = records.get(number, RoundRecord())
        trump = record.trump
        if trump is None and table.deals_every_card(number):
            trump = TrumpCard.NO_CARD_LEFT
        bids = record.bids
        tricks = record.tricks
        if blocked:
            state = RoundState.WAITING
        elif trump is None:
            state = RoundState.TRUMP
        elif not all_bids_in(bids):
            state = RoundState.BIDDING
        elif tricks is None:
            state = RoundState.PLAYING
        else:
            state = RoundState.SCORED
        scores = None
        if state is RoundState.SCORED and bids is not None and tricks is not None:
            scored = scored_bids(bids, record.cloud) or bids
            scores = [score(bid or 0, won) for bid, won in zip(scored, tricks, strict=True)]
        forbidden = None
        if state in (RoundState.BIDDING, RoundState.PLAYING, RoundState.SCORED):
            partial = bids if bids is not None else (None,) * table.seats
            forbidden = forbidden_bid(table, number, partial, totals)
        views.append(
            RoundView(
                number=number,
                cards=table.cards(number),
                dealer=table.dealer(number),
                bid_order=table.bid_order(number),
                state=state,
                trump=trump,
                bids=bids,
                forbidden_bid=forbidden,
                tricks=tricks,
                scores=scores,
                totals_before=list(totals),
                bid_reveal=table.rules.bid_reveal,
                tally=record.tally,
                bomb=record.bomb,
                cloud=record.cloud,
            )
        )
        if scores is not None:
            totals = add_scores(totals, scores)
        else:
            blocked = True
    return GameView(table=table, rounds=views, totals=totals)
