"""Other tables' writes beside a large import: T tables, each a scorekeeper PUTting its next
round step through the API 2.5–7.5 s after its last (bench/traffic.py's ``Players``), on
gunicorn as ``make run`` starts it (one worker), while ``POST /api/v1/import`` of 1,000 full
games (bench/imports.py's file) runs now and then.

Quiet spells and imports alternate in one run (quiet, import, quiet, import, quiet), so the
writes without an import and the writes beside one are measured in the same minutes on the
same server and database. A write counts as beside the import when its planned time falls
between the import's request and its answer; as quiet when it falls in a quiet spell, from
``SETTLE`` seconds after the last import's answer. Each write's latency runs from its planned
time, so a backlog counts. Also: each import's answer and time, and the worker's peak
resident memory. ``.venv/bin/python -m bench.import_beside [--backend …] [--tables 80]``;
PostgreSQL in a schema of its own in ``BENCH_DATABASE_URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from .client import Pool
from .imports import GAMES, _peak_kib, document
from .server import BACKENDS, Server, Unavailable, commit_of, fresh_database
from .traffic import WRITE_EVERY, Players, Step, Table

ROOT = Path(__file__).resolve().parents[1]
TABLES = 80
QUIET = 15.0  # seconds of each quiet spell
SETTLE = 2.0  # seconds after an import's answer before the writes count as quiet again
IMPORTS = 2
TIMEOUT = 300.0  # seconds an import may take on a busy machine


@dataclass
class Beside:
    """What one run measured: each write (planned time, latency), the imports' spans."""

    writes: list[tuple[float, float]] = field(default_factory=list)
    quiet: list[tuple[float, float]] = field(default_factory=list)  # spans, perf_counter
    imports: list[tuple[float, float, str]] = field(default_factory=list)  # + answer
    errors: list[str] = field(default_factory=list)
    peak_before_mb: float = 0.0
    peak_after_mb: float = 0.0

    def latencies(self, spans: list[tuple[float, float]]) -> list[float]:
        return [took for at, took in self.writes if any(a <= at < b for a, b in spans)]

    def during(self) -> list[float]:
        return self.latencies([(a, b) for a, b, _ in self.imports])


def _post(port: int, body: bytes) -> str:
    """The import's answer: its status and the number of games it started."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/import",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return f"{answer.status} ({len(json.loads(answer.read())['games'])} games)"
    except urllib.error.HTTPError as error:
        return f"{error.code} {error.read()[:200]!r}"
    except OSError as error:
        return type(error).__name__


async def beside(port: int, body: bytes, tables: int, worker: int, seed: int) -> Beside:
    rng = random.Random(seed)
    found = Beside()
    pool = Pool(port)
    players = Players(pool, Step(tables, 0.0), rng, 0.0)
    gate = asyncio.Semaphore(16)

    async def table() -> Table:
        async with gate:
            kept = Table(await players.create(), [])
            for _ in range(rng.randint(0, 10)):
                await players.write(kept)
            return kept

    table_list = await asyncio.gather(*(table() for _ in range(tables)))
    stop = asyncio.Event()

    async def keeper(kept: Table) -> None:
        planned = time.perf_counter() + rng.uniform(0, WRITE_EVERY)
        while not stop.is_set():
            await asyncio.sleep(max(0.0, planned - time.perf_counter()))
            try:
                await players.write(kept)
            except Exception as error:  # every failure is counted
                found.errors.append(f"{type(error).__name__}: {error}"[:300])
            found.writes.append((planned, time.perf_counter() - planned))
            planned += rng.uniform(0.5 * WRITE_EVERY, 1.5 * WRITE_EVERY)

    found.peak_before_mb = _peak_kib(worker) / 1024
    keepers = [asyncio.create_task(keeper(kept)) for kept in table_list]
    await asyncio.sleep(WRITE_EVERY)  # every keeper under way
    for number in range(IMPORTS + 1):
        begun = time.perf_counter()
        await asyncio.sleep(QUIET)
        found.quiet.append((begun + (SETTLE if number else 0.0), time.perf_counter()))
        if number == IMPORTS:
            break
        begun = time.perf_counter()
        answer = await asyncio.to_thread(_post, port, body)
        found.imports.append((begun, time.perf_counter(), answer))
    stop.set()
    await asyncio.gather(*keepers)
    await pool.close()
    found.peak_after_mb = _peak_kib(worker) / 1024
    return found


def _ms(samples: list[float], quantile: int) -> float:
    if len(samples) < 2:
        return samples[0] * 1000 if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[quantile - 1] * 1000


def measure(checkout: Path, backend: str, body: bytes, tables: int, seed: int) -> str:
    """One run on a fresh database and server; its line of figures."""
    before = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    with fresh_database(checkout, backend) as url:
        server = Server(checkout, url, workers=1, access_log=False)
        server.start()
        try:
            (worker,) = server.worker_pids()
            found = asyncio.run(beside(server.port, body, tables, worker, seed))
        finally:
            server.stop()
            server.log.close()
    after = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    quiet, during = found.latencies(found.quiet), found.during()
    imports = ", ".join(f"{answer} in {b - a:.1f} s" for a, b, answer in found.imports)
    ratio = _ms(during, 95) / _ms(quiet, 95)
    return (
        f"{backend} {commit_of(checkout)}, {tables} tables: writes without the import "
        f"p50 {_ms(quiet, 50):.0f} ms, p95 {_ms(quiet, 95):.0f} ms ({len(quiet)}); "
        f"beside it p50 {_ms(during, 50):.0f} ms, p95 {_ms(during, 95):.0f} ms, "
        f"max {max(during, default=0) * 1000:.0f} ms ({len(during)}); p95 ratio {ratio:.1f}; "
        f"{len(found.errors)} errors; imports: {imports}; worker peak RSS "
        f"{found.peak_before_mb:.0f} MB before, {found.peak_after_mb:.0f} MB after; "
        f"load {before} / {after}" + (f"; first error: {found.errors[0]}" if found.errors else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    parser.add_argument("--checkout", action="append", type=Path, help="repeat to compare")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--games", type=int, default=GAMES, help="games in the imported file")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    body = document(arguments.games)
    print(f"the file: {arguments.games} full games, {len(body) / 1e6:.1f} MB", flush=True)
    backends = BACKENDS if arguments.backend == "both" else (arguments.backend,)
    for run in range(arguments.runs):
        for backend in backends:
            for checkout in arguments.checkout or [ROOT]:
                try:
                    line = measure(checkout.resolve(), backend, body, arguments.tables, run + 1)
                except Unavailable as reason:
                    line = f"{backend}: skipped: {reason}"
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
