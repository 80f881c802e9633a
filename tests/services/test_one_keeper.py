"""One phone keeps the score at a time: a take-over, by a hand-over link or the table code,
ends every other phone's right and uses the code up, and the phone it was taken from is told
so and takes the game back with the code the new keeper shows. Taking the right back ("Only
this phone keeps score") voids the table code but not the game's count of wrong codes: a
locked game stays locked."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import errors, models
from scorekeeper.extensions import db
from scorekeeper.services import games, rounds, sharing, table_codes

from ..factory import seed

SECRET = "test-secret"
REPLACED = "Another phone took over scorekeeping for this game."


def by_link(game_id: str, keeper: sharing.Browser, taker: sharing.Browser) -> None:
    sharing.redeem_handover(sharing.create_handover(game_id, keeper), taker)


def by_code(game_id: str, keeper: sharing.Browser, taker: sharing.Browser) -> None:
    table_codes.redeem(
        game_id, table_codes.first_code(game_id, keeper, SECRET) or "", SECRET, taker
    )


@pytest.mark.both_backends
@pytest.mark.parametrize("take_over", [by_link, by_code])
def test_a_take_over_ends_the_old_keepers_right(
    app: Flask, take_over: Callable[[str, sharing.Browser, sharing.Browser], None]
) -> None:
    keeper, taker = sharing.Browser("keeper"), sharing.Browser("taker")
    game = seed(app, browser=keeper)
    with app.app_context():
        take_over(game.id, keeper, taker)
        assert sharing.is_keeper(game.id, taker)
        assert not sharing.is_keeper(game.id, keeper)
        with pytest.raises(errors.KeeperReplaced, match=REPLACED) as refused:
            rounds.record_trump(game.id, keeper, 1, "red")
        assert refused.value.status == 403
        with pytest.raises(errors.KeeperReplaced):
            sharing.create_handover(game.id, keeper)
        assert games.get_game(game.id).version == 1
        assert rounds.record_trump(game.id, taker, 1, "red").version == 2


def test_the_old_keeper_takes_the_game_back_with_the_code_the_new_one_shows(app: Flask) -> None:
    keeper, taker = sharing.Browser("keeper"), sharing.Browser("taker")
    game = seed(app, browser=keeper)
    with app.app_context():
        heard = table_codes.first_code(game.id, keeper, SECRET) or ""
        table_codes.redeem(game.id, heard, SECRET, taker)
        with pytest.raises(errors.TableCodeMissing):  # used up
            table_codes.redeem(game.id, heard, SECRET, keeper)
        shown = table_codes.first_code(game.id, taker, SECRET)  # the new keeper's screen
        assert shown not in (None, heard)
        table_codes.redeem(game.id, shown or "", SECRET, keeper)
        assert sharing.is_keeper(game.id, keeper)
        with pytest.raises(errors.KeeperReplaced):
            rounds.record_trump(game.id, taker, 1, "red")


@pytest.mark.both_backends
def test_four_phones_entering_the_code_at_once_leave_one_keeper(app: Flask) -> None:
    keeper = sharing.Browser("keeper")
    game = seed(app, browser=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET) or ""
    takers = [sharing.Browser(f"taker-{n}") for n in range(4)]
    barrier = threading.Barrier(len(takers))

    def take(browser: sharing.Browser) -> bool:
        barrier.wait(timeout=60)
        with app.app_context():
            try:
                table_codes.redeem(game.id, code, SECRET, browser)
            except errors.TableCodeMissing:  # used up by the one that came first
                return False
        return True

    with ThreadPoolExecutor(max_workers=len(takers)) as pool:
        won = list(pool.map(take, takers))
    assert sorted(won) == [False, False, False, True]
    with app.app_context():
        assert [sharing.is_keeper(game.id, browser) for browser in [keeper, *takers]] == [
            False,
            *won,
        ]


def test_a_phone_that_never_kept_the_score_is_not_told_it_was_taken_over(app: Flask) -> None:
    keeper = sharing.Browser("keeper")
    game = seed(app, browser=keeper)
    with app.app_context():
        by_link(game.id, keeper, sharing.Browser("taker"))
        with pytest.raises(errors.NotKeeper) as refused:
            rounds.record_trump(game.id, sharing.Browser("spectator"), 1, "red")
        assert not isinstance(refused.value, errors.KeeperReplaced)


def test_taking_the_right_back_keeps_the_wrong_codes_counted(app: Flask) -> None:
    keeper = sharing.Browser("keeper")
    game = seed(app, browser=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET)
        assert code is not None
        wrong = f"{(int(code) + 1) % 10**8:08d}"
        for _ in range(table_codes.GUESSES_PER_WINDOW):
            with pytest.raises(errors.TableCodeWrong):
                table_codes.redeem(game.id, wrong, SECRET, sharing.Browser("guesser"))
        sharing.revoke_other_keepers(game.id, keeper)
        assert table_codes.is_current(game.id, code, SECRET) is None  # the old code is void
        fresh = table_codes.first_code(game.id, keeper, SECRET)  # the keeper's screen shows one
        assert fresh is not None
        with pytest.raises(errors.TableCodeGuessesSpent):
            table_codes.redeem(game.id, fresh, SECRET, sharing.Browser("guesser"))


def test_a_void_code_is_no_code(app: Flask) -> None:
    keeper = sharing.Browser("keeper")
    game = seed(app, browser=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET)
        sharing.revoke_other_keepers(game.id, keeper)
        with pytest.raises(errors.TableCodeMissing):
            table_codes.redeem(game.id, code or "", SECRET, sharing.Browser("other"))


def test_a_void_code_stays_no_code_when_its_guess_window_ends(app: Flask) -> None:
    keeper = sharing.Browser("keeper")
    game = seed(app, browser=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET) or ""
        wrong = f"{(int(code) + 1) % 10**8:08d}"
        for _ in range(table_codes.GUESSES_PER_WINDOW):
            with pytest.raises(errors.TableCodeWrong):
                table_codes.redeem(game.id, wrong, SECRET, sharing.Browser("guesser"))
        sharing.revoke_other_keepers(game.id, keeper)
        an_hour_ago = models.utcnow() - table_codes.GUESS_WINDOW
        db.session.execute(sa.update(models.TableCodeRow).values(window_started_at=an_hour_ago))
        db.session.commit()
        for _ in range(2):  # no code to guess at: not counted as a wrong one
            with pytest.raises(errors.TableCodeMissing):
                table_codes.redeem(game.id, wrong, SECRET, sharing.Browser("guesser"))
