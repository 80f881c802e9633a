"""The referee's request (a trick's cards in play order, the trump, the reading) and its
answer (who wins, who leads next, and why). Anonymous, and nothing is recorded."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, WithJsonSchema

from ..rules.cards import Suit
from ..rules.judge import CARD_KINDS, SHAPES, Reading, Reason
from ..rules.table import MAX_PLAYERS
from .games import Model

_SUITS: list[Any] = [suit.value for suit in Suit]
# The Werewolf is a card of the deck, but never of a trick: the rules refuse it by name.
_KINDS = [kind.value for kind in CARD_KINDS]


class CardBody(Model):
    """One card as played. The values are the rules' to refuse, in their words."""

    kind: Annotated[str, WithJsonSchema({"enum": _KINDS})] = Field(
        description="suited (give suit and number), wizard, jester, or a special card."
    )
    suit: Annotated[str | None, WithJsonSchema({"enum": [*_SUITS, None]})] = Field(
        default=None,
        description="A suited card's suit; the suit named for a cloud (9¾) or a juggler (7½).",
    )
    number: Annotated[int | None, WithJsonSchema({"type": ["integer", "null"]})] = Field(
        default=None, description="A suited card's number, 1 to 13."
    )
    played_as: Annotated[
        str | None, WithJsonSchema({"enum": [*(kind.value for kind in sorted(SHAPES)), None]})
    ] = Field(default=None, description="What the shapeshifter is played as: wizard or jester.")


class RefereeBody(Model):
    """A trick to judge."""

    trump: Annotated[str | None, WithJsonSchema({"enum": [*_SUITS, None]})] = Field(
        description="The trump suit; null: no trump."
    )
    reading: Annotated[
        str, WithJsonSchema({"enum": [r.value for r in Reading], "default": "standard"})
    ] = Field(
        default="standard",
        description="standard; or house: a trump as the trick's first suited card makes the "
        "Wizards worthless unless a Wizard led.",
    )
    cards: list[CardBody] = Field(
        json_schema_extra={"minItems": 1, "maxItems": MAX_PLAYERS},
        description="The cards in play order, the lead first; a trick in progress is judged "
        "as it stands.",
    )
    players: list[str] | None = Field(
        default=None,
        json_schema_extra={"maxItems": MAX_PLAYERS},
        description="The players' names in play order, the leader first, at least one per "
        "card; the sentence names them (else: Player 1, Player 2, …).",
    )


class Judgement(Model):
    """Who takes the trick, who leads next, and why."""

    winner: int | None = Field(
        description="The winning card's position in play order (0: the lead); null: the "
        "Bomb's trick, won by nobody."
    )
    leads_next: int = Field(
        description="The position that leads the next trick: the winner, or after a Bomb "
        "who would have won without it."
    )
    reason: Reason
    message: str = Field(description="Why, in one sentence, in the request's language.")
