"""Work that gives way (an import) goes on between a worker's requests: it waits while one is
being answered, goes on once none is, and never waits longer than it is told. (Threads here;
a gevent worker's greenlets use the same primitives, monkey-patched.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.in_flight import InFlight

LONG = 30.0  # seconds no test comes near


class Worker:
    """An app whose requests :class:`InFlight` counts: ``/slow`` is answered once
    :attr:`answer` is set, ``/stream`` returns an answer sent later, ``/import`` gives way
    once (for at most its ``longest`` seconds) and answers how long that took."""

    def __init__(self) -> None:
        self.answer = threading.Event()
        self.in_flight = InFlight()
        self.counted = self.in_flight.counted(self.app)

    def app(self, environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        path = environ["PATH_INFO"]
        if path == "/slow":
            self.answer.wait(LONG)
            return iter([b"slow"])
        if path == "/stream":
            return (b"event" for _ in range(1))
        started = time.monotonic()
        self.in_flight.give_way(environ["longest"])
        return iter([str(time.monotonic() - started).encode()])

    def request(self, path: str, longest: float = LONG) -> threading.Thread:
        """``path`` asked in a thread of its own; its answer is the thread's ``answer``."""
        environ = {"PATH_INFO": path, "longest": longest}

        def ask() -> None:
            thread.answer = b"".join(self.counted(environ, None))  # type: ignore[attr-defined]

        thread = threading.Thread(target=ask, daemon=True)
        thread.start()
        return thread

    def answering(self, count: int) -> None:
        """Wait until ``count`` requests are being answered."""
        deadline = time.monotonic() + LONG
        while self.in_flight.count != count:
            assert time.monotonic() < deadline, "the requests never started"
            time.sleep(0.01)


@pytest.fixture
def worker() -> Iterator[Worker]:
    made = Worker()
    yield made
    made.answer.set()  # no request left waiting


def _waited(thread: threading.Thread) -> float:
    thread.join(LONG)
    assert not thread.is_alive()
    return float(thread.answer)  # type: ignore[attr-defined]


def test_work_goes_on_at_once_when_no_request_is_being_answered(worker: Worker) -> None:
    assert _waited(worker.request("/import")) < LONG / 2
    assert worker.in_flight.count == 0


def test_work_waits_while_a_request_is_being_answered(worker: Worker) -> None:
    worker.request("/slow")
    worker.answering(1)
    work = worker.request("/import")
    work.join(0.3)
    assert work.is_alive()  # still giving way
    worker.answer.set()
    assert _waited(work) >= 0.3
    assert worker.in_flight.count == 0


def test_work_waits_no_longer_than_it_is_told(worker: Worker) -> None:
    worker.request("/slow")  # never answered within the test
    worker.answering(1)
    assert 0.2 <= _waited(worker.request("/import", longest=0.2)) < LONG / 2


def test_an_answer_sent_after_the_app_returned_holds_no_work_back(worker: Worker) -> None:
    answer = worker.counted({"PATH_INFO": "/stream"}, None)  # a stream, not yet sent
    assert _waited(worker.request("/import")) < LONG / 2
    assert b"".join(answer) == b"event"
