"""The spectator page's streams under gunicorn as ``make run`` starts it: a phone that closes
its stream gives its place back at once, not when the stream's next keep-alive fails to send
(20 s later, or 40 s)."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from ..conftest import migrate
from .test_serving import create_game, serving


def _open(port: int, path: str) -> tuple[socket.socket, int]:
    """A stream asked for: the connection, and the answer's status."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        piece = connection.recv(1)
        assert piece, head
        head += piece
    return connection, int(head.split(b" ", 2)[1])


def test_a_closed_stream_gives_its_place_back_at_once(tmp_path: Path) -> None:
    migrate(f"sqlite:///{tmp_path}/serving.sqlite3")
    # One stream an address: the second is let in only once the first's place is free.
    with serving(
        tmp_path, RATELIMIT_LIVE_STREAMS="1", GUNICORN_CMD_ARGS="--graceful-timeout 2"
    ) as port:
        game = create_game(port)
        path = f"/games/{game['id']}/view/events?shown=live-{game['version']}-en"
        first, status = _open(port, path)
        assert status == 200
        second, status = _open(port, path)
        assert status == 429  # the place is taken
        second.close()
        first.close()  # the phone leaves
        closed = time.monotonic()
        statuses = []
        while time.monotonic() - closed < 2:
            again, status = _open(port, path)
            again.close()
            statuses.append(status)
            if status == 200:
                break
            time.sleep(0.1)
        assert statuses[-1] == 200, f"still refused 2 s after the phone left: {statuses}"
