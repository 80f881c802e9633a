"""The API's games: start one, read it, delete it; and the game object every write answers."""

from __future__ import annotations

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue

from .. import security
from ..links import game_links
from ..schemas.games import CreatedGame, CreateGameBody, Game, Rules
from ..services import games, loading
from .openapi import Answer, Operation
from .requests import if_match, json_body, parse, token


def versioned(response: Response, version: int, cache_control: str = "no-cache") -> Response:
    """Tag ``response`` with the game's version; clients revalidate before reusing it."""
    response.set_etag(str(version))
    response.headers["Cache-Control"] = cache_control
    return response


def game_response(game: loading.GameSnapshot) -> Response:
    """The game with its version as ETag."""
    answer = Game.of(game, game_links(game.id))
    return versioned(jsonify(answer.model_dump(mode="json")), game.version)


@Operation(
    rule="/games",
    method="POST",
    operation_id="createGame",
    summary="Start a game",
    body=CreateGameBody,
    answers={
        201: Answer(
            "The game, with its edit token (shown only here).", CreatedGame, ("Location", "ETag")
        )
    },
    problems=(400, 413, 415, 422, 429, 503),
)
@security.limited("RATELIMIT_CREATE_GAME", scope=security.CREATE_GAME)
def create_game() -> ResponseReturnValue:
    """Start a game; the answer carries the edit token, once."""
    body = parse(CreateGameBody, json_body())
    options = (body.rules or Rules()).model_dump()
    created = games.create_game(body.players, first_dealer=body.first_dealer, **options)
    game = Game.of(created.game, game_links(created.game.id))
    answer = CreatedGame(**dict(game), edit_token=created.edit_token)
    response = versioned(jsonify(answer.model_dump(mode="json")), created.game.version, "no-store")
    return response, 201, {"Location": game.links.self}


@Operation(
    rule="/games/<game_id>",
    method="GET",
    operation_id="getGame",
    summary="Read a game",
    headers=("If-None-Match",),
    answers={
        200: Answer("The game.", Game, ("ETag",)),
        304: Answer("`If-None-Match` names the current version.", headers=("ETag",)),
    },
    problems=(404, 503),
)
def get_game(game_id: str) -> Response:
    """The game; 304 when ``If-None-Match`` names its version (one statement)."""
    if request.if_none_match:
        version = games.game_version(game_id)
        if request.if_none_match.contains_weak(str(version)):
            return versioned(Response(status=304), version)
    return game_response(games.get_game(game_id))


@Operation(
    rule="/games/<game_id>",
    method="DELETE",
    operation_id="deleteGame",
    summary="Delete a game",
    editor=True,
    headers=("If-Match",),
    answers={204: Answer("Deleted.")},
    problems=(401, 403, 404, 412, 503),
)
def delete_game(game_id: str) -> Response:
    """Delete the game."""
    games.delete_game(game_id, token(), if_match=if_match())
    deleted = Response(status=204)
    del deleted.headers["Content-Type"]  # no body to type (Flask's default says text/html)
    return deleted
