"""SQL statements per request after 1 round and after 20 (the last round of a 3-player game):
a page or a write costs the same however long the game has run."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.statements import count_statements as counted

from . import PLAYERS, csrf_token, print_rows, start_game
from .databases import database

_VERSION = re.compile(r'name="version" value="(\d+)"')


def _play(phone: FlaskClient, game_id: str, csrf: str, rounds: int) -> None:
    """Score ``rounds`` rounds through the form; in the next, turn the trump and bid."""
    for number in range(1, rounds + 2):
        path = f"/games/{game_id}/rounds/{number}"

        def tap(path: str = path, **fields: object) -> None:
            version = _VERSION.search(phone.get(path).get_data(as_text=True))
            assert version, path
            data = {"csrf_token": csrf, "version": version.group(1), **fields}
            assert phone.post(path, data=data).status_code == 303, (path, fields)

        if number * len(PLAYERS) < 60:  # the round dealing all 60 cards has no trump card
            tap(action="trump", turned="green")
        for seat in range(len(PLAYERS)):
            tap(action="bid", seat=seat, value=0)
        if number > rounds:
            return
        tap(action="tricks", seat=0, value=number)
        tap(action="tricks", seat=1, value=0)
        tap(action="score")


def measure(app: Flask) -> dict[str, tuple[int, int]]:
    """Statements per request kind: (in round 1, in round 20)."""
    phone = app.test_client()
    games = {}
    for rounds in (0, 19):  # on round 1, and on round 20 (the last of 3 players)
        game_id, csrf = start_game(phone)
        _play(phone, game_id, csrf, rounds)
        games[rounds] = game_id
    results: dict[str, list[int]] = {}

    def count(what: str, request: Callable[[str, int], object]) -> None:
        for rounds, game_id in games.items():
            with counted(app) as statements:
                request(game_id, rounds + 1)
            results.setdefault(what, []).append(len(statements))

    count("GET game (API)", lambda g, n: phone.get(f"/api/v1/games/{g}"))
    count("round screen", lambda g, n: phone.get(f"/games/{g}/rounds/{n}"))
    count("sheet", lambda g, n: phone.get(f"/games/{g}/sheet"))

    def trick_tap(game_id: str, number: int) -> object:
        path = f"/games/{game_id}/rounds/{number}"
        version = _VERSION.search(phone.get(path).get_data(as_text=True))
        assert version
        data = {
            "csrf_token": csrf_token(phone, path),
            "version": version.group(1),
            "action": "tricks",
        }
        with counted(app) as statements:
            response = phone.post(
                path, data={**data, "seat": 1, "value": 0}, headers={"HX-Request": "true"}
            )
        assert response.status_code == 200
        tap_counts.append(len(statements))
        return response

    tap_counts: list[int] = []
    for rounds, game_id in games.items():
        trick_tap(game_id, rounds + 1)
    results["trick tap (htmx POST, answered with the next screen)"] = tap_counts
    return {what: (first, last) for what, (first, last) in results.items()}


def run() -> list[tuple[str, str]]:
    with database("sqlite") as url:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
        )
        results = measure(app)
        with app.app_context():
            db.engine.dispose()
    return [
        (f"SQL statements: {what}", f"{first} in round 1, {last} in round 20")
        for what, (first, last) in results.items()
    ]


if __name__ == "__main__":
    sys.exit(print_rows(run))
