"""One measured load and what came of it: the latency of each kind of request, the errors,
the server's and the generator's CPU, the rule a size passes by, and the check that every
acknowledged write is in the database."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .client import Pool
from .phone import stored_facts

if TYPE_CHECKING:
    from .traffic import Follower, Game

WRITE, TAP, POLL_304, POLL_200, HEALTHZ = "write", "tap", "poll 304", "poll 200", "healthz"
SEEN = "seen"  # a streaming follower: from a write's planned time to the event showing it
SEEN_LIMIT_MS = 1000.0  # followers see a change within 1 s (p95)


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
        if self.errors and not self.requests:  # refused before the load began
            return f"T={self.tables}: {self.errors[0]}"
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


def facts_of(game: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What the writes set, round by round (nothing derived)."""
    return [(r["number"], r["trump"], r["bids"], r["tricks"]) for r in game["rounds"]]


def seen(step: Step, follower: Follower) -> None:
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
        facts = stored_facts(stored, game.facts) if game.phone else facts_of(stored)
        kept = version == game.acknowledged_version and facts == game.facts
        # A write whose answer never came (an error, counted as such) may or may not be saved.
        in_flight = game.acknowledged_version < version <= game.acknowledged_version + game.unknown
        if not kept and not in_flight:
            step.lost += max(1, game.acknowledged_version - max(version, 0))

    await asyncio.gather(*(check(game) for game in step.games))
    await pool.close()


async def send_all(
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
