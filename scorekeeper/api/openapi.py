"""The OpenAPI 3.1 document of JSON API v1: each route declares its :class:`Operation` where
it is written, the schemas come from the models. The tests check every API answer against it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypeVar

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from ..schemas.problem import Problem

F = TypeVar("F", bound=Callable[..., Any])
REF = "#/components/schemas/{model}"
PATH_NAME = re.compile(r"<(?:\w+:)?(\w+)>")

#: What each refusal means, for the operations that can answer it.
PROBLEMS = {
    400: "Malformed JSON or a value of the wrong JSON type.",
    401: "No edit token was sent.",
    403: "The edit token (or the table code) is not this game's.",
    404: "Unknown game or round.",
    409: "Out of turn: an earlier round or step is not done yet.",
    412: "`If-Match` named a version that is no longer current.",
    413: "The body is too large.",
    415: "The body is not `application/json`.",
    422: "A value the rules forbid, or an unknown field.",
    429: "Too many requests from this address (games started, table codes tried), or too "
    "many wrong table codes for this game; retry after `Retry-After` seconds.",
    503: "The database is busy or could not be reached; retry after `Retry-After` seconds.",
}

_STRING = {"type": "string"}


def _parameter(where: str, description: str, schema: dict[str, Any] = _STRING) -> dict[str, Any]:
    return {"in": where, "required": where == "path", "description": description, "schema": schema}


#: The parameters an operation may name, path parameters by the route's own names.
PARAMETERS: dict[str, dict[str, Any]] = {
    "game_id": _parameter("path", "The game's id: knowing it gives read access."),
    "number": _parameter(
        "path", "The round, 1 to `rules.rounds`.", {"type": "integer", "minimum": 1}
    ),
    "If-Match": _parameter("header", 'The version the write is based on, as `"7"`; stale → 412.'),
    "If-None-Match": {"in": "header", "required": False, "schema": _STRING},
    "Prefer": _parameter(
        "header", "`return=minimal`: answer 204 with the new version as ETag, no body (RFC 7240)."
    ),
}
HEADERS: dict[str, dict[str, Any]] = {
    "ETag": {"$ref": "#/components/headers/ETag"},
    "Location": {"description": "The game's address.", "schema": _STRING},
    "Preference-Applied": {"description": "`return=minimal`, when honoured.", "schema": _STRING},
}


class Answer(NamedTuple):
    """A documented answer: its description, body model and headers."""

    description: str
    model: type[BaseModel] | None = None
    headers: tuple[str, ...] = ()
    #: A body that is some JSON object (the document itself).
    any_object: bool = False


@dataclass(frozen=True)
class Operation:
    """One operation of the API, declared above its route: ``@Operation(...)``."""

    rule: str
    method: Literal["GET", "POST", "PUT", "DELETE"]
    operation_id: str
    summary: str
    answers: Mapping[int, Answer]
    problems: tuple[int, ...] = ()
    description: str | None = None
    body: type[BaseModel] | None = None
    headers: tuple[str, ...] = ()
    #: Whether the operation takes the edit token.
    editor: bool = False

    def __call__(self, view: F) -> F:
        """Declare the operation of ``view`` (read by the blueprint and the document)."""
        view.operation = self  # type: ignore[attr-defined]
        return view

    @property
    def path(self) -> str:
        """The OpenAPI path of the rule: ``<round:number>`` reads ``{number}``."""
        return "/api/v1" + PATH_NAME.sub(r"{\1}", self.rule)


def operation_of(view: Callable[..., Any]) -> Operation:
    """The operation ``view`` declares."""
    return view.operation  # type: ignore[attr-defined,no-any-return]


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF.format(model=model.__name__)}


def _content(schema: dict[str, Any], media: str = "application/json") -> dict[str, Any]:
    return {"content": {media: {"schema": schema}}}


def _answer(answer: Answer) -> dict[str, Any]:
    result: dict[str, Any] = {"description": answer.description}
    if answer.headers:
        result["headers"] = {name: HEADERS[name] for name in answer.headers}
    if answer.model is not None or answer.any_object:
        result.update(_content(_ref(answer.model) if answer.model else {"type": "object"}))
    return result


def _operation(op: Operation) -> dict[str, Any]:
    result: dict[str, Any] = {"summary": op.summary}
    if op.description:
        result["description"] = op.description
    result["operationId"] = op.operation_id
    if op.editor:
        result["security"] = [{"editToken": []}]
    names = (*PATH_NAME.findall(op.rule), *op.headers)
    if names:
        result["parameters"] = [{"name": name, **PARAMETERS[name]} for name in names]
    if op.body is not None:
        result["requestBody"] = {"required": True, **_content(_ref(op.body))}
    result["responses"] = {str(status): _answer(answer) for status, answer in op.answers.items()}
    for status in op.problems:
        result["responses"][str(status)] = {
            "description": PROBLEMS[status],
            **_content(_ref(Problem), "application/problem+json"),
        }
    return result


def _schemas(operations: Iterable[Operation]) -> dict[str, Any]:
    """The components of the operations' models: bodies as validated, answers as serialized."""
    models: dict[type[BaseModel], JsonSchemaMode] = {Problem: "serialization"}
    for op in operations:
        if op.body is not None:
            models[op.body] = "validation"
        for answer in op.answers.values():
            if answer.model is not None:
                models[answer.model] = "serialization"
    _, schema = models_json_schema(list(models.items()), ref_template=REF)
    return dict(schema["$defs"])


def openapi_document(operations: Iterable[Operation]) -> dict[str, Any]:
    """The whole OpenAPI 3.1 document of ``operations``."""
    operations = list(operations)
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tablet of Truth API",
            "version": "1",
            "description": "Scorekeeping for the card game Wizard: games, trump, bids and "
            "tricks, with scores, totals and standings derived by the rules.",
        },
        "servers": [{"url": "/"}],
        "components": {
            "schemas": _schemas(operations),
            "securitySchemes": {
                "editToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The edit_token returned once when the game was created, "
                    "or once when a table code was exchanged for one.",
                }
            },
            "headers": {
                "ETag": {"description": 'The game\'s version, as `"7"`.', "schema": _STRING}
            },
        },
        "paths": paths,
    }
