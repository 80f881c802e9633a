"""The trick tally over the API: POST /games/<id>/rounds/<n>/tally, the round's ``tally`` in
the game object, 412 on a stale If-Match, one refusal of each problem type (the others, and
undo of a tap: tests/services/test_tally.py)."""

from __future__ import annotations

from typing import Any

import pytest
from werkzeug.test import TestResponse

from ..api_client import ApiClient

NAMES = ["Thomas", "Ute", "Kevin"]


def _tally(api: ApiClient, game_id: str, number: int, body: Any, **headers: str) -> TestResponse:
    return api.client.post(
        f"/api/v1/games/{game_id}/rounds/{number}/tally",
        json=body,
        headers=api.headers(game_id, **headers),
    )


def _playing(api: ApiClient) -> str:
    """A game whose round 3 is being played: bids Thomas 1, Ute 2, Kevin 0."""
    played = [([0, 1, 0], [0, 1, 0]), ([1, 1, 0], [1, 1, 0])]
    return api.seed(NAMES, played, turned="blue", next_trump="green", next_bids=[1, 2, 0])


def _refused(response: TestResponse, status: int, detail: str | None = None) -> None:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    if detail is not None:
        assert response.get_json()["detail"] == detail


def test_each_trick_tallied_shows_in_the_round(api: ApiClient) -> None:
    game_id = _playing(api)
    assert api.get(game_id)["rounds"][2]["tally"] == []
    version = api.get(game_id)["version"]
    for winner in (1, 0, 1):
        response = _tally(api, game_id, 3, {"winner": winner})
        assert response.status_code == 200, response.get_json()
        version += 1
        assert response.headers["ETag"] == f'"{version}"'
    game = api.get(game_id)
    round3 = game["rounds"][2]
    assert round3["tally"] == [1, 0, 1]
    assert round3["state"] == "playing"  # tallying scores nothing by itself
    assert round3["tricks"] is None
    assert game["rounds"][0]["tally"] == []  # a round counted at the end keeps none


def test_a_table_that_counts_at_the_end_keeps_the_tricks_step(api: ApiClient) -> None:
    game_id = _playing(api)
    _tally(api, game_id, 3, {"winner": 1})
    game = api.tricks(game_id, 3, [1, 2, 0])
    assert game["rounds"][2]["scores"] == [30, 40, 20]
    assert game["rounds"][2]["tally"] == [1]


def test_a_stale_if_match_is_a_412_and_changes_nothing(api: ApiClient) -> None:
    game_id = _playing(api)
    seen = api.get(game_id)["version"]
    _tally(api, game_id, 3, {"winner": 0})
    before = api.get(game_id)
    _refused(_tally(api, game_id, 3, {"winner": 1}, **{"If-Match": f'"{seen}"'}), 412)
    assert api.get(game_id) == before
    fresh = {"If-Match": f'"{before["version"]}"'}
    assert _tally(api, game_id, 3, {"winner": 1}, **fresh).status_code == 200


@pytest.mark.parametrize(
    ("number", "body", "status", "detail"),
    [
        (4, {"winner": 0}, 409, "Round 4 waits until round 3 is scored: finish round 3 first."),
        (3, {"winner": 3}, 422, "There is no seat 3 at this table to win a trick."),
        (3, {"winner": "Ute"}, 400, None),
        (3, {"winner": 1, "card": "wizard"}, 422, None),
        (99, {"winner": 0}, 404, None),
    ],
)
def test_a_tap_that_cannot_be_is_refused_in_one_sentence(
    api: ApiClient, number: int, body: Any, status: int, detail: str | None
) -> None:
    game_id = _playing(api)
    before = api.get(game_id)
    _refused(_tally(api, game_id, number, body), status, detail)
    assert api.get(game_id) == before


def test_a_stranger_cannot_tally(api: ApiClient) -> None:
    game_id = _playing(api)
    path = f"/api/v1/games/{game_id}/rounds/3/tally"
    assert api.client.post(path, json={"winner": 0}).status_code == 401
    wrong = {"Authorization": "Bearer not-this-games-token"}
    assert api.client.post(path, json={"winner": 0}, headers=wrong).status_code == 403


def test_the_tally_is_in_the_openapi_document(api: ApiClient) -> None:
    document = api.client.get("/api/v1/openapi.json").get_json()
    operation = document["paths"]["/api/v1/games/{game_id}/rounds/{number}/tally"]["post"]
    assert operation["operationId"] == "postTally"
    assert "412" in operation["responses"]
    assert "tally" in document["components"]["schemas"]["Round"]["properties"]


def test_the_bombs_trick_tallied_to_nobody_scores_a_round_of_cards_minus_one(
    api: ApiClient,
) -> None:
    game_id = api.create(NAMES, first_dealer=0, rules={"special_cards": ["bomb"]})["id"]
    api.play_round(game_id, 1, [0, 1, 0], [0, 1, 0])
    api.play_round(game_id, 2, [1, 1, 0], [1, 1, 0])
    api.trump(game_id, 3, "green")
    api.bids(game_id, 3, [1, 1, 0])
    for winner in (0, None, 1):
        response = _tally(api, game_id, 3, {"winner": winner})
        assert response.status_code == 200, response.get_json()
    _refused(_tally(api, game_id, 3, {"winner": None}), 422)  # one Bomb, one trick to nobody
    round3 = api.get(game_id)["rounds"][2]
    assert round3["tally"] == [0, None, 1]
    assert round3["bomb"] is True
    # 2 tricks of 3 cards: the Bomb took one
    scored = api.ok(game_id, 3, "tricks", {"tricks": [1, 1, 0], "bomb": True})
    assert scored["rounds"][2]["tricks"] == [1, 1, 0]
    assert scored["rounds"][2]["state"] == "scored"
