"""The sheet, corrections and the game-over page through the Flask test client."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.services import audit, games, rounds, sharing

from ..confidant import Confidant, text
from ..statements import count_statements
from .helpers import device_key, started

# -- The sheet, corrections and game over ------------------------------------------------------


def test_the_sheet_shows_bid_tricks_score_total_dealer_and_trump(phone: Confidant) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1], turned="red")
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


def test_a_scored_round_is_corrected_and_every_total_recomputed(phone: Confidant) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    phone.play(2, [2, 0, 0], [1, 0, 1])
    path = f"/games/{phone.game_id}/rounds/1/correct"
    form = phone.get(path).get_data(as_text=True)
    assert re.search(r'name="bid-1" value="1" checked', form)
    data = {
        "csrf_token": phone.csrf(path),
        "version": re.search(r'name="version" value="(\d+)"', form).group(1),
        "turned": "blue",
        "bid-0": "0",
        "bid-1": "0",
        "bid-2": "1",
        "tricks-0": "0",
        "tricks-1": "0",
        "tricks-2": "1",
    }
    response = phone.client.post(path, data=data)
    assert response.status_code == 303
    sheet = phone.get(response.headers["Location"])
    assert "Round 1 is corrected; every total is recomputed." in text(sheet)
    assert "Total 10 40 20" in text(sheet)
    assert "✎ corrected" in text(sheet)


@pytest.mark.parametrize(
    ("players", "number", "trump"),
    [(3, 1, ("green", None)), (3, 2, ("wizard", "yellow")), (6, 10, None)],
    ids=["suit", "wizard", "every card dealt"],
)
def test_a_correction_saved_as_it_was_changes_nothing(
    app: Flask, phone: Confidant, players: int, number: int, trump: tuple[str, str | None] | None
) -> None:
    """Opened and saved untouched: nothing is written, so no ✎, no history, same version."""
    started(phone, ["Thomas", "Ute", "Kevin", "Ann", "Bob", "Cy"][:players], first_dealer="0")
    device = sharing.Device(device_key(phone))
    with app.test_request_context():
        for played in range(1, number + 1):
            if played < number:
                rounds.record_trump(phone.game_id, device, played, "blue")
            elif trump is not None:
                rounds.record_trump(phone.game_id, device, played, *trump)
            rounds.record_bids(phone.game_id, device, played, [0] * players)
            rounds.record_tricks(phone.game_id, device, played, [0, 0, played, 0, 0, 0][:players])
        before = games.get_game(phone.game_id)
        changes = len(audit.audit_trail(before))
    path = f"/games/{phone.game_id}/rounds/{number}/correct"
    form = phone.get(path).get_data(as_text=True)
    data = dict(re.findall(r'name="([\w-]+)" value="(\w+)" checked', form))
    assert len(data) == 2 * players + (trump is not None) + (
        trump is not None and trump[1] is not None
    )
    data["csrf_token"] = phone.csrf(path)
    data["version"] = re.search(r'name="version" value="(\d+)"', form).group(1)
    response = phone.client.post(path, data=data)
    assert response.status_code == 303
    sheet = phone.get(response.headers["Location"])
    assert f"Nothing was changed in round {number}." in text(sheet)
    assert "✎ corrected" not in text(sheet)
    with app.app_context():
        after = games.get_game(phone.game_id)
        assert len(audit.audit_trail(after)) == changes
    assert after.version == before.version
    assert after.corrected == frozenset()

    data["tricks-2"], data["tricks-1"] = "0", str(number)  # Ute took them, after all
    response = phone.client.post(path, data=data)
    assert response.status_code == 303
    assert "every total is recomputed" in text(phone.get(response.headers["Location"]))
    with app.app_context():
        assert games.get_game(phone.game_id).corrected == {number}


def test_a_correction_the_rules_refuse_changes_nothing(phone: Confidant) -> None:
    started(phone)
    phone.play(1, [0, 1, 1], [0, 0, 1])
    path = f"/games/{phone.game_id}/rounds/1/correct"
    data = {
        "csrf_token": phone.csrf(path),
        "version": str(phone.version(2)),
        "turned": "blue",
        **{f"bid-{seat}": "0" for seat in range(3)},
        **{f"tricks-{seat}": "1" for seat in range(3)},
    }
    response = phone.client.post(path, data=data)
    assert response.status_code == 422
    assert "The tricks add up to 3, but round 1 has 1: 2 tricks too many." in text(response)
    assert "Total 20 −10 30" in text(phone.get(f"/games/{phone.game_id}/sheet"))
    incomplete = {key: value for key, value in data.items() if key != "tricks-2"}
    response = phone.client.post(path, data=incomplete)
    assert response.status_code == 400
    assert "Choose a bid and the tricks for every player." in text(response)


def test_only_a_scored_round_can_be_corrected_and_only_by_its_keeper(
    phone: Confidant, other_phone: Confidant
) -> None:
    started(phone)
    response = phone.get(f"/games/{phone.game_id}/rounds/1/correct")
    assert response.status_code == 303
    phone.play(1, [0, 1, 1], [0, 0, 1])
    response = other_phone.get(f"/games/{phone.game_id}/rounds/1/correct")
    assert response.status_code == 403


def test_a_whole_short_game_ends_with_the_winner_and_the_sheet(phone: Confidant) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], rounds="2")
    phone.play(1, [1, 0, 0], [1, 0, 0])
    phone.play(2, [0, 0, 2], [0, 0, 2])
    assert "See who won" in text(phone.round_page(2))
    over = phone.get(f"/games/{phone.game_id}")
    assert over.status_code == 200
    page = text(over)
    assert "Game over" in page
    assert "Kevin wins with 60 points!" in page
    assert "Total 50 40 60" in page
    assert "Kevin ♛ won" in page  # on the sheet, no longer "leads"
    assert "leads" not in text(phone.get(f"/games/{phone.game_id}/sheet"))


def test_shared_winners_are_named_together(phone: Confidant) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], rounds="1")
    phone.play(1, [0, 0, 0], [1, 0, 0])
    page = text(phone.get(f"/games/{phone.game_id}"))
    assert "Ute & Kevin share the win with 20 points!" in page
    assert "1. Ute 20 1. Kevin 20 3. Thomas −10" in page


def test_pages_are_never_cached_and_static_files_are_kept_long(phone: Confidant) -> None:
    started(phone)
    assert phone.round_page(1).headers["Cache-Control"] == "no-store"
    body = phone.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/css/site\.css\?v=[0-9a-f]{12})"', body)
    assert css
    response = phone.get(css.group(1))
    assert response.status_code == 200
    assert "max-age=31536000" in response.headers["Cache-Control"]
    response.close()


def test_a_page_costs_the_same_statements_after_1_and_20_rounds(
    app: Flask, phone: Confidant
) -> None:
    started(phone, ["Ann", "Bob", "Cy"], rounds="1")
    phone.play(1, [1, 0, 0], [1, 0, 0])
    short = phone.game_id
    started(phone, ["Dora", "Eve", "Finn"])
    device = sharing.Device(device_key(phone))
    with app.test_request_context():
        for number in range(1, 20):
            rounds.record_trump(phone.game_id, device, number, "blue")
            rounds.record_bids(phone.game_id, device, number, [0, 0, 0])
            rounds.record_tricks(phone.game_id, device, number, [number, 0, 0])
    long = phone.game_id
    # A keeper's first round screen of a game makes its table code once (a write); counted
    # here is every view after it.
    assert phone.get(f"/games/{long}/rounds/1").status_code == 200
    for path in ("/games/{}/sheet", "/games/{}/rounds/1"):
        with count_statements(app) as one:
            assert phone.get(path.format(short)).status_code == 200
        with count_statements(app) as twenty:
            assert phone.get(path.format(long)).status_code == 200
        assert len(one) == len(twenty), (one, twenty)
        assert len(one) <= 6, one
