"""The referee page: tap the cards of a trick in the order played and read who wins, and why.

It records nothing. The whole trick lives in the page's address (``?card=red-7&card=wizard``),
so every tap is a plain link: it works without JavaScript, a reload shows the same trick, and
htmx (the body's boost) only spares the page a full reload. Opened from a game, the round's
trump is filled in and the players are named in seat order from the one who led."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import make_response, render_template, request, url_for
from werkzeug.wrappers import Response

from ..i18n import gettext, rule_message, suit_label
from ..rules.cards import Suit
from ..rules.game import RoundState
from ..rules.judge import (
    HIGHEST,
    JESTERS_IN_DECK,
    LOWEST,
    NAMED_SUIT,
    WIZARDS_IN_DECK,
    Card,
    CardKind,
    Kind,
    Reading,
    Verdict,
    card_from,
    judge,
    reading_from,
    suit_from,
)
from ..rules.messages import RuleError, gettext_noop
from ..rules.table import MAX_PLAYERS
from ..rules.variants import Special
from ..services import games, loading
from . import tally
from .common import keeps_score, page_blueprint

bp = page_blueprint("referee", __name__)

NO_TRUMP = "none"
SUITS = frozenset(suit.value for suit in Suit)
#: The special cards a player taps as they are (the Cloud and the Juggler take a suit, the
#: Shapeshifter a shape; the Werewolf never reaches a trick).
PLAIN_SPECIALS = (Special.BOMB, Special.DRAGON, Special.FAIRY)


def token(card: Card) -> str:
    """A card as the page's address writes it: ``red-7``, ``wizard``, ``cloud-red``,
    ``shapeshifter-jester``."""
    if card.kind is Kind.SUITED:
        return f"{card.suit}-{card.number}"
    if card.suit is not None:
        return f"{card.kind}-{card.suit}"
    if card.played_as is not None:
        return f"{card.kind}-{card.played_as}"
    return str(card.kind)


def card_of(text: str, field: str) -> Card:
    """The card an address's ``card`` names, or the rules' refusal."""
    head, _, tail = text.partition("-")
    if head in SUITS:
        number = int(tail) if tail.isascii() and tail.isdigit() and len(tail) <= 2 else None
        return card_from(Kind.SUITED, head, number, field=field)
    if head == Special.SHAPESHIFTER:
        return card_from(head, played_as=tail or None, field=field)
    return card_from(head, tail or None, field=field)


def card_label(card: Card) -> str:
    """A card in words: "red Dwarves 7", "Wizard", "Cloud 9¾ (red Dwarves)"."""
    if card.kind is Kind.SUITED and card.suit is not None:
        # Translators: a suited card, as in "red Dwarves 7"
        return gettext("%(suit)s %(number)d", suit=suit_label(card.suit), number=card.number)
    if card.kind is Special.SHAPESHIFTER:
        if card.played_as is Kind.WIZARD:
            return gettext("Shapeshifter as a Wizard")
        return gettext("Shapeshifter as a Jester")
    if card.kind is Special.CLOUD and card.suit is not None:
        return gettext("Cloud 9¾ (%(suit)s)", suit=suit_label(card.suit))
    if card.kind is Special.JUGGLER and card.suit is not None:
        return gettext("Juggler 7½ (%(suit)s)", suit=suit_label(card.suit))
    return kind_label(card.kind)


def kind_label(kind: CardKind) -> str:
    """A card that has no suit, by name."""
    names = {
        Kind.WIZARD: gettext("Wizard"),
        Kind.JESTER: gettext("Jester"),
        Special.BOMB: gettext("Bomb"),
        Special.DRAGON: gettext("Dragon"),
        Special.FAIRY: gettext("Fairy"),
        Special.CLOUD: gettext("Cloud"),
        Special.JUGGLER: gettext("Juggler"),
        Special.SHAPESHIFTER: gettext("Shapeshifter"),
        Special.WEREWOLF: gettext("Werewolf"),
    }
    return names.get(kind, str(kind))


@dataclass
class CardChoice:
    """A card the page offers: its label, and the address that adds it (``None``: it cannot
    be played now, as the deck holds no more of it or the trick is full)."""

    card: Card
    label: str
    href: str | None


@dataclass
class Trick:
    """The referee page's state, read from the address, and what it shows."""

    trump: Suit | None = None
    reading: Reading = Reading.STANDARD
    cards: list[Card] = field(default_factory=list)
    specials: bool = False
    tab: Suit = Suit.BLUE
    #: The players in play order (the leader first), and the most cards the trick holds.
    names: list[str] = field(default_factory=list)
    seats: int = MAX_PLAYERS
    lead: int = 0
    game: loading.GameSnapshot | None = None
    number: int | None = None
    error: str | None = None
    judgement: Verdict | None = None
    #: Whether this browser keeps the game's score (and so may take the answer).
    keeper: bool = False
    #: The special cards the page offers: a game's deck, or ``None`` for every one.
    deck: frozenset[Special] | None = None

    # -- Addresses -----------------------------------------------------------------------

    def href(self, **changes: Any) -> str:
        """This page's address with ``changes`` to its state."""
        cards = changes.pop("cards", self.cards)
        trump = changes.pop("trump", self.trump)
        args: dict[str, Any] = {
            "trump": trump.value if trump is not None else NO_TRUMP,
            "reading": changes.pop("reading", self.reading).value,
            "suit": changes.pop("tab", self.tab).value,
            "specials": self._specials_arg(changes.pop("specials", self.specials)),
            "card": [token(card) for card in cards] or None,
        }
        if self.game is None:
            return url_for("referee.referee", **args)
        args["round"] = self.number
        args["lead"] = changes.pop("lead", self.lead)
        return url_for("referee.game_referee", game_id=self.game.id, **args)

    def with_card(self, card: Card) -> CardChoice:
        """The choice that adds ``card`` to the trick."""
        label = card_label(card)
        if len(self.cards) >= self.seats or not self._room_for(card):
            return CardChoice(card, label, None)
        return CardChoice(
            card, label, self.href(cards=[*self.cards, card], tab=card.suit or self.tab)
        )

    def _room_for(self, card: Card) -> bool:
        if card.kind is Kind.WIZARD:
            return sum(c.kind is Kind.WIZARD for c in self.cards) < WIZARDS_IN_DECK
        if card.kind is Kind.JESTER:
            return sum(c.kind is Kind.JESTER for c in self.cards) < JESTERS_IN_DECK
        if card.kind is Kind.SUITED:
            return card not in self.cards
        # Each special card once, whatever its player chose for it.
        return all(c.kind is not card.kind for c in self.cards)

    def _specials_arg(self, shown: bool) -> str | None:
        """The address's ``specials``: shown is the default of a game with special cards."""
        if self.deck:
            return None if shown else "0"
        return "1" if shown else None

    # -- What the page offers ------------------------------------------------------------

    @property
    def numbers(self) -> list[CardChoice]:
        """The cards of the chosen suit, 1 to 13."""
        return [self.with_card(Card.of(self.tab, n)) for n in range(LOWEST, HIGHEST + 1)]

    @property
    def plain(self) -> list[CardChoice]:
        """The Wizard and the Jester."""
        return [self.with_card(Card(Kind.WIZARD)), self.with_card(Card(Kind.JESTER))]

    @property
    def special_choices(self) -> list[CardChoice]:
        """The anniversary editions' cards that can be in a trick."""
        cards = [Card(kind) for kind in PLAIN_SPECIALS]
        cards += [Card(kind, self.tab) for kind in sorted(NAMED_SUIT, reverse=True)]
        cards += [
            Card(Special.SHAPESHIFTER, played_as=shape) for shape in (Kind.WIZARD, Kind.JESTER)
        ]
        return [
            self.with_card(card) for card in cards if self.deck is None or card.kind in self.deck
        ]

    @property
    def played(self) -> list[tuple[str, Card, str]]:
        """Each card played with its player's name and its label, in play order."""
        return [(self.names[i], card, card_label(card)) for i, card in enumerate(self.cards)]

    @property
    def message(self) -> str | None:
        """Who wins, and why, in one sentence."""
        if self.judgement is None:
            return None
        return self.judgement.render(self.names, gettext)

    @property
    def complete(self) -> bool:
        """Whether every player has played to the trick (known only from a game)."""
        return self.game is not None and len(self.cards) == self.seats

    @property
    def winner_seat(self) -> int | None:
        """The seat that wins the trick (from a game; ``None``: nobody, or not known)."""
        if self.judgement is None or self.judgement.winner is None or self.game is None:
            return None
        return (self.lead + self.judgement.winner) % self.seats

    @property
    def takeable(self) -> bool:
        """Whether the answer can be taken as the next trick of the round's tally: the trick
        is complete and judged, the round is being played with a trick left to tally, and
        this browser keeps the score."""
        if not self.complete or self.judgement is None or not self.keeper:
            return False
        if self.game is None or self.number is None:
            return False
        board = tally.board(self.game, self.number)
        if board is None or board.complete:
            return False
        return self.judgement.winner is not None or board.nobody

    @property
    def next_trick(self) -> int:
        """The number of the round's trick the answer would be tallied as."""
        if self.game is None or self.number is None:
            return 1
        return len(self.game.view.round(self.number).tally) + 1

    @property
    def next_lead(self) -> int | None:
        """The seat that leads the next trick (from a game)."""
        if self.judgement is None or self.game is None:
            return None
        return (self.lead + self.judgement.leads_next) % self.seats


def read_trick(args: Any, *, trump: Suit | None, names: Sequence[str]) -> Trick:
    """The state the address gives, ``trump`` and ``names`` its defaults; a value that no
    link of the page makes is the refusal shown, the rest of the state kept."""
    trick = Trick(trump=trump, names=list(names), seats=len(names))
    try:
        given = args.get("trump")
        if given is not None:
            trick.trump = None if given == NO_TRUMP else suit_from(given, field="trump")
        trick.reading = reading_from(args.get("reading", Reading.STANDARD), field="reading")
        tab = args.get("suit")
        trick.tab = suit_from(tab, field="suit") if tab else trick.trump or Suit.BLUE
        trick.cards = [
            card_of(text, f"cards[{index}]") for index, text in enumerate(args.getlist("card"))
        ]
        if len(trick.cards) > trick.seats:
            trick.cards = []
            raise RuleError(
                gettext_noop("A trick has at most %(max)d cards, one for each player."),
                field="cards",
                max=trick.seats,
            )
        trick.specials = args.get("specials") == "1" or any(
            card.kind not in (Kind.SUITED, Kind.WIZARD, Kind.JESTER) for card in trick.cards
        )
        if trick.cards:
            trick.judgement = judge(trick.trump, trick.reading, trick.cards)
    except RuleError as error:
        trick.error = rule_message(error)
    return trick


def _render(trick: Trick) -> Response:
    body = render_template("referee.html", trick=trick, suits=list(Suit), Reading=Reading)
    return make_response(body, 200 if trick.error is None else 422)


@bp.get("/referee")
def referee() -> Response:
    """The referee for any trick, of up to six players."""
    names = [gettext("Player %(number)d", number=n + 1) for n in range(MAX_PLAYERS)]
    return _render(read_trick(request.args, trump=None, names=names))


@bp.get("/games/<game_id>/referee")
def game_referee(game_id: str) -> Response:
    """The referee for a game's round (``?round=``, else the current or last one): its trump
    filled in, its players named in seat order from the one who led (``?lead=``)."""
    snapshot = games.get_game(game_id)
    rounds = snapshot.view.rounds
    number = request.args.get("round", type=int)
    if number is None or not 1 <= number <= len(rounds):
        number = snapshot.view.current_round or len(rounds)
    view = snapshot.view.round(number)
    players = list(snapshot.table.players)
    lead = request.args.get("lead", type=int)
    if lead is None or not 0 <= lead < len(players):
        # The winner of the last trick tallied leads the next; before any, the first bidder.
        last = view.tally[-1] if view.tally else None
        lead = last if last is not None else view.bid_order[0]
    in_play_order = players[lead:] + players[:lead]
    trump = view.trump.suit if view.trump is not None else None
    trick = read_trick(request.args, trump=trump, names=in_play_order)
    trick.game, trick.number, trick.lead = snapshot, number, lead
    # The game's own special cards, offered at once; a game without any offers none.
    trick.deck = snapshot.table.rules.special_cards
    trick.specials = bool(trick.deck) and request.args.get("specials") != "0"
    # Only a round being played takes an answer: only then ask whether this browser keeps it.
    trick.keeper = view.state is RoundState.PLAYING and keeps_score(game_id)
    return _render(trick)
