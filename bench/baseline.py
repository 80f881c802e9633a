"""The floor and the server's CPU per request kind: ``/healthz``, the no-op route, at a
rate (open loop), and each kind of request closed loop, its server CPU as a multiple of
``/healthz``'s (bench/load.py reports both)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

from . import traffic
from .client import Pool
from .step import HEALTHZ, POLL_200, POLL_304, TAP, WRITE, Step, send_all


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
    players = traffic.Players(pool, step, rng, start)
    await send_all(step, planned_times, lambda _index, planned: players.healthz(planned), start)
    step.own_cpu_seconds = time.process_time() - own
    await pool.close()
    return step


async def cpu_per_kind(
    port: int, cpu: Callable[[], float], seed: int, *, tap: bool = True
) -> dict[str, float]:
    """Milliseconds of server CPU per request of each kind, closed loop, four at a time: the
    keeper's write as a tap on the round screen (unless not ``tap``) and through the API. A
    poll 200 is measured as followers see it: four tables write (not counted), then each
    table's six spectators poll with the tag they held before (counted)."""
    rng = random.Random(seed)
    step = Step(0, 0.0)
    pool = Pool(port)
    players = traffic.Players(pool, step, rng, 0.0, keeper="api")
    tables = await players.setup(24, 3)
    phones = traffic.Players(pool, step, rng, 0.0, keeper="phone")
    phone_tables = await phones.setup(24, 3) if tap else []

    async def changed(chunk: int) -> float:
        """CPU seconds of the polls of four tables' spectators after a write to each."""
        group = [tables[(chunk + n) % len(tables)] for n in range(4)]
        held = [list(table.tags) for table in group]
        await asyncio.gather(*(players.write(table) for table in group))
        used = cpu()
        for table, tags in zip(group, held, strict=True):
            table.tags = tags
        polls = [(t, s) for s in range(traffic.SPECTATORS) for t in group]
        for first in range(0, len(polls), 4):
            await asyncio.gather(*(players.poll(t, s) for t, s in polls[first : first + 4]))
        return cpu() - used

    kinds: dict[str, tuple[int, Callable[[int], Awaitable[None]]]] = {
        HEALTHZ: (2000, lambda _n: players.healthz(0.0)),
        POLL_304: (2000, lambda n: players.poll(tables[n % len(tables)], 0)),
        WRITE: (800, lambda n: players.write(tables[n % len(tables)])),
    }
    if tap:
        kinds[TAP] = (800, lambda n: phones.write(phone_tables[n % len(phone_tables)]))
    figures = {}
    for kind, (count, make) in kinds.items():
        used = cpu()
        for chunk in range(0, count, 4):  # four at a time, never two writes to one game
            await asyncio.gather(*(make(n) for n in range(chunk, min(chunk + 4, count))))
        figures[kind] = (cpu() - used) * 1000 / count
    rounds = 200 // traffic.SPECTATORS * 4  # about 800 polls
    seconds = [await changed(chunk) for chunk in range(0, rounds, 4)]
    figures[POLL_200] = sum(seconds) * 1000 / (rounds * traffic.SPECTATORS)
    await pool.close()
    return figures
