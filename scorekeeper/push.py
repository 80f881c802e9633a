"""Who is told when a followed game changes: the spectator page's stream (``web/live.py``)
waits here for a new version instead of asking every 3 s.

One sweep per worker process: every ``LIVE_CHECK_SECONDS`` it reads the versions of every
game a stream in this process follows, in one statement, and wakes the streams of the games
that changed (or were deleted). A write anywhere, by any worker or any server sharing the
database, reaches the followers within that period; there is no message to lose and nothing
to keep right, as the database is the only source. The sweep runs only while a stream
follows a game, in a thread of its own (a greenlet on gevent workers).

Each stream costs a connection and a greenlet for as long as it is open, so one client
address holds at most ``RATELIMIT_LIVE_STREAMS`` of them at once in a worker.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from flask import Flask, current_app
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from .errors import TooManyStreams
from .extensions import db
from .models import GameRow

log = logging.getLogger(__name__)

#: The version of a game that is gone (deleted, or never there).
GONE = -1

#: Games read in one statement (databases bound the parameters of one statement).
_CHUNK = 500

#: Seconds an address over its cap of streams is told to wait: one may close meanwhile.
_OVER_CAP_WAIT = 30


@dataclass
class _Followed:
    version: int
    changed: threading.Condition
    streams: int = 0


@dataclass
class Hub:
    """The games this process's streams follow, and the sweep that watches them."""

    app: Flask
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _games: dict[str, _Followed] = field(default_factory=dict)
    _sweep: threading.Thread | None = None
    _closed: threading.Event = field(default_factory=threading.Event)
    _open: Counter[str] = field(default_factory=Counter)

    def admit(self, address: str) -> Callable[[], None]:
        """Count a stream opened from ``address``, and return what ends it; raise
        :class:`TooManyStreams` when the address holds its cap of streams already (the rate
        limits on)."""
        config = self.app.config
        cap = config["RATELIMIT_LIVE_STREAMS"] if config["RATELIMIT_ENABLED"] else 0
        with self._lock:
            if cap and self._open[address] >= cap:
                raise TooManyStreams(_OVER_CAP_WAIT)
            self._open[address] += 1
        held = True

        def end() -> None:
            nonlocal held
            with self._lock:
                if held:
                    held = False
                    self._open[address] -= 1
                    if not self._open[address]:
                        del self._open[address]

        return end

    @contextmanager
    def follow(self, game_id: str, version: int) -> Iterator[Watch]:
        """Follow the game from ``version`` (just read) for as long as the block runs."""
        with self._lock:
            followed = self._games.get(game_id)
            if followed is None:
                followed = _Followed(version, threading.Condition(self._lock))
                self._games[game_id] = followed
            elif version > followed.version:
                followed.version = version
            followed.streams += 1
            if self._sweep is None:
                self._sweep = threading.Thread(target=self._run, name="push-sweep", daemon=True)
                self._sweep.start()
        try:
            yield Watch(followed)
        finally:
            with self._lock:
                followed.streams -= 1
                if not followed.streams:
                    del self._games[game_id]

    def close(self) -> None:
        """End the sweep and wait for it (the app is going away, and its database
        connections with it)."""
        self._closed.set()
        with self._lock:
            sweep = self._sweep
        if sweep is not None:
            sweep.join()

    def _run(self) -> None:
        while not self._closed.wait(self.app.config["LIVE_CHECK_SECONDS"]):
            with self._lock:
                ids = list(self._games)
                if not ids:  # nothing followed: the next stream starts a new sweep
                    self._sweep = None
                    return
            try:
                self.check(ids)
            except Exception:  # one sweep's failure must not end the sweeps
                log.exception("the followed games' versions cannot be checked")

    def check(self, ids: list[str]) -> None:
        """Read these games' versions and wake the streams of those that changed."""
        try:
            with self.app.app_context():
                found: dict[str, int] = {}
                for start in range(0, len(ids), _CHUNK):
                    chunk = ids[start : start + _CHUNK]
                    rows = db.session.execute(
                        select(GameRow.id, GameRow.version).where(
                            GameRow.id.in_(chunk), GameRow.deleted_at.is_(None)
                        )
                    )
                    for game_id, version in rows:
                        found[game_id] = version
        except SQLAlchemyError as error:  # the database busy or gone: the next sweep retries
            log.warning("the followed games' versions cannot be read: %s", error)
            return
        with self._lock:
            for game_id in ids:
                followed = self._games.get(game_id)
                version = found.get(game_id, GONE)
                if followed is not None and version != followed.version:
                    followed.version = version
                    followed.changed.notify_all()


@dataclass
class Watch:
    """One stream's view of a followed game."""

    _followed: _Followed

    def wait(self, shown: int, timeout: float) -> int:
        """The game's version once it is newer than ``shown`` (:data:`GONE` once deleted),
        or ``shown`` after ``timeout`` seconds without one. Versions only grow: the stream
        may show one newer than the last sweep read, and waits for the next."""
        followed = self._followed

        def newer() -> bool:
            return followed.version > shown or followed.version == GONE

        with followed.changed:
            if followed.changed.wait_for(newer, timeout):
                return followed.version
            return shown


def init_app(app: Flask) -> None:
    app.extensions["push"] = Hub(app)


def hub() -> Hub:
    """This process's hub."""
    found: Hub = current_app.extensions["push"]
    return found
