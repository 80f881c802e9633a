"""Two app servers on one PostgreSQL and one Redis (issue 22's "Also"): two gunicorn
instances on two loopback ports, each with the checkout's settings and ``CACHE_REDIS_URL``.
Half the tables write to the first and are followed through the second, the other half the
other way round, so every follower hears from a server that did not make the write. A write
that a follower's stream never shows, or a poll older than a write its scorekeeper was told
of before asking, is an error (bench/traffic.py), and every acknowledged write is read back
afterwards. ``python -m bench.servers --tables 100``."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from . import traffic
from .server import Server, commit_of, fresh_database, serving
from .step import Step, verify

ROOT = Path(__file__).resolve().parents[1]


async def _both(first: Server, second: Server, tables: int, seconds: float) -> Step:
    def no_cpu() -> float:
        return 0.0

    half = tables // 2
    halves = await asyncio.gather(
        traffic.run_tables(first.port, half, seconds, 1, 10, no_cpu, None, second.port),
        traffic.run_tables(second.port, tables - half, seconds, 2, 10, no_cpu, None, first.port),
    )
    step = Step(tables, seconds)
    for half in halves:
        step.requests += half.requests
        step.errors += half.errors
        step.games += half.games
        for kind, timings in half.timings.items():
            step.timings[kind] += timings
    return step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    arguments = parser.parse_args(argv)
    os.environ["CACHE_REDIS_URL"] = arguments.redis
    with fresh_database(ROOT, "postgresql") as url:
        first, second = Server(ROOT, url, access_log=False), Server(ROOT, url, access_log=False)
        first.start()
        try:
            second.start()
            try:
                used = first.cpu_seconds() + second.cpu_seconds()
                step = asyncio.run(_both(first, second, arguments.tables, arguments.seconds))
                step.cpu_seconds = first.cpu_seconds() + second.cpu_seconds() - used
            finally:
                second.stop()
        finally:
            first.stop()
        with serving(ROOT, url) as server:
            asyncio.run(verify(server.port, step))
    print(f"two servers, postgresql, {commit_of(ROOT)}: {step.summary()}")
    return 0 if not step.errors and not step.lost else 1


if __name__ == "__main__":
    sys.exit(main())
