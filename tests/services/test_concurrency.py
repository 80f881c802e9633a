"""Writers racing on one game, each thread with its own client, on SQLite and PostgreSQL.

The service locks the game for the whole of a write (``BEGIN IMMEDIATE`` on SQLite,
``SELECT ... FOR UPDATE`` on PostgreSQL), so writers queue up: a writer whose ``If-Match``
went stale while it waited gets 412, one without ``If-Match`` waits and succeeds, no update
is lost, and nobody sees a 500 or a 503 ("database is locked").
"""

from __future__ import annotations

import itertools
import random
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ..api_client import ApiClient

# The outcome depends on the backend: run on both (docs/development.md).
pytestmark = pytest.mark.both_backends

T = TypeVar("T")

WORKERS = 8
RACES = 4  # races in the If-Match test
WRITES_PER_WORKER = 3
RACE_TIMEOUT = 60  # seconds; a writer that waits this long has hung

# Eight different trumps, and the eight different bids of a 3-player round 1 (one card).
TRUMPS: list[dict[str, str]] = [
    {"turned": "blue"},
    {"turned": "green"},
    {"turned": "red"},
    {"turned": "yellow"},
    {"turned": "jester"},
    {"turned": "wizard", "chosen": "blue"},
    {"turned": "wizard", "chosen": "green"},
    {"turned": "wizard", "chosen": "yellow"},
]
BIDS: list[list[int]] = [list(bids) for bids in itertools.product([0, 1], repeat=3)]


@dataclass(frozen=True)
class Write:
    """One PUT to a round, and what came back."""

    number: int
    what: str  # "trump", "bids" or "tricks"
    body: dict[str, Any]
    if_match: int | None = None

    def send(self, client: FlaskClient, game_id: str, token: str) -> Answer:
        headers = {"Authorization": f"Bearer {token}"}
        if self.if_match is not None:
            headers["If-Match"] = f'"{self.if_match}"'
        response = client.put(
            f"/api/v1/games/{game_id}/rounds/{self.number}/{self.what}",
            json=self.body,
            headers=headers,
        )
        return Answer(self, response.status_code, response.get_json())


@dataclass(frozen=True)
class Answer:
    write: Write
    status: int
    body: Any

    @property
    def version(self) -> int:
        version: int = self.body["version"]
        return version


def race(app: Flask, jobs: list[Callable[[FlaskClient], T]]) -> list[T]:
    """Run each job in its own thread with its own client, all released at once."""
    barrier = threading.Barrier(len(jobs))

    def run(job: Callable[[FlaskClient], T]) -> T:
        client = app.test_client()
        barrier.wait(timeout=RACE_TIMEOUT)
        return job(client)

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = [pool.submit(run, job) for job in jobs]
        return [future.result(timeout=RACE_TIMEOUT) for future in futures]


def race_writes(app: Flask, game_id: str, token: str, plans: list[list[Write]]) -> list[Answer]:
    """Each plan is one writer's writes, sent one after the other; the writers race."""

    def writer(plan: list[Write]) -> Callable[[FlaskClient], list[Answer]]:
        return lambda client: [write.send(client, game_id, token) for write in plan]

    return [answer for answers in race(app, [writer(plan) for plan in plans]) for answer in answers]


def trump_of(body: dict[str, str]) -> dict[str, str | None]:
    """How a trump PUT body reads back in the game object."""
    if body["turned"] == "wizard":
        return {"turned": "wizard", "suit": body["chosen"]}
    suit = None if body["turned"] == "jester" else body["turned"]
    return {"turned": body["turned"], "suit": suit}


def new_game(api: ApiClient) -> tuple[str, str]:
    """A 3-player game whose round 1 has its trump, so trump and bids may both be written."""
    game_id = api.seed()
    api.trump(game_id, 1, "blue")
    return game_id, api.tokens[game_id]


def describe(answers: list[Answer]) -> list[tuple[int, Any]]:
    return [(answer.status, answer.body) for answer in answers]


def test_same_if_match_one_writer_wins_the_others_get_412(app: Flask, api: ApiClient) -> None:
    game_id, token = new_game(api)
    for race_number in range(RACES):
        start = api.get(game_id)["version"]
        if race_number % 2:
            plans = [[Write(1, "trump", body, if_match=start)] for body in TRUMPS]
        else:
            plans = [[Write(1, "bids", {"bids": bids}, if_match=start)] for bids in BIDS]
        answers = race_writes(app, game_id, token, plans)

        assert Counter(a.status for a in answers) == {200: 1, 412: WORKERS - 1}, describe(answers)
        winner = next(a for a in answers if a.status == 200)
        assert winner.version == start + 1
        if winner.write.what == "trump":
            assert winner.body["rounds"][0]["trump"] == trump_of(winner.write.body)
        else:
            assert winner.body["rounds"][0]["bids"] == winner.write.body["bids"]
        assert api.get(game_id) == winner.body
        for loser in answers:
            if loser.status == 412:
                assert f"version {start + 1}" in loser.body["detail"]


def test_writers_without_if_match_all_wait_and_no_update_is_lost(
    app: Flask, api: ApiClient
) -> None:
    game_id, token = new_game(api)
    before = api.get(game_id)
    # Half the writers change the trump, half the bids, each write a value of its own.
    plans = [
        [
            Write(1, "trump", TRUMPS[(worker + n) % 8])
            if worker % 2
            else Write(1, "bids", {"bids": BIDS[(worker + n) % 8]})
            for n in range(WRITES_PER_WORKER)
        ]
        for worker in range(WORKERS)
    ]
    answers = race_writes(app, game_id, token, plans)

    total = WORKERS * WRITES_PER_WORKER
    assert Counter(a.status for a in answers) == {200: total}, describe(answers)
    ordered = sorted(answers, key=lambda answer: answer.version)
    assert [a.version for a in ordered] == list(
        range(before["version"] + 1, before["version"] + total + 1)
    )
    # Replayed in version order, every answer shows its own write on top of all earlier ones.
    trump = before["rounds"][0]["trump"]
    bids = before["rounds"][0]["bids"]
    for answer in ordered:
        if answer.write.what == "trump":
            trump = trump_of(answer.write.body)
        else:
            bids = answer.write.body["bids"]
        assert answer.body["rounds"][0]["trump"] == trump, answer.version
        assert answer.body["rounds"][0]["bids"] == bids, answer.version
    assert api.get(game_id) == ordered[-1].body


def mixed_plan(rng: random.Random, stale: int) -> list[Write]:
    """Four writes drawn from rounds 1 and 2: good ones, out-of-turn ones, bad ones."""
    choices = [
        lambda: Write(1, "trump", rng.choice(TRUMPS)),
        lambda: Write(1, "bids", {"bids": rng.choice(BIDS)}),
        lambda: Write(1, "bids", {"bids": [rng.choice([0, 1, None]), None, 0]}),
        lambda: Write(1, "tricks", {"tricks": rng.choice([[1, 0, 0], [0, 1, 0], [0, 0, 1]])}),
        lambda: Write(1, "tricks", {"tricks": [1, 1, 0]}),  # 2 tricks of a 1-card round: 422
        lambda: Write(1, "bids", {"bids": [5, 0, 0]}),  # out of range: 422
        lambda: Write(2, "trump", rng.choice(TRUMPS)),
        lambda: Write(2, "bids", {"bids": [rng.randint(0, 2) for _ in range(3)]}),
        lambda: Write(2, "tricks", {"tricks": rng.choice([[2, 0, 0], [1, 1, 0], [0, 0, 2]])}),
        lambda: Write(1, "trump", rng.choice(TRUMPS), if_match=stale),  # 412
    ]
    return [rng.choice(choices)() for _ in range(4)]


def test_mixed_race_answers_only_200_409_412_422_with_unique_versions(
    app: Flask, api: ApiClient
) -> None:
    game_id, token = new_game(api)
    before = api.get(game_id)
    plans = [mixed_plan(random.Random(worker), stale=1) for worker in range(WORKERS)]
    answers = race_writes(app, game_id, token, plans)

    counts = Counter(a.status for a in answers)
    assert set(counts) <= {200, 409, 412, 422}, describe(answers)
    assert counts[200] >= 1, counts
    assert counts[412] >= 1, counts
    versions = [a.version for a in answers if a.status == 200]
    assert len(set(versions)) == len(versions), sorted(versions)
    final = api.get(game_id)
    assert final["version"] == before["version"] + counts[200]
    assert final == max((a for a in answers if a.status == 200), key=lambda a: a.version).body


def test_a_delete_racing_writers_leaves_no_write_after_it(app: Flask, api: ApiClient) -> None:
    game_id, token = new_game(api)
    start = api.get(game_id)["version"]

    def delete(client: FlaskClient) -> list[tuple[int, Any]]:
        response = client.delete(
            f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
        )
        return [(response.status_code, None)]

    def writer(bids: list[int]) -> Callable[[FlaskClient], list[tuple[int, Any]]]:
        def send(client: FlaskClient) -> list[tuple[int, Any]]:
            answers = [Write(1, "bids", {"bids": bids}).send(client, game_id, token)]
            answers.append(Write(1, "trump", TRUMPS[sum(bids)]).send(client, game_id, token))
            return [(answer.status, answer.body) for answer in answers]

        return send

    jobs = [writer(bids) for bids in BIDS[: WORKERS - 1]] + [delete]
    answers = [answer for answers in race(app, jobs) for answer in answers]

    counts = Counter(status for status, _ in answers)
    assert set(counts) <= {200, 204, 404}, answers
    assert counts[204] == 1, answers
    versions = [body["version"] for status, body in answers if status == 200]
    assert sorted(versions) == list(range(start + 1, start + 1 + len(versions)))
    assert app.test_client().get(f"/api/v1/games/{game_id}").status_code == 404


def test_writers_on_different_games_all_succeed(app: Flask, api: ApiClient) -> None:
    games = [new_game(api) for _ in range(WORKERS)]

    def writer(game_id: str, token: str, worker: int) -> Callable[[FlaskClient], list[Answer]]:
        plan = [Write(1, "bids", {"bids": BIDS[(worker + n) % 8]}) for n in range(3)]
        return lambda client: [write.send(client, game_id, token) for write in plan]

    results = race(app, [writer(game_id, token, n) for n, (game_id, token) in enumerate(games)])

    for (game_id, _token), answers in zip(games, results, strict=True):
        assert [a.status for a in answers] == [200, 200, 200], describe(answers)
        assert [a.version for a in answers] == [3, 4, 5]
        assert api.get(game_id) == answers[-1].body
