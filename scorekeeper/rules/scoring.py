"""Scoring: what a round's bid and tricks are worth, the totals, standings and leaders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

EXACT_BID_BONUS: Final = 20
POINTS_PER_TRICK: Final = 10


def score(bid: int, tricks: int) -> int:
    """Exact bid: 20 + 10 per trick; missed bid: -10 per trick off."""
    if bid == tricks:
        return EXACT_BID_BONUS + POINTS_PER_TRICK * tricks
    return -POINTS_PER_TRICK * abs(bid - tricks)


def add_scores(totals: Sequence[int], scores: Sequence[int]) -> list[int]:
    """The totals after a round: each player's total before it plus their score in it."""
    return [total + points for total, points in zip(totals, scores, strict=True)]


@dataclass(frozen=True)
class Placing:
    """One line of the standings: ``rank`` is competition ranking (1, 2, 2, 4)."""

    seat: int
    name: str
    total: int
    rank: int


def standings(names: Sequence[str], totals: Sequence[int]) -> list[Placing]:
    """Players by total, highest first; ties share a rank and keep seat order."""
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    result: list[Placing] = []
    for position, seat in enumerate(order):
        tied = bool(result) and result[-1].total == totals[seat]
        rank = result[-1].rank if tied else position + 1
        result.append(Placing(seat, names[seat], totals[seat], rank))
    return result


def leaders(totals: Sequence[int]) -> list[int]:
    """The seats sharing the top total."""
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]
