"""Who wins a trick, and why: the referee's judgement of the cards in play order.

Two readings: the standard one (seeds 000, 001, 003, 004) and seed 002's house rule, in
which a trump as the trick's first suited card makes the Wizards worthless unless a Wizard
led. The anniversary editions' special cards play as docs/special-cards.md says and cites:
the Dragon beats every card unless the Fairy is in the trick, the Bomb gives the trick to
nobody, the Shapeshifter is a Wizard or a Jester as its player says, the Cloud (9¾) and the
Juggler (7½) are cards of the suit their player names, and the Werewolf never reaches a trick.

Positions are places in play order (0 led the trick); the caller names the players. A trick
of fewer cards than players is judged as it stands: who takes it so far.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, TypeAlias

from .cards import Suit
from .messages import RuleError
from .messages import gettext_noop as _
from .table import MAX_PLAYERS
from .variants import Special

#: The numbers of a suit, 1 lowest.
LOWEST: Final = 1
HIGHEST: Final = 13
#: As many Wizards and Jesters as the deck holds.
WIZARDS_IN_DECK: Final = 4
JESTERS_IN_DECK: Final = 4


class Kind(StrEnum):
    """What a card of the classic deck is: a suited card, a Wizard or a Jester. The
    anniversary editions' cards are the :class:`Special` cards a game's rules name."""

    SUITED = "suited"
    WIZARD = "wizard"
    JESTER = "jester"


#: What a card is: one of the classic deck's kinds, or a special card (each in the deck
#: once when the table chooses it).
CardKind: TypeAlias = Kind | Special
CARD_KINDS: Final[tuple[CardKind, ...]] = (*Kind, *Special)

#: The cards played in a suit their player names when playing them.
NAMED_SUIT: Final = frozenset({Special.CLOUD, Special.JUGGLER})
#: What the Shapeshifter may be played as.
SHAPES: Final = frozenset({Kind.WIZARD, Kind.JESTER})

# A card's value within its suit, in quarters, so that the Juggler's 7½ and the Cloud's 9¾
# sit between the numbers.
_QUARTERS: Final = 4
_SPECIAL_VALUES: Final[Mapping[CardKind, int]] = {Special.JUGGLER: 30, Special.CLOUD: 39}

_SUITS: Final = ", ".join(suit.value for suit in Suit)
_KIND_NAMED: Final[Mapping[str, CardKind]] = {kind.value: kind for kind in CARD_KINDS}
_KINDS: Final = ", ".join(_KIND_NAMED)


class Reading(StrEnum):
    """How a trick is judged, chosen per game."""

    STANDARD = "standard"
    #: Seed 002: a trump as the first suited card makes Wizards worthless unless a Wizard led.
    HOUSE = "house"


class PlayError(RuleError):
    """Cards that no trick of this deck can hold."""


@dataclass(frozen=True)
class Card:
    """One card as played: ``suit`` for a suited card and the suit named for a Cloud or a
    Juggler, ``number`` (1 … 13) for a suited card, ``played_as`` (Wizard or Jester) for
    the Shapeshifter."""

    kind: CardKind
    suit: Suit | None = None
    number: int | None = None
    played_as: Kind | None = None

    def __post_init__(self) -> None:
        verify_card(self)

    @classmethod
    def of(cls, suit: Suit, number: int) -> Card:
        """A suited card."""
        return cls(Kind.SUITED, suit, number)


def verify_card(card: Card, field: str | None = None) -> None:
    """Raise unless ``card`` is one the deck holds, with the choices its player makes."""
    if card.kind is Kind.SUITED:
        if card.suit is None:
            raise PlayError(
                _("A suited card needs its suit, one of %(suits)s."), field=field, suits=_SUITS
            )
        if card.number is None:
            raise PlayError(
                _("A suited card needs its number, %(low)d to %(high)d."),
                field=field,
                low=LOWEST,
                high=HIGHEST,
            )
        if not LOWEST <= card.number <= HIGHEST:
            raise PlayError(
                _("A suited card's number is %(low)d to %(high)d, not %(number)d."),
                field=field,
                low=LOWEST,
                high=HIGHEST,
                number=card.number,
            )
    elif card.number is not None:
        raise PlayError(_("Only a suited card has a number, so leave it out."), field=field)
    if card.kind is Special.CLOUD and card.suit is None:
        raise PlayError(
            _("The Cloud is played in a suit its player names: give one of %(suits)s."),
            field=field,
            suits=_SUITS,
        )
    if card.kind is Special.JUGGLER and card.suit is None:
        raise PlayError(
            _("The Juggler is played in a suit its player names: give one of %(suits)s."),
            field=field,
            suits=_SUITS,
        )
    if card.suit is not None and card.kind is not Kind.SUITED and card.kind not in NAMED_SUIT:
        raise PlayError(
            _("Only a suited card, the Cloud and the Juggler have a suit, so leave it out."),
            field=field,
        )
    if card.kind is Special.SHAPESHIFTER and card.played_as not in SHAPES:
        raise PlayError(
            _("The Shapeshifter is played as a Wizard or as a Jester: say which."), field=field
        )
    if card.kind is not Special.SHAPESHIFTER and card.played_as is not None:
        raise PlayError(
            _("Only the Shapeshifter is played as another card, so leave that out."),
            field=field,
        )


def suit_from(value: str, *, field: str | None = None) -> Suit:
    """The suit ``value`` names (a trump, a card's suit), or the refusal."""
    try:
        return Suit(value)
    except ValueError:
        raise PlayError(
            _("A suit is one of %(suits)s, not “%(suit)s”."), field=field, suits=_SUITS, suit=value
        ) from None


def reading_from(value: str, *, field: str | None = None) -> Reading:
    """The reading ``value`` names, or the refusal."""
    try:
        return Reading(value)
    except ValueError:
        raise PlayError(
            _("A reading is one of %(readings)s, not “%(reading)s”."),
            field=field,
            readings=", ".join(reading.value for reading in Reading),
            reading=value,
        ) from None


def card_from(
    kind: str,
    suit: str | None = None,
    number: int | None = None,
    played_as: str | None = None,
    *,
    field: str | None = None,
) -> Card:
    """The card these words describe (as a form or the API gives them), or the refusal."""
    card_kind = _KIND_NAMED.get(kind)
    if card_kind is None:
        raise PlayError(
            _("A card is one of %(kinds)s, not “%(kind)s”."), field=field, kinds=_KINDS, kind=kind
        )
    card_suit = None if suit is None else suit_from(suit, field=field)
    shape = None
    if played_as is not None:
        # Anything but a Wizard or a Jester stands as a suited card, which verify_card
        # refuses as the Shapeshifter's choice.
        shape = Kind(played_as) if played_as in SHAPES else Kind.SUITED
    try:
        return Card(card_kind, card_suit, number, shape)
    except PlayError as error:
        error.field = field
        raise


class Reason(StrEnum):
    """Why a trick goes where it goes; :data:`REASONS` says it in a sentence."""

    BOMB = "bomb"
    FAIRY = "fairy"
    DRAGON = "dragon"
    FIRST_WIZARD = "first_wizard"
    SHAPESHIFTER_WIZARD = "shapeshifter_wizard"
    HIGHEST_TRUMP = "highest_trump"
    WIZARDS_WORTHLESS = "wizards_worthless"
    HIGHEST_LED = "highest_led"
    FIRST_JESTER = "first_jester"
    JESTER_OVER_FAIRY = "jester_over_fairy"
    FAIRY_ALONE = "fairy_alone"


#: Each reason as a sentence; ``%(name)s`` is the winner (for the Bomb: who leads next).
REASONS: Final[Mapping[Reason, str]] = {
    Reason.BOMB: _(
        "Nobody wins: the Bomb was played, and %(name)s, who would have won, leads next."
    ),
    Reason.FAIRY: _("%(name)s wins: the Fairy beats the Dragon."),
    Reason.DRAGON: _("%(name)s wins: the Dragon beats every card, Wizards too."),
    Reason.FIRST_WIZARD: _("%(name)s wins: the first Wizard played."),
    Reason.SHAPESHIFTER_WIZARD: _(
        "%(name)s wins: the Shapeshifter, played as a Wizard, is the first Wizard."
    ),
    Reason.HIGHEST_TRUMP: _("%(name)s wins: the highest trump."),
    Reason.WIZARDS_WORTHLESS: _(
        "%(name)s wins: the highest trump, as a trump for the first suited card makes the "
        "Wizards worthless in this trick (house rule)."
    ),
    Reason.HIGHEST_LED: _("%(name)s wins: the highest card of the suit led."),
    Reason.FIRST_JESTER: _("%(name)s wins: only Jesters were played, and the first one takes it."),
    Reason.JESTER_OVER_FAIRY: _(
        "%(name)s wins: the first Jester, as the Fairy loses even to a Jester."
    ),
    Reason.FAIRY_ALONE: _("%(name)s wins: the Fairy is the only card played."),
}


@dataclass(frozen=True)
class Verdict:
    """Who takes the trick, who leads the next one, and why."""

    #: The winner's position in play order; ``None``: a Bomb's trick, won by nobody.
    winner: int | None
    #: Who leads the next trick: the winner, or for a Bomb's trick who would have won it.
    leads_next: int
    reason: Reason

    @property
    def message(self) -> str:
        """The untranslated sentence, ``%(name)s`` still to fill."""
        return REASONS[self.reason]

    def render(self, names: Sequence[str], gettext: Callable[[str], str] | None = None) -> str:
        """The sentence with the player's name: ``names`` are the players in play order."""
        template = gettext(self.message) if gettext is not None else self.message
        return template % {"name": names[self.leads_next]}


def verify_trick(cards: Sequence[Card]) -> None:
    """Raise unless one trick of the deck can hold ``cards`` (in play order)."""
    if not cards:
        raise PlayError(_("A trick needs at least one card."), field="cards")
    if len(cards) > MAX_PLAYERS:
        raise PlayError(
            _("A trick has at most %(max)d cards, one for each player."),
            field="cards",
            max=MAX_PLAYERS,
        )
    seen: set[tuple[CardKind, Suit | None, int | None]] = set()
    for index, card in enumerate(cards):
        field = f"cards[{index}]"
        if card.kind is Special.WEREWOLF:
            raise PlayError(
                _(
                    "The Werewolf is never played in a trick: its holder swaps it for the "
                    "turned card before the bids."
                ),
                field=field,
            )
        key = (card.kind, card.suit if card.kind is Kind.SUITED else None, card.number)
        if card.kind in (Kind.WIZARD, Kind.JESTER):
            continue
        if key in seen:
            if card.kind is Kind.SUITED:
                raise PlayError(
                    _("The %(suit)s %(number)d is played twice, but the deck holds one."),
                    field=field,
                    suit=card.suit,
                    number=card.number,
                )
            raise PlayError(
                _("A special card is played twice, but the deck holds one of each."),
                field=field,
            )
        seen.add(key)
    for kind, most in ((Kind.WIZARD, WIZARDS_IN_DECK), (Kind.JESTER, JESTERS_IN_DECK)):
        if sum(card.kind is kind for card in cards) > most:
            message = (
                _("A trick holds at most %(most)d Wizards, as many as the deck.")
                if kind is Kind.WIZARD
                else _("A trick holds at most %(most)d Jesters, as many as the deck.")
            )
            raise PlayError(message, field="cards", most=most)


def judge(trump: Suit | None, reading: Reading, cards: Sequence[Card]) -> Verdict:
    """Who wins the trick of ``cards`` (in play order) with ``trump`` (``None``: no trump)."""
    verify_trick(cards)
    bomb = next((i for i, card in enumerate(cards) if card.kind is Special.BOMB), None)
    if bomb is None:
        position, reason = _best(trump, reading, cards)
        return Verdict(position, position, reason)
    # The trick goes to nobody; who would have won it without the Bomb leads next.
    rest = [i for i in range(len(cards)) if i != bomb]
    leads = bomb
    if rest:
        position, _reason = _best(trump, reading, [cards[i] for i in rest])
        leads = rest[position]
    return Verdict(None, leads, Reason.BOMB)


def _role(card: Card) -> CardKind:
    """What the card counts as in a trick: the Shapeshifter as what it was played as, the
    Cloud and the Juggler as suited cards."""
    if card.kind is Special.SHAPESHIFTER and card.played_as is not None:
        return card.played_as
    if card.kind in NAMED_SUIT:
        return Kind.SUITED
    return card.kind


def _value(card: Card) -> int:
    if card.kind in _SPECIAL_VALUES:
        return _SPECIAL_VALUES[card.kind]
    assert card.number is not None  # a suited card, verified
    return card.number * _QUARTERS


def _best(trump: Suit | None, reading: Reading, cards: Sequence[Card]) -> tuple[int, Reason]:
    """The winner of a trick without a Bomb, and why."""
    roles = [_role(card) for card in cards]
    if Special.DRAGON in roles:
        if Special.FAIRY in roles:
            return roles.index(Special.FAIRY), Reason.FAIRY
        return roles.index(Special.DRAGON), Reason.DRAGON
    suited = [i for i, role in enumerate(roles) if role is Kind.SUITED]
    wizards = [i for i, role in enumerate(roles) if role is Kind.WIZARD]
    worthless = (
        reading is Reading.HOUSE
        and trump is not None
        and bool(suited)
        and cards[suited[0]].suit is trump
        and roles[0] is not Kind.WIZARD
    )
    if wizards and not worthless:
        first = wizards[0]
        if cards[first].kind is Special.SHAPESHIFTER:
            return first, Reason.SHAPESHIFTER_WIZARD
        return first, Reason.FIRST_WIZARD
    trumps = [i for i in suited if cards[i].suit is trump]
    if trumps:
        best = max(trumps, key=lambda i: _value(cards[i]))
        return best, Reason.WIZARDS_WORTHLESS if wizards else Reason.HIGHEST_TRUMP
    if suited:
        led = cards[suited[0]].suit
        best = max((i for i in suited if cards[i].suit is led), key=lambda i: _value(cards[i]))
        return best, Reason.HIGHEST_LED
    if Kind.JESTER in roles:
        first = roles.index(Kind.JESTER)
        return first, Reason.JESTER_OVER_FAIRY if Special.FAIRY in roles else Reason.FIRST_JESTER
    # No Bomb, Dragon, Wizard, suited card or Jester: the Fairy alone.
    return 0, Reason.FAIRY_ALONE
