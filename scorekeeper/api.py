"""JSON API v1 (``/api/v1``): parse the request, call the service, serialize the game.

The contract is ``shared/API.md``; the OpenAPI document (``openapi.py``) describes it.
Errors are RFC 9457 problem details; the API knows bearer tokens only, no cookies.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    has_request_context,
    jsonify,
    request,
    url_for,
)
from flask_babel import LazyString, gettext
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter
from werkzeug.wrappers import Response as BaseResponse

from . import errors, export, history, rules, security
from .i18n import rule_message, service_message, unavailable_message
from .openapi import openapi_document
from .services import games, loading, rounds, sharing

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class RoundNumberConverter(BaseConverter):
    """A round number in ASCII digits without leading zeros (werkzeug's ``int`` takes any
    Unicode digit, so an Arabic-Indic one would read as round 1)."""

    regex = r"[0-9]|[1-9][0-9]{1,5}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: Any) -> str:
        return str(value)


PROBLEM_JSON = "application/problem+json"
_CREATE_KEYS = ("players", "first_dealer", "rules")
_RULES_KEYS = ("bid_rule", "last_bidder_may_bid_zero", "bid_reveal", "clairvoyance", "rounds")


@dataclass
class Problem(Exception):
    """An error answered as ``application/problem+json``."""

    status: int
    slug: str
    detail: str
    field: str | None = None
    headers: Mapping[str, str] | None = None


# Titles by problem type: short, fixed per type (RFC 9457).
_TITLES: dict[str, LazyString] = {
    "malformed-request": _l("The request is malformed"),
    "unsupported-media-type": _l("The body must be JSON"),
    "not-found": _l("Not found"),
    "unauthorized": _l("Edit token missing"),
    "forbidden": _l("Edit token rejected"),
    "method-not-allowed": _l("Method not allowed"),
    "out-of-turn": _l("Out of turn"),
    "stale-version": _l("The game has changed"),
    "gone": _l("No longer valid"),
    "rule-violation": _l("The rules forbid this"),
    "payload-too-large": _l("The body is too large"),
    "too-many-requests": _l("Too many requests"),
    "unavailable": _l("Try again"),
    "server-error": _l("Something went wrong"),
}


def problem_response(problem: Problem) -> Response:
    """Serialize a problem."""
    body: dict[str, Any] = {
        "type": f"/api/v1/problems/{problem.slug}",
        "title": str(_TITLES[problem.slug]),
        "status": problem.status,
        "detail": problem.detail,
    }
    if problem.field:
        body["errors"] = [{"field": problem.field, "message": problem.detail}]
    response = jsonify(body)
    response.status_code = problem.status
    response.mimetype = PROBLEM_JSON
    for name, value in (problem.headers or {}).items():
        response.headers[name] = value
    return response


def _service_problem(error: errors.ServiceError) -> Problem:
    return Problem(error.status, error.problem, service_message(error), headers=error.headers)


def is_api_request() -> bool:
    """Whether the request is one for the JSON API."""
    return request.path.startswith("/api/")


def register_errorhandlers(app: Flask, pages: Callable[[Exception], BaseResponse]) -> None:
    """Answer every error under ``/api/`` with problem+json, and never with a bare 500;
    errors elsewhere go to ``pages``."""

    @app.errorhandler(Problem)
    def handle_problem(error: Problem) -> Response:
        return problem_response(error)

    @app.errorhandler(errors.ServiceError)
    def handle_service_error(error: errors.ServiceError) -> BaseResponse:
        if not is_api_request():
            return pages(error)
        return problem_response(_service_problem(error))

    @app.errorhandler(rules.RuleError)
    def handle_rule_error(error: rules.RuleError) -> BaseResponse:
        if not is_api_request():
            return pages(error)
        if isinstance(error, rules.OutOfTurnError):
            return problem_response(Problem(409, "out-of-turn", rule_message(error)))
        return problem_response(Problem(422, "rule-violation", rule_message(error), error.field))

    @app.errorhandler(HTTPException)
    def handle_http_error(error: HTTPException) -> BaseResponse | HTTPException:
        if (error.code or 500) < 400:
            return error
        if not is_api_request():
            return pages(error)
        status = error.code or 500
        slug = {
            404: "not-found",
            405: "method-not-allowed",
            413: "payload-too-large",
            415: "unsupported-media-type",
            429: "too-many-requests",
        }.get(status, "malformed-request" if status < 500 else "server-error")
        detail = {
            404: gettext("There is nothing at this address of the API."),
            405: gettext("This address does not take a %(method)s request.", method=request.method),
            413: gettext("The body is larger than the API takes."),
            429: gettext(
                "Too many requests came from this address: wait a minute, then try again."
            ),
        }.get(status)
        if detail is None and status >= 500:
            detail = gettext("Something went wrong on the server, and nothing was changed.")
        elif detail is None:
            detail = gettext("The request cannot be handled as it was sent.")
        headers = {}
        allow = error.get_response().headers.get("Allow") if status == 405 else None
        if allow:
            headers["Allow"] = allow
        return problem_response(Problem(status, slug, detail, headers=headers))

    @app.errorhandler(DBAPIError)
    def handle_database_error(error: DBAPIError) -> BaseResponse:
        if not is_api_request():
            return pages(error)
        detail = unavailable_message(error)
        if detail is None:
            # Not a busy or unreachable database: a real fault, logged in full, a 500.
            app.logger.exception("database error", exc_info=error)
            detail = gettext("Something went wrong on the server, and nothing was changed.")
            return problem_response(Problem(500, "server-error", detail))
        app.logger.warning("database unavailable: %s", error)
        return problem_response(Problem(503, "unavailable", detail, headers={"Retry-After": "1"}))


# -- Request parsing -----------------------------------------------------------------------


def _malformed(detail: str, field: str | None = None) -> NoReturn:
    raise Problem(400, "malformed-request", detail, field)


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(name)


def json_body() -> dict[str, Any]:
    """The request's JSON object; 415 for another media type, 400 for anything not JSON."""
    mimetype = request.mimetype
    if mimetype != "application/json" and not (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    ):
        raise Problem(
            415,
            "unsupported-media-type",
            gettext("Send the body as JSON, with the header Content-Type: application/json."),
        )
    raw = request.get_data(cache=False)
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        _malformed(gettext("The body is not valid JSON."))
    if not isinstance(data, dict):
        _malformed(gettext("The body must be a JSON object."))
    return data


def _only_keys(data: Mapping[str, Any], allowed: Collection[str], prefix: str = "") -> None:
    for key in data:
        if key not in allowed:
            raise Problem(
                422,
                "rule-violation",
                gettext(
                    "%(key)s is not a field here; the fields are %(allowed)s.",
                    key=prefix + key,
                    allowed=", ".join(allowed),
                ),
                prefix + key,
            )


def _required(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise Problem(422, "rule-violation", gettext("The field %(key)s is missing.", key=key), key)
    return data[key]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, field: str) -> int:
    if not _is_int(value):
        _malformed(gettext("%(field)s must be a whole number.", field=field), field)
    return int(value)


def _optional_int(value: Any, field: str) -> int | None:
    return None if value is None else _int(value, field)


def _count(value: Any, field: str) -> int:
    """A bid or a number of tricks: checked before the game's version, as the document's
    minimum is, so a body no game could take is 422 even with a stale ``If-Match``."""
    count = _int(value, field)
    if count < 0:
        raise Problem(
            422, "rule-violation", gettext("%(field)s cannot be below 0.", field=field), field
        )
    return count


def _optional_count(value: Any, field: str) -> int | None:
    return None if value is None else _count(value, field)


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        _malformed(gettext("%(field)s must be a string.", field=field), field)
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        _malformed(gettext("%(field)s must be true or false.", field=field), field)
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        _malformed(gettext("%(field)s must be a list.", field=field), field)
    return value


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _malformed(gettext("%(field)s must be a JSON object.", field=field), field)
    return value


def _token() -> str | None:
    """The bearer token of the ``Authorization`` header, if any."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def _if_match() -> frozenset[int] | None:
    """The versions ``If-Match`` accepts (strong comparison); ``None`` when any will do."""
    if "If-Match" not in request.headers:
        return None
    tags = request.if_match
    if tags.star_tag:
        return None
    # A tag too long to be a version matches none (and int() refuses over 4300 digits).
    return frozenset(
        int(tag)
        for tag in tags.as_set()
        if tag and tag.isascii() and tag.isdigit() and len(tag) <= 18
    )


# -- Serialization -------------------------------------------------------------------------


def _trump_json(trump: rules.Trump | None) -> dict[str, Any] | None:
    if trump is None:
        return None
    return {"turned": trump.turned.value, "suit": trump.suit.value if trump.suit else None}


def _list_or_none(values: Collection[Any] | None) -> list[Any] | None:
    return list(values) if values is not None else None


def round_json(view: rules.RoundView) -> dict[str, Any]:
    """One round of the game object."""
    return {
        "number": view.number,
        "cards": view.cards,
        "dealer": view.dealer,
        "bid_order": view.bid_order,
        "state": view.state.value,
        "trump": _trump_json(view.trump),
        "bids": _list_or_none(view.shown_bids),
        "has_bid": view.has_bid,
        "forbidden_bid": view.shown_forbidden_bid,
        "tricks": _list_or_none(view.tricks),
        "scores": view.scores,
    }


class _RoundTexts:
    """The JSON text of round views lately answered, by the view itself.

    A write changes one round's view; the game it leaves shares every other view with the
    game before it (the rules evaluate only what changed), so its answer serializes that
    one round alone. Views are immutable: a text stays right for as long as its view lives
    (the entry holds the view, so its ``id`` is not reused meanwhile).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._texts: OrderedDict[int, tuple[rules.RoundView, str]] = OrderedDict()
        self._lock = threading.Lock()

    def texts(self, views: Sequence[rules.RoundView], dumps: Callable[[Any], str]) -> list[str]:
        """The text of each view: those answered before as they were, the others made now
        (one lock for the lookups and one for the new texts, not two per round)."""
        known = self._texts
        texts: list[str] = []
        missing: list[int] = []
        with self._lock:
            for index, view in enumerate(views):
                found = known.get(id(view))
                if found is not None and found[0] is view:
                    known.move_to_end(id(view))
                    texts.append(found[1])
                else:
                    texts.append("")
                    missing.append(index)
        if not missing:
            return texts
        for index in missing:
            texts[index] = dumps(round_json(views[index]))
        with self._lock:
            for index in missing:
                known[id(views[index])] = (views[index], texts[index])
            while len(known) > self.size:
                known.popitem(last=False)
        return texts


# Every round of a thousand games, at twenty each.
_ROUND_TEXTS = _RoundTexts(20 * 1024)


def game_json(game: loading.GameSnapshot) -> dict[str, Any]:
    """The game object of API.md."""
    rounds = [round_json(round_view) for round_view in game.view.rounds]
    return {**_game_head(game), "rounds": rounds, **_game_tail(game)}


def _game_text(game: loading.GameSnapshot) -> str:
    """``game_json`` as the JSON text ``jsonify`` would give, each round's text taken from
    the views answered before when it is there."""
    dumps = functools.partial(current_app.json.dumps, separators=(",", ":"))
    rounds = ",".join(_ROUND_TEXTS.texts(game.view.rounds, dumps))
    head, tail = dumps(_game_head(game)), dumps(_game_tail(game))
    return f'{head[:-1]},"rounds":[{rounds}],{tail[1:]}\n'  # ends as jsonify's does


def _game_head(game: loading.GameSnapshot) -> dict[str, Any]:
    """The game object's members before ``rounds``."""
    view = game.view
    table = game.table
    return {
        "id": game.id,
        "version": game.version,
        "schema_version": 1,
        "created_at": _timestamp(game.created_at),
        "updated_at": _timestamp(game.updated_at),
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(table.players)],
        "first_dealer": table.first_dealer,
        "rules": {
            "bid_rule": table.rules.bid_rule.value,
            "last_bidder_may_bid_zero": table.rules.last_bidder_may_bid_zero,
            "bid_reveal": table.rules.bid_reveal.value,
            "clairvoyance": table.rules.clairvoyance,
            "rounds": table.rules.rounds,
        },
        "status": view.status.value,
        "current_round": view.current_round,
    }


def _game_tail(game: loading.GameSnapshot) -> dict[str, Any]:
    """The game object's members after ``rounds``."""
    view = game.view
    return {
        "totals": view.totals,
        "standings": [
            {"seat": s.seat, "name": s.name, "total": s.total, "rank": s.rank}
            for s in view.standings
        ],
        "winners": view.winners,
        "links": _game_links(game.id),
    }


# The game's links, by endpoint: "self", and the spectator page, where anyone with the
# game's id follows the game, read-only.
_LINKS = (("self", "api.get_game"), ("view", "pages.spectate"))
# An id no game has, which url_for leaves as it is (ids are URL-safe base64, as this is).
_ID_MARK = "GAMEIDMARK"


def _built_links(game_id: str) -> dict[str, str]:
    return {name: url_for(endpoint, game_id=game_id) for name, endpoint in _LINKS}


def _game_links(game_id: str) -> dict[str, str]:
    """The game's links as ``url_for`` gives them. Each is built once per app and address
    root, around a mark for the id, then filled in: two ``url_for`` calls were a tenth of a
    round write's time in the app."""
    if not has_request_context():
        return _built_links(game_id)
    known: dict[str, tuple[tuple[str, str, str], ...]] = current_app.extensions.setdefault(
        "scorekeeper.game_links", {}
    )
    root = request.script_root
    patterns = known.get(root)
    if patterns is None:
        patterns = tuple(
            url_for(endpoint, game_id=_ID_MARK).rpartition(_ID_MARK) for _name, endpoint in _LINKS
        )
        if not all(mark for _before, mark, _after in patterns):  # a route without the id
            return _built_links(game_id)
        if len(known) < 16:  # roots come from the proxy's X-Forwarded-Prefix: a few at most
            known[root] = patterns
    return {
        name: f"{before}{game_id}{after}"
        for (name, _endpoint), (before, _mark, after) in zip(_LINKS, patterns, strict=True)
    }


def _timestamp(moment: Any) -> str:
    return str(moment.strftime("%Y-%m-%dT%H:%M:%SZ"))


def _versioned(response: Response, version: int, cache_control: str = "no-cache") -> Response:
    """Tag ``response`` with the game's version; clients revalidate before reusing it."""
    response.set_etag(str(version))
    response.headers["Cache-Control"] = cache_control
    return response


def game_response(game: loading.GameSnapshot, body: dict[str, Any] | None = None) -> Response:
    """The game (or ``body``, the game with extras) with its version as ETag."""
    if body is not None or current_app.debug:  # debug: jsonify's indented text
        return _versioned(jsonify(body or game_json(game)), game.version)
    return _versioned(Response(_game_text(game), mimetype="application/json"), game.version)


# -- Endpoints -----------------------------------------------------------------------------


@bp.post("/games")
@security.limited("RATELIMIT_CREATE_GAME", scope=security.CREATE_GAME)
def create_game() -> Response:
    """Start a game; the answer carries the edit token, once."""
    data = json_body()
    _only_keys(data, _CREATE_KEYS)
    names = [
        _str(name, f"players[{seat}]")
        for seat, name in enumerate(_list(_required(data, "players"), "players"))
    ]
    first_dealer = _optional_int(data.get("first_dealer"), "first_dealer")
    options = {} if data.get("rules") is None else _object(data["rules"], "rules")
    _only_keys(options, _RULES_KEYS, "rules.")
    rounds = _optional_int(options.get("rounds"), "rules.rounds")
    created = games.create_game(
        names,
        first_dealer=first_dealer,
        bid_rule=_str(options.get("bid_rule", "standard"), "rules.bid_rule"),
        last_bidder_may_bid_zero=_bool(
            options.get("last_bidder_may_bid_zero", False), "rules.last_bidder_may_bid_zero"
        ),
        bid_reveal=_str(options.get("bid_reveal", "open"), "rules.bid_reveal"),
        clairvoyance=_bool(options.get("clairvoyance", False), "rules.clairvoyance"),
        rounds=rounds,
    )
    body = game_json(created.game)
    body["edit_token"] = created.edit_token
    response = _versioned(jsonify(body), created.game.version, "no-store")  # holds the token
    response.status_code = 201
    response.headers["Location"] = body["links"]["self"]
    return response


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    """The game; 304 when ``If-None-Match`` names its version (one statement)."""
    if request.if_none_match:
        version = games.game_version(game_id)
        if request.if_none_match.contains_weak(str(version)):
            return _versioned(Response(status=304), version)
    return game_response(games.get_game(game_id))


@bp.delete("/games/<game_id>")
def delete_game(game_id: str) -> Response:
    """Delete the game."""
    games.delete_game(game_id, _token(), if_match=_if_match())
    return Response(status=204)


def _round_write(
    game_id: str,
    number: int,
    keys: Collection[str],
    write: Callable[..., loading.GameSnapshot],
) -> Response:
    """Shared steps of the round PUTs: token, body, If-Match, write, answer."""
    token = _token()
    try:
        data = json_body()
        _only_keys(data, keys)
        return game_response(write(data, token, _if_match()))
    except (Problem, HTTPException):
        # The body is wrong, but a stranger, or a request for a round the game does not
        # have, hears that first: 401/403/404 come before 400/413/415/422. (A body that is
        # right goes straight to the write, which checks the token in its transaction.)
        sharing.authorize(game_id, token, number)
        raise


@bp.put("/games/<game_id>/rounds/<round:number>/trump")
def put_trump(game_id: str, number: int) -> Response:
    """Record the card turned (and the dealer's choice under a Wizard)."""

    def write(data: dict[str, Any], token: str, if_match: Any) -> loading.GameSnapshot:
        turned = _str(_required(data, "turned"), "turned")
        chosen = data.get("chosen")
        chosen = None if chosen is None else _str(chosen, "chosen")
        return rounds.record_trump(game_id, token, number, turned, chosen, if_match=if_match)

    return _round_write(game_id, number, ("turned", "chosen"), write)


@bp.put("/games/<game_id>/rounds/<round:number>/bids")
def put_bids(game_id: str, number: int) -> Response:
    """Record the bids so far (``null``: not bid yet)."""

    def write(data: dict[str, Any], token: str, if_match: Any) -> loading.GameSnapshot:
        values = _list(_required(data, "bids"), "bids")
        bids = [_optional_count(bid, f"bids[{seat}]") for seat, bid in enumerate(values)]
        return rounds.record_bids(game_id, token, number, bids, if_match=if_match)

    return _round_write(game_id, number, ("bids",), write)


@bp.put("/games/<game_id>/rounds/<round:number>/tricks")
def put_tricks(game_id: str, number: int) -> Response:
    """Record the tricks won, which scores the round."""

    def write(data: dict[str, Any], token: str, if_match: Any) -> loading.GameSnapshot:
        values = _list(_required(data, "tricks"), "tricks")
        tricks = [_count(count, f"tricks[{seat}]") for seat, count in enumerate(values)]
        return rounds.record_tricks(game_id, token, number, tricks, if_match=if_match)

    return _round_write(game_id, number, ("tricks",), write)


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Response:
    """The game as an export: the game object and its audit trail (readable by its id)."""
    game = games.get_game(game_id)
    return _versioned(jsonify(export.one_game_document(game)), game.version)


#: An export of many games is larger than a round's body.
IMPORT_MAX_BYTES = 16 * 1024 * 1024


@bp.post("/import")
@security.limited("RATELIMIT_CREATE_GAME", scope=security.CREATE_GAME)
def import_games() -> Response:
    """New games from an export (one game or many), each round checked by the rules; all or
    nothing. Each game gets a new id and a new edit token, shown once."""
    request.max_content_length = IMPORT_MAX_BYTES
    created = history.import_games(json_body()).created
    body = {
        "games": [
            {
                "id": new.game.id,
                "edit_token": new.edit_token,
                "links": {
                    "self": url_for("api.get_game", game_id=new.game.id),
                    "view": url_for("pages.sheet", game_id=new.game.id),
                },
            }
            for new in created
        ]
    }
    response = jsonify(body)
    response.status_code = 201
    response.headers["Cache-Control"] = "no-store"  # holds the tokens
    return response


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API."""
    return jsonify(openapi_document())
