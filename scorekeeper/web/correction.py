"""The correction form of a scored round: the round's facts as the form holds them (as
recorded, or as sent), whether they were sent as recorded, and the Bomb's and the Cloud's
facts they give the service."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..rules.cards import NO_TRUMP, Turned
from ..rules.specials import CloudBid
from ..rules.variants import Special
from ..services import loading
from .forms import small_number

#: The cards after which a trump is chosen.
CHOOSING = (Turned.WIZARD.value, Turned.WEREWOLF.value)
#: The Cloud's choice when it changed no bid; else ``"<seat>:up"`` or ``"<seat>:down"``.
NO_CLOUD = "none"
_CLOUD = re.compile(r"([0-9]):(up|down)")


@dataclass
class Correction:
    """A round's facts as the correction form holds them (``None``: not chosen)."""

    turned: str
    chosen: str
    bids: list[int | None]
    tricks: list[int | None]
    #: Whether the Bomb was played.
    bomb: bool = False
    #: The Cloud's change: :data:`NO_CLOUD`, or the seat and which way (``"2:up"``).
    cloud: str = NO_CLOUD

    @property
    def complete(self) -> bool:
        """Whether every player has a bid and tricks chosen."""
        return None not in self.bids and None not in self.tricks

    def cloud_valid(self) -> bool:
        """Whether the Cloud's choice is one the form offers: none, or a seat and a way."""
        match = _CLOUD.fullmatch(self.cloud)
        return self.cloud == NO_CLOUD or (match is not None and int(match[1]) < len(self.bids))

    def cloud_change(self) -> CloudBid | None:
        """The Cloud's change as the rules take it: the seat and its bid changed by one (the
        bid chosen on the form, which :attr:`complete` and :meth:`cloud_valid` check)."""
        tap = cloud_tap(self.cloud)
        if tap is None:
            return None
        seat, up = tap
        return CloudBid(seat, (self.bids[seat] or 0) + (1 if up else -1))


def cloud_tap(value: str) -> tuple[int, bool] | None:
    """The seat and whether up of a Cloud's choice as the pages send it (``"2:up"``);
    ``None`` for anything else."""
    match = _CLOUD.fullmatch(value)
    return None if match is None else (int(match[1]), match[2] == "up")


def recorded(snapshot: loading.GameSnapshot, number: int) -> Correction:
    """The scored round ``number`` as recorded."""
    view = snapshot.round(number)
    trump = view.trump
    chosen = trump.suit.value if trump and trump.suit else ""
    if trump is not None and trump.turned is Turned.WEREWOLF and not chosen:
        chosen = NO_TRUMP  # the Werewolf's holder named no trump
    bids = list(view.bids or ())
    cloud = NO_CLOUD
    if view.cloud is not None:
        made = bids[view.cloud.seat] or 0
        cloud = f"{view.cloud.seat}:{'up' if view.cloud.bid > made else 'down'}"
    return Correction(
        turned=trump.turned.value if trump else "",
        chosen=chosen,
        bids=bids,
        tricks=list(view.tricks or ()),
        bomb=view.bomb,
        cloud=cloud,
    )


def sent(
    snapshot: loading.GameSnapshot, form: Mapping[str, str], recorded: Correction
) -> Correction:
    """The facts the form sent; a special card the deck does not hold stays as recorded."""
    seats = snapshot.table.seats
    deck = snapshot.table.rules.special_cards

    def numbers(prefix: str) -> list[int | None]:
        return [small_number(form.get(f"{prefix}-{seat}")) for seat in range(seats)]

    turned = form.get("turned", "")
    return Correction(
        turned=turned,
        chosen=form.get("chosen", "") if turned in CHOOSING else "",
        bids=numbers("bid"),
        tricks=numbers("tricks"),
        # A checkbox left unticked is not sent at all.
        bomb=form.get("bomb") == "1" if Special.BOMB in deck else recorded.bomb,
        cloud=form.get("cloud", NO_CLOUD) if Special.CLOUD in deck else recorded.cloud,
    )


def unchanged(
    snapshot: loading.GameSnapshot, number: int, recorded: Correction, sent: Correction
) -> bool:
    """Whether the correction form was sent with the round's facts as recorded."""

    def facts(values: Correction) -> tuple[object, ...]:
        if snapshot.table.deals_every_card(number):
            trump: tuple[str, str] = ("", "")  # no trump to give: the form has no field
        else:
            wizard = values.turned in CHOOSING
            trump = (values.turned, values.chosen if wizard else "")
        return (*trump, values.bids, values.tricks, values.bomb, values.cloud_change())

    return facts(recorded) == facts(sent)
