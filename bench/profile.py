"""Where the server's time goes under the capacity benchmark's load: py-spy, with native
frames, samples each gunicorn worker while T tables play (bench/traffic.py, the keeper a
phone or ``--keeper api``), and the workers' user and system CPU are read from /proc. The
samples are split by what the worker was doing (the part of a request) and by the layer of
the innermost frame. ``python -m bench.profile --tables 100``; needs py-spy
(``pip install py-spy``), on this machine's Linux; docs/performance.md."""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from . import traffic
from .server import CLOCK_TICKS, Server, fresh_database, serving

ROOT = Path(__file__).resolve().parents[1]

#: A sample's part: the first of these found in its stack, outermost frames first.
PARTS = (
    ("the tap's next screen drawn", re.compile(r"_render_round \(")),
    ("the tap's write", re.compile(r"round_action \(")),
    ("the API's answer (the game)", re.compile(r"write_answer \(|game_response \(")),
    ("the API's write", re.compile(r"scorekeeper/api/rounds\.py")),
    ("followers' streams", re.compile(r"scorekeeper/(web/live|push)\.py")),
    ("polls of the live part", re.compile(r"scorekeeper/web/(games|following)\.py")),
    ("the new-game page", re.compile(r"scorekeeper/web/games\.py")),
    ("other requests", re.compile(r"Flask\.wsgi_app")),
)
#: The innermost frame of a worker waiting for something to do.
IDLE = re.compile(r"^(epoll_wait|epoll_pwait) ")
#: A sample's layer, by the file of its innermost frame.
LAYERS = (
    ("SQLite, PostgreSQL (C)", re.compile(r"libsqlite|_sqlite|libpq|psycopg")),
    ("SQLAlchemy", re.compile(r"sqlalchemy")),
    ("templates (Jinja, MarkupSafe)", re.compile(r"jinja2|markupsafe|\.html")),
    ("the app (rules, services, pages)", re.compile(r"scorekeeper/")),
    ("Flask, Werkzeug, WTForms, Babel", re.compile(r"flask|werkzeug|wtforms|babel")),
    ("gevent, greenlet, gunicorn", re.compile(r"gevent|greenlet|gunicorn")),
    ("pydantic, JSON", re.compile(r"pydantic|json")),
    ("the interpreter (CPython, its GC)", re.compile(r"libpython|\.c:\d|\.h:\d")),
    ("system calls, libc", re.compile(r"libc\.so|ld-linux")),
)


def _py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise SystemExit("py-spy is missing: pip install py-spy (into this .venv)")
    return found


def _split(stacks: list[tuple[list[str], int]]) -> tuple[Counter[str], Counter[str], int]:
    parts: Counter[str] = Counter()
    layers: Counter[str] = Counter()
    total = 0
    for frames, count in stacks:
        if frames and IDLE.search(frames[-1]):
            continue  # the event loop waiting for work
        total += count
        joined = ";".join(frames)
        parts[
            next((name for name, found in PARTS if found.search(joined)), "gunicorn, gevent")
        ] += count
        leaf = frames[-1] if frames else ""
        layers[next((name for name, found in LAYERS if found.search(leaf)), "other")] += count
    return parts, layers, total


def _read(path: Path) -> list[tuple[list[str], int]]:
    stacks = []
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if count.isdigit():
            stacks.append((stack.split(";"), int(count)))
    return stacks


def _user_system(server: Server) -> tuple[float, float]:
    user = system = 0
    for pid in server.worker_pids():
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        user, system = user + int(fields[11]), system + int(fields[12])
    return user / CLOCK_TICKS, system / CLOCK_TICKS


def profile(backend: str, tables: int, seconds: float, keeper: str) -> list[str]:
    """The load's step, sampled; the report's lines."""
    spy = _py_spy()
    with tempfile.TemporaryDirectory(prefix="tablet-profile-") as folder:
        outputs: list[Path] = []
        spies: list[subprocess.Popen[bytes]] = []
        with fresh_database(ROOT, backend) as url, serving(ROOT, url) as server:
            cpu_before: list[tuple[float, float]] = []

            def start() -> None:
                cpu_before.append(_user_system(server))
                for pid in server.worker_pids():
                    outputs.append(Path(folder) / f"{pid}.txt")
                    command = [spy, "record", "--native", "--format", "raw", "--rate", "250"]
                    command += ["--pid", str(pid), "--duration", str(int(seconds))]
                    command += ["--output", str(outputs[-1])]
                    spies.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))

            step = asyncio.run(
                traffic.run_tables(
                    server.port, tables, seconds, 1, 10, server.cpu_seconds, start, None, keeper
                )
            )
            cpu_after = _user_system(server)
            for process in spies:
                process.wait(timeout=seconds + 60)
        stacks = [stack for path in outputs if path.exists() for stack in _read(path)]
    parts, layers, total = _split(stacks)
    user = cpu_after[0] - cpu_before[0][0]
    system = cpu_after[1] - cpu_before[0][1]
    return [
        f"{backend}, {tables} tables, keeper {keeper}: {step.summary()}",
        f"workers' CPU: user {user:.1f} s, system {system:.1f} s "
        f"({100 * system / max(user + system, 1e-9):.0f} % system), {total} busy samples",
        "by part of a request:",
        *(f"  {100 * n / total:5.1f} %  {name}" for name, n in parts.most_common()),
        "by layer (the innermost frame):",
        *(f"  {100 * n / total:5.1f} %  {name}" for name, n in layers.most_common()),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--keeper", choices=("phone", "api"), default="phone")
    arguments = parser.parse_args(argv)
    for line in profile(arguments.backend, arguments.tables, arguments.seconds, arguments.keeper):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
