"""The service's use cases for the pages: browsers' edit rights, one bid at a time, trick
drafts, scoring from a draft, marked corrections, the games a browser keeps."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper import errors
from scorekeeper.rules.cards import Suit, TrumpCard, Turned
from scorekeeper.rules.game import RoundState
from scorekeeper.rules.messages import BidError, OutOfTurnError, SetupError, TrickError
from scorekeeper.services import games, history, rounds, sharing

from ..factory import PLAYERS, seed

PHONE = sharing.Browser("phone-key")
OTHER = sharing.Browser("other-key")


def start(app: Flask, browser: sharing.Browser = PHONE, **options: object) -> str:
    return seed(app, browser=browser, **options).id


def bidding(app: Flask, **options: object) -> str:
    """A game whose round 1 has its trump and waits for bids."""
    return seed(app, browser=PHONE, next_trump="green", **options).id


def playing(app: Flask, bids: list[int] | None = None) -> str:
    """A game whose round 2 (2 cards, Bob deals) has all its bids."""
    played = [([1, 0, 0], [1, 0, 0])]
    return seed(app, played=played, browser=PHONE, next_trump="red", next_bids=bids or [1, 0, 0]).id


# -- Edit rights -------------------------------------------------------------------------------


def test_the_browser_that_starts_a_game_may_edit_it_and_no_other(app: Flask) -> None:
    game_id = start(app)
    with app.app_context():
        assert sharing.is_keeper(game_id, PHONE)
        assert not sharing.is_keeper(game_id, OTHER)
        assert not sharing.is_keeper(game_id, None)
        assert not sharing.is_keeper("not an id!", PHONE)
        assert rounds.record_trump(game_id, PHONE, 1, "blue").version == 2
        with pytest.raises(errors.NotKeeper):
            rounds.record_trump(game_id, OTHER, 1, "red")
        assert games.get_game(game_id).view.round(1).trump == TrumpCard(Turned.BLUE, Suit.BLUE)


def test_a_game_started_through_the_api_grants_no_browser(app: Flask) -> None:
    with app.app_context():
        created = games.create_game(PLAYERS)
        assert not sharing.is_keeper(created.game.id, PHONE)
        # The edit token still works, and a browser's key is not a token.
        rounds.record_trump(created.game.id, created.edit_token, 1, "blue")
        with pytest.raises(errors.TokenRejected):
            rounds.record_trump(created.game.id, PHONE.key, 1, "blue")


def test_only_the_hash_of_a_device_key_is_stored(app: Flask) -> None:
    start(app)
    with app.app_context():
        from scorekeeper.extensions import db

        rows = db.session.execute(db.text("SELECT browser_hash FROM keepers")).all()
    assert rows == [(sharing.hash_token(PHONE.key),)]


def test_kept_games_are_this_browsers_newest_first_without_deleted_ones(app: Flask) -> None:
    first = start(app)
    second = start(app)
    start(app, browser=OTHER)
    with app.app_context():
        rounds.record_trump(first, PHONE, 1, "blue")  # now the most recently changed
        assert [kept.game.id for kept in history.game_list(PHONE).games] == [first, second]
        games.delete_game(second, PHONE)
        assert [kept.game.id for kept in history.game_list(PHONE).games] == [first]
        assert history.game_list(None).games == []


def test_known_names_come_from_kept_games_once_each(app: Flask) -> None:
    start(app)
    with app.app_context():
        games.create_game(["ann", "Dora", "Eve"], browser=PHONE)
        games.create_game(["Zed", "Yan", "Xu"], browser=OTHER)
        names = games.known_names(PHONE)
    assert sorted(names, key=str.casefold) == ["ann", "Bob", "Cy", "Dora", "Eve"]
    assert names[:3] == ["ann", "Dora", "Eve"]  # the newest game first


# -- One bid at a time ---------------------------------------------------------------------------


def test_a_bid_is_recorded_keeping_the_others(app: Flask) -> None:
    game_id = bidding(app)
    with app.app_context():
        rounds.record_bid(game_id, PHONE, 1, 1, 1)
        game = rounds.record_bid(game_id, PHONE, 1, 2, 0).game
        assert game.view.round(1).bids == (None, 1, 0)
        game = rounds.record_bid(game_id, PHONE, 1, 1, None).game
        assert game.view.round(1).bids == (None, None, 0)


def test_a_bid_the_rules_forbid_is_refused_for_the_dealer(app: Flask) -> None:
    game_id = bidding(app, bid_rule="plus_minus_one")
    with app.app_context():
        rounds.record_bid(game_id, PHONE, 1, 1, 0)
        rounds.record_bid(game_id, PHONE, 1, 2, 0)
        with pytest.raises(BidError, match="Ann deals and may not bid 1") as refused:
            rounds.record_bid(game_id, PHONE, 1, 0, 1)
        assert refused.value.field == "bids[0]"
        assert games.get_game(game_id).view.round(1).bids == (None, 0, 0)


def test_a_bid_that_leaves_the_dealers_bid_forbidden_takes_the_dealers_bid_back(
    app: Flask,
) -> None:
    game_id = bidding(app, bid_rule="plus_minus_one")
    with app.app_context():
        for seat, bid in ((1, 0), (2, 1), (0, 1)):
            assert rounds.record_bid(game_id, PHONE, 1, seat, bid).dealer_bids_again is None
        recorded = rounds.record_bid(game_id, PHONE, 1, 2, 0)
        assert recorded.game.view.round(1).bids == (None, 0, 0)
        assert recorded.dealer_bids_again is not None
        assert recorded.dealer_bids_again.field == "bids[2]"
        assert "Ann, who deals, may not keep 1" in str(recorded.dealer_bids_again)
        assert games.get_game(game_id).view.round(1).bids == (None, 0, 0)


@pytest.mark.parametrize("seat", [-1, 3, 99])
def test_a_bid_for_a_seat_not_at_the_table_is_refused(app: Flask, seat: int) -> None:
    game_id = bidding(app)
    with app.app_context(), pytest.raises(SetupError, match=f"no seat {seat}"):
        rounds.record_bid(game_id, PHONE, 1, seat, 0)


# -- Trick drafts --------------------------------------------------------------------------------


def test_trick_drafts_are_kept_but_never_scored(app: Flask) -> None:
    game_id = playing(app)
    with app.app_context():
        game = rounds.save_trick_draft(game_id, PHONE, 2, 2, 1)
        assert game.drafts == {2: (None, None, 1)}
        assert game.view.round(2).state is RoundState.PLAYING
        assert game.view.round(2).tricks is None
        assert game.view.totals == [30, 20, 20]
        game = rounds.save_trick_draft(game_id, PHONE, 2, 2, None)
        assert game.drafts == {}


def test_a_draft_count_out_of_range_or_out_of_turn_is_refused(app: Flask) -> None:
    game_id = playing(app)
    with app.app_context():
        with pytest.raises(TrickError, match="can win 0 to 2 tricks, not 3"):
            rounds.save_trick_draft(game_id, PHONE, 2, 0, 3)
        with pytest.raises(OutOfTurnError, match="scored already"):
            rounds.save_trick_draft(game_id, PHONE, 1, 0, 1)
        with pytest.raises(OutOfTurnError, match="waits until round 2"):
            rounds.save_trick_draft(game_id, PHONE, 3, 0, 1)
        rounds.record_trump(game_id, PHONE, 2, "blue")
        assert games.get_game(game_id).drafts == {}


def test_scoring_fills_the_one_missing_count_and_clears_the_draft(app: Flask) -> None:
    game_id = playing(app, [1, 0, 1])
    with app.app_context():
        rounds.save_trick_draft(game_id, PHONE, 2, 2, 1)  # Cy bids first in round 2
        rounds.save_trick_draft(game_id, PHONE, 2, 0, 1)
        game = rounds.score_round(game_id, PHONE, 2)
        assert game.view.round(2).tricks == (1, 0, 1)
        assert game.view.round(2).scores == [30, 20, 30]
        assert game.drafts == {}


def test_scoring_an_incomplete_or_wrong_draft_is_refused(app: Flask) -> None:
    game_id = playing(app)
    with app.app_context():
        with pytest.raises(TrickError, match="Tap the tricks Cy won"):
            rounds.score_round(game_id, PHONE, 2)
        for seat in range(3):
            rounds.save_trick_draft(game_id, PHONE, 2, seat, 1)
        with pytest.raises(TrickError, match="1 trick too many"):
            rounds.score_round(game_id, PHONE, 2)
        assert games.get_game(game_id).view.round(2).state is RoundState.PLAYING


def test_everyone_made_their_bid_scores_the_bids_as_tricks(app: Flask) -> None:
    game_id = playing(app, [1, 0, 1])
    with app.app_context():
        game = rounds.score_round(game_id, PHONE, 2, all_made=True)
        assert game.view.round(2).tricks == (1, 0, 1)
    other = playing(app, [1, 0, 0])
    with app.app_context(), pytest.raises(TrickError, match="not everyone can have made"):
        rounds.score_round(other, PHONE, 2, all_made=True)


# -- Corrections are marked ----------------------------------------------------------------------


def test_a_round_written_again_after_scoring_is_marked_corrected(app: Flask) -> None:
    game_id = bidding(app)
    with app.app_context():
        rounds.record_bids(game_id, PHONE, 1, [1, 0, 0])
        rounds.record_bids(game_id, PHONE, 1, [0, 1, 0])  # changed while playing
        rounds.record_tricks(game_id, PHONE, 1, [0, 1, 0])
        assert games.get_game(game_id).corrected == frozenset()
        rounds.record_tricks(game_id, PHONE, 1, [1, 0, 0])
        assert games.get_game(game_id).corrected == {1}
        game = rounds.correct_round(
            game_id, PHONE, 1, turned="blue", chosen=None, bids=[1, 0, 0], tricks=[1, 0, 0]
        )
        assert game.corrected == {1}
        assert game.view.totals == [30, 20, 20]
