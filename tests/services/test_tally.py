"""The trick tally as a use case (services/rounds.py ``record_trick_winner``): each tap one
versioned, audited write; refused with one sentence when it cannot be; undone one tap at a
time; and a complete tally fills in the tricks step."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper import errors
from scorekeeper.rules.game import RoundState
from scorekeeper.rules.messages import OutOfTurnError, TrickError
from scorekeeper.services import audit, games, rounds, undo

from ..factory import seed


@pytest.fixture
def game(app: Flask) -> tuple[str, str]:
    """A game whose round 2 is being played: bids Ann 1, Bob 1, Cy 0."""
    game_id, token = seed(
        app, played=[([0, 1, 0], [0, 1, 0])], turned="red", next_trump="blue", next_bids=[1, 1, 0]
    )
    return game_id, token


def test_each_tap_is_a_versioned_audited_write(app: Flask, game: tuple[str, str]) -> None:
    game_id, token = game
    with app.app_context():
        before = games.get_game(game_id)
        written = rounds.record_trick_winner(game_id, token, 2, 1)
        assert written.version == before.version + 1
        assert written.round(2).tally == (1,)
        assert written.round(2).state is RoundState.PLAYING
        stored = games.get_game(game_id)
        assert stored.version == written.version
        assert stored.round(2).tally == (1,)
        last = audit.audit_trail(stored, 2)[-1]
        assert last.kind == "tally"
        assert last.trick == (1, 1)


def test_a_complete_tally_fills_in_the_tricks_and_scoring_takes_them(
    app: Flask, game: tuple[str, str]
) -> None:
    game_id, token = game
    with app.app_context():
        rounds.record_trick_winner(game_id, token, 2, 0)
        half = games.get_game(game_id)
        assert half.counts(2) == (None, None, None)  # not filled in before the last trick
        rounds.record_trick_winner(game_id, token, 2, 1)
        assert games.get_game(game_id).counts(2) == (1, 1, 0)
        scored = rounds.score_round(game_id, token, 2)
        assert scored.round(2).tricks == (1, 1, 0)
        assert scored.round(2).scores == [30, 30, 20]


def test_a_count_tapped_in_by_hand_changes_the_tallied_one(
    app: Flask, game: tuple[str, str]
) -> None:
    game_id, token = game
    with app.app_context():
        rounds.record_trick_winner(game_id, token, 2, 0)
        rounds.record_trick_winner(game_id, token, 2, 0)
        assert games.get_game(game_id).counts(2) == (2, 0, 0)
        rounds.save_trick_draft(game_id, token, 2, 0, 1)
        rounds.save_trick_draft(game_id, token, 2, 2, 1)
        assert games.get_game(game_id).counts(2) == (1, 0, 1)
        assert rounds.score_round(game_id, token, 2).round(2).tricks == (1, 0, 1)


@pytest.mark.parametrize(
    ("setup", "number", "winner", "kind", "message"),
    [
        (
            "none",
            3,
            0,
            OutOfTurnError,
            "Round 3 waits until round 2 is scored: finish round 2 first.",
        ),
        ("none", 1, 0, OutOfTurnError, "Round 1 is scored already: correct it from the sheet."),
        ("bid", 2, 0, OutOfTurnError, "Record every bid of round 2 before the tricks."),
        ("full", 2, 2, TrickError, "All 2 tricks of round 2 are tallied already."),
        ("none", 2, 5, TrickError, "There is no seat 5 at this table to win a trick."),
        (
            "none",
            2,
            None,
            TrickError,
            "Every trick of round 2 is won by a player: only a Bomb's trick goes to nobody.",
        ),
    ],
)
def test_a_tap_that_cannot_be_is_refused_and_changes_nothing(
    app: Flask,
    game: tuple[str, str],
    setup: str,
    number: int,
    winner: int | None,
    kind: type[Exception],
    message: str,
) -> None:
    game_id, token = game
    with app.app_context():
        if setup == "bid":
            rounds.record_bid(game_id, token, 2, 1, None)
        elif setup == "full":
            rounds.record_trick_winner(game_id, token, 2, 0)
            rounds.record_trick_winner(game_id, token, 2, 1)
        before = games.get_game(game_id)
        with pytest.raises(kind) as raised:
            rounds.record_trick_winner(game_id, token, number, winner)
        assert str(raised.value) == message
        after = games.get_game(game_id)
        assert after.version == before.version
        assert after.rounds == before.rounds


def test_a_stale_version_is_refused(app: Flask, game: tuple[str, str]) -> None:
    game_id, token = game
    with app.app_context():
        seen = games.get_game(game_id).version
        rounds.record_trick_winner(game_id, token, 2, 0)
        with pytest.raises(errors.StaleVersion):
            rounds.record_trick_winner(game_id, token, 2, 1, if_match={seen})
        assert games.get_game(game_id).round(2).tally == (0,)


def test_undo_takes_back_one_tap_and_redo_puts_it_back(app: Flask, game: tuple[str, str]) -> None:
    game_id, token = game
    with app.app_context():
        rounds.record_trick_winner(game_id, token, 2, 2)
        rounds.record_trick_winner(game_id, token, 2, 0)
        undone = undo.undo(game_id, token)
        assert undone.step.kind == "tally"
        assert games.get_game(game_id).round(2).tally == (2,)
        undo.undo(game_id, token)
        assert games.get_game(game_id).round(2).tally == ()
        undo.redo(game_id, token)
        assert games.get_game(game_id).round(2).tally == (2,)


def test_undoing_the_scoring_of_a_tallied_round_keeps_its_tally(
    app: Flask, game: tuple[str, str]
) -> None:
    game_id, token = game
    with app.app_context():
        rounds.record_trick_winner(game_id, token, 2, 1)
        rounds.record_trick_winner(game_id, token, 2, 0)
        rounds.score_round(game_id, token, 2)
        undo.undo(game_id, token)
        kept = games.get_game(game_id)
        assert kept.round(2).state is RoundState.PLAYING
        assert kept.round(2).tally == (1, 0)
        assert kept.counts(2) == (1, 1, 0)
