"""The statistics page as the database grows from 100 to 10,000 finished games.

Three databases, seeded by bulk insert (4 players, 10 rounds a game, bids and tricks drawn at
random): 100 games, all kept by the bench's browser; 10,000 games of which that browser keeps
100 (a hosted instance where many tables play: the page must cost what this browser's games
cost, not what the whole database holds; goal: at most 3× the first); and 10,000 games all
kept by one browser (reported: every statistic is aggregated afresh from the bids and tricks,
as RULES.md forbids storing a derived score, so this grows with the games). Each page is
fetched through the test client several times (median), and its SQL statements counted
(goal: the same number for all three). Run with ``.venv/bin/python -m bench.stats``; SQLite
in a temporary folder, or the PostgreSQL database named by ``BENCH_DATABASE_URL`` (which the
bench empties before each scenario: give it a database of its own).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.database import normalize_url
from scorekeeper.extensions import db
from scorekeeper.models import EntryRow, GameRow, KeeperRow, PlayerRow, RoundRow
from scorekeeper.services.sharing import Browser

from .queries import counted

SMALL = 100
LARGE = 10_000
PLAYERS = 4
ROUNDS = 10
REPEAT = 5
NAMES = ["Ann", "Bob", "Cy", "Dora", "Eve", "Finn", "Gus", "Hal"]
BROWSER_KEY = "bench-browser-key"


def _app(url: str) -> Flask:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    with app.app_context():
        upgrade()
    return app


def _database(folder: str, name: str) -> str:
    """A fresh, empty database for one scenario: a SQLite file, or the PostgreSQL database
    of ``BENCH_DATABASE_URL`` with its tables dropped."""
    url = os.environ.get("BENCH_DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(folder) / f'{name}.sqlite3'}"
    url = normalize_url(url)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP SCHEMA public CASCADE"))
        connection.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()
    return url


def _tricks(rng: random.Random, cards: int) -> list[int]:
    counts = [0] * PLAYERS
    for _trick in range(cards):
        counts[rng.randrange(PLAYERS)] += 1
    return counts


def seed(app: Flask, games: int, kept: int | None = None, seed_value: int = 7) -> None:
    """``games`` finished games in a few bulk inserts; the bench's browser keeps ``kept`` of
    them (all by default), spread evenly among the others, which other browsers keep."""
    rng = random.Random(seed_value)
    browser_hash = Browser(BROWSER_KEY).hash
    others = [Browser(f"other-browser-{number}").hash for number in range(97)]
    every = games // (kept or games)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    game_rows, player_rows, round_rows, entry_rows, keeper_rows = [], [], [], [], []
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
        keeper = browser_hash if number % every == 0 else others[number % len(others)]
        keeper_rows.append({"browser_hash": keeper, "game_id": game_id, "created_at": moment})
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
            (GameRow, game_rows),
            (KeeperRow, keeper_rows),
            (PlayerRow, player_rows),
            (RoundRow, round_rows),
            (EntryRow, entry_rows),
        ):
            for chunk in range(0, len(rows), 20_000):
                db.session.execute(sa.insert(model), rows[chunk : chunk + 20_000])
        db.session.commit()
        db.session.execute(sa.text("ANALYZE"))  # fresh planner statistics, as a live db has
        db.session.commit()


def measure(app: Flask) -> tuple[float, int]:
    """The median seconds of ``/statistics`` over :data:`REPEAT` fetches, and its statements."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["device"] = BROWSER_KEY
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


#: (label, games in the database, games the bench's browser keeps)
SCENARIOS = [
    (f"{SMALL} games, all kept", SMALL, SMALL),
    (f"{LARGE:,} games, {SMALL} kept", LARGE, SMALL),
    (f"{LARGE:,} games, all kept", LARGE, LARGE),
]


def run() -> list[tuple[str, str]]:
    """Rows of (what was measured, figure)."""
    rows: list[tuple[str, str]] = []
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, games, kept in SCENARIOS:
            app = _app(_database(folder, f"stats{games}-{kept}"))
            seed(app, games, kept)
            seconds, count = measure(app)
            results[label] = (seconds, count)
            rows.append(
                (
                    f"statistics page, {label}",
                    f"{seconds * 1000:.1f} ms (median of {REPEAT}), {count} SQL statements",
                )
            )
            with app.app_context():
                db.engine.dispose()
    small, hosted, all_kept = (results[label][0] for label, _, _ in SCENARIOS)
    rows.append(
        (
            f"statistics, {LARGE:,} vs {SMALL} games in the database (goal ≤ 3×)",
            f"{hosted / small:.1f}×",
        )
    )
    rows.append(
        (f"statistics, {LARGE:,} vs {SMALL} games kept by one browser", f"{all_kept / small:.1f}×")
    )
    same = len({count for _, count in results.values()}) == 1
    rows.append(("statistics' SQL statements constant in the games", "yes" if same else "NO"))
    return rows


if __name__ == "__main__":
    for what, figure in run():
        print(f"{what:<55} {figure}")
