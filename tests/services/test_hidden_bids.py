"""While the bids are hidden (covered before they are all in, secret until the round is
scored), a refused write says nothing of them: two games that differ only in their hidden
bids are refused in the same words (docs/hidden-bids.md, "What a refusal may tell")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from scorekeeper.rules.messages import RuleError
from scorekeeper.rules.specials import CloudBid
from scorekeeper.services import rounds, specials

from ..factory import Seeded, seed


def _secret(app: Flask, bids: list[int]) -> Seeded:
    """A secret-bids game with the Cloud, round 3's trump and ``bids`` recorded."""
    game = seed(
        app,
        played=[([1, 0, 0], [1, 0, 0]), ([0, 0, 1], [0, 0, 2])],
        special_cards=["cloud"],
        bid_reveal="secret",
    )
    with app.app_context():
        rounds.record_trump(game.id, game.token, 3, "red")
        rounds.record_bids(game.id, game.token, 3, bids)
    return game


def test_everyone_made_it_with_the_cloud_is_refused_alike_whatever_the_hidden_bids(
    app: Flask,
) -> None:
    """Ann's bid taken down by the Cloud: with 1, 2, 1 she would end on none (the Cloud's
    winner took a trick), with 1, 1, 1 the bids fall short. Either way, the same words."""
    said = set()
    for bids in ([1, 2, 1], [1, 1, 1]):
        game = _secret(app, bids)
        with app.app_context():
            specials.record_cloud(game.id, game.token, 3, 0, up=False)
        said.add(_refusal(app, game, lambda g: rounds.score_round(g.id, g.token, 3, all_made=True)))
    assert said == {
        "Not everyone can have made their bid: the bids do not add up to the 3 tricks of round 3."
    }


def _refusal(app: Flask, game: Seeded, write: Callable[[Seeded], object]) -> str:
    with app.app_context(), pytest.raises(RuleError) as caught:
        write(game)
    return str(caught.value)


def _cloud_to_a_player_without_a_trick(game: Seeded) -> object:
    """Ann's count tapped in as 0, then the Cloud taking her bid down: with a bid of 1 the
    change would be one, with 0 not; she took no trick either way, and that is what is said."""
    rounds.save_trick_draft(game.id, game.token, 3, 0, 0)
    return specials.record_cloud(game.id, game.token, 3, 0, up=False)


@pytest.mark.parametrize(
    "write",
    [
        lambda game: rounds.record_tricks(
            game.id, game.token, 3, [1, 1, 1], cloud=CloudBid(seat=0, bid=3)
        ),
        lambda game: rounds.record_tricks(
            game.id, game.token, 3, [0, 1, 2], cloud=CloudBid(seat=0, bid=0)
        ),
        _cloud_to_a_player_without_a_trick,
        lambda game: rounds.score_round(game.id, game.token, 3, all_made=True),
    ],
    ids=["cloud", "cloud to no trick", "cloud tapped to no trick", "everyone made it"],
)
def test_a_refusal_says_the_same_whatever_the_hidden_bids(
    app: Flask, write: Callable[[Seeded], object]
) -> None:
    # Open, the two would differ: a bid of 1 or of 0, bids adding up to 2 or to 0.
    said = {_refusal(app, _secret(app, bids), write) for bids in ([1, 0, 1], [0, 0, 0])}
    assert len(said) == 1, said
