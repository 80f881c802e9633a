"""What the special cards of the anniversary editions change on the score sheet: the Bomb
takes a trick from the round's sum, the Cloud changes one player's bid by one. (A Bomb or the
Werewolf at the trump step is the turned card's business: ``cards.trump_from``.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from .cards import TrumpCard, Turned
from .messages import BidError, Count, SetupError, TrumpError
from .messages import gettext_noop as _
from .table import Table
from .variants import Special

#: A bid made, or one that may not be made yet (``None``).
Bid = TypeVar("Bid", int, int | None)


@dataclass(frozen=True)
class CloudBid:
    """The Cloud's change: the seat that won the Cloud's trick and the bid it changed to."""

    seat: int
    bid: int


def only_one_recorded(table: Table) -> Special | None:
    """The special card a round records (the Bomb or the Cloud) when the deck has just one of
    the two (``None``: both, or neither)."""
    recorded = {Special.BOMB, Special.CLOUD} & set(table.rules.special_cards)
    return recorded.pop() if len(recorded) == 1 else None


def verify_bomb(table: Table, bomb: bool) -> None:
    """Raise when the Bomb is said to be played in a game without it."""
    if bomb and Special.BOMB not in table.rules.special_cards:
        raise SetupError(
            _("This game is played without the Bomb: it is not in the deck."), field="bomb"
        )


def bomb_turned(trump: TrumpCard | None) -> bool:
    """Whether the round's trump was decided by the Bomb turned up (then no other Bomb is in
    the round: the deck holds one)."""
    return trump is not None and trump.turned is Turned.BOMB


def verify_one_bomb(trump: TrumpCard | None, bomb: bool, *, field: str = "bomb") -> None:
    """Raise when the deck's one Bomb is said to be both turned up for trump and played in the
    round; ``field``: the fact being written (``"turned"``: the trump)."""
    if not (bomb and bomb_turned(trump)):
        return
    if field == "turned":
        raise TrumpError(
            _("The Bomb was played in this round, so it cannot also be the card turned up."),
            field=field,
        )
    raise SetupError(
        _("The Bomb was turned up for trump in this round, so it cannot also be played in it."),
        field=field,
    )


def cloud_won_nothing(cloud: CloudBid | None, tricks: Sequence[int | None] | None) -> bool:
    """Whether the Cloud's change went to a seat known to have taken no trick (``tricks``:
    each seat's, ``None`` where not known yet), which cannot be: its winner took its trick."""
    if cloud is None or tricks is None or not 0 <= cloud.seat < len(tricks):
        return False
    return tricks[cloud.seat] == 0


def verify_cloud_took_a_trick(
    table: Table, cloud: CloudBid | None, tricks: Sequence[int | None] | None
) -> None:
    """Raise when the Cloud changed the bid of a seat that took no trick in the round: its
    trick's winner took that trick (``tricks``: each seat's, ``None`` where not known yet)."""
    if cloud is not None and cloud_won_nothing(cloud, tricks):
        raise BidError(
            _(
                "The Cloud changes the bid of the player who won its trick, and %(name)s "
                "took no trick in this round."
            ),
            field="cloud.seat",
            name=table.players[cloud.seat],
        )


def verify_cloud(
    table: Table,
    round_number: int,
    bids: Sequence[int | None] | None,
    cloud: CloudBid | None,
    *,
    hidden: bool = False,
    tricks: Sequence[int | None] | None = None,
) -> None:
    """Raise unless the Cloud's change can be: the Cloud in the deck, every bid in, the
    winner of its trick with a trick (``tricks``: each seat's, ``None`` where not known), and
    bidding one more or one less, within 0 ... the cards in hand; ``hidden``: the bids are
    not shown yet, and the refusal names neither the bid nor the change (which would give
    the bid away), and comes last, so that a refusal's words never depend on a hidden bid."""
    if cloud is None:
        return
    if Special.CLOUD not in table.rules.special_cards:
        raise SetupError(
            _("This game is played without the Cloud: it is not in the deck."), field="cloud"
        )
    if not 0 <= cloud.seat < table.seats:
        raise SetupError(
            _("There is no seat %(seat)d at this table."), field="cloud.seat", seat=cloud.seat
        )
    made = bids[cloud.seat] if bids is not None else None
    name = table.players[cloud.seat]
    if made is None:
        raise BidError(
            _("%(name)s has not bid yet, so the Cloud cannot change the bid."),
            field="cloud.seat",
            name=name,
        )
    verify_cloud_took_a_trick(table, cloud, tricks)
    if hidden and (abs(cloud.bid - made) != 1 or not table.holds(round_number, cloud.bid)):
        raise BidError(
            _("The Cloud changes %(name)s's bid by one, up or down, and only to 0 to %(cards)d."),
            field="cloud.bid",
            name=name,
            cards=table.cards(round_number),
        )
    if abs(cloud.bid - made) != 1 or not table.holds(round_number, cloud.bid):
        allowed = [value for value in (made - 1, made + 1) if table.holds(round_number, value)]
        raise BidError(
            _(
                "The Cloud changes %(name)s's bid of %(bid)d by one, to %(allowed)s, "
                "not to %(changed)s."
            ),
            field="cloud.bid",
            name=name,
            bid=made,
            allowed=" / ".join(str(value) for value in allowed),
            changed=Count(cloud.bid),
        )


def scored_bid(seat: int, bid: Bid, cloud: CloudBid | None) -> Bid:
    """The bid ``seat`` is scored on (the Cloud's one statement): as made, but the Cloud's
    winner's as changed."""
    return cloud.bid if cloud is not None and cloud.seat == seat else bid


def scored_bids(
    bids: Sequence[int | None] | None, cloud: CloudBid | None
) -> tuple[int | None, ...] | None:
    """The bids the round is scored on, each seat's by :func:`scored_bid`."""
    if bids is None:
        return None
    return tuple(scored_bid(seat, bid, cloud) for seat, bid in enumerate(bids))
