"""The server under test, run from a checkout as a subprocess: a fresh database built by the
checkout's own migrations, gunicorn started as ``make run`` starts it, and the CPU its
processes used. Nothing of the app is imported here: old and new checkouts are measured
by the same code, each with its own ``.venv``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

BACKENDS = ("sqlite", "postgresql")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Unavailable(Exception):
    """The backend cannot be had here (no PostgreSQL configured or reachable)."""


def postgres_base_url() -> str:
    """The PostgreSQL database the benchmarks may use (each run takes a schema of its own);
    never the shared ``test`` database."""
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL")
    if not url:
        raise Unavailable("set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL database")
    return url


def commit_of(checkout: Path) -> str:
    """The checkout's commit, short, with ``+`` when its work tree has changes."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return commit + ("+" if dirty else "")


def _psql(base: str, sql: str) -> None:
    try:
        subprocess.run(
            ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", base, "-c", sql],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        raise Unavailable(f"cannot reach PostgreSQL: {detail.strip()}") from error


def migrate(checkout: Path, url: str) -> None:
    """Build the schema at ``url`` with the checkout's migrations, as ``make run`` does."""
    flask = checkout / ".venv" / "bin" / "flask"
    subprocess.run(
        [str(flask), "--app", "scorekeeper:create_app", "db", "upgrade"],
        cwd=checkout,
        env={**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench"},
        capture_output=True,
        check=True,
    )


@contextmanager
def fresh_database(checkout: Path, backend: str) -> Iterator[str]:
    """A new database on ``backend`` built by the checkout's migrations; its URL. A SQLite
    file in a temporary folder, or a PostgreSQL schema of its own (dropped on leaving)."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="tablet-bench-") as folder:
            url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            migrate(checkout, url)
            yield url
        return
    base = postgres_base_url()
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    _psql(base, f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in base else "?"
    url = f"{base}{separator}options={quote(f'-c search_path={schema}')}"
    try:
        migrate(checkout, url)
        yield url
    finally:
        _psql(base, f"DROP SCHEMA {schema} CASCADE")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """gunicorn serving the checkout's app on a database, in a process group of its own:
    the ``make run`` command line (gunicorn.conf.py, 2 workers), on loopback,
    without the access log unless asked, rate limits off (every table comes from 127.0.0.1)."""

    def __init__(
        self, checkout: Path, url: str, *, workers: int = 2, threads: int = 4, access_log: bool
    ) -> None:
        self.checkout = checkout
        self.url = url
        self.workers = workers
        self.threads = threads
        self.access_log = access_log
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="tablet-gunicorn-", suffix=".log")  # noqa: SIM115
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "SECRET_KEY": "load-test",
            "RATELIMIT_ENABLED": "false",
        }
        command = [
            str(self.checkout / ".venv" / "bin" / "gunicorn"),
            "--bind", f"127.0.0.1:{self.port}",
            "--workers", str(self.workers),
            "--threads", str(self.threads),
            *(["--access-logfile", "-"] if self.access_log else []),
            "scorekeeper:create_app()",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            cwd=self.checkout,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.output()}")
            try:
                address = f"http://127.0.0.1:{self.port}/healthz"
                with urllib.request.urlopen(address, timeout=2) as answer:
                    if answer.status == 200 and len(self.worker_pids()) >= self.workers:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within 60 s: {self.output()}")

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-2000:]

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        pid = self.process.pid
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            return []
        return [int(child) for child in children]

    def cpu_seconds(self) -> float:
        """User and system CPU of the master and its workers so far."""
        assert self.process is not None
        ticks = 0
        for pid in [self.process.pid, *self.worker_pids()]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        return ticks / CLOCK_TICKS

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
def serving(checkout: Path, url: str, *, access_log: bool = False) -> Iterator[Server]:
    server = Server(checkout, url, access_log=access_log)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server.log.close()
