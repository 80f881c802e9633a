"""Every refusal of the API as an RFC 9457 problem, and the app's error handlers that make
one of each error under ``/api/`` (never a bare 500)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import get_args

from flask import Flask, current_app, jsonify, make_response, request
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from .. import errors, security
from ..i18n import rule_message, service_message, unavailable_message
from ..rules.messages import OutOfTurnError, RuleError
from ..schemas.problem import FieldError, Problem


@dataclass
class ProblemError(Exception):
    """An error answered as ``application/problem+json``."""

    status: int
    slug: str
    detail: str
    field: str | None = None
    headers: Mapping[str, str] | None = None


#: The errors the API answers as problems.
Answered = ProblemError | errors.ServiceError | RuleError | HTTPException | DBAPIError

#: Titles by problem type: short, fixed per type (RFC 9457).
TITLES: dict[str, LazyString] = {
    "malformed-request": _l("The request is malformed"),
    "unsupported-media-type": _l("The body must be JSON"),
    "not-found": _l("Not found"),
    "unauthorized": _l("Edit token missing"),
    "forbidden": _l("Edit token rejected"),
    "table-code-rejected": _l("Table code rejected"),
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

_AS_SENT = _l("The request cannot be handled as it was sent.")
_SERVER_FAULT = _l("Something went wrong on the server, and nothing was changed.")
# werkzeug's HTTP errors by status: the problem type and the detail (others by status class).
_HTTP_ERRORS = {
    404: ("not-found", _l("There is nothing at this address of the API.")),
    405: ("method-not-allowed", _l("This address does not take a %(method)s request.")),
    413: ("payload-too-large", _l("The body is larger than the API takes.")),
    415: ("unsupported-media-type", _AS_SENT),
}


def _http_problem(error: HTTPException) -> ProblemError:
    """A werkzeug HTTP error as a problem."""
    status = error.code or 500
    by_class = ("malformed-request", _AS_SENT) if status < 500 else ("server-error", _SERVER_FAULT)
    if status == 429:  # the wait Retry-After gives, in words
        return ProblemError(status, "too-many-requests", security.wait_message())
    slug, detail = _HTTP_ERRORS.get(status, by_class)
    allow = error.get_response().headers.get("Allow") if status == 405 else None
    headers = {"Allow": allow} if allow else None
    return ProblemError(status, slug, str(detail) % {"method": request.method}, headers=headers)


def _problem(error: Answered) -> ProblemError:
    """The problem that answers ``error`` under ``/api/``."""
    if isinstance(error, ProblemError):
        return error
    if isinstance(error, errors.ServiceError):
        said = service_message(error, api=True)
        return ProblemError(error.status, error.problem, said, headers=error.headers)
    if isinstance(error, OutOfTurnError):
        return ProblemError(409, "out-of-turn", rule_message(error, api=True))
    if isinstance(error, RuleError):
        return ProblemError(422, "rule-violation", rule_message(error, api=True), error.field)
    if isinstance(error, HTTPException):
        return _http_problem(error)
    detail = unavailable_message(error)
    if detail is None:
        # Not a busy or unreachable database: a real fault, logged in full, a 500.
        current_app.logger.exception("database error", exc_info=error)
        return ProblemError(500, "server-error", str(_SERVER_FAULT))
    current_app.logger.warning("database unavailable: %s", error)
    return ProblemError(503, "unavailable", detail, headers={"Retry-After": "1"})


def register_errorhandlers(app: Flask, pages: Callable[[Exception], BaseResponse]) -> None:
    """Answer every error under ``/api/`` with problem+json, and never with a bare 500;
    errors elsewhere go to ``pages``."""

    def handle(error: Answered) -> BaseResponse | HTTPException:
        if isinstance(error, HTTPException) and (error.code or 500) < 400:
            return error
        if not isinstance(error, ProblemError) and not request.path.startswith("/api/"):
            return pages(error)
        problem = _problem(error)
        fields = [FieldError(field=problem.field, message=problem.detail)] if problem.field else []
        body = Problem(
            type=f"/api/v1/problems/{problem.slug}",
            title=str(TITLES[problem.slug]),
            status=problem.status,
            detail=problem.detail,
            errors=fields or None,
        )
        headers = {"Content-Type": "application/problem+json", **(problem.headers or {})}
        return make_response(jsonify(body.model_dump(exclude_none=True)), problem.status, headers)

    for kind in get_args(Answered):
        app.register_error_handler(kind, handle)
