"""The API's round writes: the trump, the bids, the tricks."""

from __future__ import annotations

from typing import TypeVar

from flask import Response
from pydantic import BaseModel
from werkzeug.exceptions import HTTPException

from ..schemas.games import BidsBody, Game, TallyBody, TricksBody, TrumpBody
from ..services import loading, rounds, sharing, undo
from .games import game_response, versioned
from .openapi import Answer, Operation
from .problems import ProblemError
from .requests import if_match, json_body, parse, prefers_minimal, token

B = TypeVar("B", bound=BaseModel)


def _body(game_id: str, number: int, model: type[B]) -> tuple[B, str | None]:
    """The body of a round PUT and its bearer token."""
    bearer = token()
    try:
        return parse(model, json_body()), bearer
    except (ProblemError, HTTPException):
        # The body is wrong, but a stranger, or a request for a round the game does not
        # have, hears that first: 401/403/404 come before 400/413/415/422. (A body that is
        # right goes straight to the write, which checks the token in its transaction.)
        sharing.authorize(game_id, bearer, number)
        raise


def write_answer(game: loading.GameSnapshot) -> Response:
    """The game after a write; with ``Prefer: return=minimal``, no body: 204 with the new
    version as ETag, for a client that keeps its own copy of the game."""
    if not prefers_minimal():
        response = game_response(game)
    else:
        response = versioned(Response(status=204), game.version)
        response.headers["Preference-Applied"] = "return=minimal"
    response.vary.add("Prefer")
    return response


#: What a write answers: the game, or with ``Prefer: return=minimal`` nothing but its version.
WRITTEN = {
    200: Answer("The game after the write.", Game, ("ETag",)),
    204: Answer(
        "The write, made; asked for with `Prefer: return=minimal`.",
        None,
        ("ETag", "Preference-Applied"),
    ),
}


def _put(name: str, summary: str, description: str, body: type[BaseModel]) -> Operation:
    """The operation of a round's PUT of ``name``."""
    return Operation(
        rule=f"/games/<game_id>/rounds/<round:number>/{name}",
        method="PUT",
        operation_id=f"put{name.capitalize()}",
        summary=summary,
        description=description,
        editor=True,
        headers=("If-Match", "Prefer"),
        body=body,
        answers=WRITTEN,
        problems=(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
    )


@_put(
    "trump",
    "Record the trump",
    "The card turned after dealing; with a Wizard, the suit the dealer chose; with the "
    "Werewolf (in the deck), the trump its holder named, a suit or none. May be "
    "changed while the round is bidding or playing, and once scored. The round that "
    "deals every card has no trump to record (409).",
    TrumpBody,
)
def put_trump(game_id: str, number: int) -> Response:
    """Record the card turned (and the dealer's choice under a Wizard)."""
    body, bearer = _body(game_id, number, TrumpBody)
    return write_answer(
        rounds.record_trump(game_id, bearer, number, body.turned, body.chosen, if_match=if_match())
    )


@_put(
    "bids",
    "Record the bids",
    "Bids may be saved partially; the bid rule is checked once every bid is in. A "
    "scored round takes a complete set (a correction).",
    BidsBody,
)
def put_bids(game_id: str, number: int) -> Response:
    """Record the bids so far (``null``: not bid yet)."""
    body, bearer = _body(game_id, number, BidsBody)
    return write_answer(rounds.record_bids(game_id, bearer, number, body.bids, if_match=if_match()))


@_put(
    "tricks",
    "Record the tricks",
    "The tricks each player won, once every bid is in; this scores the round. On a "
    "scored round this is a correction: every total is recomputed. With the special cards "
    'in the deck: `"bomb": true` when the Bomb was played (the tricks then add up to the '
    'cards minus one), and `"cloud"` for the Cloud\'s change of a bid (the round is '
    "scored on it); each PUT replaces both.",
    TricksBody,
)
def put_tricks(game_id: str, number: int) -> Response:
    """Record the tricks won, which scores the round."""
    body, bearer = _body(game_id, number, TricksBody)
    cloud = body.cloud.rules() if body.cloud is not None else None
    written = rounds.record_tricks(
        game_id, bearer, number, body.tricks, bomb=body.bomb, cloud=cloud, if_match=if_match()
    )
    return write_answer(written)


@Operation(
    rule="/games/<game_id>/rounds/<round:number>/tally",
    method="POST",
    operation_id="postTally",
    summary="Tally a trick's winner",
    description="The winner of the round's next trick, tapped as it falls, while the round "
    "is played (every bid in, not yet scored). Optional: once every trick is tallied, the "
    "tricks the tally gives are what scoring takes when none were tapped in. More tricks "
    "than the round's cards, a round not in play (409) or a seat the table does not have "
    "(422) are refused. Kept in the audit trail as `tally`; undo takes the last one back.",
    editor=True,
    headers=("If-Match", "Prefer"),
    body=TallyBody,
    answers=WRITTEN,
    problems=(400, 401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
)
def post_tally(game_id: str, number: int) -> Response:
    """Tally the next trick's winner."""
    body, bearer = _body(game_id, number, TallyBody)
    written = rounds.record_trick_winner(game_id, bearer, number, body.winner, if_match=if_match())
    return write_answer(written)


def _reverse(name: str, summary: str, description: str) -> Operation:
    """The operation of an undo or a redo."""
    return Operation(
        rule=f"/games/<game_id>/{name}",
        method="POST",
        operation_id=name,
        summary=summary,
        description=description,
        editor=True,
        headers=("If-Match", "Prefer"),
        answers=WRITTEN,
        problems=(401, 403, 404, 409, 412, 429, 503),
    )


@_reverse(
    "undo",
    "Undo the last write",
    "Takes back the game's last write not taken back yet (a trump, bids, a trick tallied, "
    "a trick count tapped in on the round screen, tricks, a scoring, a correction, the "
    "Bomb or the Cloud), from the audit trail; repeated, it goes further back within "
    "the current round and the last one scored (the very last write is always reachable). "
    "The undo is itself a write: it bumps the version and is kept in the audit trail as "
    "`undo`. Send `If-Match` with the version you saw: another write since is a 412. "
    "Nothing to undo is a 409.",
)
def post_undo(game_id: str) -> Response:
    """Take back the last write."""
    return write_answer(undo.undo(game_id, token(), if_match=if_match()).game)


@_reverse(
    "redo",
    "Redo what the last undo took back",
    "Puts back the change the last undo took back, while no other write was made since "
    "(a write clears what can be redone). Kept in the audit trail as `redo`. Nothing to "
    "redo is a 409.",
)
def post_redo(game_id: str) -> Response:
    """Put back what the last undo took back."""
    return write_answer(undo.redo(game_id, token(), if_match=if_match()).game)
