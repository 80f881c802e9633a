"""The schemas: a body they refuse is answered in the app's own sentence, in English and
in German, never in pydantic's words; the export reads back as its model; the document's
operations are the routes'."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from scorekeeper.api import ROUTES, openapi_document
from scorekeeper.api.openapi import operation_of
from scorekeeper.schemas.document import OneGameExport
from scorekeeper.schemas.faults import field_name
from scorekeeper.schemas.games import Game

from ..api_client import ApiClient

# What pydantic says in English, which a client must never read.
PYDANTIC_WORDS = ("Input should", "Field required", "Extra inputs", "validation error", "type=")

BAD_BODIES: list[tuple[str, dict[str, Any], int, str]] = [
    ("extra", {"players": ["A", "B", "C"], "colour": 1}, 422, "colour"),
    ("missing", {"first_dealer": 0}, 422, "players"),
    ("players-not-list", {"players": "A, B, C"}, 400, "players"),
    ("name-not-string", {"players": ["A", 2, "C"]}, 400, "players[1]"),
    ("dealer-bool", {"players": ["A", "B", "C"], "first_dealer": True}, 400, "first_dealer"),
    ("dealer-float", {"players": ["A", "B", "C"], "first_dealer": 1.5}, 400, "first_dealer"),
    ("rules-list", {"players": ["A", "B", "C"], "rules": []}, 400, "rules"),
    ("rules-extra", {"players": ["A", "B", "C"], "rules": {"jokers": 2}}, 422, "rules.jokers"),
    ("rounds-string", {"players": ["A", "B", "C"], "rules": {"rounds": "3"}}, 400, "rules.rounds"),
    (
        "flag-number",
        {"players": ["A", "B", "C"], "rules": {"clairvoyance": 1}},
        400,
        "rules.clairvoyance",
    ),
    ("rule-null", {"players": ["A", "B", "C"], "rules": {"bid_rule": None}}, 400, "rules.bid_rule"),
]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(
    ("name", "body", "status", "field"), BAD_BODIES, ids=[c[0] for c in BAD_BODIES]
)
def test_a_refused_body_says_the_apps_sentence_about_its_field(
    api: ApiClient, language: str, name: str, body: dict[str, Any], status: int, field: str
) -> None:
    response = api.client.post("/api/v1/games", json=body, headers={"Accept-Language": language})
    assert response.status_code == status, name
    problem = response.get_json()
    assert problem["errors"] == [{"field": field, "message": problem["detail"]}]
    assert field in problem["detail"]
    assert not any(word in problem["detail"] for word in PYDANTIC_WORDS)


def test_a_refused_bid_names_its_seat(api: ApiClient) -> None:
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0)["id"]
    api.trump(game_id, 1, "red")
    response = api.put(game_id, 1, "bids", {"bids": [0, -1, None]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "bids[1]"
    assert response.get_json()["detail"] == "In round 1 Bob can bid 0 to 1, not −1."


@pytest.mark.parametrize(
    ("loc", "name"),
    [(("players",), "players"), (("rules", "rounds"), "rules.rounds"), (("bids", 2), "bids[2]")],
)
def test_field_names_read_as_the_api_writes_them(loc: tuple[Any, ...], name: str) -> None:
    assert field_name(loc) == name


def test_an_export_reads_back_as_its_model(app: Flask, api: ApiClient) -> None:
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0, rules={"rounds": 2})["id"]
    api.play_round(game_id, 1, [1, 0, 0], [1, 0, 0])
    document = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    parsed = OneGameExport.model_validate_json(json.dumps(document))
    assert parsed.game.id == game_id
    assert [entry.kind for entry in parsed.audit][:3] == ["trump", "bids", "tricks"]
    assert Game.model_validate_json(json.dumps(api.get(game_id))).rounds[0].scores == [30, 20, 20]


def test_the_document_has_one_operation_per_route(app: Flask) -> None:
    declared = [operation_of(view) for view in ROUTES]
    paths = openapi_document()["paths"]
    assert sum(len(item) for item in paths.values()) == len(declared)
    for op in declared:
        assert paths[op.path][op.method.lower()]["operationId"] == op.operation_id
    with app.app_context():
        rules = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert {f"api.{view.__name__}" for view in ROUTES} <= rules
