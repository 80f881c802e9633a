"""The correction form of a scored round: what it offers and strikes out, a correction saved
and every total recomputed, one saved as it was that changes nothing, refusals by the field
with nothing changed; with the Bomb and the Cloud in the deck, the Bomb ticked or not and the
Cloud's change of a bid chosen or taken back, as the sheet then shows them, and the live
refresh keeping them."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.rules.specials import CloudBid
from scorekeeper.services import audit, games, rounds, sharing

from ..keeper_phone import KeeperPhone, text, words
from .helpers import browser_key, correction, played, started


def _two_rounds(app: Flask, phone: KeeperPhone, deck: list[str]) -> str:
    """Ann, Bob and Cy with ``deck``: round 1 scored 30, 20, 20; round 2 (Bob deals, two
    cards) bid 1, 0, 1 and won 1, 0, 1: 30, 20, 30. The correction form of round 2."""
    started(phone, ["Ann", "Bob", "Cy"], deck=deck)
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    played(app, phone, ([1, 0, 1], [1, 0, 1]), turned="red", first=2)
    return f"/games/{phone.game_id}/rounds/2/correct"


def _form(phone: KeeperPhone, tricks: list[int], **fields: str) -> dict[str, str]:
    """The correction of round 2 as sent: trump red, bids 1, 0, 1, these tricks."""
    return correction(phone, 2, [1, 0, 1], tricks, turned="red", **fields)


def _body(phone: KeeperPhone, path: str) -> str:
    return phone.get(path).get_data(as_text=True)


def _sheet(phone: KeeperPhone) -> str:
    return text(phone.get(f"/games/{phone.game_id}/sheet"))


# -- Any round ---------------------------------------------------------------------------------


def test_a_scored_round_is_corrected_and_every_total_recomputed(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, first_dealer="0")
    played(app, phone, ([0, 1, 1], [0, 0, 1]), ([2, 0, 0], [1, 0, 1]))
    path = f"/games/{phone.game_id}/rounds/1/correct"
    assert re.search(r'name="bid-1" value="1" checked', _body(phone, path))
    response = phone.client.post(path, data=correction(phone, 1, [0, 0, 1], [0, 0, 1]))
    assert response.status_code == 303
    sheet = text(phone.get(response.headers["Location"]))
    assert "Round 1 is corrected; every total is recomputed." in sheet
    assert "Total 10 40 20" in sheet
    assert "✎ corrected" in sheet
    # The mark is named for a screen reader, not only drawn.
    body = phone.get(response.headers["Location"]).get_data(as_text=True)
    assert re.search(r'class="corrected"[^>]*>✎<span class="visually-hidden"> corrected<', body)


@pytest.mark.parametrize(
    ("players", "number", "trump"),
    [(3, 1, ("green", None)), (3, 2, ("wizard", "yellow")), (6, 10, None)],
    ids=["suit", "wizard", "every card dealt"],
)
def test_a_correction_saved_as_it_was_changes_nothing(
    app: Flask, phone: KeeperPhone, players: int, number: int, trump: tuple[str, str | None] | None
) -> None:
    """Opened and saved untouched: nothing is written, so no ✎, no history, same version."""
    started(phone, ["Thomas", "Ute", "Kevin", "Ann", "Bob", "Cy"][:players], first_dealer="0")
    browser = sharing.Browser(browser_key(phone))
    with app.test_request_context():
        for played in range(1, number + 1):
            if played < number:
                rounds.record_trump(phone.game_id, browser, played, "blue")
            elif trump is not None:
                rounds.record_trump(phone.game_id, browser, played, *trump)
            rounds.record_bids(phone.game_id, browser, played, [0] * players)
            rounds.record_tricks(phone.game_id, browser, played, [0, 0, played, 0, 0, 0][:players])
        before = games.get_game(phone.game_id)
        changes = len(audit.audit_trail(before))
    path = f"/games/{phone.game_id}/rounds/{number}/correct"
    form = _body(phone, path)
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


def test_a_correction_the_rules_refuse_changes_nothing(app: Flask, phone: KeeperPhone) -> None:
    started(phone)
    played(app, phone, ([0, 1, 1], [0, 0, 1]))
    path = f"/games/{phone.game_id}/rounds/1/correct"
    data = correction(phone, 1, [0, 0, 0], [1, 1, 1])
    response = phone.client.post(path, data=data)
    assert response.status_code == 422
    assert "The tricks add up to 3, but round 1 has 1: 2 tricks too many." in text(response)
    assert "Total 20 −10 30" in _sheet(phone)
    incomplete = {key: value for key, value in data.items() if key != "tricks-2"}
    response = phone.client.post(path, data=incomplete)
    assert response.status_code == 400
    assert "Choose a bid and the tricks for every player." in text(response)


def test_only_a_scored_round_can_be_corrected_and_only_by_its_keeper(
    app: Flask, phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    started(phone)
    response = phone.get(f"/games/{phone.game_id}/rounds/1/correct")
    assert response.status_code == 303
    played(app, phone, ([0, 1, 1], [0, 0, 1]))
    response = other_phone.get(f"/games/{phone.game_id}/rounds/1/correct")
    assert response.status_code == 403


def test_the_correction_form_strikes_out_the_dealers_forbidden_bid(
    phone: KeeperPhone, app: Flask
) -> None:
    started(phone, first_dealer="0", bid_rule="plus_minus_one")
    played(app, phone, ([1, 1, 0], [0, 0, 1]))
    path = f"/games/{phone.game_id}/rounds/1/correct"
    tapped = correction(phone, 1, [1, 0, 0], [0, 0, 1], action="refresh")
    response = phone.client.post(path, data=tapped)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert re.search(
        r'<label class="chip refused minus"><input type="radio" name="bid-0" value="1"', body
    )
    assert "Thomas deals and may not bid 1" in body
    with app.app_context():  # a refresh saves nothing
        assert games.get_game(phone.game_id).version == int(tapped["version"])


def test_the_correction_hint_in_a_covered_game_is_true_of_the_bids_shown(
    app: Flask, phone: KeeperPhone
) -> None:
    # Jürgen deals round 2. The bids 1, 0, 0, 0, 0 are allowed (1, not 2); only the
    # struck-out 1 would make them add up to the 2 tricks, and the hint says so.
    names = ["Anna", "Bert", "Carla", "Dieter", "Jürgen"]
    started(phone, names, first_dealer="3", bid_rule="plus_minus_one", bid_reveal="covered")
    played(app, phone, ([0, 0, 0, 0, 0], [1, 0, 0, 0, 0]), ([1, 0, 0, 0, 0], [2, 0, 0, 0, 0]))
    body = _body(phone, f"/games/{phone.game_id}/rounds/2/correct")
    assert re.search(
        r'<label class="chip refused minus"><input type="radio" name="bid-4" value="1"', body
    )
    assert "Jürgen deals and may not bid 1: the bids would add up to the 2 tricks" in words(body)
    assert "These bids" not in body


# -- The Bomb and the Cloud ----------------------------------------------------------------------


def test_the_form_offers_the_bomb_and_the_cloud_only_from_the_deck(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _two_rounds(app, phone, [])
    plain = _body(phone, path)
    assert 'name="bomb"' not in plain
    assert 'name="cloud"' not in plain
    path = _two_rounds(app, phone, ["bomb"])
    page = _body(phone, path)
    assert 'name="bomb" value="1" >' in page  # offered, not ticked: it was not played
    assert "The Bomb was played: its trick goes to nobody" in words(page)
    assert 'name="cloud"' not in page
    path = _two_rounds(app, phone, ["cloud"])
    page = _body(phone, path)
    assert 'name="bomb"' not in page
    assert 'name="cloud" value="none" checked' in page
    shown = words(page)
    assert "The Cloud: who won its trick changes their bid by one" in shown
    # In bid order, each bid and the bids the Cloud can change it to; Bob's 0 only up.
    assert "Cy 1→0 1→2 Ann 1→0 1→2" in shown
    assert "Bob 0→1 Save the correction" in shown
    assert 'aria-label="Bob bids one more"' in page
    assert 'aria-label="Bob bids one less"' not in page


def test_marking_the_bomb_in_a_correction_changes_the_scores_on_the_sheet(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _two_rounds(app, phone, ["bomb"])
    assert "Total 60 40 50" in _sheet(phone)
    response = phone.client.post(path, data=_form(phone, [1, 0, 0], bomb="1"))
    assert response.status_code == 303, text(response)
    sheet = text(phone.get(response.headers["Location"]))
    assert "Round 2 is corrected; every total is recomputed." in sheet
    assert "Total 60 40 10" in sheet  # Cy bid 1 and won nothing: the Bomb took the trick
    assert "the Bomb was played" in sheet
    assert 'name="bomb" value="1" checked' in _body(phone, path)
    history = text(phone.get(f"/games/{phone.game_id}/rounds/2/history"))
    assert "Corrected" in history
    assert "Cy: tricks 1 → 0" in history

    # Unticked again: the round is back to two tricks.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1]))
    assert response.status_code == 303, text(response)
    assert "Total 60 40 50" in _sheet(phone)
    with app.app_context():
        assert games.get_game(phone.game_id).view.round(2).bomb is False


def test_a_bomb_the_tricks_do_not_add_up_with_is_refused_by_it_and_changes_nothing(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _two_rounds(app, phone, ["bomb"])
    with app.app_context():
        before = games.get_game(phone.game_id).version
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], bomb="1"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    sentence = (
        "The tricks add up to 2, but round 2 has 1: 1 trick too many "
        "(the Bomb was played: its trick goes to nobody)."
    )
    # Said by the Bomb's box, which stays ticked, as do the tricks as sent.
    start = body.index("<legend>Bomb</legend>")
    bomb = body[start : body.index("</fieldset>", start)]
    assert sentence in words(bomb)
    assert 'name="bomb" value="1" checked aria-describedby="bomb-refusal"' in bomb
    assert 'name="tricks-2" value="1" checked' in body
    assert "Total 60 40 50" in _sheet(phone)
    with app.app_context():
        after = games.get_game(phone.game_id)
    assert (after.version, after.view.round(2).bomb) == (before, False)


def test_the_clouds_change_is_chosen_moved_and_taken_back_in_a_correction(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _two_rounds(app, phone, ["cloud"])
    # Ann won the Cloud's trick and went up to 2: she bid 1 and won 1, so she missed.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], cloud="0:up"))
    assert response.status_code == 303, text(response)
    sheet = _sheet(phone)
    assert "1→2 ☁ (bid changed by the Cloud) /1" in sheet
    assert "Total 20 40 50" in sheet
    page = _body(phone, path)
    assert 'name="cloud" value="0:up" checked' in page  # prefilled from the round

    # Not Bob: he took no trick, so he cannot have won the Cloud's.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], cloud="1:up"))
    assert response.status_code == 422
    assert "The Cloud changes the bid of the player who won its trick, and Bob took no" in (
        text(response)
    )
    # It was Cy, from 1 down to 0: he missed, and Ann made her bid.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], cloud="2:down"))
    assert response.status_code == 303, text(response)
    assert "Total 60 40 10" in _sheet(phone)
    with app.app_context():
        assert games.get_game(phone.game_id).view.round(2).cloud == CloudBid(2, 0)

    # No change by the Cloud after all.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], cloud="none"))
    assert response.status_code == 303, text(response)
    assert "Total 60 40 50" in _sheet(phone)
    assert "☁ (bid changed by the Cloud)" not in _sheet(phone)
    with app.app_context():
        assert games.get_game(phone.game_id).view.round(2).cloud is None


def test_a_cloud_change_below_zero_is_refused_by_it_and_changes_nothing(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _two_rounds(app, phone, ["cloud"])
    with app.app_context():
        before = games.get_game(phone.game_id).version
    # Bob bid 0: the Cloud cannot take him down.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], cloud="1:down"))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    start = body.index("The Cloud: who won its trick")
    cloud = body[start : body.index("</fieldset>", start)]
    assert "The Cloud changes Bob's bid of 0 by one, to 1, not to −1." in words(cloud)
    assert 'name="cloud" value="1:down" checked' in cloud  # as sent
    assert "0→−1" in words(cloud)
    assert "Total 60 40 50" in _sheet(phone)
    with app.app_context():
        assert games.get_game(phone.game_id).version == before
    # A choice the form never offers is refused as such.
    response = phone.client.post(path, data=_form(phone, [1, 0, 1], cloud="7:up"))
    assert response.status_code == 400
    assert "This page sent something it never sends." in text(response)


def test_the_live_refresh_keeps_the_bomb_and_the_cloud_and_follows_the_bids(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _two_rounds(app, phone, ["bomb", "cloud"])
    with app.app_context():
        before = games.get_game(phone.game_id).version
    # Ann's bid tapped to 2 on the form, with the Bomb ticked and Ann's bid going down.
    tapped = _form(phone, [1, 0, 0], bomb="1", cloud="0:down", action="refresh")
    tapped["bid-0"] = "2"
    response = phone.client.post(path, data=tapped)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert 'name="bomb" value="1" checked' in body
    assert re.search(
        r'name="cloud" value="0:down" checked\s+aria-label="Ann bids one less">2→1<', body
    )
    assert "Ann 2→1" in words(body)
    assert "2→3" not in words(body)  # two cards: Ann cannot bid 3
    with app.app_context():
        assert games.get_game(phone.game_id).version == before  # a refresh saves nothing

    # Saved so: Ann bid 2, the Cloud took her to 1, and she won her 1 trick.
    del tapped["action"]
    response = phone.client.post(path, data=tapped)
    assert response.status_code == 303, text(response)
    with app.app_context():
        view = games.get_game(phone.game_id).view.round(2)
    assert (view.bids, view.cloud, view.bomb) == ((2, 0, 1), CloudBid(0, 1), True)
    assert view.scores == [30, 20, -10]
