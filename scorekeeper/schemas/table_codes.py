"""The table code's bodies and answers: showing a new code, and taking the right to keep
the score with it."""

from __future__ import annotations

from pydantic import Field

from ..errors import TABLE_CODE_DIGITS
from .games import Game, Model


class TableCode(Model):
    """A game's new table code: the old one no longer works."""

    table_code: str = Field(
        json_schema_extra={"pattern": f"^[0-9]{{{TABLE_CODE_DIGITS}}}$"},
        description="The code's digits, shown only here. Show it to the table in groups of "
        "four (`4821 0937`): any phone that follows the game can enter it to keep the score.",
    )


class TakeOverBody(Model):
    """A table code, to take the right to keep the score."""

    table_code: str = Field(
        json_schema_extra={"maxLength": 4 * TABLE_CODE_DIGITS},
        description=f"The {TABLE_CODE_DIGITS} digits of the code, with or without spaces "
        "or dashes between them.",
    )


class TakenOverGame(Game):
    """The game, with a bearer token of the caller's own to change it."""

    edit_token: str = Field(
        description="Keep it, it is never shown again: it changes this game until the "
        "scorekeeper takes the right back from every other phone."
    )
