"""Page weight of every page a user reaches: bytes after gzip (HTML + CSS + JS) and requests,
as a first visit (an empty cache) loads them.

Budget (issues 3 and 19): every page ≤ 25 KB gzip in all, in ≤ 5 requests. Each page is
measured at its heaviest: 6 players in round 10 and 3 players in round 20 (21 buttons a row),
in English and in German. Run with ``make bench`` or ``.venv/bin/python -m bench.page_weight``;
exits 1 when a page is over budget.
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

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


def _browser(client: FlaskClient) -> sharing.Browser:
    with client.session_transaction() as session:
        return sharing.Browser(session["device"])


def _csrf(client: FlaskClient, path: str) -> str:
    """The CSRF token of the page at ``path`` (any of its forms)."""
    page = client.get(path).get_data(as_text=True)
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
    assert token, path
    return token.group(1)


def _start(client: FlaskClient, names: list[str]) -> str:
    """A game of ``names`` with every special card in the deck: each round step shows its
    controls for them (Werewolf, the Bomb's toggle, the Cloud's buttons) at their heaviest."""
    data: dict[str, str | list[str]] = {f"names-{seat}": name for seat, name in enumerate(names)}
    data.update(
        special_cards=["bomb", "cloud", "werewolf", "juggler", "dragon", "shapeshifter"],
        csrf_token=_csrf(client, "/games/new"),
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
    browser = _browser(client)
    with app.test_request_context():
        for number in range(1, last + 1):
            game = games.get_game(game_id)
            if not game.table.deals_every_card(number):
                rounds.record_trump(game_id, browser, number, "blue")
            rounds.record_bids(game_id, browser, number, [0] * seats)
            rounds.record_tricks(game_id, browser, number, [number] + [0] * (seats - 1))


def _referee_trick(seats: int) -> str:
    """A trick of the round's players but one, a Wizard and a Jester among them, with the
    special cards offered: the referee at its longest."""
    cards = ["red-7", "blue-13", "wizard", "jester", "green-2", "yellow-11"][: seats - 1]
    return "&".join(f"card={card}" for card in cards) + "&specials=1"


def _game_pages(app: Flask, client: FlaskClient, names: list[str], last: int) -> list[Weight]:
    """A game of ``names`` played to its round ``last`` (its last), every screen on the way
    at its heaviest; the pages of a follower, the invite and the history with them."""
    game_id = _start(client, names)
    seats = len(names)
    game_path = f"/games/{game_id}"
    round_path = f"{game_path}/rounds/{last}"
    label = f"{seats} players, round {last}"
    weights = [weigh(client, f"round: trump ({seats} players, round 1)", f"{game_path}/rounds/1")]
    _play_until(app, client, game_id, last - 1, seats)
    browser = _browser(client)
    with app.test_request_context():
        if not games.get_game(game_id).table.deals_every_card(last):
            weights.append(weigh(client, f"round: trump ({label})", round_path))
            rounds.record_trump(game_id, browser, last, "wizard", "red")
        dealer = games.get_game(game_id).view.round(last).dealer
        bids: list[int | None] = [0] * seats
        bids[dealer] = None
        rounds.record_bids(game_id, browser, last, bids)
    weights.append(weigh(client, f"round: bids ({label})", round_path))
    with app.test_request_context():
        rounds.record_bids(game_id, browser, last, [0] * seats)
        rounds.save_trick_draft(game_id, browser, last, 1, 0)
    weights.append(weigh(client, f"round: tricks ({label})", round_path))
    # A follower's phone: the spectator page mid-round, the table code's page, the referee.
    follower = app.test_client()
    follower.environ_base.update(client.environ_base)
    weights.append(weigh(follower, f"spectator, playing ({label})", f"{game_path}/view"))
    weights.append(weigh(follower, f"table code ({label})", f"{game_path}/keep-score"))
    trick = _referee_trick(seats)
    referee_path = f"{game_path}/referee?round={last}&{trick}"
    weights.append(weigh(follower, f"referee ({label})", referee_path))
    # The invite page with a hand-over link made, and the page that link opens.
    csrf = _csrf(client, f"{game_path}/share")
    made = client.post(f"{game_path}/handover", data={"csrf_token": csrf})
    assert made.status_code == 303
    weights.append(weigh(client, f"invite with hand-over link ({label})", f"{game_path}/share"))
    link = re.search(r'id="handover-link">[^<]*(/handover/[^<"]+)<', _text(client, made))
    assert link, "no hand-over link on the invite page"
    taker = app.test_client()
    taker.environ_base.update(client.environ_base)
    assert taker.get(link.group(1)).status_code == 303
    weights.append(weigh(taker, f"hand-over ({label})", "/handover"))
    with app.test_request_context():
        rounds.record_tricks(game_id, browser, last, [last] + [0] * (seats - 1))
    weights.append(weigh(client, f"round: scored ({label})", round_path))
    weights.append(weigh(client, f"sheet ({label})", f"{game_path}/sheet"))
    weights.append(weigh(client, f"game over ({label})", game_path))
    weights.append(weigh(follower, f"spectator, game over ({label})", f"{game_path}/view"))
    # A corrected round: its correction form and its history of changes.
    with app.test_request_context():
        rounds.correct_round(
            game_id,
            browser,
            last,
            turned=None if games.get_game(game_id).table.deals_every_card(last) else "green",
            chosen=None,
            bids=[1] + [0] * (seats - 1),
            tricks=[last - 1, 1] + [0] * (seats - 2),
        )
    weights.append(weigh(client, f"correct a round ({label})", f"{round_path}/correct"))
    weights.append(weigh(client, f"round history ({label})", f"{round_path}/history"))
    return weights


def _text(client: FlaskClient, response: Any) -> str:
    """The page a redirect leads to."""
    return client.get(response.headers["Location"]).get_data(as_text=True)


def measure(app: Flask, language: str = "en") -> list[Weight]:
    """Every page a user reaches, each at its heaviest, in ``language`` (German words are
    longer): the round screen in both games (6 players in round 10 and 3 players in round
    20, 21 buttons a row), the bids screen with only the dealer left to bid, the forbidden
    bid struck out with its reason; the history pages once both games are over."""
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    weights = [
        weigh(client, "home (empty)", "/"),
        weigh(client, "new game", "/games/new"),
        weigh(client, "import", "/import"),
        weigh(client, "referee (no game)", "/referee?" + _referee_trick(6)),
    ]
    weights += _game_pages(app, client, ["Ann", "Bob", "Cy"], 20)
    weights += _game_pages(app, client, ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"], 10)
    weights.append(weigh(client, "home (2 games)", "/"))
    weights.append(weigh(client, "statistics (2 games)", "/statistics"))
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
    print(f"{'page':<62} {'HTML':>8} {'CSS+JS':>8} {'total':>8} {'budget':>7} {'requests':>9}")
    over = False
    for weight in weights():
        share = weight.total / BUDGET_BYTES
        flag = ""
        if weight.total > BUDGET_BYTES or weight.requests > BUDGET_REQUESTS:
            flag = "  OVER BUDGET"
            over = True
        print(
            f"{weight.page:<62} {weight.html:>8} {weight.assets:>8} {weight.total:>8} "
            f"{share:>6.0%} {weight.requests:>9}{flag}"
        )
    print(
        f"(bytes after gzip level {GZIP_LEVEL}; budget of every page: "
        f"{BUDGET_BYTES} bytes in {BUDGET_REQUESTS} requests)"
    )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
