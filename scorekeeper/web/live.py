"""The spectator page's live part: the stream that sends it again after each change (woken by
this worker's sweep, ``push.py``), the fragment rendered once per game, version and language
and served to every follower from the cache (Flask-Caching: each worker's memory, or Redis
shared by every worker and server with ``CACHE_REDIS_URL``).

A fragment is a function of the game's version and the language alone (the version grows
with every write, and the fragment shows nothing of the viewer), so a cached one is never
out of date: a new version is a new key. A cache that cannot be reached is a cache miss.

Most changes touch only the round being played (a trump, a bid, a trick). A follower whose
page shows a version with the same past (every other round, so the totals: :func:`_past`) is
sent only that round's section and its row of the sheet, which replace theirs on the page
(``static/js/follow.js``); any other change sends the whole part again.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import redis
from flask import Response, current_app, render_template, request, stream_with_context
from flask_babel import get_locale
from flask_limiter.util import get_remote_address

from .. import push
from ..extensions import cache, db
from ..services import games, loading
from .screens import sheet_rows


class Fragment(NamedTuple):
    """A rendered fragment of the live part."""

    #: The version it shows.
    version: int
    #: Its HTML.
    body: str
    #: The digest of all it shows but the round being played (``None``: the game is over).
    past: str | None
    #: Whether it holds the round being played alone.
    round_only: bool = False


_TAG = re.compile(r"live-([0-9]{1,18})-.+")


def tag(version: int) -> str:
    """The fragment's validator: the game's version and the language it is written in."""
    return f"live-{version}-{get_locale() or 'en'}"


def _shown_version(shown: str) -> int | None:
    """The version a page's tag names (``None``: none, or not in this request's language)."""
    found = _TAG.fullmatch(shown)
    if found is None or tag(int(found[1])) != shown:
        return None
    return int(found[1])


def _key(game_id: str, version: int, round_only: bool) -> str:
    part = "round" if round_only else "whole"
    return f"live/{request.script_root}/{game_id}/{tag(version)}/{part}"


def _past(game: loading.GameSnapshot) -> str | None:
    """A digest of all the live part shows but the round being played: the facts of every
    other round, so the totals, the chart and the sheet's other rows (a game's players and
    rules never change); ``None`` once the game is over."""
    number = game.view.current_round
    if number is None:
        return None
    others = [facts for key, facts in sorted(game.rounds.items()) if key != number]
    return hashlib.blake2b(repr((number, others)).encode(), digest_size=16).hexdigest()


def context(game: loading.GameSnapshot) -> dict[str, Any]:
    """What the live part's templates take besides the game: the round being played."""
    number = game.view.current_round
    return {"current": game.view.round(number) if number else None}


def _render(game_id: str, shown_past: str | None) -> Fragment:
    """The game's live part as it is now: only the round being played when its past is
    ``shown_past`` (the past of the version a page shows), else the whole."""
    game = games.get_game(game_id)
    past = _past(game)
    given = context(game)
    if shown_past is not None and past == shown_past:
        row = sheet_rows(game)[given["current"].number - 1]
        body = render_template("_live_round.html", game=game, row=row, **given)
        return Fragment(game.version, body, past, round_only=True)
    return Fragment(game.version, render_template("_live.html", game=game, **given), past)


#: One rendering at a time in this process: the followers of a game that has just changed
#: all ask for its new fragment at once, and the others wait for the first one's (on gevent
#: workers, a rendering that waits for the database would otherwise let each follower find
#: the cache empty and render it again).
_rendering = threading.Lock()


def fragment(game_id: str, version: int, shown_past: str | None = None) -> Fragment:
    """The game's fragment at ``version`` from the cache, else rendered and kept; for a page
    whose past is ``shown_past``, only the round being played when nothing else changed.
    When the game has moved on since ``version`` was read, the fragment shows the newer
    version, and is kept under both: every follower woken for ``version`` finds it."""
    found = _lookup(game_id, version, shown_past)
    if found is not None:
        return found
    with _rendering:
        found = _lookup(game_id, version, shown_past)
        if found is not None:
            return found
        made = _render(game_id, shown_past)
        with contextlib.suppress(redis.RedisError):
            for kept in {version, made.version}:
                cache.set(_key(game_id, kept, made.round_only), made)
        return made


def _lookup(game_id: str, version: int, shown_past: str | None) -> Fragment | None:
    """The kept fragment of ``version`` for a page whose past is ``shown_past``: the round
    alone when the pasts are the same, else the whole."""
    if shown_past is not None:
        found = _cached(game_id, version, round_only=True)
        if found is not None and found.past == shown_past:
            return found
    return _cached(game_id, version, round_only=False)


def _shown_past(game_id: str, shown: str) -> str | None:
    """The past of the version a page's tag names, while a fragment of it is kept."""
    version = _shown_version(shown)
    if version is None:
        return None
    for round_only in (True, False):
        held = _cached(game_id, version, round_only)
        if held is not None and held.version == version:  # not a newer one kept under it
            return held.past
    return None


def _cached(game_id: str, version: int, round_only: bool) -> Fragment | None:
    try:
        found: Fragment | None = cache.get(_key(game_id, version, round_only))
    except redis.RedisError:
        return None
    return found


#: Seconds between comments on a quiet stream, so that proxies keep it open.
KEEP_ALIVE_SECONDS = 20


def admit() -> push.Slot:
    """A place for the request's stream in this worker: refused (503) when the worker holds
    its ceiling of streams, or (429) when the client's address holds its cap. The server's
    socket to the client, when it says which (gunicorn, Werkzeug's), tells the sweep when
    the client hangs up."""
    environ = request.environ
    connection = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    return push.hub().admit(get_remote_address(), connection)


def stream(
    slot: push.Slot,
    game_id: str,
    version: int,
    shown: str,
    gone: Callable[[], str],
    *,
    rounds: bool = False,
) -> Response:
    """The spectator page's stream of Server-Sent Events: the fragment of each new version
    of the game (``id``: its tag), from ``version`` (just read) on; first the current one
    unless the page shows it already (``shown``: its tag). With ``rounds`` (a page that can
    put them in place), a change within the round being played is an event named ``round``
    holding only that round (:func:`fragment`). Once the game is gone, ``gone`` and an event
    that tells the page to stop. The stream ends after ``LIVE_STREAM_SECONDS``; the page
    connects again with the tag it shows. It holds ``slot`` (:func:`admit`) until it ends,
    or its client hangs up."""
    seconds = current_app.config["LIVE_STREAM_SECONDS"]
    db.session.close()  # no database connection is held while the stream waits

    def events() -> Iterator[str]:
        # The answer's head goes out with the first piece, at once; after a dropped
        # connection the browser waits this long (ms) before it connects again.
        yield "retry: 1000\n\n"
        # What this stream's events are kept under beside the game and version: read once,
        # as each change is sent to every follower.
        place = (request.script_root, tag(0))
        with push.hub().follow(game_id, version, slot) as watch:
            ends = time.monotonic() + seconds
            current = version
            sent = _shown_version(shown)
            # The past of what the page shows, while known: a round alone may be sent.
            past = _shown_past(game_id, shown)
            while True:
                if current == push.GONE:
                    yield _event(gone()) + "event: gone\n\n"
                    return
                if current != sent:
                    made, event = _prepared(place, game_id, current, past if rounds else None)
                    current, sent, past = made.version, made.version, made.past
                    yield event
                left = ends - time.monotonic()
                if left <= 0:
                    return
                newer = watch.wait(current, min(KEEP_ALIVE_SECONDS, left))
                if watch.hung_up:
                    return
                if newer == current:
                    yield ":\n\n"
                current = newer

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    response.call_on_close(slot.end)
    return response


#: The events last sent, ready to send again: the followers of a game that has just changed
#: each ask for the same one, and it is built once in this process (the fragment read from
#: the cache, the event made of it), not once for each of them. Kept by the stream's place
#: (the app's root and the language), the game, the version and the past the page shows.
_events: dict[tuple[tuple[str, str], str, int, str | None], tuple[Fragment, str]] = {}

#: Events kept in :data:`_events`, at most (each is a few kB).
_EVENTS_KEPT = 1000

#: One event prepared at a time in this process (as :data:`_rendering`).
_preparing = threading.Lock()


def _prepared(
    place: tuple[str, str], game_id: str, version: int, shown_past: str | None
) -> tuple[Fragment, str]:
    """The fragment :func:`fragment` gives, and its event as the stream sends it."""
    key = (place, game_id, version, shown_past)
    found = _events.get(key)
    if found is not None:
        return found
    with _preparing:  # the other followers wait for the first one's
        found = _events.get(key)
        if found is None:
            made = fragment(game_id, version, shown_past)
            db.session.close()  # rendered, maybe: the connection goes back to the pool
            name = "round" if made.round_only else None
            found = made, _event(made.body, tag(made.version), name)
            if len(_events) >= _EVENTS_KEPT:
                _events.clear()
            _events[key] = found
    return found


def _event(data: str, event_id: str | None = None, name: str | None = None) -> str:
    """An event (of type ``name``, else a message) whose data is ``data``: one ``data:``
    field per line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    if name is not None:
        head += f"event: {name}\n"
    lines = data.strip()
    if "\r" in lines:  # a line may also end in CR LF or CR alone
        lines = lines.replace("\r\n", "\n").replace("\r", "\n")
    return head + "data: " + lines.replace("\n", "\ndata: ") + "\n\n"
