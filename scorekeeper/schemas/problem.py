"""The problem details (RFC 9457) every refusal of the API answers with."""

from __future__ import annotations

from pydantic import BaseModel, Field


class FieldError(BaseModel):
    """The field a refusal is about."""

    field: str = Field(examples=["bids[2]"])
    message: str


class Problem(BaseModel):
    """An ``application/problem+json`` body."""

    type: str
    title: str
    status: int
    detail: str = Field(description="A sentence a person understands.")
    errors: list[FieldError] | None = None
