"""History that lasts, as the services keep it: the audit trail of each write, imports that
start no game twice, deleting, restoring and purging (the pages that show them:
tests/pages/test_history.py)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, update

from scorekeeper import errors
from scorekeeper.extensions import db
from scorekeeper.models import ChangeRow, GameRow, utcnow
from scorekeeper.rules.cards import Suit, TrumpCard, Turned
from scorekeeper.rules.game import GameStatus
from scorekeeper.rules.messages import BidError
from scorekeeper.services import audit, games, history, importing, rounds
from scorekeeper.services.sharing import Browser

from ..factory import game_count, seed

PHONE = Browser("history-phone")
OTHER = Browser("another-phone")
GREEN = TrumpCard(Turned.GREEN, Suit.GREEN)
BLUE = TrumpCard(Turned.BLUE, Suit.BLUE)


def trail(app: Flask, game_id: str, number: int | None = None) -> list[audit.Change]:
    with app.test_request_context():
        return audit.audit_trail(games.get_game(game_id), number)


# -- The audit trail -----------------------------------------------------------------------


def test_every_write_to_a_round_is_kept_with_its_time_and_old_and_new_values(app: Flask) -> None:
    game_id = seed(app, ["Thomas", "Ute", "Kevin"], browser=PHONE).id
    with app.app_context():
        rounds.record_trump(game_id, PHONE, 1, "green")
        for seat, bid in ((1, 1), (2, 1), (0, 0)):
            rounds.record_bid(game_id, PHONE, 1, seat, bid)
        rounds.save_trick_draft(game_id, PHONE, 1, 1, 0)
        rounds.save_trick_draft(game_id, PHONE, 1, 2, 1)
        rounds.score_round(game_id, PHONE, 1)
        rounds.correct_round(
            game_id, PHONE, 1, turned="blue", chosen=None, bids=[0, 0, 1], tricks=[0, 0, 1]
        )
    changes = trail(app, game_id, 1)
    # Each trick count tapped in is a write too (two: the third is filled in from the sum).
    kinds = [change.kind for change in changes]
    assert kinds == ["trump", "bids", "bids", "bids", "draft", "draft", "score", "correction"]
    first, last = changes[0], changes[-1]
    assert first.old is not None
    assert first.new is not None
    assert first.old.trump is None
    assert first.new.trump == GREEN
    assert last.old is not None
    assert last.new is not None
    assert last.old.bids == (0, 1, 1)
    assert last.new.bids == (0, 0, 1)
    assert last.new.trump == BLUE
    assert all(a.at <= b.at for a, b in itertools.pairwise(changes))
    # Each change holds only what it changed.
    assert last.lines == [
        audit.ChangedLine(None, (audit.Difference("trump", GREEN, BLUE),)),
        audit.ChangedLine(1, (audit.Difference("bid", 1, 0),)),
    ]
    assert changes[-2].lines == [
        audit.ChangedLine(seat, (audit.Difference("tricks", None, count),))
        for seat, count in enumerate([0, 0, 1])
    ]


def test_a_refused_write_leaves_no_trace_in_the_audit_trail(app: Flask) -> None:
    game_id = seed(app, ["Thomas", "Ute", "Kevin"], browser=PHONE).id
    with app.app_context():
        rounds.record_trump(game_id, PHONE, 1, "red")
        with pytest.raises(BidError):
            rounds.record_bid(game_id, PHONE, 1, 0, 5)
    assert [change.kind for change in trail(app, game_id)] == ["trump"]


# -- Import --------------------------------------------------------------------------------


def exported_games(app: Flask, *game_ids: str) -> dict[str, Any]:
    """The export of ``game_ids``, as the API gives it (scorekeeper/export.py writes it)."""
    client = app.test_client()
    items = [client.get(f"/api/v1/games/{game_id}/export").get_json() for game_id in game_ids]
    return {"schema_version": 1, "games": [{"game": i["game"], "audit": i["audit"]} for i in items]}


def imported(app: Flask, document: dict[str, Any], browser: Browser) -> importing.Imported:
    with app.app_context():
        file = importing.read_document(io.BytesIO(json.dumps(document).encode()))
        return importing.import_games(file, browser)


def test_a_file_imported_again_starts_no_game_twice(app: Flask) -> None:
    first = seed(app, ["Thomas", "Ute", "Kevin"], [([0, 1, 1], [0, 0, 1])], browser=PHONE).id
    second = seed(app, ["Dora", "Eve", "Finn"], browser=PHONE).id
    backup = exported_games(app, first, second)
    count = game_count(app)
    # The phone that keeps both games: nothing to import.
    result = imported(app, backup, PHONE)
    assert (len(result.created), result.already_kept) == (0, 2)
    assert game_count(app) == count
    # Another phone takes the file twice: the games once, though one was played on between.
    result = imported(app, backup, OTHER)
    assert (len(result.created), result.already_kept) == (2, 0)
    with app.app_context():
        copy = next(
            snapshot.game.id
            for snapshot in history.game_list(OTHER).games
            if snapshot.game.table.players[0] == "Thomas"
        )
        rounds.record_trump(copy, OTHER, 2, "red")
    assert game_count(app) == count + 2
    fresh = seed(app, ["Gus", "Hal", "Ida"], browser=PHONE).id
    count = game_count(app)
    result = imported(app, exported_games(app, first, second, fresh), OTHER)
    assert (len(result.created), result.already_kept) == (1, 2)
    assert game_count(app) == count + 1
    with app.app_context():
        assert games.get_game(copy).view.round(2).trump is not None


def test_a_game_deleted_here_is_not_imported_again_but_restorable(app: Flask) -> None:
    deleted = seed(app, ["Thomas", "Ute", "Kevin"], [([0, 1, 1], [0, 0, 1])], browser=PHONE).id
    kept = seed(app, ["Dora", "Eve", "Finn"], browser=PHONE).id
    backup = exported_games(app, deleted, kept)
    with app.app_context():
        games.delete_game(deleted, PHONE)
    count = game_count(app)
    result = imported(app, backup, PHONE)
    assert (len(result.created), result.already_kept, result.restorable) == (0, 1, 1)
    assert game_count(app) == count


@pytest.mark.both_backends
def test_a_file_sent_twice_at_once_starts_its_games_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A double tap on Import sends the form twice; both requests reach the server. Each
    # import waits, after reading what the phone keeps, for the other to have read too (or
    # for half a second): without one import waiting for the other, both would find the
    # games new.
    first = seed(app, ["Thomas", "Ute", "Kevin"], browser=PHONE).id
    second = seed(app, ["Dora", "Eve", "Finn"], browser=PHONE).id
    backup = exported_games(app, first, second)
    both_read = threading.Barrier(2)
    kept_identities = importing.kept_identities

    def read_then_wait(browser: Browser | None) -> Any:
        kept = kept_identities(browser)
        with contextlib.suppress(threading.BrokenBarrierError):
            both_read.wait(timeout=0.5)
        return kept

    monkeypatch.setattr(importing, "kept_identities", read_then_wait)
    results: list[importing.Imported] = []

    def send() -> None:
        results.append(imported(app, backup, OTHER))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted((len(result.created), result.already_kept) for result in results) == [
        (0, 2),
        (2, 0),
    ]
    with app.app_context():
        assert len(importing.kept_identities(OTHER)) == 2


# -- Deleting, restoring, purging ----------------------------------------------------------


def test_a_deleted_game_is_restored_only_by_its_phone(app: Flask) -> None:
    game_id = seed(app, browser=PHONE).id
    with app.app_context():
        with pytest.raises(errors.NotKeeper):
            games.delete_game(game_id, OTHER)
        games.delete_game(game_id, PHONE)
        (listed,) = history.deleted_games(PHONE)
        assert listed.restorable_until == listed.deleted_at + timedelta(days=30)
        assert history.deleted_games(OTHER) == []
        with pytest.raises(errors.GameNotFound):
            games.get_game(game_id)
        with pytest.raises(errors.NotKeeper):
            history.restore_game(game_id, OTHER)
        with pytest.raises(errors.TokenMissing):
            history.restore_game(game_id, None)
        assert history.restore_game(game_id, PHONE).id == game_id
        assert history.deleted_games(PHONE) == []
        assert games.get_game(game_id).id == game_id


def test_a_deletion_older_than_30_days_cannot_be_restored_and_is_purged(
    app: Flask, runner: FlaskCliRunner
) -> None:
    old = seed(app, browser=PHONE).id
    recent = seed(app, ["Dora", "Eve", "Finn"], [([0, 0, 1], [0, 0, 1])], browser=PHONE).id
    with app.app_context():
        games.delete_game(old, PHONE)
        games.delete_game(recent, PHONE)
        db.session.execute(
            update(GameRow)
            .where(GameRow.id == old)
            .values(deleted_at=utcnow() - timedelta(days=31))
        )
        db.session.commit()
        with pytest.raises(errors.GameNotFound):
            history.restore_game(old, PHONE)
        assert [game.id for game in history.deleted_games(PHONE)] == [recent]
    result = runner.invoke(args=["purge-deleted"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "Purged 1 deleted game."
    with app.app_context():
        assert set(db.session.scalars(select(GameRow.id))) == {recent}
        assert (
            db.session.scalar(
                select(func.count()).select_from(ChangeRow).where(ChangeRow.game_id == old)
            )
            == 0
        )
    result = runner.invoke(args=["purge-deleted", "--days", "0"])
    assert result.output.strip() == "Purged 1 deleted game."
    assert game_count(app) == 0


#: A game: its rounds, the rounds played, and how far the next one got (0: nothing, 1: its
#: trump, 2: its bids too).
GAME_SHAPES = st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(0, 2))


@pytest.mark.both_backends
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(shapes=st.lists(GAME_SHAPES, min_size=1, max_size=4))
def test_the_lists_status_in_sql_is_the_rules_status(
    app: Flask, shapes: list[tuple[int, int, int]]
) -> None:
    ids = []
    for round_count, asked, next_step in shapes:
        played = min(asked, round_count)
        more = played < round_count
        game = seed(
            app,
            played=[([0, 0, 0], [number, 0, 0]) for number in range(1, played + 1)],
            browser=PHONE,
            rounds=round_count,
            next_trump="green" if more and next_step >= 1 else None,
            next_bids=[0, 0, 0] if more and next_step == 2 else None,
        )
        ids.append(game.id)
    with app.app_context():
        for status in GameStatus:
            found = db.session.scalars(
                select(GameRow.id).where(GameRow.id.in_(ids), history.of_status(status))
            )
            assert set(found) == {id_ for id_ in ids if games.get_game(id_).view.status is status}
