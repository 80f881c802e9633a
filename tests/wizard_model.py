"""The numbers of RULES.md, written out again for the API tests.

This is the tests' own reading of the rule book, kept apart from ``scorekeeper.rules`` on
purpose: the API must agree with it, not with itself. Plain functions, no app imports.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

DECK = 60
SUITS = ("blue", "green", "red", "yellow")
TURNABLE = (*SUITS, "jester", "wizard")
NO_CARD_LEFT = {"turned": "none", "suit": None}


def full_rounds(players: int) -> int:
    """60 / players: 3 → 20, 4 → 15, 5 → 12, 6 → 10."""
    return DECK // players


def dealer(first_dealer: int, number: int, players: int) -> int:
    """dealer(r) = (first_dealer + r - 1) mod players."""
    return (first_dealer + number - 1) % players


def bid_order(dealer_seat: int, players: int) -> list[int]:
    """[dealer+1, dealer+2, …, dealer] (mod players)."""
    return [(dealer_seat + step) % players for step in range(1, players + 1)]


def score(bid: int, tricks: int) -> int:
    """Exact: 20 + 10 * tricks; missed: -10 * |bid - tricks|."""
    return 20 + 10 * tricks if bid == tricks else -10 * abs(bid - tricks)


def competition_ranks(totals: list[int]) -> list[int]:
    """Each seat's rank: 1 + the number of seats with a higher total (1, 2, 2, 4)."""
    return [1 + sum(other > total for other in totals) for total in totals]


def standings(names: list[str], totals: list[int]) -> list[dict[str, Any]]:
    """Highest total first, ties in seat order, with competition ranks."""
    ranks = competition_ranks(totals)
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    return [
        {"seat": seat, "name": names[seat], "total": totals[seat], "rank": ranks[seat]}
        for seat in order
    ]


def trump_of(turned: str, chosen: str | None = None) -> dict[str, Any]:
    """A suit card gives its suit; a Jester no trump; a Wizard the dealer's choice."""
    if turned == "wizard":
        return {"turned": "wizard", "suit": chosen}
    if turned == "jester":
        return {"turned": "jester", "suit": None}
    return {"turned": turned, "suit": turned}


@dataclass(frozen=True)
class Variant:
    """The rules of one game, as sent in ``rules``."""

    bid_rule: str = "standard"
    last_bidder_may_bid_zero: bool = False
    bid_reveal: str = "open"
    clairvoyance: bool = False

    def body(self, rounds: int | None = None) -> dict[str, Any]:
        """The ``rules`` object of the create request."""
        body: dict[str, Any] = {
            "bid_rule": self.bid_rule,
            "last_bidder_may_bid_zero": self.last_bidder_may_bid_zero,
            "bid_reveal": self.bid_reveal,
            "clairvoyance": self.clairvoyance,
        }
        if rounds is not None:
            body["rounds"] = rounds
        return body


def forbidden_bid(
    variant: Variant,
    cards: int,
    bids: list[int | None],
    dealer_seat: int,
    totals_before: list[int],
) -> int | None:
    """The dealer's one forbidden bid once every other bid is in, else None."""
    others = [bid for seat, bid in enumerate(bids) if seat != dealer_seat]
    if variant.bid_rule == "standard" or any(bid is None for bid in others):
        return None
    if variant.bid_rule == "canadian":
        rivals = [total for seat, total in enumerate(totals_before) if seat != dealer_seat]
        if totals_before[dealer_seat] <= max(rivals):  # a tie for the lead does not count
            return None
    value = cards - sum(bid for bid in others if bid is not None)
    if value < 0:
        return None
    zero_allowed = variant.bid_rule == "canadian" or variant.last_bidder_may_bid_zero
    if value == 0 and zero_allowed:
        return None
    return value


@dataclass
class Sheet:
    """The score sheet a careful player keeps by hand: what was recorded, what it gives."""

    names: list[str]
    first_dealer: int
    rounds: int
    variant: Variant = field(default_factory=Variant)
    bids: dict[int, list[int]] = field(default_factory=dict)
    tricks: dict[int, list[int]] = field(default_factory=dict)
    trumps: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def players(self) -> int:
        """How many play."""
        return len(self.names)

    def dealer(self, number: int) -> int:
        """The dealer of round ``number``."""
        return dealer(self.first_dealer, number, self.players)

    def deals_every_card(self, number: int) -> bool:
        """Whether round ``number`` deals all 60 cards."""
        return number * self.players == DECK

    def scores(self, number: int) -> list[int]:
        """The scores of a recorded round."""
        return [score(b, t) for b, t in zip(self.bids[number], self.tricks[number], strict=True)]

    def totals_after(self, number: int) -> list[int]:
        """Totals after rounds 1 … ``number`` (those recorded)."""
        totals = [0] * self.players
        for played in range(1, number + 1):
            if played in self.tricks:
                totals = [t + s for t, s in zip(totals, self.scores(played), strict=True)]
        return totals

    @property
    def scored(self) -> int:
        """How many rounds are scored, in a row from round 1."""
        count = 0
        while count + 1 in self.tricks:
            count += 1
        return count

    def forbidden(self, number: int, bids: list[int | None]) -> int | None:
        """The dealer's forbidden bid in round ``number`` given ``bids`` so far."""
        return forbidden_bid(
            self.variant, number, bids, self.dealer(number), self.totals_after(number - 1)
        )

    def expected_summary(self) -> dict[str, Any]:
        """The game-level numbers: totals, standings, winners, status, current round."""
        totals = self.totals_after(self.rounds)
        finished = self.scored == self.rounds
        top = max(totals)
        return {
            "totals": totals,
            "standings": standings(self.names, totals),
            "winners": [s for s, t in enumerate(totals) if t == top] if finished else [],
            "status": "finished" if finished else "in_progress",
            "current_round": None if finished else self.scored + 1,
        }

    def expected_round_frame(self, number: int) -> dict[str, Any]:
        """The fixed facts of a round: number, cards, dealer, bid order."""
        dealer_seat = self.dealer(number)
        return {
            "number": number,
            "cards": number,
            "dealer": dealer_seat,
            "bid_order": bid_order(dealer_seat, self.players),
        }


def check_standings(shown: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    """The same lines, highest total first (API.md leaves the order within a tie open)."""
    assert sorted(shown, key=lambda line: line["seat"]) == sorted(
        expected, key=lambda line: line["seat"]
    )
    totals = [line["total"] for line in shown]
    assert totals == sorted(totals, reverse=True)


def check_game(game: dict[str, Any], sheet: Sheet) -> None:
    """Assert every number of a game against the sheet: rounds, scores, totals, standings."""
    summary = sheet.expected_summary()
    check_standings(game["standings"], summary.pop("standings"))
    assert sorted(game["winners"]) == summary.pop("winners")
    for key, value in summary.items():
        assert game[key] == value, (key, game[key], value)
    assert len(game["rounds"]) == sheet.rounds
    for number in range(1, sheet.rounds + 1):
        shown = game["rounds"][number - 1]
        frame = sheet.expected_round_frame(number)
        assert {key: shown[key] for key in frame} == frame
        if number in sheet.tricks:
            assert shown["state"] == "scored"
            assert shown["bids"] == sheet.bids[number]
            assert shown["tricks"] == sheet.tricks[number]
            assert shown["scores"] == sheet.scores(number)
            assert shown["has_bid"] == [True] * sheet.players
        else:
            assert shown["scores"] is None
        if number in sheet.trumps:
            assert shown["trump"] == sheet.trumps[number]
        if number > sheet.scored + 1:
            assert shown["state"] == "waiting"


# -- Playing a seeded random game --------------------------------------------------------


def random_trump(rng: random.Random) -> tuple[str, str | None]:
    """A turned card, and the chosen suit when it is a Wizard."""
    turned = rng.choice(TURNABLE)
    return turned, rng.choice(SUITS) if turned == "wizard" else None


def random_bid(rng: random.Random, cards: int, players: int) -> int:
    """A bid near the fair share, so the forbidden total comes up often."""
    return min(cards, max(0, round(rng.gauss(cards / players, 1))))


def random_tricks(rng: random.Random, bids: list[int], cards: int) -> list[int]:
    """Tricks summing to ``cards``, close to the bids so some are exact and some missed."""
    tricks = list(bids)
    while sum(tricks) > cards:
        seat = rng.choice([s for s, t in enumerate(tricks) if t > 0])
        tricks[seat] -= 1
    while sum(tricks) < cards:
        tricks[rng.randrange(len(tricks))] += 1
    if rng.random() < 0.4:
        giver = rng.choice([s for s, t in enumerate(tricks) if t > 0])
        tricks[giver] -= 1
        tricks[rng.randrange(len(tricks))] += 1
    return tricks
