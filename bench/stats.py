"""The statistics page over 100 and over 10,000 finished games kept by one browser.

Seeds each database by bulk insert (4 players, 10 rounds a game, bids and tricks drawn at
random), then fetches ``/statistics`` through the test client several times and reports the
median time, the ratio of the two (goal: at most 3×) and the SQL statements a page costs
(goal: the same for both). Run with ``.venv/bin/python -m bench.stats``; SQLite in a
temporary folder.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Entry, Game, Grant, Player, Round
from scorekeeper.service import Device

SMALL = 100
LARGE = 10_000
PLAYERS = 4
ROUNDS = 10
REPEAT = 5
NAMES = ["Ann", "Bob", "Cy", "Dora", "Eve", "Finn", "Gus", "Hal"]
DEVICE_KEY = "bench-device-key"


def _app(url: str) -> Flask:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
    return app


def _tricks(rng: random.Random, cards: int) -> list[int]:
    counts = [0] * PLAYERS
    for _trick in range(cards):
        counts[rng.randrange(PLAYERS)] += 1
    return counts


def seed(app: Flask, games: int, seed_value: int = 7) -> None:
    """``games`` finished games, all kept by the bench's browser, in a few bulk inserts."""
    rng = random.Random(seed_value)
    device_hash = Device(DEVICE_KEY).hash
    start = datetime(2026, 1, 1, tzinfo=UTC)
    game_rows, player_rows, round_rows, entry_rows, grant_rows = [], [], [], [], []
    for number in range(games):
        game_id = f"bench{number:019d}"
        moment = start + timedelta(minutes=number)
        game_rows.append(
            {
                "id": game_id,
                "edit_token_hash": "0" * 64,
                "version": 1,
                "first_dealer": 0,
                "bid_rule": "standard",
                "last_bidder_may_bid_zero": False,
                "bid_reveal": "open",
                "clairvoyance": False,
                "round_count": ROUNDS,
                "created_at": moment,
                "updated_at": moment,
            }
        )
        grant_rows.append({"device_hash": device_hash, "game_id": game_id, "created_at": moment})
        for seat, name in enumerate(rng.sample(NAMES, PLAYERS)):
            player_rows.append({"game_id": game_id, "seat": seat, "name": name})
        for round_number in range(1, ROUNDS + 1):
            round_rows.append(
                {
                    "game_id": game_id,
                    "number": round_number,
                    "trump_turned": "blue",
                    "trump_suit": "blue",
                }
            )
            tricks = _tricks(rng, round_number)
            for seat in range(PLAYERS):
                bid = tricks[seat] if rng.random() < 0.4 else rng.randint(0, round_number)
                entry_rows.append(
                    {
                        "game_id": game_id,
                        "round_number": round_number,
                        "seat": seat,
                        "bid": bid,
                        "tricks": tricks[seat],
                    }
                )
    with app.app_context():
        for model, rows in (
            (Game, game_rows),
            (Grant, grant_rows),
            (Player, player_rows),
            (Round, round_rows),
            (Entry, entry_rows),
        ):
            for chunk in range(0, len(rows), 20_000):
                db.session.execute(sa.insert(model), rows[chunk : chunk + 20_000])
        db.session.commit()
        db.session.execute(sa.text("ANALYZE"))  # fresh planner statistics, as a live db has
        db.session.commit()


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if not statement.startswith("BEGIN"):
            statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def measure(app: Flask) -> tuple[float, int]:
    """The median seconds of ``/statistics`` over :data:`REPEAT` fetches, and its statements."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["device"] = DEVICE_KEY
    assert client.get("/statistics").status_code == 200  # warm the caches once
    times = []
    for _ in range(REPEAT):
        begin = time.perf_counter()
        response = client.get("/statistics")
        times.append(time.perf_counter() - begin)
        assert response.status_code == 200
    with counted(app) as statements:
        client.get("/statistics")
    return statistics.median(times), len(statements)


def run() -> list[tuple[str, str]]:
    """Rows of (what was measured, figure)."""
    rows: list[tuple[str, str]] = []
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for games in (SMALL, LARGE):
            app = _app(f"sqlite:///{Path(folder) / f'stats{games}.sqlite3'}")
            begin = time.perf_counter()
            seed(app, games)
            rows.append(
                (f"seeding {games} games (bulk insert)", f"{time.perf_counter() - begin:.1f} s")
            )
            seconds, count = measure(app)
            results[games] = (seconds, count)
            rows.append(
                (f"statistics page, {games} games, median of {REPEAT}", f"{seconds * 1000:.1f} ms")
            )
            rows.append((f"statistics page, {games} games, SQL statements", str(count)))
            with app.app_context():
                db.engine.dispose()
    ratio = results[LARGE][0] / results[SMALL][0]
    rows.append((f"time ratio {LARGE} / {SMALL} games (goal ≤ 3)", f"{ratio:.1f}×"))
    same = results[LARGE][1] == results[SMALL][1]
    rows.append(("statements constant in the number of games", "yes" if same else "NO"))
    return rows


if __name__ == "__main__":
    for what, figure in run():
        print(f"{what:<55} {figure}")
