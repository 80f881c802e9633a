"""Undo and redo (services/undo.py): each kind of write taken back and put back, how far
back repeated taps go, and the refusals."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import errors
from scorekeeper.extensions import db
from scorekeeper.models import ChangeRow
from scorekeeper.rules.cards import Suit
from scorekeeper.rules.game import RoundState
from scorekeeper.rules.messages import OutOfTurnError
from scorekeeper.services import audit, games, rounds, undo

from ..api_client import ApiClient
from ..factory import Seeded, seed


@pytest.fixture
def game(app: Flask) -> Seeded:
    return seed(app)


def facts(game: Seeded, number: int) -> tuple[Any, ...]:
    snapshot = games.get_game(game.id)
    view = snapshot.round(number)
    return view.state, view.trump, view.bids, view.tricks, snapshot.counts(number)


def test_undo_of_a_trump_takes_it_back_and_redo_puts_it_back(app: Flask, game: Seeded) -> None:
    with app.app_context():
        before = facts(game, 1)
        rounds.record_trump(game.id, game.token, 1, "red")
        after = facts(game, 1)
        undone = undo.undo(game.id, game.token)
        assert undone.step.kind == "trump"
        assert facts(game, 1) == before
        assert facts(game, 1)[0] is RoundState.TRUMP
        redone = undo.redo(game.id, game.token)
        assert redone.game.version == undone.game.version + 1
        assert facts(game, 1) == after


def test_undo_of_one_bid_takes_back_that_bid_only(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bid(game.id, game.token, 1, 1, 1)
        rounds.record_bid(game.id, game.token, 1, 2, 0)
        undone = undo.undo(game.id, game.token)
        assert undone.step.seat == 2
        assert games.get_game(game.id).round(1).bids == (None, 1, None)


def test_undo_of_a_scoring_leaves_its_tricks_tapped_in(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 1])
        rounds.save_trick_draft(game.id, game.token, 1, 0, 0)
        rounds.save_trick_draft(game.id, game.token, 1, 1, 1)
        rounds.score_round(game.id, game.token, 1)
        undo.undo(game.id, game.token)
        state, _, bids, tricks, drafts = facts(game, 1)
        assert (state, bids, tricks, drafts) == (RoundState.PLAYING, (0, 1, 1), None, (0, 1, 0))
        undo.redo(game.id, game.token)
        assert facts(game, 1)[3] == (0, 1, 0)
        assert facts(game, 1)[4] == (None, None, None)


def test_undo_of_everyone_made_their_bid_and_of_tricks(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        rounds.score_round(game.id, game.token, 1, all_made=True)
        assert undo.undo(game.id, game.token).step.kind == "score"
        assert facts(game, 1)[0] is RoundState.PLAYING
        rounds.record_tricks(game.id, game.token, 1, [1, 0, 0])
        assert undo.undo(game.id, game.token).step.kind == "tricks"
        assert facts(game, 1)[3] is None


def test_undo_of_a_correction_restores_the_round_and_its_mark(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        rounds.record_tricks(game.id, game.token, 1, [0, 1, 0])
        rounds.correct_round(
            game.id, game.token, 1, turned="blue", chosen=None, bids=[1, 0, 0], tricks=[1, 0, 0]
        )
        assert 1 in games.get_game(game.id).corrected
        undo.undo(game.id, game.token)
        snapshot = games.get_game(game.id)
        assert snapshot.round(1).bids == (0, 1, 0)
        assert snapshot.round(1).trump is not None
        assert snapshot.round(1).trump.suit is Suit.RED
        assert 1 not in snapshot.corrected
        undo.redo(game.id, game.token)
        assert 1 in games.get_game(game.id).corrected


def test_repeated_undos_go_back_step_by_step_to_the_last_scored_round(
    app: Flask, game: Seeded
) -> None:
    with app.app_context():
        for number, bids in ((1, [0, 1, 0]), (2, [1, 0, 1])):
            rounds.record_trump(game.id, game.token, number, "red")
            rounds.record_bids(game.id, game.token, number, bids)
            rounds.score_round(game.id, game.token, number, all_made=True)
        rounds.record_trump(game.id, game.token, 3, "blue")
        kinds = [undo.undo(game.id, game.token).step for _ in range(4)]
        assert [(step.round, step.kind) for step in kinds] == [
            (3, "trump"),
            (2, "score"),
            (2, "bids"),
            (2, "trump"),
        ]
        # Round 3 was being played: its round and round 2 are in reach, round 1 is not, even
        # now that the undos have made round 2 the current round again.
        with pytest.raises(OutOfTurnError, match="nothing more to undo here"):
            undo.undo(game.id, game.token)
        assert games.get_game(game.id).view.current_round == 2


def test_undo_stops_short_of_rounds_before_the_last_scored_one(app: Flask, game: Seeded) -> None:
    with app.app_context():
        for number, bids in ((1, [0, 1, 0]), (2, [1, 0, 1]), (3, [1, 1, 1])):
            rounds.record_trump(game.id, game.token, number, "red")
            rounds.record_bids(game.id, game.token, number, bids)
            rounds.score_round(game.id, game.token, number, all_made=True)
        # Round 4 is current, round 3 the last scored: round 3's scoring, bids and trump
        # are in reach, round 2 is not.
        for _ in range(3):
            assert undo.undo(game.id, game.token).step.round == 3
        with pytest.raises(OutOfTurnError, match="nothing more to undo here"):
            undo.undo(game.id, game.token)
        assert undo.reversible(games.get_game(game.id)).undo is None


def _corrected_after_round_3s_trump(app: Flask) -> Seeded:
    """Rounds 1 and 2 of a 3-round game scored, round 3's trump set, then round 1's trump
    corrected: the correction is the game's last write, round 1 out of undo's usual reach."""
    game = seed(app, played=[([0, 1, 0], [0, 1, 0]), ([1, 0, 1], [1, 0, 1])], rounds=3)
    with app.app_context():
        rounds.record_trump(game.id, game.token, 3, "red")
        rounds.correct_round(
            game.id, game.token, 1, turned="blue", chosen=None, bids=[0, 1, 0], tricks=[0, 1, 0]
        )
    return game


def test_as_many_redos_as_undos_put_everything_back(app: Flask) -> None:
    game = _corrected_after_round_3s_trump(app)
    with app.app_context():
        before = games.get_game(game.id).view
        assert [undo.undo(game.id, game.token).step.kind for _ in range(2)] == [
            "correction",
            "trump",
        ]
        assert [undo.redo(game.id, game.token).step.kind for _ in range(2)] == [
            "trump",
            "correction",
        ]
        assert games.get_game(game.id).view == before
        with pytest.raises(OutOfTurnError, match="nothing to redo"):
            undo.redo(game.id, game.token)


def test_the_last_write_undone_and_redone_is_still_the_last_to_undo(app: Flask) -> None:
    game = _corrected_after_round_3s_trump(app)
    with app.app_context():
        undo.undo(game.id, game.token)
        undo.redo(game.id, game.token)
        assert undo.undo(game.id, game.token).step.kind == "correction"
        assert games.get_game(game.id).round(1).trump.suit is Suit.GREEN  # as played


def test_a_write_after_an_undo_leaves_nothing_to_redo(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        undo.undo(game.id, game.token)
        rounds.record_trump(game.id, game.token, 1, "green")
        assert undo.reversible(games.get_game(game.id)).redo is None
        with pytest.raises(OutOfTurnError, match="nothing to redo"):
            undo.redo(game.id, game.token)


def test_nothing_to_undo_in_a_new_game(app: Flask, game: Seeded) -> None:
    with app.app_context():
        version = games.get_game(game.id).version
        with pytest.raises(OutOfTurnError, match="nothing to undo"):
            undo.undo(game.id, game.token)
        assert games.get_game(game.id).version == version


def test_an_undo_after_another_phones_write_is_refused(app: Flask, game: Seeded) -> None:
    with app.app_context():
        seen = rounds.record_trump(game.id, game.token, 1, "red").version
        rounds.record_bid(game.id, game.token, 1, 1, 1)  # the other phone
        before = facts(game, 1)
        with pytest.raises(errors.StaleVersion):
            undo.undo(game.id, game.token, if_match={seen})
        assert facts(game, 1) == before


def test_undo_needs_the_right_to_keep_score(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        with pytest.raises(errors.TokenRejected):
            undo.undo(game.id, "not-the-token")


def test_the_round_history_tells_the_undo_and_the_redo(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        undo.undo(game.id, game.token)
        undo.redo(game.id, game.token)
        trail = audit.audit_trail(games.get_game(game.id), 1)
        assert [change.kind for change in trail] == ["trump", "undo", "redo"]
        assert trail[1].old is not None
        assert trail[1].old.trump is not None
        assert trail[1].new is not None
        assert trail[1].new.trump is None


def test_a_trick_count_tapped_in_is_undone_and_redone_alone(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        rounds.save_trick_draft(game.id, game.token, 1, 1, 1)
        rounds.save_trick_draft(game.id, game.token, 1, 0, 1)
        rounds.save_trick_draft(game.id, game.token, 1, 0, 0)  # Ann's count, tapped again
        found = undo.reversible(games.get_game(game.id)).undo
        assert found is not None
        assert (found.kind, found.seat) == ("draft", 0)
        undone = undo.undo(game.id, game.token)
        assert undone.game.counts(1) == (1, 1, None)
        state, _, bids, tricks, _ = facts(game, 1)
        assert (state, bids, tricks) == (RoundState.PLAYING, (0, 1, 0), None)
        undo.undo(game.id, game.token)
        assert facts(game, 1)[4] == (None, 1, None)
        redone = undo.redo(game.id, game.token)
        assert (redone.step.kind, redone.step.seat) == ("draft", 0)
        assert facts(game, 1)[4] == (1, 1, None)
        # Undone again down to Bob's count, then the bids: the drafts are not in the way.
        for _ in range(3):
            undo.undo(game.id, game.token)
        assert facts(game, 1)[2:] == (None, None, (None, None, None))


def test_undo_of_a_scoring_then_of_a_count_tapped_in(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 1])
        rounds.save_trick_draft(game.id, game.token, 1, 0, 0)
        rounds.save_trick_draft(game.id, game.token, 1, 1, 1)
        rounds.score_round(game.id, game.token, 1)
        assert undo.undo(game.id, game.token).step.kind == "score"
        assert facts(game, 1)[4] == (0, 1, 0)  # as today: the tricks it scored, tapped in
        step = undo.undo(game.id, game.token).step
        assert (step.kind, step.seat) == ("draft", 1)
        assert facts(game, 1)[4] == (0, None, 0)


def test_the_same_count_tapped_again_is_no_change_to_undo(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        rounds.save_trick_draft(game.id, game.token, 1, 1, 1)
        rounds.save_trick_draft(game.id, game.token, 1, 1, 1)
        trail = audit.audit_trail(games.get_game(game.id), 1)
        assert [change.kind for change in trail] == ["trump", "bids", "draft"]
        undo.undo(game.id, game.token)
        assert undo.undo(game.id, game.token).step.kind == "bids"


def test_a_count_tapped_over_the_tally_is_undone_to_the_tallied_count(
    app: Flask, game: Seeded
) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        rounds.record_trick_winner(game.id, game.token, 1, 2)
        rounds.save_trick_draft(game.id, game.token, 1, 2, 0)
        rounds.save_trick_draft(game.id, game.token, 1, 0, 1)
        assert games.get_game(game.id).counts(1) == (1, 0, 0)
        assert undo.undo(game.id, game.token).step.seat == 0
        assert undo.undo(game.id, game.token).step.seat == 2
        assert games.get_game(game.id).counts(1) == (0, 0, 1)  # the tally's counts again
        assert undo.undo(game.id, game.token).step.kind == "tally"
        assert games.get_game(game.id).round(1).tally == ()


def test_the_round_history_tells_a_count_tapped_in_and_its_undo(app: Flask, game: Seeded) -> None:
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        version = rounds.save_trick_draft(game.id, game.token, 1, 1, 1).version
        assert undo.undo(game.id, game.token, if_match={version}).game.version == version + 1
        trail = audit.audit_trail(games.get_game(game.id), 1)
        assert [change.kind for change in trail][-2:] == ["draft", "undo"]
        assert [line.differences for line in trail[-2].lines] == [
            (audit.Difference("draft", None, 1),)
        ]
        assert [line.seat for line in trail[-1].lines] == [1]
        assert trail[-1].lines[0].differences == (audit.Difference("draft", 1, None),)


def test_a_trick_count_tapped_in_is_undone_and_its_trail_exports_and_imports(
    app: Flask, api: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = api.seed(next_trump="red", next_bids=[0, 1, 0])
    token = api.tokens[game_id]
    with app.test_request_context():
        rounds.save_trick_draft(game_id, token, 1, 1, 1)
        rounds.save_trick_draft(game_id, token, 1, 0, 1)  # Thomas's count, a wrong tap
    before = api.get(game_id)
    with app.test_request_context():
        assert undo.undo(game_id, token).game.version == before["version"] + 1
        assert games.get_game(game_id).counts(1) == (None, 1, None)
        rounds.save_trick_draft(game_id, token, 1, 0, 0)
        rounds.score_round(game_id, token, 1)
    original = api.get(game_id)
    assert original["rounds"][0]["tricks"] == [0, 1, 0]
    document = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    kinds = [entry["kind"] for entry in document["audit"]]
    assert kinds == ["trump", "bids", "draft", "draft", "undo", "draft", "score"]
    # The export keeps within the bound of entries an import takes, and imports back.
    monkeypatch.setattr(audit, "AUDIT_EXPORTED", 4)
    latest = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    assert [entry["kind"] for entry in latest["audit"]] == kinds[-4:]
    for exported in (document, latest):
        response = api.client.post("/api/v1/import", json=exported)
        assert response.status_code == 201, response.get_json()
        (created,) = response.get_json()["games"]
        copy = api.get(created["id"])
        for key in ("rules", "rounds", "totals", "standings", "current_round"):
            assert copy[key] == original[key], key


def test_a_count_tapped_in_before_tricks_that_differ_is_undone(app: Flask, game: Seeded) -> None:
    """Found by the stack model (test_undo_model.py): undoing the tricks leaves them tapped in,
    Ann's 1 over the 0 she had tapped in; undoing her count is still one write back."""
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "blue")
        rounds.record_bids(game.id, game.token, 1, [0, 0, 0])
        rounds.save_trick_draft(game.id, game.token, 1, 0, 0)
        rounds.record_tricks(game.id, game.token, 1, [1, 0, 0])
        assert undo.undo(game.id, game.token).game.counts(1) == (1, 0, 0)
        step = undo.undo(game.id, game.token).step
        assert (step.kind, step.seat) == ("draft", 0)
        assert facts(game, 1)[2:] == ((0, 0, 0), None, (None, 0, 0))


def test_rows_written_before_drafts_were_always_kept_read_as_they_did(
    app: Flask, api: ApiClient
) -> None:
    """A row of the audit trail written before its facts always held ``drafts`` (a key left
    out where the write changed no count tapped in) reads as the row written now: the
    history, the export and undo alike."""
    game_id = api.seed(next_trump="red", next_bids=[0, 1, 0])
    token = api.tokens[game_id]
    with app.test_request_context():
        rounds.save_trick_draft(game_id, token, 1, 1, 1)
        now = audit.audit_trail(games.get_game(game_id))
    exported = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    with app.app_context():
        rows = db.session.scalars(select(ChangeRow).where(ChangeRow.game_id == game_id))
        for row in rows:
            assert "drafts" in row.new  # kept always now: null where no count changed
            row.old, row.new = (_as_before(row.old), _as_before(row.new))
        db.session.commit()
        kept = select(ChangeRow.kind, ChangeRow.new).order_by(ChangeRow.id)
        kinds = [kind for kind, new in db.session.execute(kept) if "drafts" not in new]
        assert kinds == ["trump", "bids"]
        assert audit.audit_trail(games.get_game(game_id)) == now
    again = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    assert again["audit"] == exported["audit"]
    with app.test_request_context():
        assert undo.undo(game_id, token).step.kind == "draft"
        assert games.get_game(game_id).counts(1) == (None, None, None)
        assert undo.undo(game_id, token).step.kind == "bids"


def _as_before(facts: dict[str, Any] | None) -> dict[str, Any] | None:
    """Facts as an audit row kept them before: ``drafts`` only where a write changed them."""
    if facts is None or facts["drafts"] is not None:
        return facts
    return {key: value for key, value in facts.items() if key != "drafts"}
