"""The trick counts tapped in before a round is scored, through an export and an import: the
audit trail says what each tap changed, a round being played keeps its counts on the other
phone (also after a scoring taken back), and counts no round can hold are refused (nothing
is imported)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import Game

from ..confidant import Confidant, text
from ..pages.helpers import pressed
from ..pages.test_history import game_count, shown_changes, upload


def _tapped(phone: Confidant) -> dict[str, Any]:
    """Round 2 (2 cards) being played, bids 1, 1, 0, with Thomas's 1 trick and Ute's 0
    tapped in; the game's export."""
    assert phone.start(["Thomas", "Ute", "Kevin"]).status_code == 303
    phone.play(1, [0, 1, 0], [0, 1, 0])
    assert phone.trump(2, "red").status_code == 303
    for seat, bid in enumerate([1, 1, 0]):
        assert phone.bid(2, seat, bid).status_code == 303
    assert phone.tricks(2, 0, 1).status_code == 303
    assert phone.tricks(2, 1, 0).status_code == 303
    document: dict[str, Any] = json.loads(phone.get(f"/games/{phone.game_id}/export.json").data)
    return document


def test_the_counts_tapped_in_are_in_the_export_and_come_back_with_the_import(
    app: Flask, phone: Confidant
) -> None:
    document = _tapped(phone)
    taps = [entry for entry in document["audit"] if (entry["kind"], entry["round"]) == ("draft", 2)]
    assert [(tap["old"]["drafts"], tap["new"]["drafts"]) for tap in taps] == [
        ([None, None, None], [1, None, None]),
        ([1, None, None], [1, 0, None]),
    ]
    assert all(
        "drafts" not in entry["new"] for entry in document["audit"] if entry["kind"] == "bids"
    )
    assert document["drafts"] == [{"round": 2, "tricks": [1, 0, None]}]
    # The game moves to another phone, and the round goes on where it was.
    other = Confidant(app.test_client())
    assert upload(other, document).status_code == 303
    with app.app_context():
        (other.game_id,) = set(db.session.scalars(select(Game.id))) - {phone.game_id}
    body = other.round_page(2).get_data(as_text=True)
    assert pressed(body, "Thomas won 1 trick")
    assert pressed(body, "Ute won 0 tricks")
    assert "Tricks so far: 2 of 2." in text(other.round_page(2))
    assert "Kevin bid 0 filled in from the sum" in text(other.round_page(2))
    # Its history says what each tap changed, as on the first phone (after its import).
    history = shown_changes(other.get(f"/games/{other.game_id}/rounds/2/history"))
    assert history[1:] == shown_changes(phone.get(f"/games/{phone.game_id}/rounds/2/history"))
    assert history[1] == ("Tricks tapped in", ["Ute: tricks tapped in 0"])
    assert other.score(2).status_code == 303
    assert "Kevin 0 1 −10" in text(other.round_page(2))


def test_the_counts_come_back_after_a_scoring_taken_back(app: Flask, phone: Confidant) -> None:
    """Undoing a scoring brings its tricks back tapped in: the copy has them too, though the
    round's last write (the undo) tapped none in."""
    _tapped(phone)
    assert phone.tricks(2, 2, 1).status_code == 303
    assert phone.score(2).status_code == 303
    assert phone.tap(2, action="undo").status_code == 303
    document = json.loads(phone.get(f"/games/{phone.game_id}/export.json").data)
    assert document["drafts"] == [{"round": 2, "tricks": [1, 0, 1]}]
    other = Confidant(app.test_client())
    assert upload(other, document).status_code == 303
    with app.app_context():
        (other.game_id,) = set(db.session.scalars(select(Game.id))) - {phone.game_id}
    assert pressed(other.round_page(2).get_data(as_text=True), "Kevin won 1 trick")


def test_a_game_with_no_counts_tapped_in_exports_without_them(phone: Confidant) -> None:
    assert phone.start(["Thomas", "Ute", "Kevin"]).status_code == 303
    phone.play(1, [0, 1, 0], [0, 1, 0])
    document = json.loads(phone.get(f"/games/{phone.game_id}/export.json").data)
    assert "drafts" not in document
    everything = json.loads(phone.get("/export.json").data)
    assert all("drafts" not in game for game in everything["games"])


UNFIT = "is refused: its tricks tapped in need every bid in, no tricks yet, counts to its cards."


@pytest.mark.parametrize(
    ("drafts", "refusal"),
    [
        ([{"round": 2, "tricks": [1, 3, None]}], f"round 2 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 2, "tricks": [1, None]}], f"round 2 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        (
            [{"round": 2, "tricks": [-1, None, None]}],
            f"round 2 of game 1 (Thomas, Ute, Kevin) {UNFIT}",
        ),
        ([{"round": 1, "tricks": [0, 1, 0]}], f"round 1 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 3, "tricks": [0, 0, 0]}], f"round 3 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 99, "tricks": [0, 0, 0]}], f"round 99 of game 1 (Thomas, Ute, Kevin) {UNFIT}"),
        ([{"round": 2, "tricks": ["1", None, None]}], "drafts[0].tricks[0] must be a whole number"),
    ],
    ids=["too many", "a seat short", "below 0", "scored", "no bids yet", "no round", "text"],
)
def test_counts_tapped_in_that_no_round_can_hold_are_refused(
    app: Flask, phone: Confidant, drafts: list[dict[str, Any]], refusal: str
) -> None:
    document = _tapped(phone) | {"drafts": drafts}
    before = game_count(app)
    response = upload(phone, document)
    assert response.status_code == 422
    assert refusal in text(response)
    assert game_count(app) == before


def test_counts_in_the_audit_trail_a_round_cannot_hold_are_refused(
    app: Flask, phone: Confidant
) -> None:
    document = _tapped(phone)
    for drafts in ([1, 3, None], [1, None], [-1, None, None], ["1", None, None]):
        bad = copy.deepcopy(document)
        tap = next(entry for entry in reversed(bad["audit"]) if entry["kind"] == "draft")
        tap["new"]["drafts"] = drafts
        before = game_count(app)
        response = upload(phone, bad)
        assert response.status_code == 422, drafts
        assert "holds facts that are not a round" in text(response)
        assert game_count(app) == before
