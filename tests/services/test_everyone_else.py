""" "Everyone else made their bid" (services/rounds.py): the tricks tapped in, the others'
bids for the rest, when they add up to the cards."""

from __future__ import annotations

from flask import Flask

from scorekeeper.services import games, rounds


def test_the_players_not_tapped_in_are_scored_as_having_made_their_bid(app: Flask) -> None:
    with app.app_context():
        created = games.create_game(["Ann", "Bob", "Cy", "Dee"], first_dealer=0)
        game_id, token = created.game.id, created.edit_token
        for number, bids in ((1, [0, 1, 0, 0]), (2, [0, 0, 0, 2])):
            rounds.record_trump(game_id, token, number, "red")
            rounds.record_bids(game_id, token, number, bids)
            rounds.score_round(game_id, token, number, all_made=True)
        rounds.record_trump(game_id, token, 3, "red")
        rounds.record_bids(game_id, token, 3, [1, 1, 1, 0])
        assert rounds.tapped_or_made(games.get_game(game_id), 3) == (1, 1, 1, 0)
        rounds.save_trick_draft(game_id, token, 3, 0, 0)
        # Ann missed: the others' bids no longer add up to the cards.
        assert rounds.tapped_or_made(games.get_game(game_id), 3) is None
        rounds.save_trick_draft(game_id, token, 3, 3, 1)
        assert rounds.tapped_or_made(games.get_game(game_id), 3) == (0, 1, 1, 1)
        scored = rounds.score_round(game_id, token, 3, all_made=True)
        assert scored.round(3).tricks == (0, 1, 1, 1)
        assert scored.round(3).scores == [-10, 30, 30, -10]
