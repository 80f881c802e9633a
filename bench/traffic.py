"""Real use, open loop: T tables, each with a scorekeeper playing a whole game through the API
(a round step every 5 s on average, ``If-Match`` on each write) and six spectators whose pages
follow the game as the page does: where it has a stream (``data-follow``), each holds it
open and is timed from a write's planned time to the event that shows it ("seen"); else each
polls the live fragment every 3 s as htmx does (``If-None-Match`` with the fragment's tag:
304 while unchanged, 200 after a change). Every request is sent at its planned time
whatever the earlier answers; its latency runs from that planned time, so a backlog counts.
Afterwards every game is read back and compared with what its scorekeeper was told."""

from __future__ import annotations

import asyncio
import html
import random
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from . import client
from .client import Answer, Pool

PLAYERS = ["Ann", "Bob", "Cy"]
TRUMPS = [{"turned": "blue"}, {"turned": "jester"}, {"turned": "wizard", "chosen": "red"}]
WRITE_EVERY = 5.0  # seconds between a table's writes, on average
POLL_EVERY = 3.0  # seconds between a spectator's polls (templates/_live.html, hx-trigger)
SPECTATORS = 6
WRITE, POLL_304, POLL_200, HEALTHZ = "write", "poll 304", "poll 200", "healthz"
SEEN = "seen"  # a streaming follower: from a write's planned time to the event showing it
SEEN_LIMIT_MS = 1000.0  # followers see a change within 1 s (p95)
GRACE = 3.0  # seconds the streams are read on after the last write was sent
STREAM = re.compile(r'data-follow="([^"]+)"')
# What a phone's browser sends with htmx's poll of the live fragment (htmx 4's own headers,
# the page's hx-headers, the session cookie the page set) besides the page's address.
BROWSER = {
    "Accept": "text/html",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-GB,en;q=0.9",
    "HX-Request": "true",
    "HX-Source": "div#live",
    "HX-Target": "div#live",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile",
}


def requests_per_table() -> float:
    """A table's requests per second: its writes and its spectators' polls."""
    return 1 / WRITE_EVERY + SPECTATORS / POLL_EVERY


@dataclass
class Game:
    """One game as its scorekeeper knows it."""

    id: str
    token: str
    steps: list[tuple[int, str, dict[str, Any]]]
    version: int  # the version the next write names
    acknowledged_version: int
    facts: list[tuple[Any, ...]]
    done: int = 0  # steps sent
    pending: int = 0  # writes sent and not answered
    unknown: int = 0  # writes whose answer never came (saved or not, nobody was told)
    acknowledged: int = 0
    written: list[tuple[int, float]] = field(default_factory=list)  # (version, planned) of
    # each measured write acknowledged


@dataclass
class Table:
    game: Game
    tags: list[tuple[str, str] | None]  # each spectator's (game id, tag it holds)
    cookie: str = ""  # the session cookie the spectators' page set
    followers: list[Follower] = field(default_factory=list)  # where the page streams


@dataclass
class Follower:
    """A spectator's page holding the game's stream: the versions it was sent, with when."""

    game: Game
    seen: list[tuple[float, int]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


@dataclass
class Step:
    """One measured load and what came of it."""

    tables: int
    seconds: float
    requests: int = 0
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0  # the server's
    own_cpu_seconds: float = 0.0  # the load generator's
    games: list[Game] = field(default_factory=list)
    lost: int = 0
    acknowledged: int = 0

    def p95(self, *kinds: str) -> float:
        """The 95th percentile latency of these kinds together, in ms."""
        samples = [t for kind in kinds for t in self.timings.get(kind, [])]
        if len(samples) < 2:
            return samples[0] * 1000 if samples else float("nan")
        return statistics.quantiles(samples, n=100, method="inclusive")[94] * 1000

    def count(self, *kinds: str) -> int:
        return sum(len(self.timings.get(kind, [])) for kind in kinds)

    def passed(self, limit_ms: float) -> bool:
        """Writes and polls at p95 within the limit, streaming followers within theirs, no
        error, every acknowledged write kept."""
        polls = self.p95(POLL_304, POLL_200) if self.count(POLL_304, POLL_200) else 0.0
        writes = self.p95(WRITE) if self.count(WRITE) else 0.0
        noop = self.p95(HEALTHZ) if self.count(HEALTHZ) else 0.0
        seen = self.p95(SEEN) if self.count(SEEN) else 0.0
        latency_ok = writes <= limit_ms and polls <= limit_ms and noop <= limit_ms
        return latency_ok and seen <= SEEN_LIMIT_MS and not self.errors and not self.lost

    def own_cpu(self) -> float:
        return self.own_cpu_seconds * 1000 / max(1, self.requests)

    def summary(self) -> str:
        if self.count(WRITE) == 0:
            rate = self.requests / self.seconds
            return (
                f"{rate:,.0f} req/s to /healthz: p95 {self.p95(HEALTHZ):.0f} ms, "
                f"{len(self.errors)} errors, generator {self.own_cpu():.2f} ms CPU a request"
            )
        follow = (
            f"seen {self.p95(SEEN):.0f} ms (streams)"
            if self.count(SEEN)
            else f"poll {self.p95(POLL_304, POLL_200):.0f} ms "
            f"(304 {self.p95(POLL_304):.0f}, 200 {self.p95(POLL_200):.0f})"
        )
        return (
            f"T={self.tables}: {self.requests / self.seconds:,.0f} req/s, "
            f"p95 write {self.p95(WRITE):.0f} ms, {follow}, "
            f"{len(self.errors)} errors, {self.lost} of {self.acknowledged} writes lost, "
            f"CPU a request: server {self.cpu_seconds * 1000 / max(1, self.requests):.2f} ms, "
            f"generator {self.own_cpu():.2f} ms"
            + (f"; first error: {self.errors[0]}" if self.errors else "")
        )


def _facts(game: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What the writes set, round by round (nothing derived)."""
    return [(r["number"], r["trump"], r["bids"], r["tricks"]) for r in game["rounds"]]


def _game(answer: Answer, rng: random.Random) -> Game:
    """The game just created, with every step of playing it through."""
    body = answer.json()
    steps: list[tuple[int, str, dict[str, Any]]] = []
    for round_ in body["rounds"]:
        number, cards = round_["number"], round_["cards"]
        if round_["trump"] is None:
            steps.append((number, "trump", rng.choice(TRUMPS)))
        steps.append((number, "bids", {"bids": [rng.randint(0, cards) for _ in PLAYERS]}))
        tricks = [0] * len(PLAYERS)
        tricks[rng.randrange(len(PLAYERS))] = cards
        steps.append((number, "tricks", {"tricks": tricks}))
    version = body["version"]
    return Game(body["id"], body["edit_token"], steps, version, version, _facts(body))


def _version_of(tag: str) -> int:
    """The game's version a live fragment's tag names (``W/"live-12-en"``)."""
    return int(tag.split("live-", 1)[1].split("-", 1)[0])


class Players:
    """The scorekeepers and spectators of one load, sharing one connection pool."""

    def __init__(
        self,
        pool: Pool,
        step: Step,
        rng: random.Random,
        start: float,
        poll_pool: Pool | None = None,
    ) -> None:
        self.pool = pool
        self.poll_pool = poll_pool or pool  # the spectators' server, when it is another
        self.step = step
        self.rng = rng
        self.start = start

    def _took(self, kind: str, planned: float) -> None:
        self.step.timings[kind].append(time.perf_counter() - self.start - planned)

    async def create(self, planned: float | None = None) -> Game:
        body = {"players": PLAYERS}
        answer = await self.pool.request("POST", "/api/v1/games", body=body)
        if answer.status != 201:
            raise RuntimeError(f"POST /api/v1/games: {answer.status} {answer.body[:200]!r}")
        if planned is not None:
            self._took(WRITE, planned)
        game = _game(answer, self.rng)
        self.step.games.append(game)
        return game

    async def write(self, table: Table, planned: float | None = None) -> None:
        """The table's next round step, or a new game once this one is played through."""
        game = table.game
        if game.done == len(game.steps):
            table.game = await self.create(planned)
            return
        number, what, body = game.steps[game.done]
        game.done += 1
        headers = {"Authorization": f"Bearer {game.token}", "If-Match": f'"{game.version}"'}
        game.version += 1
        game.pending += 1
        path = f"/api/v1/games/{game.id}/rounds/{number}/{what}"
        try:
            answer = await self.pool.request("PUT", path, headers, body)
        except ConnectionRefusedError:
            raise  # never sent
        except BaseException:
            game.unknown += 1
            raise
        finally:
            game.pending -= 1
        if answer.status != 200:
            raise RuntimeError(f"PUT {what}: {answer.status} {answer.body[:200]!r}")
        stored = answer.json()
        if planned is not None:
            self._took(WRITE, planned)
            game.written.append((stored["version"], self.start + planned))
        game.acknowledged += 1
        if stored["version"] > game.acknowledged_version:
            game.acknowledged_version = stored["version"]
            game.facts = _facts(stored)

    async def poll(self, table: Table, spectator: int, planned: float | None = None) -> None:
        """A spectator's page asking whether the game changed: never older than the last
        write its scorekeeper was told of before asking (a stale answer is an error)."""
        game = table.game
        held = table.tags[spectator]
        pool = self.poll_pool
        headers = dict(BROWSER)
        headers["HX-Current-URL"] = f"http://127.0.0.1:{pool.port}/games/{game.id}/view"
        if table.cookie:
            headers["Cookie"] = table.cookie
        if held is not None and held[0] == game.id:
            headers["If-None-Match"] = held[1]
        told = game.acknowledged_version
        answer = await pool.request("GET", f"/games/{game.id}/view/live", headers)
        if answer.status not in (200, 304):
            raise RuntimeError(f"GET live: {answer.status} {answer.body[:200]!r}")
        if answer.status == 200:
            table.tags[spectator] = (game.id, answer.headers.get("etag", ""))
        shown = table.tags[spectator]
        if shown is not None and shown[0] == game.id and _version_of(shown[1]) < told:
            raise RuntimeError(f"stale poll: version {_version_of(shown[1])} after {told}")
        if planned is not None:
            self._took(POLL_200 if answer.status == 200 else POLL_304, planned)

    async def follow(self, game: Game, path: str, cookie: str) -> Follower:
        """A spectator's page opening the game's stream; it is read in a task of its own."""
        # What a browser's EventSource sends (static/js/follow.js), and the page's cookie.
        names = ("Accept-Encoding", "Accept-Language", "User-Agent")
        headers = {name: BROWSER[name] for name in names}
        headers |= {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if cookie:
            headers["Cookie"] = cookie
        answer, pieces = await client.stream(self.poll_pool.port, path, headers)
        if answer.status != 200:
            raise RuntimeError(f"GET the stream: {answer.status}")
        follower = Follower(game)

        async def read() -> None:
            buffer = b""
            async for piece in pieces:
                buffer += piece
                *events, buffer = buffer.split(b"\n\n")
                for event in events:
                    if event.startswith(b"id: live-"):
                        version = int(event[9 : event.index(b"-", 9)])
                        follower.seen.append((time.perf_counter(), version))

        follower.task = asyncio.create_task(read())
        return follower

    async def healthz(self, planned: float) -> None:
        answer = await self.pool.request("GET", "/healthz")
        if answer.status != 200:
            raise RuntimeError(f"GET /healthz: {answer.status}")
        self._took(HEALTHZ, planned)

    async def setup(self, tables: int, prefill_rounds: int) -> list[Table]:
        """The tables' games, each played to a random point of its first rounds, and the tag
        each spectator's page holds (unmeasured)."""
        gate = asyncio.Semaphore(16)

        async def one() -> Table:
            async with gate:
                game = await self.create()
                table = Table(game, [None] * SPECTATORS)
                for _ in range(self.rng.randint(0, 3 * prefill_rounds)):
                    await self.write(table)
                plain = {k: v for k, v in BROWSER.items() if k != "Accept-Encoding"}
                page = await self.poll_pool.request("GET", f"/games/{game.id}/view", plain)
                if page.status != 200:
                    raise RuntimeError(f"GET the spectators' page: {page.status}")
                table.cookie = page.headers.get("set-cookie", "").split(";")[0]
                if found := STREAM.search(page.body.decode()):
                    path = html.unescape(found.group(1))
                    table.followers = [
                        await self.follow(game, path, table.cookie) for _ in range(SPECTATORS)
                    ]
                    return table
                await self.poll(table, 0)
                table.tags = [table.tags[0]] * SPECTATORS
                return table

        return list(await asyncio.gather(*(one() for _ in range(tables))))


def schedule(tables: int, seconds: float, rng: random.Random) -> list[tuple[float, int, int]]:
    """Planned (time, table, spectator or -1 for the scorekeeper's write), in time order.
    Jittered: a table writes 2.5-7.5 s after its last write, a page polls 2.7-3.3 s after
    its last poll, each from a random phase (a write never follows its table's last write
    so closely that the first could still be on its way in a passing run)."""
    events: list[tuple[float, int, int]] = []
    for table in range(tables):
        planned = rng.uniform(0, WRITE_EVERY)
        while planned < seconds:
            events.append((planned, table, -1))
            planned += rng.uniform(0.5 * WRITE_EVERY, 1.5 * WRITE_EVERY)
        for spectator in range(SPECTATORS):
            planned = rng.uniform(0, POLL_EVERY)
            while planned < seconds:
                events.append((planned, table, spectator))
                planned += rng.uniform(0.9 * POLL_EVERY, 1.1 * POLL_EVERY)
    events.sort()
    return events


async def _send_all(
    step: Step,
    planned_times: list[float],
    send: Callable[[int, float], Awaitable[None]],
    start: float,
) -> None:
    """Send request ``i`` at ``start + planned_times[i]``; wait for every answer."""
    tasks = []

    async def guarded(index: int, planned: float) -> None:
        try:
            await send(index, planned)
        except Exception as error:  # every failure is a counted error
            step.errors.append(f"{type(error).__name__}: {error}"[:300])

    for index, planned in enumerate(planned_times):
        delay = start + planned - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(guarded(index, planned)))
        step.requests += 1
    await asyncio.gather(*tasks)


async def run_tables(
    port: int,
    tables: int,
    seconds: float,
    seed: int,
    prefill_rounds: int,
    cpu: Callable[[], float],
    on_start: Callable[[], object] | None = None,
    poll_port: int | None = None,
) -> Step:
    """T tables for ``seconds``: the measured step (``cpu`` reads the server's CPU seconds;
    ``on_start`` is called as the measured load begins; the spectators poll the server at
    ``poll_port`` when given, another than their scorekeeper's)."""
    rng = random.Random(seed)
    step = Step(tables, seconds)
    pool = Pool(port)
    poll_pool = Pool(poll_port) if poll_port is not None else pool
    setup = Players(pool, step, rng, 0.0, poll_pool)
    table_list = await setup.setup(tables, prefill_rounds)
    events = [
        event
        for event in schedule(tables, seconds, rng)
        if event[2] < 0 or not table_list[event[1]].followers
    ]
    if on_start is not None:
        on_start()
    used, own = cpu(), time.process_time()
    start = time.perf_counter() + 0.2
    players = Players(pool, step, rng, start, poll_pool)

    async def send(index: int, planned: float) -> None:
        _, table, spectator = events[index]
        if spectator < 0:
            await players.write(table_list[table], planned)
        else:
            await players.poll(table_list[table], spectator, planned)

    await _send_all(step, [planned for planned, _, _ in events], send, start)
    followers = [follower for table in table_list for follower in table.followers]
    if followers:
        await asyncio.sleep(GRACE)
    step.cpu_seconds = cpu() - used
    step.own_cpu_seconds = time.process_time() - own
    for follower in followers:
        assert follower.task is not None
        follower.task.cancel()
        _seen(step, follower)
    await pool.close()
    if poll_pool is not pool:
        await poll_pool.close()
    return step


def _seen(step: Step, follower: Follower) -> None:
    """Time each acknowledged write of the followed game to the first event showing it (or
    a newer version); a write never shown, or versions out of order, are errors."""
    versions = [version for _, version in follower.seen]
    if versions != sorted(set(versions)):
        step.errors.append(f"a stream sent versions out of order: {versions}")
    for version, planned in follower.game.written:
        shown = next((at for at, seen in follower.seen if seen >= version), None)
        if shown is None:
            step.errors.append(f"a follower never saw version {version} of {follower.game.id}")
        else:
            step.timings[SEEN].append(shown - planned)


async def run_healthz(port: int, rate: float, seconds: float, seed: int) -> Step:
    """``rate`` requests a second to the no-op route, at random (Poisson) times."""
    rng = random.Random(seed)
    step = Step(0, seconds)
    planned_times = []
    planned = rng.expovariate(rate)
    while planned < seconds:
        planned_times.append(planned)
        planned += rng.expovariate(rate)
    pool = Pool(port)
    own = time.process_time()
    start = time.perf_counter() + 0.2
    players = Players(pool, step, rng, start)
    await _send_all(step, planned_times, lambda _index, planned: players.healthz(planned), start)
    step.own_cpu_seconds = time.process_time() - own
    await pool.close()
    return step


async def verify(port: int, step: Step) -> None:
    """Read every game back (from a server started afresh on the database) and count the
    acknowledged writes that are not there."""
    pool = Pool(port)
    gate = asyncio.Semaphore(8)

    async def check(game: Game) -> None:
        async with gate:
            answer = await pool.request("GET", f"/api/v1/games/{game.id}")
        step.acknowledged += game.acknowledged
        stored: dict[str, Any] = {"version": -1, "rounds": []}
        if answer.status == 200:
            stored = answer.json()
        version: int = stored["version"]
        kept = version == game.acknowledged_version and _facts(stored) == game.facts
        # A write whose answer never came (an error, counted as such) may or may not be saved.
        in_flight = game.acknowledged_version < version <= game.acknowledged_version + game.unknown
        if not kept and not in_flight:
            step.lost += max(1, game.acknowledged_version - max(version, 0))

    await asyncio.gather(*(check(game) for game in step.games))
    await pool.close()
