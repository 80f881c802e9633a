"""The undo stack (services/stack.py): what undo and redo would take is read at the top, in
the same few statements however long the game's audit trail."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import aliased

from scorekeeper.extensions import db
from scorekeeper.models import ChangeRow
from scorekeeper.services import games, rounds, stack, undo

from ..factory import Seeded, seed
from ..statements import count_statements

# The outcome depends on the backend: run on both (docs/development.md).
pytestmark = pytest.mark.both_backends

LONG_TRAIL = 10_000


def _bids(bid: int) -> dict[str, object]:
    return {"trump": {"turned": "red", "suit": "red"}, "bids": [None, bid, None], "tricks": None}


def _with_a_long_trail(app: Flask, game: Seeded, length: int) -> None:
    """Bob's bid in round 1 tapped in as 0, then ``length`` (an even number) more writes of
    it (1, 0, 1, …, 0), stacked as the services stack them but written at once (the
    services would take minutes)."""
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bid(game.id, game.token, 1, 1, 0)
        rows = [
            {
                "game_id": game.id,
                "round_number": 1,
                "kind": "bids",
                "old": _bids((n + 1) % 2),
                "new": _bids(n % 2),
                "reached": 1,
            }
            for n in range(1, length + 1)
        ]
        db.session.execute(insert(ChangeRow), rows)
        under = aliased(ChangeRow)
        below = (
            select(func.max(under.id))
            .where(under.game_id == ChangeRow.game_id, under.id < ChangeRow.id)
            .scalar_subquery()
        )
        db.session.execute(
            update(ChangeRow)
            .where(ChangeRow.game_id == game.id, ChangeRow.below.is_(None))
            .values(below=below)
        )
        db.session.commit()


def test_undo_and_redo_are_found_in_the_same_statements_after_3_and_10000_writes(
    app: Flask,
) -> None:
    short, long = seed(app), seed(app)
    _with_a_long_trail(app, short, 2)
    _with_a_long_trail(app, long, LONG_TRAIL)
    counts = []
    with app.app_context():
        for game in (short, long):
            for tap in (None, undo.undo, undo.redo):
                if tap is not None:
                    tap(game.id, game.token)
                snapshot = games.get_game(game.id)
                with count_statements(app) as statements:
                    found = undo.reversible(snapshot)
                assert found.undo is not None
                assert (found.undo.kind, found.undo.seat) == ("bids", 1)
                counts.append(len(statements))
    assert counts[:3] == counts[3:]
    assert max(counts) <= 2, counts


def test_a_game_of_10000_writes_undoes_and_redoes_one_at_a_time(app: Flask) -> None:
    game = seed(app)
    _with_a_long_trail(app, game, LONG_TRAIL)
    with app.app_context():
        bids = [games.get_game(game.id).round(1).bids]
        for _ in range(3):
            undo.undo(game.id, game.token)
            bids.append(games.get_game(game.id).round(1).bids)
        assert bids == [(None, 0, None), (None, 1, None), (None, 0, None), (None, 1, None)]
        for _ in range(3):
            undo.redo(game.id, game.token)
        assert games.get_game(game.id).round(1).bids == (None, 0, None)
        assert undo.reversible(games.get_game(game.id)).redo is None


def test_a_write_is_pushed_on_the_top_and_an_undo_names_what_it_took_back(app: Flask) -> None:
    game = seed(app)
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "red")
        rounds.record_bids(game.id, game.token, 1, [0, 1, 0])
        undo.undo(game.id, game.token)
        rounds.record_bids(game.id, game.token, 1, [1, 1, 0])
        rows = db.session.execute(
            select(ChangeRow.id, ChangeRow.kind, ChangeRow.below, ChangeRow.reverts)
            .where(ChangeRow.game_id == game.id)
            .order_by(ChangeRow.id)
        ).all()
        trump, bids, undone, again = rows
        assert (trump.below, bids.below, undone.reverts, again.below) == (
            None,
            trump.id,
            bids.id,
            trump.id,
        )
        top = stack.top(game.id)
        assert top.done is not None
        assert (top.done.id, top.undone) == (again.id, None)
