"""The rules of RULES.md, one test per rule, named after the rule it checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    BidError,
    BidReveal,
    BidRule,
    GameRules,
    GameStatus,
    GameView,
    OutOfTurnError,
    RoundRecord,
    RoundState,
    RuleError,
    SetupError,
    Suit,
    Table,
    TrickError,
    Trump,
    TrumpError,
    Turned,
    allowed_bids,
    bid_order,
    bid_rule_policy,
    can_bid,
    cards_in_round,
    clean_names,
    dealer,
    deals_every_card,
    evaluate,
    forbidden_bid,
    full_game_rounds,
    parse_bid_reveal,
    parse_bid_rule,
    running_totals,
    score,
    standings,
    trump_from,
    verify_bids,
    verify_bids_turn,
    verify_first_dealer,
    verify_player_count,
    verify_rounds,
    verify_tricks,
    verify_tricks_turn,
    verify_trump_turn,
)

NAMES = ("Thomas", "Ute", "Kevin", "Anna", "Ben", "Cleo")
FULL_ROUNDS = {3: 20, 4: 15, 5: 12, 6: 10}
JESTER = Trump(Turned.JESTER, None)
Bids = Sequence[int | None]
Records = dict[int, RoundRecord]
T = TypeVar("T")


def make_table(
    players: int = 3,
    *,
    first_dealer: int = 0,
    rounds: int | None = None,
    bid_rule: BidRule = BidRule.STANDARD,
    zero: bool = False,
    reveal: BidReveal = BidReveal.OPEN,
    clairvoyance: bool = False,
) -> Table:
    """A table of the first ``players`` names; a full game unless ``rounds`` is given."""
    return Table(
        players=NAMES[:players],
        first_dealer=first_dealer,
        rules=GameRules(
            rounds=rounds if rounds is not None else FULL_ROUNDS[players],
            bid_rule=bid_rule,
            last_bidder_may_bid_zero=zero,
            bid_reveal=reveal,
            clairvoyance=clairvoyance,
        ),
    )


def in_seat_order(table: Table, round_number: int, in_bid_order: Bids) -> list[int | None]:
    """Bids given in bid order (left of the dealer first, the dealer last), in seat order."""
    bids: list[int | None] = [None] * table.seats
    for seat, bid in zip(table.bid_order(round_number), in_bid_order, strict=True):
        bids[seat] = bid
    return bids


def record(
    bids: Bids | None = None, tricks: Sequence[int] | None = None, trump: Trump | None = JESTER
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
    assert message[:1].isupper()
    assert message.endswith(".")
    assert ". " not in message  # one sentence only
    assert "%(" not in message
    assert "\n" not in message


# -- Cards and players ---------------------------------------------------------------------


def test_suits_are_colours_with_their_people() -> None:
    people = {suit.value: suit.people for suit in Suit}
    assert people == {"blue": "Humans", "green": "Elves", "red": "Dwarves", "yellow": "Giants"}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_may_play(players: int) -> None:
    verify_player_count(players)
    assert clean_names(NAMES[:players]) == NAMES[:players]
    assert make_table(players).seats == players


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (2, "Wizard is played by 3 to 6 players, not 2."),
        (7, "Wizard is played by 3 to 6 players, not 7."),
    ],
)
def test_two_or_seven_players_are_refused(players: int, message: str) -> None:
    names = [f"Player {seat + 1}" for seat in range(players)]
    for refuse in (
        lambda: verify_player_count(players),
        lambda: clean_names(names),
        lambda: full_game_rounds(players),
        lambda: Table(tuple(names), 0, GameRules(rounds=1)),
    ):
        with pytest.raises(SetupError) as caught:
            refuse()
        assert_refused(caught.value, SetupError, message)


def test_names_are_trimmed() -> None:
    assert clean_names(["  Thomas ", "\tUte\n", "Kevin"]) == ("Thomas", "Ute", "Kevin")
    # Only trimmed: what stands between the ends stays as typed.
    assert clean_names(["Anna  Lena", "Ute", "Kevin"])[0] == "Anna  Lena"


def test_names_of_24_characters_are_allowed() -> None:
    assert clean_names(["A" * 24, "Ute", "K"]) == ("A" * 24, "Ute", "K")


@pytest.mark.parametrize(
    ("names", "field", "message"),
    [
        (
            ["Thomas", "   ", "Kevin"],
            "players[1]",
            "Player 2 has no name: give every player a name of 1 to 24 characters.",
        ),
        (
            ["", "Ute", "Kevin"],
            "players[0]",
            "Player 1 has no name: give every player a name of 1 to 24 characters.",
        ),
        (
            ["Thomas", "B" * 25, "Kevin"],
            "players[1]",
            f"The name {'B' * 25} is too long: a name has at most 24 characters.",
        ),
        (
            ["Thomas", "Ute", " UTE "],
            "players[2]",
            "Two players are called UTE: give every player a different name.",
        ),
        (
            ["Thomas", "Ute", "Ke\x00vin"],
            "players[2]",
            "The name of player 3 contains a character that cannot be shown: use letters, "
            "digits, spaces and punctuation.",
        ),
        (
            ["Thomas", "U\ud800te", "Kevin"],
            "players[1]",
            "The name of player 2 contains a character that cannot be shown: use letters, "
            "digits, spaces and punctuation.",
        ),
    ],
    ids=["blank", "empty", "too-long", "same-name-other-case", "nul", "lone-surrogate"],
)
def test_names_have_1_to_24_characters_and_are_unique_ignoring_case(
    names: list[str], field: str, message: str
) -> None:
    with pytest.raises(SetupError) as caught:
        clean_names(names)
    assert_refused(caught.value, SetupError, message)
    assert caught.value.field == field


# -- Rounds --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), list(FULL_ROUNDS.items()))
def test_full_game_has_60_over_players_rounds(players: int, rounds: int) -> None:
    assert full_game_rounds(players) == rounds
    assert len(evaluate(make_table(players), {}).rounds) == rounds


@pytest.mark.parametrize("round_number", [1, 2, 7, 20])
def test_round_deals_r_cards_to_each_player(round_number: int) -> None:
    assert cards_in_round(round_number) == round_number
    assert evaluate(make_table(3), {}).round(round_number).cards == round_number


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_last_round_of_a_full_game_deals_every_card(players: int) -> None:
    table = make_table(players)
    last = full_game_rounds(players)
    assert last * players == 60
    assert table.deals_every_card(last)
    assert not any(table.deals_every_card(number) for number in range(1, last))


@pytest.mark.parametrize(("players", "rounds"), [(3, 1), (3, 19), (3, 20), (6, 1), (6, 10)])
def test_shorter_game_has_1_to_full_count_rounds(players: int, rounds: int) -> None:
    verify_rounds(rounds, players)
    assert len(evaluate(make_table(players, rounds=rounds), {}).rounds) == rounds


@pytest.mark.parametrize(
    ("players", "rounds", "message"),
    [
        (3, 0, "A game of 3 players has 1 to 20 rounds, not 0."),
        (3, 21, "A game of 3 players has 1 to 20 rounds, not 21."),
        (4, 16, "A game of 4 players has 1 to 15 rounds, not 16."),
        (6, 11, "A game of 6 players has 1 to 10 rounds, not 11."),
    ],
)
def test_game_longer_than_full_or_without_rounds_is_refused(
    players: int, rounds: int, message: str
) -> None:
    with pytest.raises(SetupError) as caught:
        make_table(players, rounds=rounds)
    assert_refused(caught.value, SetupError, message)
    assert caught.value.field == "rules.rounds"


@pytest.mark.parametrize(
    ("round_number", "players", "every_card"),
    [
        *[(20, 3, True), (15, 4, True), (12, 5, True), (10, 6, True)],
        *[(19, 3, False), (14, 4, False), (10, 5, False), (10, 4, False), (5, 6, False)],
    ],
)
def test_only_a_round_dealing_all_60_cards_has_no_trump_card(
    round_number: int, players: int, every_card: bool
) -> None:
    assert deals_every_card(round_number, players) is every_card


def test_shorter_game_turns_a_trump_card_every_round() -> None:
    table = make_table(3, rounds=19)
    game = evaluate(table, {n: seat_zero_takes_all(n, 3) for n in range(1, 19)})
    assert game.round(19).state is RoundState.TRUMP
    assert game.round(19).trump is None
    verify_trump_turn(game, 19)


@pytest.mark.parametrize(("players", "seat"), [(3, 0), (3, 2), (6, 5)])
def test_first_dealer_is_one_of_the_seats(players: int, seat: int) -> None:
    verify_first_dealer(seat, players)
    assert make_table(players, first_dealer=seat).dealer(1) == seat


@pytest.mark.parametrize(
    ("players", "seat", "message"),
    [
        (3, 3, "The first dealer is a seat from 0 to 2, not 3."),
        (3, -1, "The first dealer is a seat from 0 to 2, not -1."),
        (6, 6, "The first dealer is a seat from 0 to 5, not 6."),
    ],
)
def test_first_dealer_outside_the_seats_is_refused(players: int, seat: int, message: str) -> None:
    with pytest.raises(SetupError) as caught:
        make_table(players, first_dealer=seat)
    assert_refused(caught.value, SetupError, message)
    assert caught.value.field == "first_dealer"


@pytest.mark.parametrize(
    ("first_dealer", "players", "round_number", "expected"),
    [
        (0, 3, 1, 0),
        (0, 3, 2, 1),
        (0, 3, 3, 2),
        (0, 3, 4, 0),
        (2, 4, 1, 2),
        (2, 4, 2, 3),
        (2, 4, 3, 0),
        (5, 6, 2, 0),
        (5, 6, 10, 2),
    ],
)
def test_dealer_passes_to_the_left(
    first_dealer: int, players: int, round_number: int, expected: int
) -> None:
    assert dealer(first_dealer, round_number, players) == expected
    table = make_table(players, first_dealer=first_dealer)
    assert evaluate(table, {}).round(round_number).dealer == expected


@pytest.mark.parametrize(
    ("dealer_seat", "players", "order"),
    [
        (0, 3, [1, 2, 0]),
        (2, 3, [0, 1, 2]),
        (2, 4, [3, 0, 1, 2]),
        (1, 5, [2, 3, 4, 0, 1]),
        (5, 6, [0, 1, 2, 3, 4, 5]),
    ],
)
def test_dealer_bids_last(dealer_seat: int, players: int, order: list[int]) -> None:
    assert bid_order(dealer_seat, players) == order
    table = make_table(players, first_dealer=dealer_seat)
    assert table.bid_order(1) == order
    assert evaluate(table, {}).round(1).bid_order == order


# -- Trump ---------------------------------------------------------------------------------


@pytest.mark.parametrize("suit", list(Suit))
def test_suit_card_makes_its_suit_trump(suit: Suit) -> None:
    assert trump_from(suit.value) == Trump(Turned(suit.value), suit)


def test_jester_means_no_trump() -> None:
    assert trump_from("jester") == Trump(Turned.JESTER, None)


def test_wizard_lets_dealer_choose_suit() -> None:
    trump = trump_from("wizard", "red")
    assert trump.turned is Turned.WIZARD  # "Wizard turned,
    assert trump.suit is Suit.RED  # dealer chose red"


def test_wizard_without_chosen_suit_is_refused() -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from("wizard")
    assert_refused(
        caught.value,
        TrumpError,
        "A Wizard was turned, so the dealer chooses the trump: give the chosen suit, "
        "one of blue, green, red, yellow.",
    )


@pytest.mark.parametrize(
    ("turned", "chosen", "message"),
    [
        (
            "purple",
            None,
            "The turned card is one of blue, green, red, yellow, jester, wizard, not “purple”.",
        ),
        (
            "none",
            None,
            "The turned card is one of blue, green, red, yellow, jester, wizard, not “none”.",
        ),
        ("wizard", "purple", "The dealer chooses one of blue, green, red, yellow, not “purple”."),
        (
            "red",
            "blue",
            "Only a turned Wizard lets the dealer choose the trump: leave out the chosen suit.",
        ),
        (
            "jester",
            "blue",
            "Only a turned Wizard lets the dealer choose the trump: leave out the chosen suit.",
        ),
    ],
    ids=["unknown-card", "no-card-is-set-by-the-app", "unknown-suit", "suit-chose", "jester-chose"],
)
def test_trump_the_rules_do_not_know_is_refused(
    turned: str, chosen: str | None, message: str
) -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from(turned, chosen)
    assert_refused(caught.value, TrumpError, message)


def test_round_dealing_every_card_has_no_trump() -> None:
    table = make_table(6)
    game = evaluate(table, {n: seat_zero_takes_all(n, 6) for n in range(1, 10)})
    last = game.round(10)
    assert last.trump == Trump(Turned.NONE, None)
    assert last.state is RoundState.BIDDING  # straight to the bids, nobody is asked
    with pytest.raises(OutOfTurnError) as caught:
        verify_trump_turn(game, 10)
    assert_refused(
        caught.value,
        OutOfTurnError,
        "Round 10 deals every card, so no card is turned and there is no trump to record.",
    )


# -- Bids ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "message"),
    [(-1, "In round 3 Ute can bid 0 to 3, not -1."), (4, "In round 3 Ute can bid 0 to 3, not 4.")],
)
def test_each_bid_is_0_to_cards_in_hand(bid: int, message: str) -> None:
    table = make_table(3)
    with pytest.raises(BidError) as caught:
        verify_bids(table, 3, [None, bid, None], [0, 0, 0])
    assert_refused(caught.value, BidError, message)
    assert caught.value.field == "bids[1]"
    assert allowed_bids(table, 3, 1, [None, None, None], [0, 0, 0]) == [0, 1, 2, 3]


def test_one_bid_per_player_is_required() -> None:
    with pytest.raises(BidError) as caught:
        verify_bids(make_table(3), 1, [0, 1], [0, 0, 0])
    assert_refused(
        caught.value, BidError, "Give one bid for each of the 3 players, in seat order, not 2."
    )


def test_standard_rule_allows_any_total() -> None:
    table = make_table(3, bid_rule=BidRule.STANDARD)
    for bids in ([a, b, c] for a in range(3) for b in range(3) for c in range(3)):
        verify_bids(table, 2, bids, [0, 0, 0])
    assert forbidden_bid(table, 2, [1, None, 1], [0, 0, 0]) is None


@pytest.mark.parametrize(
    ("round_number", "dealer_seat", "bid", "message"),
    [
        (
            5,
            1,
            2,
            "Ute deals and may not bid 2: the bids would add up to the 5 tricks of this round.",
        ),
        (
            1,
            1,
            1,
            "Ute deals and may not bid 1: the bids would add up to the 1 trick of this round.",
        ),
        (
            3,
            2,
            0,
            "Kevin deals and may not bid 0: the bids would add up to the 3 tricks of this round.",
        ),
    ],
)
def test_plus_minus_one_forbids_dealer_total_equal_to_cards(
    round_number: int, dealer_seat: int, bid: int, message: str
) -> None:
    first_dealer = (dealer_seat - round_number + 1) % 3
    table = make_table(3, first_dealer=first_dealer, bid_rule=BidRule.PLUS_MINUS_ONE)
    assert table.dealer(round_number) == dealer_seat
    others = round_number - bid  # the other two bids add up to this
    bids = in_seat_order(table, round_number, [others, 0, bid])
    with pytest.raises(BidError) as caught:
        verify_bids(table, round_number, bids, [0, 0, 0])
    assert_refused(caught.value, BidError, message)
    assert caught.value.field == f"bids[{dealer_seat}]"
    assert not can_bid(table, round_number, bids, [0, 0, 0])


@pytest.mark.parametrize(
    ("round_number", "others", "forbidden"),
    [
        (1, [0, 0], 1),
        (1, [1, 0], 0),
        (1, [1, 1], None),  # the others already bid more than the cards
        (3, [0, 0], 3),
        (5, [1, 2], 2),
        (5, [5, 0], 0),
        (5, [3, 3], None),
    ],
)
def test_plus_minus_one_forbidden_value_is_cards_minus_the_other_bids(
    round_number: int, others: list[int], forbidden: int | None
) -> None:
    table = make_table(3, bid_rule=BidRule.PLUS_MINUS_ONE)
    bids = in_seat_order(table, round_number, [*others, None])
    assert forbidden_bid(table, round_number, bids, [0, 0, 0]) == forbidden
    dealer_seat = table.dealer(round_number)
    allowed = allowed_bids(table, round_number, dealer_seat, bids, [0, 0, 0])
    assert allowed == [bid for bid in range(round_number + 1) if bid != forbidden]


def test_plus_minus_one_waits_for_every_other_bid() -> None:
    table = make_table(4, bid_rule=BidRule.PLUS_MINUS_ONE)
    bids = in_seat_order(table, 3, [1, None, 1, None])
    assert forbidden_bid(table, 3, bids, [0, 0, 0, 0]) is None
    bids = in_seat_order(table, 3, [1, 0, 1, None])
    assert forbidden_bid(table, 3, bids, [0, 0, 0, 0]) == 1


@pytest.mark.parametrize(
    ("round_number", "others", "forbidden"),
    [(1, [1, 0], None), (4, [2, 2], None), (4, [1, 2], 1), (1, [0, 0], 1)],
)
def test_last_bidder_may_bid_zero_option(
    round_number: int, others: list[int], forbidden: int | None
) -> None:
    table = make_table(3, bid_rule=BidRule.PLUS_MINUS_ONE, zero=True)
    bids = in_seat_order(table, round_number, [*others, None])
    assert forbidden_bid(table, round_number, bids, [0, 0, 0]) == forbidden
    verify_bids(table, round_number, in_seat_order(table, round_number, [*others, 0]), [0, 0, 0])


def canadian_round_2(totals_before: list[int], others: list[int]) -> int | None:
    """The forbidden bid of Ute, dealing round 2 of a canadian game, after ``others``."""
    table = make_table(3, first_dealer=0, bid_rule=BidRule.CANADIAN)
    assert table.dealer(2) == 1
    return forbidden_bid(table, 2, in_seat_order(table, 2, [*others, None]), totals_before)


@pytest.mark.parametrize(
    ("totals_before", "forbidden"),
    [([20, 30, -10], 1), ([40, 30, -10], None), ([-10, -20, 0], None)],
    ids=["dealer-leads", "other-leads", "dealer-last"],
)
def test_canadian_restricts_only_outright_leader(
    totals_before: list[int], forbidden: int | None
) -> None:
    assert canadian_round_2(totals_before, [0, 1]) == forbidden


@pytest.mark.parametrize("totals_before", [[30, 30, -10], [0, 0, 0], [20, 20, 20]])
def test_canadian_tie_for_lead_does_not_restrict(totals_before: list[int]) -> None:
    assert canadian_round_2(totals_before, [0, 1]) is None


def test_canadian_dealer_may_always_bid_zero() -> None:
    assert canadian_round_2([20, 30, -10], [1, 1]) is None
    table = make_table(3, first_dealer=0, bid_rule=BidRule.CANADIAN)
    verify_bids(table, 2, [1, 0, 1], [20, 30, -10])


def test_canadian_looks_at_the_standings_before_this_round() -> None:
    # The seeds' round 1 leaves Kevin leading alone (20, -10, 30); Kevin deals round 2.
    table = make_table(3, first_dealer=1, bid_rule=BidRule.CANADIAN)
    assert table.dealer(2) == 2
    records = {1: record([0, 1, 1], [0, 0, 1]), 2: record([1, 0, None])}
    assert evaluate(table, records).round(1).forbidden_bid is None  # all tied on 0
    assert evaluate(table, records).round(2).forbidden_bid == 1
    with pytest.raises(BidError) as caught:
        verify_bids_turn(evaluate(table, records), 2, [1, 0, 1])
    assert_refused(
        caught.value,
        BidError,
        "Kevin deals and may not bid 1: the bids would add up to the 2 tricks of this round.",
    )


@pytest.mark.parametrize("reveal", list(BidReveal))
def test_restriction_falls_on_the_dealer_whatever_the_reveal_mode(reveal: BidReveal) -> None:
    # Bids revealed together, adding up to the cards: the dealer (Ute) must change.
    table = make_table(3, first_dealer=1, bid_rule=BidRule.PLUS_MINUS_ONE, reveal=reveal)
    game = evaluate(table, {1: record()})
    with pytest.raises(BidError) as caught:
        verify_bids_turn(game, 1, [1, 0, 0])
    if reveal is BidReveal.OPEN:
        message = "Ute deals and may not bid 0: the bids would add up to the 1 trick of this round."
    else:
        # The bids are hidden: the refusal must not give the dealer's bid away.
        message = (
            "These bids would add up to the 1 trick of this round, which the bid rule "
            "forbids: Ute, who deals, must bid something else."
        )
    assert_refused(caught.value, BidError, message)
    assert caught.value.field == "bids[1]"
    verify_bids_turn(game, 1, [1, 1, 0])


# -- Reveal modes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reveal", "bids", "tricks", "state", "shown", "shown_forbidden"),
    [
        (BidReveal.OPEN, (None, 0, 1), None, RoundState.BIDDING, (None, 0, 1), 0),
        (BidReveal.OPEN, (1, 0, 1), None, RoundState.PLAYING, (1, 0, 1), 0),
        (BidReveal.COVERED, (None, 0, 1), None, RoundState.BIDDING, (None,) * 3, None),
        (BidReveal.COVERED, (1, 0, 1), None, RoundState.PLAYING, (1, 0, 1), 0),
        (BidReveal.SECRET, (None, 0, 1), None, RoundState.BIDDING, (None,) * 3, None),
        (BidReveal.SECRET, (1, 0, 1), None, RoundState.PLAYING, (None,) * 3, None),
        (BidReveal.SECRET, (1, 0, 1), (1, 0, 0), RoundState.SCORED, (1, 0, 1), 0),
    ],
    ids=[
        "open-as-they-come",
        "open-all-in",
        "covered-while-bidding",
        "covered-revealed-before-play",
        "secret-while-bidding",
        "secret-during-play",
        "secret-revealed-with-tricks",
    ],
)
def test_reveal_mode_decides_when_bids_are_shown(
    reveal: BidReveal,
    bids: tuple[int | None, ...],
    tricks: tuple[int, ...] | None,
    state: RoundState,
    shown: tuple[int | None, ...],
    shown_forbidden: int | None,
) -> None:
    # Thomas deals round 1; Ute bid 0 and Kevin 1, so Thomas may not bid 0.
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE, reveal=reveal)
    view = evaluate(table, {1: record(bids, tricks)}).round(1)
    assert view.state is state
    assert view.bids_visible is (shown == bids)
    assert view.shown_bids == shown
    assert view.forbidden_bid == 0  # known to the app in every mode ...
    assert view.shown_forbidden_bid == shown_forbidden  # ... shown only with the bids
    assert view.has_bid == [bid is not None for bid in bids]


@pytest.mark.parametrize("reveal", list(BidReveal))
def test_nobody_has_bid_before_the_trump(reveal: BidReveal) -> None:
    view = evaluate(make_table(3, reveal=reveal), {}).round(1)
    assert view.has_bid is None
    assert view.shown_bids is None


def test_secret_bids_are_still_checked_by_the_app() -> None:
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE, reveal=BidReveal.SECRET)
    game = evaluate(table, {1: record()})
    with pytest.raises(BidError) as caught:
        verify_bids_turn(game, 1, [0, 1, 0])
    assert_refused(
        caught.value,
        BidError,
        "These bids would add up to the 1 trick of this round, which the bid rule forbids: "
        "Thomas, who deals, must bid something else.",
    )
    assert "bid 0" not in str(caught.value)  # the dealer's secret bid is not given away


def test_clairvoyance_changes_no_number() -> None:
    records = {1: record([0, 1, 1], [0, 0, 1]), 2: record([2, 0, None])}
    plain = evaluate(make_table(3, bid_rule=BidRule.PLUS_MINUS_ONE), records)
    seeing = evaluate(make_table(3, bid_rule=BidRule.PLUS_MINUS_ONE, clairvoyance=True), records)
    assert seeing.totals == plain.totals
    assert [v.forbidden_bid for v in seeing.rounds] == [v.forbidden_bid for v in plain.rounds]
    assert [v.state for v in seeing.rounds] == [v.state for v in plain.rounds]


# -- Tricks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_number", "tricks", "field", "message"),
    [
        (1, [0, 0, 0], "tricks", "The tricks add up to 0, but round 1 has 1: 1 trick is missing."),
        (3, [1, 1, 0], "tricks", "The tricks add up to 2, but round 3 has 3: 1 trick is missing."),
        (
            3,
            [0, 0, 1],
            "tricks",
            "The tricks add up to 1, but round 3 has 3: 2 tricks are missing.",
        ),
        (3, [2, 1, 1], "tricks", "The tricks add up to 4, but round 3 has 3: 1 trick too many."),
        (3, [3, 2, 1], "tricks", "The tricks add up to 6, but round 3 has 3: 3 tricks too many."),
        (3, [-1, 2, 2], "tricks[0]", "In round 3 Thomas can win 0 to 3 tricks, not -1."),
        (3, [0, 4, -1], "tricks[1]", "In round 3 Ute can win 0 to 3 tricks, not 4."),
        (3, [1, 2], "tricks", "Give the tricks of each of the 3 players, in seat order, not 2."),
    ],
)
def test_tricks_are_each_0_to_cards_and_sum_to_cards(
    round_number: int, tricks: list[int], field: str, message: str
) -> None:
    with pytest.raises(TrickError) as caught:
        verify_tricks(make_table(3), round_number, tricks)
    assert_refused(caught.value, TrickError, message)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("round_number", "tricks"), [(1, [0, 1, 0]), (3, [3, 0, 0]), (3, [1, 1, 1]), (5, [0, 2, 3])]
)
def test_tricks_summing_to_cards_are_accepted(round_number: int, tricks: list[int]) -> None:
    verify_tricks(make_table(3), round_number, tricks)


# -- Scoring -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(0, 0, 20), (1, 1, 30), (3, 3, 50), (7, 6, -10), (7, 5, -20), (5, 6, -10)],
)
def test_scoring_worked_examples_of_seed_002(bid: int, tricks: int, points: int) -> None:
    assert score(bid, tricks) == points


def test_seed_example_thomas_ute_kevin() -> None:
    records = {1: record([0, 1, 1], [0, 0, 1]), 2: record([2, 0, 0], [1, 0, 1])}
    game = evaluate(make_table(3), records)
    assert game.round(1).scores == [20, -10, 30]
    assert game.round(2).scores == [-10, 20, -10]
    assert game.round(2).totals_before == [20, -10, 30]
    assert game.totals == [10, 10, 20]
    assert [(s.name, s.total, s.rank) for s in game.standings] == [
        ("Kevin", 20, 1),
        ("Thomas", 10, 2),
        ("Ute", 10, 2),
    ]
    assert game.current_round == 3
    assert game.status is GameStatus.IN_PROGRESS
    assert game.winners == []  # nobody wins before the last round is scored


def test_every_round_is_scored_the_last_one_too() -> None:
    game = evaluate(make_table(6), {n: seat_zero_takes_all(n, 6) for n in range(1, 11)})
    assert game.round(10).trump == Trump.NO_CARD_LEFT
    assert game.round(10).scores == [20 + 10 * 10, 20, 20, 20, 20, 20]
    assert game.totals == [sum(20 + 10 * n for n in range(1, 11)), 200, 200, 200, 200, 200]
    assert game.status is GameStatus.FINISHED
    assert game.current_round is None
    assert game.winners == [0]


def test_players_tied_on_the_top_total_share_the_win() -> None:
    # One round: Thomas and Ute bid 0 and win none (+20 each); Kevin bid 0 and won the trick.
    game = evaluate(make_table(3, rounds=1), {1: record([0, 0, 0], [0, 0, 1])})
    assert game.totals == [20, 20, -10]
    assert game.status is GameStatus.FINISHED
    assert game.winners == [0, 1]


@pytest.mark.parametrize(
    ("totals", "order", "ranks"),
    [
        ([30, 50, 30, 10], [1, 0, 2, 3], [1, 2, 2, 4]),
        ([30, 30, 10, 10], [0, 1, 2, 3], [1, 1, 3, 3]),
        ([-10, 0, 20, 0, -10], [2, 1, 3, 0, 4], [1, 2, 2, 4, 4]),
        ([5, 5, 5], [0, 1, 2], [1, 1, 1]),
    ],
)
def test_standings_use_competition_ranking(
    totals: list[int], order: list[int], ranks: list[int]
) -> None:
    table = standings(NAMES[: len(totals)], totals)
    assert [line.seat for line in table] == order
    assert [line.name for line in table] == [NAMES[seat] for seat in order]
    assert [line.total for line in table] == sorted(totals, reverse=True)
    assert [line.rank for line in table] == ranks


# -- Round states and turns ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "states"),
    [
        ({}, ["trump", "waiting", "waiting"]),
        ({1: record()}, ["bidding", "waiting", "waiting"]),
        ({1: record([None, 0, None])}, ["bidding", "waiting", "waiting"]),
        ({1: record([1, 0, 1])}, ["playing", "waiting", "waiting"]),
        ({1: record([1, 0, 1], [1, 0, 0])}, ["scored", "trump", "waiting"]),
        ({1: record([1, 0, 1]), 2: record()}, ["playing", "waiting", "waiting"]),
        (
            {1: record([1, 0, 1], [1, 0, 0]), 2: record([0, 0, 0], [1, 1, 0])},
            ["scored", "scored", "trump"],
        ),
    ],
    ids=[
        "nothing",
        "trump",
        "some-bids",
        "all-bids",
        "tricks",
        "later-round-waits",
        "two-scored",
    ],
)
def test_round_states_follow_the_recorded_facts(
    records: dict[int, RoundRecord], states: list[str]
) -> None:
    game = evaluate(make_table(3, rounds=3), records)
    assert [view.state.value for view in game.rounds] == states


def test_facts_recorded_in_turn_are_accepted() -> None:
    table = make_table(3, rounds=2)
    verify_trump_turn(evaluate(table, {}), 1)
    verify_bids_turn(evaluate(table, {1: record()}), 1, [None, 0, None])
    verify_tricks_turn(evaluate(table, {1: record([1, 0, 1])}), 1, [1, 0, 0])
    scored = evaluate(table, {1: record([1, 0, 1], [1, 0, 0])})
    verify_trump_turn(scored, 2)
    verify_bids_turn(scored, 1, [0, 0, 0])  # a scored round may be corrected


@pytest.mark.parametrize(
    ("records", "verify", "message"),
    [
        (
            {},
            lambda game: verify_trump_turn(game, 2),
            "Round 2 waits until round 1 is scored: finish round 1 first.",
        ),
        (
            {1: record([1, 0, 1])},
            lambda game: verify_bids_turn(game, 3, [0, 0, 0]),
            "Round 3 waits until round 1 is scored: finish round 1 first.",
        ),
        (
            {1: record([1, 0, 1], [1, 0, 0])},
            lambda game: verify_tricks_turn(game, 3, [1, 1, 1]),
            "Round 3 waits until round 2 is scored: finish round 2 first.",
        ),
        (
            {},
            lambda game: verify_bids_turn(game, 1, [0, 0, 0]),
            "Record the trump of round 1 before the bids.",
        ),
        (
            {},
            lambda game: verify_tricks_turn(game, 1, [1, 0, 0]),
            "Record every bid of round 1 before the tricks.",
        ),
        (
            {1: record([None, 0, 1])},
            lambda game: verify_tricks_turn(game, 1, [1, 0, 0]),
            "Record every bid of round 1 before the tricks.",
        ),
    ],
    ids=[
        "trump-of-a-later-round",
        "bids-of-a-later-round",
        "tricks-of-a-later-round",
        "bids-before-trump",
        "tricks-before-trump",
        "tricks-before-every-bid",
    ],
)
def test_facts_out_of_turn_are_refused(
    records: dict[int, RoundRecord], verify: Callable[[GameView], None], message: str
) -> None:
    game = evaluate(make_table(3, rounds=3), records)
    with pytest.raises(OutOfTurnError) as caught:
        verify(game)
    assert_refused(caught.value, OutOfTurnError, message)


def test_scored_round_keeps_every_bid() -> None:
    game = evaluate(make_table(3, rounds=2), {1: record([1, 0, 1], [1, 0, 0])})
    with pytest.raises(BidError) as caught:
        verify_bids_turn(game, 1, [1, None, 1])
    assert_refused(
        caught.value, BidError, "Round 1 is scored, so every bid stays: give Ute's bid too."
    )
    assert caught.value.field == "bids[1]"


# -- Choosing the rules by name ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "restricts_leader", "restricts_other", "zero_without", "zero_with"),
    [
        ("standard", False, False, True, True),
        ("plus_minus_one", True, True, False, True),
        ("canadian", True, False, True, True),
    ],
)
def test_bid_rule_policy_is_looked_up_by_name(
    name: str, restricts_leader: bool, restricts_other: bool, zero_without: bool, zero_with: bool
) -> None:
    policy = bid_rule_policy(name)
    assert policy.name == name
    assert policy.restricts(dealer_leads_outright=True) is restricts_leader
    assert policy.restricts(dealer_leads_outright=False) is restricts_other
    assert policy.zero_always_allowed(last_bidder_may_bid_zero=False) is zero_without
    assert policy.zero_always_allowed(last_bidder_may_bid_zero=True) is zero_with


@pytest.mark.parametrize("name", ["hearts", "", "Canadian"])
def test_unknown_bid_rule_name_raises_value_error(name: str) -> None:
    with pytest.raises(ValueError, match=r"^unsupported bid rule: ") as caught:
        bid_rule_policy(name)
    assert str(caught.value) == f"unsupported bid rule: {name!r}"


@pytest.mark.parametrize("rule", list(BidRule))
def test_parse_bid_rule_knows_every_rule(rule: BidRule) -> None:
    assert parse_bid_rule(rule.value) is rule


@pytest.mark.parametrize("reveal", list(BidReveal))
def test_parse_bid_reveal_knows_every_mode(reveal: BidReveal) -> None:
    assert parse_bid_reveal(reveal.value) is reveal


def test_parse_bid_rule_refuses_unknown_name() -> None:
    with pytest.raises(SetupError) as caught:
        parse_bid_rule("hearts")
    assert_refused(
        caught.value,
        SetupError,
        "The bid rule is one of standard, plus_minus_one, canadian, not “hearts”.",
    )
    assert caught.value.field == "rules.bid_rule"


def test_parse_bid_reveal_refuses_unknown_name() -> None:
    with pytest.raises(SetupError) as caught:
        parse_bid_reveal("hidden")
    assert_refused(
        caught.value, SetupError, "The bid reveal is one of open, covered, secret, not “hidden”."
    )
    assert caught.value.field == "rules.bid_reveal"


# -- Messages are translatable templates ---------------------------------------------------


def test_rule_error_renders_plural_template_through_ngettext() -> None:
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE)  # Ute deals round 5
    with pytest.raises(BidError) as caught:
        verify_bids(table, 5, [2, 2, 1], [0, 0, 0])
    error = caught.value
    calls: list[tuple[str, str, int]] = []

    def ngettext(singular: str, plural: str, num: int) -> str:
        calls.append((singular, plural, num))
        return "%(name)s gibt und darf nicht %(bid)d ansagen: das ergäbe die %(num)d Stiche."

    def gettext(message: str) -> str:
        raise AssertionError("a plural message goes through ngettext")

    german = error.render(gettext, ngettext)
    assert german == "Ute gibt und darf nicht 2 ansagen: das ergäbe die 5 Stiche."
    assert calls == [(error.message, error.plural, 5)]
    assert "%(name)s" in error.message  # the template, not the filled-in sentence
    assert error.render() == str(error)


def test_rule_error_renders_template_through_gettext() -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from("wizard", "purple")
    error = caught.value
    templates = {error.message: "Der Geber wählt eine von %(suits)s, nicht %(chosen)s."}
    german = error.render(templates.__getitem__, None)
    assert german == "Der Geber wählt eine von blue, green, red, yellow, nicht purple."
    assert str(error) == "The dealer chooses one of blue, green, red, yellow, not “purple”."


@pytest.mark.parametrize("kind", [SetupError, TrumpError, BidError, TrickError, OutOfTurnError])
def test_every_refusal_is_a_value_error(kind: type[RuleError]) -> None:
    assert issubclass(kind, RuleError)
    assert issubclass(kind, ValueError)


# -- Properties ----------------------------------------------------------------------------


@st.composite
def round_facts(draw: st.DrawFn, players: int, round_number: int) -> RoundRecord:
    """A scored round: any bids; tricks from a winner drawn for each of the r tricks."""
    bids = draw(st.lists(st.integers(0, round_number), min_size=players, max_size=players))
    size = round_number
    winners = draw(st.lists(st.integers(0, players - 1), min_size=size, max_size=size))
    tricks = [winners.count(seat) for seat in range(players)]
    return record(bids, tricks, None if round_number * players == 60 else JESTER)


@st.composite
def played_games(draw: st.DrawFn, max_rounds: int = 20) -> tuple[Table, Records]:
    """A table and its first rounds scored (maybe all of them)."""
    players = draw(st.integers(3, 6))
    rounds = draw(st.integers(1, min(max_rounds, FULL_ROUNDS[players])))
    table = make_table(
        players,
        first_dealer=draw(st.integers(0, players - 1)),
        rounds=rounds,
        bid_rule=draw(st.sampled_from(BidRule)),
    )
    scored = draw(st.integers(0, rounds))
    return table, {n: draw(round_facts(players, n)) for n in range(1, scored + 1)}


@settings(max_examples=150, deadline=None)
@given(played_games())
def test_totals_equal_the_sum_of_round_scores(game_facts: tuple[Table, Records]) -> None:
    table, records = game_facts
    game = evaluate(table, records)
    scored = [view.scores for view in game.rounds if view.scores is not None]
    assert len(scored) == len(records)
    assert game.round(1).totals_before == [0] * table.seats
    for view in game.rounds[: len(records)]:
        bids, tricks = records[view.number].bids, records[view.number].tricks
        assert bids is not None
        assert tricks is not None
        expected = []
        for bid, won in zip(bids, tricks, strict=True):
            assert bid is not None
            expected.append(20 + 10 * won if bid == won else -10 * abs(bid - won))
        assert view.scores == expected
    assert game.totals == [sum(row[seat] for row in scored) for seat in range(table.seats)]
    for view, after in zip(game.rounds[1:], running_totals(scored, table.seats), strict=False):
        assert view.totals_before == after


def leads_outright(totals: Sequence[int], seat: int) -> bool:
    return all(totals[seat] > total for other, total in enumerate(totals) if other != seat)


@st.composite
def dealer_turns(draw: st.DrawFn) -> tuple[Table, int, list[int | None], list[int]]:
    """Any rule and option, any round, every other bid in, the dealer still to bid."""
    players = draw(st.integers(3, 6))
    table = make_table(
        players,
        first_dealer=draw(st.integers(0, players - 1)),
        bid_rule=draw(st.sampled_from(BidRule)),
        zero=draw(st.booleans()),
        reveal=draw(st.sampled_from(BidReveal)),
    )
    round_number = draw(st.integers(1, FULL_ROUNDS[players]))
    others = draw(
        st.lists(st.integers(0, round_number), min_size=players - 1, max_size=players - 1)
    )
    tens = st.integers(-3, 3).map(lambda x: 10 * x)  # small totals, so ties are common
    totals = draw(st.lists(tens, min_size=players, max_size=players))
    return table, round_number, in_seat_order(table, round_number, [*others, None]), totals


@settings(max_examples=200, deadline=None)
@given(dealer_turns())
def test_dealer_always_has_an_allowed_bid_and_at_most_one_forbidden(
    turn: tuple[Table, int, list[int | None], list[int]],
) -> None:
    table, round_number, bids, totals = turn
    seat = table.dealer(round_number)
    allowed = allowed_bids(table, round_number, seat, bids, totals)
    refused = [bid for bid in range(round_number + 1) if bid not in allowed]
    assert allowed
    assert len(refused) <= 1
    # RULES.md, restated: the dealer may not make the total equal the cards ...
    rule = table.rules.bid_rule
    restricted = rule is BidRule.PLUS_MINUS_ONE or (
        rule is BidRule.CANADIAN and leads_outright(totals, seat)
    )
    zero_ok = rule is BidRule.CANADIAN or table.rules.last_bidder_may_bid_zero
    others = sum(bid for bid in bids if bid is not None)
    expected = [
        bid
        for bid in range(round_number + 1)
        if restricted and others + bid == round_number and not (bid == 0 and zero_ok)
    ]
    assert refused == expected
    assert forbidden_bid(table, round_number, bids, totals) == (expected[0] if expected else None)


@settings(max_examples=200, deadline=None)
@given(dealer_turns(), st.data())
def test_forbidden_bid_is_never_outside_0_to_cards(
    turn: tuple[Table, int, list[int | None], list[int]], data: st.DataObject
) -> None:
    table, round_number, bids, totals = turn
    missing = data.draw(st.sets(st.integers(0, table.seats - 1)))
    partial = [None if seat in missing else bid for seat, bid in enumerate(bids)]
    forbidden = forbidden_bid(table, round_number, partial, totals)
    assert forbidden is None or 0 <= forbidden <= round_number
    if any(bid is None for seat, bid in enumerate(partial) if seat != table.dealer(round_number)):
        assert forbidden is None  # the dealer's limit waits for every other bid


@st.composite
def seatings(draw: st.DrawFn) -> tuple[int, int, int]:
    """Players, first dealer, and rounds to play (a full game or shorter)."""
    players = draw(st.integers(3, 6))
    first_dealer = draw(st.integers(0, players - 1))
    return players, first_dealer, draw(st.integers(1, FULL_ROUNDS[players]))


@settings(max_examples=150, deadline=None)
@given(seatings())
def test_every_seat_deals_equally_often_give_or_take_one(seating: tuple[int, int, int]) -> None:
    # 60 / n rounds is never a multiple of n (20/3, 15/4, 12/5, 10/6), so not even a full
    # game gives every seat the same number of deals; passing the deal to the left keeps
    # them within one, and any n rounds in a row give each seat exactly one deal.
    players, first_dealer, rounds = seating
    table = make_table(players, first_dealer=first_dealer, rounds=rounds)
    dealers = [view.dealer for view in evaluate(table, {}).rounds]
    deals = [dealers.count(seat) for seat in range(players)]
    assert max(deals) - min(deals) <= 1
    assert sum(deals) == rounds
    for start in range(rounds - players + 1):
        assert sorted(dealers[start : start + players]) == list(range(players))
    for earlier, later in pairwise(dealers):
        assert later == (earlier + 1) % players
    if rounds == full_game_rounds(players):
        assert min(deals) == rounds // players


@settings(max_examples=100, deadline=None)
@given(played_games(max_rounds=6), st.data())
def test_scores_and_standings_do_not_depend_on_seat_order(
    game_facts: tuple[Table, Records],
    data: st.DataObject,
) -> None:
    table, records = game_facts
    seats = table.seats
    moved = data.draw(st.permutations(range(seats)))  # new seat i holds old seat moved[i]

    def permute(values: Sequence[T] | None) -> list[T] | None:
        return None if values is None else [values[moved[i]] for i in range(seats)]

    permuted_records = {n: record(permute(r.bids), permute(r.tricks)) for n, r in records.items()}
    permuted_table = Table(
        tuple(table.players[moved[i]] for i in range(seats)), table.first_dealer, table.rules
    )
    before = evaluate(table, records)
    after = evaluate(permuted_table, permuted_records)
    assert after.totals == [before.totals[moved[i]] for i in range(seats)]
    for old, new in zip(before.rounds, after.rounds, strict=True):
        assert new.scores == permute(old.scores)
    assert {(s.name, s.total, s.rank) for s in after.standings} == {
        (s.name, s.total, s.rank) for s in before.standings
    }
    assert {permuted_table.players[s] for s in after.winners} == {
        table.players[s] for s in before.winners
    }


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 20), st.integers(0, 20))
def test_score_is_positive_exactly_when_bid_is_met(bid: int, tricks: int) -> None:
    assert (score(bid, tricks) > 0) is (bid == tricks)
