"""Undo and redo on the round screen (web/rounds.py): the buttons, what a tap does, and the
refusal after another phone's write."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import games

from ..confidant import Confidant, text


@pytest.fixture
def phone(client: FlaskClient) -> Confidant:
    confidant = Confidant(client)
    assert confidant.start().status_code == 303
    return confidant


def test_a_new_game_offers_no_undo(phone: Confidant) -> None:
    assert "Undo:" not in text(phone.round_page(1))


def test_the_undo_button_names_the_last_write_and_takes_it_back(
    phone: Confidant, app: Flask
) -> None:
    phone.trump(1, "green")
    phone.bid(1, 1, 1)
    assert "Undo: Ute's bid in round 1" in text(phone.round_page(1))
    response = phone.tap(1, action="undo")
    assert response.status_code == 303
    page = text(phone.get(response.headers["Location"]))
    assert "Undone: Ute's bid in round 1." in page
    assert "Undo: the trump of round 1" in page
    assert "Redo: Ute's bid in round 1" in page
    with app.app_context():
        assert games.get_game(phone.game_id).round(1).bids in (None, (None, None, None))
    phone.tap(1, action="redo")
    with app.app_context():
        assert games.get_game(phone.game_id).round(1).bids == (None, 1, None)


def test_undo_of_a_scoring_leads_back_to_that_round(phone: Confidant, app: Flask) -> None:
    phone.play(1, bids=[0, 1, 0], tricks=[0, 1, 0])
    phone.trump(2, "red")
    phone.tap(2, action="undo")  # round 2's trump
    response = phone.tap(2, action="undo")  # round 1's scoring
    assert response.headers["Location"].endswith(phone.round_path(1))
    assert "Undone: the scoring of round 1." in text(phone.get(response.headers["Location"]))
    with app.app_context():
        assert games.get_game(phone.game_id).view.current_round == 1


def test_an_undo_after_another_phones_write_is_refused_in_one_sentence(
    phone: Confidant, app: Flask
) -> None:
    phone.trump(1, "green")
    stale = phone.version(1)
    phone.bid(1, 1, 1)  # another phone's write moves the version on
    response = phone.tap(1, version=stale, action="undo")
    assert response.status_code == 412
    assert "This game was changed a moment ago (on another phone or screen" in text(response)
    with app.app_context():
        assert games.get_game(phone.game_id).round(1).bids == (None, 1, None)


def test_nothing_left_to_undo_is_said_in_one_sentence(phone: Confidant) -> None:
    phone.trump(1, "green")
    phone.tap(1, action="undo")
    response = phone.tap(1, action="undo")
    assert response.status_code == 409
    assert "There is nothing to undo." in text(response)


def test_a_trick_count_tapped_in_is_undone_and_the_history_tells_it(
    phone: Confidant, app: Flask
) -> None:
    phone.trump(1, "green")
    for seat, value in ((1, 1), (2, 0), (0, 0)):
        phone.bid(1, seat, value)
    phone.tricks(1, 1, 1)
    assert "Undo: Ute's tricks in round 1" in text(phone.round_page(1))
    response = phone.tap(1, action="undo")
    assert response.headers["Location"].startswith(phone.round_path(1))
    page = text(phone.get(response.headers["Location"]))
    assert "Undone: Ute's tricks in round 1." in page
    assert "Undo: Thomas's bid in round 1" in page
    assert "Redo: Ute's tricks in round 1" in page
    with app.app_context():
        assert games.get_game(phone.game_id).draft(1) == (None, None, None)
    history = f"/games/{phone.game_id}/rounds/1/history"
    page = text(phone.get(history))
    assert "Tricks tapped in" in page
    assert "Undone" in page
    undone, tapped = page.split("Undone", 1)[1].split("Tricks tapped in", 1)  # latest first
    assert "Ute: tricks tapped in 1 → –" in undone
    assert "Ute: tricks tapped in 1 " in tapped
    german = text(phone.get(history, headers={"Accept-Language": "de"}))
    assert "Stiche eingetippt" in german
    assert "Ute: eingetippte Stiche 1 → –" in german
    german = text(phone.get(phone.round_path(1), headers={"Accept-Language": "de"}))
    assert "die Stiche von Ute in Runde 1" in german  # the redo button


@pytest.mark.parametrize(
    ("deck", "action", "value", "named", "german"),
    [
        (["cloud"], "cloud", "0:up", "the Cloud in round 1", "die Wolke in Runde 1"),
        (["bomb"], "bomb", "1", "the Bomb in round 1", "die Bombe in Runde 1"),
        (
            ["bomb", "cloud"],
            "bomb",
            "1",
            "the Bomb or the Cloud in round 1",
            "die Bombe oder die Wolke in Runde 1",
        ),
    ],
)
def test_the_undo_of_a_special_card_names_the_cards_in_the_deck(
    client: FlaskClient, deck: list[str], action: str, value: str, named: str, german: str
) -> None:
    phone = Confidant(client)
    form = phone.new_game_form(["Thomas", "Ute", "Kevin"])
    form["special_cards"] = deck
    phone.game_id = client.post("/games/new", data=form).headers["Location"].rsplit("/", 1)[-1]
    phone.trump(1, "green")
    for seat, bid in ((1, 1), (2, 0), (0, 0)):
        phone.bid(1, seat, bid)
    assert phone.tap(1, action=action, value=value).status_code == 303
    assert f"Undo: {named}" in text(phone.round_page(1))
    in_german = text(phone.get(phone.round_path(1), headers={"Accept-Language": "de"}))
    assert f"Rückgängig: {german}" in in_german
    response = phone.tap(1, action="undo")
    assert f"Undone: {named}." in text(phone.get(response.headers["Location"]))
