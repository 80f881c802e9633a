"""Tricks: the counts of a round checked against its cards; and the rules behind the trick
step of the round screen: the count filled in from the sum, "everyone made their bid", and
the order in which a draft is asked for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import Suit, TrumpCard, Turned
from scorekeeper.rules.game import RoundRecord, evaluate
from scorekeeper.rules.messages import OutOfTurnError, TrickError
from scorekeeper.rules.referee import verify_being_played
from scorekeeper.rules.table import Table
from scorekeeper.rules.tricks import (
    all_made_tricks,
    complete_draft,
    fill_tricks,
    tricks_if_all_made,
    verify_trick_count,
    verify_tricks,
)
from scorekeeper.rules.variants import GameRules

from .helpers import assert_refused, make_table

TABLE = Table(("Ann", "Bob", "Cy"), first_dealer=0, rules=GameRules(rounds=20))


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
        (3, [-1, 2, 2], "tricks[0]", "In round 3 Thomas can win 0 to 3 tricks, not −1."),
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


# -- The trick step of the round screen ----------------------------------------------------


@pytest.mark.parametrize(
    ("draft", "filled"),
    [
        ((1, None, 2), (1, 2, 2)),  # round 5: 5 - 1 - 2 = 2
        ((None, None, 2), (None, None, 2)),  # two missing: nothing to fill
        ((3, None, 3), (3, None, 3)),  # the others already exceed the cards
        ((1, 2, 2), (1, 2, 2)),  # nothing missing
        ((5, 0, None), (5, 0, 0)),
    ],
)
def test_the_one_missing_count_is_filled_in_from_the_sum(
    draft: tuple[int | None, ...], filled: tuple[int | None, ...]
) -> None:
    assert fill_tricks(5, draft) == filled


@given(
    cards=st.integers(1, 20),
    data=st.data(),
)
def test_a_filled_in_draft_adds_up_to_the_cards(cards: int, data: st.DataObject) -> None:
    seats = data.draw(st.integers(3, 6))
    missing = data.draw(st.integers(0, seats - 1))
    others = data.draw(st.lists(st.integers(0, cards), min_size=seats - 1, max_size=seats - 1))
    draft: list[int | None] = list(others)
    draft.insert(missing, None)
    filled = fill_tricks(cards, draft)
    if sum(others) <= cards:
        assert sum(count or 0 for count in filled) == cards
        assert filled[missing] is not None
        assert 0 <= filled[missing] <= cards  # type: ignore[operator]
    else:
        assert filled[missing] is None


@pytest.mark.parametrize(
    ("draft", "filled"),
    [
        ((1, None, None), (1, 0, 0)),  # round 1: the one trick is taken, the rest won none
        ((None, 1, None, None, None, None), (0, 1, 0, 0, 0, 0)),
        ((0, None, None), (0, None, None)),  # one trick still to place: nothing decided
    ],
)
def test_once_the_tricks_add_up_every_missing_count_is_0(
    draft: tuple[int | None, ...], filled: tuple[int | None, ...]
) -> None:
    assert fill_tricks(1, draft) == filled


def test_a_draft_is_completed_or_names_the_first_bidder_missing() -> None:
    # Round 2: Bob deals, so Cy bids first, then Ann, then Bob.
    with pytest.raises(TrickError, match="Tap the tricks Cy won") as refused:
        complete_draft(TABLE, 2, (None, None, None))
    assert refused.value.field == "tricks[2]"
    with pytest.raises(TrickError, match="Tap the tricks Ann won"):
        complete_draft(TABLE, 2, (None, None, 1))
    assert complete_draft(TABLE, 2, (1, None, 1)) == (1, 0, 1)


@pytest.mark.parametrize(
    ("bids", "tricks"),
    [((1, 0, 1), (1, 0, 1)), ((0, 0, 2), (0, 0, 2))],
)
def test_everyone_made_their_bid_when_the_bids_add_up_to_the_cards(
    bids: tuple[int, ...], tricks: tuple[int, ...]
) -> None:
    assert tricks_if_all_made(2, bids) == tricks
    assert all_made_tricks(TABLE, 2, bids) == tricks


@pytest.mark.parametrize("bids", [(1, 1, 1), (0, 0, 0), (1, None, 1), ()])
def test_not_everyone_can_have_made_bids_that_miss_the_cards(
    bids: tuple[int | None, ...],
) -> None:
    assert tricks_if_all_made(2, bids) is None
    with pytest.raises(TrickError, match="not everyone can have made their bid"):
        all_made_tricks(TABLE, 2, bids)


def test_tricks_may_be_tapped_in_only_while_a_round_is_played() -> None:
    trump = TrumpCard(Turned.BLUE, Suit.BLUE)
    game = evaluate(
        TABLE,
        {
            1: RoundRecord(trump=trump, bids=(1, 0, 0), tricks=(1, 0, 0)),
            2: RoundRecord(trump=trump, bids=(1, 0, None)),
            3: RoundRecord(),
        },
    )
    with pytest.raises(OutOfTurnError, match="Round 1 is scored already"):
        verify_being_played(game, 1)
    with pytest.raises(OutOfTurnError, match="Record every bid of round 2"):
        verify_being_played(game, 2)
    with pytest.raises(OutOfTurnError, match="Round 3 waits until round 2"):
        verify_being_played(game, 3)


def test_a_trick_count_lies_between_0_and_the_cards() -> None:
    verify_trick_count(TABLE, 3, 0, 3)
    with pytest.raises(TrickError, match="In round 3 Bob can win 0 to 3 tricks, not 4"):
        verify_trick_count(TABLE, 3, 1, 4)
