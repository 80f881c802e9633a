"""Cases found in reviews, through the Flask test client: wrong rounds, waiting rounds,
hidden bids, crafted forms."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.rules.cards import Suit, Trump, Turned
from scorekeeper.services import games

from ..confidant import Confidant, text
from .helpers import pressed, seat_values, started

# -- Found in review: wrong rounds, waiting rounds, hidden bids, crafted forms -----------------


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "trump", "turned": "red"},
        {"action": "bid", "seat": "0", "value": "0"},
        {"action": "tricks", "seat": "0", "value": "0"},
        {"action": "score"},
        {"action": "dance"},
    ],
)
def test_a_tap_on_a_round_still_waiting_leads_to_the_current_round(
    phone: Confidant, app: Flask, fields: dict[str, str]
) -> None:
    started(phone)
    response = phone.tap(3, version=phone.version(1), **fields)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{phone.game_id}"
    with app.app_context():
        assert games.get_game(phone.game_id).version == 1


def test_a_scored_round_is_never_rewritten_from_the_round_screen(
    phone: Confidant, app: Flask
) -> None:
    started(phone)
    phone.play(1, [0, 1, 1], [0, 0, 1], turned="blue")
    page = text(phone.round_page(1, "?turned=wizard"))
    assert "Round 1 is scored" in page
    assert "chooses the trump" not in page
    for fields in (
        {"action": "trump", "turned": "wizard", "chosen": "yellow"},
        {"action": "bid", "seat": "1", "value": "0"},
    ):
        response = phone.tap(1, version=phone.version(2), **fields)
        assert response.status_code == 409
        assert "Round 1 is scored already: correct it from the sheet." in text(response)
    with app.app_context():
        game = games.get_game(phone.game_id)
    assert game.view.round(1).trump == Trump(Turned.BLUE, Suit.BLUE)
    assert game.corrected == frozenset()


def test_links_of_a_later_round_name_that_round(phone: Confidant) -> None:
    started(phone)
    phone.play(1, [0, 1, 1], [0, 0, 1])
    body = phone.round_page(2).get_data(as_text=True)
    assert f'href="/games/{phone.game_id}/rounds/2?turned=wizard"' in body
    phone.trump(2, "red")
    body = phone.round_page(2).get_data(as_text=True)
    assert f'href="/games/{phone.game_id}/rounds/2?change=trump"' in body


def test_a_refused_change_of_the_bids_stays_on_the_bids_with_the_reason(
    phone: Confidant,
) -> None:
    started(phone, bid_rule="plus_minus_one")
    phone.trump(1, "green")
    for seat, bid in ((1, 0), (2, 1), (0, 1)):
        assert phone.bid(1, seat, bid).status_code == 303
    assert "Tricks won" in text(phone.round_page(1))
    assert "Bids" in text(phone.round_page(1, "?change=bids"))
    response = phone.tap(1, action="bid", seat=0, value=0, change="bids")
    assert response.status_code == 422
    page = text(response)
    assert "Thomas deals and may not bid 0" in page
    assert "Tricks won" not in page
    accepted = phone.tap(1, action="bid", seat=1, value=1, change="bids")
    assert accepted.headers["Location"].endswith("/rounds/1?change=bids")


def _row(body: str, seat: int) -> str:
    """One player's row of the round screen."""
    row = body[body.index(f'id="seat-{seat}"') :]
    return row[: row.index("</form>")]


def _words(html: str) -> str:
    """The text of a piece of a page, whitespace collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


FOUR = ["Alice", "Bob", "Charlotte", "Dave"]


def test_a_changed_bid_that_leaves_the_dealers_bid_forbidden_stands_and_the_dealer_bids_again(
    phone: Confidant,
) -> None:
    # Bob deals round 2 (2 tricks) and bid 0 after Alice 1, Charlotte 0 and Dave 0. Dave's
    # bid becomes 1: the restriction falls on the dealer, so Dave's 1 stands and Bob, whose 0
    # would now make the bids add up to 2, bids again.
    started(phone, FOUR, first_dealer="0", bid_rule="plus_minus_one")
    phone.play(1, [0, 0, 0, 0], [1, 0, 0, 0])
    phone.trump(2, "red")
    for seat, bid in ((2, 0), (3, 0), (0, 1), (1, 0)):
        assert phone.bid(2, seat, bid).status_code == 303
    response = phone.tap(2, action="bid", seat=3, value=1, change="bids", anchor="seat-3")
    assert response.status_code == 303, text(response)
    assert response.headers["Location"].endswith("/rounds/2?change=bids#seat-3")
    body = phone.get(response.headers["Location"]).get_data(as_text=True)
    dave, bob = _row(body, 3), _row(body, 1)
    assert pressed(dave, "Dave bids 1")
    assert _words(dave).endswith(
        "Dave now bids 1, so Bob, who deals, may not keep 0 (the bids would add up to the "
        "2 tricks of this round) and must bid again."
    )
    assert 'aria-pressed="true"' not in bob  # Bob's bid is taken back
    assert 'aria-label="Bob may not bid 0"' in bob
    assert "Bob deals and may not bid 0: the bids would add up to the 2 tricks" in bob
    assert "refusal" not in body
    assert "may not keep" not in phone.round_page(2).get_data(as_text=True)  # said once
    assert phone.bid(2, 1, 1).status_code == 303
    assert "Tricks won" in text(phone.round_page(2))


def test_a_covered_bid_that_leaves_the_dealers_bid_forbidden_stands_without_giving_it_away(
    phone: Confidant,
) -> None:
    started(phone, bid_rule="plus_minus_one", bid_reveal="covered")
    phone.trump(1, "green")
    phone.bid(1, 0, 1)  # Thomas deals and bids 1, unseen
    phone.bid(1, 1, 0)
    response = phone.bid(1, 2, 0)
    assert response.status_code == 303
    body = phone.get(response.headers["Location"]).get_data(as_text=True)
    assert _words(_row(body, 2)).endswith(
        "Kevin's bid is saved, but with it the bids would add up to the 1 trick of this "
        "round, which the bid rule forbids: Thomas, who deals, must bid again."
    )
    assert "2 of 3 have bid" in _words(body)
    assert "may not" not in body
    assert "keep 1" not in body
    refused = phone.bid(1, 0, 1)
    assert refused.status_code == 422
    page = text(refused)
    assert "which the bid rule forbids: Thomas, who deals, must bid something else" in page
    assert "may not bid 1" not in page
    assert phone.bid(1, 0, 0).status_code == 303
    assert "Thomas bid 0" in text(phone.round_page(1))


def test_covered_bids_in_play_name_the_dealers_forbidden_bid(phone: Confidant) -> None:
    # Revealed before play, the bids are open to all: the struck-out bid is named.
    started(phone, bid_rule="plus_minus_one", bid_reveal="covered")
    phone.trump(1, "green")
    for seat in (1, 2, 0):
        phone.bid(1, seat, 0)
    thomas = _row(phone.round_page(1, "?change=bids&seat=0").get_data(as_text=True), 0)
    assert "<s>1</s>" in thomas
    assert "Thomas deals and may not bid 1: the bids would add up to the 1 trick" in thomas
    assert "These bids" not in thomas


def test_the_trick_hint_says_too_many_before_asking_for_more(phone: Confidant) -> None:
    started(phone)
    phone.play(1, [0, 0, 0], [1, 0, 0])
    phone.trump(2, "red")
    for seat in range(3):
        phone.bid(2, seat, 1)
    phone.tricks(2, 2, 2)
    phone.tricks(2, 0, 2)
    page = text(phone.round_page(2))
    assert "The tricks add up to 4, but round 2 has 2: 2 tricks too many." in page
    assert "Tap the tricks" not in page


@pytest.mark.parametrize(
    ("names", "choices"),
    [
        (["A1", "B2", "C3", "D4", "E5", "F6", "G7"], {}),
        (["Ann", "Bob", "Cy"], {"first_dealer": "9"}),
        (["Ann", "Bob", "Cy"], {"first_dealer": "١"}),
        (["Ann", "Bob", "Cy"], {"rounds": "abc"}),
        (["Ann", "Bob", "Cy"], {"rounds": "-3"}),
    ],
)
def test_a_crafted_new_game_form_is_refused_never_guessed(
    phone: Confidant, names: list[str], choices: dict[str, str]
) -> None:
    response = phone.start(names, **choices)
    assert response.status_code == 422
    assert "Some of the choices were not understood" in text(response)
    assert "No games yet" in text(phone.get("/"))


def test_pages_styles_and_scripts_go_out_compressed(phone: Confidant) -> None:
    page = phone.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    # The history's styles come with the home page, htmx with the new-game form.
    body = phone.get("/").get_data(as_text=True) + phone.get("/games/new").get_data(as_text=True)
    # Text files (styles, scripts, the SVG icon); PNG icons are compressed already.
    links = set(re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js|svg)\?[^"]*)"', body))
    assert len(links) >= 5
    for link in links:
        response = phone.get(link, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == "gzip", link
        plain = phone.get(link)
        assert int(response.headers["Content-Length"]) < len(plain.get_data()) / 2, link
        response.close()
        plain.close()


def test_the_api_answers_in_plain_json_with_its_bare_etag(phone: Confidant) -> None:
    created = phone.client.post(
        "/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]}, headers={"Accept-Encoding": "gzip"}
    )
    assert "Content-Encoding" not in created.headers
    assert created.headers["ETag"] == '"1"'


def test_a_past_rounds_page_shows_the_standings_after_that_round(phone: Confidant) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    phone.play(2, [2, 0, 0], [1, 0, 1])
    page = text(phone.round_page(1))
    assert "Standings after round 1 1. Kevin 30 2. Thomas 20 3. Ute −10" in page


def test_once_the_tricks_add_up_the_others_are_filled_in_with_0(phone: Confidant) -> None:
    started(phone, ["Ann", "Bob", "Cy", "Dan"], first_dealer="0")
    phone.trump(1, "blue")
    for seat in range(4):
        phone.bid(1, seat, 0)
    phone.tricks(1, 1, 1)
    body = phone.round_page(1).get_data(as_text=True)
    for name in ("Cy", "Dan", "Ann"):
        assert pressed(body, f"{name} won 0 tricks"), name
    assert phone.score(1).status_code == 303


def test_a_refusal_is_brought_into_view(phone: Confidant) -> None:
    started(phone)
    phone.trump(1, "green")
    response = phone.bid(1, 1, 5)
    assert response.status_code == 422
    assert response.headers["HX-Reswap"] == "innerHTML show:top showTarget:#refusal"
    assert 'id="refusal" role="alert"' in response.get_data(as_text=True)


def test_the_new_game_form_survives_a_reload_until_the_game_starts(phone: Confidant) -> None:
    form = phone.new_game_form(["Ann", "Bob", "Cy"], action="refresh", bid_rule="canadian")
    assert phone.client.post("/games/new", data=form).status_code == 303
    body = phone.get("/games/new").get_data(as_text=True)
    assert seat_values(body) == ["Ann", "Bob", "Cy"]
    assert 'value="canadian" checked' in body
    assert phone.start(["Ann", "Bob", "Cy"]).status_code == 303
    assert seat_values(phone.get("/games/new").get_data(as_text=True)) == ["", "", ""]


def test_a_form_that_comes_back_says_so_and_starts_afresh_on_a_tap(phone: Confidant) -> None:
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

    cleared = phone.client.post("/games/new", data={**form, "action": "clear"})
    assert cleared.status_code == 303
    assert cleared.headers["Location"] == "/games/new"
    body = phone.get("/games/new").get_data(as_text=True)
    assert notice not in body
    assert seat_values(body) == ["", "", ""]
    assert 'value="standard" checked' in body


def test_a_form_left_without_a_name_comes_back_without_a_word(phone: Confidant) -> None:
    form = phone.new_game_form(["", "", ""], action="add")
    assert phone.client.post("/games/new", data=form).status_code == 303
    body = phone.get("/games/new").get_data(as_text=True)
    assert seat_values(body) == ["", "", "", ""]
    assert "Filled in as you left it" not in body


def test_start_afresh_needs_the_forms_token(phone: Confidant) -> None:
    form = phone.new_game_form(["Ann", "Bob", "Cy"], action="refresh")
    assert phone.client.post("/games/new", data=form).status_code == 303
    refused = phone.client.post("/games/new", data={"action": "clear"})
    assert refused.status_code == 400
    assert seat_values(phone.get("/games/new").get_data(as_text=True)) == ["Ann", "Bob", "Cy"]


def test_the_correction_form_strikes_out_the_dealers_forbidden_bid(
    phone: Confidant, app: Flask
) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0", bid_rule="plus_minus_one")
    phone.play(1, [1, 1, 0], [0, 0, 1])
    path = f"/games/{phone.game_id}/rounds/1/correct"
    with app.app_context():
        version = games.get_game(phone.game_id).version
    tapped = {
        "csrf_token": phone.csrf(),
        "version": str(version),
        "action": "refresh",
        "turned": "blue",
        "bid-0": "1",
        "bid-1": "0",
        "bid-2": "0",
        **{f"tricks-{seat}": str(count) for seat, count in enumerate([0, 0, 1])},
    }
    response = phone.client.post(path, data=tapped)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert re.search(
        r'<label class="chip refused minus"><input type="radio" name="bid-0" value="1"', body
    )
    assert "Thomas deals and may not bid 1" in body
    with app.app_context():
        assert games.get_game(phone.game_id).version == version  # a refresh saves nothing


def test_the_correction_hint_in_a_covered_game_is_true_of_the_bids_shown(
    phone: Confidant,
) -> None:
    # Jürgen deals round 2. The bids 1, 0, 0, 0, 0 are allowed (1, not 2); only the
    # struck-out 1 would make them add up to the 2 tricks, and the hint says so.
    names = ["Anna", "Bert", "Carla", "Dieter", "Jürgen"]
    started(phone, names, first_dealer="3", bid_rule="plus_minus_one", bid_reveal="covered")
    phone.play(1, [0, 0, 0, 0, 0], [1, 0, 0, 0, 0])
    phone.play(2, [1, 0, 0, 0, 0], [2, 0, 0, 0, 0])
    page = phone.get(f"/games/{phone.game_id}/rounds/2/correct")
    body = page.get_data(as_text=True)
    assert re.search(
        r'<label class="chip refused minus"><input type="radio" name="bid-4" value="1"', body
    )
    assert "Jürgen deals and may not bid 1: the bids would add up to the 2 tricks" in text(page)
    assert "These bids" not in body


def test_the_same_table_plays_again_with_the_deal_passed_on(app: Flask, phone: Confidant) -> None:
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
    phone.play(1, [1, 1, 1], [1, 0, 0])
    first = phone.game_id
    over = phone.get(f"/games/{first}")
    assert f'href="/games/new?again={first}"' in over.get_data(as_text=True)
    assert "Play again, same table" in text(over)

    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Game))
        before = games.get_game(first).table
    body = phone.get(f"/games/new?again={first}").get_data(as_text=True)
    with app.app_context():  # only filled in: nothing is written until "Start the game"
        assert db.session.scalar(select(func.count()).select_from(Game)) == count
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


def test_a_seat_number_in_other_digits_moves_no_seat(phone: Confidant) -> None:
    form = phone.new_game_form(["Ann", "Bob", "Cy"], action="up-²")
    response = phone.client.post("/games/new", data=form)
    assert response.status_code == 303  # the form again, as it was
    assert seat_values(phone.get(response.headers["Location"]).get_data(as_text=True))[:3] == [
        "Ann",
        "Bob",
        "Cy",
    ]


@pytest.mark.parametrize("key", ["9" * 19, "9" * 32, "²"])
def test_a_history_link_with_an_overlong_row_id_shows_the_latest_changes(
    phone: Confidant, key: str
) -> None:
    started(phone)
    phone.trump(1, "blue")
    history = f"/games/{phone.game_id}/rounds/1/history"
    response = phone.get(f"{history}?before=1700000000000000.{key}")
    assert response.status_code == 200
    assert "Trump:" in text(response)
