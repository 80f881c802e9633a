"""Crashes: SIGKILL the server in the middle of the load, restart it, check every write.

Each of K rounds starts gunicorn on the same database, lets the tables and spectators of
``bench/load.py`` run for a random moment, SIGKILLs the master and all workers at once
(nothing flushed, nothing finished), starts gunicorn again, and checks that every write the
clients were told was saved is in the database (a write cut off mid-flight may be there or
not, never half) and, on SQLite, that ``PRAGMA integrity_check`` says ok. The restarted
server must answer; the next round plays on.

``make crash`` (``python -m bench.crash --rounds 5 --backend sqlite``); exits 1 on any loss.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import threading
from dataclasses import dataclass

from .databases import BACKENDS, Unavailable, database
from .load import Recorder, Server, Settings, drive, verify


@dataclass
class Tally:
    rounds: int = 0
    acknowledged: int = 0
    lost: int = 0
    in_flight_saved: int = 0
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
            f"{self.in_flight_saved} in-flight writes saved, "
            f"{self.restarts_ok}/{self.rounds} restarts answered{integrity}",
        )


def integrity_ok(url: str) -> bool:
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        result = connection.execute("PRAGMA integrity_check").fetchone()
    return bool(result and result[0] == "ok")


def crash_rounds(backend: str, rounds: int, settings: Settings, seed: int = 7) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    with database(backend) as url:
        for _ in range(rounds):
            server = Server(url, settings)
            server.start()
            recorder = Recorder(settings)
            # The load runs on; the kill comes at a random moment in its middle.
            killer = threading.Timer(rng.uniform(1.0, settings.seconds - 1.0), server.kill)
            killer.start()
            drive(server.port, settings, recorder)
            killer.join()
            server.log.close()
            tally.rounds += 1
            restarted = Server(url, settings)
            try:
                restarted.start()
                tally.restarts_ok += 1
            finally:
                restarted.stop()
                restarted.log.close()
            verdict = verify(url, recorder)
            tally.acknowledged += verdict.acknowledged
            tally.lost += verdict.lost
            tally.in_flight_saved += verdict.in_flight_saved
            for problem in verdict.problems:
                print(problem, file=sys.stderr)
            if backend == "sqlite":
                tally.integrity_checked += 1
                tally.integrity_ok += integrity_ok(url)
    return tally


def run(rounds: int = 2, backends: tuple[str, ...] = ("sqlite",)) -> list[tuple[str, str]]:
    """``make bench``'s short version: two crashes on SQLite."""
    settings = Settings(tables=4, spectators=4, seconds=4.0, max_requests=100_000)
    rows = []
    for backend in backends:
        try:
            rows.append(crash_rounds(backend, rounds, settings).row(backend))
        except Unavailable as reason:
            rows.append((f"crash ({backend})", f"skipped: {reason}"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0, help="load per round before the kill")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--spectators", type=int, default=8)
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="sqlite")
    arguments = parser.parse_args()
    settings = Settings(
        tables=arguments.tables,
        spectators=arguments.spectators,
        seconds=arguments.seconds,
        max_requests=1_000_000,
    )
    backends = BACKENDS if arguments.backend == "both" else (arguments.backend,)
    failed = False
    for backend in backends:
        try:
            tally = crash_rounds(backend, arguments.rounds, settings)
        except Unavailable as reason:
            print(f"crash ({backend}): skipped: {reason}")
            continue
        what, figure = tally.row(backend)
        print(f"{what}: {figure}")
        failed |= tally.lost > 0 or tally.integrity_ok < tally.integrity_checked
        failed |= tally.restarts_ok < tally.rounds
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
