"""The new-game form's pages (web/games.py): a form sent twice starts one game; every tap on
the form answers with a redirect; a game set up again says what it carries over."""

from __future__ import annotations

import re

from flask import Flask

from ..factory import game_count
from ..keeper_phone import KeeperPhone, text
from .helpers import started

FORM_ID = re.compile(r'name="form_id" value="([^"]+)"')


def test_a_form_sent_twice_starts_one_game_and_both_land_on_it(
    phone: KeeperPhone, app: Flask
) -> None:
    page = phone.get("/games/new").get_data(as_text=True)
    form_id = FORM_ID.search(page)
    assert form_id
    form = {**phone.new_game_form(["Ann", "Bob", "Cy"]), "form_id": form_id.group(1)}
    first = phone.client.post("/games/new", data=form)
    second = phone.client.post("/games/new", data=form)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert game_count(app) == 1
    assert phone.get(second.headers["Location"]).status_code == 303  # on to its round 1


def test_each_showing_of_the_form_starts_a_game_of_its_own(phone: KeeperPhone, app: Flask) -> None:
    for _ in range(2):
        form_id = FORM_ID.search(phone.get("/games/new").get_data(as_text=True))
        assert form_id
        form = {**phone.new_game_form(["Ann", "Bob", "Cy"]), "form_id": form_id.group(1)}
        assert phone.client.post("/games/new", data=form).status_code == 303
    assert game_count(app) == 2


def test_another_browser_sending_the_same_form_id_starts_its_own_game(
    phone: KeeperPhone, other_phone: KeeperPhone, app: Flask
) -> None:
    form_id = FORM_ID.search(phone.get("/games/new").get_data(as_text=True))
    assert form_id
    mine = phone.client.post(
        "/games/new", data={**phone.new_game_form(["Ann", "Bob", "Cy"]), "form_id": form_id[1]}
    )
    theirs = other_phone.client.post(
        "/games/new",
        data={**other_phone.new_game_form(["Dan", "Eve", "Fay"]), "form_id": form_id[1]},
    )
    assert mine.headers["Location"] != theirs.headers["Location"]
    assert game_count(app) == 2


def test_playing_again_says_which_settings_are_carried_over(phone: KeeperPhone) -> None:
    started(phone, ["Ann", "Bob", "Cy"], rounds="5", bid_rule="canadian", bid_reveal="covered")
    page = text(phone.get(f"/games/new?again={phone.game_id}"))
    assert "Carried over from the last game: 5 rounds only, Canadian, covered bids." in page
    started(phone, ["Ann", "Bob", "Cy"])
    assert "Carried over" not in text(phone.get(f"/games/new?again={phone.game_id}"))


def test_the_form_says_how_long_a_name_may_be_and_why_no_seat_can_go(phone: KeeperPhone) -> None:
    page = text(phone.get("/games/new"))
    assert "A name has at most 24 characters." in page
    assert "No seat can be removed: Wizard needs at least 3 players." in page
