"""gunicorn's settings for Tablet of Truth, read from the directory gunicorn starts in.

The command line (``make run``, README.md's deployment, ``bench/load.py``) says how many
workers; this file chooses their kind, what gunicorn trusts, and adds the hook below. It
imports nothing of the app: gunicorn's main process reads it, and a module imported there
would stay as it was when the workers are restarted after an update (``kill -HUP``), which
also reads this file again.
"""

import gc as _gc
import os as _os
import resource as _resource
from collections.abc import Mapping as _Mapping
from typing import Any as _Any

#: Requests one kept-alive connection may carry before the server closes it (Apache's
#: ``MaxKeepAliveRequests`` default; nginx's ``keepalive_requests`` is the same setting).
_DEFAULT_KEEPALIVE_REQUESTS = 100


#: Reads (GET and HEAD) that run the app at once in a gevent worker; the others wait their
#: turn at the gate (``post_worker_init``).
_DEFAULT_READS_AT_ONCE = 4


def _whole_number(environ: _Mapping[str, str], name: str, default: int) -> int:
    """The setting ``name``: a whole number of requests, 0 for no limit; a value that is not
    one stops the server from starting."""
    value = environ.get(name, "").strip()
    if not value:
        return default
    if not value.isascii() or not value.isdigit():
        raise ValueError(f"{name} must be a whole number of requests (0: no limit), not {value!r}")
    return int(value)


_KEEPALIVE_REQUESTS = _whole_number(_os.environ, "KEEPALIVE_REQUESTS", _DEFAULT_KEEPALIVE_REQUESTS)
_READS_AT_ONCE = _whole_number(_os.environ, "READS_AT_ONCE", _DEFAULT_READS_AT_ONCE)

#: A greenlet per connection (gevent) rather than a few threads: a client that sends its
#: request slowly, by accident or on purpose, holds one idle connection, not a thread that
#: the other phones wait for.
worker_class = "gevent"

#: Connections one worker holds at once: each phone following a game holds one open (its
#: stream), beside the requests in flight. Each is a file descriptor, so the workers may
#: open that many and some more (``on_starting``), as far as the system lets them.
worker_connections = 10_000

#: Files a worker keeps open beside its connections: the database's, the logs, the app's.
_OTHER_FILES = 1_000

#: gunicorn believes ``X-Forwarded-Proto`` and friends from no address: the app's
#: ``PROXY_FIX_*`` settings alone say how many proxies in front to believe (README.md).
forwarded_allow_ips = ""


def _verify_limits_hold(workers: int, environ: _Mapping[str, str]) -> None:
    """Refuse to start more than one worker that would count rate limits in its own memory:
    each would let a client through as often as the limit says, so together they would
    let it through that many times more."""
    enabled = environ.get("RATELIMIT_ENABLED", "").strip().lower() not in ("0", "false", "no")
    storage = environ.get("RATELIMIT_STORAGE_URI", "").strip() or "memory://"
    if workers > 1 and enabled and storage.startswith("memory://"):
        raise RuntimeError(
            f"{workers} workers would each count the rate limits alone: start one worker, "
            "or share the counts through Redis with RATELIMIT_STORAGE_URI=redis://host:6379/0."
        )


def _open_files_limit(soft: int, hard: int, wanted: int) -> int | None:
    """The soft limit on open files to set so that ``wanted`` fit, within the hard limit
    (which may be unlimited, as on macOS); ``None`` when the present one does."""
    target = wanted if hard == _resource.RLIM_INFINITY else min(wanted, hard)
    return target if soft != _resource.RLIM_INFINITY and soft < target else None


def on_starting(server: _Any) -> None:
    """Check, before any worker starts, that the rate limits hold as configured; let the
    workers open a file for each connection (the soft limit is often 1,024 or 256)."""
    _verify_limits_hold(server.cfg.workers, _os.environ)
    soft, hard = _resource.getrlimit(_resource.RLIMIT_NOFILE)
    wanted = _open_files_limit(soft, hard, server.cfg.worker_connections + _OTHER_FILES)
    if wanted is not None:
        try:
            _resource.setrlimit(_resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as error:  # the system refuses: serve with fewer
            server.log.warning("open files stay limited to %d: %s", soft, error)


def pre_request(worker: _Any, req: _Any) -> None:
    """Answer a connection's ``KEEPALIVE_REQUESTS``-th request with ``Connection: close`` and
    close it afterwards (HTTP/1.1; the client opens a new one by itself).

    gunicorn's workers accept from one shared socket, and a connection stays with the worker
    that accepted it for as long as it is kept alive. Phones that connect at the same
    moment (four tables at a game night, or the load test's four robots) tend to land on the
    worker that woke first, which then answers every one of their writes on its one
    interpreter lock while another idles: under the bench load the writes' p50 was 2.2–2.9×
    the no-op's whenever they shared one worker and the no-op had the other. A new connection
    tends to go to the less busy worker, whose main thread does not wait for its lock, so the
    writes spread over the workers within seconds.
    """
    worker.log.debug("%s %s", req.method, req.path)  # gunicorn's own pre_request
    if _KEEPALIVE_REQUESTS and getattr(req, "req_number", 0) >= _KEEPALIVE_REQUESTS:
        req.force_close()


def post_worker_init(worker: _Any) -> None:
    """Put the objects the worker starts with out of the garbage collector's way. Let at
    most ``READS_AT_ONCE`` reads (GET, HEAD) run the app at a time in a gevent worker; the
    others wait at the gate, in turn. Writes pass it.

    A greenlet runs until it waits for the network, and a request on PostgreSQL waits for
    the database once a statement: a write, some ten times. Each time it went to the back of
    the worker's queue, behind every poll in flight, so with many followers polling, the
    writes' p95 was the first limit the capacity benchmark met (docs/performance.md). Behind
    the gate few reads are in flight, and a write's turns are short. Writes are not held, so
    a client that sends its body slowly (an import) holds no place; a read has no body, and
    its headers were read before the app runs. The gate is left when the app returns its
    answer: sending it, or streaming an export, holds no place either.
    """
    # What the worker has made so far (the app, its libraries, templates) lives as long as it
    # does: frozen, the garbage collector's full collections do not walk it, which every
    # request of the worker waited for (bench/import_beside.py; docs/performance.md).
    _gc.freeze()
    if not _READS_AT_ONCE or worker.cfg.worker_class_str != "gevent":
        return
    # In the worker, once gevent has patched it; the main process never needs it.
    from gevent.lock import BoundedSemaphore  # noqa: PLC0415

    gate = BoundedSemaphore(_READS_AT_ONCE)
    app = worker.wsgi

    def gated(environ: dict[str, _Any], start_response: _Any) -> _Any:
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return app(environ, start_response)
        with gate:
            return app(environ, start_response)

    worker.wsgi = gated


#: Set in a worker whose app asked to be replaced (``post_request``).
_REPLACED = False


def post_request(worker: _Any, _req: _Any, environ: dict[str, _Any], _resp: _Any) -> None:
    """Replace a worker whose app says it cannot use its database until a new process opens
    it (``scorekeeper.replace_worker``: the SQLite WAL index it holds writably was locked
    against writing, see ``scorekeeper/sqlite_files.py``). It stops taking connections,
    finishes those it has, and exits; the arbiter starts a new one, which reads."""
    global _REPLACED  # noqa: PLW0603 (one worker's own state, after the fork)
    if environ.get("scorekeeper.replace_worker") and not _REPLACED:
        worker.log.warning("the database's WAL index is locked: replacing this worker")
        _REPLACED = True
        worker.alive = False


def worker_exit(_server: _Any, _worker: _Any) -> None:
    """Leave a replaced worker without closing its SQLite connections: the last one to
    close would checkpoint into the locked WAL index, which the kernel answers with SIGBUS."""
    if _REPLACED:
        _os._exit(0)
