"""Crashes: SIGKILL the server in the middle of the load, restart it, check every write.

Each of K rounds starts gunicorn on the same database, lets the tables and spectators of
bench/traffic.py play for a random moment, SIGKILLs the master and all workers at once
(nothing flushed, nothing finished), starts gunicorn again, and checks that every write the
scorekeepers were told was saved is in the database (a write cut off mid-flight may be there
or not) and, on SQLite, that ``PRAGMA integrity_check`` says ok. The restarted server must
answer; the next round plays on. Like the load test it runs the app from a checkout as a
subprocess and imports nothing of it.

``make crash`` (``python -m bench.crash --rounds 5 --backend sqlite``); exits 1 on any loss.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from . import traffic
from .server import BACKENDS, Server, Unavailable, fresh_database
from .step import verify

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Tally:
    rounds: int = 0
    acknowledged: int = 0
    lost: int = 0
    cut_off: int = 0
    integrity_ok: int = 0
    integrity_checked: int = 0
    restarts_ok: int = 0

    def row(self, backend: str) -> tuple[str, str]:
        integrity = (
            f", integrity_check ok {self.integrity_ok}/{self.integrity_checked}"
            if self.integrity_checked
            else ""
        )
        return (
            f"crash ({backend}): SIGKILL mid-load, restart, verify",
            f"{self.rounds} rounds: {self.lost} of {self.acknowledged} acknowledged writes lost, "
            f"{self.cut_off} writes cut off unanswered, "
            f"{self.restarts_ok}/{self.rounds} restarts answered{integrity}",
        )

    @property
    def failed(self) -> bool:
        return (
            self.lost > 0
            or self.integrity_ok < self.integrity_checked
            or self.restarts_ok < self.rounds
        )


def integrity_ok(url: str) -> bool:
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        result = connection.execute("PRAGMA integrity_check").fetchone()
    return bool(result and result[0] == "ok")


def crash_rounds(
    backend: str, rounds: int, tables: int, seconds: float, checkout: Path = ROOT, seed: int = 7
) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    with fresh_database(checkout, backend) as url:
        for number in range(rounds):
            server = Server(checkout, url, access_log=False)
            server.start()
            killer = threading.Timer(rng.uniform(1.0, seconds - 1.0), server.kill)
            step = asyncio.run(
                traffic.run_tables(
                    server.port, tables, seconds, seed + number, 3, lambda: 0.0, killer.start
                )
            )
            killer.join()
            server.log.close()
            tally.rounds += 1
            restarted = Server(checkout, url, access_log=False)
            try:
                restarted.start()
                tally.restarts_ok += 1
                asyncio.run(verify(restarted.port, step))
            finally:
                restarted.stop()
                restarted.log.close()
            tally.acknowledged += step.acknowledged
            tally.lost += step.lost
            tally.cut_off += sum(game.unknown for game in step.games)
            if backend == "sqlite":
                tally.integrity_checked += 1
                tally.integrity_ok += integrity_ok(url)
    return tally


def run(rounds: int = 2) -> list[tuple[str, str]]:
    """``make bench``'s short version: two crashes on SQLite."""
    return [crash_rounds("sqlite", rounds, tables=8, seconds=4.0).row("sqlite")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0, help="load per round before the kill")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="sqlite")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="run the server from here")
    arguments = parser.parse_args()
    backends = BACKENDS if arguments.backend == "both" else (arguments.backend,)
    failed = False
    for backend in backends:
        try:
            tally = crash_rounds(
                backend,
                arguments.rounds,
                arguments.tables,
                arguments.seconds,
                arguments.checkout.resolve(),
            )
        except Unavailable as reason:
            print(f"crash ({backend}): skipped: {reason}")
            continue
        what, figure = tally.row(backend)
        print(f"{what}: {figure}")
        failed |= tally.failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
