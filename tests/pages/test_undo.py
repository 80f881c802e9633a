"""Undo and redo on the round screen (web/rounds.py): the buttons, what a tap shows, and the
words of each step, in English and German. What an undo takes back, and its refusals, are the
services' (tests/services/test_undo.py)."""

from __future__ import annotations

import pytest

from ..keeper_phone import KeeperPhone, text, words
from .helpers import pressed, started

GERMAN = {"Accept-Language": "de"}


def test_a_new_game_offers_no_undo_and_says_so_to_a_tap(phone: KeeperPhone) -> None:
    started(phone)
    assert "Undo:" not in text(phone.round_page(1))
    response = phone.tap(1, action="undo")
    assert response.status_code == 409
    assert "There is nothing to undo." in text(response)


def test_the_undo_button_names_the_last_write_and_takes_it_back(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    phone.bid(1, 1, 1)
    assert "Undo: Ute's bid in round 1" in text(phone.round_page(1))
    response = phone.tap(1, action="undo")
    assert response.status_code == 303
    body = phone.get(response.headers["Location"]).get_data(as_text=True)
    page = words(body)
    assert "Undone: Ute's bid in round 1." in page
    assert "Undo: the trump of round 1" in page
    assert "Redo: Ute's bid in round 1" in page
    assert not pressed(body, "Ute bids 1")
    assert phone.tap(1, action="redo").status_code == 303
    assert pressed(phone.round_page(1).get_data(as_text=True), "Ute bids 1")


def test_undo_of_a_scoring_leads_back_to_that_round(phone: KeeperPhone) -> None:
    started(phone)
    phone.play(1, bids=[0, 1, 0], tricks=[0, 1, 0])
    phone.trump(2, "red")
    phone.tap(2, action="undo")  # round 2's trump
    response = phone.tap(2, action="undo")  # round 1's scoring
    assert response.headers["Location"].endswith(phone.round_path(1))
    assert "Undone: the scoring of round 1." in text(phone.get(response.headers["Location"]))


def test_a_trick_count_tapped_in_is_undone_and_the_history_tells_it(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    for seat, value in ((1, 1), (2, 0), (0, 0)):
        phone.bid(1, seat, value)
    phone.tricks(1, 1, 1)
    assert "Undo: Ute's tricks in round 1" in text(phone.round_page(1))
    response = phone.tap(1, action="undo")
    assert response.headers["Location"].startswith(phone.round_path(1))
    page = phone.get(response.headers["Location"])
    assert "Undone: Ute's tricks in round 1." in text(page)
    assert "Undo: Thomas's bid in round 1" in text(page)
    assert "Redo: Ute's tricks in round 1" in text(page)
    assert not pressed(page.get_data(as_text=True), "Ute won 1 trick")
    history = f"/games/{phone.game_id}/rounds/1/history"
    page = text(phone.get(history))
    assert "Tricks tapped in" in page
    assert "Undone" in page
    undone, tapped = page.split("Undone", 1)[1].split("Tricks tapped in", 1)  # latest first
    assert "Ute: tricks tapped in 1 → –" in undone
    assert "Ute: tricks tapped in 1 " in tapped
    german = text(phone.get(history, headers=GERMAN))
    assert "Stiche eingetippt" in german
    assert "Ute: eingetippte Stiche 1 → –" in german
    german = text(phone.get(phone.round_path(1), headers=GERMAN))
    assert "die Stiche von Ute in Runde 1" in german  # the redo button


@pytest.mark.parametrize(
    ("deck", "action", "value", "named", "german"),
    [
        (["cloud"], "cloud", "0:up", "the Cloud in round 1", "die Wolke in Runde 1"),
        (["bomb"], "bomb", "1", "the Bomb in round 1", "die Bombe in Runde 1"),
        # Both in the deck: named by the one the tap changed.
        (["bomb", "cloud"], "bomb", "1", "the Bomb in round 1", "die Bombe in Runde 1"),
        (["bomb", "cloud"], "cloud", "0:up", "the Cloud in round 1", "die Wolke in Runde 1"),
    ],
)
def test_the_undo_of_a_special_card_names_the_card_it_takes_back(
    phone: KeeperPhone, deck: list[str], action: str, value: str, named: str, german: str
) -> None:
    started(phone, deck=deck)
    phone.trump(1, "green")
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        phone.bid(1, seat, bid)
    assert phone.tap(1, action=action, value=value).status_code == 303
    assert f"Undo: {named}" in text(phone.round_page(1))
    in_german = text(phone.get(phone.round_path(1), headers=GERMAN))
    assert f"Rückgängig: {german}" in in_german
    response = phone.tap(1, action="undo")
    assert f"Undone: {named}." in text(phone.get(response.headers["Location"]))
