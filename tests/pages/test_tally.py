"""The trick tally on the pages: the round screen's one tap per trick, the tricks step filled
in from it, the follower's view (bids, tricks so far, what each still needs; hidden bids stay
hidden), the referee's answer taken as a trick, and the round's history."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import games

from ..confidant import Confidant, text

NAMES = ["Thomas", "Ute", "Kevin"]


@pytest.fixture
def phone(client: FlaskClient) -> Confidant:
    confidant = Confidant(client)
    assert confidant.start(NAMES).status_code == 303
    return confidant


def _to_round_3(phone: Confidant, bids: tuple[int, int, int] = (1, 2, 0)) -> None:
    """Rounds 1 and 2 scored; round 3 bid (Thomas 1, Ute 2, Kevin 0), being played."""
    phone.play(1, bids=[0, 1, 0], tricks=[0, 1, 0])
    phone.play(2, bids=[1, 1, 0], tricks=[1, 1, 0])
    assert phone.trump(3, "red").status_code == 303
    for seat, bid in enumerate(bids):
        assert phone.bid(3, seat, bid).status_code == 303


def _won(phone: Confidant, seat: int) -> None:
    response = phone.tap(3, action="trick", seat=seat)
    assert response.status_code == 303, text(response)


def test_the_round_screen_offers_one_tap_per_trick_with_the_running_count(
    phone: Confidant, app: Flask
) -> None:
    _to_round_3(phone)
    page = text(phone.round_page(3))
    assert "Who won trick 1 of 3?" in page
    body = phone.round_page(3).get_data(as_text=True)
    # A big button per player, in seat order.
    seats = re.findall(r'<button type="submit" name="seat" value="(\d)"', body)
    assert seats == ["0", "1", "2"]
    _won(phone, 1)
    page = text(phone.round_page(3))
    assert "Who won trick 2 of 3?" in page
    assert "Ute 1 trick · needs 1" in page
    assert "Thomas 0 tricks · needs 1" in page
    assert "Kevin 0 tricks · made it" in page
    assert "Undo: trick 1 of round 3" in page
    with app.app_context():
        assert games.get_game(phone.game_id).round(3).tally == (1,)


def test_when_every_trick_is_tallied_scoring_is_one_more_tap(phone: Confidant, app: Flask) -> None:
    _to_round_3(phone)
    for seat in (1, 0, 1):
        _won(phone, seat)
    page = phone.round_page(3)
    assert "All 3 tricks are tallied." in text(page)
    body = page.get_data(as_text=True)
    # The tricks step comes filled in: each player's count pressed.
    for name, count in (("Thomas", 1), ("Ute", 2), ("Kevin", 0)):
        noun = "trick" if count == 1 else "tricks"
        assert re.search(
            rf'aria-pressed="true"[^>]*aria-label="{name} won {count} {noun}"', body
        ), name
    assert phone.score(3).status_code == 303
    with app.app_context():
        scored = games.get_game(phone.game_id).round(3)
        assert scored.tricks == (1, 2, 0)
        assert scored.scores == [30, 40, 20]


def test_a_wrong_tap_is_undone(phone: Confidant, app: Flask) -> None:
    _to_round_3(phone)
    _won(phone, 2)
    response = phone.tap(3, action="undo")
    assert "Undone: trick 1 of round 3." in text(phone.get(response.headers["Location"]))
    with app.app_context():
        assert games.get_game(phone.game_id).round(3).tally == ()


def test_a_tap_from_a_stale_page_is_refused(phone: Confidant, app: Flask) -> None:
    _to_round_3(phone)
    stale = phone.version(3)
    _won(phone, 0)
    response = phone.tap(3, version=stale, action="trick", seat=1)
    assert response.status_code == 412
    with app.app_context():
        assert games.get_game(phone.game_id).round(3).tally == (0,)


def test_a_tap_past_the_last_trick_is_refused_in_one_sentence(phone: Confidant) -> None:
    _to_round_3(phone)
    for seat in (0, 0, 0):
        _won(phone, seat)
    response = phone.tap(3, action="trick", seat=1)
    assert response.status_code == 422
    assert "All 3 tricks of round 3 are tallied already." in text(response)


def test_no_nobody_button_without_a_bomb(phone: Confidant) -> None:
    _to_round_3(phone)
    assert "Nobody" not in text(phone.round_page(3))
    response = phone.tap(3, action="nobody")
    assert response.status_code == 422


def test_the_follower_sees_bids_tricks_so_far_and_what_each_still_needs(
    phone: Confidant, app: Flask
) -> None:
    _to_round_3(phone)
    spectator = app.test_client()
    live = f"/games/{phone.game_id}/view/live"
    # Nothing tallied: nothing to say yet (a table may count at the end).
    assert '<th scope="col">Status</th>' not in spectator.get(live).get_data(as_text=True)
    for seat in (1, 1):
        _won(phone, seat)
    body = spectator.get(live).get_data(as_text=True)
    page = text(spectator.get(live))
    assert "Tricks played: 2 of 3." in page
    row = re.search(r'<tr data-seat="1">.*?</tr>', body, flags=re.S)
    assert row is not None
    assert re.sub(r"<[^>]+>", " ", row.group(0)).split() == ["Ute", "2", "2", "made", "it"]
    assert "Thomas 1 0 needs 1" in page
    _won(phone, 1)
    assert "Ute 2 3 1 over" in text(spectator.get(live))
    assert "Thomas 1 0 needs 1: no longer possible" in text(spectator.get(live))


def test_secret_bids_do_not_leak_through_the_tally(client: FlaskClient, app: Flask) -> None:
    phone = Confidant(client)
    assert phone.start(NAMES, bid_reveal="secret").status_code == 303
    assert phone.trump(1, "red").status_code == 303
    for seat, bid in enumerate((0, 1, 0)):
        assert phone.bid(1, seat, bid).status_code == 303
    assert phone.tap(1, action="trick", seat=1).status_code == 303
    for page in (
        text(app.test_client().get(f"/games/{phone.game_id}/view/live")),
        text(phone.round_page(1)),
    ):
        assert "made it" not in page
        assert "needs " not in page
        assert not re.search(r"\d over", page)
    assert "Ute 1 trick" in text(phone.round_page(1))


def _referee(phone: Confidant, lead: int, cards: str, client: FlaskClient | None = None) -> str:
    path = f"/games/{phone.game_id}/referee?round=3&lead={lead}&{cards}"
    return (client or phone.client).get(path).get_data(as_text=True)


def test_the_referees_answer_is_taken_as_the_tricks_winner(phone: Confidant, app: Flask) -> None:
    _to_round_3(phone)
    cards = "card=red-7&card=wizard&card=red-13"
    body = _referee(phone, 1, cards)  # Ute leads; Kevin plays the Wizard
    assert "Take it: trick 1 goes to Kevin" in text_of(body)
    assert "Take it" not in text_of(_referee(phone, 1, "card=red-7&card=wizard"))  # not complete
    assert "Take it" not in text_of(_referee(phone, 1, cards, app.test_client()))  # a follower
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', body, flags=re.S)
    assert form is not None
    fields = {
        name: unescape(value)
        for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2))
    }
    assert fields["action"] == "trick"
    assert fields["seat"] == "2"
    response = phone.client.post(form.group(1), data=fields)
    assert response.status_code == 303
    # On to the next trick, led by its winner.
    assert "lead=2" in response.headers["Location"]
    assert "card=" not in response.headers["Location"]
    with app.app_context():
        assert games.get_game(phone.game_id).round(3).tally == (2,)
    assert "Tricks played: 1 of 3." in text_of(_referee(phone, 2, ""))


def test_the_round_history_tells_each_trick(phone: Confidant) -> None:
    _to_round_3(phone)
    _won(phone, 1)
    page = text(phone.get(f"/games/{phone.game_id}/rounds/3/history"))
    assert "Trick tallied" in page
    assert "Trick 1: Ute" in page


def text_of(body: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body))).strip()


def test_the_referee_starts_the_next_trick_with_the_last_tricks_winner(phone: Confidant) -> None:
    _to_round_3(phone)
    path = f"/games/{phone.game_id}/referee?round=3"
    assert re.search(r'aria-pressed="true">Thomas</a>', phone.get(path).get_data(as_text=True))
    _won(phone, 1)
    assert re.search(r'aria-pressed="true">Ute</a>', phone.get(path).get_data(as_text=True))
