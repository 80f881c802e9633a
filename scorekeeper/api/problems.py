"""Every refusal of the API as an RFC 9457 problem, and the app's error handlers that make
one of each error under ``/api/`` (never a bare 500)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import get_args

from flask import Flask, Response, current_app, jsonify, request
from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from .. import errors, rules
from ..i18n import gettext, rule_message, service_message, unavailable_message
from ..schemas.problem import FieldError
from ..schemas.problem import Problem as ProblemBody

PROBLEM_JSON = "application/problem+json"


@dataclass
class Problem(Exception):
    """An error answered as ``application/problem+json``."""

    status: int
    slug: str
    detail: str
    field: str | None = None
    headers: Mapping[str, str] | None = None


#: The errors the API answers as problems.
Answered = Problem | errors.ServiceError | rules.RuleError | HTTPException | DBAPIError

#: Titles by problem type: short, fixed per type (RFC 9457).
TITLES: dict[str, LazyString] = {
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

# HTTP errors of werkzeug by status: problem type, and the detail (None: by status class).
_HTTP_SLUGS = {
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
    415: "unsupported-media-type",
    429: "too-many-requests",
}


def problem_response(problem: Problem) -> Response:
    """Serialize a problem."""
    body = ProblemBody(
        type=f"/api/v1/problems/{problem.slug}",
        title=str(TITLES[problem.slug]),
        status=problem.status,
        detail=problem.detail,
        errors=[FieldError(field=problem.field, message=problem.detail)] if problem.field else None,
    )
    response = jsonify(body.model_dump(exclude_none=True))
    response.status_code = problem.status
    response.mimetype = PROBLEM_JSON
    for name, value in (problem.headers or {}).items():
        response.headers[name] = value
    return response


def is_api_request() -> bool:
    """Whether the request is one for the JSON API."""
    return request.path.startswith("/api/")


def _server_error() -> str:
    return gettext("Something went wrong on the server, and nothing was changed.")


def _http_detail(status: int) -> str:
    details = {
        404: lambda: gettext("There is nothing at this address of the API."),
        405: lambda: gettext(
            "This address does not take a %(method)s request.", method=request.method
        ),
        413: lambda: gettext("The body is larger than the API takes."),
        429: lambda: gettext(
            "Too many requests came from this address: wait a minute, then try again."
        ),
    }
    if status in details:
        return details[status]()
    if status >= 500:
        return _server_error()
    return gettext("The request cannot be handled as it was sent.")


def http_problem(error: HTTPException) -> Problem:
    """A werkzeug HTTP error as a problem."""
    status = error.code or 500
    slug = _HTTP_SLUGS.get(status, "malformed-request" if status < 500 else "server-error")
    headers = {}
    allow = error.get_response().headers.get("Allow") if status == 405 else None
    if allow:
        headers["Allow"] = allow
    return Problem(status, slug, _http_detail(status), headers=headers)


def _problem(error: Answered) -> Problem:
    """The problem that answers ``error`` under ``/api/``."""
    if isinstance(error, Problem):
        return error
    if isinstance(error, errors.ServiceError):
        return Problem(error.status, error.problem, service_message(error), headers=error.headers)
    if isinstance(error, rules.OutOfTurnError):
        return Problem(409, "out-of-turn", rule_message(error))
    if isinstance(error, rules.RuleError):
        return Problem(422, "rule-violation", rule_message(error), error.field)
    if isinstance(error, HTTPException):
        return http_problem(error)
    detail = unavailable_message(error)
    if detail is None:
        # Not a busy or unreachable database: a real fault, logged in full, a 500.
        current_app.logger.exception("database error", exc_info=error)
        return Problem(500, "server-error", _server_error())
    current_app.logger.warning("database unavailable: %s", error)
    return Problem(503, "unavailable", detail, headers={"Retry-After": "1"})


def register_errorhandlers(app: Flask, pages: Callable[[Exception], BaseResponse]) -> None:
    """Answer every error under ``/api/`` with problem+json, and never with a bare 500;
    errors elsewhere go to ``pages``."""

    def handle(error: Answered) -> BaseResponse | HTTPException:
        if isinstance(error, HTTPException) and (error.code or 500) < 400:
            return error
        if not isinstance(error, Problem) and not is_api_request():
            return pages(error)
        return problem_response(_problem(error))

    for kind in get_args(Answered):
        app.register_error_handler(kind, handle)
