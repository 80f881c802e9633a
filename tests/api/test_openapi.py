"""The OpenAPI document: served, valid OpenAPI 3.1, in step with the routes, and the
response check of the test client really catches a drift."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate
from werkzeug.test import TestResponse

from ..api_client import ApiClient
from ..openapi_check import check_response

IGNORED_METHODS = {"HEAD", "OPTIONS"}


def _document(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    document: dict[str, Any] = response.get_json()
    return document


def test_document_is_valid_openapi_3_1(client: FlaskClient) -> None:
    """openapi-spec-validator accepts the served document as OpenAPI 3.1."""
    document = _document(client)
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_every_route_is_documented_and_every_path_exists(app: Flask, client: FlaskClient) -> None:
    """The /api/v1 rules of the app and the document's paths name the same operations."""
    routed: set[tuple[str, str]] = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        # Flask's <int:number> is OpenAPI's {number}.
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        routed.update(
            (path, method) for method in rule.methods or () if method not in IGNORED_METHODS
        )
    documented = {
        (path, method.upper())
        for path, item in _document(client)["paths"].items()
        for method in item
        if method in {"get", "put", "post", "delete", "patch"}
    }
    assert routed
    assert routed == documented


def test_every_documented_status_has_a_problem_or_game_body(client: FlaskClient) -> None:
    """Errors are problem+json; 2xx answers with a body are the game or the document."""
    for path, item in _document(client)["paths"].items():
        for method, operation in item.items():
            for status, answer in operation["responses"].items():
                content = answer.get("content", {})
                if status.startswith(("4", "5")):
                    assert list(content) == ["application/problem+json"], (path, method, status)


def _fake(response: TestResponse, body: bytes, status: int = 200) -> TestResponse:
    response.set_data(body)
    response.status_code = status
    return response


@pytest.mark.parametrize(
    "breakage",
    [
        "version-as-string",
        "missing-totals",
        "extra-field",
        "bad-round-state",
        "bad-suit",
        "rank-zero",
    ],
)
def test_response_check_catches_a_drift(api: ApiClient, breakage: str) -> None:
    """check_response refuses a game that breaks the Game schema."""
    game = api.create(["Thomas", "Ute", "Kevin"], first_dealer=0)
    game_id = game["id"]
    path = f"/api/v1/games/{game_id}"
    response = api.client.get(path)
    check_response("GET", path, response)  # the real answer passes

    broken = response.get_json()
    match breakage:
        case "version-as-string":
            broken["version"] = "1"
        case "missing-totals":
            del broken["totals"]
        case "extra-field":
            broken["score_sheet"] = []
        case "bad-round-state":
            broken["rounds"][0]["state"] = "dealing"
        case "bad-suit":
            broken["rounds"][0]["trump"] = {"turned": "blue", "suit": "purple"}
        case "rank-zero":
            broken["standings"][0]["rank"] = 0
    fake = _fake(response, json.dumps(broken).encode())
    with pytest.raises(AssertionError):
        check_response("GET", path, fake)


def test_response_check_catches_an_undocumented_status(api: ApiClient) -> None:
    """A status the operation does not list, or a body where none is documented, fails."""
    game_id = api.create(["Thomas", "Ute", "Kevin"])["id"]
    path = f"/api/v1/games/{game_id}"
    response = api.client.get(path)
    with pytest.raises(AssertionError, match="does not list"):
        check_response("GET", path, _fake(response, response.get_data(), status=409))
    response = api.client.delete(path, headers=api.headers(game_id))
    assert response.status_code == 204
    with pytest.raises(AssertionError):
        check_response("DELETE", path, _fake(response, b'{"deleted": true}', status=204))
    problem = api.client.get("/api/v1/games/nope")
    assert problem.status_code == 404
    broken = problem.get_json()
    del broken["detail"]
    with pytest.raises(AssertionError):
        check_response(
            "GET", "/api/v1/games/nope", _fake(problem, json.dumps(broken).encode(), 404)
        )
