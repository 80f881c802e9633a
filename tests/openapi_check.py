"""Every API response a test sees is checked against the OpenAPI document the server serves:
its status must be documented for the operation, and its body must match the schema."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.test import TestResponse

from scorekeeper.api import openapi_document

DOC_URI = "urn:scorekeeper:openapi"


@cache
def _registry() -> Registry:
    resource: Resource[Any] = DRAFT202012.create_resource(openapi_document())
    return Registry().with_resource(DOC_URI, resource)


@cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    routes = []
    for template in openapi_document()["paths"]:
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        routes.append((re.compile(f"^{pattern}$"), template))
    return routes


def operation_for(path: str, method: str) -> dict[str, Any] | None:
    """The documented operation of ``method path``, if any."""
    for pattern, template in _routes():
        if pattern.match(path):
            operation: dict[str, Any] | None = openapi_document()["paths"][template].get(
                method.lower()
            )
            return operation
    return None


def check_response(method: str, path: str, response: TestResponse) -> None:
    """Assert that ``response`` is what the document promises for ``method path``."""
    if not path.startswith("/api/v1/"):
        return
    operation = operation_for(path, method)
    if operation is None:
        # An address or method the API does not have: still a problem document.
        assert response.status_code in (404, 405), (method, path, response.status_code)
        assert response.mimetype == "application/problem+json"
        return
    documented = operation["responses"].get(str(response.status_code))
    assert documented is not None, (
        f"{method} {path} answered {response.status_code}, which the OpenAPI document "
        f"does not list: {response.get_data(as_text=True)[:500]}"
    )
    content = documented.get("content")
    if not content:
        assert not response.get_data(), f"{method} {path}: body where none is documented"
        return
    assert response.mimetype in content, (method, path, response.mimetype, list(content))
    schema = content[response.mimetype]["schema"]
    validator = Draft202012Validator(_absolute_refs(schema), registry=_registry())
    errors = sorted(validator.iter_errors(response.get_json()), key=str)
    assert not errors, f"{method} {path} {response.status_code}: {errors[0]}"


def _absolute_refs(node: Any) -> Any:
    """``node`` with its ``#/components/...`` references pointing into the document."""
    if isinstance(node, dict):
        return {
            key: (
                DOC_URI + value
                if key == "$ref" and value.startswith("#")
                else _absolute_refs(value)
            )
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_absolute_refs(item) for item in node]
    return node


class CheckedClient(FlaskClient):
    """A test client that checks every API response against the OpenAPI document."""

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:  # type: ignore[override]
        response = super().open(*args, **kwargs)
        request = response.request
        check_response(request.method, request.path, response)
        return response
