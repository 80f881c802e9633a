"""The export document (one game or many, each with its audit trail), what an import takes
and what it answers."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from .games import Game, Model, Timestamp, Trump

SCHEMA_VERSION: Literal[1] = 1
#: What wrote to a round (see :class:`models.RoundChange`).
Kind = Literal["trump", "bids", "tricks", "score", "correction", "import"]
KINDS: tuple[str, ...] = get_args(Kind)


class Facts(Model):
    """A round's recorded facts."""

    trump: Trump | None
    bids: list[int | None] | None
    tricks: list[int] | None


class AuditEntry(Model):
    """One write to a round: when, which kind, its facts before and after. Bids the reveal
    mode still hides read null."""

    round: int = Field(ge=1)
    kind: Kind
    at: Timestamp
    old: Facts | None
    new: Facts | None


class ExportedGame(Model):
    """One game of an export: the game object and its audit trail."""

    game: Game
    audit: list[AuditEntry]


class OneGameExport(Model):
    """The export of one game."""

    schema_version: Literal[1]
    exported_at: Timestamp
    game: Game
    audit: list[AuditEntry]


class ManyGamesExport(Model):
    """The export of every game a browser keeps."""

    schema_version: Literal[1]
    exported_at: Timestamp
    games: list[ExportedGame]


class GameExport(BaseModel):
    """One game of a file to import: the game object as an export wrote it (checked by the
    import, round by round, in the rules' words)."""

    game: dict[str, Any] = Field(description="The game object, as GET returns it.")
    audit: list[AuditEntry]


class Export(BaseModel):
    """A file to import: one game (``game`` and ``audit``) or many (``games``)."""

    schema_version: Literal[1]
    exported_at: Timestamp | None = None
    game: dict[str, Any] | None = None
    audit: list[AuditEntry] | None = None
    games: list[GameExport] | None = None


class ImportLinks(Model):
    """Where a new game is."""

    self: str
    view: str


class ImportedGame(Model):
    """A game the import started."""

    id: str
    edit_token: str = Field(description="The new game's edit token, shown only here.")
    links: ImportLinks


class ImportResult(Model):
    """The games an import started."""

    games: list[ImportedGame]
