"""Reading a request: its JSON body through a schema, its bearer token, its ``If-Match``.

A body the schema refuses answers as the hand-made checks did: the first fault, in the
app's own sentence (pydantic's English never reaches a client) and with its field.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn, TypeVar

from flask import request
from flask_babel import gettext
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .problems import Problem

M = TypeVar("M", bound=BaseModel)

# pydantic's error types, by the sentence the API says for them (400: a wrong JSON type).
_TYPE_SENTENCES = {
    "int_type": lambda field: gettext("%(field)s must be a whole number.", field=field),
    "string_type": lambda field: gettext("%(field)s must be a string.", field=field),
    "bool_type": lambda field: gettext("%(field)s must be true or false.", field=field),
    "list_type": lambda field: gettext("%(field)s must be a list.", field=field),
    "model_type": lambda field: gettext("%(field)s must be a JSON object.", field=field),
    "dict_type": lambda field: gettext("%(field)s must be a JSON object.", field=field),
}


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


def field_name(loc: tuple[int | str, ...]) -> str:
    """A field's path as the API names it: ``rules.rounds``, ``bids[2]``."""
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else f".{part}" if name else part
    return name


def _fields_of(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The fields of the object at ``loc`` inside ``model``."""
    for part in loc:
        annotation = model.model_fields[str(part)].annotation
        model = next(
            arg
            for arg in (annotation, *getattr(annotation, "__args__", ()))
            if isinstance(arg, type) and issubclass(arg, BaseModel)
        )
    return list(model.model_fields)


def _problem(model: type[BaseModel], error: ErrorDetails) -> Problem:
    loc = tuple(error["loc"])
    field = field_name(loc)
    kind = error["type"]
    if kind == "extra_forbidden":
        allowed = ", ".join(_fields_of(model, loc[:-1]))
        detail = gettext(
            "%(key)s is not a field here; the fields are %(allowed)s.", key=field, allowed=allowed
        )
        return Problem(422, "rule-violation", detail, field)
    if kind == "missing":
        detail = gettext("The field %(key)s is missing.", key=field)
        return Problem(422, "rule-violation", detail, field)
    if kind == "greater_than_equal":
        return Problem(
            422, "rule-violation", gettext("%(field)s cannot be below 0.", field=field), field
        )
    sentence = _TYPE_SENTENCES.get(kind)
    if sentence is None:
        return Problem(
            400, "malformed-request", gettext("The request cannot be handled as it was sent.")
        )
    return Problem(400, "malformed-request", sentence(field), field)


def parse(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as ``model``; the first fault as a problem. An unknown field of the body
    itself is named first, as the checks of old did before reading any field."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        faults = sorted(
            error.errors(),
            key=lambda e: not (e["type"] == "extra_forbidden" and len(e["loc"]) == 1),
        )
        raise _problem(model, faults[0]) from None


def token() -> str | None:
    """The bearer token of the ``Authorization`` header, if any."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value:
        return None
    return value


def if_match() -> frozenset[int] | None:
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
