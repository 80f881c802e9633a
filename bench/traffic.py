"""Real use, open loop: T tables, each with a scorekeeper playing a whole game, a tap every
5 s on average, and six spectators whose pages follow the game as the page does. The keeper
is a phone tapping the round screen as htmx sends it (bench/phone.py), or with ``keeper="api"``
a client of the API (a round step a write, ``If-Match`` on each). A spectator's page holds
the game's stream where it has one (``data-follow``), timed from a write's planned time to
the event that shows it ("seen"); else it polls the live fragment every 3 s as htmx does
(``If-None-Match`` with the fragment's tag: 304 while unchanged, 200 after a change). Every
request is sent at its planned time whatever the earlier answers; its latency runs from that
planned time, so a backlog counts. Afterwards every game is read back and compared with what
its scorekeeper was told (bench/step.py)."""

from __future__ import annotations

import asyncio
import html
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import client
from .client import Answer, Pool
from .phone import TAPS_A_ROUND, Phone
from .step import HEALTHZ, POLL_200, POLL_304, WRITE, Step, facts_of, seen, send_all

PLAYERS = ["Ann", "Bob", "Cy"]
TRUMPS = [{"turned": "blue"}, {"turned": "jester"}, {"turned": "wizard", "chosen": "red"}]
WRITE_EVERY = 5.0  # seconds between a table's writes, on average
POLL_EVERY = 3.0  # seconds between a spectator's polls (templates/_live.html, hx-trigger)
SPECTATORS = 6
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
    phone: bool = False  # played on the round screen: ``facts`` are what its keeper was told


@dataclass
class Table:
    game: Game
    tags: list[tuple[str, str] | None]  # each spectator's (game id, tag it holds)
    cookie: str = ""  # the session cookie the spectators' page set
    followers: list[Follower] = field(default_factory=list)  # where the page streams
    phone: Phone | None = None  # the keeper's, unless it writes through the API


@dataclass
class Follower:
    """A spectator's page holding the game's stream: the versions it was sent, with when."""

    game: Game
    seen: list[tuple[float, int]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


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
    return Game(body["id"], body["edit_token"], steps, version, version, facts_of(body))


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
        keeper: str = "phone",
    ) -> None:
        self.pool = pool
        self.keeper = keeper
        self.poll_pool = poll_pool or pool  # the spectators' server, when it is another
        self.step = step
        self.rng = rng
        self.start = start

    def _took(self, kind: str, planned: float) -> None:
        self.step.timings[kind].append(time.perf_counter() - self.start - planned)

    async def create(self, planned: float | None = None, phone: Phone | None = None) -> Game:
        """A new game: through the new-game page on the keeper's phone, or the API."""
        if phone is not None:
            await phone.start()
            if planned is not None:
                self._took(WRITE, planned)
            version = phone.version
            game = Game(phone.game_id, "", [], version, version, phone.facts(), phone=True)
            self.step.games.append(game)
            return game
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
        if table.phone is not None:
            await self.tap(table, table.phone, planned)
            return
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
            game.facts = facts_of(stored)

    async def tap(self, table: Table, phone: Phone, planned: float | None) -> None:
        """The keeper's next tap on the screen its phone shows, or a new game once this one
        is over. A tap waits for the screen the one before it brings, as on the phone (its
        latency still runs from its own planned time); after a failed tap the phone loads
        the game's page again first."""
        async with phone.lock:
            game = table.game
            if phone.stale:
                await phone.reload()
                phone.stale = False
            move = phone.next_tap()
            if move is None:
                table.game = await self.create(planned, phone)
                return
            game.pending += 1
            try:
                await phone.tap(*move)
            except (ConnectionRefusedError, RuntimeError):
                phone.stale = True  # never sent, or answered with a refusal
                raise
            except BaseException:
                phone.stale = True
                game.unknown += 1
                raise
            finally:
                game.pending -= 1
            if planned is not None:
                self._took(WRITE, planned)
                game.written.append((phone.version, self.start + planned))
            game.acknowledged += 1
            game.acknowledged_version = phone.version
            game.facts = phone.facts()

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
        if answer.status == 503:
            raise StreamsFull
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
                phone = None
                if self.keeper == "phone":
                    phone = Phone(self.pool, self.rng, PLAYERS)
                game = await self.create(phone=phone)
                table = Table(game, [None] * SPECTATORS, phone=phone)
                taps = TAPS_A_ROUND if phone is not None else 3  # a round's writes
                for _ in range(self.rng.randint(0, taps * prefill_rounds)):
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


class StreamsFull(Exception):
    """The server refused a spectator's stream (503): its workers hold their ceiling."""


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


async def run_tables(
    port: int,
    tables: int,
    seconds: float,
    seed: int,
    prefill_rounds: int,
    cpu: Callable[[], float],
    on_start: Callable[[], object] | None = None,
    poll_port: int | None = None,
    keeper: str = "phone",
) -> Step:
    """T tables for ``seconds``: the measured step (``cpu`` reads the server's CPU seconds;
    ``on_start`` is called as the measured load begins; the spectators poll the server at
    ``poll_port`` when given, another than their scorekeeper's; ``keeper``: "phone" or
    "api")."""
    rng = random.Random(seed)
    step = Step(tables, seconds)
    pool = Pool(port)
    poll_pool = Pool(poll_port) if poll_port is not None else pool
    setup = Players(pool, step, rng, 0.0, poll_pool, keeper)
    try:
        table_list = await setup.setup(tables, prefill_rounds)
    except StreamsFull:
        step.errors.append(
            "a spectator's stream refused: the workers hold their ceiling of streams "
            "(LIVE_STREAMS_PER_WORKER), and the page would poll every 3 s"
        )
        return step
    events = [
        event
        for event in schedule(tables, seconds, rng)
        if event[2] < 0 or not table_list[event[1]].followers
    ]
    if on_start is not None:
        on_start()
    used, own = cpu(), time.process_time()
    start = time.perf_counter() + 0.2
    players = Players(pool, step, rng, start, poll_pool, keeper)

    async def send(index: int, planned: float) -> None:
        _, table, spectator = events[index]
        if spectator < 0:
            await players.write(table_list[table], planned)
        else:
            await players.poll(table_list[table], spectator, planned)

    await send_all(step, [planned for planned, _, _ in events], send, start)
    followers = [follower for table in table_list for follower in table.followers]
    if followers:
        await asyncio.sleep(GRACE)
    step.cpu_seconds = cpu() - used
    step.own_cpu_seconds = time.process_time() - own
    for follower in followers:
        assert follower.task is not None
        follower.task.cancel()
        seen(step, follower)
    await pool.close()
    if poll_pool is not pool:
        await poll_pool.close()
    return step
