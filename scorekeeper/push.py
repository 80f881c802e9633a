"""Who is told when a followed game changes: the spectator page's stream (``web/live.py``)
waits here for a new version instead of asking every 3 s.

One sweep per worker process: every ``LIVE_CHECK_SECONDS`` (from one sweep's start to the
next) it reads the versions of every game a stream in this process follows, in one
statement, and wakes the streams of the games that changed (or were deleted). A write
anywhere, by any worker or any server sharing the database, reaches the followers within
that period and the time the worker takes to send it; there is no message to lose and
nothing to keep right, as the database is the only source. The sweep runs only while a stream
follows a game, in a thread of its own (a greenlet on gevent workers).

Each stream costs a connection, a greenlet and some memory for as long as it is open, and
the worker's CPU for each change sent to it, so a worker holds at most
``LIVE_STREAMS_PER_WORKER`` streams at once (past it, a new one is refused with 503 and the
page asks every few seconds instead), and one client address at most
``RATELIMIT_LIVE_STREAMS`` of them. The sweep also looks, in one ``poll`` of every stream's
socket, for the phones that have gone: a stream whose client hung up ends, and frees its
place, within the sweep's period rather than when its next keep-alive fails to send.
"""

from __future__ import annotations

import logging
import select as polling
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from flask import Flask, current_app
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from .errors import StreamsFull, TooManyStreams
from .extensions import db
from .models import GameRow

log = logging.getLogger(__name__)

#: The version of a game that is gone (deleted, or never there).
GONE = -1

#: Streams woken at once by a change (:meth:`Hub.check`), the sweep yielding between them:
#: fewer keep a write to a game with 2,000 followers within its limit (bench/streams.py), more
#: keep the sweep from falling behind the requests in flight (bench/load.py).
_WOKEN_AT_ONCE = 25

#: Games read in one statement (databases bound the parameters of one statement).
_CHUNK = 500

#: Seconds an address over its cap of streams is told to wait: one may close meanwhile.
_OVER_CAP_WAIT = 30

#: Seconds a page refused by a full worker is told to wait before it asks for a stream again
#: (it polls meanwhile).
_FULL_WAIT = 60

#: What ``poll`` says of a socket whose client has hung up (Linux also tells a half-closed
#: one: a browser that closed its end; elsewhere only a socket closed both ways).
_HUNG_UP = getattr(polling, "POLLRDHUP", 0) | polling.POLLHUP | polling.POLLERR


def _poll() -> polling.poll:
    """The system's ``poll``, never gevent's (which waits for the event loop's next turn to
    answer even when asked not to wait): the sweep asks, and waits for nothing."""
    try:
        from gevent import monkey  # noqa: PLC0415
    except ImportError:  # pragma: no cover - gevent comes with the app
        return polling.poll()
    made: polling.poll = monkey.get_original("select", "poll")()
    return made


@dataclass(eq=False)
class Slot:
    """One admitted stream's place in its worker: given back once by :meth:`end`."""

    _hub: Hub
    address: str
    #: The client's socket, when the server says which (gunicorn, Werkzeug's server).
    connection: socket.socket | None = None
    held: bool = True

    def end(self) -> None:
        """Give the place back (again: nothing)."""
        self._hub.release(self)


@dataclass
class _Followed:
    version: int
    watches: set[Watch] = field(default_factory=set)


@dataclass
class Hub:
    """The games this process's streams follow, and the sweep that watches them."""

    app: Flask
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _games: dict[str, _Followed] = field(default_factory=dict)
    _sweep: threading.Thread | None = None
    _closed: threading.Event = field(default_factory=threading.Event)
    _open: Counter[str] = field(default_factory=Counter)
    _streams: int = 0
    #: The sockets of the streams that follow a game, by number, and the poll that watches
    #: them for a hang-up.
    _sockets: dict[int, Watch] = field(default_factory=dict)
    _poll: polling.poll = field(default_factory=_poll)

    def admit(self, address: str, connection: socket.socket | None = None) -> Slot:
        """A place for a stream opened from ``address`` over ``connection``; raise
        :class:`StreamsFull` when the worker holds its ceiling of streams already, and
        :class:`TooManyStreams` when the address holds its cap (the rate limits on)."""
        config = self.app.config
        ceiling = config["LIVE_STREAMS_PER_WORKER"]
        cap = config["RATELIMIT_LIVE_STREAMS"] if config["RATELIMIT_ENABLED"] else 0
        with self._lock:
            if ceiling and self._streams >= ceiling:
                raise StreamsFull(_FULL_WAIT)
            if cap and self._open[address] >= cap:
                raise TooManyStreams(_OVER_CAP_WAIT)
            self._open[address] += 1
            self._streams += 1
        return Slot(self, address, connection)

    def release(self, slot: Slot) -> None:
        """Give a stream's place back, once."""
        with self._lock:
            self._release(slot)

    def _release(self, slot: Slot) -> None:
        if slot.held:
            slot.held = False
            self._streams -= 1
            self._open[slot.address] -= 1
            if not self._open[slot.address]:
                del self._open[slot.address]

    @contextmanager
    def follow(self, game_id: str, version: int, slot: Slot | None = None) -> Iterator[Watch]:
        """Follow the game from ``version`` (just read) for as long as the block runs; with
        the stream's ``slot``, the wait ends once its client hangs up."""
        with self._lock:
            followed = self._games.get(game_id)
            if followed is None:
                followed = _Followed(version)
                self._games[game_id] = followed
            elif version > followed.version:
                followed.version = version
            watch = Watch(followed, threading.Condition(self._lock), slot)
            followed.watches.add(watch)
            number = slot.connection.fileno() if slot and slot.connection else -1
            if number >= 0:
                self._sockets[number] = watch
                self._poll.register(number, _HUNG_UP)
            if self._sweep is None:
                self._sweep = threading.Thread(target=self._run, name="push-sweep", daemon=True)
                self._sweep.start()
        try:
            yield watch
        finally:
            with self._lock:
                followed.watches.discard(watch)
                if not followed.watches:
                    del self._games[game_id]
                if number >= 0 and self._sockets.get(number) is watch:
                    del self._sockets[number]
                    self._poll.unregister(number)

    def close(self) -> None:
        """End the sweep and wait for it (the app is going away, and its database
        connections with it)."""
        self._closed.set()
        with self._lock:
            sweep = self._sweep
        if sweep is not None:
            sweep.join()

    def _run(self) -> None:
        period = self.app.config["LIVE_CHECK_SECONDS"]
        due = time.monotonic()
        while True:
            # A period after the last sweep's start, however long it took to wake its streams
            # (at once, when that took longer): the time spent sending a change does not
            # stretch the period, and with it the burst of changes the next sweep sends.
            due = max(due + period, time.monotonic())
            if self._closed.wait(due - time.monotonic()):
                return
            with self._lock:
                ids = list(self._games)
                if not ids:  # nothing followed: the next stream starts a new sweep
                    self._sweep = None
                    return
            try:
                self.hang_ups()
                self.check(ids)
            except Exception:  # one sweep's failure must not end the sweeps
                log.exception("the followed games' versions cannot be checked")

    def hang_ups(self) -> None:
        """End the waits of the streams whose clients have hung up, and free their places:
        one ``poll`` of every stream's socket, which waits for nothing."""
        with self._lock:
            for number, _ in self._poll.poll(0):
                watch = self._sockets.pop(number, None)
                self._poll.unregister(number)
                if watch is not None and not watch.hung_up:
                    watch.hung_up = True
                    if watch.slot is not None:
                        self._release(watch.slot)
                    watch.changed.notify()

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
        woken: list[Watch] = []
        with self._lock:
            for game_id in ids:
                followed = self._games.get(game_id)
                version = found.get(game_id, GONE)
                if followed is not None and version != followed.version:
                    followed.version = version
                    woken += followed.watches
        # A few at a time, each few given their turn before the next are woken: on gevent
        # workers a request in flight (a write waiting for the database) runs between them,
        # rather than after every follower has been sent the change.
        for start in range(0, len(woken), _WOKEN_AT_ONCE):
            with self._lock:
                for watch in woken[start : start + _WOKEN_AT_ONCE]:
                    watch.changed.notify()
            time.sleep(0)


@dataclass(eq=False)
class Watch:
    """One stream's view of a followed game."""

    _followed: _Followed
    changed: threading.Condition
    slot: Slot | None = None
    #: Whether the stream's client has hung up (the stream should end).
    hung_up: bool = False

    def wait(self, shown: int, timeout: float) -> int:
        """The game's version once it is newer than ``shown`` (:data:`GONE` once deleted),
        or ``shown`` after ``timeout`` seconds without one, or once the client has hung up
        (:attr:`hung_up`). Versions only grow: the stream may show one newer than the last
        sweep read, and waits for the next."""
        followed = self._followed

        def newer() -> bool:
            return followed.version > shown or followed.version == GONE or self.hung_up

        with self.changed:
            if self.changed.wait_for(newer, timeout) and not self.hung_up:
                return followed.version
            return shown


def init_app(app: Flask) -> None:
    app.extensions["push"] = Hub(app)


def hub() -> Hub:
    """This process's hub."""
    found: Hub = current_app.extensions["push"]
    return found
