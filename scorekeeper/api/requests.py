"""Reading a request: its JSON body through a schema, its bearer token, its ``If-Match``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any, NoReturn, TypeVar

from flask import request
from flask_babel import gettext
from pydantic import BaseModel, ValidationError

from ..schemas.faults import first_fault
from ..services import import_document, importing
from ..services.import_document import Document
from .problems import ProblemError

M = TypeVar("M", bound=BaseModel)


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(name)


def _require_json() -> None:
    if not request.is_json:
        raise ProblemError(
            415,
            "unsupported-media-type",
            gettext("Send the body as JSON, with the header Content-Type: application/json."),
        )


def _not_json() -> ProblemError:
    return ProblemError(400, "malformed-request", gettext("The body is not valid JSON."))


def _not_an_object() -> ProblemError:
    return ProblemError(400, "malformed-request", gettext("The body must be a JSON object."))


def prefers_minimal() -> bool:
    """Whether the request asks for no body in the answer: ``Prefer: return=minimal`` (RFC
    7240: names are case-insensitive, a value may be quoted, preferences may carry
    parameters after ``;``)."""
    for header in request.headers.getlist("Prefer"):
        for preference in header.split(","):
            name, _, value = preference.split(";")[0].partition("=")
            if name.strip().lower() == "return" and value.strip().strip('"') == "minimal":
                return True
    return False


def json_body() -> dict[str, Any]:
    """The request's JSON object; 415 for another media type, 400 for anything not JSON."""
    _require_json()
    try:
        data = json.loads(request.get_data(cache=False), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise _not_json() from None
    if not isinstance(data, dict):
        raise _not_an_object()
    return data


@contextmanager
def json_document() -> Iterator[Document]:
    """The request's JSON object as an export file read as a stream (an import's body, which
    may be large), refused as :func:`json_body` refuses a body; closed on leaving."""
    _require_json()
    with import_document.spool(request.stream) as body:
        try:
            document = importing.read_document(body)
        except import_document.NotJson:
            raise _not_json() from None
        with closing(document):
            if document.top != "object":
                raise _not_an_object()
            yield document


def parse(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as ``model``; its first fault (pydantic's, in the app's words) as a problem."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        fault = first_fault(model, error)
        status, slug = (400, "malformed-request") if fault.malformed else (422, "rule-violation")
        raise ProblemError(status, slug, fault.detail, fault.field) from None


def token() -> str | None:
    """The bearer token of the ``Authorization`` header, if any."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


def if_match() -> frozenset[int] | None:
    """The versions ``If-Match`` accepts (strong comparison); ``None`` when any will do."""
    tags = request.if_match
    if "If-Match" not in request.headers or tags.star_tag:
        return None
    # A tag too long to be a version matches none (and int() refuses over 4300 digits).
    return frozenset(
        int(tag)
        for tag in tags.as_set()
        if tag and tag.isascii() and tag.isdigit() and len(tag) <= 18
    )
