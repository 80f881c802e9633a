"""The deck: its suits, the card turned up after dealing, and the trump it gives."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Final

from .messages import TrumpError
from .messages import gettext_noop as _

DECK_SIZE: Final = 60


class Suit(StrEnum):
    """The four suits, each a colour with its people."""

    BLUE = "blue"
    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"

    @property
    def people(self) -> str:
        """The people of the suit (untranslated): blue Humans, green Elves, ..."""
        return _SUIT_PEOPLE[self]

    @property
    def colour(self) -> str:
        """The suit's colour as a word to show (untranslated)."""
        return _SUIT_COLOURS[self]


_SUIT_PEOPLE: Final[Mapping[Suit, str]] = {
    Suit.BLUE: _("Humans"),
    Suit.GREEN: _("Elves"),
    Suit.RED: _("Dwarves"),
    Suit.YELLOW: _("Giants"),
}

# The colours are shown only before their people ("red Dwarves"), so a translation
# declines them for that place (German: "rote Zwerge").
_SUIT_COLOURS: Final[Mapping[Suit, str]] = {
    # Translators: before its people, as in "blue Humans"
    Suit.BLUE: _("blue"),
    Suit.GREEN: _("green"),
    Suit.RED: _("red"),
    Suit.YELLOW: _("yellow"),
}


class Turned(StrEnum):
    """The card turned up after dealing; ``NONE`` when no card was left."""

    BLUE = "blue"
    GREEN = "green"
    RED = "red"
    YELLOW = "yellow"
    JESTER = "jester"
    WIZARD = "wizard"
    NONE = "none"


@dataclass(frozen=True)
class Trump:
    """The card turned and the trump suit it gives (``None``: no trump)."""

    turned: Turned
    suit: Suit | None

    NO_CARD_LEFT: ClassVar[Trump]


Trump.NO_CARD_LEFT = Trump(Turned.NONE, None)

_TURNABLE = ", ".join(t.value for t in Turned if t is not Turned.NONE)
_SUITS = ", ".join(s.value for s in Suit)


def trump_from(turned: str, chosen: str | None = None) -> Trump:
    """The trump a turned card gives: a suit, a Jester none, a Wizard the dealer's choice."""
    try:
        card = Turned(turned)
    except ValueError:
        card = None
    if card is None or card is Turned.NONE:
        raise TrumpError(
            _("The turned card is one of %(allowed)s, not “%(turned)s”."),
            field="turned",
            allowed=_TURNABLE,
            turned=turned,
        )
    if card is Turned.WIZARD:
        if chosen is None:
            raise TrumpError(
                _(
                    "A Wizard was turned, so the dealer chooses the trump: give the chosen "
                    "suit, one of %(suits)s."
                ),
                field="chosen",
                suits=_SUITS,
            )
        try:
            return Trump(card, Suit(chosen))
        except ValueError:
            raise TrumpError(
                _("The dealer chooses one of %(suits)s, not “%(chosen)s”."),
                field="chosen",
                suits=_SUITS,
                chosen=chosen,
            ) from None
    if chosen is not None:
        raise TrumpError(
            _("Only a turned Wizard lets the dealer choose the trump: leave out the chosen suit."),
            field="chosen",
        )
    if card is Turned.JESTER:
        return Trump(card, None)
    return Trump(card, Suit(card.value))
