"""Scoring: points per round, running totals, standings, winners, and the seeds' example."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import TrumpCard
from scorekeeper.rules.game import GameStatus, evaluate
from scorekeeper.rules.scoring import score, standings

from .helpers import NAMES, make_table, record, seat_zero_takes_all

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
    assert game.round(10).trump == TrumpCard.NO_CARD_LEFT
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
