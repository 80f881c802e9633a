"""The special cards and the round plan over the API: the game's rules, the Bomb, the Cloud
and the Werewolf in the round writes, their refusals (one sentence, English and German), the
export and import, and undo."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper.services import specials, undo

from ..api_client import ApiClient

NAMES = ["Thomas", "Ute", "Kevin"]
DECK = ["bomb", "cloud", "werewolf"]


def _refused(response: TestResponse, status: int = 422) -> str:
    """A refusal as a problem document; its one sentence."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    detail: str = response.get_json()["detail"]
    assert detail.endswith(".")
    assert ". " not in detail
    return detail


def _bidding(api: ApiClient, number: int = 1, **rules: Any) -> str:
    """A game with ``rules`` (the deck of Bomb, Cloud and Werewolf unless told), round
    ``number`` played up to its bids (the rounds before it: Thomas takes every trick)."""
    game_id = api.create(NAMES, first_dealer=0, rules={"special_cards": DECK, **rules})["id"]
    for earlier in range(1, number):
        api.play_round(game_id, earlier, [earlier, 0, 0], [earlier, 0, 0])
    api.trump(game_id, number, "red")
    return game_id


def test_a_game_has_no_special_cards_and_every_hand_unless_chosen(api: ApiClient) -> None:
    rules = api.create(NAMES)["rules"]
    assert rules["special_cards"] == []
    assert rules["round_plan"] == "every_hand"
    assert rules["rounds"] == 20


def test_the_deck_and_the_plan_are_kept_and_returned(api: ApiClient) -> None:
    game = api.create(
        ["A", "B", "C", "D"],
        rules={"special_cards": ["fairy", "bomb", "dragon"], "round_plan": "odd_hands"},
    )
    assert game["rules"]["special_cards"] == ["bomb", "dragon", "fairy"]
    assert game["rules"]["round_plan"] == "odd_hands"
    assert game["rules"]["rounds"] == 8
    assert [r["cards"] for r in game["rounds"]] == [1, 3, 5, 7, 9, 11, 13, 15]
    assert api.get(game["id"])["rules"] == game["rules"]


@pytest.mark.parametrize(
    ("rules", "sentence"),
    [
        ({"special_cards": ["joker"]}, "not “joker”"),
        ({"special_cards": ["dragon"]}, "The Dragon and the Fairy go into the deck together"),
        ({"round_plan": "even_hands"}, "The round plan is one of every_hand, odd_hands"),
        ({"round_plan": "odd_hands", "rounds": 11}, "1 to 10 rounds, not 11"),
    ],
)
def test_a_deck_or_plan_the_rules_do_not_know_is_refused(
    api: ApiClient, rules: dict[str, Any], sentence: str
) -> None:
    response = api.client.post("/api/v1/games", json={"players": NAMES, "rules": rules})
    assert sentence in _refused(response)


def test_a_bomb_round_is_scored_with_tricks_adding_up_to_the_cards_minus_one(
    api: ApiClient,
) -> None:
    game_id = _bidding(api, 3)
    api.bids(game_id, 3, [1, 1, 0])
    before = api.get(game_id)
    refused = _refused(api.put(game_id, 3, "tricks", {"tricks": [1, 1, 1], "bomb": True}))
    assert refused == (
        "The tricks add up to 3, but round 3 has 2: 1 trick too many "
        "(the Bomb was played: its trick goes to nobody)."
    )
    assert api.get(game_id) == before
    scored = api.ok(game_id, 3, "tricks", {"tricks": [1, 1, 0], "bomb": True})
    assert scored["rounds"][2]["bomb"] is True
    assert scored["rounds"][2]["scores"] == [30, 30, 20]


def test_the_bomb_is_refused_in_a_game_without_it(api: ApiClient) -> None:
    game_id = _bidding(api, 1, special_cards=[])
    api.bids(game_id, 1, [1, 0, 0])
    before = api.get(game_id)
    sentence = _refused(api.put(game_id, 1, "tricks", {"tricks": [0, 0, 0], "bomb": True}))
    assert sentence == "This game is played without the Bomb: it is not in the deck."
    assert api.get(game_id) == before


def test_a_bomb_turned_up_for_trump_means_no_trump(api: ApiClient) -> None:
    game_id = api.create(NAMES, rules={"special_cards": ["bomb"]})["id"]
    game = api.trump(game_id, 1, "bomb")
    assert game["rounds"][0]["trump"] == {"turned": "bomb", "suit": None}
    plain = api.create(NAMES)["id"]
    assert "not “bomb”" in _refused(api.put(plain, 1, "trump", {"turned": "bomb"}))


def test_the_cloud_changes_a_bid_and_the_round_is_scored_on_it(api: ApiClient) -> None:
    game_id = _bidding(api, 3)
    api.bids(game_id, 3, [2, 0, 0])
    game = api.ok(game_id, 3, "tricks", {"tricks": [3, 0, 0], "cloud": {"seat": 0, "bid": 3}})
    played = game["rounds"][2]
    assert played["bids"] == [2, 0, 0]
    assert played["cloud"] == {"seat": 0, "bid": 3}
    assert played["scores"] == [50, 20, 20]


def test_a_cloud_change_of_more_than_one_is_refused(api: ApiClient) -> None:
    game_id = _bidding(api, 3)
    api.bids(game_id, 3, [2, 0, 0])
    before = api.get(game_id)
    body = {"tricks": [3, 0, 0], "cloud": {"seat": 0, "bid": 4}}
    sentence = _refused(api.put(game_id, 3, "tricks", body))
    assert sentence == "The Cloud changes Thomas's bid of 2 by one, to 1 / 3, not to 4."
    assert api.get(game_id) == before
    # A number no bid reaches, as a hand-made request may send: refused all the same.
    huge = {"tricks": [3, 0, 0], "cloud": {"seat": 0, "bid": 10**30}}
    sentence = _refused(api.put(game_id, 3, "tricks", huge))
    assert sentence.endswith("to 1 / 3, not to 1,000,000,000,000,000,000,000,000,000,000.")
    assert api.get(game_id) == before


def test_a_refusal_is_said_in_german(api: ApiClient) -> None:
    game_id = _bidding(api, 3)
    api.bids(game_id, 3, [2, 0, 0])
    response = api.client.put(
        f"/api/v1/games/{game_id}/rounds/3/tricks",
        json={"tricks": [3, 0, 0], "cloud": {"seat": 0, "bid": 4}},
        headers=api.headers(game_id, **{"Accept-Language": "de"}),
    )
    sentence = _refused(response)
    assert "Wolke" in sentence
    assert "Cloud" not in sentence


@pytest.mark.parametrize(("chosen", "suit"), [("red", "red"), ("none", None)])
def test_the_werewolfs_holder_names_the_trump(
    api: ApiClient, chosen: str, suit: str | None
) -> None:
    game_id = api.create(NAMES, rules={"special_cards": ["werewolf"]})["id"]
    game = api.trump(game_id, 1, "werewolf", chosen)
    assert game["rounds"][0]["trump"] == {"turned": "werewolf", "suit": suit}
    assert game["rounds"][0]["state"] == "bidding"


def test_the_werewolf_without_a_choice_is_refused(api: ApiClient) -> None:
    game_id = api.create(NAMES, rules={"special_cards": ["werewolf"]})["id"]
    sentence = _refused(api.put(game_id, 1, "trump", {"turned": "werewolf"}))
    assert sentence.startswith("The Werewolf's holder names the trump")


def test_a_game_with_special_cards_exports_and_imports_with_the_same_sheet(
    api: ApiClient,
) -> None:
    game_id = _bidding(api, 3)
    api.bids(game_id, 3, [2, 0, 0])
    body = {"tricks": [1, 1, 0], "bomb": True, "cloud": {"seat": 1, "bid": 1}}
    api.ok(game_id, 3, "tricks", body)
    api.trump(game_id, 4, "werewolf", "none")
    exported = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    assert exported["game"]["rounds"][2]["cloud"] == {"seat": 1, "bid": 1}
    response = api.client.post("/api/v1/import", json=exported)
    assert response.status_code == 201, response.get_json()
    (created,) = response.get_json()["games"]
    copy, original = api.get(created["id"]), api.get(game_id)
    for key in ("rules", "rounds", "totals", "standings", "current_round"):
        assert copy[key] == original[key], key


def test_the_csv_shows_the_clouds_change_and_the_bomb(api: ApiClient) -> None:
    game_id = _bidding(api, 2)
    api.bids(game_id, 2, [1, 1, 0])
    body = {"tricks": [0, 1, 0], "bomb": True, "cloud": {"seat": 1, "bid": 2}}
    api.ok(game_id, 2, "tricks", body)
    text = api.client.get(f"/games/{game_id}/export.csv").get_data(as_text=True)
    lines = text.lstrip("\ufeff").splitlines()
    assert lines[0].endswith("bid changed by the Cloud,the Bomb was played")
    assert "2,2,Ute,red Dwarves,Ute,1,1,-10,10,2,yes" in lines


def test_undo_takes_back_the_bomb_and_the_cloud(app: Flask, api: ApiClient) -> None:
    game_id = _bidding(api, 2)
    api.bids(game_id, 2, [1, 1, 0])
    token = api.tokens[game_id]
    with app.test_request_context():
        specials.record_bomb(game_id, token, 2, True)
        specials.record_cloud(game_id, token, 2, 1, up=False)
    game = api.get(game_id)["rounds"][1]
    assert (game["bomb"], game["cloud"]) == (True, {"seat": 1, "bid": 0})
    with app.test_request_context():
        undo.undo(game_id, token)
    game = api.get(game_id)["rounds"][1]
    assert (game["bomb"], game["cloud"]) == (True, None)
    scored = api.client.post(f"/api/v1/games/{game_id}/undo", headers=api.headers(game_id))
    assert scored.status_code == 200
    assert scored.get_json()["rounds"][1]["bomb"] is False
