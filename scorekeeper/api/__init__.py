"""JSON API v1 (``/api/v1``, its contract the OpenAPI document): parse the request with the schemas,
call the service, serialize the game. Errors are RFC 9457 problem details; bearer tokens only."""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.routing import IntegerConverter

from . import games, import_export, referee, rounds, table_codes
from .openapi import Answer, Operation, operation_of
from .openapi import openapi_document as _document
from .problems import TITLES as TITLES
from .problems import register_errorhandlers as register_errorhandlers


class RoundNumberConverter(IntegerConverter):
    """A round number in ASCII digits without leading zeros (werkzeug's ``int`` takes any
    Unicode digit, so an Arabic-Indic one would read as round 1)."""

    regex = r"[0-9]|[1-9][0-9]{1,5}"


@Operation(
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
    rounds.post_tally,
    rounds.post_undo,
    rounds.post_redo,
    table_codes.new_table_code,
    table_codes.take_over,
    import_export.export_game,
    import_export.import_games,
    referee.referee,
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
