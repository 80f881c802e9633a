"""Page weight of the Confidant's screens: bytes after gzip (HTML + CSS + JS) and requests.

Budget (issue 3): the round screen ≤ 25 KB gzip in all, in ≤ 5 requests. Each screen is
measured at its heaviest: 6 players in round 10 and 3 players in round 20 (21 buttons a row).
Run with ``make bench`` or ``.venv/bin/python -m bench.page_weight``; exits 1 over budget.
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.services import games, rounds, sharing

BUDGET_BYTES = 25 * 1024
BUDGET_REQUESTS = 5
GZIP_LEVEL = 6  # what Flask-Compress and most servers use
_SUBRESOURCE = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


@dataclass(frozen=True)
class Weight:
    """One page with everything it loads."""

    page: str
    html: int
    assets: int
    requests: int

    @property
    def total(self) -> int:
        return self.html + self.assets


def gzipped(data: bytes) -> int:
    """Bytes after gzip."""
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL))


def weigh(client: FlaskClient, name: str, path: str) -> Weight:
    """Fetch a page and what it links, as a browser with an empty cache does."""
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    html = response.get_data()
    assets = 0
    links = _SUBRESOURCE.findall(html.decode())
    for link in links:
        asset = client.get(link)
        assert asset.status_code == 200, link
        assets += gzipped(asset.get_data())
        asset.close()
    return Weight(name, gzipped(html), assets, 1 + len(links))


def _device(client: FlaskClient) -> sharing.Device:
    with client.session_transaction() as session:
        return sharing.Device(session["device"])


def _start(client: FlaskClient, names: list[str]) -> str:
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token
    data = {f"names-{seat}": name for seat, name in enumerate(names)}
    data.update(
        csrf_token=token.group(1),
        first_dealer="0",
        bid_rule="plus_minus_one",
        bid_reveal="open",
        rounds="full",
        action="start",
    )
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    return str(response.headers["Location"]).rsplit("/", 1)[-1]


def _play_until(app: Flask, client: FlaskClient, game_id: str, last: int, seats: int) -> None:
    device = _device(client)
    with app.test_request_context():
        for number in range(1, last + 1):
            game = games.get_game(game_id)
            if not game.table.deals_every_card(number):
                rounds.record_trump(game_id, device, number, "blue")
            rounds.record_bids(game_id, device, number, [0] * seats)
            rounds.record_tricks(game_id, device, number, [number] + [0] * (seats - 1))


def measure(app: Flask, language: str = "en") -> list[Weight]:
    """Every screen of the Confidant at its heaviest, in ``language`` (German words are
    longer); the bids screen with only the dealer left to bid, the forbidden bid struck out
    with its reason."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    weights = [weigh(client, "home (empty)", "/"), weigh(client, "new game", "/games/new")]
    for names, last in (
        (["Ann", "Bob", "Cy"], 20),
        (["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"], 10),
    ):
        game_id = _start(client, names)
        seats = len(names)
        round_path = f"/games/{game_id}/rounds/{last}"
        label = f"{seats} players, round {last}"
        first_round = f"/games/{game_id}/rounds/1"
        weights.append(weigh(client, f"round: trump ({seats} players, round 1)", first_round))
        _play_until(app, client, game_id, last - 1, seats)
        device = _device(client)
        with app.test_request_context():
            if not games.get_game(game_id).table.deals_every_card(last):
                weights.append(weigh(client, f"round: trump ({label})", round_path))
                rounds.record_trump(game_id, device, last, "wizard", "red")
            dealer = games.get_game(game_id).view.round(last).dealer
            bids: list[int | None] = [0] * seats
            bids[dealer] = None
            rounds.record_bids(game_id, device, last, bids)
        weights.append(weigh(client, f"round: bids ({label})", round_path))
        with app.test_request_context():
            rounds.record_bids(game_id, device, last, [0] * seats)
            rounds.save_trick_draft(game_id, device, last, 1, 0)
        weights.append(weigh(client, f"round: tricks ({label})", round_path))
        with app.test_request_context():
            rounds.record_tricks(game_id, device, last, [last] + [0] * (seats - 1))
        weights.append(weigh(client, f"round: scored ({label})", round_path))
        weights.append(weigh(client, f"sheet ({label})", f"/games/{game_id}/sheet"))
        weights.append(weigh(client, f"game over ({label})", f"/games/{game_id}"))
    weights.append(weigh(client, "home (2 games)", "/"))
    return weights


def weights() -> list[Weight]:
    """Every screen weighed, on a fresh SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": True,
            }
        )
        with app.app_context():
            upgrade()
        return [
            replace(weight, page=f"{weight.page}{suffix}")
            for language, suffix in (("en", ""), ("de", ", German"))
            for weight in measure(app, language)
        ]


def run() -> list[tuple[str, str]]:
    """One row per screen: bytes after gzip and requests."""
    return [
        (f"page weight: {w.page}", f"{w.total / 1024:.1f} KB gzip in {w.requests} requests")
        for w in weights()
    ]


def main() -> int:
    print(f"{'page':<48} {'HTML':>8} {'CSS+JS':>8} {'total':>8} {'budget':>7} {'requests':>9}")
    over = False
    for weight in weights():
        share = weight.total / BUDGET_BYTES
        is_round = weight.page.startswith("round")
        flag = ""
        if is_round and (weight.total > BUDGET_BYTES or weight.requests > BUDGET_REQUESTS):
            flag = "  OVER BUDGET"
            over = True
        print(
            f"{weight.page:<48} {weight.html:>8} {weight.assets:>8} {weight.total:>8} "
            f"{share:>6.0%} {weight.requests:>9}{flag}"
        )
    print(
        f"(bytes after gzip level {GZIP_LEVEL}; budget of the round screen: "
        f"{BUDGET_BYTES} bytes in {BUDGET_REQUESTS} requests)"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
