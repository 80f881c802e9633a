"""The trick tally on the pages: the round screen's one tap per trick, the tricks step filled
in from it, the follower's view (bids, tricks so far, what each still needs; hidden bids stay
hidden), the referee's answer taken as a trick, and the round's history. What a tap records
and refuses is the services' and the rules' (tests/services/test_tally.py,
tests/rules/test_tally.py)."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import games

from ..keeper_phone import KeeperPhone, text, words
from .helpers import played, pressed, started


def _to_round_3(app: Flask, phone: KeeperPhone) -> None:
    """Rounds 1 and 2 scored; round 3 bid (Thomas 1, Ute 2, Kevin 0), being played."""
    started(phone)
    played(app, phone, ([0, 1, 0], [0, 1, 0]), ([1, 1, 0], [1, 1, 0]))
    assert phone.trump(3, "red").status_code == 303
    for seat, bid in enumerate((1, 2, 0)):
        assert phone.bid(3, seat, bid).status_code == 303


def _won(phone: KeeperPhone, seat: int) -> None:
    response = phone.tap(3, action="trick", seat=seat)
    assert response.status_code == 303, text(response)


def test_the_round_screen_offers_one_tap_per_trick_with_the_running_count(
    app: Flask, phone: KeeperPhone
) -> None:
    _to_round_3(app, phone)
    body = phone.round_page(3).get_data(as_text=True)
    assert "Who won trick 1 of 3?" in words(body)
    assert "Nobody" not in words(body)  # no Bomb in the deck
    # A big button per player, in seat order.
    seats = re.findall(r'<button type="submit" name="seat" value="(\d)"', body)
    assert seats == ["0", "1", "2"]
    _won(phone, 1)
    page = text(phone.round_page(3))
    assert "Who won trick 2 of 3?" in page
    assert "Ute 1 trick · needs 1" in page
    assert "Thomas 0 tricks · needs 1" in page
    assert "Kevin 0 tricks · no more tricks" in page  # bid 0: not "made it" with 2 to play
    assert "Undo: trick 1 of round 3" in page
    history = text(phone.get(f"/games/{phone.game_id}/rounds/3/history"))
    assert "Trick tallied" in history
    assert "Trick 1: Ute" in history
    response = phone.tap(3, action="undo")
    assert "Undone: trick 1 of round 3." in text(phone.get(response.headers["Location"]))
    assert phone.tap(3, action="nobody").status_code == 422  # no Bomb in the deck


def test_when_every_trick_is_tallied_scoring_is_one_more_tap(
    app: Flask, phone: KeeperPhone
) -> None:
    _to_round_3(app, phone)
    for seat in (1, 0, 1):
        _won(phone, seat)
    page = phone.round_page(3)
    assert "All 3 tricks are tallied." in text(page)
    body = page.get_data(as_text=True)
    # The tricks step comes filled in: each player's count pressed.
    for name, count in (("Thomas", 1), ("Ute", 2), ("Kevin", 0)):
        noun = "trick" if count == 1 else "tricks"
        assert pressed(body, f"{name} won {count} {noun}"), name
    assert phone.score(3).status_code == 303
    scored = text(phone.round_page(3))
    for line in ("Thomas 1 1 +30", "Ute 2 2 +40", "Kevin 0 0 +20"):
        assert line in scored


def test_counts_tapped_in_by_hand_are_the_tricks_so_far_over_the_tally(
    app: Flask, phone: KeeperPhone
) -> None:
    """A trick tallied, then every count tapped in by hand: the words count what is scored,
    and the screen stays at the counts, the tally folded."""
    _to_round_3(app, phone)
    _won(phone, 1)
    assert "Tricks so far: 1 of 3." in text(phone.round_page(3))
    phone.tricks(3, 0, 1)
    phone.tricks(3, 1, 2)  # Kevin's 0 is filled in from the sum
    body = phone.round_page(3).get_data(as_text=True)
    assert "Tricks so far: 3 of 3." in words(body)
    assert '<details id="tally" class="trick-tally">' in body
    # The folded tally's buttons count the same, and tell no need against the tally.
    for line in ("Thomas 1 trick Ute", "Ute 2 tricks Kevin", "Kevin 0 tricks"):
        assert line in words(body), line
    assert not re.search(r"needs|no more tricks|made it", words(body))


def test_the_follower_sees_bids_tricks_so_far_and_what_each_still_needs(
    app: Flask, phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    _to_round_3(app, phone)
    live = f"/games/{phone.game_id}/view/live"
    # Nothing tallied: nothing to say yet (a table may count at the end).
    assert '<th scope="col">Status</th>' not in other_phone.get(live).get_data(as_text=True)
    for seat in (1, 1):
        _won(phone, seat)
    body = other_phone.get(live).get_data(as_text=True)
    page = words(body)
    assert "Tricks played: 2 of 3." in page
    row = re.search(r'<tr data-seat="1">.*?</tr>', body, flags=re.S)
    assert row is not None
    assert re.sub(r"<[^>]+>", " ", row.group(0)).split() == [
        "Ute",
        "2",
        "2",
        "no",
        "more",
        "tricks",
    ]
    assert "Thomas 1 0 needs 1" in page
    _won(phone, 1)
    page = text(other_phone.get(live))
    assert "Ute 2 3 1 over" in page
    assert "Thomas 1 0 needs 1: no longer possible" in page


def test_secret_bids_do_not_leak_through_the_tally(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    started(phone, bid_reveal="secret")
    assert phone.trump(1, "red").status_code == 303
    for seat, bid in enumerate((0, 1, 0)):
        assert phone.bid(1, seat, bid).status_code == 303
    assert phone.tap(1, action="trick", seat=1).status_code == 303
    for page in (
        text(other_phone.get(f"/games/{phone.game_id}/view/live")),
        text(phone.round_page(1)),
    ):
        assert "made it" not in page
        assert "no more tricks" not in page
        assert "needs " not in page
        assert not re.search(r"\d over", page)
    assert "Ute 1 trick" in text(phone.round_page(1))


def _referee(phone: KeeperPhone, lead: int, cards: str, client: FlaskClient | None = None) -> str:
    path = f"/games/{phone.game_id}/referee?round=3&lead={lead}&{cards}"
    return (client or phone.client).get(path).get_data(as_text=True)


def test_the_referees_answer_is_taken_as_the_tricks_winner_who_leads_next(
    phone: KeeperPhone, app: Flask
) -> None:
    _to_round_3(app, phone)
    path = f"/games/{phone.game_id}/referee?round=3"
    assert re.search(r'aria-pressed="true">Thomas</a>', phone.get(path).get_data(as_text=True))
    cards = "card=red-7&card=wizard&card=red-13"
    body = _referee(phone, 1, cards)  # Ute leads; Kevin plays the Wizard
    assert "Take it: trick 1 goes to Kevin" in words(body)
    assert "Take it" not in words(_referee(phone, 1, "card=red-7&card=wizard"))  # not complete
    assert "Take it" not in words(_referee(phone, 1, cards, app.test_client()))  # a follower
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
    assert "Tricks played: 1 of 3." in words(_referee(phone, 2, ""))
    assert re.search(r'aria-pressed="true">Kevin</a>', phone.get(path).get_data(as_text=True))
