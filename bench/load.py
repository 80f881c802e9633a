"""Capacity, open loop: the largest number of tables T at which writes and polls keep p95 within
100 ms, with no error and every acknowledged write in the database, beside the same request
rate sent to ``/healthz`` (the floor) and the server's CPU per request kind.

Each step is a fresh database and a fresh gunicorn (see bench/server.py) carrying T tables
for ``--seconds`` (bench/traffic.py); T is found by doubling, then bisection. ``--checkout``
(repeatable) runs the server from other checkouts, each with its own ``.venv``, interleaved
run by run, so old and new are measured in the same hour. ``make load``; docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import itertools
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import baseline, traffic
from .phone import OldServer
from .server import BACKENDS, Unavailable, commit_of, fresh_database, serving
from .step import HEALTHZ, POLL_200, POLL_304, SEEN, SEEN_LIMIT_MS, TAP, WRITE, Step, verify

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Options:
    seconds: float = 15.0
    limit_ms: float = 100.0
    start: int = 50
    precision: float = 0.1
    max_tables: int = 5000
    prefill_rounds: int = 10
    floor: str = "search"
    floor_seconds: float = 10.0
    cpu: bool = True
    access_log: bool = False
    keeper: str = "phone"
    seed: int = 1
    seeds: itertools.count[int] = field(default_factory=itertools.count)

    def next_seed(self) -> int:
        return self.seed * 1_000_003 + next(self.seeds)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def load_average() -> str:
    return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


# -- One step --------------------------------------------------------------------------------


def tables_step(checkout: Path, backend: str, tables: int, options: Options) -> Step:
    """T tables on a fresh database and server, then every game read back after a restart."""
    with fresh_database(checkout, backend) as url:
        with serving(checkout, url, access_log=options.access_log) as server:
            step = asyncio.run(
                traffic.run_tables(
                    server.port,
                    tables,
                    options.seconds,
                    options.next_seed(),
                    options.prefill_rounds,
                    server.cpu_seconds,
                    keeper=options.keeper,
                )
            )
        with serving(checkout, url) as server:
            asyncio.run(verify(server.port, step))
    say(f"  {backend} {step.summary()} -> {'pass' if step.passed(options.limit_ms) else 'FAIL'}")
    return step


def search(
    measure: Callable[[int], Step], start: int, options: Options
) -> tuple[Step | None, Step | None]:
    """The largest passing size (doubling up or halving down from ``start``, then bisection
    to ``precision``): the step at that size, and the failing step just above it."""
    passed: Step | None = None
    failed: Step | None = None
    size = start
    while 1 <= size <= options.max_tables:
        step = measure(size)
        if step.passed(options.limit_ms):
            passed, size = step, size * 2
            if failed is not None:
                break
        else:
            failed, size = step, size // 2
            if passed is not None:
                break
    while passed is not None and failed is not None:
        low, high = _size(passed), _size(failed)
        if high - low <= max(1, low * options.precision):
            break
        step = measure((low + high) // 2)
        if step.passed(options.limit_ms):
            passed = step
        else:
            failed = step
    return passed, failed


def _size(step: Step) -> int:
    return step.tables or round(step.requests / step.seconds)


# -- The floor and the CPU per request kind --------------------------------------------------


def healthz_step(port: int, rate: float, options: Options) -> Step:
    step = asyncio.run(baseline.run_healthz(port, rate, options.floor_seconds, options.next_seed()))
    say(f"  floor {step.summary()} -> {'pass' if step.passed(options.limit_ms) else 'FAIL'}")
    return step


def cpu_only(checkout: Path, backend: str, options: Options) -> str:
    """One line: the server CPU per request kind and its ratio to ``/healthz``'s."""
    before = load_average()
    with fresh_database(checkout, backend) as url, serving(checkout, url) as server:
        cpu = asyncio.run(
            baseline.cpu_per_kind(
                server.port, server.cpu_seconds, options.seed, tap=options.keeper == "phone"
            )
        )
    noop = cpu[HEALTHZ]
    kinds = [k for k in (POLL_304, POLL_200, TAP, WRITE, HEALTHZ) if k in cpu]
    figures = ", ".join(f"{k} {cpu[k]:.2f} ms ({cpu[k] / noop:.1f}x)" for k in kinds)
    return f"{backend} {commit_of(checkout)}: {figures}; load {before} / {load_average()}"


def floor_and_cpu(checkout: Path, backend: str, rate: float, options: Options) -> dict[str, object]:
    """On one server: ``/healthz`` at ``rate``, the largest rate it carries, the CPU per kind."""
    found: dict[str, object] = {}
    with fresh_database(checkout, backend) as url, serving(checkout, url) as server:
        if options.floor != "off" and rate > 0:
            found["same"] = healthz_step(server.port, rate, options)
        if options.floor == "search":
            start = max(100, int(rate))
            best, _above = search(
                lambda size: healthz_step(server.port, size, options), start, options
            )
            found["floor"] = _size(best) if best else 0
            found["floor_p95"] = best.p95(HEALTHZ) if best else float("nan")
        if options.cpu:
            found["cpu"] = asyncio.run(
                baseline.cpu_per_kind(
                    server.port, server.cpu_seconds, options.seed, tap=options.keeper == "phone"
                )
            )
    return found


# -- Runs and the report -----------------------------------------------------------------------


@dataclass
class Capacity:
    checkout: Path
    backend: str
    runs: list[tuple[Step | None, Step | None, str]] = field(default_factory=list)  # + load avg
    extra: dict[str, object] = field(default_factory=dict)

    def median(self) -> tuple[Step | None, Step | None, str]:
        """The run whose T is the median (the lower of the two middle ones)."""
        ordered = sorted(self.runs, key=lambda run: run[0].tables if run[0] else 0)
        return ordered[(len(ordered) - 1) // 2]


def measure_capacity(capacity: Capacity, options: Options) -> None:
    say(
        f"{capacity.backend} at {capacity.checkout} ({commit_of(capacity.checkout)}), "
        f"load {load_average()}"
    )
    before = load_average()
    passed, failed = search(
        lambda tables: tables_step(capacity.checkout, capacity.backend, tables, options),
        options.start,
        options,
    )
    capacity.runs.append((passed, failed, f"{before} / {load_average()}"))


def report(capacities: list[Capacity], options: Options) -> list[str]:
    per_table = traffic.requests_per_table()
    today = dt.date.today().isoformat()
    lines = [
        f"Open loop, {options.seconds:g} s steps; a table: a keeper "
        + ("tapping the round screen" if options.keeper == "phone" else "writing through the API")
        + f", a write every {traffic.WRITE_EVERY:g} s, "
        f"and {traffic.SPECTATORS} followers, polling every {traffic.POLL_EVERY:g} s "
        f"({per_table:.2f} req/s) or on a stream; limit p95 {options.limit_ms:g} ms for writes "
        f"and polls, {SEEN_LIMIT_MS:g} ms for a stream's follower to see a write, "
        "0 errors, 0 writes lost.",
        "",
        "| backend | commit | date | T (runs) | req/s | p95 write / followers ms "
        "| first failing T | /healthz at that rate: p95 | floor: req/s (tables' worth) | T / floor "
        "| CPU ms: poll 304 / poll 200 / tap / write / healthz / mix "
        "| server CPU ms a table-second "
        "| load average (before / after) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for capacity in capacities:
        passed, failed, load = capacity.median()
        runs = ", ".join(str(run[0].tables if run[0] else 0) for run in capacity.runs)
        if passed is None:
            lines.append(
                f"| {capacity.backend} | {commit_of(capacity.checkout)} | {today} | 0 ({runs}) "
                f"| | | | | | | | | {load} |"
            )
            continue
        extra = capacity.extra
        same, floor, cpu = extra.get("same"), extra.get("floor"), extra.get("cpu")
        mix = passed.cpu_seconds * 1000 / max(1, passed.requests)
        cpu = cpu if isinstance(cpu, dict) else {}
        kinds = (POLL_304, POLL_200, TAP, WRITE, HEALTHZ)
        cpu_figures = [f"{cpu[kind]:.2f}" if kind in cpu else "–" for kind in kinds]
        failing = "–"
        if failed is not None and not failed.requests:  # refused before the load began
            failing = f"{failed.tables}: {failed.errors[0]}"
        elif failed is not None:
            failing = f"{failed.tables}: {_latencies(failed)}"
            failing += f", {len(failed.errors)} errors" if failed.errors else ""
        share = f"{passed.tables * per_table / floor:.0%}" if isinstance(floor, int) else "–"
        per_table_second = passed.cpu_seconds * 1000 / (passed.tables * passed.seconds)
        cells = [
            capacity.backend,
            commit_of(capacity.checkout),
            today,
            f"**{passed.tables}** ({runs})",
            f"{passed.requests / passed.seconds:,.0f}",
            _latencies(passed),
            failing,
            f"{same.p95(HEALTHZ):.0f} ms" if isinstance(same, Step) else "–",
            f"{floor:,} ({floor / per_table:,.0f})" if isinstance(floor, int) else "–",
            share,
            " / ".join([*cpu_figures, f"{mix:.2f}"]),
            f"{per_table_second:.2f}",
            load,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _latencies(step: Step) -> str:
    """The p95 of the writes and of the followers: seeing a write on a stream, or polling."""
    if step.count(SEEN):
        return f"{step.p95(WRITE):.0f} / {step.p95(SEEN):.0f} (seen on a stream)"
    return (
        f"{step.p95(WRITE):.0f} / {step.p95(POLL_304, POLL_200):.0f} "
        f"({step.p95(POLL_304):.0f}, {step.p95(POLL_200):.0f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    parser.add_argument(
        "--checkout", action="append", type=Path,
        help="run the server from this checkout (its .venv); repeat to compare (default: here)",
    )  # fmt: skip
    parser.add_argument("--runs", type=int, default=1, help="runs per figure (the median)")
    parser.add_argument("--seconds", type=float, default=Options.seconds, help="per step")
    parser.add_argument("--tables", type=int, help="measure this T once, without a search")
    parser.add_argument("--start", type=int, default=Options.start, help="first T of the search")
    parser.add_argument("--precision", type=float, default=Options.precision)
    parser.add_argument("--limit-ms", type=float, default=Options.limit_ms)
    parser.add_argument("--prefill-rounds", type=int, default=Options.prefill_rounds)
    parser.add_argument("--floor", choices=["search", "same", "off"], default="search")
    parser.add_argument("--floor-seconds", type=float, default=Options.floor_seconds)
    parser.add_argument("--no-cpu", action="store_true", help="skip the CPU per request kind")
    parser.add_argument(
        "--cpu-only", action="store_true",
        help="only the server CPU per request kind, as a ratio to /healthz's (no load, no search)",
    )  # fmt: skip
    parser.add_argument("--access-log", action="store_true", help="gunicorn's access log on")
    parser.add_argument(
        "--keeper", choices=["phone", "api"], default=Options.keeper,
        help="the scorekeeper taps the round screen (phone) or writes through the API",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=Options.seed)
    arguments = parser.parse_args(argv)
    # Stopped by a signal, the servers are stopped and the databases dropped on the way out
    # (a shell starts a background job with SIGINT ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda _number, _frame: sys.exit(143))
    options = Options(
        seconds=arguments.seconds,
        limit_ms=arguments.limit_ms,
        start=arguments.start,
        precision=arguments.precision,
        prefill_rounds=arguments.prefill_rounds,
        floor=arguments.floor,
        floor_seconds=arguments.floor_seconds,
        cpu=not arguments.no_cpu,
        access_log=arguments.access_log,
        keeper=arguments.keeper,
        seed=arguments.seed,
    )
    try:
        return _run(arguments, options)
    except OldServer as error:
        say(f"error: {error}")
        return 2


def _run(arguments: argparse.Namespace, options: Options) -> int:
    checkouts = [path.resolve() for path in arguments.checkout or [ROOT]]
    backends = BACKENDS if arguments.backend == "both" else (arguments.backend,)
    if arguments.cpu_only:
        for checkout, backend in itertools.product(checkouts, backends):
            try:
                print(cpu_only(checkout, backend, options), flush=True)
            except Unavailable as reason:
                print(f"{backend}: skipped: {reason}")
        return 0
    if arguments.tables:
        failed = False
        for checkout, backend in itertools.product(checkouts, backends):
            try:
                step = tables_step(checkout, backend, arguments.tables, options)
            except Unavailable as reason:
                print(f"{backend}: skipped: {reason}")
                continue
            print(f"{backend} {commit_of(checkout)}: {step.summary()}")
            failed |= not step.passed(options.limit_ms)
        return 1 if failed else 0
    capacities = [Capacity(c, b) for b in backends for c in checkouts]
    started = time.monotonic()
    for run in range(arguments.runs):
        for capacity in capacities:
            say(f"run {run + 1} of {arguments.runs}:")
            try:
                measure_capacity(capacity, options)
            except Unavailable as reason:
                say(f"{capacity.backend}: skipped: {reason}")
    for capacity in capacities:
        if capacity.runs:
            passed = capacity.median()[0]
            rate = passed.requests / passed.seconds if passed else 0.0
            with contextlib.suppress(Unavailable):
                capacity.extra = floor_and_cpu(capacity.checkout, capacity.backend, rate, options)
    print("\n".join(report([c for c in capacities if c.runs], options)))
    say(f"{(time.monotonic() - started) / 60:.1f} min")
    return 0


def run() -> list[tuple[str, str]]:
    """``make bench``'s short version: 20 tables for 10 s on each backend, no search."""
    options = Options(seconds=10.0)
    rows = []
    for backend in BACKENDS:
        try:
            step = tables_step(ROOT, backend, 20, options)
        except Unavailable as reason:
            rows.append((f"load ({backend})", f"skipped: {reason}"))
            continue
        rows.append((f"load ({backend}), 20 tables, open loop", step.summary()))
    return rows


if __name__ == "__main__":
    sys.exit(main())
