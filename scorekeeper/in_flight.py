"""The requests a worker is answering, so that work nobody at a table waits for (an import of
many games) goes on between them rather than beside them.

A gevent worker runs its requests on one thread, a piece at a time: a request on PostgreSQL
waits for the database some ten times, and each time another greenlet may take the thread.
An import that only yielded between its pieces (a game read and replayed, a game written)
takes turns between those waits, and the other tables' writes wait for them. Counted here,
the worker's requests let the import go on only while none of them is being answered, or
once one has kept it waiting :data:`LONGEST_WAIT` (bench/import_beside.py; figures in
docs/performance.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: Seconds at most that work giving way waits for the requests in flight, so that it goes on
#: (a piece at a time) even on a worker that is never idle.
LONGEST_WAIT = 0.05


def let_others_run() -> None:
    """Hand the thread to the requests that can run, those the network has woken included:
    under gevent's workers (monkey-patched), a turn of the event loop (``time.sleep(0)``
    would run only the greenlets that are ready already); under threads, a switch."""
    try:
        from gevent import idle, monkey  # noqa: PLC0415
    except ImportError:  # pragma: no cover - gevent comes with the app
        time.sleep(0)
        return
    if monkey.is_module_patched("time"):
        idle()
    else:
        time.sleep(0)


class InFlight:
    """The requests of this process that the app is answering: each counted from its start
    until the app returns its answer (a stream's events and an export's pieces, sent after
    that, are not counted), by the app that :meth:`counted` wraps."""

    def __init__(self) -> None:
        self.count = 0
        self._none = threading.Condition()

    def counted(self, app: WSGIApplication) -> WSGIApplication:
        """``app`` (a WSGI app) with its requests counted."""

        def counting(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
            self._enter()
            try:
                return app(environ, start_response)
            finally:
                self._leave()

        return counting

    def give_way(self, longest: float | None = None) -> None:
        """Called in a counted request: stop counting it, let the others run, wait until none
        is being answered (at most ``longest`` seconds, :data:`LONGEST_WAIT` by default),
        and count it again."""
        self._leave()
        try:
            let_others_run()
            with self._none:
                self._none.wait_for(
                    lambda: self.count <= 0, LONGEST_WAIT if longest is None else longest
                )
        finally:
            self._enter()

    def _enter(self) -> None:
        with self._none:
            self.count += 1

    def _leave(self) -> None:
        with self._none:
            self.count -= 1
            if self.count <= 0:
                self._none.notify_all()


#: This process's requests (a worker's), counted by the app :func:`scorekeeper.create_app`
#: makes.
REQUESTS = InFlight()
