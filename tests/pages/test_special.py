"""The special cards and the round plan on the pages: the new-game form's deck and plan, the
trump step's Bomb and Werewolf, the tricks step's Bomb toggle and Cloud change (in words when
the bids are secret), the sheet's marks, the correction of a Werewolf round."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scorekeeper.rules.cards import Turned
from scorekeeper.rules.specials import CloudBid
from scorekeeper.rules.variants import RoundPlan, Special
from scorekeeper.services import games

from ..keeper_phone import KeeperPhone, text, words
from .helpers import correction, played, started
from .test_history import shown_changes


def _start(phone: KeeperPhone, deck: list[str], **choices: Any) -> str:
    return started(phone, ["Ann", "Bob", "Cy"], deck=deck, **choices).game_id


def _round_2(app: Flask, phone: KeeperPhone, deck: list[str], **choices: Any) -> str:
    """Ann, Bob and Cy with ``deck``, round 2 (red) being played: Ann 1, Bob 0, Cy 1. The
    round's history."""
    _start(phone, deck, **choices)
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    assert phone.trump(2, "red").status_code == 303
    for seat, value in ((2, 1), (0, 1), (1, 0)):
        assert phone.bid(2, seat, value).status_code == 303
    return f"/games/{phone.game_id}/rounds/2/history"


def test_the_new_game_form_offers_the_deck_and_the_plan(phone: KeeperPhone) -> None:
    body = phone.get("/games/new").get_data(as_text=True)
    for card in ("bomb", "cloud", "werewolf", "juggler", "dragon", "shapeshifter"):
        assert f'name="special_cards" value="{card}"' in body
    assert 'name="special_cards" value="bomb" checked' not in body  # default: none
    assert 'name="round_plan" value="every_hand" checked' in body
    assert "Odd hands only: 1, 3, 5, … cards" in text(phone.get("/games/new"))


def test_a_game_started_with_a_deck_and_odd_hands_keeps_them(
    app: Flask, phone: KeeperPhone
) -> None:
    game_id = _start(phone, ["bomb", "dragon"], round_plan="odd_hands")
    with app.app_context():
        game = games.get_game(game_id)
    rules = game.table.rules
    # The one box for the Dragon puts the Fairy in too.
    assert rules.special_cards == {Special.BOMB, Special.DRAGON, Special.FAIRY}
    assert rules.round_plan is RoundPlan.ODD_HANDS
    assert rules.rounds == 10
    assert [view.cards for view in game.view.rounds][:3] == [1, 3, 5]
    assert "Round 1 of 10" in text(phone.round_page(1))


def test_the_trump_step_offers_the_bomb_and_the_werewolf_only_from_the_deck(
    phone: KeeperPhone,
) -> None:
    _start(phone, [])
    plain = text(phone.round_page(1))
    assert "Bomb: no trump" not in plain
    assert "Werewolf: its holder names the trump" not in plain
    _start(phone, ["bomb", "werewolf"])
    page = text(phone.round_page(1))
    assert "Bomb: no trump" in page
    assert "Werewolf: its holder names the trump" in page


def test_the_werewolfs_holder_names_no_trump_and_the_sheet_marks_it(phone: KeeperPhone) -> None:
    _start(phone, ["werewolf"])
    choice = text(phone.round_page(1, "?turned=werewolf"))
    assert "The Werewolf: its holder takes the turned card and names the trump" in choice
    assert "No trump" in choice
    assert phone.trump(1, "werewolf", "none").status_code == 303
    assert "no trump, named by the Werewolf's holder" in text(phone.round_page(1))
    assert "☾" in phone.get(f"/games/{phone.game_id}/sheet").get_data(as_text=True)


def test_the_bomb_toggle_takes_a_trick_from_the_sum(app: Flask, phone: KeeperPhone) -> None:
    _round_2(app, phone, ["bomb"])
    assert "Tricks so far: 0 of 2." in text(phone.round_page(2))
    assert "The Bomb was played: its trick goes to nobody · marked" not in text(phone.round_page(2))
    assert phone.tap(2, action="bomb", value="1").status_code == 303
    page = text(phone.round_page(2))
    assert "Tricks so far: 0 of 1." in page
    assert "The Bomb was played: its trick goes to nobody · marked" in page  # its state in words
    assert phone.tricks(2, 0, 1).status_code == 303
    assert phone.score(2).status_code == 303  # Bob and Cy filled in from the sum: 0
    with app.app_context():
        view = games.get_game(phone.game_id).view.round(2)
    assert (view.bomb, view.tricks, view.scores) == (True, (1, 0, 0), [30, 20, -10])


def test_a_round_whose_trump_the_bomb_decided_offers_no_bomb_to_play(
    app: Flask, phone: KeeperPhone
) -> None:
    _start(phone, ["bomb"])
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    assert phone.trump(2, "bomb").status_code == 303
    for seat, value in ((2, 1), (0, 1), (1, 0)):
        assert phone.bid(2, seat, value).status_code == 303
    page = phone.round_page(2).get_data(as_text=True)
    assert "Tricks so far: 0 of 2." in words(page)
    assert 'name="action" value="bomb"' not in page


def test_the_sheet_shows_a_bomb_turned_up_as_the_bomb_not_as_a_jester(
    app: Flask, phone: KeeperPhone
) -> None:
    _start(phone, ["bomb"])
    played(app, phone, ([1, 0, 0], [1, 0, 0]), turned="bomb")
    played(app, phone, ([1, 0, 0], [1, 1, 0]), turned="jester", first=2)
    body = phone.get(f"/games/{phone.game_id}/sheet").get_data(as_text=True)
    marks = re.findall(
        r'<small class="trump"><span title="([^"]+)" aria-hidden="true">(.)</span>', body
    )
    assert marks[:2] == [
        ("no trump (the Bomb was turned)", "✹"),
        ("no trump (a Jester was turned)", "–"),
    ]


def test_everyone_made_it_is_not_offered_when_the_clouds_winner_would_take_no_trick(
    app: Flask, phone: KeeperPhone
) -> None:
    _start(phone, ["cloud"])
    played(app, phone, ([1, 0, 0], [1, 0, 0]), ([1, 0, 1], [1, 0, 1]))
    assert phone.trump(3, "red").status_code == 303
    for seat, value in ((0, 1), (1, 2), (2, 1)):  # 4 bid on 3 tricks: one must change
        assert phone.bid(3, seat, value).status_code == 303
    # Bob down to 1 by the Cloud: the bids add up, and everyone may have made it.
    assert phone.tap(3, action="cloud", value="1:down").status_code == 303
    assert "Everyone made their bid" in text(phone.round_page(3))
    # Ann down to 0 instead: they add up too, but she won the Cloud's trick.
    assert phone.tap(3, action="cloud", value="0:down").status_code == 303
    assert "Everyone made their bid" not in text(phone.round_page(3))


def test_the_clouds_change_is_tapped_in_and_shown_on_the_sheet(
    app: Flask, phone: KeeperPhone
) -> None:
    _round_2(app, phone, ["cloud"])
    assert phone.tap(2, action="cloud", value="2:up").status_code == 303
    page = text(phone.round_page(2))
    assert "The Cloud: Cy bids 2 instead" in page
    # The round screen tells the bid the round is scored on, and counts it.
    assert "Cy bid 1→2 ☁ (bid changed by the Cloud)" in page
    assert "The bids add up to 3, for 2 tricks." in page
    assert "Cy 0 tricks · needs 2" in page
    live = text(phone.get(f"/games/{phone.game_id}/view"))
    assert "Cy 1→2 ☁ (bid changed by the Cloud) –" in live
    assert phone.tap(2, action="cloud", value="2:sideways").status_code == 422
    # A digit that is no ASCII digit is refused in the same sentence, not a server error.
    refused = phone.tap(2, action="cloud", value="²:up")
    assert refused.status_code == 422
    assert "This page sent something it never sends." in text(refused)
    for seat, count in ((0, 0), (1, 0)):
        assert phone.tricks(2, seat, count).status_code == 303
    assert phone.score(2).status_code == 303
    with app.app_context():
        view = games.get_game(phone.game_id).view.round(2)
    assert view.cloud == CloudBid(2, 2)
    assert view.scores == [-10, 20, 40]
    scored = text(phone.round_page(2))
    assert "Cy 1→2 ☁ (bid changed by the Cloud) 2 +40" in scored
    sheet = text(phone.get(f"/games/{phone.game_id}/sheet"))
    assert "1→2 ☁ (bid changed by the Cloud) /2" in sheet


def test_a_werewolf_round_is_corrected_with_its_choice_kept(app: Flask, phone: KeeperPhone) -> None:
    _start(phone, ["werewolf"])
    assert phone.trump(1, "werewolf", "red").status_code == 303
    for seat, value in ((1, 0), (2, 0), (0, 1)):
        assert phone.bid(1, seat, value).status_code == 303
    assert phone.tricks(1, 0, 1).status_code == 303
    assert phone.score(1).status_code == 303
    path = f"/games/{phone.game_id}/rounds/1/correct"
    body = phone.get(path).get_data(as_text=True)
    assert 'name="turned" value="werewolf" checked' in body
    assert 'name="chosen" value="red" checked' in body
    form = correction(phone, 1, [1, 0, 0], [1, 0, 0], turned="werewolf", chosen="none")
    assert phone.client.post(path, data=form).status_code == 303
    with app.app_context():
        trump = games.get_game(phone.game_id).view.round(1).trump
    assert trump is not None
    assert (trump.turned, trump.suit) == (Turned.WEREWOLF, None)


def test_in_a_secret_game_the_clouds_taps_say_what_they_do_and_a_refusal_is_shown_by_them(
    app: Flask, phone: KeeperPhone
) -> None:
    _round_2(app, phone, ["cloud"], bid_reveal="secret")
    body = phone.round_page(2).get_data(as_text=True)
    assert re.search(r'aria-label="Bob bids one less">One less</button>', body)
    assert re.search(r'aria-label="Bob bids one more">One more</button>', body)
    assert "−1" not in body
    assert "+1" not in body
    assert "→" not in text(phone.round_page(2))  # no bid given away

    # Bob bid 0: the Cloud cannot take him lower. Said at the Cloud's taps, opened.
    version = phone.version(2)
    refused = phone.tap(2, action="cloud", value="1:down")
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    start = page.index('<details class="special" open>')
    cloud = page[start : page.index("</details>", start)]
    # The bids are secret: the sentence names neither Bob's bid nor the change.
    assert "The Cloud changes Bob's bid by one, up or down, and only to 0 to 2." in words(cloud)
    assert 'id="refusal" role="alert"' in cloud
    with app.app_context():
        game = games.get_game(phone.game_id)
    assert (game.version, game.view.round(2).cloud) == (version, None)

    # Bob up to 1: that tap alone shows pressed, and the bid stays secret.
    assert phone.tap(2, action="cloud", value="1:up").status_code == 303
    body = phone.round_page(2).get_data(as_text=True)
    pressed = re.findall(r'aria-pressed="true"\s+aria-label="([^"]+)"', body)
    assert pressed == ["Bob bids one more"]
    assert "The Cloud: Bob's bid is changed" in text(phone.round_page(2))


# -- The round's history -------------------------------------------------------------------


def test_the_history_says_what_the_bomb_and_the_cloud_did_in_english_and_german(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _round_2(app, phone, ["bomb", "cloud"])
    for value in ("1", "0"):
        assert phone.tap(2, action="bomb", value=value).status_code == 303
    for value in ("2:up", "none"):
        assert phone.tap(2, action="cloud", value=value).status_code == 303
    assert phone.tap(2, action="undo").status_code == 303
    assert shown_changes(phone.get(path))[:5] == [
        ("Undone", ["The Cloud: Cy bids 2 instead of 1"]),
        ("Bomb or Cloud recorded", ["No change by the Cloud"]),
        ("Bomb or Cloud recorded", ["The Cloud: Cy bids 2 instead of 1"]),
        ("Bomb or Cloud recorded", ["The Bomb was taken back"]),
        ("Bomb or Cloud recorded", ["The Bomb was played"]),
    ]
    german = shown_changes(phone.get(path, headers={"Accept-Language": "de-DE,de;q=0.9"}))
    assert (german[2][1], german[4][1]) == (
        ["Die Wolke: Cy sagt 2 statt 1 an"],
        ["Die Bombe wurde gespielt"],
    )
    # A trick tallied to nobody records the Bomb.
    assert phone.tap(2, action="nobody").status_code == 303
    assert shown_changes(phone.get(path))[0] == (
        "Trick tallied",
        ["Trick 1: nobody", "The Bomb was played"],
    )


@pytest.mark.parametrize(
    ("deck", "action", "value", "said"),
    [
        ("bomb", "bomb", "1", ("Bomb recorded", ["The Bomb was played"])),
        ("cloud", "cloud", "2:up", ("Cloud recorded", ["The Cloud: Cy bids 2 instead of 1"])),
    ],
)
def test_the_history_names_the_one_special_card_in_the_deck(
    app: Flask, phone: KeeperPhone, deck: str, action: str, value: str, said: tuple[str, list[str]]
) -> None:
    path = _round_2(app, phone, [deck])
    assert phone.tap(2, action=action, value=value).status_code == 303
    assert shown_changes(phone.get(path))[0] == said


def test_the_history_names_the_clouds_player_but_not_a_secret_bid(
    app: Flask, phone: KeeperPhone
) -> None:
    path = _round_2(app, phone, ["bomb", "cloud"], bid_reveal="secret")
    assert phone.tap(2, action="cloud", value="2:down").status_code == 303
    assert shown_changes(phone.get(path))[0] == (
        "Bomb or Cloud recorded",
        ["The Cloud: Cy's bid is changed"],
    )
    assert not re.search(r"bids \d|→ ?\d", text(phone.get(path)))
    for seat, count in ((0, 1), (1, 0)):  # Cy took the Cloud's trick
        assert phone.tricks(2, seat, count).status_code == 303
    assert phone.score(2).status_code == 303
    # Scored: the bids are shown, and so is what the Cloud made of Cy's.
    assert ("Bomb or Cloud recorded", ["The Cloud: Cy bids 0 instead of 1"]) in shown_changes(
        phone.get(path)
    )
