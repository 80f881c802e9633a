"""The home page and the new-game form through the Flask test client: every choice, every
refusal, seats added, removed and moved, the form kept on the phone, the same table again."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import GameRow
from scorekeeper.services import games

from ..keeper_phone import KeeperPhone, text
from .helpers import played, seat_values, started

# -- Home ------------------------------------------------------------------------------------


def test_home_invites_to_start_a_game_when_this_phone_keeps_none(phone: KeeperPhone) -> None:
    page = phone.get("/")
    assert page.status_code == 200
    assert "Start a new game" in text(page)
    assert "No games yet on this phone" in text(page)
    assert 'role="search"' not in page.get_data(as_text=True)  # nothing to find yet
    started(phone)
    assert 'role="search"' in phone.get("/").get_data(as_text=True)
    nothing = phone.get("/?q=Zoe")
    assert "No game matches." in text(nothing)
    assert 'role="search"' in nothing.get_data(as_text=True)  # to search again


def test_home_lists_the_kept_games_in_progress_first_with_round_and_leader(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, ["Ann", "Bob", "Cy"], rounds=1)
    finished = phone.game_id
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    started(phone, ["Dora", "Eve", "Finn"])
    played(app, phone, ([0, 0, 1], [0, 0, 1]))
    page = text(phone.get("/"))
    assert page.index("Dora, Eve, Finn") < page.index("Ann, Bob, Cy")
    assert "Round 2 of 20 · Finn is ahead" in page
    assert "Finished · Ann won" in page
    assert f"/games/{finished}" in phone.get("/").get_data(as_text=True)


def test_home_of_another_phone_does_not_list_the_game(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    started(phone)
    assert "Thomas, Ute, Kevin" not in text(other_phone.get("/"))


# -- New game ----------------------------------------------------------------------------------


def test_new_game_form_offers_three_seats_every_variant_and_the_full_game(
    phone: KeeperPhone,
) -> None:
    page = phone.get("/games/new")
    body = page.get_data(as_text=True)
    assert page.status_code == 200
    assert len(re.findall(r'name="names-\d"', body)) == 3
    for label in ("Standard", "Plus/Minus One", "Canadian", "Open", "Covered", "Secret"):
        assert label in text(page)
    assert "Draw at random" in text(page)
    assert "Full game: 20 rounds" in text(page)
    assert "Clairvoyance" in text(page)


def _arrange(phone: KeeperPhone, names: list[str], action: str, **extra: str) -> str:
    form = phone.new_game_form(names, action=action, **extra)
    response = phone.client.post("/games/new", data=form)
    # Answered with a redirect to the form's page, which shows the form as arranged.
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/new"
    page = phone.client.get("/games/new")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def test_seats_are_added_removed_and_moved_up_by_tapping(phone: KeeperPhone) -> None:
    body = _arrange(phone, ["Ann", "Bob", "Cy"], "add")
    assert seat_values(body) == ["Ann", "Bob", "Cy", ""]
    assert "Full game: 15 rounds" in body  # four players
    body = _arrange(phone, ["Ann", "Bob", "Cy", "Dan"], "remove-1")
    assert seat_values(body) == ["Ann", "Cy", "Dan"]
    body = _arrange(phone, ["Ann", "Bob", "Cy"], "up-2")
    assert seat_values(body) == ["Ann", "Cy", "Bob"]
    # A seat number in other digits moves no seat: the form again, as it was.
    body = _arrange(phone, ["Ann", "Bob", "Cy"], "up-²")
    assert seat_values(body)[:3] == ["Ann", "Bob", "Cy"]


def test_moving_a_seat_keeps_the_chosen_dealer(phone: KeeperPhone) -> None:
    body = _arrange(phone, ["Ann", "Bob", "Cy"], "up-2", first_dealer="2")
    # Cy, the chosen dealer, now sits in seat 2 (index 1).
    assert re.search(r'value="1" checked>\s*Cy', body)


def test_a_table_keeps_between_three_and_six_seats(phone: KeeperPhone) -> None:
    body = _arrange(phone, ["Ann", "Bob", "Cy"], "remove-0")
    assert seat_values(body) == ["Ann", "Bob", "Cy"]
    assert re.search(r'value="remove-0"[^>]*disabled', body)
    six = ["A1", "B2", "C3", "D4", "E5", "F6"]
    body = _arrange(phone, six, "add")
    assert seat_values(body) == six
    assert 'value="add"' not in body
    assert "Wizard is played by 3 to 6 players." in body


def test_starting_a_game_gives_this_browser_the_edit_right_in_a_cookie(
    phone: KeeperPhone,
) -> None:
    response = phone.start(["Thomas", "Ute", "Kevin"])
    assert response.status_code == 303
    location = response.headers["Location"]
    assert re.fullmatch(r"/games/[A-Za-z0-9_-]{24}", location)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Expires=" in cookie  # kept across browser restarts
    assert phone.get(location).headers["Location"].endswith("/rounds/1")


def test_a_started_game_has_the_chosen_rules(app: Flask, phone: KeeperPhone) -> None:
    started(
        phone,
        ["Ann", "Bob", "Cy", "Dan"],
        first_dealer="2",
        bid_rule="canadian",
        bid_reveal="secret",
        clairvoyance="y",
        rounds="5",
    )
    with app.app_context():
        game = games.get_game(phone.game_id)
    table = game.table
    assert table.players == ("Ann", "Bob", "Cy", "Dan")
    assert table.first_dealer == 2
    assert table.rules.bid_rule == "canadian"
    assert table.rules.bid_reveal == "secret"
    assert table.rules.clairvoyance is True
    assert table.rules.rounds == 5


def test_draw_at_random_picks_a_seat_of_the_table(app: Flask, phone: KeeperPhone) -> None:
    started(phone, first_dealer="random")
    with app.app_context():
        assert games.get_game(phone.game_id).table.first_dealer in (0, 1, 2)


@pytest.mark.parametrize(
    ("names", "choices", "message"),
    [
        # One refusal of the rules shown (their sentences are tests/rules/test_setup.py's).
        (["Ann", "Bob", "Ann"], {}, "Two players are called “Ann”: give every player a different"),
        (["Ann", "Bob", "Cy"], {"bid_rule": "chaos"}, "Some of the choices were not understood"),
        (["Ann", "Bob", "Cy"], {"bid_reveal": "x"}, "Some of the choices were not understood"),
        # Crafted forms: refused, never guessed.
        (["A1", "B2", "C3", "D4", "E5", "F6", "G7"], {}, "Some of the choices were not understood"),
        (["Ann", "Bob", "Cy"], {"first_dealer": "9"}, "Some of the choices were not understood"),
        (["Ann", "Bob", "Cy"], {"first_dealer": "١"}, "Some of the choices were not understood"),
        (["Ann", "Bob", "Cy"], {"rounds": "abc"}, "Some of the choices were not understood"),
        (["Ann", "Bob", "Cy"], {"rounds": "-3"}, "Some of the choices were not understood"),
    ],
)
def test_a_game_the_rules_refuse_is_not_started_and_the_page_says_why(
    phone: KeeperPhone, names: list[str], choices: dict[str, str], message: str
) -> None:
    response = phone.start(names, **choices)
    assert response.status_code == 422
    assert message in text(response)
    assert phone.game_id == ""
    assert 'role="alert"' in response.get_data(as_text=True)
    assert "No games yet" in text(phone.get("/"))


def test_a_form_without_its_csrf_token_is_refused(phone: KeeperPhone) -> None:
    form = phone.new_game_form(["Ann", "Bob", "Cy"])
    del form["csrf_token"]
    response = phone.client.post("/games/new", data=form)
    assert response.status_code == 400
    assert "nothing was saved" in text(response)
    assert "No games yet" in text(phone.get("/"))


def test_names_of_earlier_games_are_offered(phone: KeeperPhone) -> None:
    started(phone, ["Ute", "Kevin", "Thomas"])
    body = phone.get("/games/new").get_data(as_text=True)
    datalist = body[body.index('<datalist id="known-names">') :]
    assert all(f'<option value="{name}">' in datalist for name in ("Ute", "Kevin", "Thomas"))


# -- The form kept on this phone, the same table again ------------------------------------------


def test_the_new_game_form_survives_a_reload_until_the_game_starts(phone: KeeperPhone) -> None:
    form = phone.new_game_form(["Ann", "Bob", "Cy"], action="refresh", bid_rule="canadian")
    assert phone.client.post("/games/new", data=form).status_code == 303
    body = phone.get("/games/new").get_data(as_text=True)
    assert seat_values(body) == ["Ann", "Bob", "Cy"]
    assert 'value="canadian" checked' in body
    assert phone.start(["Ann", "Bob", "Cy"]).status_code == 303
    assert seat_values(phone.get("/games/new").get_data(as_text=True)) == ["", "", ""]


def test_a_form_that_comes_back_says_so_and_starts_afresh_on_a_tap(phone: KeeperPhone) -> None:
    notice = "Filled in as you left it on this phone."
    assert notice not in phone.get("/games/new").get_data(as_text=True)  # a first visit
    form = phone.new_game_form(["Ann", "", ""], action="refresh", bid_rule="canadian")
    assert phone.client.post("/games/new", data=form).status_code == 303
    # The page the tap redirects to is the form as tapped, said nothing of...
    assert notice not in phone.get("/games/new").get_data(as_text=True)
    # ...and when the phone comes back to it later, the form says it was kept.
    body = phone.get("/games/new").get_data(as_text=True)
    assert notice in body
    assert re.search(r'<button type="submit" name="action" value="clear"[^>]*>Start afresh<', body)
    assert seat_values(body) == ["Ann", "", ""]

    # Start afresh needs the form's token.
    refused = phone.client.post("/games/new", data={"action": "clear"})
    assert refused.status_code == 400
    assert seat_values(phone.get("/games/new").get_data(as_text=True)) == ["Ann", "", ""]
    cleared = phone.client.post("/games/new", data={**form, "action": "clear"})
    assert cleared.status_code == 303
    assert cleared.headers["Location"] == "/games/new"
    body = phone.get("/games/new").get_data(as_text=True)
    assert notice not in body
    assert seat_values(body) == ["", "", ""]
    assert 'value="standard" checked' in body


def test_a_form_left_without_a_name_comes_back_without_a_word(phone: KeeperPhone) -> None:
    form = phone.new_game_form(["", "", ""], action="add")
    assert phone.client.post("/games/new", data=form).status_code == 303
    body = phone.get("/games/new").get_data(as_text=True)
    assert seat_values(body) == ["", "", "", ""]
    assert "Filled in as you left it" not in body


def test_the_same_table_plays_again_with_the_deal_passed_on(app: Flask, phone: KeeperPhone) -> None:
    started(
        phone,
        ["Ann", "Bob", "Cy"],
        first_dealer="2",
        rounds="1",
        bid_rule="plus_minus_one",
        last_bidder_may_bid_zero="y",
        bid_reveal="covered",
        clairvoyance="y",
    )
    played(app, phone, ([1, 1, 1], [1, 0, 0]))
    first = phone.game_id
    over = phone.get(f"/games/{first}")
    assert f'href="/games/new?again={first}"' in over.get_data(as_text=True)
    assert "Play again, same table" in text(over)

    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(GameRow))
        before = games.get_game(first).table
    body = phone.get(f"/games/new?again={first}").get_data(as_text=True)
    with app.app_context():  # only filled in: nothing is written until "Start the game"
        assert db.session.scalar(select(func.count()).select_from(GameRow)) == count
    # The form as it came, sent as it is.
    checked = dict(
        re.findall(r'<input type="(?:radio|checkbox)"[^>]*name="(\w+)" value="(\w+)" checked', body)
    )
    selected = re.search(r'<option value="(\w+)" selected', body)
    assert selected is not None
    assert phone.start(seat_values(body), **checked, rounds=selected.group(1)).status_code == 303
    with app.app_context():
        again = games.get_game(phone.game_id).table
    assert phone.game_id != first
    assert again.players == ("Ann", "Bob", "Cy")
    assert again.first_dealer == 0  # Cy dealt first last time: Ann deals now
    assert again.rules == before.rules  # every rule alike, the rounds too

    unknown = phone.get("/games/new?again=no-such-game")
    assert unknown.status_code == 200
    assert seat_values(unknown.get_data(as_text=True)) == ["", "", ""]
