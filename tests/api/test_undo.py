"""Undo and redo over the API: POST /games/<id>/undo and /redo, with If-Match."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorekeeper.services import audit, games, rounds

from ..api_client import ApiClient

NAMES = ["Thomas", "Ute", "Kevin"]


def _post(api: ApiClient, game_id: str, what: str, **headers: str) -> Any:
    return api.client.post(
        f"/api/v1/games/{game_id}/{what}", headers=api.headers(game_id, **headers)
    )


def test_undo_and_redo_of_each_kind_of_write(api: ApiClient) -> None:
    game_id = api.create(NAMES, first_dealer=0)["id"]
    states = [api.get(game_id)]
    states.append(api.ok(game_id, 1, "trump", {"turned": "red"}))
    states.append(api.ok(game_id, 1, "bids", {"bids": [0, 1, 0]}))
    states.append(api.ok(game_id, 1, "tricks", {"tricks": [0, 1, 0]}))
    states.append(api.ok(game_id, 1, "tricks", {"tricks": [1, 0, 0]}))  # a correction
    for before in reversed(states[:-1]):
        response = _post(api, game_id, "undo")
        assert response.status_code == 200, response.get_json()
        game = response.get_json()
        assert game["rounds"] == before["rounds"]
        assert response.headers["ETag"] == f'"{game["version"]}"'
    for after in states[1:]:
        response = _post(api, game_id, "redo")
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["rounds"] == after["rounds"]


def test_an_undo_after_another_write_is_a_412_and_changes_nothing(api: ApiClient) -> None:
    game_id = api.create(NAMES, first_dealer=0)["id"]
    seen = api.ok(game_id, 1, "trump", {"turned": "red"})["version"]
    api.ok(game_id, 1, "bids", {"bids": [None, 1, None]})
    before = api.get(game_id)
    response = _post(api, game_id, "undo", **{"If-Match": f'"{seen}"'})
    assert response.status_code == 412
    assert response.mimetype == "application/problem+json"
    assert api.get(game_id) == before


def test_nothing_to_undo_or_redo_is_a_409(api: ApiClient) -> None:
    game_id = api.create(NAMES, first_dealer=0)["id"]
    for what in ("undo", "redo"):
        response = _post(api, game_id, what)
        assert response.status_code == 409
        assert response.get_json()["detail"] == f"There is nothing to {what}."


def test_undo_needs_the_edit_token(api: ApiClient) -> None:
    game_id = api.create(NAMES, first_dealer=0)["id"]
    api.ok(game_id, 1, "trump", {"turned": "red"})
    assert api.client.post(f"/api/v1/games/{game_id}/undo").status_code == 401
    wrong = {"Authorization": "Bearer nope"}
    assert api.client.post(f"/api/v1/games/{game_id}/undo", headers=wrong).status_code == 403
    assert api.client.post("/api/v1/games/nosuchgame/undo", headers=wrong).status_code in (403, 404)


def test_the_openapi_document_has_undo_and_redo(api: ApiClient) -> None:
    paths = api.client.get("/api/v1/openapi.json").get_json()["paths"]
    assert paths["/api/v1/games/{game_id}/undo"]["post"]["operationId"] == "undo"
    assert paths["/api/v1/games/{game_id}/redo"]["post"]["operationId"] == "redo"


def test_a_trick_count_tapped_in_is_undone_and_its_trail_exports_and_imports(
    app: Flask, api: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = api.create(NAMES, first_dealer=0)["id"]
    api.ok(game_id, 1, "trump", {"turned": "red"})
    api.ok(game_id, 1, "bids", {"bids": [0, 1, 0]})
    token = api.tokens[game_id]
    with app.test_request_context():
        rounds.save_trick_draft(game_id, token, 1, 1, 1)
        rounds.save_trick_draft(game_id, token, 1, 0, 1)  # Thomas's count, a wrong tap
    before = api.get(game_id)
    response = _post(api, game_id, "undo")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["version"] == before["version"] + 1
    with app.test_request_context():
        assert games.get_game(game_id).draft(1) == (None, 1, None)
        rounds.save_trick_draft(game_id, token, 1, 0, 0)
        rounds.score_round(game_id, token, 1)
    original = api.get(game_id)
    assert original["rounds"][0]["tricks"] == [0, 1, 0]
    document = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    kinds = [entry["kind"] for entry in document["audit"]]
    assert kinds == ["trump", "bids", "draft", "draft", "undo", "draft", "score"]
    # The export keeps within the bound of entries an import takes, and imports back.
    monkeypatch.setattr(audit, "AUDIT_EXPORTED", 4)
    latest = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    assert [entry["kind"] for entry in latest["audit"]] == kinds[-4:]
    for exported in (document, latest):
        response = api.client.post("/api/v1/import", json=exported)
        assert response.status_code == 201, response.get_json()
        (created,) = response.get_json()["games"]
        copy = api.get(created["id"])
        for key in ("rules", "rounds", "totals", "standings", "current_round"):
            assert copy[key] == original[key], key
