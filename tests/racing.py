"""Racing phones: pairs of writes based on the same version of one game, sent at once.

Each pair is two threads, each with its own client, released together by a barrier, each
sending a different write that names the same version: through the API (``If-Match``) and
through the round screen's form (its hidden ``version``, the same browser in two tabs).
Exactly one may win; the other must be told (412, "another phone changed this game").
After each pair the game is read back: a write that was acknowledged but is not there, or
two acknowledged writes, is a *silent overwrite*, and there must be none.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')

TIMEOUT = 60  # seconds a racer may take before the race counts as hung
STALE_SENTENCE = "This game was changed a moment ago (on another phone or screen"
# The 8 different bid sets of a 3-player round 1 (one card each).
BIDS = [list(bids) for bids in itertools.product([0, 1], repeat=3)]


@dataclass
class Counts:
    """What the pairs came to."""

    pairs: int = 0
    winners: int = 0
    losers_told: int = 0
    silent_overwrites: int = 0
    other: list[str] = field(default_factory=list)

    def row(self, label: str) -> tuple[str, str]:
        return (
            label,
            f"{self.pairs} pairs: {self.winners} won, {self.losers_told} told 412, "
            f"{self.silent_overwrites} silent overwrites, {len(self.other)} other",
        )


@dataclass(frozen=True)
class Outcome:
    """One racer's answer: acknowledged (saved), told it was stale, or something else."""

    acknowledged: bool
    told: bool
    detail: str


def _pairs(
    app: Flask,
    pairs: int,
    prepare: Callable[[int], tuple[Any, Any]],
    send: Callable[[FlaskClient, Any], Outcome],
    present: Callable[[Any], bool],
    clients: tuple[FlaskClient, FlaskClient],
) -> Counts:
    """Run ``pairs`` races: ``prepare(i)`` gives the two writes, ``send`` sends one,
    ``present(write)`` says whether a write is what the game now holds."""
    counts = Counts()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for number in range(pairs):
            writes = prepare(number)
            barrier = threading.Barrier(2)

            def racer(
                client: FlaskClient, write: Any, barrier: threading.Barrier = barrier
            ) -> Outcome:
                barrier.wait(timeout=TIMEOUT)
                return send(client, write)

            futures = [pool.submit(racer, c, w) for c, w in zip(clients, writes, strict=True)]
            outcomes = [future.result(timeout=TIMEOUT) for future in futures]
            counts.pairs += 1
            acknowledged = [w for w, o in zip(writes, outcomes, strict=True) if o.acknowledged]
            counts.winners += min(1, len(acknowledged))
            counts.losers_told += sum(1 for o in outcomes if o.told)
            if len(acknowledged) > 1 or any(not present(write) for write in acknowledged):
                counts.silent_overwrites += 1
            counts.other += [o.detail for o in outcomes if not (o.acknowledged or o.told)]
    return counts


# -- Through the API -----------------------------------------------------------------------


def race_api(app: Flask, pairs: int) -> Counts:
    """Pairs of ``PUT .../bids`` with the same ``If-Match``."""
    setup = app.test_client()
    created = setup.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]})
    game = created.get_json()
    game_id, token = game["id"], game["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    setup.put(f"/api/v1/games/{game_id}/rounds/1/trump", json={"turned": "blue"}, headers=auth)

    def read() -> dict[str, Any]:
        body: dict[str, Any] = setup.get(f"/api/v1/games/{game_id}").get_json()
        return body

    def prepare(number: int) -> tuple[Any, Any]:
        current = read()
        held = current["rounds"][0]["bids"]
        choices = [bids for bids in BIDS if bids != held]
        first, second = choices[number % len(choices)], choices[(number + 3) % len(choices)]
        return (current["version"], first), (current["version"], second)

    def send(client: FlaskClient, write: Any) -> Outcome:
        version, bids = write
        response = client.put(
            f"/api/v1/games/{game_id}/rounds/1/bids",
            json={"bids": bids},
            headers={**auth, "If-Match": f'"{version}"'},
        )
        if response.status_code == 200:
            return Outcome(True, False, "")
        body = response.get_json(silent=True) or {}
        told = response.status_code == 412 and "has changed" in body.get("detail", "")
        return Outcome(False, told, f"{response.status_code} {body.get('detail', '')}")

    def present(write: Any) -> bool:
        version, bids = write
        current = read()
        return bool(current["version"] == version + 1 and current["rounds"][0]["bids"] == bids)

    return _pairs(app, pairs, prepare, send, present, (app.test_client(), app.test_client()))


# -- Through the pages ---------------------------------------------------------------------


def race_forms(app: Flask, pairs: int) -> Counts:
    """Pairs of bid taps on the round screen carrying the same version (two tabs)."""
    first_tab = app.test_client()
    game_id, csrf = _start_game(first_tab)
    path = f"/games/{game_id}/rounds/1"
    second_tab = app.test_client()
    cookie = first_tab.get_cookie("tablet")
    assert cookie is not None
    second_tab.set_cookie("tablet", cookie.value)
    reader = app.test_client()

    def read() -> dict[str, Any]:
        body: dict[str, Any] = reader.get(f"/api/v1/games/{game_id}").get_json()
        return body

    first_tab.post(
        path, data={"csrf_token": csrf, "version": "1", "action": "trump", "turned": "blue"}
    )

    def prepare(number: int) -> tuple[Any, Any]:
        current = read()
        bids = current["rounds"][0]["bids"] or [None, None, None]
        # Each tab taps a different seat (1 and 2), each a value that changes it.
        first = (current["version"], 1, 1 if bids[1] != 1 else 0, bids)
        second = (current["version"], 2, 1 if bids[2] != 1 else 0, bids)
        return (first, second) if number % 2 else (second, first)

    def send(client: FlaskClient, write: Any) -> Outcome:
        version, seat, value, _before = write
        response = client.post(
            path,
            data={
                "csrf_token": csrf,
                "version": str(version),
                "action": "bid",
                "seat": str(seat),
                "value": str(value),
            },
        )
        if response.status_code == 303:
            return Outcome(True, False, "")
        told = response.status_code == 412 and STALE_SENTENCE in response.get_data(as_text=True)
        return Outcome(False, told, str(response.status_code))

    def present(write: Any) -> bool:
        version, seat, value, before = write
        current = read()
        expected = list(before)
        expected[seat] = value
        return bool(current["version"] == version + 1 and current["rounds"][0]["bids"] == expected)

    return _pairs(app, pairs, prepare, send, present, (first_tab, second_tab))


def _start_game(client: FlaskClient) -> tuple[str, str]:
    """A game of three started through the new-game form (seat 0 deals); its id and the
    session's CSRF token."""
    match = CSRF.search(client.get("/games/new").get_data(as_text=True))
    assert match, "no CSRF token on the new-game form"
    csrf = match.group(1)
    form = {f"names-{seat}": name for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    form.update(csrf_token=csrf, first_dealer="0", bid_rule="standard", bid_reveal="open")
    form.update(rounds="full", action="start")
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[-1], csrf
