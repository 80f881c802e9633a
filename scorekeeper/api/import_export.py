"""The API's export of a game and its import of exported games."""

from __future__ import annotations

from flask import Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import RequestEntityTooLarge

from .. import export, security
from ..errors import ImportTooLarge
from ..rules.messages import Count
from ..schemas.document import Export, ImportedGame, ImportLinks, ImportResult, OneGameExport
from ..services import games, import_document, importing
from ..services.import_document import IMPORT_MAX_BYTES
from .games import versioned
from .openapi import Answer, Operation
from .requests import json_document


@Operation(
    rule="/games/<game_id>/export",
    method="GET",
    operation_id="exportGame",
    summary="Export a game",
    description="The game object (as `GET /api/v1/games/{game_id}`) and its audit trail: "
    "every write to a round, with the facts before and after. `POST /api/v1/import` takes "
    "it back.",
    answers={200: Answer("The export, `schema_version` 1.", OneGameExport, ("ETag",))},
    problems=(404, 503),
)
def export_game(game_id: str) -> Response:
    """The game as an export: the game object and its audit trail (readable by its id)."""
    game = games.get_game(game_id)
    return versioned(jsonify(export.one_game_document(game)), game.version)


@Operation(
    rule="/import",
    method="POST",
    operation_id="importGames",
    summary="Import games",
    description="An export of one game or many becomes new games, with new ids and edit "
    "tokens. Every round is replayed through the rules; a round they refuse, or scores and "
    "totals that do not follow from the bids and tricks, refuse the whole file (422, naming "
    "the game, the round and the reason), and nothing is imported.",
    body=Export,
    answers={201: Answer("The new games with their edit tokens.", ImportResult)},
    problems=(400, 413, 415, 422, 429, 503),
)
@security.limited("RATELIMIT_CREATE_GAME", scope=security.CREATE_GAME)
def import_games() -> ResponseReturnValue:
    """New games (new ids, edit tokens shown once) from an export, checked; all or nothing."""
    request.max_content_length = IMPORT_MAX_BYTES
    # The file is read by the import itself, which refuses it in the rules' words.
    try:
        with json_document() as document:
            security.spend_import(import_document.count_games(document))
            created = importing.import_games(document).created
    except RequestEntityTooLarge:  # the limit in the words the import page says it in
        raise ImportTooLarge(size=Count(IMPORT_MAX_BYTES // 2**20)) from None
    body = ImportResult(
        games=[
            ImportedGame(
                id=new.id,
                edit_token=new.edit_token,
                links=ImportLinks(
                    self=url_for("api.get_game", game_id=new.id),
                    view=url_for("games.sheet", game_id=new.id),
                ),
            )
            for new in created
        ]
    )
    return jsonify(body.model_dump(mode="json")), 201, {"Cache-Control": "no-store"}  # tokens
