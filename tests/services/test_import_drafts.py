"""The trick counts tapped in before a round is scored, through an export and an import: the
audit trail says what each tap changed, a round being played keeps its counts in the copy
(also after a scoring taken back), and counts no round can hold are refused (nothing is
imported). How the round screen and its history show them is tests/pages'."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask

from scorekeeper.services import rounds, undo

from ..api_client import ApiClient
from ..factory import browser_of, game_count, seed

NAMES = ["Thomas", "Ute", "Kevin"]


def _tapped(app: Flask, api: ApiClient) -> tuple[str, dict[str, Any]]:
    """Round 2 (2 cards) being played, bids 1, 1, 0, with Thomas's 1 trick and Ute's 0
    tapped in; the game and its export."""
    game_id = api.seed(NAMES, [([0, 1, 0], [0, 1, 0])], next_trump="red", next_bids=[1, 1, 0])
    with app.app_context():
        rounds.save_trick_draft(game_id, api.tokens[game_id], 2, 0, 1)
        rounds.save_trick_draft(game_id, api.tokens[game_id], 2, 1, 0)
    return game_id, _export(api, game_id)


def _export(api: ApiClient, game_id: str) -> dict[str, Any]:
    document: dict[str, Any] = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    return document


def _copy(api: ApiClient, document: dict[str, Any]) -> str:
    """The game the import of ``document`` starts (its token kept)."""
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 201, response.get_json()
    (created,) = response.get_json()["games"]
    api.tokens[created["id"]] = created["edit_token"]
    game_id: str = created["id"]
    return game_id


def _taps(document: dict[str, Any]) -> list[Any]:
    return [
        (entry["old"]["drafts"], entry["new"]["drafts"])
        for entry in document["audit"]
        if (entry["kind"], entry["round"]) == ("draft", 2)
    ]


def test_the_counts_tapped_in_are_in_the_export_and_come_back_with_the_import(
    app: Flask, api: ApiClient
) -> None:
    _game_id, document = _tapped(app, api)
    assert _taps(document) == [
        ([None, None, None], [1, None, None]),
        ([1, None, None], [1, 0, None]),
    ]
    assert all(
        "drafts" not in entry["new"] for entry in document["audit"] if entry["kind"] == "bids"
    )
    assert document["drafts"] == [{"round": 2, "tricks": [1, 0, None]}]
    # The game moves to another phone, and the round goes on where it was.
    copy_id = _copy(api, document)
    copied = _export(api, copy_id)
    assert copied["drafts"] == document["drafts"]
    assert _taps(copied) == _taps(document)
    with app.app_context():
        scored = rounds.score_round(copy_id, api.tokens[copy_id], 2)
    assert scored.round(2).tricks == (1, 0, 1)  # Kevin's filled in from the sum
    assert scored.round(2).scores[2] == -10


def test_the_counts_come_back_after_a_scoring_taken_back(app: Flask, api: ApiClient) -> None:
    """Undoing a scoring brings its tricks back tapped in: the copy has them too, though the
    round's last write (the undo) tapped none in."""
    game_id, _document = _tapped(app, api)
    with app.app_context():
        token = api.tokens[game_id]
        rounds.save_trick_draft(game_id, token, 2, 2, 1)
        rounds.score_round(game_id, token, 2)
        undo.undo(game_id, token)
    document = _export(api, game_id)
    assert document["drafts"] == [{"round": 2, "tricks": [1, 0, 1]}]
    assert _export(api, _copy(api, document))["drafts"] == document["drafts"]


def test_a_game_with_no_counts_tapped_in_exports_without_them(app: Flask, api: ApiClient) -> None:
    game_id = seed(app, NAMES, [([0, 1, 0], [0, 1, 0])], browser=browser_of(api.client)).id
    assert "drafts" not in _export(api, game_id)
    everything = api.client.get("/export.json").get_json()  # the phone's games, all of them
    assert [game["game"]["id"] for game in everything["games"]] == [game_id]
    assert all("drafts" not in game for game in everything["games"])


UNFIT = "is refused: its tricks tapped in need every bid in, no tricks yet, counts to its cards."


@pytest.mark.parametrize(
    ("drafts", "refusal"),
    [
        ([{"round": 2, "tricks": [1, 3, None]}], f"round 2 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 2, "tricks": [1, None]}], f"round 2 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        (
            [{"round": 2, "tricks": [-1, None, None]}],
            f"round 2 of game 1 (Thomas, Ute, Kevin) {UNFIT}",
        ),
        ([{"round": 1, "tricks": [0, 1, 0]}], f"round 1 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 3, "tricks": [0, 0, 0]}], f"round 3 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 99, "tricks": [0, 0, 0]}], f"round 99 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 2, "tricks": ["1", None, None]}], "drafts[0].tricks[0] must be a whole number"),
    ],
    ids=["too many", "a seat short", "below 0", "scored", "no bids yet", "no round", "text"],
)
def test_counts_tapped_in_that_no_round_can_hold_are_refused(
    app: Flask, api: ApiClient, drafts: list[dict[str, Any]], refusal: str
) -> None:
    document = _tapped(app, api)[1] | {"drafts": drafts}
    before = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert refusal in response.get_json()["detail"]
    assert game_count(app) == before


@pytest.mark.parametrize("drafts", [[1, 3, None], [1, None], [-1, None, None], ["1", None, None]])
def test_counts_in_the_audit_trail_a_round_cannot_hold_are_refused(
    app: Flask, api: ApiClient, drafts: list[Any]
) -> None:
    bad = copy.deepcopy(_tapped(app, api)[1])
    tap = next(entry for entry in reversed(bad["audit"]) if entry["kind"] == "draft")
    tap["new"]["drafts"] = drafts
    before = game_count(app)
    response = api.client.post("/api/v1/import", json=bad)
    assert response.status_code == 422, drafts
    assert "holds facts that are not a round" in response.get_json()["detail"]
    assert game_count(app) == before
