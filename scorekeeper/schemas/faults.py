"""The first fault pydantic finds in a JSON value, in the app's own sentence (pydantic's
English never reaches a user): for a request body's answer and an import's refusal."""

from __future__ import annotations

from typing import Any, NamedTuple

from flask_babel import gettext
from pydantic import BaseModel, ValidationError

# pydantic's error types, by the sentence said for them (a wrong JSON type).
_TYPE_SENTENCES = {
    "int_type": lambda field: gettext("%(field)s must be a whole number.", field=field),
    "string_type": lambda field: gettext("%(field)s must be a string.", field=field),
    "bool_type": lambda field: gettext("%(field)s must be true or false.", field=field),
    "list_type": lambda field: gettext("%(field)s must be a list.", field=field),
    "model_type": lambda field: gettext("%(field)s must be a JSON object.", field=field),
    "dict_type": lambda field: gettext("%(field)s must be a JSON object.", field=field),
}


class Fault(NamedTuple):
    """A fault's sentence, field and place; ``malformed``: a wrong JSON type (the API's 400)."""

    detail: str
    field: str | None
    loc: tuple[int | str, ...]
    malformed: bool


def field_name(loc: tuple[int | str, ...]) -> str:
    """A field's path as the API names it: ``rules.rounds``, ``bids[2]``."""
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else f".{part}" if name else part
    return name


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model a field's type holds (``Player`` in ``list[Player] | None``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    found = (_model_in(arg) for arg in getattr(annotation, "__args__", ()))
    return next((model for model in found if model is not None), None)


def _fields_of(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> list[str]:
    """The fields of the object at ``loc`` inside ``model``."""
    for part in loc:
        if model is not None and not isinstance(part, int):
            model = _model_in(model.model_fields[part].annotation)
    return list(model.model_fields) if model is not None else []


def first_fault(model: type[BaseModel], error: ValidationError) -> Fault:
    """The first fault of ``error``; an unknown field of the object itself comes first."""
    fault = min(error.errors(), key=lambda e: e["type"] != "extra_forbidden" or len(e["loc"]) > 1)
    loc = tuple(fault["loc"])
    field = field_name(loc)
    if fault["type"] == "extra_forbidden":
        allowed = ", ".join(_fields_of(model, loc[:-1]))
        detail = gettext(
            "%(key)s is not a field here; the fields are %(allowed)s.", key=field, allowed=allowed
        )
    elif fault["type"] == "missing":
        detail = gettext("The field %(key)s is missing.", key=field)
    elif fault["type"] == "greater_than_equal":
        least = fault.get("ctx", {}).get("ge", 0)
        detail = gettext("%(field)s cannot be below %(least)d.", field=field, least=least)
    elif fault["type"] in _TYPE_SENTENCES:
        return Fault(_TYPE_SENTENCES[fault["type"]](field), field, loc, malformed=True)
    else:
        return Fault(gettext("The request cannot be handled as it was sent."), None, loc, True)
    return Fault(detail, field, loc, malformed=False)
