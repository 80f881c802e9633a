"""The cost of reading and writing a game does not grow with the rounds played."""

from __future__ import annotations

import pytest
from flask import Flask

from ..api_client import ApiClient
from ..statements import count_statements

# The outcome depends on the backend: run on both (docs/development.md).
pytestmark = pytest.mark.both_backends


def _game_after(api: ApiClient, rounds_scored: int) -> str:
    """A game of ``rounds_scored`` rounds, seeded through the services."""
    return api.seed(played=[([0] * 3, [n, 0, 0]) for n in range(1, rounds_scored + 1)])


def test_reading_a_game_costs_the_same_after_1_and_19_rounds(app: Flask, api: ApiClient) -> None:
    short = _game_after(api, 1)
    long = _game_after(api, 19)
    with count_statements(app) as after_one:
        api.get(short)
    with count_statements(app) as after_nineteen:
        api.get(long)
    assert len(after_one) == len(after_nineteen)
    assert len(after_one) <= 4, after_one


def test_writing_a_round_costs_the_same_after_1_and_19_rounds(app: Flask, api: ApiClient) -> None:
    short = _game_after(api, 1)
    long = _game_after(api, 18)
    api.trump(short, 2, "red")
    api.trump(long, 19, "red")
    with count_statements(app) as early:
        api.bids(short, 2, [0, 1, None])
    with count_statements(app) as late:
        api.bids(long, 19, [0, 1, None])
    assert len(early) == len(late), (early, late)
