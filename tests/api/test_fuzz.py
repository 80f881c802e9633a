"""Schemathesis against the OpenAPI document, in-process on the Flask app: every operation
with generated requests, valid ones and invalid ones, half of them aimed at a real game with
its real edit token; no server error, and every answer as the document describes it
(status, content type, headers, body)."""

from __future__ import annotations

from typing import Any

import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from scorekeeper.api import openapi_document

from ..api_client import ApiClient

# Examples for each operation and mode: 30 in CI's profile, 3 in the quick one.
MAX_EXAMPLES = max(3, settings.default.max_examples * 3 // 20)
# Schema-valid bodies that the rules refuse (a first dealer beyond the table, names equal
# but for case, a bid that makes the total forbidden) are 422 by the contract: the check
# that every schema-valid request is accepted cannot hold for them.
RULE_DEPENDENT = schemathesis.checks.positive_data_acceptance


def _real_game(app: Flask) -> tuple[str, str]:
    """A game whose round 1 has its trump, so every write has something to work on."""
    api = ApiClient(app.test_client())
    game = api.create(["Ann", "Bob", "Cy"], first_dealer=0)
    api.trump(game["id"], 1, "blue")
    return game["id"], api.tokens[game["id"]]


def test_no_server_error_and_every_answer_as_documented(app: Flask) -> None:
    schema = schemathesis.openapi.from_dict(openapi_document())
    schema.app = app
    game_id, token = _real_game(app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 15
    unsatisfiable = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=MAX_EXAMPLES,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case: Any) -> None:
                parameters = case.path_parameters or {}
                excluded = [RULE_DEPENDENT]
                if "game_id" in parameters and len(repr(case.body)) % 2:
                    parameters["game_id"] = game_id
                    # Not for DELETE: the real game would be gone for every case after it.
                    if case.method != "DELETE":
                        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
                        # Schemathesis takes a token put in the headers for one it made up,
                        # and a write it lets through for "accepts invalid authentication";
                        # this one is the game's real token (test_api_access checks refusals).
                        excluded.append(schemathesis.checks.ignored_auth)
                case.call_and_validate(excluded_checks=excluded)

            try:
                check()
            except Unsatisfiable:
                # Nothing of this operation's input can be made invalid (the document takes
                # none; a game's id is any string): its negative half has no case to run.
                assert mode is GenerationMode.NEGATIVE, operation.label
                unsatisfiable.append(operation.label)
    assert set(unsatisfiable) <= {
        "GET /api/v1/openapi.json",
        "GET /api/v1/games/{game_id}",
        "GET /api/v1/games/{game_id}/export",
        "POST /api/v1/games/{game_id}/table-code",
    }
