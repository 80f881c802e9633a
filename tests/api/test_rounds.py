"""Rounds over the API: the order of steps, the round without trump, corrections, the bid
rules' restriction on the dealer and what each reveal mode shows."""

from __future__ import annotations

from typing import Any

import pytest

from ..api_client import ApiClient, refusal
from ..wizard_model import NO_CARD_LEFT, Sheet, check_game, score

NAMES = ["Thomas", "Ute", "Kevin"]
SIX = ["Thomas", "Ute", "Kevin", "Anna", "Bert", "Carla"]


def _unchanged(api: ApiClient, game_id: str, before: dict[str, Any]) -> None:
    assert api.get(game_id) == before


# -- Out of turn ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("what", "number", "body"),
    [
        ("trump", 2, {"turned": "red"}),  # round 1 is being played, not scored
        ("bids", 2, {"bids": [0, 0, 0]}),
        ("tricks", 1, {"tricks": [1, 0, 0]}),  # a bid of round 1 is missing
    ],
)
def test_a_write_out_of_turn_is_a_409_and_changes_nothing(
    api: ApiClient, what: str, number: int, body: dict[str, Any]
) -> None:
    """Each round route: 409 as a problem document, the game as before (which step comes
    when is the rules': tests/rules/test_game.py)."""
    game_id = api.seed(NAMES, next_trump="red", next_bids=[0, None, 1])
    before = api.get(game_id)
    refusal(api.put(game_id, number, what, body), 409)
    _unchanged(api, game_id, before)


@pytest.mark.parametrize(
    ("language", "turned", "expected"),
    [
        ("en", "wizard", "give the chosen suit, one of blue, green, red, yellow."),
        ("de", "wizard", "Gib die gewählte Farbe an (blue, green, red, yellow)."),
        ("en", "werewolf", "one of blue, green, red, yellow, or none for no trump."),
        ("de", "werewolf", "eine von blue, green, red, yellow, oder none für keinen Trumpf."),
    ],
)
def test_a_trump_without_its_suit_names_the_values_to_send(
    api: ApiClient, language: str, turned: str, expected: str
) -> None:
    """The API names the values a client sends ("blue"), not the suits' names on a page."""
    game_id = api.create(NAMES, first_dealer=0, rules={"special_cards": ["werewolf"]})["id"]
    response = api.put(game_id, 1, "trump", {"turned": turned}, **{"Accept-Language": language})
    problem = refusal(response, 422)
    assert problem["detail"].endswith(expected)
    assert problem["errors"] == [{"field": "chosen", "message": problem["detail"]}]


# -- The round that deals every card -------------------------------------------------------


def test_round_dealing_every_card_has_no_trump_and_opens_in_bidding(api: ApiClient) -> None:
    """Six players, round 10: trump "none" from the start, bidding at once, trump PUT 409."""
    game = api.create(SIX, first_dealer=0)
    game_id = game["id"]
    assert game["rounds"][9]["trump"] == NO_CARD_LEFT
    assert game["rounds"][9]["state"] == "waiting"
    assert all(r["trump"] is None for r in game["rounds"][:9])
    for number in range(1, 10):
        api.play_round(game_id, number, bids=[0] * 6, tricks=[number, 0, 0, 0, 0, 0])
    before = api.get(game_id)
    last = before["rounds"][9]
    assert last["state"] == "bidding"
    assert last["trump"] == NO_CARD_LEFT
    assert before["current_round"] == 10
    for body in ({"turned": "blue"}, {"turned": "jester"}, {"turned": "wizard", "chosen": "red"}):
        refusal(api.put(game_id, 10, "trump", body), 409)
    _unchanged(api, game_id, before)
    game = api.bids(game_id, 10, [10, 0, 0, 0, 0, 0])
    game = api.tricks(game_id, 10, [10, 0, 0, 0, 0, 0])
    assert game["rounds"][9]["trump"] == NO_CARD_LEFT
    assert game["rounds"][9]["scores"] == [120, 20, 20, 20, 20, 20]
    # Seat 0 took every trick of rounds 1-9 while bidding 0: -10 * (1 + ... + 9) = -450.
    assert game["totals"] == [-450 + 120, *[9 * 20 + 20] * 5]
    assert game["status"] == "finished"
    assert sorted(game["winners"]) == [1, 2, 3, 4, 5]
    refusal(api.put(game_id, 10, "trump", {"turned": "red"}), 409)


def test_shorter_game_turns_a_card_in_its_last_round(api: ApiClient) -> None:
    """With rules.rounds below the full count, the last round needs a trump like any other."""
    game = api.create(SIX, first_dealer=0, rules={"rounds": 2})
    assert len(game["rounds"]) == 2
    assert game["rounds"][1]["trump"] is None
    api.play_round(game["id"], 1, bids=[0] * 6, tricks=[1, 0, 0, 0, 0, 0])
    assert api.get(game["id"])["rounds"][1]["state"] == "trump"
    game = api.play_round(game["id"], 2, bids=[0] * 6, tricks=[0, 2, 0, 0, 0, 0], turned="jester")
    assert game["rounds"][1]["trump"] == {"turned": "jester", "suit": None}
    assert game["status"] == "finished"


# -- Corrections ---------------------------------------------------------------------------


def test_correcting_a_scored_round_recomputes_totals(api: ApiClient) -> None:
    """Trump, bids and tricks of round 1 corrected after round 3: later rounds stay."""
    sheet = Sheet(NAMES, first_dealer=0, rounds=20)
    game_id = api.create(NAMES, first_dealer=0)["id"]
    played = {1: ([1, 0, 0], [1, 0, 0]), 2: ([1, 1, 0], [0, 1, 1]), 3: ([1, 1, 0], [1, 2, 0])}
    for number, (bids, tricks) in played.items():
        api.play_round(game_id, number, bids=bids, tricks=tricks, turned="green")
        sheet.bids[number], sheet.tricks[number] = bids, tricks
        sheet.trumps[number] = {"turned": "green", "suit": "green"}
    api.trump(game_id, 4, "yellow")
    api.bids(game_id, 4, [2, None, None])
    check_game(api.get(game_id), sheet)
    later = api.get(game_id)["rounds"][1:4]

    game = api.trump(game_id, 1, "wizard", "red")
    sheet.trumps[1] = {"turned": "wizard", "suit": "red"}
    assert game["rounds"][0]["state"] == "scored"
    check_game(game, sheet)

    game = api.bids(game_id, 1, [0, 0, 1])
    sheet.bids[1] = [0, 0, 1]
    assert game["rounds"][0]["scores"] == [score(0, 1), 20, score(1, 0)]
    check_game(game, sheet)

    game = api.tricks(game_id, 1, [0, 0, 1])
    sheet.tricks[1] = [0, 0, 1]
    assert game["rounds"][0]["scores"] == [20, 20, 30]
    check_game(game, sheet)
    assert game["rounds"][1:4] == later
    assert game["current_round"] == 4

    before = api.get(game_id)
    bad = [
        ("bids", {"bids": [0, None, 1]}, 422),  # a scored round keeps every bid
        ("bids", {"bids": [0, 0, 2]}, 422),  # round 1 has one card
        ("tricks", {"tricks": [1, 0, 1]}, 422),  # two tricks in a one-card round
        ("trump", {"turned": "wizard"}, 422),
    ]
    for what, body, status in bad:
        refusal(api.put(game_id, 1, what, body), status)
    _unchanged(api, game_id, before)


def test_correction_is_checked_by_the_bid_rule(api: ApiClient) -> None:
    """Plus/Minus One: a correction that makes round 2's bids add up to 2 is refused."""
    game_id = api.create(NAMES, first_dealer=0, rules={"bid_rule": "plus_minus_one"})["id"]
    api.play_round(game_id, 1, bids=[0, 0, 0], tricks=[1, 0, 0])
    api.play_round(game_id, 2, bids=[1, 0, 0], tricks=[1, 1, 0])
    before = api.get(game_id)
    problem = refusal(api.put(game_id, 2, "bids", {"bids": [1, 1, 0]}), 422)
    assert problem["errors"][0]["field"] == "bids[1]"  # Ute deals round 2
    _unchanged(api, game_id, before)
    game = api.bids(game_id, 2, [0, 1, 0])
    assert game["rounds"][1]["scores"] == [-10, 30, 20]  # tricks 1, 1, 0 as recorded


# -- The dealer's forbidden bid ------------------------------------------------------------


def test_forbidden_dealer_bid_is_named_in_a_sentence(api: ApiClient) -> None:
    """Plus/Minus One: 422 against the dealer's seat, saying what the bids would add up to."""
    game_id = api.create(NAMES, first_dealer=0, rules={"bid_rule": "plus_minus_one"})["id"]
    api.trump(game_id, 1, "red")
    game = api.bids(game_id, 1, [None, 0, 0])  # Thomas deals round 1
    assert game["rounds"][0]["forbidden_bid"] == 1
    before = api.get(game_id)
    problem = refusal(api.put(game_id, 1, "bids", {"bids": [1, 0, 0]}), 422)
    assert problem["errors"][0]["field"] == "bids[0]"
    assert problem["detail"] == (
        "Thomas deals and may not bid 1: the bids would add up to the 1 trick of this round."
    )
    _unchanged(api, game_id, before)
    api.bids(game_id, 1, [0, 0, 0])
    api.tricks(game_id, 1, [0, 1, 0])
    for number in (2, 3, 4):
        api.play_round(game_id, number, bids=[0, 0, 0], tricks=[number, 0, 0])

    api.trump(game_id, 5, "blue")
    game = api.bids(game_id, 5, [2, None, 1])  # Ute deals round 5; Kevin and Thomas bid 3
    shown = game["rounds"][4]
    assert shown["dealer"] == 1
    assert shown["bid_order"] == [2, 0, 1]
    assert shown["forbidden_bid"] == 2
    before = api.get(game_id)
    problem = refusal(api.put(game_id, 5, "bids", {"bids": [2, 2, 1]}), 422)
    assert problem["errors"][0]["field"] == "bids[1]"
    assert problem["detail"] == (
        "Ute deals and may not bid 2: the bids would add up to the 5 tricks of this round."
    )
    _unchanged(api, game_id, before)
    for allowed in (0, 1, 3, 4, 5):
        assert api.bids(game_id, 5, [2, allowed, 1])["rounds"][4]["state"] == "playing"


FOUR = ["Alice", "Bob", "Charlotte", "Dave"]


def _bob_deals_round_two(api: ApiClient, reveal: str) -> str:
    """Plus/Minus One, Bob deals round 2 (2 tricks): Alice 1, Charlotte 0, Dave 0, Bob 0."""
    rules = {"bid_rule": "plus_minus_one", "bid_reveal": reveal}
    game_id = api.create(FOUR, first_dealer=0, rules=rules)["id"]
    api.play_round(game_id, 1, bids=[0, 0, 0, 0], tricks=[1, 0, 0, 0])
    api.trump(game_id, 2, "red")
    assert api.bids(game_id, 2, [1, 0, 0, 0])["rounds"][1]["state"] == "playing"
    return game_id


def test_a_changed_bid_that_leaves_the_dealers_bid_forbidden_is_refused_against_the_dealer(
    api: ApiClient,
) -> None:
    """A PUT replaces the round's bids as a whole: Dave 1 beside Bob's 0 adds up to the 2
    tricks, refused against the dealer's seat as the contract says; with Bob's bid left out,
    Dave's 1 stands and Bob may bid anything but 0."""
    game_id = _bob_deals_round_two(api, "open")
    before = api.get(game_id)
    problem = refusal(api.put(game_id, 2, "bids", {"bids": [1, 0, 0, 1]}), 422)
    assert problem["errors"][0]["field"] == "bids[1]"
    assert problem["detail"] == (
        "Bob deals and may not bid 0: the bids would add up to the 2 tricks of this round."
    )
    _unchanged(api, game_id, before)
    shown = api.bids(game_id, 2, [1, None, 0, 1])["rounds"][1]
    assert shown["state"] == "bidding"
    assert shown["forbidden_bid"] == 0
    assert api.bids(game_id, 2, [1, 1, 0, 1])["rounds"][1]["state"] == "playing"


@pytest.mark.parametrize(
    ("reveal", "detail"),
    [
        (
            "covered",
            "Bob deals and may not bid 0: the bids would add up to the 2 tricks of this round.",
        ),
        (
            "secret",
            "These bids would add up to the 2 tricks of this round, which the bid rule "
            "forbids: Bob, who deals, must bid something else.",
        ),
    ],
)
def test_a_refusal_names_the_dealers_bid_once_the_bids_are_revealed(
    api: ApiClient, reveal: str, detail: str
) -> None:
    """Covered bids are revealed before play, so the refusal of a change names the dealer's
    bid; secret bids stay hidden in play, and the refusal still does not give it away."""
    game_id = _bob_deals_round_two(api, reveal)
    problem = refusal(api.put(game_id, 2, "bids", {"bids": [1, 0, 0, 1]}), 422)
    assert problem["errors"][0]["field"] == "bids[1]"
    assert problem["detail"] == detail


@pytest.mark.parametrize("zero_allowed", [False, True])
def test_last_bidder_may_bid_zero(api: ApiClient, zero_allowed: bool) -> None:
    """Plus/Minus One, others' bids add up to the cards: 0 is forbidden unless the option."""
    rules = {"bid_rule": "plus_minus_one", "last_bidder_may_bid_zero": zero_allowed}
    game_id = api.create(NAMES, first_dealer=2, rules=rules)["id"]  # Kevin deals round 1
    api.trump(game_id, 1, "red")
    game = api.bids(game_id, 1, [1, 0, None])
    assert game["rounds"][0]["forbidden_bid"] == (None if zero_allowed else 0)
    response = api.put(game_id, 1, "bids", {"bids": [1, 0, 0]})
    if zero_allowed:
        assert response.status_code == 200
        assert response.get_json()["rounds"][0]["state"] == "playing"
    else:
        problem = refusal(response, 422)
        assert problem["errors"][0]["field"] == "bids[2]"
        assert api.bids(game_id, 1, [1, 0, 1])["rounds"][0]["state"] == "playing"
    game = api.bids(game_id, 1, [0, 0, None])  # others 0: the dealer may not bid 1
    assert game["rounds"][0]["forbidden_bid"] == 1
    refusal(api.put(game_id, 1, "bids", {"bids": [0, 0, 1]}), 422)


def test_standard_rule_restricts_nobody(api: ApiClient) -> None:
    """Standard: any total, no forbidden bid."""
    game_id = api.create(NAMES, first_dealer=0)["id"]
    api.trump(game_id, 1, "red")
    assert api.bids(game_id, 1, [None, 0, 0])["rounds"][0]["forbidden_bid"] is None
    assert api.bids(game_id, 1, [1, 0, 0])["rounds"][0]["state"] == "playing"


def test_canadian_rule_looks_at_the_standings_before_the_round(api: ApiClient) -> None:
    """Only a dealer who leads outright is restricted, and may still bid 0; a correction of
    an earlier round changes who leads."""
    rules = {"bid_rule": "canadian"}
    game_id = api.create(NAMES, first_dealer=0, rules=rules)["id"]
    # Round 1, Thomas deals, all tied at 0: he may make the bids add up to 1.
    api.trump(game_id, 1, "red")
    assert api.bids(game_id, 1, [None, 0, 0])["rounds"][0]["forbidden_bid"] is None
    api.bids(game_id, 1, [1, 0, 0])
    game = api.tricks(game_id, 1, [1, 0, 0])
    assert game["totals"] == [30, 20, 20]
    # Round 2, Ute deals, second: not restricted.
    game = api.play_round(game_id, 2, bids=[0, 1, 1], tricks=[0, 1, 1])
    assert game["totals"] == [50, 50, 50]
    # Round 3, Kevin deals, tied for the lead: a tie does not count.
    game = api.play_round(game_id, 3, bids=[1, 1, 1], tricks=[1, 2, 0])
    assert game["totals"] == [80, 40, 40]
    # Round 4, Thomas deals and leads outright: restricted, except that 0 is always allowed.
    api.trump(game_id, 4, "red")
    assert api.bids(game_id, 4, [None, 1, 1])["rounds"][3]["forbidden_bid"] == 2
    problem = refusal(api.put(game_id, 4, "bids", {"bids": [2, 1, 1]}), 422)
    assert problem["errors"][0]["field"] == "bids[0]"
    assert problem["detail"] == (
        "Thomas deals and may not bid 2: the bids would add up to the 4 tricks of this round "
        "(Canadian rule: the dealer leads the standings alone)."
    )
    assert api.bids(game_id, 4, [None, 2, 2])["rounds"][3]["forbidden_bid"] is None
    assert api.bids(game_id, 4, [0, 2, 2])["rounds"][3]["state"] == "playing"
    assert api.bids(game_id, 4, [None, 1, 1])["rounds"][3]["forbidden_bid"] == 2
    # Correct round 3 so that Kevin ties Thomas: Thomas no longer leads outright.
    game = api.tricks(game_id, 3, [0, 3, 0])
    assert game["totals"] == [40, 30, 40]
    assert game["rounds"][3]["forbidden_bid"] is None
    game = api.bids(game_id, 4, [2, 1, 1])
    assert game["rounds"][3]["state"] == "playing"


# -- Reveal modes --------------------------------------------------------------------------


def test_secret_bids_stay_hidden_until_the_round_is_scored(api: ApiClient) -> None:
    """Secret: bids read null, has_bid shows who bid; the rule is still enforced."""
    rules = {"bid_rule": "plus_minus_one", "bid_reveal": "secret"}
    game_id = api.create(NAMES, first_dealer=0, rules=rules)["id"]
    api.trump(game_id, 1, "red")
    shown = api.bids(game_id, 1, [None, 0, None])["rounds"][0]
    assert shown["bids"] == [None, None, None]
    assert shown["has_bid"] == [False, True, False]
    shown = api.bids(game_id, 1, [None, 0, 0])["rounds"][0]
    assert shown["has_bid"] == [False, True, True]
    assert shown["forbidden_bid"] is None  # showing it would give the hidden bids away
    before = api.get(game_id)
    refusal(api.put(game_id, 1, "bids", {"bids": [1, 0, 0]}), 422)
    _unchanged(api, game_id, before)
    shown = api.bids(game_id, 1, [0, 0, 0])["rounds"][0]
    assert shown["state"] == "playing"
    assert shown["bids"] == [None, None, None]
    assert shown["has_bid"] == [True, True, True]
    assert api.get(game_id)["rounds"][0]["bids"] == [None, None, None]
    shown = api.tricks(game_id, 1, [0, 1, 0])["rounds"][0]
    assert shown["bids"] == [0, 0, 0]
    assert shown["scores"] == [20, -10, 20]


def test_covered_bids_are_revealed_together(api: ApiClient) -> None:
    """Covered: bids read null until every bid is in, then all show at once."""
    game_id = api.create(NAMES, first_dealer=0, rules={"bid_reveal": "covered"})["id"]
    api.trump(game_id, 1, "wizard", "green")
    shown = api.bids(game_id, 1, [1, None, 0])["rounds"][0]
    assert shown["state"] == "bidding"
    assert shown["bids"] == [None, None, None]
    assert shown["has_bid"] == [True, False, True]
    assert api.get(game_id)["rounds"][0]["bids"] == [None, None, None]
    shown = api.bids(game_id, 1, [1, 1, 0])["rounds"][0]
    assert shown["state"] == "playing"
    assert shown["bids"] == [1, 1, 0]
    assert api.get(game_id)["rounds"][0]["bids"] == [1, 1, 0]


def test_open_bids_show_as_they_come(api: ApiClient) -> None:
    """Open: each bid shows at once, and the dealer's forbidden bid once all others are in."""
    game_id = api.create(NAMES, first_dealer=1, rules={"bid_rule": "plus_minus_one"})["id"]
    api.trump(game_id, 1, "jester")  # Ute deals; Kevin, then Thomas bid
    shown = api.bids(game_id, 1, [None, None, 1])["rounds"][0]
    assert shown["bids"] == [None, None, 1]
    assert shown["forbidden_bid"] is None  # Thomas has not bid yet
    shown = api.bids(game_id, 1, [0, None, 1])["rounds"][0]
    assert shown["bids"] == [0, None, 1]
    assert shown["has_bid"] == [True, False, True]
    assert shown["forbidden_bid"] == 0


# -- An answer without a body ---------------------------------------------------------------


@pytest.mark.parametrize(
    "prefer", ["return=minimal", 'RETURN="minimal"', "handling=lenient, return=minimal; x=1"]
)
def test_a_write_asked_for_return_minimal_answers_204_with_its_version(
    api: ApiClient, prefer: str
) -> None:
    game_id = api.seed(NAMES)
    response = api.put(game_id, 1, "trump", {"turned": "red"}, Prefer=prefer)
    assert response.status_code == 204
    assert response.get_data() == b""
    assert response.headers["Preference-Applied"] == "return=minimal"
    game = api.get(game_id)
    assert response.headers["ETag"] == f'"{game["version"]}"'
    assert game["rounds"][0]["trump"]["turned"] == "red"
    undone = api.client.post(
        f"/api/v1/games/{game_id}/undo",
        headers=api.headers(game_id, Prefer=prefer, **{"If-Match": f'"{game["version"]}"'}),
    )
    assert (undone.status_code, undone.get_data()) == (204, b"")
    assert api.get(game_id)["rounds"][0]["trump"] is None


@pytest.mark.parametrize("prefer", [None, "return=representation", "return=minimalist"])
def test_a_write_answers_with_the_game_unless_asked_for_return_minimal(
    api: ApiClient, prefer: str | None
) -> None:
    game_id = api.seed(NAMES)
    headers = {"Prefer": prefer} if prefer else {}
    response = api.put(game_id, 1, "trump", {"turned": "red"}, **headers)
    assert response.status_code == 200
    assert "Preference-Applied" not in response.headers
    assert response.get_json() == api.get(game_id)
