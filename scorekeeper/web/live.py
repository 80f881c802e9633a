"""The spectator page's live part: the stream that sends it again after each change (woken by
this worker's sweep, ``push.py``), the fragment rendered once per game, version and language
and served to every follower from the cache (Flask-Caching: each worker's memory, or Redis
shared by every worker and server with ``CACHE_REDIS_URL``).

A fragment is a function of the game's version and the language alone (the version grows
with every write, and the fragment shows nothing of the viewer), so a cached one is never
out of date: a new version is a new key. A cache that cannot be reached is a cache miss.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

import redis
from flask import Response, current_app, request, stream_with_context
from flask_babel import get_locale
from flask_limiter.util import get_remote_address

from .. import push
from ..extensions import cache, db

#: A rendered fragment: the version it shows and its HTML.
Fragment = tuple[int, str]


def tag(version: int) -> str:
    """The fragment's validator: the game's version and the language it is written in."""
    return f"live-{version}-{get_locale() or 'en'}"


def _key(game_id: str, version: int) -> str:
    return f"live/{request.script_root}/{game_id}/{tag(version)}"


#: One rendering at a time in this process: the followers of a game that has just changed
#: all ask for its new fragment at once, and the others wait for the first one's (on gevent
#: workers, a rendering that waits for the database would otherwise let each follower find
#: the cache empty and render it again).
_rendering = threading.Lock()


def fragment(game_id: str, version: int, render: Callable[[], Fragment]) -> Fragment:
    """The game's fragment at ``version`` from the cache, else ``render()``-ed and kept (under
    the version it shows, which is newer when the stored version lagged behind)."""
    found = _cached(game_id, version)
    if found is not None:
        return found
    with _rendering:
        found = _cached(game_id, version)
        if found is not None:
            return found
        made = render()
        with contextlib.suppress(redis.RedisError):
            cache.set(_key(game_id, made[0]), made)
        return made


def _cached(game_id: str, version: int) -> Fragment | None:
    try:
        found: Fragment | None = cache.get(_key(game_id, version))
    except redis.RedisError:
        return None
    return found


#: Seconds between comments on a quiet stream, so that proxies keep it open.
KEEP_ALIVE_SECONDS = 20


def stream(
    game_id: str,
    version: int,
    shown: str,
    render: Callable[[], Fragment],
    gone: Callable[[], str],
) -> Response:
    """The spectator page's stream of Server-Sent Events: the fragment of each new version
    of the game (``id``: its tag), from ``version`` (just read) on; first the current one
    unless the page shows it already (``shown``: its tag). Once the game is gone, ``gone``
    and an event that tells the page to stop. The stream ends after
    ``LIVE_STREAM_SECONDS``; the page connects again with the tag it shows. Refused (429)
    when the client's address holds its cap of streams already."""
    seconds = current_app.config["LIVE_STREAM_SECONDS"]
    end = push.hub().admit(get_remote_address())
    db.session.close()  # no database connection is held while the stream waits

    def events() -> Iterator[str]:
        # The answer's head goes out with the first piece, at once; after a dropped
        # connection the browser waits this long (ms) before it connects again.
        yield "retry: 1000\n\n"
        with push.hub().follow(game_id, version) as watch:
            ends = time.monotonic() + seconds
            current = version
            sent = shown
            while True:
                if current == push.GONE:
                    yield _event(gone()) + "event: gone\n\n"
                    return
                if tag(current) != sent:
                    current, body = fragment(game_id, current, render)
                    db.session.close()
                    sent = tag(current)
                    yield _event(body, sent)
                left = ends - time.monotonic()
                if left <= 0:
                    return
                newer = watch.wait(current, min(KEEP_ALIVE_SECONDS, left))
                if newer == current:
                    yield ":\n\n"
                current = newer

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    response.call_on_close(end)
    return response


def _event(data: str, event_id: str | None = None) -> str:
    """An event whose data is ``data``: one ``data:`` field per line (every follower's copy of
    a change is built from the fragment again, so this stays a few passes of ``replace``)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    lines = data.strip()
    if "\r" in lines:  # a line may also end in CR LF or CR alone
        lines = lines.replace("\r\n", "\n").replace("\r", "\n")
    return head + "data: " + lines.replace("\n", "\ndata: ") + "\n\n"
