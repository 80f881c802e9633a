"""A small game factory: games seeded through the services, not played through the pages.

A seeded game is kept by a browser (known by its key) so that the test's phone, given that
browser (:func:`browser_of`), or the API client, given its edit token, can go on with it."""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import GameRow, KeeperRow
from scorekeeper.services import games, rounds, sharing
from scorekeeper.services.loading import GameSnapshot

from .keeper_phone import KeeperPhone

PLAYERS = ["Ann", "Bob", "Cy"]
#: A round as played: everyone's bid and everyone's tricks, seat by seat.
Played = tuple[Sequence[int], Sequence[int]]

_BROWSER_KEY = "device"  # the session's key for the browser's key (scorekeeper.web.common)


@dataclass(frozen=True)
class Seeded:
    """A game seeded by :func:`seed`: its id and its edit token (for the API)."""

    id: str
    token: str

    def __iter__(self) -> Iterator[str]:
        """``game_id, token = seed(app)``."""
        return iter((self.id, self.token))


def browser_of(phone: KeeperPhone | FlaskClient) -> sharing.Browser:
    """The browser of this phone's (or test client's) session, made as a page makes it when
    the phone has none yet: the games seeded for it are then the phone's own."""
    client = phone.client if isinstance(phone, KeeperPhone) else phone
    with client.session_transaction() as session:
        key = session.get(_BROWSER_KEY)
        if not isinstance(key, str) or not key:
            key = session[_BROWSER_KEY] = secrets.token_urlsafe(32)
            session.permanent = True
    return sharing.Browser(key)


def seed(
    app: Flask,
    names: Sequence[str] = PLAYERS,
    played: Sequence[Played] = (),
    *,
    browser: sharing.Browser | None = None,
    turned: str = "green",
    chosen: str | None = None,
    first_dealer: int = 0,
    next_trump: str | None = None,
    next_bids: Sequence[int | None] | None = None,
    **options: Any,
) -> Seeded:
    """A game of ``names`` started through the services (kept by ``browser``), its rounds
    ``played`` one by one (trump ``turned``, ``chosen`` under a Wizard; bids; tricks: a write
    each); then, when given, the next
    round's trump ``next_trump`` and its bids ``next_bids`` (a round being played)."""
    with app.app_context():
        created = games.create_game(names, first_dealer=first_dealer, browser=browser, **options)
        game = Seeded(created.game.id, created.edit_token)
        for number, (bids, tricks) in enumerate(played, start=1):
            play(game, number, bids, tricks, turned=turned, chosen=chosen)
        if next_trump is not None:
            rounds.record_trump(game.id, game.token, len(played) + 1, next_trump)
        if next_bids is not None:
            rounds.record_bids(game.id, game.token, len(played) + 1, list(next_bids))
    return game


def play(
    game: Seeded,
    number: int,
    bids: Sequence[int],
    tricks: Sequence[int],
    turned: str = "green",
    chosen: str | None = None,
) -> GameSnapshot:
    """Round ``number`` played through the services (inside an app context); the game after."""
    rounds.record_trump(game.id, game.token, number, turned, chosen)
    rounds.record_bids(game.id, game.token, number, list(bids))
    return rounds.record_tricks(game.id, game.token, number, list(tricks))


def second_keeper(app: Flask, game_id: str, browser: sharing.Browser) -> None:
    """``browser`` keeps the score too, beside the game's keeper: a game kept by two phones
    before a take-over ended every other phone's right (such games are still played on)."""
    with app.app_context():
        db.session.add(KeeperRow(browser_hash=browser.hash, game_id=game_id))
        db.session.commit()


def finished(
    app: Flask, browser: sharing.Browser | None, names: Sequence[str], played: Sequence[Played]
) -> str:
    """A game of as many rounds as ``played``, all played: finished, kept by ``browser``."""
    return seed(app, names, played, browser=browser, rounds=len(played)).id


def game_count(app: Flask) -> int:
    """How many games the database holds (deleted ones too)."""
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(GameRow)) or 0)
