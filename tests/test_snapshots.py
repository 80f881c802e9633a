"""Each process keeps the latest version of the games it read or wrote (the snapshot cache).

What it answers must be what the database holds: another process (here, a second app on
the same database, with a cache of its own) writes in between, and a game read again is
the game as stored, never an older copy.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from bench.queries import counted as count_statements

from .api_client import ApiClient
from .conftest import app_on


@pytest.fixture
def other_process(database_url: str) -> Iterator[Flask]:
    """A second app on the same database: another process, with a cache of its own."""
    with app_on(database_url) as other:
        yield other


def test_a_write_from_another_process_is_seen_at_once(app: Flask, other_process: Flask) -> None:
    here = ApiClient(app.test_client())
    game = here.create(["Ann", "Bob", "Cy"], first_dealer=0)
    game_id = game["id"]
    here.play_round(game_id, 1, [1, 0, 0], [1, 0, 0], turned="red")
    assert here.get(game_id)["version"] == 4  # known to this process now

    elsewhere = ApiClient(other_process.test_client())
    elsewhere.tokens = here.tokens
    written = elsewhere.play_round(game_id, 2, [1, 1, 0], [1, 0, 1], turned="blue")

    seen = here.get(game_id)
    assert seen == written
    assert seen["version"] == 7
    assert seen["totals"] == [60, 10, 10]
    # And this process writes on top of the other's writes, not of what it knew before.
    after = here.trump(game_id, 3, "green")
    assert after["version"] == 8
    assert after["rounds"][1]["scores"] == [30, -10, -10]
    assert after["totals"] == [60, 10, 10]


def test_a_game_read_again_unchanged_costs_one_statement(
    api: ApiClient, other_process: Flask
) -> None:
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0)["id"]
    api.play_round(game_id, 1, [0, 0, 1], [0, 0, 1])
    client = other_process.test_client()
    with count_statements(other_process) as first:
        first_answer = client.get(f"/api/v1/games/{game_id}").get_json()
    with count_statements(other_process) as again:
        again_answer = client.get(f"/api/v1/games/{game_id}").get_json()
    assert again_answer == first_answer
    assert len(first) == 2, first  # the game's row, then its rounds
    assert len(again) == 1, again  # the row only: its version is known


def test_written_answers_match_what_a_new_process_reads(
    api: ApiClient, other_process: Flask
) -> None:
    game_id = api.create(["Ann", "Bob", "Cy", "Dee"], first_dealer=2)["id"]
    answers = []
    for number, (bids, tricks) in enumerate(
        [([0, 1, 0, 0], [0, 1, 0, 0]), ([1, 0, 1, 0], [2, 0, 0, 0]), ([0, 0, 0, 3], [0, 0, 0, 3])],
        start=1,
    ):
        answers.append(api.play_round(game_id, number, bids, tricks))
    answers.append(api.trump(game_id, 4, "yellow"))
    answers.append(api.bids(game_id, 4, [None, None, 1, None]))  # seat 2 bids first
    stranger = other_process.test_client()
    assert stranger.get(f"/api/v1/games/{game_id}").get_json() == answers[-1]
