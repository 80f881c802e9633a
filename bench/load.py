"""Load: gunicorn (gthread) on loopback, N tables playing whole games through the API and M
spectators polling them, for a bounded time and number of requests.

It reports requests per second and p50/p95/p99 per endpoint, the errors, and afterwards
checks in the database that every acknowledged write is there. The no-op route
``/healthz`` is polled in the same run, so the write latency can be given as a ratio to it
(target: write p50 within 2× the no-op's). ``make bench`` runs a small load on each backend;
``make load`` a longer one (``python -m bench.load --help``). ``bench/crash.py`` uses the same
machinery with a SIGKILL in the middle.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper import api, create_app, service
from scorekeeper.extensions import db

from .databases import BACKENDS, Unavailable, database

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = Path(sys.executable).with_name("gunicorn")
PLAYERS = ["Ann", "Bob", "Cy"]
TRUMPS = [{"turned": "blue"}, {"turned": "jester"}, {"turned": "wizard", "chosen": "red"}]
WRITES = ("POST /api/v1/games", "PUT trump", "PUT bids", "PUT tricks")
NOOP = "GET /healthz"


@dataclass
class Settings:
    """How big and how long."""

    tables: int = 4
    spectators: int = 8
    seconds: float = 15.0
    max_requests: int = 5000
    workers: int = 2
    threads: int = 4
    poll_interval: float = 0.5  # seconds between a spectator's polls
    noop_interval: float = 0.05  # seconds between no-op requests
    rounds: int = 20  # rounds per game (20: the full 3-player game)


# -- The server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """gunicorn serving the app on a database, in a process group of its own."""

    def __init__(self, url: str, settings: Settings, port: int | None = None) -> None:
        self.url = url
        self.settings = settings
        self.port = port or free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="tablet-gunicorn-", suffix=".log")  # noqa: SIM115
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "SECRET_KEY": "load-test",
            # The tables all start their games from 127.0.0.1.
            "RATELIMIT_ENABLED": "false",
        }
        command = [
            str(GUNICORN),
            "--worker-class", "gthread",
            "--workers", str(self.settings.workers),
            "--threads", str(self.settings.threads),
            "--bind", f"127.0.0.1:{self.port}",
            "--keep-alive", "10",
            "--log-level", "warning",
            "scorekeeper:create_app()",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.output()}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    connection.close()
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within 30 s: {self.output()}")

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-2000:]

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: nothing is flushed or finished."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def serving(url: str, settings: Settings) -> Iterator[Server]:
    server = Server(url, settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.log.close()


# -- What the clients saw ------------------------------------------------------------------


@dataclass
class GameLedger:
    """One game as its table knows it: the last acknowledged state, and a write in flight."""

    token: str
    version: int
    rounds: list[dict[str, Any]]
    pending: tuple[int, str, Any] | None = None  # (round, what, request body)
    acknowledged: int = 0


@dataclass
class Recorder:
    """Timings, errors and the ledger of every game, shared by the client threads."""

    settings: Settings
    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    games: dict[str, GameLedger] = field(default_factory=dict)
    requests: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, endpoint: str, seconds: float) -> None:
        with self.lock:
            self.timings[endpoint].append(seconds)
            self.requests += 1
            if self.requests >= self.settings.max_requests:
                self.stop.set()

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


class Client:
    """One keep-alive connection; each request timed and recorded."""

    def __init__(self, port: int, recorder: Recorder) -> None:
        self.port = port
        self.recorder = recorder
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(
        self,
        endpoint: str,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        data = None if body is None else json.dumps(body).encode()
        headers = dict(headers or {})
        if data is not None:
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            raise
        self.recorder.record(endpoint, time.perf_counter() - start)
        return response.status, dict(response.getheaders()), payload


def _trump_json(body: dict[str, Any]) -> dict[str, Any]:
    suit = body.get("chosen") if body["turned"] == "wizard" else body["turned"]
    return {"turned": body["turned"], "suit": None if suit == "jester" else suit}


def play_table(port: int, recorder: Recorder, seed: int) -> None:
    """Play whole games through the API until told to stop."""
    rng = random.Random(seed)
    client = Client(port, recorder)
    rounds = recorder.settings.rounds
    while not recorder.stop.is_set():
        try:
            status, _headers, payload = client.send(
                "POST /api/v1/games",
                "POST",
                "/api/v1/games",
                {"players": PLAYERS, "rules": {"rounds": rounds}},
            )
        except (OSError, http.client.HTTPException) as error:
            recorder.error(f"POST /api/v1/games: {error!r}")
            return
        if status != 201:
            recorder.error(f"POST /api/v1/games: {status} {payload[:200]!r}")
            return
        game = json.loads(payload)
        ledger = GameLedger(game["edit_token"], game["version"], game["rounds"])
        with recorder.lock:
            recorder.games[game["id"]] = ledger
        for number in range(1, rounds + 1):
            cards = number
            bids = [rng.randint(0, cards) for _ in PLAYERS]
            tricks = [0] * len(PLAYERS)
            tricks[rng.randrange(len(PLAYERS))] = cards
            steps: list[tuple[str, Any]] = []
            if ledger.rounds[number - 1]["state"] == "trump":
                steps.append(("trump", rng.choice(TRUMPS)))
            steps += [("bids", {"bids": bids}), ("tricks", {"tricks": tricks})]
            for what, body in steps:
                if recorder.stop.is_set():
                    return
                if not write(client, recorder, game["id"], ledger, number, what, body):
                    return


def write(
    client: Client,
    recorder: Recorder,
    game_id: str,
    ledger: GameLedger,
    number: int,
    what: str,
    body: Any,
) -> bool:
    """One PUT based on the version last seen; the ledger keeps what was acknowledged."""
    headers = {"Authorization": f"Bearer {ledger.token}", "If-Match": f'"{ledger.version}"'}
    ledger.pending = (number, what, body)
    path = f"/api/v1/games/{game_id}/rounds/{number}/{what}"
    try:
        status, _headers, payload = client.send(f"PUT {what}", "PUT", path, body, headers)
    except (OSError, http.client.HTTPException) as error:
        recorder.error(f"PUT {what}: {error!r}")
        return False
    if status != 200:
        recorder.error(f"PUT {what}: {status} {payload[:200]!r}")
        return False
    game = json.loads(payload)
    ledger.version = game["version"]
    ledger.rounds = game["rounds"]
    ledger.pending = None
    ledger.acknowledged += 1
    return True


def spectate(port: int, recorder: Recorder, seed: int) -> None:
    """Poll a game as a spectator's phone does: If-None-Match with the last ETag."""
    rng = random.Random(seed)
    client = Client(port, recorder)
    etags: dict[str, str] = {}
    while not recorder.stop.wait(recorder.settings.poll_interval):
        with recorder.lock:
            ids = list(recorder.games)
        if not ids:
            continue
        game_id = rng.choice(ids[-recorder.settings.tables :])
        headers = {"If-None-Match": etags[game_id]} if game_id in etags else {}
        try:
            status, answer, payload = client.send(
                "GET game", "GET", f"/api/v1/games/{game_id}", None, headers
            )
        except (OSError, http.client.HTTPException) as error:
            recorder.error(f"GET game: {error!r}")
            return
        if status == 200:
            etags[game_id] = answer.get("ETag", "")
        elif status != 304:
            recorder.error(f"GET game: {status} {payload[:200]!r}")


def noop(port: int, recorder: Recorder) -> None:
    client = Client(port, recorder)
    while not recorder.stop.wait(recorder.settings.noop_interval):
        try:
            status, _headers, _payload = client.send(NOOP, "GET", "/healthz")
        except (OSError, http.client.HTTPException) as error:
            recorder.error(f"{NOOP}: {error!r}")
            return
        if status != 200:
            recorder.error(f"{NOOP}: {status}")


def drive(
    port: int, settings: Settings, recorder: Recorder | None = None
) -> tuple[Recorder, float]:
    """Run the tables, spectators and no-op poller until time or requests run out."""
    recorder = recorder or Recorder(settings)
    threads = [
        threading.Thread(target=play_table, args=(port, recorder, n))
        for n in range(settings.tables)
    ]
    threads += [
        threading.Thread(target=spectate, args=(port, recorder, 1000 + n))
        for n in range(settings.spectators)
    ]
    threads.append(threading.Thread(target=noop, args=(port, recorder)))
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    recorder.stop.wait(settings.seconds)
    recorder.stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return recorder, time.perf_counter() - start


# -- Afterwards: is every acknowledged write in the database? ------------------------------


@dataclass
class Verdict:
    games: int = 0
    acknowledged: int = 0
    lost: int = 0
    in_flight_saved: int = 0  # writes cut off by a crash that had been committed all the same
    problems: list[str] = field(default_factory=list)


def _with_pending(
    rounds: list[dict[str, Any]], pending: tuple[int, str, Any]
) -> list[dict[str, Any]]:
    number, what, body = pending
    expected = json.loads(json.dumps(rounds))
    if what == "trump":
        expected[number - 1]["trump"] = _trump_json(body)
    else:
        expected[number - 1][what] = body[what]
    return expected


def _facts(rounds: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The recorded facts of each round (what a write sets), without derived fields."""
    return [(r["number"], json.dumps(r["trump"]), r["bids"], r["tricks"]) for r in rounds]


def verify(url: str, recorder: Recorder) -> Verdict:
    """Read every game the tables played straight from the database and compare."""
    verdict = Verdict()
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "verify"})
    try:
        with app.test_request_context():
            for game_id, ledger in recorder.games.items():
                verdict.games += 1
                verdict.acknowledged += ledger.acknowledged
                stored = api.game_json(service.get_game(game_id))
                if stored["version"] == ledger.version and _facts(stored["rounds"]) == _facts(
                    ledger.rounds
                ):
                    continue
                if (
                    ledger.pending is not None
                    and stored["version"] == ledger.version + 1
                    and _facts(stored["rounds"])
                    == _facts(_with_pending(ledger.rounds, ledger.pending))
                ):
                    verdict.in_flight_saved += 1
                    continue
                verdict.lost += 1
                verdict.problems.append(
                    f"game {game_id}: acknowledged version {ledger.version}, "
                    f"stored {stored['version']}"
                )
    finally:
        with app.app_context():
            db.engine.dispose()
    return verdict


# -- Figures -------------------------------------------------------------------------------


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95, p99 in milliseconds."""
    if len(samples) < 2:
        value = samples[0] * 1000 if samples else float("nan")
        return value, value, value
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return statistics.median(samples) * 1000, cuts[94] * 1000, cuts[98] * 1000


def rows_for(
    backend: str, settings: Settings, recorder: Recorder, elapsed: float, verdict: Verdict
) -> list[tuple[str, str]]:
    label = f"load ({backend})"
    rows = [
        (
            f"{label}: {settings.tables} tables, {settings.spectators} spectators, "
            f"gunicorn {settings.workers}×{settings.threads} gthread",
            f"{recorder.requests} requests in {elapsed:.1f} s "
            f"= {recorder.requests / elapsed:.0f} req/s",
        ),
        (
            f"{label}: errors",
            str(len(recorder.errors))
            + (f" (first: {recorder.errors[0]})" if recorder.errors else ""),
        ),
        (
            f"{label}: acknowledged writes missing from the database",
            f"{verdict.lost} of {verdict.acknowledged} in {verdict.games} games",
        ),
    ]
    for endpoint in sorted(recorder.timings):
        samples = recorder.timings[endpoint]
        p50, p95, p99 = percentiles(samples)
        rows.append(
            (
                f"{label}: {endpoint}",
                f"n={len(samples)}  p50 {p50:.1f}  p95 {p95:.1f}  p99 {p99:.1f} ms",
            )
        )
    writes = [t for endpoint in WRITES[1:] for t in recorder.timings.get(endpoint, [])]
    if writes and recorder.timings.get(NOOP):
        ratio = statistics.median(writes) / statistics.median(recorder.timings[NOOP])
        rows.append((f"{label}: write p50 / no-op p50", f"{ratio:.1f}× (target ≤ 2×)"))
    return rows


def load(backend: str, settings: Settings) -> list[tuple[str, str]]:
    with database(backend) as url, serving(url, settings) as server:
        recorder, elapsed = drive(server.port, settings)
        server.stop()
        return rows_for(backend, settings, recorder, elapsed, verify(url, recorder))


def run(settings: Settings | None = None) -> list[tuple[str, str]]:
    settings = settings or Settings()
    rows: list[tuple[str, str]] = []
    for backend in BACKENDS:
        try:
            rows += load(backend, settings)
        except Unavailable as reason:
            rows.append((f"load ({backend})", f"skipped: {reason}"))
    return rows


def main() -> int:
    defaults = Settings(tables=8, spectators=32, seconds=60, max_requests=50_000)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, value in vars(defaults).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    arguments = vars(parser.parse_args())
    backend = arguments.pop("backend")
    settings = Settings(**arguments)
    rows: list[tuple[str, str]] = []
    for name in BACKENDS if backend == "both" else [backend]:
        try:
            rows += load(name, settings)
        except Unavailable as reason:
            rows.append((f"load ({name})", f"skipped: {reason}"))
    for what, figure in rows:
        print(f"{what}: {figure}")
    return 0 if all("errors" not in w or f == "0" for w, f in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
