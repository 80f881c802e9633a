"""How gunicorn serves the app: the hooks ``gunicorn.conf.py`` hands it.

gunicorn reads ``gunicorn.conf.py`` from the directory it starts in: ``make run``, the
deployment in README.md and the load test (``bench/load.py``) all start it in the checkout.
"""

from __future__ import annotations

import os
from typing import Any

#: Requests one kept-alive connection may carry before the server closes it (Apache's
#: ``MaxKeepAliveRequests`` default; nginx's ``keepalive_requests`` is the same setting).
KEEPALIVE_REQUESTS = 100


def keepalive_requests(environ: dict[str, str] | None = None) -> int:
    """``KEEPALIVE_REQUESTS`` from the environment: a whole number of requests, 0 for no
    limit; a value that is not one is refused when the server starts."""
    value = (os.environ if environ is None else environ).get("KEEPALIVE_REQUESTS", "").strip()
    if not value:
        return KEEPALIVE_REQUESTS
    if not value.isascii() or not value.isdigit():
        raise ValueError(
            f"KEEPALIVE_REQUESTS must be a whole number of requests (0: no limit), not {value!r}"
        )
    return int(value)


def close_after(limit: int) -> Any:
    """A gunicorn ``pre_request`` hook that answers a connection's ``limit``-th request with
    ``Connection: close`` and closes it afterwards (no limit when ``limit`` is 0).

    gunicorn's gthread workers accept from one shared socket, and a connection stays with
    the worker that accepted it for as long as it is kept alive. Phones that connect at the
    same moment (four tables at a game night, or the load test's four robots) usually all
    land on the worker that woke first, which then answers every one of their writes on its
    one interpreter lock while the other worker idles: under the bench load the writes' p50
    was 2.2–2.9× the no-op's when they all shared one worker. Closing a connection now and
    then lets the client open a new one, which the less busy worker tends to accept first (its
    main thread does not wait for the interpreter lock), so the writes spread over the
    workers within seconds. The client reconnects by itself (HTTP/1.1 clients and browsers
    do); one request in ``limit`` pays for a new connection.
    """

    def pre_request(_worker: Any, request: Any) -> None:
        if limit and getattr(request, "req_number", 0) >= limit:
            request.force_close()

    return pre_request
