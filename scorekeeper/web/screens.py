"""What the pages show of a game, asked of the rules: the rows of buttons with the values the
rules allow, the refusals they would give, the trick hints. Templates only lay these out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import gettext, rule_message, suit_label
from ..rules import scoring, tally
from ..rules.bids import forbidden_bid, verify_bids
from ..rules.cards import Suit, TrumpCard, Turned
from ..rules.game import RoundState, RoundView
from ..rules.messages import BidError, TrickError
from ..rules.scoring import Placing, standings
from ..rules.specials import cloud_won_nothing, only_one_recorded
from ..rules.tricks import complete_draft, fill_tricks, verify_tricks
from ..rules.variants import BID_RULES, BidReveal, Special
from ..services import loading, rounds, undo
from . import chart

SUIT_SYMBOLS = {
    Suit.BLUE: "●",
    Suit.GREEN: "▲",
    Suit.RED: "■",
    Suit.YELLOW: "★",
}


@dataclass(frozen=True)
class NumberButton:
    """One number button: its value, whether it is the current one, whether the rules refuse it."""

    value: int
    current: bool = False
    refused: bool = False


#: Number buttons one line holds on a 360 px phone.
BUTTONS_PER_LINE = 6


@dataclass(frozen=True)
class Row:
    """One player's row of number buttons on the round screen."""

    seat: int
    name: str
    dealer: bool
    #: The bid as the screen may show it (``None``: not bid, or hidden).
    bid: int | None
    has_bid: bool
    choices: list[NumberButton]
    #: The sentence that says why a struck-out value is refused.
    reason: str | None = None
    #: The tricks were not tapped but filled in from the sum.
    filled: bool = False
    #: The player's value is in (tapped): the screen moves on to the next row.
    entered: bool = False
    #: The bid the Cloud changed the player's to (``None``: none, or the bids are hidden).
    cloud: int | None = None

    @property
    def per_line(self) -> int | None:
        """How many number buttons a line holds so that the lines come out even (round 6's
        seven as 4 and 3, not 6 and a lone 6); ``None`` when they fit on one line."""
        count = len(self.choices)
        if count <= BUTTONS_PER_LINE:
            return None
        lines = -(-count // BUTTONS_PER_LINE)
        return -(-count // lines)


def trump_label(trump: TrumpCard | None) -> str:
    """The trump in words: "red Dwarves", "no trump (a Jester was turned)", "yellow Giants,
    chosen by the dealer under a Wizard"."""
    if trump is None:
        return gettext("not recorded yet")
    if trump.suit is None:
        return {
            Turned.JESTER: gettext("no trump (a Jester was turned)"),
            Turned.BOMB: gettext("no trump (the Bomb was turned)"),
            Turned.WEREWOLF: gettext("no trump, named by the Werewolf's holder"),
        }.get(trump.turned, gettext("no trump (no card was left to turn)"))
    label = suit_label(trump.suit)
    if trump.turned is Turned.WIZARD:
        return gettext("%(suit)s, chosen by the dealer under a Wizard", suit=label)
    if trump.turned is Turned.WEREWOLF:
        return gettext("%(suit)s, named by the Werewolf's holder", suit=label)
    return label


def bid_rows(game: loading.GameSnapshot, number: int) -> list[Row]:
    """The players in bid order with the bids they may make. While the bids are hidden, who
    has bid but no number, and nothing struck out: that would give the hidden bids away."""
    view = game.view.round(number)
    seats = game.table.seats
    shown = view.shown_bids or (None,) * seats
    has_bid = view.has_bid or [False] * seats
    forbidden = view.shown_forbidden_bid
    reason = None
    if forbidden is not None:
        reason = _refusal(game, number, list(view.bids or (None,) * seats), forbidden)
    return [
        Row(
            seat=seat,
            name=game.table.players[seat],
            dealer=seat == view.dealer,
            bid=shown[seat],
            has_bid=has_bid[seat],
            choices=[
                NumberButton(
                    value, shown[seat] == value, seat == view.dealer and value == forbidden
                )
                for value in range(view.cards + 1)
            ],
            reason=reason if seat == view.dealer else None,
            entered=has_bid[seat],
        )
        for seat in view.bid_order
    ]


def trick_rows(game: loading.GameSnapshot, number: int) -> list[Row]:
    """The players in bid order with the tricks tapped in so far; the one missing count is
    filled in from the sum."""
    view = game.view.round(number)
    counts = game.counts(number)
    filled = fill_tricks(view.tricks_total, counts)
    shown = view.shown_bids or (None,) * game.table.seats
    return [
        Row(
            seat=seat,
            name=game.table.players[seat],
            dealer=seat == view.dealer,
            bid=shown[seat],
            has_bid=True,
            choices=[NumberButton(value, filled[seat] == value) for value in range(view.cards + 1)],
            filled=counts[seat] is None and filled[seat] is not None,
            entered=counts[seat] is not None,
            cloud=view.changed_bid(seat),
        )
        for seat in view.bid_order
    ]


def tricks_so_far(game: loading.GameSnapshot, number: int) -> int:
    """The tricks the round screen counts so far: those tapped in, else the tally's."""
    view = game.view.round(number)
    return tally.tricks_so_far(view.tricks_total, game.counts(number), view.tally)


def trick_hint(game: loading.GameSnapshot, number: int) -> str | None:
    """What keeps the round from being scored now, in one sentence (``None``: nothing)."""
    table, bomb = game.table, game.view.round(number).bomb
    try:
        tricks = complete_draft(table, number, game.counts(number), bomb=bomb)
        verify_tricks(table, number, tricks, bomb=bomb)
    except TrickError as error:
        return rule_message(error)
    return None


def can_all_make(game: loading.GameSnapshot, number: int) -> bool:
    """Whether "everyone (else) made their bid" is possible (and may be offered without
    giving hidden bids away)."""
    view = game.view.round(number)
    made = rounds.tapped_or_made(game, number) if view.bids_visible else None
    # The Cloud's winner took its trick: not everyone made it if that seat would have none.
    return made is not None and not cloud_won_nothing(view.cloud, made)


def leaders(game: loading.GameSnapshot) -> list[str]:
    """The names of the players sharing the lead, once a round is scored."""
    if not any(view.state is RoundState.SCORED for view in game.view.rounds):
        return []
    return [game.table.players[seat] for seat in scoring.leaders(game.view.totals)]


def winner_names(game: loading.GameSnapshot) -> list[str]:
    """The names of the winners once the game is over (several when they share the win)."""
    return [game.table.players[seat] for seat in game.view.winners]


@dataclass(frozen=True)
class Cell:
    """One player's line in one round of the sheet."""

    bid: int | None
    tricks: int | None
    score: int | None
    total: int | None
    dealer: bool
    #: The bid the Cloud changed it to (``None``: not changed, or hidden).
    cloud: int | None = None


@dataclass(frozen=True)
class SheetRow:
    """One round of the sheet."""

    view: RoundView
    cells: list[Cell]
    corrected: bool


def sheet_rows(game: loading.GameSnapshot) -> list[SheetRow]:
    """Every round × every player: bid, tricks, round score and running total."""
    seats = game.table.seats
    rows = []
    for view in game.view.rounds:
        shown = view.shown_bids or (None,) * seats
        totals = view.totals_after
        cells = [
            Cell(
                bid=shown[seat],
                tricks=view.tricks[seat] if view.tricks is not None else None,
                score=view.scores[seat] if view.scores is not None else None,
                total=totals[seat] if totals is not None else None,
                dealer=seat == view.dealer,
                cloud=view.changed_bid(seat),
            )
            for seat in range(seats)
        ]
        rows.append(SheetRow(view=view, cells=cells, corrected=view.number in game.corrected))
    return rows


def standings_after(game: loading.GameSnapshot, number: int) -> list[Placing]:
    """The standings as they were once round ``number`` was scored."""
    view = game.view.round(number)
    totals = view.totals_after if view.totals_after is not None else view.totals_before
    return standings(game.table.players, totals)


@dataclass(frozen=True)
class Forbidden:
    """The dealer's bid the rules forbid, given the other bids chosen, and why."""

    seat: int
    bid: int
    reason: str


def forbidden_in_correction(
    game: loading.GameSnapshot, number: int, bids: Sequence[int | None]
) -> Forbidden | None:
    """On the correction form: the bid the dealer may not make with the others' bids as chosen."""
    view = game.view.round(number)
    table = game.table
    if len(bids) != table.seats:
        return None
    value = forbidden_bid(table, number, bids, view.totals_before)
    if value is None:
        return None
    reason = _refusal(game, number, bids, value)
    return Forbidden(seat=view.dealer, bid=value, reason=reason) if reason else None


def _refusal(
    game: loading.GameSnapshot, number: int, bids: Sequence[int | None], dealer_bid: int
) -> str | None:
    """Why the rules refuse the dealer ``dealer_bid`` beside the others' ``bids``, if they do
    (the sentence is about that bid, not the bids as chosen)."""
    view = game.view.round(number)
    trial = list(bids)
    trial[view.dealer] = dealer_bid
    try:
        verify_bids(game.table, number, trial, view.totals_before, hidden=not view.bids_visible)
    except BidError as error:
        return rule_message(error)
    return None


def score_chart(game: loading.GameSnapshot) -> chart.Chart:
    """The running totals of every player after each scored round, as a chart."""
    totals = [view.totals_after for view in game.view.rounds if view.totals_after is not None]
    return chart.score_chart(game.table.players, totals, game.table.rules.rounds)


# -- Undo and redo -------------------------------------------------------------------------


@dataclass(frozen=True)
class UndoButtons:
    """The round screen's undo and redo buttons: what each would take or put back."""

    undo: str | None
    redo: str | None


def reversible(game: loading.GameSnapshot) -> UndoButtons:
    """What one tap can undo or redo now, in words (``None``: no such button)."""
    found = undo.reversible(game)
    return UndoButtons(
        undo=change_words(game, found.undo) if found.undo else None,
        redo=change_words(game, found.redo) if found.redo else None,
    )


def change_words(game: loading.GameSnapshot, step: undo.Step) -> str:
    """The change as a phrase: "Ute's bid in round 3", "Ute's tricks in round 3"."""
    number = step.round
    name = None if step.seat is None else game.table.players[step.seat]
    if step.kind == "trump":
        return gettext("the trump of round %(round)d", round=number)
    if step.kind == "draft" and name is not None:
        return gettext("%(name)s's tricks in round %(round)d", name=name, round=number)
    if step.kind == "bids" and name is not None:
        return gettext("%(name)s's bid in round %(round)d", name=name, round=number)
    if step.kind == "bids":
        return gettext("the bids of round %(round)d", round=number)
    if step.kind == "tally":
        trick = len(step.new.tally)
        return gettext("trick %(trick)d of round %(round)d", trick=trick, round=number)
    if step.kind == "correction":
        return gettext("the correction of round %(round)d", round=number)
    if step.kind == "specials":  # named by what the change wrote, else as the deck has them
        bomb, cloud = step.old.bomb != step.new.bomb, step.old.cloud != step.new.cloud
        only = Special.BOMB if bomb and not cloud else Special.CLOUD if cloud and not bomb else None
        only = only or only_one_recorded(game.table)
        if only is Special.BOMB:
            return gettext("the Bomb in round %(round)d", round=number)
        if only is Special.CLOUD:
            return gettext("the Cloud in round %(round)d", round=number)
        return gettext("the Bomb or the Cloud in round %(round)d", round=number)
    return gettext("the scoring of round %(round)d", round=number)


def reversed_sentence(game: loading.GameSnapshot, step: undo.Step, *, redone: bool) -> str:
    """What an undo (or redo) just did, said once on the screen it leads to."""
    what = change_words(game, step)
    if redone:
        return gettext("Redone: %(what)s.", what=what)
    return gettext("Undone: %(what)s.", what=what)


def previous_result(
    game: loading.GameSnapshot, number: int, step: str, *, wizard: bool
) -> RoundView | None:
    """The round before, scored, whose points round ``number`` shows while nothing of it is
    recorded yet (its first step: the trump, or the bids of the round without trump)."""
    view = game.view.round(number)
    if number == 1 or wizard or step not in ("trump", "bids") or any(view.has_bid or ()):
        return None
    if view.trump is not None and not game.table.deals_every_card(number):
        return None
    return game.view.round(number - 1)


def variant_summary(game: loading.GameSnapshot) -> str:
    """The game's bid rule and how its bids are shown, in a few words ("Canadian · covered
    bids"), to tell games of the same table apart."""
    rules = game.table.rules
    return f"{gettext(BID_RULES[rules.bid_rule].title)} · {reveal_words(rules.bid_reveal)}"


def reveal_words(reveal: BidReveal) -> str:
    """How the bids are shown, in two words ("covered bids")."""
    return {
        BidReveal.OPEN: gettext("open bids"),
        BidReveal.COVERED: gettext("covered bids"),
        BidReveal.SECRET: gettext("secret bids"),
    }[reveal]
