"""The cost of one large import: ``POST /api/v1/import`` of 1,000 full games (about 15 MB,
each with its audit trail, as the page's export writes it) to gunicorn as ``make run``
starts it, with one worker, on loopback; meanwhile ``/healthz`` is asked every 0.2 s.

Measured: the import's answer and time, the worker's peak resident memory (``VmHWM``)
before and after, and the slowest ``/healthz`` answer during the import. Bounded: one
import, at most 120 s. ``.venv/bin/python -m bench.imports [checkout] [games]``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.export import one_game_document
from scorekeeper.services import games, rounds, sharing

from . import PLAYERS, start_game
from .server import Server, fresh_database

GAMES = 1000
TIMEOUT = 120.0
HEALTHZ_EVERY = 0.2


def full_game() -> dict[str, Any]:
    """One finished game of three players (20 rounds) with every write in its audit trail:
    the export of a game that was really played."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{folder}/bench.db", "TESTING": True})
        with app.app_context():
            upgrade(directory=str(Path(__file__).parent.parent / "migrations"))
        client = app.test_client()
        game_id, _csrf = start_game(client)
        with client.session_transaction() as session:
            browser = sharing.Browser(session["device"])
        seats = len(PLAYERS)
        with app.test_request_context():
            for number in range(1, 21):
                game = games.get_game(game_id)
                if not game.table.deals_every_card(number):
                    rounds.record_trump(game_id, browser, number, "blue")
                bids = [0] * seats
                if sum(bids) == number:  # the standard rule: the bids may not add up
                    bids[-1] = 1
                rounds.record_bids(game_id, browser, number, bids)
                rounds.record_tricks(game_id, browser, number, [number] + [0] * (seats - 1))
            return one_game_document(games.get_game(game_id))


def document(count: int = GAMES) -> bytes:
    """``count`` copies of a full game, each started a minute after the one before."""
    one = full_game()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    copies = []
    for index in range(count):
        game = json.loads(json.dumps(one["game"]))
        game["created_at"] = (start + timedelta(minutes=index)).isoformat()
        copies.append({"game": game, "audit": one["audit"]})
    body = {"schema_version": 1, "exported_at": start.isoformat(), "games": copies}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _peak_kib(pid: int) -> int:
    """The process's peak resident memory so far; 0 once it is gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith("VmHWM:")), 0)


def measure(checkout: Path, body: bytes, backend: str = "sqlite") -> dict[str, object]:
    with fresh_database(checkout, backend) as url:
        server = Server(checkout, url, workers=1, access_log=False)
        server.start()
        try:
            base = f"http://127.0.0.1:{server.port}"
            (worker,) = server.worker_pids()
            before = _peak_kib(worker)
            healthz: list[float] = []
            peak = [before]
            done = threading.Event()

            def poll() -> None:
                while not done.is_set():
                    peak.append(_peak_kib(worker))
                    start = time.perf_counter()
                    with contextlib.suppress(OSError):
                        urllib.request.urlopen(f"{base}/healthz", timeout=TIMEOUT).read()
                    healthz.append(time.perf_counter() - start)
                    done.wait(HEALTHZ_EVERY)

            poller = threading.Thread(target=poll)
            poller.start()
            request = urllib.request.Request(
                f"{base}/api/v1/import",
                data=body,
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            start, cpu = time.perf_counter(), server.cpu_seconds()
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                    status = answer.status
                    answer.read()
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError as error:  # the worker killed mid-request (gunicorn's timeout)
                status = type(error).__name__
            seconds = time.perf_counter() - start
            cpu = server.cpu_seconds() - cpu
            done.set()
            poller.join()
            return {
                "status": status,
                "seconds": seconds,
                "cpu": cpu,
                "load": os.getloadavg()[0],
                "peak_before_mb": before / 1024,
                "peak_after_mb": max(*peak, _peak_kib(worker)) / 1024,
                "healthz_max_s": max(healthz, default=0.0),
                "healthz_count": len(healthz),
            }
        finally:
            server.stop()
            server.log.close()


def run(count: int = GAMES, checkout: Path | None = None) -> list[tuple[str, str]]:
    body = document(count)
    figures = measure(checkout or Path(__file__).parent.parent, body)
    what = f"import of {count} full games ({len(body) / 1e6:.1f} MB)"
    return [
        (
            f"{what}: answer, time",
            f"{figures['status']}, {figures['seconds']:.1f} s "
            f"({figures['cpu']:.1f} s CPU; load average {figures['load']:.1f})",
        ),
        (
            f"{what}: worker peak RSS",
            f"{figures['peak_before_mb']:.0f} MB before, {figures['peak_after_mb']:.0f} MB after",
        ),
        (
            f"{what}: slowest /healthz during it",
            f"{figures['healthz_max_s']:.2f} s ({figures['healthz_count']} asked)",
        ),
    ]


def main() -> int:
    checkout = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    count = int(sys.argv[2]) if len(sys.argv) > 2 else GAMES
    for what, figure in run(count, checkout):
        print(f"{what}: {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
