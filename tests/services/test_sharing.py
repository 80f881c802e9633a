"""Handing the scorekeeping over (services/sharing.py): a hand-over link works once, for 15
minutes, for the first phone that redeems it; only a scorekeeper makes one or takes the right
back, which voids the links not yet used and leaves the API's edit token valid. That a
take-over leaves one keeper is tests/services/test_one_keeper.py's."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from flask import Flask

from scorekeeper import errors, models
from scorekeeper.services import sharing

from ..factory import Seeded, second_keeper, seed

KEEPER = sharing.Browser("the-scorekeepers-phone")


def keeps_score(app: Flask, game_id: str, browser: sharing.Browser) -> bool:
    with app.app_context():
        return sharing.is_keeper(game_id, browser)


def make_link(app: Flask, game: Seeded, browser: sharing.Browser = KEEPER) -> str:
    with app.app_context():
        return sharing.create_handover(game.id, browser)


def redeem(app: Flask, link: str, browser: sharing.Browser) -> str:
    with app.app_context():
        return sharing.redeem_handover(link, browser)


def handovers(app: Flask) -> int:
    with app.app_context():
        return models.db.session.query(models.HandoverRow).count()


def test_a_hand_over_link_works_once_and_only_for_the_first_phone(app: Flask) -> None:
    game = seed(app, browser=KEEPER)
    taker, late = sharing.Browser("taker"), sharing.Browser("late")
    link = make_link(app, game)
    assert not keeps_score(app, game.id, taker)
    with app.app_context():  # looking at the link (the confirmation page) does not use it up
        assert sharing.handover_game(link).id == game.id
        assert sharing.open_handovers(game.id) == 1

    assert redeem(app, link, taker) == game.id
    assert keeps_score(app, game.id, taker)
    with app.app_context():
        assert sharing.open_handovers(game.id) == 0
        with pytest.raises(errors.HandoverInvalid):
            sharing.handover_game(link)
        with pytest.raises(errors.HandoverInvalid, match="works once, for 15 minutes"):
            sharing.redeem_handover(link, late)
    assert not keeps_score(app, game.id, late)


@pytest.mark.parametrize(
    ("after", "works"),
    [(timedelta(minutes=15, seconds=-1), True), (timedelta(minutes=15, seconds=1), False)],
)
def test_a_hand_over_link_expires_after_15_minutes(
    app: Flask, monkeypatch: pytest.MonkeyPatch, after: timedelta, works: bool
) -> None:
    game = seed(app, browser=KEEPER)
    taker = sharing.Browser("taker")
    link = make_link(app, game)
    later = models.utcnow() + after
    monkeypatch.setattr(sharing, "utcnow", lambda: later)
    if works:
        assert redeem(app, link, taker) == game.id
    else:
        with app.app_context():
            assert sharing.open_handovers(game.id) == 0
            with pytest.raises(errors.HandoverInvalid):
                sharing.handover_game(link)
            with pytest.raises(errors.HandoverInvalid):
                sharing.redeem_handover(link, taker)
    assert keeps_score(app, game.id, taker) is works


@pytest.mark.parametrize("link", ["nope", "x" * 500, "%00", "é", ""])
def test_a_made_up_hand_over_link_is_refused(app: Flask, link: str) -> None:
    game = seed(app, browser=KEEPER)
    make_link(app, game)
    taker = sharing.Browser("taker")
    with app.app_context():
        with pytest.raises(errors.HandoverInvalid):
            sharing.handover_game(link)
        with pytest.raises(errors.HandoverInvalid):
            sharing.redeem_handover(link, taker)
    assert not keeps_score(app, game.id, taker)


@pytest.mark.both_backends
def test_four_phones_redeeming_one_link_at_once_exactly_one_wins(app: Flask) -> None:
    game = seed(app, browser=KEEPER)
    link = make_link(app, game)
    takers = [sharing.Browser(f"taker-{n}") for n in range(4)]
    barrier = threading.Barrier(len(takers))

    def take(browser: sharing.Browser) -> bool:
        barrier.wait(timeout=60)
        try:
            redeem(app, link, browser)
        except errors.HandoverInvalid:
            return False
        return True

    with ThreadPoolExecutor(max_workers=len(takers)) as pool:
        won = list(pool.map(take, takers))
    assert sorted(won) == [False, False, False, True]
    assert [keeps_score(app, game.id, browser) for browser in takers] == won


@pytest.mark.parametrize("stranger", [sharing.Browser("a-spectator"), None])
def test_only_the_scorekeeper_makes_links_or_takes_the_right_back(
    app: Flask, stranger: sharing.Browser | None
) -> None:
    game = seed(app, browser=KEEPER)
    taker = sharing.Browser("taker")
    redeem(app, make_link(app, game), taker)
    before = handovers(app)
    with app.app_context():
        with pytest.raises(errors.NotKeeper):
            sharing.create_handover(game.id, stranger)
        with pytest.raises(errors.NotKeeper):
            sharing.revoke_other_keepers(game.id, stranger)
    assert handovers(app) == before
    assert keeps_score(app, game.id, taker)


def test_taking_the_right_back_voids_unused_links_and_keeps_the_edit_token(app: Flask) -> None:
    game = seed(app, browser=KEEPER)
    taker, late = sharing.Browser("taker"), sharing.Browser("late")
    second_keeper(app, game.id, taker)
    pending = make_link(app, game)

    with app.app_context():
        assert sharing.revoke_other_keepers(game.id, KEEPER) == 1
    assert keeps_score(app, game.id, KEEPER)
    assert not keeps_score(app, game.id, taker)
    with app.app_context():
        assert sharing.other_keepers(game.id, KEEPER) == 0
        assert sharing.open_handovers(game.id) == 0
        with pytest.raises(errors.HandoverInvalid):
            sharing.redeem_handover(pending, late)
        sharing.authorize(game.id, game.token)  # the API's edit token still writes
        assert sharing.revoke_other_keepers(game.id, KEEPER) == 0
    assert not keeps_score(app, game.id, late)
