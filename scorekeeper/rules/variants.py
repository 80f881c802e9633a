"""The variants a table may choose: the bid rule (a registry of small policies, looked up by
name), when the bids are seen, and the rules of a game as a whole."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, TypeVar

from .messages import SetupError
from .messages import gettext_noop as _

E = TypeVar("E", bound=StrEnum)


class BidRule(StrEnum):
    """Which totals of bids the game allows."""

    STANDARD = "standard"
    PLUS_MINUS_ONE = "plus_minus_one"
    CANADIAN = "canadian"


class BidReveal(StrEnum):
    """When the table sees the bids."""

    OPEN = "open"
    COVERED = "covered"
    SECRET = "secret"


#: Each reveal mode's name and what it means at the table.
REVEALS: Final[Mapping[BidReveal, tuple[str, str]]] = {
    BidReveal.OPEN: (
        _("Open"),
        _("Called out in turn; everyone sees them as they come."),
    ),
    BidReveal.COVERED: (
        _("Covered"),
        _("Everyone bids unseen; all bids are revealed at once before play."),
    ),
    BidReveal.SECRET: (
        _("Secret"),
        _("The bids stay hidden until the round is scored; the app still checks the bid rule."),
    ),
}


@dataclass(frozen=True)
class BidRulePolicy:
    """How a bid rule restricts the dealer, who bids last: whether the dealer may not make
    the bids add up to the cards, when leading the totals outright and when not, and
    whether bidding 0 is allowed even then (without the table's last-bidder option)."""

    name: BidRule
    title: str
    summary: str
    restricts_leader: bool
    restricts_others: bool
    zero_allowed: bool
    #: Said with a refusal of the dealer's bid when the rule holds only in some rounds: why
    #: it holds in this one (``None``: it always holds).
    refusal_note: str | None = None

    def restricts(self, *, dealer_leads_outright: bool) -> bool:
        """Whether the dealer may not make the bids add up to the cards this round."""
        return self.restricts_leader if dealer_leads_outright else self.restricts_others

    def zero_always_allowed(self, *, last_bidder_may_bid_zero: bool) -> bool:
        """Whether the dealer may bid 0 even when 0 makes the total equal the cards."""
        return self.zero_allowed or last_bidder_may_bid_zero


BID_RULES: Final[Mapping[BidRule, BidRulePolicy]] = {
    policy.name: policy
    for policy in (
        BidRulePolicy(
            BidRule.STANDARD,
            _("Standard"),
            _("Any bids: the total may be anything."),
            restricts_leader=False,
            restricts_others=False,
            zero_allowed=True,
        ),
        BidRulePolicy(
            BidRule.PLUS_MINUS_ONE,
            _("Plus/Minus One"),
            _(
                "The bids may not add up to the cards dealt, so someone must miss: the dealer, "
                "bidding last, may not make them add up."
            ),
            restricts_leader=True,
            restricts_others=True,
            zero_allowed=False,
        ),
        BidRulePolicy(
            BidRule.CANADIAN,
            _("Canadian"),
            _(
                "A dealer who leads the standings alone may not make the bids add up to the "
                "cards dealt, but may always bid 0."
            ),
            restricts_leader=True,
            restricts_others=False,
            zero_allowed=True,
            refusal_note=_("Canadian rule: the dealer leads the standings alone"),
        ),
    )
}


def _named(kind: type[E], name: str, message: str, field: str) -> E:
    """The choice of ``kind`` called ``name``, or a :class:`SetupError` saying ``message``
    with the choices (``%(allowed)s``) and the name given (``%(value)s``)."""
    try:
        return kind(name)
    except ValueError:
        allowed = ", ".join(kind)
        raise SetupError(message, field=field, allowed=allowed, value=name) from None


def parse_bid_rule(name: str) -> BidRule:
    """The bid rule called ``name``, or a :class:`SetupError` that lists the choices."""
    message = _("The bid rule is one of %(allowed)s, not “%(value)s”.")
    return _named(BidRule, name, message, "rules.bid_rule")


def parse_bid_reveal(name: str) -> BidReveal:
    """The reveal mode called ``name``, or a :class:`SetupError` that lists the choices."""
    message = _("The bid reveal is one of %(allowed)s, not “%(value)s”.")
    return _named(BidReveal, name, message, "rules.bid_reveal")


class Special(StrEnum):
    """The special cards of the anniversary editions a table may shuffle in."""

    BOMB = "bomb"
    CLOUD = "cloud"
    WEREWOLF = "werewolf"
    JUGGLER = "juggler"
    DRAGON = "dragon"
    FAIRY = "fairy"
    SHAPESHIFTER = "shapeshifter"


class RoundPlan(StrEnum):
    """Which hands the rounds deal: 1, 2, 3, ... cards, or the odd hands 1, 3, 5, ... only."""

    EVERY_HAND = "every_hand"
    ODD_HANDS = "odd_hands"


def parse_specials(names: Iterable[str]) -> frozenset[Special]:
    """The special cards called ``names``, or a :class:`SetupError`: an unknown name, a name
    given twice (the deck holds one of each), or the Dragon without the Fairy (they go in
    together or not at all)."""
    message = _("The special cards are some of %(allowed)s, not “%(value)s”.")
    named = [_named(Special, name, message, "rules.special_cards") for name in names]
    chosen = set(named)
    if len(chosen) < len(named):
        twice = next(card for card in named if named.count(card) > 1)
        raise SetupError(
            _("The deck holds one of each special card: “%(value)s” is named twice."),
            field="rules.special_cards",
            value=twice.value,
        )
    if (Special.DRAGON in chosen) != (Special.FAIRY in chosen):
        raise SetupError(
            _("The Dragon and the Fairy go into the deck together or not at all."),
            field="rules.special_cards",
        )
    return frozenset(chosen)


def parse_round_plan(name: str) -> RoundPlan:
    """The round plan called ``name``, or a :class:`SetupError` that lists the choices."""
    message = _("The round plan is one of %(allowed)s, not “%(value)s”.")
    return _named(RoundPlan, name, message, "rules.round_plan")


@dataclass(frozen=True)
class GameRules:
    """The variant a table chose; ``rounds`` is the number of rounds to play."""

    rounds: int
    bid_rule: BidRule = BidRule.STANDARD
    last_bidder_may_bid_zero: bool = False
    bid_reveal: BidReveal = BidReveal.OPEN
    clairvoyance: bool = False
    #: The special cards shuffled in (none: the 60 cards of the classic deck).
    special_cards: frozenset[Special] = frozenset()
    round_plan: RoundPlan = RoundPlan.EVERY_HAND

    @property
    def specials(self) -> list[Special]:
        """The special cards in the deck, in the order of :class:`Special`."""
        return [card for card in Special if card in self.special_cards]

    @property
    def policy(self) -> BidRulePolicy:
        """The bid rule's policy."""
        return BID_RULES[self.bid_rule]
