"""A lean HTTP/1.1 client on asyncio streams: keep-alive connections in a pool that grows as
requests overlap, so a request is sent when it is due whatever the earlier ones are doing.
Enough of HTTP for this app on loopback (Content-Length or chunked bodies, Connection: close),
and cheap enough that one event loop sends thousands of requests a second."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.parse
from collections import deque
from dataclasses import dataclass, field
from typing import Any

TIMEOUT = 30.0  # seconds before a request counts as failed
# gunicorn closes a kept-alive connection idle this long (its --keep-alive, 2 s by default);
# an idle connection is not reused so close to it.
IDLE = 1.5
BROKEN = (ConnectionError, asyncio.IncompleteReadError, EOFError)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes
    cookies: list[str] = field(default_factory=list)  # each Set-Cookie header's value

    def json(self) -> Any:
        return json.loads(self.body)


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.used = False
        self.idle_since = 0.0

    def close(self) -> None:
        self.writer.close()


class Pool:
    """Connections to one server; ``request`` takes an idle one or opens another."""

    def __init__(self, port: int, limit: int = 1000) -> None:
        self.port = port
        self.host = f"127.0.0.1:{port}".encode()
        self.idle: deque[_Connection] = deque()
        self.slots = asyncio.Semaphore(limit)
        self.opened = 0

    def _idle(self) -> _Connection | None:
        """The connection used last, if the server will not have closed it yet."""
        now = time.monotonic()
        while self.idle:
            connection = self.idle.pop()
            if now - connection.idle_since < IDLE:
                return connection
            connection.close()
        return None

    async def _open(self) -> _Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.opened += 1
        return _Connection(reader, writer)

    async def request(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: Any = None,
        *,
        form: dict[str, str] | None = None,
    ) -> Answer:
        """One request, with ``body`` as JSON or ``form`` as a browser posts a form; a
        kept-alive connection the server closed meanwhile is replaced and the request sent
        again once (as browsers do), any other failure raised."""
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.host]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}".encode())
        if body is not None:
            lines.append(b"Content-Type: application/json")
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            lines.append(b"Content-Type: application/x-www-form-urlencoded;charset=UTF-8")
        if data or method in ("POST", "PUT"):
            lines.append(b"Content-Length: %d" % len(data))
        message = b"\r\n".join(lines) + b"\r\n\r\n" + data
        async with self.slots:
            for attempt in (1, 2):
                connection = self._idle() if attempt == 1 else None
                connection = connection or await self._open()
                try:
                    async with asyncio.timeout(TIMEOUT):
                        answer, keep = await self._exchange(connection, message)
                except BROKEN:
                    connection.close()
                    if attempt == 1 and connection.used:
                        continue
                    raise
                except BaseException:
                    connection.close()
                    raise
                connection.used = True
                if keep:
                    connection.idle_since = time.monotonic()
                    self.idle.append(connection)
                else:
                    connection.close()
                return answer
        raise AssertionError("unreachable")

    @staticmethod
    async def _exchange(connection: _Connection, message: bytes) -> tuple[Answer, bool]:
        connection.writer.write(message)
        reader = connection.reader
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers: dict[str, str] = {}
        cookies = []
        for line in header_lines:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
                if name.strip().lower() == "set-cookie":
                    cookies.append(value.strip())
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            await reader.readuntil(b"\r\n")
            body = b"".join(parts)
        elif status in (204, 304) or status < 200:
            body = b""
        else:
            body = await reader.read()
            return Answer(status, headers, body, cookies), False
        keep = headers.get("connection", "").lower() != "close"
        return Answer(status, headers, body, cookies), keep

    async def close(self) -> None:
        while self.idle:
            self.idle.pop().close()


async def stream(port: int, path: str, headers: dict[str, str]) -> tuple[Answer, Any]:
    """Open a response that streams (Server-Sent Events): its head, and an async iterator
    over the pieces of its body as they arrive (the connection closes when it ends)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    async with asyncio.timeout(TIMEOUT):
        head = await reader.readuntil(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        if line:
            name, _, value = line.partition(":")
            found[name.strip().lower()] = value.strip()
    answer = Answer(int(status_line.split(" ", 2)[1]), found, b"")

    async def pieces() -> Any:
        try:
            if found.get("transfer-encoding", "").lower() != "chunked":
                while piece := await reader.read(65536):
                    yield piece
                return
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                yield await reader.readexactly(size)
                await reader.readexactly(2)
        finally:
            writer.close()

    return answer, pieces()
