"""Undo and redo over the API: POST /games/<id>/undo and /redo, with If-Match."""

from __future__ import annotations

from typing import Any

from ..api_client import ApiClient

NAMES = ["Thomas", "Ute", "Kevin"]


def _post(api: ApiClient, game_id: str, what: str, **headers: str) -> Any:
    return api.client.post(
        f"/api/v1/games/{game_id}/{what}", headers=api.headers(game_id, **headers)
    )


def test_undo_and_redo_answer_200_with_the_game_and_its_etag(api: ApiClient) -> None:
    """Each kind of write taken back and put back is the services' (tests/services/
    test_undo.py); here, the answer of each route."""
    game_id = api.seed(NAMES, next_trump="red")
    before = api.get(game_id)
    response = _post(api, game_id, "undo")
    assert response.status_code == 200, response.get_json()
    undone = response.get_json()
    assert undone["version"] == before["version"] + 1
    assert response.headers["ETag"] == f'"{undone["version"]}"'
    assert undone["rounds"][0]["trump"] is None
    assert undone == api.get(game_id)
    response = _post(api, game_id, "redo")
    assert response.status_code == 200, response.get_json()
    redone = response.get_json()
    assert response.headers["ETag"] == f'"{undone["version"] + 1}"'
    assert redone["rounds"] == before["rounds"]


def test_an_undo_after_another_write_is_a_412_and_changes_nothing(api: ApiClient) -> None:
    game_id = api.seed(NAMES, next_trump="red")
    seen = api.get(game_id)["version"]
    api.ok(game_id, 1, "bids", {"bids": [None, 1, None]})
    before = api.get(game_id)
    response = _post(api, game_id, "undo", **{"If-Match": f'"{seen}"'})
    assert response.status_code == 412
    assert response.mimetype == "application/problem+json"
    assert api.get(game_id) == before


def test_nothing_to_undo_or_redo_is_a_409(api: ApiClient) -> None:
    game_id = api.seed(NAMES)
    for what in ("undo", "redo"):
        response = _post(api, game_id, what)
        assert response.status_code == 409
        assert response.get_json()["detail"] == f"There is nothing to {what}."


def test_undo_needs_the_edit_token(api: ApiClient) -> None:
    game_id = api.seed(NAMES, next_trump="red")
    assert api.client.post(f"/api/v1/games/{game_id}/undo").status_code == 401
    wrong = {"Authorization": "Bearer nope"}
    assert api.client.post(f"/api/v1/games/{game_id}/undo", headers=wrong).status_code == 403
    assert api.client.post("/api/v1/games/nosuchgame/undo", headers=wrong).status_code in (403, 404)


def test_the_openapi_document_has_undo_and_redo(api: ApiClient) -> None:
    paths = api.client.get("/api/v1/openapi.json").get_json()["paths"]
    assert paths["/api/v1/games/{game_id}/undo"]["post"]["operationId"] == "undo"
    assert paths["/api/v1/games/{game_id}/redo"]["post"]["operationId"] == "redo"
