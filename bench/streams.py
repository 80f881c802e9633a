"""What the spectator page's streams cost a worker, and how the server fares with many of
them (issue 35, item 4). ``python -m bench.streams`` (``--help``); 127.0.0.1 only.

- **cost** (one worker, SQLite, no ceiling): the worker's memory before and after
  ``--streams`` idle streams of one game, its CPU a second while they idle, and its CPU
  for each follower a write is sent to (the fan-out), with the time until the last
  follower has it.
- **ceiling** (one worker, ``LIVE_STREAMS_PER_WORKER`` as the server reads it): that many
  streams and ``--over`` more; how many were let in and how many refused, ``/healthz``'s and
  a write's p95 (another game) while they are open; then every stream closed, and as many
  opened again at once: how many are let in (a closed stream's slot is free at once).
- **fanout** (two workers, as ``bench/load.py`` runs gunicorn, each backend): the write p95
  of a game ``--followers`` phones follow, writes four a second.

Each part starts a server of its own and ends it; every figure is printed with the load
average of the machine as it was measured."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .client import Pool
from .server import CLOCK_TICKS, Server, fresh_database

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ann", "Bob", "Cy"]
TURNED = ("red", "blue")


def _load() -> str:
    return "load " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def _rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def _cpu(pids: list[int]) -> tuple[float, float]:
    """User and system CPU seconds of these processes so far."""
    user = system = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        user, system = user + int(fields[11]), system + int(fields[12])
    return user / CLOCK_TICKS, system / CLOCK_TICKS


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else float("nan")


def _ms(values: list[float]) -> str:
    if not values:
        return "no answers"
    p50 = statistics.median(values) * 1000
    return f"p50 {p50:.0f} ms, p95 {_p95(values) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"


@contextmanager
def _server(backend: str, workers: int, **environ: str) -> Iterator[Server]:
    saved = {name: os.environ.get(name) for name in environ}
    os.environ.update(environ)
    try:
        with fresh_database(ROOT, backend) as url:
            server = Server(ROOT, url, workers=workers, access_log=False)
            server.start()
            try:
                yield server
            finally:
                server.stop()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Game:
    """A game written through the API, trump turned red and blue in turn."""

    def __init__(self, pool: Pool, answer: dict[str, object]) -> None:
        self.pool = pool
        self.id = str(answer["id"])
        self.token = str(answer["edit_token"])
        self.version = int(str(answer["version"]))
        self.writes = 0

    @classmethod
    async def create(cls, pool: Pool) -> Game:
        answer = await pool.request("POST", "/api/v1/games", body={"players": PLAYERS})
        assert answer.status == 201, answer
        return cls(pool, answer.json())

    async def write(self) -> float:
        """One write; the seconds it took."""
        self.writes += 1
        body = {"turned": TURNED[self.writes % 2]}
        headers = {"Authorization": f"Bearer {self.token}"}
        start = time.perf_counter()
        answer = await self.pool.request(
            "PUT", f"/api/v1/games/{self.id}/rounds/1/trump", headers, body
        )
        took = time.perf_counter() - start
        assert answer.status == 200, answer
        self.version = int(answer.json()["version"])
        return took

    def path(self) -> str:
        return f"/games/{self.id}/view/events?shown=live-{self.version}-en&parts=round"


class Stream:
    """One phone's stream: opened, then read to the end in a task of its own."""

    def __init__(self) -> None:
        self.status = 0
        self.seen = 0  # the newest version received
        self.seen_at: dict[int, float] = {}
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task[None] | None = None

    async def open(self, port: int, path: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer = writer
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 200:
            writer.close()
            return
        self.task = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        marker = b"id: live-"
        held = b""
        while piece := await reader.read(65536):
            held = held[-64:] + piece
            start = held.rfind(marker)
            if start >= 0:
                digits = held[start + len(marker) :].split(b"-", 1)[0]
                if digits.isdigit() and int(digits) > self.seen:
                    self.seen = int(digits)
                    self.seen_at[self.seen] = time.perf_counter()

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.writer is not None:
            self.writer.close()


async def _open_all(port: int, path: str, count: int) -> list[Stream]:
    streams = [Stream() for _ in range(count)]
    for start in range(0, count, 100):
        batch = streams[start : start + 100]
        await asyncio.gather(*(stream.open(port, path) for stream in batch))
    return streams


def _close_all(streams: list[Stream]) -> None:
    for stream in streams:
        stream.close()


async def _all_see(streams: list[Stream], version: int, within: float = 30.0) -> float:
    """Seconds until every open stream has ``version`` (or ``within``)."""
    start = time.perf_counter()
    while time.perf_counter() - start < within:
        if all(stream.seen >= version for stream in streams if stream.task is not None):
            return time.perf_counter() - start
        await asyncio.sleep(0.02)
    return within


async def _cost(server: Server, count: int) -> list[str]:
    pool = Pool(server.port)
    game = await Game.create(pool)
    pids = server.worker_pids()
    await asyncio.sleep(2)
    rss = _rss_kib(pids)
    streams = await _open_all(server.port, game.path(), count)
    await asyncio.sleep(3)
    held = _rss_kib(pids) - rss
    used = server.cpu_seconds()
    await asyncio.sleep(10)
    idle = (server.cpu_seconds() - used) / 10
    spread: list[float] = []
    used = server.cpu_seconds()
    split = _cpu(pids)
    writes = 5
    for _ in range(writes):
        await game.write()
        spread.append(await _all_see(streams, game.version))
        await asyncio.sleep(1)
    fanout = server.cpu_seconds() - used - idle * (writes + sum(spread))
    user, system = (after - before for after, before in zip(_cpu(pids), split, strict=True))
    admitted = sum(stream.status == 200 for stream in streams)
    _close_all(streams)
    await pool.close()
    return [
        f"{admitted} idle streams of one game, one worker ({_load()})",
        f"  memory: {held / admitted:.1f} KiB a stream ({held / 1024:.0f} MiB in all)",
        f"  CPU idle: {idle * 1e6 / admitted:.1f} µs a second a stream "
        f"({idle * 100:.1f} % of a core)",
        f"  CPU a write sent to each follower: {fanout * 1e6 / writes / admitted:.0f} µs "
        f"({fanout / writes * 1000:.0f} ms a write), last follower after "
        f"{statistics.median(spread) * 1000:.0f} ms (median of {writes}); "
        f"user {user:.2f} s, system {system:.2f} s in all",
    ]


async def _timed(pool: Pool, seconds: float, game: Game) -> tuple[list[float], list[float]]:
    """``/healthz`` every 50 ms and a write of ``game`` every 250 ms for ``seconds``."""
    health: list[float] = []
    writes: list[float] = []

    async def healthz() -> None:
        start = time.perf_counter()
        answer = await pool.request("GET", "/healthz")
        assert answer.status == 200, answer
        health.append(time.perf_counter() - start)

    tasks = []
    start = time.perf_counter()
    tick = 0
    while (now := time.perf_counter() - start) < seconds:
        tasks.append(asyncio.create_task(healthz()))
        if tick % 5 == 0:
            tasks.append(asyncio.create_task(_append(writes, game.write())))
        tick += 1
        await asyncio.sleep(max(0.0, tick * 0.05 - now))
    await asyncio.gather(*tasks)
    return health, writes


async def _append(into: list[float], took: object) -> None:
    into.append(await took)  # type: ignore[misc]


async def _ceiling(server: Server, ceiling: int, over: int, seconds: float) -> list[str]:
    pool = Pool(server.port)
    followed, written = await Game.create(pool), await Game.create(pool)
    quiet = await _timed(pool, seconds, written)
    start = time.perf_counter()
    streams = await _open_all(server.port, followed.path(), ceiling + over)
    opened = time.perf_counter() - start
    statuses = [stream.status for stream in streams]
    crowded = await _timed(pool, seconds, written)
    _close_all(streams)
    await asyncio.sleep(0.5)
    again = await _open_all(server.port, followed.path(), ceiling)
    readmitted = sum(stream.status == 200 for stream in again)
    _close_all(again)
    await pool.close()
    refused = {code: statuses.count(code) for code in sorted(set(statuses)) if code != 200}
    return [
        f"ceiling {ceiling}, {ceiling + over} streams asked for, one worker ({_load()})",
        f"  let in {statuses.count(200)}, refused {refused} (all asked in {opened:.1f} s)",
        f"  /healthz without streams: {_ms(quiet[0])}; at the ceiling: {_ms(crowded[0])}",
        f"  write without streams: {_ms(quiet[1])}; at the ceiling: {_ms(crowded[1])}",
        f"  all closed, {ceiling} asked again 0.5 s later: {readmitted} let in",
    ]


async def _fanout(server: Server, followers: int, seconds: float) -> list[str]:
    pool = Pool(server.port)
    game = await Game.create(pool)
    quiet = [await game.write() for _ in range(20)]
    streams = await _open_all(server.port, game.path(), followers)
    await asyncio.sleep(2)
    writes: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        writes.append(await game.write())
        await asyncio.sleep(max(0.0, 0.25 - writes[-1]))
    seen = await _all_see(streams, game.version)
    admitted = sum(stream.status == 200 for stream in streams)
    _close_all(streams)
    await pool.close()
    return [
        f"  {admitted} followers ({_load()}): the game's writes {_ms(writes)}; "
        f"the last follower had the last write {seen * 1000:.0f} ms after it",
        f"  the same game's writes with no follower: {_ms(quiet)}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", default=["cost", "ceiling", "fanout"])
    parser.add_argument("--streams", type=int, default=2000, help="idle streams (cost)")
    parser.add_argument("--ceiling", type=int, default=None, help="the ceiling (ceiling)")
    parser.add_argument("--over", type=int, default=500, help="streams past the ceiling")
    parser.add_argument("--followers", type=int, default=2000, help="followers (fanout)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--seconds", type=float, default=10.0)
    arguments = parser.parse_args(argv)
    lines: list[str] = []
    if "cost" in arguments.parts:
        with _server("sqlite", 1, LIVE_STREAMS_PER_WORKER="0") as server:
            lines += asyncio.run(_cost(server, arguments.streams))
        print("\n".join(lines), flush=True)
    if "ceiling" in arguments.parts:
        asked = arguments.ceiling
        ceiling = {} if asked is None else {"LIVE_STREAMS_PER_WORKER": str(asked)}
        with _server("sqlite", 1, **ceiling) as server:
            found = _setting(server)
            part = asyncio.run(_ceiling(server, found, arguments.over, arguments.seconds))
        print("\n".join(part), flush=True)
        lines += part
    if "fanout" in arguments.parts:
        backends = ("sqlite", "postgresql") if arguments.backend == "both" else (arguments.backend,)
        for backend in backends:
            with _server(backend, 2) as server:
                part = [f"fan-out on {backend}, two workers"]
                part += asyncio.run(_fanout(server, arguments.followers, arguments.seconds))
            print("\n".join(part), flush=True)
            lines += part
    return 0


def _setting(server: Server) -> int:
    """The ceiling the server runs with, as the app reads it."""
    del server
    code = "from scorekeeper.config import build; print(build('/tmp')['LIVE_STREAMS_PER_WORKER'])"
    import subprocess  # noqa: PLC0415

    found = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SECRET_KEY": "bench"},
    )
    return int(found.stdout.strip())


if __name__ == "__main__":
    sys.exit(main())
