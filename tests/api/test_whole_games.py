"""Whole games over HTTP, every number checked against RULES.md as the tests read it.

Each game is played round by round through ``/api/v1`` with seeded random trumps, bids and
tricks; after every write the answer is compared with a hand-kept score sheet
(:mod:`tests.wizard_model`): scores, totals, standings with competition ranks, winners,
status, current round, what the reveal mode shows, and the dealer's forbidden bid.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from ..api_client import ApiClient, refusal
from ..wizard_model import (
    NO_CARD_LEFT,
    Sheet,
    Variant,
    check_game,
    check_standings,
    full_rounds,
    random_bid,
    random_tricks,
    random_trump,
    trump_of,
)

NAMES = ["Thomas", "Ute", "Kevin", "Anna", "Bert", "Carla"]
REVEALS = ("open", "covered", "secret")
BID_RULES = {
    "standard": Variant("standard"),
    "plus_minus_one": Variant("plus_minus_one"),
    "plus_minus_one_zero": Variant("plus_minus_one", last_bidder_may_bid_zero=True),
    "canadian": Variant("canadian"),
}


def _ok(response: TestResponse, version: int) -> dict[str, Any]:
    """The game of a successful write, which must be at ``version``."""
    assert response.status_code == 200, response.get_json()
    game: dict[str, Any] = response.get_json()
    assert game["version"] == version
    assert response.headers["ETag"] == f'"{version}"'
    return game


def _check_refused(
    api: ApiClient, game_id: str, response: TestResponse, status: int, before: dict[str, Any]
) -> dict[str, Any]:
    """A refused write: the status, a problem document, and the game exactly as before."""
    document = refusal(response, status)
    assert api.get(game_id) == before
    return document


def _check_bidding_view(shown: dict[str, Any], sheet: Sheet, bids: list[int | None]) -> None:
    """What the round shows while bids come in, by reveal mode."""
    number = shown["number"]
    complete = all(bid is not None for bid in bids)
    assert shown["state"] == ("playing" if complete else "bidding")
    assert shown["has_bid"] == [bid is not None for bid in bids]
    reveal = sheet.variant.bid_reveal
    visible = reveal == "open" or (reveal == "covered" and complete)
    assert shown["bids"] == (bids if visible else [None] * sheet.players)
    expected_forbidden = sheet.forbidden(number, bids) if visible else None
    assert shown["forbidden_bid"] == expected_forbidden
    assert shown["tricks"] is None
    assert shown["scores"] is None


def play_game(
    api: ApiClient,
    players: int,
    variant: Variant,
    seed: int,
    rounds: int | None = None,
) -> dict[str, int]:
    """Play a whole game, checking every answer; returns how often the dealer was restricted."""
    rng = random.Random(seed)
    names = NAMES[:players]
    first_dealer = rng.randrange(players)
    created = api.create(names, first_dealer=first_dealer, rules=variant.body(rounds))
    game_id = created["id"]
    sheet = Sheet(names, first_dealer, rounds or full_rounds(players), variant)
    assert created["version"] == 1
    assert created["players"] == [{"seat": s, "name": n} for s, n in enumerate(names)]
    assert created["first_dealer"] == first_dealer
    defaults = {"special_cards": [], "round_plan": "every_hand"}
    assert created["rules"] == {**defaults, **variant.body(), "rounds": sheet.rounds}
    assert created["rounds"][0]["state"] == ("bidding" if sheet.deals_every_card(1) else "trump")
    for shown in created["rounds"]:
        assert shown["trump"] == (NO_CARD_LEFT if sheet.deals_every_card(shown["number"]) else None)
        assert shown["bids"] is None
        assert shown["has_bid"] is None
        assert shown["tricks"] is None
    check_game(created, sheet)
    game = api.get(game_id)
    assert game == {key: value for key, value in created.items() if key != "edit_token"}
    version = 1
    restricted = 0

    for number in range(1, sheet.rounds + 1):
        dealer = sheet.dealer(number)
        order = created["rounds"][number - 1]["bid_order"]
        before = game  # the last answer is the game as it stands (refusals compare with it)
        shown = before["rounds"][number - 1]
        if sheet.deals_every_card(number):
            assert shown["state"] == "bidding"
            assert shown["trump"] == NO_CARD_LEFT
            response = api.put(game_id, number, "trump", {"turned": "blue"})
            _check_refused(api, game_id, response, 409, before)
        else:
            assert shown["state"] == "trump"
            turned, chosen = random_trump(rng)
            body = {"turned": turned} if chosen is None else {"turned": turned, "chosen": chosen}
            version += 1
            game = _ok(api.put(game_id, number, "trump", body), version)
            sheet.trumps[number] = trump_of(turned, chosen)
            assert game["rounds"][number - 1]["trump"] == sheet.trumps[number]
            assert game["rounds"][number - 1]["state"] == "bidding"

        # Bids: one at a time in bid order in odd rounds, all at once (but the dealer's) else.
        bids: list[int | None] = [None] * players
        for position, seat in enumerate(order[:-1]):
            bids[seat] = random_bid(rng, number, players)
            if number % 2 == 1 or position == players - 2:
                version += 1
                game = _ok(api.put(game_id, number, "bids", {"bids": bids}), version)
                _check_bidding_view(game["rounds"][number - 1], sheet, bids)

        forbidden = sheet.forbidden(number, bids)
        if forbidden is not None:
            restricted += 1
            before = game
            trial = [*bids[:dealer], forbidden, *bids[dealer + 1 :]]
            response = api.put(game_id, number, "bids", {"bids": trial})
            problem = _check_refused(api, game_id, response, 422, before)
            assert problem["errors"][0]["field"] == f"bids[{dealer}]"
            assert names[dealer] in problem["detail"]
        bids[dealer] = rng.choice([v for v in range(number + 1) if v != forbidden])
        version += 1
        game = _ok(api.put(game_id, number, "bids", {"bids": bids}), version)
        _check_bidding_view(game["rounds"][number - 1], sheet, bids)
        sheet.bids[number] = [bid for bid in bids if bid is not None]

        tricks = random_tricks(rng, sheet.bids[number], number)
        version += 1
        game = _ok(api.put(game_id, number, "tricks", {"tricks": tricks}), version)
        sheet.tricks[number] = tricks
        check_game(game, sheet)
        shown = game["rounds"][number - 1]
        assert shown["bids"] == sheet.bids[number]  # every reveal mode shows a scored round
        # ... and so the dealer's forbidden bid, which gives away nothing any more.
        assert shown["forbidden_bid"] == sheet.forbidden(number, list(bids))
        if number < sheet.rounds:
            following = game["rounds"][number]
            waits_for_trump = not sheet.deals_every_card(number + 1)
            assert following["state"] == ("trump" if waits_for_trump else "bidding")

    final = api.get(game_id)
    assert final["status"] == "finished"
    assert final["current_round"] is None
    assert final["winners"]
    check_game(final, sheet)
    return {"restricted": restricted}


@pytest.mark.parametrize("rule", list(BID_RULES))
def test_whole_game(api: ApiClient, rule: str) -> None:
    """A full game for each bid rule, 3 to 6 players, the reveal modes spread over them (open,
    secret, covered, open): every answer as RULES.md composes it (the arithmetic itself is
    tests/rules')."""
    index = list(BID_RULES).index(rule)
    players = 3 + index
    base = BID_RULES[rule]
    variant = Variant(
        base.bid_rule,
        base.last_bidder_may_bid_zero,
        bid_reveal=REVEALS[(players + index) % 3],
        clairvoyance=(players + index) % 2 == 0,
    )
    seen = play_game(api, players, variant, seed=100 * players + index)
    if variant.bid_rule != "standard":
        # The seeded game must reach the dealer restriction, or it tested nothing of it.
        assert seen["restricted"] > 0
    else:
        assert seen["restricted"] == 0


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.integers(3, 6),
    rule=st.sampled_from(list(BID_RULES)),
    reveal=st.sampled_from(REVEALS),
    clairvoyance=st.booleans(),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_a_short_game_of_any_variant(
    api: ApiClient,
    players: int,
    rule: str,
    reveal: str,
    clairvoyance: bool,
    rounds: int,
    seed: int,
) -> None:
    """rules.rounds shortens the game (no round deals every card, so each needs a trump), under
    any bid rule, reveal mode and player count."""
    base = BID_RULES[rule]
    variant = Variant(base.bid_rule, base.last_bidder_may_bid_zero, reveal, clairvoyance)
    play_game(api, players, variant, seed=seed, rounds=rounds)


def test_seeds_example_game(api: ApiClient) -> None:
    """Thomas, Ute and Kevin (seed 000): totals 10, 10, 20 after two rounds."""
    game = api.create(["Thomas", "Ute", "Kevin"], first_dealer=2)
    game_id = game["id"]
    assert game["rounds"][0]["dealer"] == 2
    assert game["rounds"][0]["bid_order"] == [0, 1, 2]  # Thomas bids first
    assert game["rounds"][1]["dealer"] == 0
    assert game["rounds"][1]["bid_order"] == [1, 2, 0]

    game = api.play_round(game_id, 1, bids=[0, 1, 1], tricks=[0, 0, 1])
    assert game["rounds"][0]["scores"] == [20, -10, 30]
    assert game["totals"] == [20, -10, 30]
    assert game["current_round"] == 2

    game = api.play_round(game_id, 2, bids=[2, 0, 0], tricks=[1, 0, 1])
    assert game["rounds"][1]["scores"] == [-10, 20, -10]
    assert game["totals"] == [10, 10, 20]
    check_standings(
        game["standings"],
        [
            {"seat": 2, "name": "Kevin", "total": 20, "rank": 1},
            {"seat": 0, "name": "Thomas", "total": 10, "rank": 2},
            {"seat": 1, "name": "Ute", "total": 10, "rank": 2},
        ],
    )
    assert game["status"] == "in_progress"
    assert game["current_round"] == 3
    assert game["winners"] == []
    assert api.get(game_id) == game


@pytest.mark.parametrize(
    ("bids", "tricks", "totals", "ranks", "winners"),
    [
        ([0, 0, 1, 1], [0, 0, 0, 1], [20, 20, -10, 30], [2, 2, 4, 1], [3]),
        ([0, 0, 0, 0], [0, 0, 1, 0], [20, 20, -10, 20], [1, 1, 4, 1], [0, 1, 3]),
        ([1, 0, 0, 0], [0, 0, 1, 0], [-10, 20, -10, 20], [3, 1, 3, 1], [1, 3]),
    ],
)
def test_one_round_game_ranks_and_winners(
    api: ApiClient,
    bids: list[int],
    tricks: list[int],
    totals: list[int],
    ranks: list[int],
    winners: list[int],
) -> None:
    """A one-round game: competition ranks (1, 1, 3, 3), tied leaders share the win."""
    game = api.create(NAMES[:4], first_dealer=3, rules={"rounds": 1})
    game = api.play_round(game["id"], 1, bids=bids, tricks=tricks)
    assert game["totals"] == totals
    assert game["status"] == "finished"
    assert game["current_round"] is None
    assert sorted(game["winners"]) == winners
    assert {line["seat"]: line["rank"] for line in game["standings"]} == dict(enumerate(ranks))
    assert [line["total"] for line in game["standings"]] == sorted(totals, reverse=True)
    assert [line["name"] for line in game["standings"]] == [
        NAMES[line["seat"]] for line in game["standings"]
    ]
