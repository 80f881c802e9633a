"""The game object of API.md, its parts, and the bodies of the requests that write it."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ..rules import cards as rules_cards
from ..rules.cards import Suit, Turned
from ..rules.game import GameStatus, RoundState, RoundView
from ..rules.specials import CloudBid
from ..rules.table import MAX_PLAYERS, MIN_PLAYERS
from ..rules.variants import BidReveal, BidRule, GameRules, RoundPlan, Special

if TYPE_CHECKING:  # the snapshot is only read here; services need not be loaded first
    from ..services.loading import GameSnapshot

_SUITS: list[Any] = [suit.value for suit in Suit]
_TURNABLE = [t.value for t in Turned if t is not Turned.NONE]


class Model(BaseModel):
    """A closed object of the API: strict JSON types, no field it does not declare."""

    model_config = ConfigDict(strict=True, extra="forbid")


def timestamp(moment: datetime) -> str:
    """A time as the API writes it: UTC, to the second."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]


# -- Request bodies ------------------------------------------------------------------------
# The bodies check JSON types only; the values (a bid rule's name, a dealer's seat) are the
# rules' to refuse, in their words, after the token and the game are known.


class Rules(Model):
    """The options of a game (in a new game's body: each optional)."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    bid_rule: Annotated[
        str, WithJsonSchema({"enum": [r.value for r in BidRule], "default": "standard"})
    ] = "standard"
    last_bidder_may_bid_zero: bool = False
    bid_reveal: Annotated[
        str, WithJsonSchema({"enum": [r.value for r in BidReveal], "default": "open"})
    ] = "open"
    clairvoyance: bool = False
    rounds: int | None = Field(
        default=None,
        json_schema_extra={"minimum": 1},
        description="Rounds to play; default (or null) the full count of the round plan: "
        "60 / players, or with odd hands only every odd hand 60 cards deal.",
    )
    special_cards: list[
        Annotated[str, WithJsonSchema({"enum": [card.value for card in Special]})]
    ] = Field(
        default_factory=list,
        description="The special cards of the anniversary editions in the deck; default "
        "none. The Dragon and the Fairy go in together.",
    )
    round_plan: Annotated[
        str,
        WithJsonSchema({"enum": [plan.value for plan in RoundPlan], "default": "every_hand"}),
    ] = Field(
        default="every_hand",
        description='"every_hand": round r deals r cards; "odd_hands": round r deals 2r - 1 '
        "(1, 3, 5, …).",
    )

    @classmethod
    def of(cls, rules: GameRules) -> Rules:
        """A game's rules as the API writes them."""
        return cls(
            bid_rule=rules.bid_rule.value,
            last_bidder_may_bid_zero=rules.last_bidder_may_bid_zero,
            bid_reveal=rules.bid_reveal.value,
            clairvoyance=rules.clairvoyance,
            rounds=rules.rounds,
            special_cards=[card.value for card in rules.specials],
            round_plan=rules.round_plan.value,
        )


class CreateGameBody(Model):
    """A new game."""

    players: list[Annotated[str, Field(json_schema_extra={"minLength": 1, "pattern": "\\S"})]] = (
        Field(
            json_schema_extra={"minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS},
            description="Names in clockwise seat order: trimmed, 1 to 24 characters, "
            "unique regardless of case.",
        )
    )
    first_dealer: int | None = Field(
        default=None,
        json_schema_extra={"minimum": 0},
        description="The seat that deals round 1; omitted or null: drawn at random.",
    )
    rules: Rules | None = None


class TrumpBody(Model):
    """The card turned, and the suit the dealer chose under a Wizard."""

    # Strings the service checks, documented as the enums they must name.
    turned: Annotated[str, WithJsonSchema({"enum": _TURNABLE})] = Field(
        description='"bomb" (no trump) and "werewolf" (its holder names the trump) only '
        "when the game's deck has the card."
    )
    chosen: Annotated[str | None, WithJsonSchema({"enum": [*_SUITS, "none", None]})] = Field(
        default=None,
        description='The suit the dealer chose; only, and always, with "wizard". With '
        '"werewolf", always: the suit its holder named, or "none" for no trump.',
    )


class BidsBody(Model):
    """The bids so far."""

    bids: list[Annotated[int, Field(json_schema_extra={"minimum": 0})] | None] = Field(
        description="One bid per seat, in seat order; null: not bid yet."
    )


class Cloud(Model):
    """The Cloud's change: the seat that won the Cloud's trick and the bid it changed to."""

    seat: int = Field(ge=0)
    bid: int = Field(ge=0, description="The changed bid: one more or one less than the bid made.")

    @classmethod
    def of(cls, cloud: tuple[int, int] | None) -> Cloud | None:
        """The change, if there is one to show."""
        return None if cloud is None else cls(seat=cloud[0], bid=cloud[1])

    def rules(self) -> CloudBid:
        """The change as the rules take it."""
        return CloudBid(self.seat, self.bid)


class TricksBody(Model):
    """The tricks won."""

    tricks: list[Annotated[int, Field(json_schema_extra={"minimum": 0})]] = Field(
        description="The tricks each seat won, in seat order; they sum to the cards (minus "
        "one when the Bomb was played)."
    )
    bomb: bool = Field(default=False, description="The Bomb was played: its trick goes to nobody.")
    cloud: Cloud | None = Field(
        default=None,
        description="The Cloud's change of a bid; the round is scored on the changed bid.",
    )


class TallyBody(Model):
    """The winner of the next trick of the round."""

    winner: Annotated[int, Field(ge=0)] | None = Field(
        description="The seat that won the trick; null: nobody (only a Bomb's trick, where "
        "the game's deck holds one)."
    )


# -- The game object -----------------------------------------------------------------------


class Trump(Model):
    """The card turned and the trump suit it gives."""

    turned: Turned
    suit: Suit | None = Field(description="The trump suit; null: no trump.")

    @classmethod
    def of(cls, trump: rules_cards.TrumpCard | None) -> Trump | None:
        """The trump of a round, if it has one."""
        return None if trump is None else cls(turned=trump.turned, suit=trump.suit)


class Round(Model):
    """One round of the game object."""

    number: int = Field(ge=1)
    cards: int = Field(ge=1)
    dealer: int = Field(ge=0)
    bid_order: list[Annotated[int, Field(ge=0)]] = Field(
        description="Seats in bid order: left of the dealer first, the dealer last."
    )
    state: RoundState
    trump: Trump | None
    bids: list[int | None] | None = Field(
        description="null until started; hidden bids read null (covered: until every bid "
        "is in; secret: until the round is scored)."
    )
    has_bid: list[bool] | None = Field(
        description="Who has bid, in seat order, in every reveal mode."
    )
    forbidden_bid: int | None = Field(
        description="The one value the dealer may not bid now, else null; null too while "
        "the bids are hidden, since it would give away their sum."
    )
    tricks: list[int] | None
    tally: list[Annotated[int, Field(ge=0)] | None] = Field(
        description="The winner of each trick tallied so far, in the order they fell (a "
        "seat; null: nobody, a Bomb's trick); empty when the round is not tallied."
    )
    scores: list[int] | None = Field(
        description="Scored on the bids as the Cloud left them (``cloud``)."
    )
    bomb: bool = Field(
        default=False,
        description="The Bomb was played: the tricks add up to the cards minus one.",
    )
    cloud: Cloud | None = Field(
        default=None,
        description="The Cloud's change of a bid (the bid made stays in ``bids``); null "
        "while the bids are hidden.",
    )

    @classmethod
    def of(cls, view: RoundView) -> Round:
        """A round as the rules see it."""
        return cls(
            number=view.number,
            cards=view.cards,
            dealer=view.dealer,
            bid_order=list(view.bid_order),
            state=view.state,
            trump=Trump.of(view.trump),
            bids=None if view.shown_bids is None else list(view.shown_bids),
            has_bid=None if view.has_bid is None else list(view.has_bid),
            forbidden_bid=view.shown_forbidden_bid,
            tricks=None if view.tricks is None else list(view.tricks),
            scores=None if view.scores is None else list(view.scores),
            tally=list(view.tally),
            bomb=view.bomb,
            cloud=Cloud.of(view.cloud_bid),
        )


class Player(Model):
    """A player in a seat."""

    seat: int
    name: str


class Standing(Model):
    """One line of the standings."""

    seat: int
    name: str
    total: int
    rank: int = Field(ge=1, description="Competition ranking.")


class GameLinks(Model):
    """Where the game is."""

    self: str = Field(description="This game in the API.")
    view: str = Field(
        description="The spectator page: anyone with the game's id follows it there, live, "
        "read-only."
    )


class Game(Model):
    """The game object of API.md."""

    # Documented bounds, not checked on the way out: an answer is never refused.
    id: str = Field(json_schema_extra={"minLength": 22})
    version: int = Field(json_schema_extra={"minimum": 1})
    schema_version: Literal[1]
    created_at: Timestamp
    updated_at: Timestamp
    players: list[Player]
    first_dealer: int = Field(json_schema_extra={"minimum": 0})
    rules: Rules
    status: GameStatus
    current_round: int | None
    rounds: list[Round]
    totals: list[int]
    standings: list[Standing]
    winners: list[int]
    links: GameLinks

    @classmethod
    def of(cls, game: GameSnapshot, links: GameLinks) -> Game:
        """The game object of ``game``; ``links``: where it is (``scorekeeper.links``)."""
        view, table = game.view, game.table
        return cls(
            id=game.id,
            version=game.version,
            schema_version=1,
            created_at=timestamp(game.created_at),
            updated_at=timestamp(game.updated_at),
            players=[Player(seat=seat, name=name) for seat, name in enumerate(table.players)],
            first_dealer=table.first_dealer,
            rules=Rules.of(table.rules),
            status=view.status,
            current_round=view.current_round,
            rounds=[Round.of(round_view) for round_view in view.rounds],
            totals=list(view.totals),
            standings=[Standing(**asdict(standing)) for standing in view.standings],
            winners=list(view.winners),
            links=links,
        )


class CreatedGame(Game):
    """A new game: the game object with its edit token."""

    edit_token: str = Field(
        description="Only in the answer that creates the game: keep it, it is never shown again."
    )
