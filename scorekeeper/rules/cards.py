"""The deck: its suits, the card turned up after dealing, and the trump it gives."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Final

from .messages import TrumpError
from .messages import gettext_noop as _
from .variants import Special

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
    #: Special cards: a Bomb turned gives no trump; the Werewolf's holder names the trump.
    BOMB = "bomb"
    WEREWOLF = "werewolf"


@dataclass(frozen=True)
class TrumpCard:
    """The card turned and the trump suit it gives (``None``: no trump)."""

    turned: Turned
    suit: Suit | None

    NO_CARD_LEFT: ClassVar[TrumpCard]


TrumpCard.NO_CARD_LEFT = TrumpCard(Turned.NONE, None)

_SUITS = ", ".join(s.value for s in Suit)
#: The special cards that can stand for the turned card, when they are in the deck.
_SPECIAL_TURNS: Final[Mapping[Turned, Special]] = {
    Turned.BOMB: Special.BOMB,
    Turned.WEREWOLF: Special.WEREWOLF,
}
#: What the Werewolf's holder names for no trump.
NO_TRUMP: Final = "none"


def turnable(specials: Collection[Special] = ()) -> list[Turned]:
    """What the trump step may record: the cards that can be turned, and the Bomb and the
    Werewolf when the deck holds them."""
    return [
        card
        for card in Turned
        if card is not Turned.NONE
        and (card not in _SPECIAL_TURNS or _SPECIAL_TURNS[card] in specials)
    ]


def trump_from(
    turned: str, chosen: str | None = None, specials: Collection[Special] = ()
) -> TrumpCard:
    """The trump a turned card gives: a suit, a Jester or a Bomb none, a Wizard the dealer's
    choice, the Werewolf its holder's (a suit or ``"none"``); ``specials``: the deck's."""
    allowed = turnable(specials)
    card = next((card for card in allowed if card.value == turned), None)
    if card is None:
        raise TrumpError(
            _("The turned card is one of %(allowed)s, not “%(turned)s”."),
            field="turned",
            allowed=", ".join(allowed),
            turned=turned,
        )
    if card is Turned.WEREWOLF:
        return _werewolf(chosen)
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
            return TrumpCard(card, Suit(chosen))
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
    if card in (Turned.JESTER, Turned.BOMB):
        return TrumpCard(card, None)
    return TrumpCard(card, Suit(card.value))


def _werewolf(chosen: str | None) -> TrumpCard:
    """The trump the Werewolf's holder names: a suit, or ``"none"`` for no trump."""
    if chosen == NO_TRUMP:
        return TrumpCard(Turned.WEREWOLF, None)
    if chosen is None:
        raise TrumpError(
            _(
                "The Werewolf's holder names the trump: give the chosen suit, one of "
                "%(suits)s, or %(none)s for no trump."
            ),
            field="chosen",
            suits=_SUITS,
            none=NO_TRUMP,
        )
    try:
        return TrumpCard(Turned.WEREWOLF, Suit(chosen))
    except ValueError:
        raise TrumpError(
            _("The Werewolf's holder names one of %(suits)s or %(none)s, not “%(chosen)s”."),
            field="chosen",
            suits=_SUITS,
            none=NO_TRUMP,
            chosen=chosen,
        ) from None
