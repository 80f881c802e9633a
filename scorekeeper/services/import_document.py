"""An export file read as a stream (:mod:`ijson`, on yajl's C parser): first its outline in
one pass that keeps nothing (is it JSON, which kind of file, how many games), then its games
one at a time. An import holds one game of the file in memory, whatever the file's size."""

from __future__ import annotations

import codecs
import json
import re
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import IO, Any

import ijson

from ..errors import ImportRefused
from ..rules.messages import Count, RuleError
from ..rules.messages import gettext_noop as _

#: Nesting no export comes near (it has six levels). A deeper file is refused as no JSON, as
#: the standard library's parser refuses one near a thousand levels.
MAX_DEPTH = 500
#: Parser events the first pass reads at once (a block).
EVENTS_PER_BLOCK = 20_000
#: Blocks of those events that one game of a file (or another top-level value) may fill:
#: several times the largest game an export holds. A game is read whole, in memory.
GAME_BLOCKS = 10
#: The path ijson gives the games of a file's ``games`` list (and the value of a top-level
#: key of that name, or of a key "item" in an object ``games``, which the first pass counts
#: among them to know which ones ``ijson.items`` yields are the list's).
GAMES = "games.item"
#: A request's body is kept in memory up to this size, on disk beyond it.
SPOOL_BYTES = 1024 * 1024
#: Games one file may hold: a household's games of many years (an export of everything a
#: phone keeps), and as many full games, with their audit trails, as the body limit holds.
MAX_IMPORT_GAMES = 1000
#: An export of many games is larger than a round's body.
IMPORT_MAX_BYTES = 24 * 1024 * 1024

#: A ``\u`` escape of a high surrogate without its low one after it (an escape when an even
#: number of backslashes comes before it).
_LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})")
#: Bytes a chunk of the scan for it carries over into the next one.
_OVERLAP = 64
_CHUNK = 1024 * 1024
#: Bytes of one value (a string, a number) that no export comes near (names are short).
#: Yajl lexes a value that runs over from one read of the file into the next again from its
#: start with each read, so a longer one would hold a worker (docs/import.md).
_LONGEST = 64 * 1024
#: Every quote a quote, every other byte an "x".
_QUOTES = bytes(0x22 if byte == 0x22 else 0x78 for byte in range(256))

_OPENING = frozenset({"start_map", "start_array"})
_CLOSING = frozenset({"end_map", "end_array"})
#: The events that start a value (what ``ijson.items`` yields one item for).
_VALUES = _OPENING | {"null", "boolean", "integer", "double", "number", "string"}
#: What stands for a value that is an object or a list in :attr:`Document.schema_version`.
_CONTAINER = object()


class NotJson(ValueError):
    """The file is not JSON (or is nested deeper than any export)."""


class Paced:
    """A file that lets other requests run before each read (the parser reads a block at a
    time), so a stretch of few parser events (long escaped strings) is not read at once."""

    def __init__(self, file: IO[bytes], pause: Callable[[], None]) -> None:
        self.file, self.pause = file, pause

    def read(self, size: int = -1) -> bytes:
        self.pause()
        return self.file.read(size)


@dataclass(frozen=True)
class Document:
    """An export file, and what its first pass found: the kind of its top value
    (``"object"``, ``"null"`` or ``"other"``) and, of an object, its keys, its
    ``schema_version``, and where the games of its ``games`` list are. A key given twice
    counts once, with its last value, as the standard library's parser reads it."""

    file: Paced
    top: str
    keys: frozenset[str] = frozenset()
    schema_version: Any = None
    games_listed: bool = False
    #: The games list's first game, counted among every value at :data:`GAMES`.
    first: int = 0
    count: int = 0
    #: Whether a game (or another top-level value) fills more than :data:`GAME_BLOCKS`.
    oversized: bool = False
    #: Whether ``file`` is a copy made here (in UTF-8), which :meth:`close` closes.
    copied: bool = False

    def close(self) -> None:
        """Close the copy of the file made to read it, if one was made."""
        if self.copied:
            self.file.file.close()

    def games(self) -> Iterator[Any]:
        """The file's games one at a time, each ``{"game": …, "audit": …}`` as exported."""
        if "games" not in self.keys:
            yield {key: self._last(key) for key in ("game", "audit", "drafts")}
            return
        self.file.file.seek(0)
        for ordinal, item in enumerate(ijson.items(self.file, GAMES, use_float=True)):
            if ordinal >= self.first + self.count:
                return
            if ordinal >= self.first:
                yield item

    def _last(self, key: str) -> Any:
        """The value of the top-level ``key`` (its last, if given twice), or ``None``."""
        self.file.file.seek(0)
        last = deque(ijson.items(self.file, key, use_float=True), maxlen=1)
        return last[0] if last else None


def spool(stream: IO[bytes]) -> IO[bytes]:
    """A request body copied to a file to read twice: in memory while small, else on disk."""
    copy = tempfile.SpooledTemporaryFile(SPOOL_BYTES)  # noqa: SIM115 (the caller's to close)
    try:
        shutil.copyfileobj(stream, copy)
    except BaseException:
        copy.close()
        raise
    copy.seek(0)
    return copy


def read(file: IO[bytes], pause: Callable[[], None]) -> Document:
    """The outline of ``file`` (which must be seekable), or :class:`NotJson`. ``pause`` is
    called before each read of the file, by this pass and by those that read its games.
    Close the document when done."""
    utf8 = _utf8(file)
    try:
        paced = Paced(utf8, pause)
        if refusal := _refusal(paced):
            raise NotJson(refusal)
        return replace(_outline(paced), copied=utf8 is not file)
    except BaseException:
        if utf8 is not file:
            utf8.close()
        raise


def _outline(file: Paced) -> Document:
    top: str | None = None
    depth = 0
    key: str | None = None  # the top-level key whose value is being read
    values: dict[str, Any] = {}  # each top-level key's value, or its first event if a container
    inner: str | None = None  # in a top-level object's object: the key whose value is read
    ordinal = 0  # values at GAMES so far
    games = (0, 0)  # the last games list: its first ordinal, its count
    # Blocks in a row that began no top-level value and no listed game; where the last ended.
    quiet, spot, oversized = 0, (key, ordinal), False
    events = ijson.basic_parse(file, use_float=True)
    try:
        while block := list(islice(events, EVENTS_PER_BLOCK)):
            for event, value in block:
                if depth > 2:  # inside a game (most events): only the depth counts
                    if event in _OPENING:
                        depth += 1
                        if depth > MAX_DEPTH:
                            raise NotJson(f"nested deeper than {MAX_DEPTH} levels")
                    elif event in _CLOSING:
                        depth -= 1
                    continue
                if event == "map_key":
                    if depth == 1:
                        if key == "games":
                            games = (games[0], ordinal - games[0])
                        key = value
                        values[key] = None
                        if key == "games":
                            games = (ordinal, 0)
                    else:
                        inner = value
                elif event in _VALUES:
                    if top is None:
                        top = event
                    elif depth == 1 and key is not None:
                        values[key] = (event,) if event in _OPENING else value
                        ordinal += key == GAMES
                    elif depth == 2 and key == "games":
                        listed = values[key] == ("start_array",)
                        ordinal += listed or inner == "item"
                    if event in _OPENING:
                        depth += 1
                else:
                    depth -= 1
            quiet, spot = (quiet + 1 if spot == (key, ordinal) else 0), (key, ordinal)
            oversized |= quiet >= GAME_BLOCKS
    except (ijson.JSONError, ValueError) as error:
        raise NotJson(str(error)) from None
    if top != "start_map":
        return Document(file, "null" if top == "null" else "other")
    if key == "games":
        games = (games[0], ordinal - games[0])
    return Document(
        file,
        "object",
        keys=frozenset(values),
        schema_version=_scalar(values.get("schema_version")),
        games_listed=values.get("games") == ("start_array",),
        first=games[0],
        count=games[1],
        oversized=oversized,
    )


def _scalar(value: Any) -> Any:
    """A top-level value as the first pass keeps it: a scalar, or a stand-in for the rest."""
    return _CONTAINER if isinstance(value, tuple) else value


def _utf8(file: IO[bytes]) -> IO[bytes]:
    """``file`` in UTF-8, which the parser reads: a file in UTF-16 or UTF-32, or with a byte
    order mark, is copied in UTF-8 (the standard library's parser takes those, too)."""
    head = file.read(4)
    file.seek(0)
    encoding = json.detect_encoding(head)
    if encoding == "utf-8":
        return file
    copy = tempfile.SpooledTemporaryFile(SPOOL_BYTES)  # noqa: SIM115 (the caller's to close)
    reader = codecs.getreader(encoding)(file, "surrogatepass")
    while chunk := reader.read(64 * 1024):
        copy.write(chunk.encode("utf-8", "surrogatepass"))
    copy.seek(0)
    return copy


def _refusal(file: Paced) -> str | None:
    r"""Why ``file`` is refused before it is parsed, or ``None``: :data:`_LONGEST` bytes
    without a quote (escaped quotes and backslashes do not count), or an escape of half a
    surrogate pair (``\ud800`` alone), which Python's parser reads as a character no text can
    hold, and yajl's as "?". A match within the last bytes of a chunk may be the first half
    of a pair split over two: it is looked at again with the next chunk, which follows the
    last :data:`_OVERLAP` bytes of this one."""
    window = b""
    while chunk := file.read(_CHUNK):
        window = window[-_OVERLAP:] + chunk
        plain = window.replace(b"\\\\", b"xx").replace(b'\\"', b"xx").translate(_QUOTES)
        if b"x" * _LONGEST in plain:
            return "a value too long"
        settled = len(window) - _OVERLAP // 4
        if any(_escaped(window, found, settled) for found in _LONE_SURROGATE.finditer(window)):
            return "a lone surrogate"
    file.file.seek(0)
    last = any(_escaped(window, found, len(window)) for found in _LONE_SURROGATE.finditer(window))
    return "a lone surrogate" if last else None


def _escaped(text: bytes, found: re.Match[bytes], settled: int) -> bool:
    """Whether ``found`` ends by ``settled`` and its backslash begins an escape (an even
    number of backslashes before it) rather than ending one (``\\\\ud800`` is no escape)."""
    if found.end() > settled:
        return False
    start = found.start()
    before = 0
    while before < start and text[start - before - 1] == ord("\\"):
        before += 1
    return before % 2 == 0


def count_games(document: Document) -> int:
    """How many games the file holds, or its refusal when it is no export one import takes."""
    if document.top != "object":
        raise ImportRefused(reason=RuleError(_("it is not a JSON object.")))
    if document.schema_version != 1:
        refusal = _("it is not a file this version of the Tablet of Truth exported.")
        raise ImportRefused(reason=RuleError(refusal))
    if "games" in document.keys:
        if not document.games_listed:
            raise ImportRefused(reason=RuleError(_("games must be a list.")))
        count = document.count
    else:
        count = 1 if "game" in document.keys else 0
    if not count:
        raise ImportRefused(reason=RuleError(_("it holds no game.")))
    if document.oversized:
        refusal = _("one of its games is larger than any the Tablet of Truth exports.")
        raise ImportRefused(reason=RuleError(refusal))
    if count > MAX_IMPORT_GAMES:
        raise ImportRefused(
            reason=RuleError(
                _("it holds more than %(max)s games: import them in parts."),
                max=Count(MAX_IMPORT_GAMES),
            )
        )
    return count
