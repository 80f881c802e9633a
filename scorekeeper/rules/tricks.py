"""Tricks: each player wins 0 to the cards in hand, and together they win every trick of the
round (but the Bomb's, which goes to nobody); a draft tapped in trick by trick is completed
from that sum."""

from __future__ import annotations

from collections.abc import Sequence

from .bids import all_bids_in
from .messages import Count, TrickError
from .messages import gettext_noop as _
from .messages import ngettext_noop as _n
from .table import Table

#: Said with a refusal of tricks in a round where the Bomb was played.
BOMB_NOTE = _("the Bomb was played: its trick goes to nobody")


def _bomb_note(bomb: bool) -> str | None:
    return BOMB_NOTE if bomb else None


def verify_one_count_per_seat(table: Table, tricks: Sequence[int]) -> None:
    """Raise unless ``tricks`` has one count for each seat."""
    if len(tricks) != table.seats:
        raise TrickError(
            _("Give the tricks of each of the %(players)d players, in seat order, not %(given)d."),
            field="tricks",
            players=table.seats,
            given=len(tricks),
        )


def verify_tricks(
    table: Table, round_number: int, tricks: Sequence[int], *, bomb: bool = False
) -> None:
    """Raise unless each count lies in 0 ... r and they sum to the tricks of the round: r,
    or r - 1 when the Bomb was played."""
    cards = table.tricks(round_number, bomb=bomb)
    verify_trick_counts(table, round_number, tricks)
    total = sum(tricks)
    if total == cards:
        return
    if total < cards:
        message = _n(
            "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
            "%(num)d trick is missing.",
            "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
            "%(num)d tricks are missing.",
        )
    else:
        message = _n(
            "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
            "%(num)d trick too many.",
            "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
            "%(num)d tricks too many.",
        )
    raise TrickError(
        message,
        num=abs(cards - total),
        field="tricks",
        note=_bomb_note(bomb),
        total=total,
        round=round_number,
        cards=cards,
    )


def verify_trick_counts(table: Table, round_number: int, tricks: Sequence[int]) -> None:
    """Raise unless ``tricks`` has one count for each seat, each 0 to the cards in hand."""
    verify_one_count_per_seat(table, tricks)
    for seat, count in enumerate(tricks):
        verify_trick_count(table, round_number, seat, count)


def verify_trick_count(table: Table, round_number: int, seat: int, count: int) -> None:
    """Raise unless ``seat`` can have won ``count`` tricks: 0 to the cards in hand."""
    if not table.holds(round_number, count):
        raise TrickError(
            _("In round %(round)d %(name)s can win 0 to %(cards)d tricks, not %(tricks)s."),
            field=f"tricks[{seat}]",
            round=round_number,
            name=table.players[seat],
            cards=table.cards(round_number),
            tricks=Count(count),
        )


def fill_tricks(total: int, draft: Sequence[int | None]) -> tuple[int | None, ...]:
    """The draft with what the sum of the round's ``total`` tricks decides filled in: the one
    missing count (when the others leave a count that can be won), or 0 for every missing
    count once the others already add up to the total; otherwise the draft as it is."""
    missing = [seat for seat, count in enumerate(draft) if count is None]
    rest = total - sum(count or 0 for count in draft)
    if not missing or rest < 0 or (len(missing) > 1 and rest > 0):
        return tuple(draft)
    filled = list(draft)
    for seat in missing:
        filled[seat] = rest if len(missing) == 1 else 0
    return tuple(filled)


def tricks_if_all_made(
    total: int, bids: Sequence[int | None], tapped: Sequence[int | None] = ()
) -> tuple[int, ...] | None:
    """The tricks when every player whose count is not ``tapped`` in made their bid: possible
    only when every bid is in and they add up to the ``total`` tricks of the round."""
    if not bids or not all_bids_in(bids):
        return None
    counts = tapped or (None,) * len(bids)
    made = tuple(
        count if count is not None else bid or 0 for count, bid in zip(counts, bids, strict=True)
    )
    return made if sum(made) == total else None


def not_all_made(table: Table, round_number: int, *, bomb: bool = False) -> TrickError:
    """The refusal of "everyone made their bid" while the bids are hidden: it says that not
    everyone can have, never why (the bids' sum, or whose bid the Cloud changed)."""
    return TrickError(
        _n(
            "Not everyone can have made their bid: the bids do not add up to the %(num)d "
            "trick of round %(round)d.",
            "Not everyone can have made their bid: the bids do not add up to the %(num)d "
            "tricks of round %(round)d.",
        ),
        num=table.tricks(round_number, bomb=bomb),
        field="tricks",
        note=_bomb_note(bomb),
        round=round_number,
    )


def all_made_tricks(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    *,
    bomb: bool = False,
    hidden: bool = False,
) -> tuple[int, ...]:
    """:func:`tricks_if_all_made`, or a :class:`TrickError` that says why it cannot be;
    ``hidden``: the bids are not shown yet, and the refusal does not tell their sum."""
    total = table.tricks(round_number, bomb=bomb)
    made = tricks_if_all_made(total, bids)
    if made is None and hidden:
        raise not_all_made(table, round_number, bomb=bomb)
    if made is None:
        raise TrickError(
            _n(
                "The bids add up to %(total)d, not to the %(num)d trick of round %(round)d, "
                "so not everyone can have made their bid.",
                "The bids add up to %(total)d, not to the %(num)d tricks of round %(round)d, "
                "so not everyone can have made their bid.",
            ),
            num=total,
            field="tricks",
            note=_bomb_note(bomb),
            total=sum(bid or 0 for bid in bids),
            round=round_number,
        )
    return made


def complete_draft(
    table: Table, round_number: int, draft: Sequence[int | None], *, bomb: bool = False
) -> tuple[int, ...]:
    """The tricks tapped in, the one missing count filled in from the sum; a
    :class:`TrickError` names the first player in bid order whose tricks are missing."""
    total = table.tricks(round_number, bomb=bomb)
    filled = fill_tricks(total, draft)
    if sum(count or 0 for count in filled) > total:
        # Already too many, whatever is still missing: say so rather than ask for more.
        verify_tricks(table, round_number, [count or 0 for count in filled], bomb=bomb)
    for seat in table.bid_order(round_number):
        if filled[seat] is None:
            raise TrickError(
                _("Tap the tricks %(name)s won."),
                field=f"tricks[{seat}]",
                name=table.players[seat],
            )
    return tuple(count or 0 for count in filled)
