"""Exports of games: JSON (the API's game object, as ``GET /api/v1/games/{id}`` reads, plus
the audit trail, which :func:`services.importing.import_games` takes back), and the download
of an export (the CSV sheet is the pages', web/sheet_csv.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from flask import Response, stream_with_context

from .links import game_links
from .models import utcnow
from .schemas.document import (
    SCHEMA_VERSION,
    AuditEntry,
    ExportedGame,
    Facts,
    ManyGamesExport,
    OneGameExport,
    TappedIn,
)
from .schemas.games import Game, timestamp
from .services import audit, history, loading

#: A spreadsheet reads a cell starting with one of these as a formula.
_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9_-]")


def _facts(facts: audit.ShownFacts | None, seats: int) -> Facts | None:
    if facts is None:
        return None
    exported = Facts.of(facts)
    if facts.hidden_bids:  # made, and still hidden: null, one a seat
        exported.bids = [None] * seats
    return exported


def audit_entry(change: audit.Change, seats: int) -> AuditEntry:
    """One entry of the audit trail; bids the reveal mode still hides read null."""
    return AuditEntry.model_validate(
        {
            "round": change.round,
            "kind": change.kind,
            "at": timestamp(change.at),
            "old": _facts(change.old, seats),
            "new": _facts(change.new, seats),
        }
    )


def game_export(game: loading.GameSnapshot, audit: Iterable[audit.Change]) -> ExportedGame:
    """One game of an export: the game object and its audit trail."""
    return ExportedGame(
        game=Game.of(game, game_links(game.id)),
        audit=[audit_entry(change, game.table.seats) for change in audit],
        drafts=[TappedIn(round=n, tricks=list(counts)) for n, counts in game.drafts.items()],
    )


def one_game_document(game: loading.GameSnapshot) -> dict[str, Any]:
    """The export of one game."""
    one = game_export(game, audit.audit_trail(game))
    document = OneGameExport(
        schema_version=SCHEMA_VERSION, exported_at=timestamp(utcnow()), **dict(one)
    )
    return document.model_dump(mode="json")


def json_text(document: dict[str, Any]) -> str:
    """A document as the JSON downloads write it: UTF-8 characters as they are, indented."""
    return json.dumps(document, ensure_ascii=False, indent=1)


def many_games_text(ids: Sequence[str]) -> Iterator[str]:
    """The export of the games ``ids`` (every game a browser keeps), as :func:`json_text`
    writes it, a piece at a time: the games are read :data:`history.EXPORT_CHUNK` at a time,
    so that memory does not grow with their number."""
    empty = ManyGamesExport(
        schema_version=SCHEMA_VERSION, exported_at=timestamp(utcnow()), games=[]
    )
    head = json_text(empty.model_dump(mode="json")).removesuffix("[]\n}")
    yield head + "["
    written = False
    for start in range(0, len(ids), history.EXPORT_CHUNK):
        chunk = history.kept_chunk(ids[start : start + history.EXPORT_CHUNK])
        trails = audit.audit_trails(chunk)
        pieces = []
        for game in chunk:
            text = json_text(game_export(game, trails[game.id]).model_dump(mode="json"))
            # json.dumps writes no line break inside a string: each line moves in two levels.
            pieces.append((",\n" if written else "\n") + _indented(text))
            written = True
        yield "".join(pieces)
        time.sleep(0)  # under gevent, let the worker's other requests run between chunks
    yield ("\n ]" if written else "]") + "\n}"


def _indented(text: str) -> str:
    return "  " + text.replace("\n", "\n  ")


def filename(game: loading.GameSnapshot | None, extension: str) -> str:
    """A download name of safe characters only: ``tablet-of-truth-2026-11-21-AbCdEf12.csv``."""
    if game is None:
        stem = f"tablet-of-truth-{utcnow():%Y-%m-%d}-all"
    else:
        stem = f"tablet-of-truth-{game.created_at:%Y-%m-%d}-{game.id[:8]}"
    return _UNSAFE_FILENAME.sub("_", stem) + "." + extension


def download(body: str | Iterator[str], name: str, mimetype: str, *, bom: bool = False) -> Response:
    """A file to save (UTF-8; with a byte order mark, Excel reads a CSV as UTF-8); a body
    given in pieces is sent as it is made, within the request's context."""
    if isinstance(body, str):
        response = Response(("\ufeff" + body if bom else body).encode("utf-8"), mimetype=mimetype)
    else:
        pieces = (piece.encode("utf-8") for piece in body)
        response = Response(stream_with_context(pieces), mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
