"""gunicorn as ``make run`` starts it: the checkout's ``gunicorn.conf.py`` closes a kept-alive
connection after ``KEEPALIVE_REQUESTS`` requests, so that busy phones spread over the workers;
slow clients hold up nobody; more phones follow a game than gunicorn's default connections,
each told of a write; no ``X-Forwarded-*`` header is believed by gunicorn itself.
(It imports nothing of the app, so it is read here as gunicorn reads it: as a file.)"""

from __future__ import annotations

import gc
import http.client
import json
import logging
import os
import re
import resource
import runpy
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gevent
import pytest

from ..conftest import migrate

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
KEEPALIVE_REQUESTS = 100
# Settings of the test runner's own environment that would change the server under test.
INHERITED = ("KEEPALIVE_REQUESTS", "READS_AT_ONCE", "GUNICORN_CMD_ARGS")


def _config(monkeypatch: pytest.MonkeyPatch, **environ: str) -> dict[str, Any]:
    """``gunicorn.conf.py`` as gunicorn reads it, in this environment."""
    for name in INHERITED:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(tmp_path: Path, **environ: str) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn started in the checkout, as ``make run`` starts it (no ``--config``)."""
    port = _free_port()
    env = {
        **{name: value for name, value in os.environ.items() if name not in INHERITED},
        "DATABASE_URL": f"sqlite:///{tmp_path}/serving.sqlite3",
        "SECRET_KEY": "serving-tests",
        **environ,
    }
    command = [
        str(GUNICORN),
        "--bind", f"127.0.0.1:{port}",
        "--workers", "1",
        "scorekeeper:create_app()",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    return process, port


@contextmanager
def serving(tmp_path: Path, **environ: str) -> Iterator[int]:
    """The port of a gunicorn serving the app until the block ends."""
    process, port = _start(tmp_path, **environ)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.communicate()[0].decode(errors="replace")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not answer within 30 s"
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=30)


def _get(connection: socket.socket) -> http.client.HTTPResponse:
    """One ``GET /healthz`` on the connection, its answer read whole."""
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    response = http.client.HTTPResponse(connection)
    response.begin()
    assert response.read() == b'{"status":"ok"}\n'
    return response


def _connection_headers(port: int, count: int) -> tuple[list[str | None], bytes]:
    """The ``Connection`` header of ``count`` answers on one connection, and what the
    server sent after the last one (``b""``: it closed the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        headers = [_get(connection).getheader("Connection") for _ in range(count)]
        try:
            after = connection.recv(1)
        except TimeoutError:
            after = b"(still open)"
    return headers, after


def test_a_connection_is_closed_after_its_hundredth_request(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        headers, after = _connection_headers(port, KEEPALIVE_REQUESTS)
    assert headers == ["keep-alive"] * (KEEPALIVE_REQUESTS - 1) + ["close"]
    assert after == b""


def test_a_client_goes_on_over_a_new_connection(tmp_path: Path) -> None:
    # What a phone's browser (or the load test's http.client) does on "Connection: close".
    with serving(tmp_path, KEEPALIVE_REQUESTS="3") as port:
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        answers = []
        for _ in range(7):
            client.request("GET", "/healthz")
            response = client.getresponse()
            answers.append((response.status, response.getheader("Connection")))
            response.read()
        client.close()
    assert answers == [
        (200, "keep-alive"),
        (200, "keep-alive"),
        (200, "close"),
        (200, "keep-alive"),
        (200, "keep-alive"),
        (200, "close"),
        (200, "keep-alive"),
    ]


def test_zero_keeps_connections_alive(tmp_path: Path) -> None:
    with serving(tmp_path, KEEPALIVE_REQUESTS="0") as port:
        headers, _after = _connection_headers(port, KEEPALIVE_REQUESTS + 5)
    assert set(headers) == {"keep-alive"}


def test_a_bad_limit_stops_the_server_from_starting(tmp_path: Path) -> None:
    process, _port = _start(tmp_path, KEEPALIVE_REQUESTS="lots")
    try:
        output = process.communicate(timeout=20)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("gunicorn started and served with KEEPALIVE_REQUESTS=lots")
    assert process.returncode != 0
    assert "KEEPALIVE_REQUESTS must be a whole number of requests (0: no limit), not 'lots'" in (
        output
    )


@pytest.mark.parametrize(
    ("value", "limit"),
    [(None, 100), ("", 100), ("0", 0), ("250", 250), (" 20 ", 20)],
)
def test_keepalive_requests_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str | None, limit: int
) -> None:
    config = _config(monkeypatch, **({} if value is None else {"KEEPALIVE_REQUESTS": value}))
    assert config["_KEEPALIVE_REQUESTS"] == limit


@pytest.mark.parametrize("name", ["KEEPALIVE_REQUESTS", "READS_AT_ONCE"])
@pytest.mark.parametrize("value", ["-1", "1.5", "ten", "١٠"])
def test_a_count_setting_refuses_what_is_not_a_count(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    with pytest.raises(ValueError, match=f"{name} must be a whole number of requests"):
        _config(monkeypatch, **{name: value})


def _gated_app(
    monkeypatch: pytest.MonkeyPatch, worker_class: str = "gevent", **environ: str
) -> tuple[Any, dict[str, int]]:
    """An app that waits a moment (as for the database) in each request, passed through the
    worker hook as gunicorn does; and how many of its requests ran at once, at most."""
    hook = _config(monkeypatch, **environ)["post_worker_init"]
    running = {"now": 0, "most": 0}

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        gevent.sleep(0.01)
        running["now"] -= 1
        return [environ["REQUEST_METHOD"].encode()]

    worker = SimpleNamespace(cfg=SimpleNamespace(worker_class_str=worker_class), wsgi=app)
    hook(worker)
    gc.unfreeze()  # the hook freezes the objects of the worker it starts in: not this process's
    return worker.wsgi, running


def _at_once(app: Any, running: dict[str, int], method: str, count: int = 12) -> int:
    running["most"] = 0
    requests = [gevent.spawn(app, {"REQUEST_METHOD": method}, None) for _ in range(count)]
    gevent.joinall(requests, raise_error=True)
    assert [request.value for request in requests] == [[method.encode()]] * count
    return running["most"]


@pytest.mark.parametrize(("setting", "reads"), [({}, 4), ({"READS_AT_ONCE": "2"}, 2)])
def test_reads_wait_their_turn_and_writes_pass(
    monkeypatch: pytest.MonkeyPatch, setting: dict[str, str], reads: int
) -> None:
    app, running = _gated_app(monkeypatch, **setting)
    assert _at_once(app, running, "GET") == reads
    assert _at_once(app, running, "HEAD") == reads
    for method in ("PUT", "POST", "DELETE"):
        assert _at_once(app, running, method) == 12


@pytest.mark.parametrize(
    ("worker_class", "setting"), [("gevent", {"READS_AT_ONCE": "0"}), ("gthread", {})]
)
def test_no_gate_when_turned_off_or_not_on_gevent(
    monkeypatch: pytest.MonkeyPatch, worker_class: str, setting: dict[str, str]
) -> None:
    app, running = _gated_app(monkeypatch, worker_class, **setting)
    assert _at_once(app, running, "GET") == 12


class _Request:
    method, path = "PUT", "/api/v1/games/x/rounds/1/bids"

    def __init__(self, number: int) -> None:
        self.req_number = number
        self.closed = False

    def force_close(self) -> None:
        self.closed = True


@pytest.mark.parametrize(
    ("limit", "number", "closed"),
    [("3", 1, False), ("3", 2, False), ("3", 3, True), ("3", 4, True), ("0", 10_000, False)],
)
def test_the_hook_closes_from_the_limit_on(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    limit: str,
    number: int,
    closed: bool,
) -> None:
    hook = _config(monkeypatch, KEEPALIVE_REQUESTS=limit)["pre_request"]
    request = _Request(number)
    with caplog.at_level(logging.DEBUG, logger="tests.gunicorn"):
        hook(SimpleNamespace(log=logging.getLogger("tests.gunicorn")), request)
    assert request.closed is closed
    # As gunicorn's own hook does, at --log-level debug.
    assert caplog.messages == ["PUT /api/v1/games/x/rounds/1/bids"]


def test_the_config_imports_nothing_of_the_app() -> None:
    # gunicorn's main process reads the file; a module of the app imported there would stay
    # as it was when the workers restart after an update (kill -HUP).
    script = (
        "import runpy, sys; runpy.run_path('gunicorn.conf.py'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('scorekeeper', 'flask')))"
    )
    env = {name: value for name, value in os.environ.items() if name not in INHERITED}
    found = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.strip() == "[]"


def _dribble(port: int, stop: threading.Event) -> None:
    """A client that sends its request's header lines one every half second, never ending it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        line = 0
        while not stop.wait(0.5):
            try:
                connection.sendall(b"X-Slow-%d: still typing\r\n" % line)
            except OSError:
                return
            line += 1


def test_slow_clients_hold_up_nobody(tmp_path: Path) -> None:
    # Sixteen connections dribbling headers (one worker: the worst case) while a phone polls.
    stop = threading.Event()
    with serving(tmp_path) as port:
        slow = [threading.Thread(target=_dribble, args=(port, stop)) for _ in range(16)]
        for thread in slow:
            thread.start()
        try:
            time.sleep(1)
            answers = []
            for _ in range(5):
                # A server whose threads wait for the slow clients' requests answers no one
                # while they go on: the socket's timeout ends the wait and fails the test.
                with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
                    answers.append(_get(connection).status)
        finally:
            stop.set()
            for thread in slow:
                thread.join()
    assert answers == [200] * 5


def test_gunicorn_believes_no_forwarded_header(tmp_path: Path) -> None:
    # HSTS is sent only over HTTPS: a forged X-Forwarded-Proto from 127.0.0.1 must not count.
    with serving(tmp_path) as port:
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        client.request("GET", "/healthz", headers={"X-Forwarded-Proto": "https"})
        response = client.getresponse()
        response.read()
        client.close()
    assert response.status == 200
    assert response.getheader("Strict-Transport-Security") is None


def test_two_workers_counting_limits_in_memory_do_not_start(tmp_path: Path) -> None:
    env = {
        **{name: value for name, value in os.environ.items() if name not in INHERITED},
        "DATABASE_URL": f"sqlite:///{tmp_path}/serving.sqlite3",
        "SECRET_KEY": "serving-tests",
    }
    env.pop("RATELIMIT_STORAGE_URI", None)
    env.pop("RATELIMIT_ENABLED", None)
    command = [
        str(GUNICORN),
        "--bind", f"127.0.0.1:{_free_port()}",
        "--workers", "2",
        "scorekeeper:create_app()",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        output = process.communicate(timeout=20)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("gunicorn started 2 workers that count the rate limits alone")
    assert process.returncode != 0
    assert "2 workers would each count the rate limits alone" in output
    assert "RATELIMIT_STORAGE_URI" in output


@pytest.mark.parametrize(
    ("workers", "environ", "refused"),
    [
        (1, {}, False),
        (2, {}, True),
        (4, {"RATELIMIT_STORAGE_URI": "memory://"}, True),
        (4, {"RATELIMIT_STORAGE_URI": "redis://127.0.0.1:6379/0"}, False),
        (4, {"RATELIMIT_ENABLED": "false"}, False),
        (4, {"RATELIMIT_ENABLED": "yes"}, True),
    ],
)
def test_limits_must_hold_across_the_workers(
    monkeypatch: pytest.MonkeyPatch, workers: int, environ: dict[str, str], refused: bool
) -> None:
    for name in ("RATELIMIT_STORAGE_URI", "RATELIMIT_ENABLED"):
        monkeypatch.delenv(name, raising=False)
    config = _config(monkeypatch, **environ)
    # Few connections, so that starting leaves this test run's own limit on open files alone.
    cfg = SimpleNamespace(workers=workers, worker_connections=1)
    server = SimpleNamespace(cfg=cfg, log=logging.getLogger("tests.gunicorn"))
    if refused:
        with pytest.raises(RuntimeError, match="RATELIMIT_STORAGE_URI=redis://"):
            config["on_starting"](server)
    else:
        config["on_starting"](server)


@pytest.mark.parametrize(
    ("soft", "hard", "expected"),
    [
        (1_024, 1_048_576, 11_000),  # Linux's usual: raised to what a worker needs
        (256, resource.RLIM_INFINITY, 11_000),  # macOS: no hard limit, yet a number
        (1_024, 4_096, 4_096),  # as far as the hard limit lets it
        (20_000, 20_000, None),  # enough already
    ],
)
def test_the_open_files_limit_is_raised_as_far_as_a_worker_needs(
    monkeypatch: pytest.MonkeyPatch, soft: int, hard: int, expected: int | None
) -> None:
    config = _config(monkeypatch)
    wanted = config["worker_connections"] + config["_OTHER_FILES"]
    assert wanted == 11_000
    assert config["_open_files_limit"](soft, hard, wanted) == expected


#: More phones following one worker than gunicorn's default ``worker_connections`` (1,000).
FOLLOWERS = 1_100


def create_game(port: int) -> dict[str, Any]:
    """A game of three, started through the API."""
    api = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    api.request("POST", "/api/v1/games", json.dumps({"players": ["Ann", "Bob", "Cy"]}),
                {"Content-Type": "application/json"})  # fmt: skip
    game: dict[str, Any] = json.loads(api.getresponse().read())
    api.close()  # not kept idle while the phones connect: gunicorn would close it
    return game


def _follow(port: int, path: str) -> socket.socket:
    """A phone's stream, opened: its answer's head read."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    assert head.startswith(b"HTTP/1.1 200"), head
    assert b"text/event-stream" in head
    return connection


def _next_version(connection: socket.socket) -> int:
    """The version the next event on the stream shows."""
    received = b""
    while (found := re.search(rb"id: live-(\d+)-", received)) is None:
        piece = connection.recv(65536)
        assert piece, "the stream ended"
        received += piece
    return int(found.group(1))


def test_more_phones_than_connections_by_default_follow_and_see_a_write(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < FOLLOWERS + 200:
        pytest.skip(f"this system lets a process open {hard} files, fewer than the test needs")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    migrate(f"sqlite:///{tmp_path}/serving.sqlite3")
    streams: list[socket.socket] = []
    try:
        # Open streams end when the server stops; it waits 2 s for them, not the 30 s default.
        with serving(
            tmp_path, RATELIMIT_ENABLED="false", GUNICORN_CMD_ARGS="--graceful-timeout 2"
        ) as port:
            game = create_game(port)
            shown = f"live-{game['version']}-en"
            path = f"/games/{game['id']}/view/events?shown={shown}"
            streams = [_follow(port, path) for _ in range(FOLLOWERS)]
            headers = {
                "Authorization": f"Bearer {game['edit_token']}",
                "Content-Type": "application/json",
            }
            api = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            api.request("PUT", f"/api/v1/games/{game['id']}/rounds/1/trump",
                        json.dumps({"turned": "red"}), headers)  # fmt: skip
            written = json.loads(api.getresponse().read())["version"]
            api.close()
            assert {_next_version(stream) for stream in streams} == {written}
    finally:
        for stream in streams:
            stream.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
