"""What one app instance answers is what the database holds, whatever another wrote.

Another process (here, a second app on the same database, with connections of its own)
writes in between: a follower never sees an older version than the one stored, a write is
made on the game as stored, and one version of a game is always the same JSON text.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from ..api_client import ApiClient
from ..conftest import app_on
from ..statements import count_statements


@pytest.fixture
def other_process(database_url: str) -> Iterator[Flask]:
    """A second app on the same database: another process, with connections of its own."""
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


def test_one_version_of_a_game_is_the_same_json_text_from_every_instance(
    api: ApiClient, app: Flask, other_process: Flask
) -> None:
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0)["id"]
    api.play_round(game_id, 1, [0, 0, 1], [0, 0, 1])
    api.trump(game_id, 2, "wizard", "red")
    texts = {
        instance.test_client().get(f"/api/v1/games/{game_id}").get_data()
        for instance in (app, other_process, app, other_process)
    }
    assert len(texts) == 1
    with count_statements(other_process) as statements:
        poll = other_process.test_client().get(
            f"/api/v1/games/{game_id}", headers={"If-None-Match": '"5"'}
        )
    assert poll.status_code == 304
    assert len(statements) == 1, statements  # the version alone


# The outcome depends on the backend: run on both (docs/development.md).
pytestmark = pytest.mark.both_backends


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


# A write is made on the game as stored, whatever version this process answered before.


@pytest.fixture
def two_phones(app: Flask, other_process: Flask) -> tuple[ApiClient, ApiClient, str]:
    """Two API clients of one game, each on its own process; this one knows version 4."""
    here = ApiClient(app.test_client())
    game_id = here.create(["Ann", "Bob", "Cy"], first_dealer=0)["id"]
    here.play_round(game_id, 1, [1, 0, 0], [1, 0, 0], turned="red")
    elsewhere = ApiClient(other_process.test_client())
    elsewhere.tokens = here.tokens
    return here, elsewhere, game_id


def test_a_write_on_a_version_another_process_replaced_is_made_on_the_stored_one(
    two_phones: tuple[ApiClient, ApiClient, str],
) -> None:
    here, elsewhere, game_id = two_phones
    elsewhere.trump(game_id, 2, "blue")  # version 5, unknown here

    changed = here.trump(game_id, 2, "green")  # no If-Match: the latest version is changed

    assert changed["version"] == 6
    assert changed["rounds"][1]["trump"] == {"turned": "green", "suit": "green"}
    assert elsewhere.get(game_id) == changed
    audit = here.client.get(f"/api/v1/games/{game_id}/export").get_json()["audit"]
    kept = [(change["round"], change["kind"], change["new"]["trump"]) for change in audit]
    assert kept[3:] == [
        (2, "trump", {"turned": "blue", "suit": "blue"}),
        (2, "trump", {"turned": "green", "suit": "green"}),
    ]  # both writes kept, the second made on the first


def test_a_write_refused_on_an_old_version_is_made_on_the_stored_one(
    two_phones: tuple[ApiClient, ApiClient, str],
) -> None:
    here, elsewhere, game_id = two_phones
    elsewhere.trump(game_id, 2, "blue")
    elsewhere.bids(game_id, 2, [1, 1, 1])  # version 6: round 2 is being played

    # Version 4, known here, has no trump nor bids in round 2: tricks would be out of turn.
    scored = here.tricks(game_id, 2, [1, 1, 0])

    assert scored["version"] == 7
    assert scored["rounds"][1]["scores"] == [30, 30, -10]
    assert scored["totals"] == [60, 50, 10]


def test_an_if_match_of_a_version_another_process_replaced_is_refused(
    two_phones: tuple[ApiClient, ApiClient, str],
) -> None:
    here, elsewhere, game_id = two_phones
    elsewhere.trump(game_id, 2, "blue")

    response = here.put(game_id, 2, "trump", {"turned": "green"}, **{"If-Match": '"4"'})

    assert response.status_code == 412
    assert "version 5" in response.get_json()["detail"]
    assert here.get(game_id)["rounds"][1]["trump"] == {"turned": "blue", "suit": "blue"}


def test_a_game_deleted_by_another_process_is_not_written(
    two_phones: tuple[ApiClient, ApiClient, str],
) -> None:
    here, elsewhere, game_id = two_phones
    deleted = elsewhere.client.delete(
        f"/api/v1/games/{game_id}", headers=elsewhere.headers(game_id)
    )
    assert deleted.status_code == 204

    response = here.put(game_id, 2, "trump", {"turned": "green"})

    assert response.status_code == 404
    assert here.client.get(f"/api/v1/games/{game_id}").status_code == 404


def test_every_answer_of_a_game_corrected_back_and_forth_is_what_a_new_process_reads(
    api: ApiClient, other_process: Flask
) -> None:
    """A write answers the game from the rounds it did not change as they were answered
    before: after corrections, take-backs and a round scored again (which move the totals
    and, under the Canadian rule, the forbidden bids of the rounds after them), each answer
    must still be the game as read from scratch."""
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0, rules={"bid_rule": "canadian"})["id"]
    stranger = other_process.test_client()
    writes = [
        lambda: api.play_round(game_id, 1, [1, 0, 0], [1, 0, 0], turned="red"),
        lambda: api.play_round(game_id, 2, [0, 1, 0], [1, 1, 0], turned="blue"),
        lambda: api.trump(game_id, 3, "green"),
        lambda: api.bids(game_id, 3, [1, None, None]),
        lambda: api.tricks(game_id, 1, [0, 1, 0]),  # a correction: every total moves
        lambda: api.bids(game_id, 3, [1, 2, None]),
        lambda: api.bids(game_id, 2, [0, 1, 1]),  # a correction of round 2's bids
        lambda: api.tricks(game_id, 1, [1, 0, 0]),  # and round 1 back as it was
        lambda: api.bids(game_id, 3, [1, 2, 0]),
        lambda: api.tricks(game_id, 3, [1, 2, 0]),
    ]
    totals = set()
    for write in writes:
        answer = write()
        assert stranger.get(f"/api/v1/games/{game_id}").get_json() == answer
        totals.add(tuple(answer["totals"]))
    assert len(totals) >= 4  # the corrections did move the totals
    assert answer["current_round"] == 4
