"""Helpers shared by the tests of the rules: tables, recorded rounds, the check that a refusal
is one plain sentence, and the hypothesis strategies that draw games."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from scorekeeper.rules.bids import can_bid
from scorekeeper.rules.cards import TrumpCard, Turned
from scorekeeper.rules.game import RoundRecord
from scorekeeper.rules.messages import RuleError
from scorekeeper.rules.specials import CloudBid
from scorekeeper.rules.table import Table, full_game_rounds
from scorekeeper.rules.variants import BidReveal, BidRule, GameRules, RoundPlan, Special

NAMES = ("Thomas", "Ute", "Kevin", "Anna", "Ben", "Cleo")
FULL_ROUNDS = {3: 20, 4: 15, 5: 12, 6: 10}
JESTER = TrumpCard(Turned.JESTER, None)
Bids = Sequence[int | None]
Records = dict[int, RoundRecord]


def make_table(
    players: int = 3,
    *,
    first_dealer: int = 0,
    rounds: int | None = None,
    bid_rule: BidRule = BidRule.STANDARD,
    zero: bool = False,
    reveal: BidReveal = BidReveal.OPEN,
    clairvoyance: bool = False,
    specials: frozenset[Special] = frozenset(),
    plan: RoundPlan = RoundPlan.EVERY_HAND,
) -> Table:
    """A table of the first ``players`` names; a full game unless ``rounds`` is given."""
    return Table(
        players=NAMES[:players],
        first_dealer=first_dealer,
        rules=GameRules(
            rounds=rounds if rounds is not None else full_game_rounds(players, plan),
            bid_rule=bid_rule,
            last_bidder_may_bid_zero=zero,
            bid_reveal=reveal,
            clairvoyance=clairvoyance,
            special_cards=specials,
            round_plan=plan,
        ),
    )


def in_seat_order(table: Table, round_number: int, in_bid_order: Bids) -> list[int | None]:
    """Bids given in bid order (left of the dealer first, the dealer last), in seat order."""
    bids: list[int | None] = [None] * table.seats
    for seat, bid in zip(table.bid_order(round_number), in_bid_order, strict=True):
        bids[seat] = bid
    return bids


def record(
    bids: Bids | None = None, tricks: Sequence[int] | None = None, trump: TrumpCard | None = JESTER
) -> RoundRecord:
    """A round as recorded: a Jester turned unless told otherwise."""
    return RoundRecord(
        trump=trump,
        bids=None if bids is None else tuple(bids),
        tricks=None if tricks is None else tuple(tricks),
    )


def seat_zero_takes_all(round_number: int, players: int) -> RoundRecord:
    """A scored round: seat 0 bids and wins every trick, the others bid and win none.

    A Jester was turned, unless the round dealt all 60 cards and left none to turn.
    """
    rest = [0] * (players - 1)
    trump = None if round_number * players == 60 else JESTER
    return record([round_number, *rest], [round_number, *rest], trump)


def assert_refused(error: BaseException, kind: type[RuleError], message: str) -> None:
    """The error is exactly ``kind`` (a ValueError) and says ``message`` in one plain sentence."""
    assert type(error) is kind
    assert isinstance(error, ValueError)
    assert str(error) == message
    assert message[:1].isupper() or message[:1] == "“"  # a capital, or a name quoted as typed
    assert message.endswith(".")
    assert ". " not in message  # one sentence only
    assert "%(" not in message
    assert "\n" not in message


# -- Strategies for the properties ---------------------------------------------------------


#: Any deck: each special card in or out, the Dragon and the Fairy together.
decks = st.sets(st.sampled_from([s for s in Special if s is not Special.FAIRY])).map(
    lambda chosen: frozenset(chosen | ({Special.FAIRY} if Special.DRAGON in chosen else set()))
)


@st.composite
def round_facts(draw: st.DrawFn, table: Table, round_number: int) -> RoundRecord:
    """A scored round: any bids; tricks from a winner drawn for each trick (but the Bomb's,
    when the deck has it and it was played); a Cloud's change when the deck has it."""
    players, cards = table.seats, table.cards(round_number)
    specials = table.rules.special_cards
    bids = draw(st.lists(st.integers(0, cards), min_size=players, max_size=players))
    bomb = Special.BOMB in specials and draw(st.booleans())
    size = cards - bomb
    winners = draw(st.lists(st.integers(0, players - 1), min_size=size, max_size=size))
    tricks = [winners.count(seat) for seat in range(players)]
    cloud = None
    if Special.CLOUD in specials and draw(st.booleans()):
        seat = draw(st.integers(0, players - 1))
        changed = [b for b in (bids[seat] - 1, bids[seat] + 1) if table.holds(round_number, b)]
        cloud = CloudBid(seat, draw(st.sampled_from(changed)))
    trump = None if table.deals_every_card(round_number) else JESTER
    return RoundRecord(trump, tuple(bids), tuple(tricks), bomb, cloud)


@st.composite
def played_games(draw: st.DrawFn, max_rounds: int = 20) -> tuple[Table, Records]:
    """A table (any plan, any deck) and its first rounds scored (maybe all of them)."""
    players = draw(st.integers(3, 6))
    plan = draw(st.sampled_from(RoundPlan))
    rounds = draw(st.integers(1, min(max_rounds, full_game_rounds(players, plan))))
    table = make_table(
        players,
        first_dealer=draw(st.integers(0, players - 1)),
        rounds=rounds,
        bid_rule=draw(st.sampled_from(BidRule)),
        specials=draw(decks),
        plan=plan,
    )
    scored = draw(st.integers(0, rounds))
    return table, {n: draw(round_facts(table, n)) for n in range(1, scored + 1)}


def leads_outright(totals: Sequence[int], seat: int) -> bool:
    return all(totals[seat] > total for other, total in enumerate(totals) if other != seat)


@st.composite
def dealer_turns(draw: st.DrawFn) -> tuple[Table, int, list[int | None], list[int]]:
    """Any rule, option, plan and deck, any round, every other bid in, the dealer still to
    bid."""
    players = draw(st.integers(3, 6))
    table = make_table(
        players,
        first_dealer=draw(st.integers(0, players - 1)),
        bid_rule=draw(st.sampled_from(BidRule)),
        zero=draw(st.booleans()),
        reveal=draw(st.sampled_from(BidReveal)),
        specials=draw(decks),
        plan=draw(st.sampled_from(RoundPlan)),
    )
    round_number = draw(st.integers(1, table.rules.rounds))
    cards = table.cards(round_number)
    others = draw(st.lists(st.integers(0, cards), min_size=players - 1, max_size=players - 1))
    tens = st.integers(-3, 3).map(lambda x: 10 * x)  # small totals, so ties are common
    totals = draw(st.lists(tens, min_size=players, max_size=players))
    return table, round_number, in_seat_order(table, round_number, [*others, None]), totals


@st.composite
def seatings(draw: st.DrawFn) -> Table:
    """A table of any plan and deck, with its rounds to play (a full game or shorter)."""
    players = draw(st.integers(3, 6))
    plan = draw(st.sampled_from(RoundPlan))
    return make_table(
        players,
        first_dealer=draw(st.integers(0, players - 1)),
        rounds=draw(st.integers(1, full_game_rounds(players, plan))),
        specials=draw(decks),
        plan=plan,
    )


def allowed_bids(
    table: Table,
    round_number: int,
    seat: int,
    bids: Sequence[int | None],
    totals_before: Sequence[int],
) -> list[int]:
    """The bids ``seat`` may make, given the others' bids so far (as :func:`can_bid` says)."""
    candidates = []
    for value in range(table.cards(round_number) + 1):
        trial = list(bids)
        trial[seat] = value
        if can_bid(table, round_number, trial, totals_before):
            candidates.append(value)
    return candidates
