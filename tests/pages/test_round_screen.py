"""The round screen through the Flask test client: trump, bids, tricks and scoring, a tap
at a time; a refusal shown by the row it concerns; forms the screen never sends."""

from __future__ import annotations

import re

from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper.rules.cards import Suit, TrumpCard, Turned
from scorekeeper.services import games

from ..keeper_phone import KeeperPhone, text, words
from ..statements import count_statements
from .helpers import played, pressed, row, started

# -- What each step shows -------------------------------------------------------------------


def test_the_seeds_example_through_the_pages(phone: KeeperPhone) -> None:
    started(phone, first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1], turned="blue")
    scored = text(phone.round_page(1))
    assert "Round 1 is scored" in scored
    assert "Ute 1 0 −10" in scored
    assert "Kevin 1 1 +30" in scored
    assert "Thomas 0 0 +20" in scored
    phone.play(2, [2, 0, 0], [1, 0, 1])
    sheet = text(phone.get(f"/games/{phone.game_id}/sheet"))
    assert "Total 10 10 20" in sheet
    # A past round's page shows the standings after that round.
    page = text(phone.round_page(1))
    assert "Standings after round 1 1. Kevin 30 2. Thomas 20 3. Ute −10" in page


def test_the_round_header_says_cards_dealer_and_first_bidder(phone: KeeperPhone) -> None:
    started(phone, first_dealer="1")
    page = text(phone.round_page(1))
    assert "Round 1 of 20" in page
    assert "1 card each · Ute deals · Kevin bids and leads first" in page
    assert "Which card was turned up for trump?" in page


def test_the_trump_step_offers_four_peoples_jester_and_wizard(phone: KeeperPhone) -> None:
    started(phone)
    page = text(phone.round_page(1))
    for label in ("blue Humans", "green Elves", "red Dwarves", "yellow Giants", "Jester"):
        assert label in page
    assert "Wizard: the dealer chooses" in page
    wizard = text(phone.round_page(1, "?turned=wizard"))
    assert "A Wizard was turned: Thomas, the dealer, chooses the trump" in wizard


def test_a_wizard_turned_records_the_dealers_suit_and_none_is_refused(phone: KeeperPhone) -> None:
    started(phone)
    response = phone.trump(1, "wizard")
    assert response.status_code == 422
    assert "Wizard" in text(response)
    assert "Which card was turned up for trump?" in text(phone.round_page(1))
    assert phone.trump(1, "wizard", "yellow").status_code == 303
    page = text(phone.round_page(1))
    assert "yellow Giants, chosen by the dealer under a Wizard" in page
    assert "Bids" in page


def test_the_clairvoyance_reminder_shows_in_round_one_only(app: Flask, phone: KeeperPhone) -> None:
    started(phone, clairvoyance="y")
    assert "Clairvoyance: everyone holds their card" in text(phone.round_page(1))
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    assert "Clairvoyance" not in text(phone.round_page(2))


def test_bids_show_the_running_total_against_the_tricks(app: Flask, phone: KeeperPhone) -> None:
    started(phone)
    played(app, phone, ([0, 0, 0], [1, 0, 0]))
    phone.trump(2, "red")
    phone.bid(2, 0, 1)
    assert "Bids so far add up to 1, for 2 tricks." in text(phone.round_page(2))
    phone.bid(2, 2, 2)
    assert "Bids so far add up to 3, for 2 tricks." in text(phone.round_page(2))


def test_a_bid_tap_is_saved_at_once_and_shown_pressed(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    response = phone.bid(1, 1, 1)
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/rounds/1#seat-1")
    body = phone.round_page(1).get_data(as_text=True)
    assert pressed(body, "Ute bids 1")
    assert not pressed(body, "Kevin bids 0")


def test_the_dealers_forbidden_bid_is_struck_out_and_refused_by_the_dealers_row(
    phone: KeeperPhone,
) -> None:
    started(phone, bid_rule="plus_minus_one")
    phone.trump(1, "green")
    phone.bid(1, 1, 0)
    phone.bid(1, 2, 0)
    body = phone.round_page(1).get_data(as_text=True)
    assert re.search(r'disabled class="refused minus" aria-label="Thomas may not bid 1"', body)
    assert "<s>1</s>" in body
    assert "Thomas deals and may not bid 1: the bids would add up to the 1 trick" in body
    response = phone.bid(1, 0, 1)
    assert response.status_code == 422
    assert "Thomas deals and may not bid 1" in row(response.get_data(as_text=True), 0)
    assert not pressed(phone.round_page(1).get_data(as_text=True), "Thomas bids 1")


def test_a_refused_bid_is_said_and_brought_into_view(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    response = phone.bid(1, 1, 5)
    assert response.status_code == 422
    assert "In round 1 Ute can bid 0 to 1, not 5." in text(response)
    assert response.headers["HX-Reswap"] == "innerHTML show:top showTarget:#refusal"
    assert 'id="refusal" role="alert"' in response.get_data(as_text=True)


def test_covered_bids_are_hidden_until_all_are_in_then_revealed_at_once(
    phone: KeeperPhone,
) -> None:
    started(phone, bid_reveal="covered", bid_rule="plus_minus_one")
    phone.trump(1, "green")
    phone.bid(1, 1, 1)
    page = phone.round_page(1).get_data(as_text=True)
    assert "1 of 3 has bid." in words(page)
    assert "✓ has bid" in page
    assert 'aria-pressed="true"' not in page
    phone.bid(1, 2, 0)
    # The forbidden bid would give the hidden bids away: nothing is struck out.
    page = phone.round_page(1).get_data(as_text=True)
    assert "may not bid" not in page
    assert "2 of 3 have bid." in words(page)
    phone.bid(1, 0, 1)
    # All in: revealed at once, without a tap, on each trick row and in their total.
    tricks = text(phone.round_page(1))
    assert "Ute bid 1 0 1 Kevin bid 0 0 1 Thomas bid 1" in tricks
    assert "The bids add up to 2, for 1 trick." in tricks


def test_a_covered_bid_can_be_changed(phone: KeeperPhone) -> None:
    started(phone, bid_reveal="covered")
    phone.trump(1, "green")
    phone.bid(1, 1, 1)
    change = phone.round_page(1, "?seat=1").get_data(as_text=True)
    assert 'aria-label="Ute bids 0"' in change
    assert phone.bid(1, 1, 0).status_code == 303


def test_secret_bids_stay_hidden_until_the_round_is_scored(phone: KeeperPhone) -> None:
    started(phone, bid_reveal="secret")
    phone.trump(1, "green")
    for seat, bid in enumerate([1, 0, 0]):
        phone.bid(1, seat, bid)
    tricks = text(phone.round_page(1))
    assert "The bids stay secret until the round is scored." in tricks
    assert "bid 1" not in tricks
    assert "Everyone made their bid" not in tricks
    phone.tricks(1, 0, 1)
    phone.tricks(1, 1, 0)
    assert phone.score(1).status_code == 303
    assert "Thomas 1 1 +30" in text(phone.round_page(1))


def test_the_last_players_tricks_are_filled_in_from_the_sum(app: Flask, phone: KeeperPhone) -> None:
    started(phone)
    played(app, phone, ([0, 0, 0], [1, 0, 0]))
    phone.trump(2, "red")
    for seat, bid in enumerate([1, 1, 1]):
        phone.bid(2, seat, bid)
    assert "Tricks so far: 0 of 2." in text(phone.round_page(2))
    phone.tricks(2, 2, 1)  # Ute deals round 2: Kevin and Thomas are tapped, Ute is filled in
    assert "Tricks so far: 1 of 2." in text(phone.round_page(2))
    phone.tricks(2, 0, 0)
    body = phone.round_page(2).get_data(as_text=True)
    assert "filled in from the sum" in body
    assert "Tricks so far: 2 of 2." in words(body)  # Ute's 1 counts
    assert pressed(body, "Ute won 1 trick")
    assert phone.score(2).status_code == 303
    assert "Ute 1 1 +30" in text(phone.round_page(2))


def test_once_the_tricks_add_up_the_others_are_filled_in_with_0(phone: KeeperPhone) -> None:
    started(phone, ["Ann", "Bob", "Cy", "Dan"], first_dealer="0")
    phone.trump(1, "blue")
    for seat in range(4):
        phone.bid(1, seat, 0)
    phone.tricks(1, 1, 1)
    body = phone.round_page(1).get_data(as_text=True)
    assert pressed(body, "Bob won 1 trick")  # the tap itself, kept
    for name in ("Cy", "Dan", "Ann"):
        assert pressed(body, f"{name} won 0 tricks"), name
    assert phone.score(1).status_code == 303


def test_everyone_made_their_bid_in_one_tap(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    for seat, bid in enumerate([0, 1, 0]):
        phone.bid(1, seat, bid)
    assert "Everyone made their bid" in text(phone.round_page(1))
    assert phone.tap(1, action="all_made").status_code == 303
    assert "Ute 1 1 +30" in text(phone.round_page(1))


def test_everyone_made_is_not_offered_when_the_bids_miss_the_cards(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    for seat in range(3):
        phone.bid(1, seat, 1)
    assert "Everyone made their bid" not in text(phone.round_page(1))
    response = phone.tap(1, action="all_made")
    assert response.status_code == 422
    assert "The bids add up to 3, not to the 1 trick of round 1" in text(response)


def test_the_trick_hint_says_what_is_missing_or_too_many_and_scoring_waits(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone)
    played(app, phone, ([0, 0, 0], [1, 0, 0]), ([0, 0, 0], [2, 0, 0]))
    phone.trump(3, "blue")
    for seat in range(3):
        phone.bid(3, seat, 1)
    response = phone.score(3)
    assert response.status_code == 422
    assert "Tap the tricks Thomas won." in text(response)  # Thomas bids first in round 3
    phone.tricks(3, 0, 0)
    phone.tricks(3, 1, 0)
    phone.tricks(3, 2, 1)
    page = text(phone.round_page(3))
    assert "The tricks add up to 1, but round 3 has 3: 2 tricks are missing." in page
    response = phone.score(3)
    assert response.status_code == 422
    assert "2 tricks are missing" in text(response)
    phone.tricks(3, 2, 2)
    phone.tricks(3, 0, 3)
    page = text(phone.round_page(3))
    assert "The tricks add up to 5, but round 3 has 3: 2 tricks too many." in page
    assert "Tap the tricks" not in page
    assert "Round 3 is scored" not in text(phone.round_page(3))


# -- Taps out of turn, changes, refusals ------------------------------------------------------


def test_a_round_still_waiting_leads_to_the_current_round_and_saves_no_tap(
    phone: KeeperPhone, app: Flask
) -> None:
    started(phone)
    response = phone.round_page(3)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{phone.game_id}"
    version = phone.version(1)
    for fields in (
        {"action": "trump", "turned": "red"},
        {"action": "bid", "seat": "0", "value": "0"},
        {"action": "tricks", "seat": "0", "value": "0"},
        {"action": "score"},
        {"action": "dance"},
    ):
        response = phone.tap(3, version=version, **fields)
        assert response.status_code == 303, fields
        assert response.headers["Location"] == f"/games/{phone.game_id}"
    with app.app_context():
        assert games.get_game(phone.game_id).version == 1


def test_a_scored_round_is_never_rewritten_from_the_round_screen(
    phone: KeeperPhone, app: Flask
) -> None:
    started(phone)
    played(app, phone, ([0, 1, 1], [0, 0, 1]), turned="blue")
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
    assert game.view.round(1).trump == TrumpCard(Turned.BLUE, Suit.BLUE)
    assert game.corrected == frozenset()


def test_a_stale_page_gets_the_fresh_state_and_saves_nothing(
    phone: KeeperPhone, app: Flask
) -> None:
    started(phone)
    phone.trump(1, "green")
    stale = phone.version(1)
    phone.bid(1, 1, 1)  # another tap (it could be another phone) moves the version on
    response = phone.tap(1, version=stale, action="bid", seat=1, value=0)
    assert response.status_code == 412
    assert (
        "This game was changed a moment ago (on another phone or screen, or by a tap whose "
        "answer never came), so your tap was not" in text(response)
    )
    assert pressed(response.get_data(as_text=True), "Ute bids 1")
    with app.app_context():
        assert games.get_game(phone.game_id).view.round(1).bids == (None, 1, None)


def test_another_phone_can_follow_the_game_but_not_write(
    phone: KeeperPhone, other_phone: KeeperPhone, app: Flask
) -> None:
    started(phone)
    page = other_phone.get(phone.round_path(1))
    assert page.status_code == 303
    assert page.headers["Location"].endswith("/view")
    sheet = other_phone.get(page.headers["Location"])
    assert sheet.status_code == 200
    assert "only the scorekeeper's phone changes it" in text(sheet)
    response = other_phone.client.post(
        phone.round_path(1),
        data={"csrf_token": other_phone.csrf(), "version": "1", "action": "trump", "turned": "red"},
    )
    assert response.status_code == 403
    assert "This phone does not keep the score of this game" in text(response)
    with app.app_context():
        assert games.get_game(phone.game_id).version == 1


def test_malformed_taps_are_refused_and_change_nothing(phone: KeeperPhone, app: Flask) -> None:
    started(phone)
    phone.trump(1, "green")
    with app.app_context():
        before = games.get_game(phone.game_id).version
    for fields in (
        {"action": "dance"},
        {"action": "bid", "seat": "one", "value": "1"},
        {"action": "bid", "seat": "1", "value": "x"},
        {"action": "bid", "value": "1"},
        {"action": "trump"},
        {"action": "bid", "seat": "1", "value": "1", "version": "v"},
        {"action": "bid", "seat": "-1", "value": "1"},
    ):
        response = phone.tap(1, **fields)
        assert response.status_code == 400, fields
        assert "This page sent something it never sends." in text(response)
    with app.app_context():
        assert games.get_game(phone.game_id).version == before


def test_the_trump_can_be_changed_while_bidding(phone: KeeperPhone) -> None:
    started(phone)
    phone.trump(1, "green")
    phone.bid(1, 1, 1)
    assert "Which card was turned up" in text(phone.round_page(1, "?change=trump"))
    assert phone.trump(1, "red").status_code == 303
    body = phone.round_page(1).get_data(as_text=True)
    assert "Trump: ■ red Dwarves" in words(body)
    assert pressed(body, "Ute bids 1")


def test_changing_the_trump_shows_the_one_recorded(phone: KeeperPhone) -> None:
    def shown_pressed(query: str) -> list[str]:
        """The value (or, for a link, the address) of each choice shown as pressed."""
        page = phone.round_page(1, query).get_data(as_text=True)
        tags = re.findall(r'<(?:button|a) [^>]*aria-pressed="true"[^>]*>', page)
        return [re.findall(r'(?:value|href)="([^"]*)"', tag)[0] for tag in tags]

    started(phone)
    phone.trump(1, "wizard", "yellow")
    assert shown_pressed("?change=trump") == [phone.round_path(1) + "?turned=wizard"]
    assert shown_pressed("?change=trump&turned=wizard") == ["yellow"]
    phone.trump(1, "green")
    assert shown_pressed("?change=trump") == ["green"]
    assert shown_pressed("?change=trump&turned=wizard") == []


def test_links_of_a_later_round_name_that_round(app: Flask, phone: KeeperPhone) -> None:
    started(phone)
    played(app, phone, ([0, 1, 1], [0, 0, 1]))
    body = phone.round_page(2).get_data(as_text=True)
    assert f'href="/games/{phone.game_id}/rounds/2?turned=wizard"' in body
    phone.trump(2, "red")
    body = phone.round_page(2).get_data(as_text=True)
    assert f'href="/games/{phone.game_id}/rounds/2?change=trump"' in body


def test_the_round_that_deals_every_card_skips_the_trump_step(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"])
    with app.app_context():
        assert games.get_game(phone.game_id).table.rules.rounds == 10
    played(
        app, phone, *[([0] * 6, [number, 0, 0, 0, 0, 0]) for number in range(1, 10)], turned="blue"
    )
    page = text(phone.round_page(10))
    assert "no trump (no card was left to turn)" in page
    assert "Bids" in page
    response = phone.trump(10, "red")
    assert response.status_code == 409
    assert "Round 10 deals every card" in text(response)


# -- The dealer's forbidden bid when the bids change ------------------------------------------


def test_a_refused_change_of_the_bids_stays_on_the_bids_with_the_reason(
    phone: KeeperPhone,
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


def test_a_changed_bid_that_leaves_the_dealers_bid_forbidden_stands_and_the_dealer_bids_again(
    app: Flask, phone: KeeperPhone
) -> None:
    # Bob deals round 2 (2 tricks) and bid 0 after Alice 1, Charlotte 0 and Dave 0. Dave's
    # bid becomes 1: the restriction falls on the dealer, so Dave's 1 stands and Bob, whose 0
    # would now make the bids add up to 2, bids again.
    started(
        phone, ["Alice", "Bob", "Charlotte", "Dave"], first_dealer="0", bid_rule="plus_minus_one"
    )
    played(app, phone, ([0, 0, 0, 0], [1, 0, 0, 0]))
    phone.trump(2, "red")
    for seat, bid in ((2, 0), (3, 0), (0, 1), (1, 0)):
        assert phone.bid(2, seat, bid).status_code == 303
    response = phone.tap(2, action="bid", seat=3, value=1, change="bids", anchor="seat-3")
    assert response.status_code == 303, text(response)
    assert response.headers["Location"].endswith("/rounds/2?change=bids#seat-3")
    body = phone.get(response.headers["Location"]).get_data(as_text=True)
    dave, bob = row(body, 3), row(body, 1)
    assert pressed(dave, "Dave bids 1")
    assert words(dave).endswith(
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
    phone: KeeperPhone,
) -> None:
    started(phone, bid_rule="plus_minus_one", bid_reveal="covered")
    phone.trump(1, "green")
    phone.bid(1, 0, 1)  # Thomas deals and bids 1, unseen
    phone.bid(1, 1, 0)
    response = phone.bid(1, 2, 0)
    assert response.status_code == 303
    body = phone.get(response.headers["Location"]).get_data(as_text=True)
    assert words(row(body, 2)).endswith(
        "Kevin's bid is saved, but with it the bids would add up to the 1 trick of this "
        "round, which the bid rule forbids: Thomas, who deals, must bid again."
    )
    assert "2 of 3 have bid" in words(body)
    assert "may not" not in body
    assert "keep 1" not in body
    refused = phone.bid(1, 0, 1)
    assert refused.status_code == 422
    page = text(refused)
    assert "which the bid rule forbids: Thomas, who deals, must bid something else" in page
    assert "may not bid 1" not in page
    assert phone.bid(1, 0, 0).status_code == 303
    assert "Thomas bid 0" in text(phone.round_page(1))


def test_covered_bids_in_play_name_the_dealers_forbidden_bid(phone: KeeperPhone) -> None:
    # Revealed before play, the bids are open to all: the struck-out bid is named.
    started(phone, bid_rule="plus_minus_one", bid_reveal="covered")
    phone.trump(1, "green")
    for seat in (1, 2, 0):
        phone.bid(1, seat, 0)
    thomas = row(phone.round_page(1, "?change=bids&seat=0").get_data(as_text=True), 0)
    assert "<s>1</s>" in thomas
    assert "Thomas deals and may not bid 1: the bids would add up to the 1 trick" in thomas
    assert "These bids" not in thomas


def test_a_history_link_with_an_overlong_row_id_shows_the_latest_changes(
    phone: KeeperPhone,
) -> None:
    started(phone)
    phone.trump(1, "blue")
    history = f"/games/{phone.game_id}/rounds/1/history"
    for key in ("9" * 19, "9" * 32, "²"):
        response = phone.get(f"{history}?before=1700000000000000.{key}")
        assert response.status_code == 200, key
        assert "Trump:" in text(response)


# -- One request a tap ----------------------------------------------------------------------


def htmx_tap(phone: KeeperPhone, number: int, **fields: object) -> TestResponse:
    """A tap as the page's htmx sends it (the HX-Request header), at the version shown."""
    return htmx_post(phone, number, tap_form(phone, number, **fields))


def tap_form(phone: KeeperPhone, number: int, **fields: object) -> dict[str, str]:
    data = {"csrf_token": phone.csrf(), "version": str(phone.version(number))}
    return data | {key: str(value) for key, value in fields.items()}


def htmx_post(phone: KeeperPhone, number: int, data: dict[str, str]) -> TestResponse:
    return phone.client.post(phone.round_path(number), data=data, headers={"HX-Request": "true"})


def test_a_tap_from_the_page_is_answered_with_the_next_screen_itself(phone: KeeperPhone) -> None:
    started(phone, first_dealer="0")
    phone.trump(1, "blue")
    # A bid: the bids again, Ute's pressed, at the row's address (no redirect, no reload).
    answer = htmx_tap(phone, 1, action="bid", seat=1, value=1, anchor="seat-1")
    assert answer.status_code == 200
    assert answer.headers["HX-Replace-Url"] == f"{phone.round_path(1)}#seat-1"
    assert pressed(answer.get_data(as_text=True), "Ute bids 1")
    for seat, value in ((2, 0), (0, 1)):
        htmx_tap(phone, 1, action="bid", seat=seat, value=value)
    # Scoring: the next round's first step, with the points of this one.
    htmx_tap(phone, 1, action="tricks", seat=0, value=1)
    htmx_tap(phone, 1, action="tricks", seat=1, value=0)
    answer = htmx_tap(phone, 1, action="score")
    assert answer.headers["HX-Replace-Url"] == phone.round_path(2)
    page = text(answer)
    assert "Round 2 of 20" in page
    assert "Which card was turned up for trump?" in page
    assert "Ute 1 0 −10" in page
    # An undo names what it took back, on the screen of the round it changed.
    answer = htmx_tap(phone, 2, action="undo")
    assert answer.headers["HX-Replace-Url"] == phone.round_path(1)
    assert "Undone: the scoring of round 1." in text(answer)


def test_a_tap_from_the_page_costs_the_same_statements_after_1_and_18_rounds(
    app: Flask, phone: KeeperPhone
) -> None:
    counts = []
    for scored in (1, 18):
        started(phone)
        played(app, phone, *[([0, 0, 0], [n, 0, 0]) for n in range(1, scored + 1)])
        # The form as the screen shows it (the first screen makes the table code, a write).
        form = tap_form(phone, scored + 1, action="trump", turned="red")
        with count_statements(app) as statements:
            assert htmx_post(phone, scored + 1, form).status_code == 200
        counts.append(len(statements))
    assert counts[0] == counts[1], counts
