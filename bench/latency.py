"""Latency of reads and writes in-process, as ratios to the no-op route ``/healthz``.

Each request is timed through the Flask test client (no network, no server), on a fresh
SQLite file and, when ``BENCH_DATABASE_URL`` or ``TEST_DATABASE_URL`` names one, on
PostgreSQL. The figure is the median of many; the ratio says what the app's own work costs
beyond Flask's, independent of the machine's speed.
"""

from __future__ import annotations

import itertools
import re
import statistics
import sys
import time
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db

from . import print_rows, start_game
from .databases import BACKENDS, Unavailable, database

REPEATS = 200
_VERSION = re.compile(r'name="version" value="(\d+)"')


def medians_ms(requests: dict[str, Callable[[], int]], repeats: int = REPEATS) -> dict[str, float]:
    """The median time of each request (a callable returning its status), in milliseconds.

    The kinds take turns, one request each, so a busy moment of the machine falls on all
    of them alike rather than on whichever was being measured then.
    """
    times: dict[str, list[float]] = {what: [] for what in requests}
    for _ in range(repeats):
        for what, request in requests.items():
            start = time.perf_counter()
            status = request()
            times[what].append(time.perf_counter() - start)
            assert status < 400, (what, status)
    return {what: statistics.median(samples) * 1000 for what, samples in times.items()}


def measure(app: Flask) -> dict[str, float]:
    """Median milliseconds per kind of request."""
    client: FlaskClient = app.test_client()
    created = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    game_id, token = created["id"], created["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    base = f"/api/v1/games/{game_id}"
    client.put(f"{base}/rounds/1/trump", json={"turned": "blue"}, headers=auth)
    bids = itertools.cycle([[0, 1, 0], [1, 0, 0]])

    phone = app.test_client()
    page_game, csrf = start_game(phone)
    round_path = f"/games/{page_game}/rounds/1"
    version = int(_VERSION.findall(phone.get(round_path).get_data(as_text=True))[0])
    phone.post(
        round_path,
        data={"csrf_token": csrf, "version": version, "action": "trump", "turned": "red"},
    )
    values = itertools.cycle([0, 1])

    def tap() -> int:
        number = phone.get(f"/api/v1/games/{page_game}").get_json()["version"]
        data = {"csrf_token": csrf, "version": number, "action": "bid", "seat": 1}
        return phone.post(round_path, data={**data, "value": next(values)}).status_code

    version_read = f"/api/v1/games/{page_game}"
    results = medians_ms(
        {
            "no-op GET /healthz": lambda: client.get("/healthz").status_code,
            "read: GET game (API)": lambda: client.get(base).status_code,
            "read: round screen (page)": lambda: phone.get(round_path).status_code,
            "read: sheet (page)": lambda: phone.get(f"/games/{page_game}/sheet").status_code,
            "write: PUT bids (API)": lambda: (
                client.put(
                    f"{base}/rounds/1/bids", json={"bids": next(bids)}, headers=auth
                ).status_code
            ),
            "write: bid tap (form POST)": tap,
            "version read": lambda: phone.get(version_read).status_code,
        }
    )
    # The tap's figure includes the version read it makes first; that read is taken off.
    results["write: bid tap (form POST)"] -= results.pop("version read")
    return results


def run() -> list[tuple[str, str]]:
    rows = []
    for backend in BACKENDS:
        try:
            with database(backend) as url:
                app = create_app(
                    {
                        "SQLALCHEMY_DATABASE_URI": url,
                        "SECRET_KEY": "bench",
                        "RATELIMIT_ENABLED": False,
                    }
                )
                results = measure(app)
                with app.app_context():
                    db.engine.dispose()
        except Unavailable as reason:
            rows.append((f"latency ({backend})", f"skipped: {reason}"))
            continue
        noop = results["no-op GET /healthz"]
        for what, ms in results.items():
            rows.append(
                (f"{what} ({backend}, in-process p50)", f"{ms:.2f} ms = {ms / noop:.1f}× no-op")
            )
    return rows


if __name__ == "__main__":
    sys.exit(print_rows(run))
