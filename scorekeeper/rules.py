"""The rules of Wizard that the Tablet of Truth keeps, as written in RULES.md.

Pure Python: nothing here knows of Flask, SQLAlchemy or HTTP. The service layer feeds
it the recorded facts (trump, bids, tricks) and asks it whether a new fact is allowed
and what the facts add up to (scores, totals, standings, winners). Every refusal is a
:class:`RuleError` whose message says, in one sentence, what is wrong and what is allowed.
Messages are kept as untranslated templates with their parameters, so the web layer can
translate them; ``str(error)`` gives the English sentence.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Final

DECK_SIZE: Final = 60
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 6
NAME_MAX_LENGTH: Final = 24
EXACT_BID_BONUS: Final = 20
POINTS_PER_TRICK: Final = 10


def _(message: str) -> str:
    """Mark a message for translation; the web layer translates it when it is shown."""
    return message


def _n(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for translation (extracted as ``_n:1,2``)."""
    return singular, plural


Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


class RuleError(ValueError):
    """A fact the rules forbid.

    ``message`` (a pair from :func:`_n` when the sentence depends on the number ``num``) is
    an untranslated template with ``%(name)s`` placeholders filled from ``params``; ``field``
    names the offending input (``"bids[2]"``) when there is one. ``note`` is said in
    brackets at the sentence's end: why a variant's rule applies here.
    """

    def __init__(
        self,
        message: str | tuple[str, str],
        /,
        *,
        field: str | None = None,
        num: int | None = None,
        note: str | None = None,
        **params: object,
    ) -> None:
        if isinstance(message, tuple):
            self.message, plural = message
            self.plural: str | None = plural
        else:
            self.message, self.plural = message, None
        self.num = num
        self.field = field
        self.note = note
        self.params: dict[str, object] = params
        super().__init__(self.render())

    def render(
        self,
        gettext: Gettext | None = None,
        ngettext: Ngettext | None = None,
        **shown: object,
    ) -> str:
        """The sentence, translated by the given functions (English without them); ``shown``
        replaces parameters by the words a page shows for them (a suit's name for its key)."""
        if self.plural is not None and self.num is not None:
            if ngettext is not None:
                template = ngettext(self.message, self.plural, self.num)
            else:
                template = self.message if self.num == 1 else self.plural
                template = gettext(template) if gettext is not None else template
        else:
            template = gettext(self.message) if gettext is not None else self.message
        sentence = template % {"num": self.num, **self.params, **shown}
        if self.note is None:
            return sentence
        # Said in brackets before the sentence's last mark: a refusal stays one sentence.
        note = gettext(self.note) if gettext is not None else self.note
        sentence = sentence.rstrip()
        end = sentence[-1:] if sentence[-1:] in ".!?…" else ""
        return f"{sentence.removesuffix(end)} ({note}){end}"


class SetupError(RuleError):
    """The game cannot be set up this way (players, names, dealer, rules)."""


class TrumpError(RuleError):
    """The trump given is not one the rules allow."""


class BidError(RuleError):
    """A bid the rules forbid."""


class TrickError(RuleError):
    """Trick counts the rules forbid."""


class OutOfTurnError(RuleError):
    """The fact comes before its time: an earlier round or step is not done yet."""


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


class RoundState(StrEnum):
    """Where a round stands."""

    WAITING = "waiting"  # an earlier round is not scored
    TRUMP = "trump"  # the trump is to be recorded
    BIDDING = "bidding"  # not every bid is in
    PLAYING = "playing"  # every bid is in, the tricks are not
    SCORED = "scored"  # the tricks are in


class GameStatus(StrEnum):
    """Whether every round is scored."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"


# -- Bid rules: a registry of small policies, looked up by name ---------------------------


@dataclass(frozen=True)
class BidRulePolicy:
    """How a bid rule restricts the dealer, who bids last."""

    name: ClassVar[BidRule]
    title: ClassVar[str]
    summary: ClassVar[str]
    #: Said with a refusal of the dealer's bid when the rule holds only in some rounds: why
    #: it holds in this one (``None``: it always holds).
    refusal_note: ClassVar[str | None] = None

    def restricts(self, *, dealer_leads_outright: bool) -> bool:
        """Whether the dealer may not make the bids add up to the cards this round."""
        raise NotImplementedError

    def zero_always_allowed(self, *, last_bidder_may_bid_zero: bool) -> bool:
        """Whether the dealer may bid 0 even when 0 makes the total equal the cards."""
        raise NotImplementedError


@dataclass(frozen=True)
class StandardRule(BidRulePolicy):
    """Any bids; the total may be anything."""

    name: ClassVar[BidRule] = BidRule.STANDARD
    title: ClassVar[str] = _("Standard")
    summary: ClassVar[str] = _("Any bids: the total may be anything.")

    def restricts(self, *, dealer_leads_outright: bool) -> bool:
        return False

    def zero_always_allowed(self, *, last_bidder_may_bid_zero: bool) -> bool:
        return True


@dataclass(frozen=True)
class PlusMinusOneRule(BidRulePolicy):
    """The bids may never add up to the cards; the dealer, bidding last, is restricted."""

    name: ClassVar[BidRule] = BidRule.PLUS_MINUS_ONE
    title: ClassVar[str] = _("Plus/Minus One")
    summary: ClassVar[str] = _(
        "The bids may not add up to the cards dealt, so someone must miss: the dealer, "
        "bidding last, may not make them add up."
    )

    def restricts(self, *, dealer_leads_outright: bool) -> bool:
        return True

    def zero_always_allowed(self, *, last_bidder_may_bid_zero: bool) -> bool:
        return last_bidder_may_bid_zero


@dataclass(frozen=True)
class CanadianRule(BidRulePolicy):
    """Plus/Minus One, but only for a dealer who leads outright, and 0 is always allowed."""

    name: ClassVar[BidRule] = BidRule.CANADIAN
    title: ClassVar[str] = _("Canadian")
    summary: ClassVar[str] = _(
        "A dealer who leads the standings alone may not make the bids add up to the "
        "cards dealt, but may always bid 0."
    )
    refusal_note: ClassVar[str | None] = _("Canadian rule: the dealer leads the standings alone")

    def restricts(self, *, dealer_leads_outright: bool) -> bool:
        return dealer_leads_outright

    def zero_always_allowed(self, *, last_bidder_may_bid_zero: bool) -> bool:
        return True


BID_RULES: Final[Mapping[BidRule, BidRulePolicy]] = {
    policy.name: policy for policy in (StandardRule(), PlusMinusOneRule(), CanadianRule())
}


def parse_bid_rule(name: str) -> BidRule:
    """The bid rule called ``name``, or a :class:`SetupError` that lists the choices."""
    try:
        return BidRule(name)
    except ValueError:
        raise SetupError(
            _("The bid rule is one of %(allowed)s, not “%(value)s”."),
            field="rules.bid_rule",
            allowed=", ".join(BidRule),
            value=name,
        ) from None


def parse_bid_reveal(name: str) -> BidReveal:
    """The reveal mode called ``name``, or a :class:`SetupError` that lists the choices."""
    try:
        return BidReveal(name)
    except ValueError:
        raise SetupError(
            _("The bid reveal is one of %(allowed)s, not “%(value)s”."),
            field="rules.bid_reveal",
            allowed=", ".join(BidReveal),
            value=name,
        ) from None


def bid_rule_policy(name: str) -> BidRulePolicy:
    """The policy of the bid rule called ``name``."""
    try:
        return BID_RULES[BidRule(name)]
    except ValueError:
        raise ValueError(f"unsupported bid rule: {name!r}") from None


# -- Setting up a game ---------------------------------------------------------------------


def full_game_rounds(players: int) -> int:
    """Rounds in a full game: the last one deals every card (3: 20, 4: 15, 5: 12, 6: 10)."""
    verify_player_count(players)
    return DECK_SIZE // players


def verify_player_count(players: int) -> None:
    """Raise unless 3 to 6 play."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(
            _("Wizard is played by %(min)d to %(max)d players, not %(players)d."),
            field="players",
            min=MIN_PLAYERS,
            max=MAX_PLAYERS,
            players=players,
        )


def fold_case(value: str) -> str:
    """``value`` in lower case as ``database.folded`` gives a name in the database, on
    SQLite and on PostgreSQL alike: letter by letter, so the Turkish "İ" is "i" (not
    Python's "i" with a combining dot), and a Greek sigma is "σ" wherever it stands (Python
    and a phone's keyboard write "ς" at a word's end)."""
    return value.replace("İ", "i").lower().replace("ς", "σ")


def clean_names(names: Sequence[str]) -> tuple[str, ...]:
    """The players' names trimmed, after checking count, length and uniqueness."""
    verify_player_count(len(names))
    # NFC, so "José" typed two ways is one name, of the length it looks.
    cleaned = tuple(unicodedata.normalize("NFC", name).strip() for name in names)
    seen: dict[str, int] = {}
    for seat, name in enumerate(cleaned):
        where = f"players[{seat}]"
        if not name:
            raise SetupError(
                _(
                    "Player %(number)d has no name: give every player a name of 1 to %(max)d "
                    "characters."
                ),
                field=where,
                number=seat + 1,
                max=NAME_MAX_LENGTH,
            )
        if not name.isprintable():
            raise SetupError(
                _(
                    "The name of player %(number)d contains a character that cannot be shown: "
                    "use letters, digits, spaces and punctuation."
                ),
                field=where,
                number=seat + 1,
            )
        if len(name) > NAME_MAX_LENGTH:
            raise SetupError(
                _("The name %(name)s is too long: a name has at most %(max)d characters."),
                field=where,
                name=name,
                max=NAME_MAX_LENGTH,
            )
        # Names the statistics and the search take for one (fold_case) are one here too.
        key = fold_case(name).casefold()
        if key in seen:
            first = cleaned[seen[key]]
            if first != name:  # "Ann" and "ann": say both, as typed
                raise SetupError(
                    _(
                        "“%(first)s” and “%(second)s” count as one name: give every player a "
                        "different name."
                    ),
                    field=where,
                    first=first,
                    second=name,
                )
            raise SetupError(
                _("Two players are called “%(name)s”: give every player a different name."),
                field=where,
                name=name,
            )
        seen[key] = seat
    return cleaned


def verify_rounds(rounds: int, players: int) -> None:
    """Raise unless ``rounds`` lies between 1 and the full game's count."""
    full = full_game_rounds(players)
    if not 1 <= rounds <= full:
        raise SetupError(
            _("A game of %(players)d players has 1 to %(full)d rounds, not %(rounds)d."),
            field="rules.rounds",
            players=players,
            full=full,
            rounds=rounds,
        )


def verify_first_dealer(seat: int, players: int) -> None:
    """Raise unless ``seat`` is one of the table's seats."""
    if not 0 <= seat < players:
        raise SetupError(
            _("The first dealer is a seat from 0 to %(last)d, not %(seat)d."),
            field="first_dealer",
            last=players - 1,
            seat=seat,
        )


@dataclass(frozen=True)
class GameRules:
    """The variant a table chose; ``rounds`` is the number of rounds to play."""

    rounds: int
    bid_rule: BidRule = BidRule.STANDARD
    last_bidder_may_bid_zero: bool = False
    bid_reveal: BidReveal = BidReveal.OPEN
    clairvoyance: bool = False

    @property
    def policy(self) -> BidRulePolicy:
        """The bid rule's policy."""
        return BID_RULES[self.bid_rule]


@dataclass(frozen=True)
class Table:
    """Who plays, in clockwise seat order, who dealt first, and the rules."""

    players: tuple[str, ...]
    first_dealer: int
    rules: GameRules

    def __post_init__(self) -> None:
        verify_player_count(len(self.players))
        verify_first_dealer(self.first_dealer, len(self.players))
        verify_rounds(self.rules.rounds, len(self.players))

    @property
    def seats(self) -> int:
        """How many play."""
        return len(self.players)

    def dealer(self, round_number: int) -> int:
        """The seat that deals round ``round_number``: the deal passes to the left."""
        return dealer(self.first_dealer, round_number, self.seats)

    def bid_order(self, round_number: int) -> list[int]:
        """Seats in bid order: left of the dealer first, the dealer last."""
        return bid_order(self.dealer(round_number), self.seats)

    def deals_every_card(self, round_number: int) -> bool:
        """Whether the round deals all 60 cards, leaving no card to turn for trump."""
        return deals_every_card(round_number, self.seats)


def cards_in_round(round_number: int) -> int:
    """Round r deals r cards to each player."""
    return round_number


def dealer(first_dealer: int, round_number: int, players: int) -> int:
    """``dealer(r) = (first_dealer + r - 1) mod players``."""
    return (first_dealer + round_number - 1) % players


def bid_order(dealer_seat: int, players: int) -> list[int]:
    """``[dealer+1, dealer+2, ..., dealer]`` (mod players): the dealer bids last."""
    return [(dealer_seat + offset) % players for offset in range(1, players + 1)]


def deals_every_card(round_number: int, players: int) -> bool:
    """Whether round ``round_number`` deals all 60 cards."""
    return cards_in_round(round_number) * players == DECK_SIZE


# -- Trump ---------------------------------------------------------------------------------


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


# -- Scoring -------------------------------------------------------------------------------


def score(bid: int, tricks: int) -> int:
    """Exact bid: 20 + 10 per trick; missed bid: -10 per trick off."""
    if bid == tricks:
        return EXACT_BID_BONUS + POINTS_PER_TRICK * tricks
    return -POINTS_PER_TRICK * abs(bid - tricks)


def round_scores(bids: Sequence[int], tricks: Sequence[int]) -> list[int]:
    """Each player's score for one round, in seat order."""
    return [score(b, t) for b, t in zip(bids, tricks, strict=True)]


def running_totals(scores: Sequence[Sequence[int]], players: int) -> list[list[int]]:
    """The totals after each round, in seat order."""
    totals = [0] * players
    history = []
    for row in scores:
        totals = [t + s for t, s in zip(totals, row, strict=True)]
        history.append(totals)
    return history


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``rank`` is competition ranking (1, 2, 2, 4)."""

    seat: int
    name: str
    total: int
    rank: int


def standings(names: Sequence[str], totals: Sequence[int]) -> list[Standing]:
    """Players by total, highest first; ties share a rank and keep seat order."""
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    result: list[Standing] = []
    for position, seat in enumerate(order):
        tied = bool(result) and result[-1].total == totals[seat]
        rank = result[-1].rank if tied else position + 1
        result.append(Standing(seat, names[seat], totals[seat], rank))
    return result


def leaders(totals: Sequence[int]) -> list[int]:
    """The seats sharing the top total."""
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]


# -- Bids ----------------------------------------------------------------------------------


def forbidden_bid(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
) -> int | None:
    """The one bid the dealer may not make, once every other bid is in; else ``None``.

    ``totals_before`` are the totals before this round (the canadian rule asks whether
    the dealer leads them outright).
    """
    dealer_seat = table.dealer(round_number)
    others = [bid for seat, bid in enumerate(bids) if seat != dealer_seat]
    if any(bid is None for bid in others):
        return None
    rules = table.rules
    leads = leaders(totals_before) == [dealer_seat]
    if not rules.policy.restricts(dealer_leads_outright=leads):
        return None
    cards = cards_in_round(round_number)
    value = cards - sum(bid for bid in others if bid is not None)
    if value < 0:
        return None
    if value == 0 and rules.policy.zero_always_allowed(
        last_bidder_may_bid_zero=rules.last_bidder_may_bid_zero
    ):
        return None
    return value


def verify_bid_range(table: Table, round_number: int, seat: int, bid: int) -> None:
    """Raise unless ``bid`` lies between 0 and the cards in hand."""
    cards = cards_in_round(round_number)
    if not 0 <= bid <= cards:
        raise BidError(
            _("In round %(round)d %(name)s can bid 0 to %(cards)d, not %(bid)d."),
            field=f"bids[{seat}]",
            round=round_number,
            name=table.players[seat],
            cards=cards,
            bid=bid,
        )


def _verify_one_per_seat(table: Table, bids: Sequence[int | None]) -> None:
    if len(bids) != table.seats:
        raise BidError(
            _("Give one bid for each of the %(players)d players, in seat order, not %(given)d."),
            field="bids",
            players=table.seats,
            given=len(bids),
        )


def verify_bids(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
    *,
    hidden: bool = False,
) -> None:
    """Raise unless every bid given is allowed; the bid rule is checked once all are in.

    ``hidden``: the table cannot see the bids now (covered bids before they are all in,
    secret bids before the round is scored), so a refusal must not name the dealer's bid.
    """
    _verify_one_per_seat(table, bids)
    for seat, bid in enumerate(bids):
        if bid is not None:
            verify_bid_range(table, round_number, seat, bid)
    dealer_seat = table.dealer(round_number)
    dealer_bid = bids[dealer_seat]
    if dealer_bid is None:
        return
    if dealer_bid == forbidden_bid(table, round_number, bids, totals_before):
        cards = cards_in_round(round_number)
        if hidden:
            # Say what the rule forbids without naming the dealer's bid. Once the bids are
            # shown (covered ones in play, any on the correction of a scored round), the
            # dealer's bid is named: the sentence is then about the bid the table sees.
            raise BidError(
                _n(
                    "These bids would add up to the %(num)d trick of this round, which the "
                    "bid rule forbids: %(name)s, who deals, must bid something else.",
                    "These bids would add up to the %(num)d tricks of this round, which the "
                    "bid rule forbids: %(name)s, who deals, must bid something else.",
                ),
                num=cards,
                field=f"bids[{dealer_seat}]",
                note=table.rules.policy.refusal_note,
                name=table.players[dealer_seat],
            )
        raise BidError(
            _n(
                "%(name)s deals and may not bid %(bid)d: the bids would add up to the "
                "%(num)d trick of this round.",
                "%(name)s deals and may not bid %(bid)d: the bids would add up to "
                "the %(num)d tricks of this round.",
            ),
            num=cards,
            field=f"bids[{dealer_seat}]",
            note=table.rules.policy.refusal_note,
            name=table.players[dealer_seat],
            bid=dealer_bid,
        )


@dataclass(frozen=True)
class BidChange:
    """The bids once one player's bid is changed, and why the dealer's bid was taken back
    when the change left it forbidden (``None``: it was not)."""

    bids: tuple[int | None, ...]
    #: The dealer's bid refused beside the new one, told at the seat that changed.
    dealer_bids_again: BidError | None = None


def bids_visible(reveal: BidReveal, state: RoundState) -> bool:
    """Whether the table sees a round's bids in this state.

    Open: always. Covered: once every bid is in. Secret: once the round is scored.
    """
    if reveal is BidReveal.OPEN:
        return True
    if reveal is BidReveal.COVERED:
        return state in (RoundState.PLAYING, RoundState.SCORED)
    return state is RoundState.SCORED


def change_bid(game: GameView, round_number: int, seat: int, bid: int | None) -> BidChange:
    """The bids of a round not yet scored once ``seat`` bids ``bid`` (``None``: takes it back),
    or the refusal.

    The restriction falls on the dealer: when another player's new bid leaves the dealer's
    bid forbidden (the bids would add up to the cards), the new bid stands and the dealer's
    bid is taken back, for the dealer to bid again, as the table does when bids are revealed
    together. Refusing the new bid instead would leave the Confidant no way to record it
    before the dealer's (which the bids as they stand may forbid in turn).
    """
    view = game.round(round_number)
    table = game.table
    bids = list(view.bids or (None,) * table.seats)
    bids[seat] = bid
    dealer_seat = view.dealer
    dealer_bid = bids[dealer_seat]
    again = None
    if (
        seat != dealer_seat
        and bid is not None
        and dealer_bid is not None
        and dealer_bid == forbidden_bid(table, round_number, bids, view.totals_before)
    ):
        # With the dealer's bid taken back the round is bidding again (covered bids hide).
        hidden = not bids_visible(table.rules.bid_reveal, RoundState.BIDDING)
        again = _dealer_bids_again(table, round_number, seat, bid, dealer_bid, hidden=hidden)
        bids[dealer_seat] = None
    verify_bids_turn(game, round_number, bids)
    return BidChange(tuple(bids), again)


def _dealer_bids_again(
    table: Table, round_number: int, seat: int, bid: int, dealer_bid: int, *, hidden: bool
) -> BidError:
    dealer_seat = table.dealer(round_number)
    cards = cards_in_round(round_number)
    if hidden:
        return BidError(
            _n(
                "%(name)s's bid is saved, but with it the bids would add up to the %(num)d "
                "trick of this round, which the bid rule forbids: %(dealer)s, who deals, "
                "must bid again.",
                "%(name)s's bid is saved, but with it the bids would add up to the %(num)d "
                "tricks of this round, which the bid rule forbids: %(dealer)s, who deals, "
                "must bid again.",
            ),
            num=cards,
            field=f"bids[{seat}]",
            note=table.rules.policy.refusal_note,
            name=table.players[seat],
            dealer=table.players[dealer_seat],
        )
    return BidError(
        _n(
            "%(name)s now bids %(bid)d, so %(dealer)s, who deals, may not keep %(old)d (the "
            "bids would add up to the %(num)d trick of this round) and must bid again.",
            "%(name)s now bids %(bid)d, so %(dealer)s, who deals, may not keep %(old)d (the "
            "bids would add up to the %(num)d tricks of this round) and must bid again.",
        ),
        num=cards,
        field=f"bids[{seat}]",
        note=table.rules.policy.refusal_note,
        name=table.players[seat],
        bid=bid,
        dealer=table.players[dealer_seat],
        old=dealer_bid,
    )


def can_bid(
    table: Table,
    round_number: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
) -> bool:
    """Whether :func:`verify_bids` accepts these bids."""
    try:
        verify_bids(table, round_number, bids, totals_before)
    except BidError:
        return False
    return True


def allowed_bids(
    table: Table,
    round_number: int,
    seat: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
) -> list[int]:
    """The bids ``seat`` may make, given the others' bids so far."""
    candidates = []
    for value in range(cards_in_round(round_number) + 1):
        trial = list(bids)
        trial[seat] = value
        if can_bid(table, round_number, trial, totals_before):
            candidates.append(value)
    return candidates


# -- Tricks --------------------------------------------------------------------------------


def verify_tricks(table: Table, round_number: int, tricks: Sequence[int]) -> None:
    """Raise unless each count lies in 0 ... r and they sum to the r tricks of the round."""
    cards = cards_in_round(round_number)
    if len(tricks) != table.seats:
        raise TrickError(
            _("Give the tricks of each of the %(players)d players, in seat order, not %(given)d."),
            field="tricks",
            players=table.seats,
            given=len(tricks),
        )
    for seat, count in enumerate(tricks):
        verify_trick_count(table, round_number, seat, count)
    total = sum(tricks)
    if total < cards:
        raise TrickError(
            _n(
                "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
                "%(num)d trick is missing.",
                "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
                "%(num)d tricks are missing.",
            ),
            num=cards - total,
            field="tricks",
            total=total,
            round=round_number,
            cards=cards,
        )
    if total > cards:
        raise TrickError(
            _n(
                "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
                "%(num)d trick too many.",
                "The tricks add up to %(total)d, but round %(round)d has %(cards)d: "
                "%(num)d tricks too many.",
            ),
            num=total - cards,
            field="tricks",
            total=total,
            round=round_number,
            cards=cards,
        )


def verify_trick_count(table: Table, round_number: int, seat: int, count: int) -> None:
    """Raise unless ``seat`` can have won ``count`` tricks: 0 to the cards in hand."""
    cards = cards_in_round(round_number)
    if not 0 <= count <= cards:
        raise TrickError(
            _("In round %(round)d %(name)s can win 0 to %(cards)d tricks, not %(tricks)d."),
            field=f"tricks[{seat}]",
            round=round_number,
            name=table.players[seat],
            cards=cards,
            tricks=count,
        )


def fill_tricks(round_number: int, draft: Sequence[int | None]) -> tuple[int | None, ...]:
    """The draft with what the sum decides filled in: the one missing count (when the others
    leave a count that can be won), or 0 for every missing count once the others already
    add up to the cards; otherwise the draft as it is."""
    missing = [seat for seat, count in enumerate(draft) if count is None]
    rest = cards_in_round(round_number) - sum(count or 0 for count in draft)
    if not missing or rest < 0 or (len(missing) > 1 and rest > 0):
        return tuple(draft)
    filled = list(draft)
    for seat in missing:
        filled[seat] = rest if len(missing) == 1 else 0
    return tuple(filled)


def tricks_if_all_made(round_number: int, bids: Sequence[int | None]) -> tuple[int, ...] | None:
    """The tricks when every player made their bid: possible only when every bid is in and
    the bids add up to the cards of the round."""
    if not bids or any(bid is None for bid in bids):
        return None
    made = tuple(bid or 0 for bid in bids)
    return made if sum(made) == cards_in_round(round_number) else None


def all_made_tricks(round_number: int, bids: Sequence[int | None]) -> tuple[int, ...]:
    """:func:`tricks_if_all_made`, or a :class:`TrickError` that says why it cannot be."""
    made = tricks_if_all_made(round_number, bids)
    if made is None:
        total = sum(bid or 0 for bid in bids)
        raise TrickError(
            _n(
                "The bids add up to %(total)d, not to the %(num)d trick of round %(round)d, "
                "so not everyone can have made their bid.",
                "The bids add up to %(total)d, not to the %(num)d tricks of round %(round)d, "
                "so not everyone can have made their bid.",
            ),
            num=cards_in_round(round_number),
            field="tricks",
            total=total,
            round=round_number,
        )
    return made


def complete_draft(table: Table, round_number: int, draft: Sequence[int | None]) -> tuple[int, ...]:
    """The tricks tapped in, the one missing count filled in from the sum; a
    :class:`TrickError` names the first player in bid order whose tricks are missing."""
    filled = fill_tricks(round_number, draft)
    if sum(count or 0 for count in filled) > cards_in_round(round_number):
        # Already too many, whatever is still missing: say so rather than ask for more.
        verify_tricks(table, round_number, [count or 0 for count in filled])
    for seat in table.bid_order(round_number):
        if filled[seat] is None:
            raise TrickError(
                _("Tap the tricks %(name)s won."),
                field=f"tricks[{seat}]",
                name=table.players[seat],
            )
    return tuple(count or 0 for count in filled)


# -- A whole game: from recorded facts to rounds, totals and standings --------------------


@dataclass(frozen=True)
class RoundRecord:
    """What was recorded of one round: trump, bids (``None``: not bid yet), tricks."""

    trump: Trump | None = None
    bids: tuple[int | None, ...] | None = None
    tricks: tuple[int, ...] | None = None


@dataclass(frozen=True)
class RoundView:
    """One round as the rules see it: the recorded facts and what they give."""

    number: int
    cards: int
    dealer: int
    bid_order: list[int]
    state: RoundState
    trump: Trump | None
    bids: tuple[int | None, ...] | None
    forbidden_bid: int | None
    tricks: tuple[int, ...] | None
    scores: list[int] | None
    totals_before: list[int]
    bid_reveal: BidReveal = field(repr=False)

    @property
    def bids_visible(self) -> bool:
        """Whether the reveal mode lets the table see the bids now."""
        return bids_visible(self.bid_reveal, self.state)

    @property
    def shown_bids(self) -> tuple[int | None, ...] | None:
        """The bids as the table may see them: hidden ones read ``None``."""
        if self.bids is None or self.bids_visible:
            return self.bids
        return tuple(None for _bid in self.bids)

    @property
    def shown_forbidden_bid(self) -> int | None:
        """The dealer's forbidden bid once the bids are visible: before, it would give away
        the sum of the hidden bids."""
        return self.forbidden_bid if self.bids_visible else None

    @property
    def has_bid(self) -> list[bool] | None:
        """Who has bid (shown in every reveal mode)."""
        if self.bids is None:
            return None
        return [bid is not None for bid in self.bids]


@dataclass(frozen=True)
class GameView:
    """A game as the rules see it: every round, the totals, standings and winners."""

    table: Table
    rounds: list[RoundView]
    totals: list[int]

    @property
    def current_round(self) -> int | None:
        """The first round not scored; ``None`` once the game is over."""
        for view in self.rounds:
            if view.state is not RoundState.SCORED:
                return view.number
        return None

    @property
    def status(self) -> GameStatus:
        """In progress until every round is scored."""
        return GameStatus.IN_PROGRESS if self.current_round is not None else GameStatus.FINISHED

    @property
    def standings(self) -> list[Standing]:
        """The players by total, with competition ranks."""
        return standings(self.table.players, self.totals)

    @property
    def winners(self) -> list[int]:
        """The seats sharing the top total once the game is over, else none."""
        return leaders(self.totals) if self.status is GameStatus.FINISHED else []

    def round(self, number: int) -> RoundView:
        """Round ``number`` (1-based)."""
        return self.rounds[number - 1]


def evaluate(
    table: Table,
    records: Mapping[int, RoundRecord],
    *,
    prior: GameView | None = None,
    since: int = 1,
) -> GameView:
    """Everything the recorded facts give, derived anew: nothing derived is ever stored.

    ``prior`` is this table's game as evaluated before a change to round ``since`` (the
    other rounds' facts as in ``records``): each round's view follows from the rounds before
    it and its own facts alone, so the rounds before ``since`` are taken from it as they are
    (``records`` needs only round ``since`` and those after it), and so are the rounds after
    it when round ``since`` leaves the game as it did before (scored or not, same totals).
    """
    if prior is None or since <= 1:
        since = 1
        views: list[RoundView] = []
        totals = [0] * table.seats
    else:
        views = prior.rounds[: since - 1]
        totals = list(prior.rounds[since - 1].totals_before)
    # Every round after one not scored waits for it.
    blocked = bool(views) and views[-1].state is not RoundState.SCORED
    for number in range(since, table.rules.rounds + 1):
        if prior is not None and number == since + 1:
            # The rounds after the one changed follow from its outcome and their own facts
            # alone: when the outcome is as before, so is every one of them.
            following = prior.rounds[number - 1]
            if (following.state is RoundState.WAITING) == blocked and (
                following.totals_before == totals
            ):
                views.extend(prior.rounds[number - 1 :])
                totals = list(prior.totals)
                break
        record = records.get(number, RoundRecord())
        trump = record.trump
        if trump is None and table.deals_every_card(number):
            trump = Trump.NO_CARD_LEFT
        bids = record.bids
        tricks = record.tricks
        if blocked:
            state = RoundState.WAITING
        elif trump is None:
            state = RoundState.TRUMP
        elif bids is None or any(bid is None for bid in bids):
            state = RoundState.BIDDING
        elif tricks is None:
            state = RoundState.PLAYING
        else:
            state = RoundState.SCORED
        scores = None
        if state is RoundState.SCORED and bids is not None and tricks is not None:
            scores = round_scores([bid or 0 for bid in bids], tricks)
        forbidden = None
        if state in (RoundState.BIDDING, RoundState.PLAYING, RoundState.SCORED):
            partial = bids if bids is not None else (None,) * table.seats
            forbidden = forbidden_bid(table, number, partial, totals)
        views.append(
            RoundView(
                number=number,
                cards=cards_in_round(number),
                dealer=table.dealer(number),
                bid_order=table.bid_order(number),
                state=state,
                trump=trump,
                bids=bids,
                forbidden_bid=forbidden,
                tricks=tricks,
                scores=scores,
                totals_before=list(totals),
                bid_reveal=table.rules.bid_reveal,
            )
        )
        if scores is not None:
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        else:
            blocked = True
    return GameView(table=table, rounds=views, totals=totals)


# -- Which facts may be recorded now -------------------------------------------------------


def verify_trump_turn(game: GameView, round_number: int) -> None:
    """Raise unless round ``round_number``'s trump may be recorded now."""
    view = game.round(round_number)
    _verify_not_waiting(game, view)
    if game.table.deals_every_card(round_number):
        raise OutOfTurnError(
            _(
                "Round %(round)d deals every card, so no card is turned and there is no "
                "trump to record."
            ),
            round=round_number,
        )


def verify_bids_turn(game: GameView, round_number: int, bids: Sequence[int | None]) -> None:
    """Raise unless these bids may be recorded now (after the trump; complete once scored)."""
    view = game.round(round_number)
    _verify_not_waiting(game, view)
    if view.state is RoundState.TRUMP:
        raise OutOfTurnError(
            _("Record the trump of round %(round)d before the bids."), round=round_number
        )
    _verify_one_per_seat(game.table, bids)
    if view.state is RoundState.SCORED and any(bid is None for bid in bids):
        seat = next(seat for seat, bid in enumerate(bids) if bid is None)
        raise BidError(
            _("Round %(round)d is scored, so every bid stays: give %(name)s's bid too."),
            field=f"bids[{seat}]",
            round=round_number,
            name=game.table.players[seat],
        )
    verify_bids(game.table, round_number, bids, view.totals_before, hidden=not view.bids_visible)


def verify_tricks_turn(game: GameView, round_number: int, tricks: Sequence[int]) -> None:
    """Raise unless these tricks may be recorded now (once every bid is in)."""
    _verify_bids_in(game, game.round(round_number))
    verify_tricks(game.table, round_number, tricks)


def verify_trick_draft_turn(game: GameView, round_number: int) -> None:
    """Raise unless tricks may be tapped in for round ``round_number`` now (while it is played;
    a scored round is corrected as a whole)."""
    _verify_bids_in(game, game.round(round_number))
    verify_not_scored(game, round_number)


def verify_not_scored(game: GameView, round_number: int) -> None:
    """Raise once round ``round_number`` is scored: from then on it is corrected as a whole."""
    if game.round(round_number).state is RoundState.SCORED:
        raise OutOfTurnError(
            _("Round %(round)d is scored already: correct it from the sheet."),
            round=round_number,
        )


def _verify_bids_in(game: GameView, view: RoundView) -> None:
    _verify_not_waiting(game, view)
    if view.state in (RoundState.TRUMP, RoundState.BIDDING):
        raise OutOfTurnError(
            _("Record every bid of round %(round)d before the tricks."), round=view.number
        )


def _verify_not_waiting(game: GameView, view: RoundView) -> None:
    if view.state is RoundState.WAITING:
        raise OutOfTurnError(
            _(
                "Round %(round)d waits until round %(current)d is scored: finish round "
                "%(current)d first."
            ),
            round=view.number,
            current=game.current_round,
        )
