"""Benchmarks: figures, not pass/fail timings. ``python -m bench`` (``make bench``) prints
every module's rows in one table; each module runs alone as ``python -m bench.<module>``."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask.testing import FlaskClient

CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')
PLAYERS = ["Ann", "Bob", "Cy"]


def csrf_token(client: FlaskClient, path: str = "/games/new") -> str:
    """The session's CSRF token, as a page carries it."""
    match = CSRF.search(client.get(path).get_data(as_text=True))
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def start_game(client: FlaskClient, names: list[str] = PLAYERS) -> tuple[str, str]:
    """A game started through the new-game form (seat 0 deals); its id and the CSRF token."""
    csrf = csrf_token(client)
    form = {f"names-{seat}": name for seat, name in enumerate(names)}
    form.update(csrf_token=csrf, first_dealer="0", bid_rule="standard", bid_reveal="open")
    form.update(rounds="full", action="start")
    response = client.post("/games/new", data=form)
    assert response.status_code == 303, response.status_code
    return response.headers["Location"].rsplit("/", 1)[-1], csrf


def print_rows(run: Callable[[], list[tuple[str, str]]]) -> int:
    """A module's ``main``: its rows, one a line."""
    for what, figure in run():
        print(f"{what}: {figure}")
    return 0
