"""The API's table code: a keeper shows a new one; an app that follows the game takes the
right to keep the score with it (``docs/design.md``)."""

from __future__ import annotations

from flask import current_app, jsonify
from flask.typing import ResponseReturnValue

from .. import security
from ..links import game_links
from ..schemas.games import Game
from ..schemas.table_codes import TableCode, TakenOverGame, TakeOverBody
from ..services import games, table_codes
from .games import versioned
from .openapi import Answer, Operation
from .requests import json_body, parse, token


@Operation(
    rule="/games/<game_id>/table-code",
    method="POST",
    operation_id="newTableCode",
    summary="Show a new table code",
    description="A new table code for the game; the old one no longer works. Only a keyed "
    "hash of it is stored, so it is shown only in this answer.",
    editor=True,
    answers={201: Answer("The new code.", TableCode)},
    problems=(401, 403, 404, 503),
)
def new_table_code(game_id: str) -> ResponseReturnValue:
    """A new table code (the old one is void)."""
    code = table_codes.new_code(game_id, token(), current_app.secret_key or "")
    response = jsonify(TableCode(table_code=code).model_dump(mode="json"))
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@Operation(
    rule="/games/<game_id>/takeover",
    method="POST",
    operation_id="takeOver",
    summary="Keep the score with the table code",
    description="Takes the right to keep the game's score with its table code, with nothing "
    "prepared before: the answer carries a bearer token of this app's own. One keeper at a "
    "time: every other phone or app that kept the score loses the right (a bearer token it "
    "was given is refused with 403 from then on; the game's edit token still writes), and "
    "the code is used up (`POST .../table-code` shows a new one). Wrong codes are "
    f"limited per game ({table_codes.GUESSES_PER_WINDOW} an hour from all addresses "
    "together, then every code is refused until the hour is over: 429) and per address.",
    body=TakeOverBody,
    answers={200: Answer("The game, with the new bearer token.", TakenOverGame, ("ETag",))},
    problems=(400, 403, 404, 415, 422, 429, 503),
)
@security.limited("RATELIMIT_TABLE_CODE", scope=table_codes.LIMIT_SCOPE)
def take_over(game_id: str) -> ResponseReturnValue:
    """Exchange the table code for a bearer token of this app's own."""
    games.get_game(game_id)  # 404 before the body is read
    body = parse(TakeOverBody, json_body())
    taken = table_codes.redeem(game_id, body.table_code, current_app.secret_key or "")
    snapshot = games.get_game(game_id)
    game = Game.of(snapshot, game_links(snapshot.id))
    answer = TakenOverGame(**dict(game), edit_token=taken.token or "")
    return versioned(jsonify(answer.model_dump(mode="json")), snapshot.version, "no-store")
