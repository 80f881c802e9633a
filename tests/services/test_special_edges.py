"""The special cards at their edges (RULES.md, "Special cards"), by every way a round is
written: one Bomb, turned up or played, never both; the Cloud's change only for a seat that
took a trick; a deck naming a card once. Each refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper.rules.messages import RuleError, SetupError, TrickError, TrumpError
from scorekeeper.rules.specials import CloudBid
from scorekeeper.services import games, rounds, specials

from ..factory import Seeded, game_count, seed

DECK = ["bomb", "cloud"]


def _bidding(app: Flask, turned: str) -> Seeded:
    """Ann, Bob and Cy with the Bomb and the Cloud; round 1 played, round 2 (2 cards) with
    ``turned`` for trump and the bids 1, 0, 1."""
    game = seed(app, played=[([1, 0, 0], [1, 0, 0])], special_cards=DECK)
    with app.app_context():
        rounds.record_trump(game.id, game.token, 2, turned)
        rounds.record_bids(game.id, game.token, 2, [1, 0, 1])
    return game


def _refused(app: Flask, game: Seeded, kind: type[RuleError], write: Callable[[], object]) -> str:
    """The sentence ``write`` is refused with; the game's version is unchanged."""
    with app.app_context():
        before = games.get_game(game.id).version
        with pytest.raises(kind) as caught:
            write()
        assert games.get_game(game.id).version == before
    return str(caught.value)


def test_a_bomb_turned_up_for_trump_is_played_by_no_way_in(app: Flask) -> None:
    game = _bidding(app, "bomb")
    said = "The Bomb was turned up for trump in this round, so it cannot also be played in it."
    tally = "The Bomb was turned up for trump in round 2, so no trick of it goes to nobody."
    token = game.token
    writes: list[tuple[type[RuleError], str, Callable[[], object]]] = [
        (SetupError, said, lambda: specials.record_bomb(game.id, token, 2, True)),
        (SetupError, said, lambda: rounds.record_tricks(game.id, token, 2, [1, 0, 0], bomb=True)),
        (TrickError, tally, lambda: rounds.record_trick_winner(game.id, token, 2, None)),
    ]
    for kind, sentence, write in writes:
        assert _refused(app, game, kind, write) == sentence
    with app.app_context():
        rounds.record_tricks(game.id, token, 2, [1, 0, 1])
        correction = {"turned": "bomb", "chosen": None, "bids": [1, 0, 1], "tricks": [1, 0, 0]}
        with pytest.raises(SetupError, match=said):
            rounds.correct_round(game.id, token, 2, **correction, specials=(True, None))


@pytest.mark.parametrize("played", ["toggle", "tally"])
def test_a_bomb_played_is_not_then_the_card_turned_up(app: Flask, played: str) -> None:
    game = _bidding(app, "red")
    with app.app_context():
        if played == "toggle":
            specials.record_bomb(game.id, game.token, 2, True)
        else:  # a trick tallied to nobody is the Bomb's
            rounds.record_trick_winner(game.id, game.token, 2, None)
            off = lambda: specials.record_bomb(game.id, game.token, 2, False)  # noqa: E731
            with pytest.raises(SetupError, match="tallied to nobody"):
                off()
    sentence = _refused(
        app, game, TrumpError, lambda: rounds.record_trump(game.id, game.token, 2, "bomb")
    )
    assert sentence == "The Bomb was played in this round, so it cannot also be the card turned up."
    with app.app_context():  # nor by a correction once the round is scored
        rounds.record_tricks(game.id, game.token, 2, [1, 0, 0], bomb=True)
    correction = {"turned": "bomb", "chosen": None, "bids": [1, 0, 1], "tricks": [1, 0, 0]}
    correct = lambda: rounds.correct_round(game.id, game.token, 2, **correction)  # noqa: E731
    _refused(app, game, SetupError, correct)


def test_the_clouds_change_goes_to_a_seat_that_took_a_trick(app: Flask) -> None:
    game = _bidding(app, "red")
    sentence = (
        "The Cloud changes the bid of the player who won its trick, and Bob took no trick in "
        "this round."
    )
    record = lambda: rounds.record_tricks(  # noqa: E731
        game.id, game.token, 2, [1, 0, 1], cloud=CloudBid(seat=1, bid=1)
    )
    assert _refused(app, game, RuleError, record) == sentence
    with app.app_context():  # a count tapped in as 0 is known at once
        rounds.save_trick_draft(game.id, game.token, 2, 1, 0)
    cloud = lambda: specials.record_cloud(game.id, game.token, 2, 1, up=True)  # noqa: E731
    assert _refused(app, game, RuleError, cloud) == sentence
    with app.app_context():  # else it is refused when the round is scored
        rounds.save_trick_draft(game.id, game.token, 2, 1, None)
        specials.record_cloud(game.id, game.token, 2, 1, up=True)
        rounds.save_trick_draft(game.id, game.token, 2, 0, 1)
        rounds.save_trick_draft(game.id, game.token, 2, 1, 0)
    score = lambda: rounds.score_round(game.id, game.token, 2)  # noqa: E731
    assert _refused(app, game, RuleError, score) == sentence
    with app.app_context():
        rounds.record_tricks(game.id, game.token, 2, [0, 1, 1], cloud=CloudBid(seat=1, bid=1))
        assert games.get_game(game.id).view.round(2).scores == [-10, 30, 30]


def test_a_deck_naming_a_card_twice_starts_no_game(app: Flask) -> None:
    with app.app_context(), pytest.raises(SetupError) as caught:
        games.create_game(["Ann", "Bob", "Cy"], special_cards=["bomb", "cloud", "bomb"])
    assert str(caught.value) == "The deck holds one of each special card: “bomb” is named twice."


def test_an_import_of_a_bomb_turned_up_and_played_imports_nothing(app: Flask) -> None:
    game = seed(app, played=[([1, 0, 0], [1, 0, 0])], special_cards=DECK, turned="bomb")
    client = app.test_client()
    document = client.get(f"/api/v1/games/{game.id}/export").get_json()
    played = document["game"]["rounds"][0]
    played.update(bomb=True, tricks=[0, 0, 0], scores=None)
    count = game_count(app)
    response = client.post("/api/v1/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert (
        "The Bomb was turned up for trump in this round, so it cannot also be played in it."
        in (response.get_json()["detail"])
    )
    assert game_count(app) == count


def test_an_import_of_a_cloud_given_to_a_seat_without_a_trick_imports_nothing(
    app: Flask,
) -> None:
    game = _bidding(app, "red")
    with app.app_context():  # trick 1 to Ann, trick 2 to Cy: Bob took none
        rounds.record_trick_winner(game.id, game.token, 2, 0)
        rounds.record_trick_winner(game.id, game.token, 2, 2)
    client = app.test_client()
    document = client.get(f"/api/v1/games/{game.id}/export").get_json()
    document["game"]["rounds"][1]["cloud"] = {"seat": 1, "bid": 1}
    count = game_count(app)
    response = client.post("/api/v1/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert "and Bob took no trick in this round." in response.get_json()["detail"]
    assert game_count(app) == count
