"""The sheet and the game-over page through the Flask test client (the correction form is in
test_correction.py)."""

from __future__ import annotations

import re

from flask import Flask

from ..keeper_phone import KeeperPhone, text
from ..statements import count_statements
from .helpers import played, started


def test_the_sheet_shows_bid_tricks_score_total_dealer_and_trump(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, first_dealer="0")
    played(app, phone, ([0, 1, 1], [0, 0, 1]), turned="red")
    body = phone.get(f"/games/{phone.game_id}/sheet").get_data(as_text=True)
    start = body.index(">", body.index('id="round-1"')) + 1
    row = body[start : body.index('id="round-2"')]
    row = row[: row.rindex("<tr")]
    assert re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).split() == (
        [
            "1",
            "■",
            "Trump:",
            "red",
            "Dwarves",
            "D",
            "deals",
            "0/0",
            "+20",
            "20",
            "1/0",
            "−10",
            "−10",
            "1/1",
            "+30",
            "30",
        ]
    )
    assert 'title="red Dwarves"' in row
    assert "♛" in body  # Kevin leads


def test_a_whole_short_game_ends_with_the_winner_and_the_sheet(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, rounds="2")
    played(app, phone, ([1, 0, 0], [1, 0, 0]), ([0, 0, 2], [0, 0, 2]))
    assert "See who won" in text(phone.round_page(2))
    over = phone.get(f"/games/{phone.game_id}")
    assert over.status_code == 200
    page = text(over)
    assert "Game over" in page
    assert "Kevin wins with 60 points!" in page
    assert "Total 50 40 60" in page
    assert "Kevin ♛ won" in page  # on the sheet, no longer "leads"
    assert "leads" not in text(phone.get(f"/games/{phone.game_id}/sheet"))


def test_shared_winners_are_named_together(app: Flask, phone: KeeperPhone) -> None:
    started(phone, rounds="1")
    played(app, phone, ([0, 0, 0], [1, 0, 0]))
    page = text(phone.get(f"/games/{phone.game_id}"))
    assert "Ute & Kevin share the win with 20 points!" in page
    assert "1. Ute 20 1. Kevin 20 3. Thomas −10" in page


def test_a_page_costs_the_same_statements_after_1_and_20_rounds(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, ["Ann", "Bob", "Cy"], rounds="1")
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    short = phone.game_id
    started(phone, ["Dora", "Eve", "Finn"])
    played(app, phone, *[([0, 0, 0], [number, 0, 0]) for number in range(1, 20)], turned="blue")
    long = phone.game_id
    # A keeper's first round screen of a game makes its table code once (a write); counted
    # here is every view after it.
    for game in (short, long):
        assert phone.get(f"/games/{game}/rounds/1").status_code == 200
    for path in ("/games/{}/sheet", "/games/{}/rounds/1"):
        with count_statements(app) as one:
            assert phone.get(path.format(short)).status_code == 200
        with count_statements(app) as twenty:
            assert phone.get(path.format(long)).status_code == 200
        assert len(one) == len(twenty), (one, twenty)
        assert len(one) <= 6, one
