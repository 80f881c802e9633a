"""Taking the right to keep score back ("Only this phone keeps score") voids the table code
but not the game's count of wrong codes: a locked game stays locked."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import errors, models
from scorekeeper.extensions import db
from scorekeeper.services import sharing, table_codes

from ..factory import seed

SECRET = "test-secret"


def test_taking_the_right_back_keeps_the_wrong_codes_counted(app: Flask) -> None:
    keeper = sharing.Device("keeper")
    game = seed(app, device=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET)
        assert code is not None
        wrong = f"{(int(code) + 1) % 10**8:08d}"
        for _ in range(table_codes.GUESSES_PER_WINDOW):
            with pytest.raises(errors.TableCodeWrong):
                table_codes.redeem(game.id, wrong, SECRET, sharing.Device("guesser"))
        sharing.revoke_other_keepers(game.id, keeper)
        assert table_codes.is_current(game.id, code, SECRET) is None  # the old code is void
        fresh = table_codes.first_code(game.id, keeper, SECRET)  # the keeper's screen shows one
        assert fresh is not None
        with pytest.raises(errors.TableCodeGuessesSpent):
            table_codes.redeem(game.id, fresh, SECRET, sharing.Device("guesser"))


def test_a_void_code_is_no_code(app: Flask) -> None:
    keeper = sharing.Device("keeper")
    game = seed(app, device=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET)
        sharing.revoke_other_keepers(game.id, keeper)
        with pytest.raises(errors.TableCodeMissing):
            table_codes.redeem(game.id, code or "", SECRET, sharing.Device("other"))


def test_a_void_code_stays_no_code_when_its_guess_window_ends(app: Flask) -> None:
    keeper = sharing.Device("keeper")
    game = seed(app, device=keeper)
    with app.app_context():
        code = table_codes.first_code(game.id, keeper, SECRET) or ""
        wrong = f"{(int(code) + 1) % 10**8:08d}"
        for _ in range(table_codes.GUESSES_PER_WINDOW):
            with pytest.raises(errors.TableCodeWrong):
                table_codes.redeem(game.id, wrong, SECRET, sharing.Device("guesser"))
        sharing.revoke_other_keepers(game.id, keeper)
        an_hour_ago = models.utcnow() - table_codes.GUESS_WINDOW
        db.session.execute(sa.update(models.TableCode).values(window_started_at=an_hour_ago))
        db.session.commit()
        for _ in range(2):  # no code to guess at: not counted as a wrong one
            with pytest.raises(errors.TableCodeMissing):
                table_codes.redeem(game.id, wrong, SECRET, sharing.Device("guesser"))
