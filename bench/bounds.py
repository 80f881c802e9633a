"""Bounded reads at 10,000 kept games: the games list, "export everything" (time, size and
the peak of memory allocated while it streams) and a round's history and a game's export
when the game has 150,000 audit entries.

On SQLite, and on PostgreSQL when ``BENCH_DATABASE_URL`` (or ``TEST_DATABASE_URL``) names
one (bench/databases.py: a schema of its own, dropped after), seeded as ``bench.stats`` seeds:
10,000 finished games of 4 players and 10 rounds, all kept by the bench's browser, then
150,000 audit entries in round 1 of one of them. Requests go through the test client, in
this process; each timing is the median of :data:`REPEAT`. Run with
``.venv/bin/python -m bench.bounds``.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html import unescape

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import ChangeRow

from . import print_rows
from .databases import BACKENDS, Unavailable, database
from .stats import BROWSER_KEY, seed

GAMES = 10_000
AUDIT_ENTRIES = 150_000
REPEAT = 3
_OLDER = re.compile(r'href="([^"]+)"[^>]*>Older games<')


def _timed(fetch: Callable[[], bytes]) -> tuple[float, int]:
    """The median seconds of ``fetch`` over :data:`REPEAT` runs, and the bytes it read."""
    times, size = [], 0
    for _ in range(REPEAT):
        begin = time.perf_counter()
        size = len(fetch())
        times.append(time.perf_counter() - begin)
    return statistics.median(times), size


def _peak(fetch: Callable[[], bytes]) -> int:
    """The peak of memory Python allocated while ``fetch`` ran (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        fetch()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _get(client: FlaskClient, path: str) -> Callable[[], bytes]:
    def fetch() -> bytes:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        return b"".join(response.iter_encoded())  # a streamed body is read piece by piece

    return fetch


def _long_trail(app: Flask, game_id: str) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    rows = [
        {
            "game_id": game_id,
            "round_number": 1,
            "kind": "bids",
            "changed_at": start + timedelta(seconds=n),
            "old": {"trump": None, "bids": [0, 0, 0, 0], "tricks": None},
            "new": {"trump": None, "bids": [n % 2, 0, 0, 0], "tricks": None},
        }
        for n in range(AUDIT_ENTRIES)
    ]
    with app.app_context():
        for chunk in range(0, len(rows), 20_000):
            db.session.execute(sa.insert(ChangeRow), rows[chunk : chunk + 20_000])
        db.session.commit()


def measure(backend: str) -> list[tuple[str, str]]:
    """Rows of (what was measured, figure) on one backend."""
    rows: list[tuple[str, str]] = []
    with database(backend) as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
        seed(app, GAMES)
        long_game = f"bench{0:019d}"
        _long_trail(app, long_game)
        client = app.test_client()
        with client.session_transaction() as session:
            session["device"] = BROWSER_KEY

        def row(what: str, path: str) -> None:
            seconds, size = _timed(_get(client, path))
            shown(f"{backend}: {what}", f"{seconds * 1000:,.0f} ms, {size / 1000:,.0f} kB")

        def shown(what: str, figure: str) -> None:
            rows.append((what, figure))
            print(f"{what}: {figure}", file=sys.stderr, flush=True)  # as it comes: runs are long

        row("games list, first page (10,000 kept)", "/")
        row("games list, ?shown=1000 (held to 50)", "/?shown=1000")
        row("games list, search ?q=strasse", "/?q=strasse")
        path, pages, begin = "/", 0, time.perf_counter()
        while path and pages < 50:
            found = _OLDER.search(_get(client, path)().decode())
            path, pages = (unescape(found.group(1)) if found else ""), pages + 1
        per_page = (time.perf_counter() - begin) / pages
        shown(f"{backend}: games list, {pages} pages on", f"{per_page * 1000:,.0f} ms a page")
        row("round history, 150,000 entries (a page)", f"/games/{long_game}/rounds/1/history")
        row("game export JSON, 150,000 entries", f"/games/{long_game}/export.json")
        row("game export API, 150,000 entries", f"/api/v1/games/{long_game}/export")
        everything = _get(client, "/export.json")
        begin = time.perf_counter()
        size = len(everything())
        seconds = time.perf_counter() - begin
        shown(
            f"{backend}: export everything (10,000 games)",
            f"{seconds:,.1f} s, {size / 1e6:,.0f} MB",
        )
        peak = _peak(everything)
        shown(f"{backend}: export everything, peak allocated", f"{peak / 1e6:,.1f} MB")
        with app.app_context():
            db.engine.dispose()
    return rows


def run() -> list[tuple[str, str]]:
    """Rows of (what was measured, figure) on every backend at hand."""
    rows: list[tuple[str, str]] = []
    for backend in BACKENDS:
        try:
            rows += measure(backend)
        except Unavailable as missing:
            print(f"note: {backend} skipped: {missing}", file=sys.stderr)
    return rows


if __name__ == "__main__":
    raise SystemExit(print_rows(run))
