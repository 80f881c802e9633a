"""Bids: the range of a bid, the dealer's forbidden bid under each bid rule, and the
reveal modes."""

from __future__ import annotations

import pytest

from scorekeeper.rules.bids import can_bid, forbidden_bid, verify_bids
from scorekeeper.rules.game import RoundState, evaluate
from scorekeeper.rules.messages import BidError
from scorekeeper.rules.referee import BidChange, change_bid, verify_bids_turn
from scorekeeper.rules.variants import BidReveal, BidRule

from .helpers import allowed_bids, assert_refused, in_seat_order, make_table, record

# -- Bids ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "message"),
    [(-1, "In round 3 Ute can bid 0 to 3, not −1."), (4, "In round 3 Ute can bid 0 to 3, not 4.")],
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
        "Kevin deals and may not bid 1: the bids would add up to the 2 tricks of this round "
        "(Canadian rule: the dealer leads the standings alone).",
    )


def _round_2_refusal(bid_rule: BidRule, reveal: BidReveal = BidReveal.OPEN) -> BidError:
    """Kevin leads alone after round 1 and deals round 2, where the bids 1, 0, 1 add up to
    the 2 tricks: the refusal."""
    table = make_table(3, first_dealer=1, bid_rule=bid_rule, reveal=reveal)
    game = evaluate(table, {1: record([0, 1, 1], [0, 0, 1]), 2: record()})
    with pytest.raises(BidError) as caught:
        verify_bids_turn(game, 2, [1, 0, 1])
    return caught.value


@pytest.mark.parametrize("reveal", [BidReveal.COVERED, BidReveal.SECRET])
def test_a_canadian_refusal_of_hidden_bids_says_why_the_dealer_is_held(
    reveal: BidReveal,
) -> None:
    assert_refused(
        _round_2_refusal(BidRule.CANADIAN, reveal),
        BidError,
        "These bids would add up to the 2 tricks of this round, which the bid rule forbids: "
        "Kevin, who deals, must bid something else (Canadian rule: the dealer leads the "
        "standings alone).",
    )


def test_a_canadian_dealer_asked_to_bid_again_is_told_why() -> None:
    table = make_table(3, first_dealer=1, bid_rule=BidRule.CANADIAN)
    game = evaluate(table, {1: record([0, 1, 1], [0, 0, 1]), 2: record([0, 0, 1])})
    change = change_bid(game, 2, 0, 1)
    assert change.dealer_bids_again is not None
    assert_refused(
        change.dealer_bids_again,
        BidError,
        "Thomas now bids 1, so Kevin, who deals, may not keep 1 (the bids would add up to the "
        "2 tricks of this round) and must bid again (Canadian rule: the dealer leads the "
        "standings alone).",
    )


def test_no_note_when_the_bid_rule_always_holds() -> None:
    assert_refused(
        _round_2_refusal(BidRule.PLUS_MINUS_ONE),
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


@pytest.mark.parametrize(
    ("reveal", "bids", "message"),
    [
        (
            BidReveal.COVERED,
            (None, 1, 0),
            "These bids would add up to the 1 trick of this round, which the bid rule "
            "forbids: Thomas, who deals, must bid something else.",
        ),
        (
            BidReveal.COVERED,
            (0, 1, 0),
            "Thomas deals and may not bid 0: the bids would add up to the 1 trick of this round.",
        ),
        (
            BidReveal.SECRET,
            (0, 1, 0),
            "These bids would add up to the 1 trick of this round, which the bid rule "
            "forbids: Thomas, who deals, must bid something else.",
        ),
    ],
    ids=["covered-while-bidding", "covered-revealed-before-play", "secret-during-play"],
)
def test_a_refusal_names_the_dealers_bid_only_once_the_bids_are_shown(
    reveal: BidReveal, bids: tuple[int | None, ...], message: str
) -> None:
    # Thomas deals round 1: with Ute 1 and Kevin 0 he may not bid 0.
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE, reveal=reveal)
    game = evaluate(table, {1: record(bids)})
    with pytest.raises(BidError) as caught:
        verify_bids_turn(game, 1, [0, 1, 0])
    assert_refused(caught.value, BidError, message)
    assert caught.value.field == "bids[0]"


# -- Changing a bid ------------------------------------------------------------------------


OPEN_AGAIN = (
    "Kevin now bids 0, so Thomas, who deals, may not keep 1 (the bids would add up to the 1 "
    "trick of this round) and must bid again."
)
HIDDEN_AGAIN = (
    "Kevin's bid is saved, but with it the bids would add up to the 1 trick of this round, "
    "which the bid rule forbids: Thomas, who deals, must bid again."
)


@pytest.mark.parametrize(
    ("reveal", "bids", "message"),
    [
        (BidReveal.OPEN, [1, 0, 1], OPEN_AGAIN),
        # While the bids are hidden the sentence names none.
        (BidReveal.COVERED, [1, 0, None], HIDDEN_AGAIN),
        (BidReveal.SECRET, [1, 0, None], HIDDEN_AGAIN),
        # All covered bids were in and shown; taking Thomas's back covers them again.
        (BidReveal.COVERED, [1, 0, 1], HIDDEN_AGAIN),
    ],
    ids=["open", "covered", "secret", "covered-in-play"],
)
def test_a_new_bid_that_leaves_the_dealers_bid_forbidden_stands_and_the_dealer_bids_again(
    reveal: BidReveal, bids: list[int | None], message: str
) -> None:
    # The restriction falls on the dealer: Kevin's new 0 stands, and Thomas, who deals and
    # bid 1, bids again (with Ute 0 and Kevin 0, 1 would make the bids add up to the trick).
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE, reveal=reveal)
    game = evaluate(table, {1: record(bids)})
    change = change_bid(game, 1, 2, 0)
    assert change.bids == (None, 0, 0)
    assert change.dealer_bids_again is not None
    assert_refused(change.dealer_bids_again, BidError, message)
    assert change.dealer_bids_again.field == "bids[2]"  # told where the tap was


@pytest.mark.parametrize(
    ("seat", "bid", "bids"),
    [(1, 1, (1, 1, 1)), (2, None, (1, 0, None))],
    ids=["allowed-beside-it", "a-bid-taken-back"],
)
def test_a_new_bid_that_leaves_the_dealers_bid_allowed_keeps_it(
    seat: int, bid: int | None, bids: tuple[int | None, ...]
) -> None:
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE)
    game = evaluate(table, {1: record([1, 0, 1])})
    assert change_bid(game, 1, seat, bid) == BidChange(bids)


def test_the_dealers_own_forbidden_bid_is_refused_at_the_dealer() -> None:
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE)
    game = evaluate(table, {1: record([1, 0, 1])})
    with pytest.raises(BidError) as caught:
        change_bid(game, 1, 0, 0)
    assert caught.value.field == "bids[0]"
    with pytest.raises(BidError, match="Ute can bid 0 to 1, not 2"):
        change_bid(game, 1, 1, 2)


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
