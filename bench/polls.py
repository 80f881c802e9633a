"""Polls of the spectator page: 10 tables × 6 phones, each phone asking every 3 s.

Measured in-process with Flask's test client (one thread, no network, no server): the
figure is the app's own cost per poll, what a server would spend besides HTTP. The database
is a fresh SQLite file, or ``DATABASE_URL`` (e.g. PostgreSQL) when set — its tables are
written to, so give it a scratch database. Run alone with ``python -m bench.polls``.

- unchanged: every phone sends the tag it holds and gets 304 (the game did not change);
- after a change: every table's game changes once per sweep, so every phone gets the fragment.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.extensions import db

TABLES = 10
PHONES = 6
SWEEPS = 20  # every phone polls this many times per measurement
POLL_SECONDS = 3
NAMES = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"]
TRUMPS = ["blue", "green", "red", "yellow", "jester"]


@contextmanager
def _app() -> Iterator[Flask]:
    url = os.environ.get("DATABASE_URL")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{Path(folder) / 'polls.sqlite3'}",
                "SECRET_KEY": "bench",
                "INSTANCE_PATH": str(Path(folder) / "instance"),
            }
        )
        with app.app_context():
            upgrade()
        try:
            yield app
        finally:
            with app.app_context():
                db.engine.dispose()


def _tables(client: FlaskClient) -> list[tuple[str, str]]:
    games = []
    for _ in range(TABLES):
        answer = client.post("/api/v1/games", json={"players": NAMES}).get_json()
        games.append((answer["id"], answer["edit_token"]))
    return games


def _poll(phone: FlaskClient, game_id: str, etag: str | None) -> tuple[int, str, int]:
    headers = {"If-None-Match": etag} if etag else {}
    response = phone.get(f"/games/{game_id}/view/live", headers=headers)
    size = len(response.get_data())
    return response.status_code, response.headers["ETag"], size


def run() -> list[tuple[str, str]]:
    """Polls per second with and without changes, SQL statements and bytes per poll."""
    rows: list[tuple[str, str]] = []
    with _app() as app:
        admin = app.test_client()
        games = _tables(admin)
        phones = [[app.test_client() for _ in range(PHONES)] for _ in games]
        tags: dict[tuple[int, int], str] = {}
        for t, (game_id, _token) in enumerate(games):
            for p, phone in enumerate(phones[t]):
                # As a phone does: the page first (its session cookie remembers the game).
                phone.get(f"/games/{game_id}/view")
                tags[t, p] = _poll(phone, game_id, None)[1]

        statements: list[str] = []

        def count(*args: object) -> None:
            if not str(args[2]).startswith("BEGIN"):  # SQLite's transaction control
                statements.append(str(args[2]))

        with app.app_context():
            engine = db.engine
        event.listen(engine, "before_cursor_execute", count)
        polls = 0
        not_modified = 0
        quiet_bytes = 0
        started = time.perf_counter()
        for _ in range(SWEEPS):
            for t, (game_id, _token) in enumerate(games):
                for p, phone in enumerate(phones[t]):
                    status, _tag, size = _poll(phone, game_id, tags[t, p])
                    polls += 1
                    not_modified += status == 304
                    quiet_bytes += size
        quiet = time.perf_counter() - started
        quiet_statements = len(statements) / polls

        statements.clear()
        changed_polls = 0
        body_bytes = 0
        started = time.perf_counter()
        for sweep in range(SWEEPS):
            for t, (game_id, token) in enumerate(games):
                admin.put(
                    f"/api/v1/games/{game_id}/rounds/1/trump",
                    json={"turned": TRUMPS[sweep % len(TRUMPS)]},
                    headers={"Authorization": f"Bearer {token}"},
                )
                for p, phone in enumerate(phones[t]):
                    status, tags[t, p], size = _poll(phone, game_id, tags[t, p])
                    changed_polls += status == 200
                    body_bytes += size
        busy = time.perf_counter() - started
        event.remove(engine, "before_cursor_execute", count)
        backend = "PostgreSQL" if "postgresql" in str(engine.url) else "SQLite"

    demand = TABLES * PHONES / POLL_SECONDS
    rows.append(("setup", f"{TABLES} tables × {PHONES} phones, in-process test client, {backend}"))
    rows.append(("polls answered 304 (unchanged game)", f"{not_modified} of {polls}"))
    rows.append(("unchanged polls per second (one thread)", f"{polls / quiet:,.0f}"))
    rows.append(("SQL statements per unchanged poll", f"{quiet_statements:.2f}"))
    rows.append(("bytes per unchanged poll (body)", f"{quiet_bytes / polls:.0f}"))
    rows.append(
        (
            "polls per second after a change (write + 6 fragments per table)",
            f"{changed_polls / busy:,.0f}",
        )
    )
    rows.append(("bytes per changed poll (before gzip)", f"{body_bytes / changed_polls:,.0f}"))
    rows.append(
        (
            f"demand of {TABLES * PHONES} phones polling every {POLL_SECONDS} s",
            f"{demand:.0f} polls/s = {demand / (polls / quiet):.1%} of one thread when quiet",
        )
    )
    return rows


def main() -> None:
    for what, figure in run():
        print(f"{what:<66} {figure}")


if __name__ == "__main__":
    main()
