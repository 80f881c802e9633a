"""What the special cards of the anniversary editions change on the score sheet: the Bomb
takes a trick from the round's sum, the Cloud changes one player's bid by one. (A Bomb or the
Werewolf at the trump step is the turned card's business: ``cards.trump_from``.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .messages import BidError, Count, SetupError
from .messages import gettext_noop as _
from .table import Table
from .variants import Special


@dataclass(frozen=True)
class Cloud:
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


def verify_cloud(
    table: Table, round_number: int, bids: Sequence[int | None] | None, cloud: Cloud | None
) -> None:
    """Raise unless the Cloud's change can be: the Cloud in the deck, every bid in, and the
    winner of its trick bidding one more or one less, within 0 ... the cards in hand."""
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


def scored_bids(
    bids: Sequence[int | None] | None, cloud: Cloud | None
) -> tuple[int | None, ...] | None:
    """The bids the round is scored on: as made, but the Cloud's winner's as changed."""
    if bids is None or cloud is None:
        return None if bids is None else tuple(bids)
    changed = list(bids)
    changed[cloud.seat] = cloud.bid
    return tuple(changed)
