"""JSON API v1 (``/api/v1``): parse the request with the schemas, call the service,
serialize the game.

The contract is ``shared/API.md``; the OpenAPI document is made from the routes'
declarations and the schemas. Errors are RFC 9457 problem details; the API knows bearer
tokens only, no cookies.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.routing import BaseConverter

from . import games, import_export, rounds
from .openapi import Answer, operation, operation_of
from .openapi import openapi_document as _document
from .problems import TITLES, Problem, is_api_request, problem_response, register_errorhandlers

__all__ = [
    "TITLES",
    "Problem",
    "RoundNumberConverter",
    "bp",
    "is_api_request",
    "openapi_document",
    "problem_response",
    "register_errorhandlers",
]


class RoundNumberConverter(BaseConverter):
    """A round number in ASCII digits without leading zeros (werkzeug's ``int`` takes any
    Unicode digit, so an Arabic-Indic one would read as round 1)."""

    regex = r"[0-9]|[1-9][0-9]{1,5}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: Any) -> str:
        return str(value)


@operation(
    rule="/openapi.json",
    method="GET",
    operation_id="openapi",
    summary="This document",
    answers={200: Answer("The OpenAPI 3.1 document.", any_object=True)},
)
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API."""
    return jsonify(openapi_document())


#: Every route of the API, in the document's order.
ROUTES = (
    games.create_game,
    games.get_game,
    games.delete_game,
    rounds.put_trump,
    rounds.put_bids,
    rounds.put_tricks,
    import_export.export_game,
    import_export.import_games,
    openapi,
)

bp = Blueprint("api", __name__, url_prefix="/api/v1")
for _view in ROUTES:
    _declared = operation_of(_view)
    bp.add_url_rule(_declared.rule, view_func=_view, methods=[_declared.method])


@cache
def openapi_document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document of the routes."""
    return _document(operation_of(view) for view in ROUTES)
