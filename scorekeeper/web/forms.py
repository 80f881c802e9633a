"""WTForms for the pages. They parse what the browser sends; the rules decide what is allowed
(the service asks them), so no rule is restated here."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, NumberRange, Optional

from ..rules.table import MAX_PLAYERS, MIN_PLAYERS
from ..rules.variants import BidReveal, BidRule, RoundPlan, Special

#: The new-game form's boxes for the deck: one for the Dragon and the Fairy, which go together.
DECK_CHOICES = (
    (Special.BOMB.value, _l("Bomb: its trick goes to nobody")),
    (Special.CLOUD.value, _l("Cloud: whoever wins its trick changes their bid by one")),
    (Special.WEREWOLF.value, _l("Werewolf: its holder names the trump")),
    (Special.JUGGLER.value, _l("Juggler")),
    (Special.DRAGON.value, _l("Dragon and Fairy")),
    (Special.SHAPESHIFTER.value, _l("Shapeshifter")),
)
PLAN_CHOICES = (
    (RoundPlan.EVERY_HAND.value, _l("Every hand: 1, 2, 3, … cards")),
    (RoundPlan.ODD_HANDS.value, _l("Odd hands only: 1, 3, 5, … cards")),
)
RANDOM_DEALER = "random"
FULL_GAME = "full"


def small_number(value: str | None) -> int | None:
    """A small number in ASCII digits, as the page sends it; anything else is ``None``."""
    if value and value.isascii() and value.isdigit() and len(value) <= 3:
        return int(value)
    return None


class NewGameForm(FlaskForm):  # type: ignore[misc]
    """A new game: the names by seat, the first dealer and the variant."""

    names = FieldList(
        StringField(_l("Name")),
        min_entries=MIN_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    first_dealer = RadioField(_l("First dealer"), default=RANDOM_DEALER, validate_choice=False)
    bid_rule = RadioField(
        _l("Bid rule"),
        choices=[SelectChoice(rule.value) for rule in BidRule],
        default=BidRule.STANDARD.value,
    )
    last_bidder_may_bid_zero = BooleanField(_l("The dealer may always bid 0"))
    bid_reveal = RadioField(
        _l("Bids are shown"),
        choices=[SelectChoice(reveal.value) for reveal in BidReveal],
        default=BidReveal.OPEN.value,
    )
    clairvoyance = BooleanField(_l("Clairvoyance in round 1"))
    rounds = SelectField(_l("Rounds"), default=FULL_GAME, validate_choice=False)
    special_cards = SelectMultipleField(
        _l("Special cards"), choices=[SelectChoice(card.value) for card in Special], default=[]
    )
    round_plan = RadioField(
        _l("Round plan"),
        choices=[SelectChoice(plan.value) for plan in RoundPlan],
        default=RoundPlan.EVERY_HAND.value,
    )

    def specials(self) -> list[str]:
        """The special cards chosen: the page's one box for the Dragon puts in the Fairy too."""
        chosen = list(self.special_cards.data or [])
        together = Special.DRAGON in chosen and Special.FAIRY not in chosen
        return [*chosen, Special.FAIRY] if together else chosen

    def plan(self) -> RoundPlan:
        """The round plan chosen (every hand unless it is one the page offers)."""
        data = self.round_plan.data
        return RoundPlan(data) if data in set(RoundPlan) else RoundPlan.EVERY_HAND

    def seat_names(self) -> list[str]:
        """The names as typed, seat by seat."""
        return [entry.data or "" for entry in self.names.entries]

    def dealer_seat(self) -> int | None:
        """The chosen first dealer, or ``None`` to draw one at random."""
        seat = small_number(self.first_dealer.data)
        return seat if seat is not None and seat < len(self.names.entries) else None

    def round_count(self) -> int | None:
        """The rounds chosen, or ``None`` for the full game."""
        return small_number(self.rounds.data)


class VersionedForm(FlaskForm):  # type: ignore[misc]
    """Every write from a page says which version of the game the page showed."""

    version = IntegerField(validators=[InputRequired()])


class TrumpForm(VersionedForm):
    """The card turned, and the dealer's suit under a Wizard."""

    turned = HiddenField(validators=[InputRequired()])
    chosen = HiddenField(validators=[Optional()])


class SeatForm(VersionedForm):
    """One player's bid or tricks; an empty value clears it."""

    seat = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    value = IntegerField(validators=[Optional()])


class SpecialForm(VersionedForm):
    """A tap on the Bomb's toggle ("1" played, "0" not) or the Cloud's buttons ("2:up",
    "2:down" for seat 2, "none" to take the change back)."""

    value = StringField(validators=[InputRequired()])
