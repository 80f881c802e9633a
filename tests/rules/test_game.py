"""A whole game: the state of each round from the recorded facts, and which facts may be
recorded now."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorekeeper.rules.game import GameView, RoundRecord, evaluate
from scorekeeper.rules.messages import BidError, OutOfTurnError
from scorekeeper.rules.referee import verify_bids_turn, verify_tricks_turn, verify_trump_turn

from .helpers import JESTER, assert_refused, make_table, record

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


def test_no_bids_yet_has_one_form_whatever_the_way_there() -> None:
    table = make_table(3)
    fresh = RoundRecord(JESTER)
    nulls = RoundRecord(JESTER, (None, None, None))  # after an undo, or a write of nulls
    assert nulls == fresh
    assert nulls.bids is None
    assert evaluate(table, {1: nulls}).round(1) == evaluate(table, {1: fresh}).round(1)
