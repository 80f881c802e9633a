"""A phone that takes the scorekeeping over, with the table code or a hand-over link: the
round screen it is led to says it keeps the score now; the invite page shows the hand-over
link's code beside the view link's; a used link's page offers nothing to tap. The phone it
was taken from is told so at its next tap, and led to take the game back."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.services import games

from ..keeper_phone import KeeperPhone, text
from ..services.test_table_codes import enter_code, shown_code
from .helpers import played, started
from .test_sharing import handover_link, other, take_over

KEEPS = "This phone keeps the score of this game now."
_QR = re.compile(r'<svg role="img"[^>]*class="qr"')


def _led_to(phone: KeeperPhone, location: str) -> str:
    """The page a redirect leads to, followed to the round screen it names."""
    page = phone.client.get(location, follow_redirects=True)
    assert page.status_code == 200, text(page)
    return text(page)


def test_a_phone_that_enters_the_table_code_is_told_it_keeps_the_score(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    code = shown_code(phone, phone.round_path(1))
    assert code is not None
    form = text(other_phone.get(f"/games/{game_id}/keep-score"))
    assert "Take over scorekeeping" in form
    assert "Keep score on this phone" in form
    assert KEEPS not in form
    status, where = enter_code(other_phone, game_id, code)
    assert (status, where) == (303, f"/games/{game_id}")
    page = _led_to(other_phone, where)
    assert KEEPS in page
    assert "Round 1 of 20" in page
    assert KEEPS not in text(other_phone.get(phone.round_path(1)))  # said once


def test_a_phone_that_takes_over_by_a_link_is_told_it_keeps_the_score(
    phone: KeeperPhone, app: Flask
) -> None:
    game_id = started(phone).game_id
    invite = phone.get(f"/games/{game_id}/share").get_data(as_text=True)
    assert len(_QR.findall(invite)) == 1  # the view link's
    link = handover_link(phone)
    invite = phone.get(f"/games/{game_id}/share").get_data(as_text=True)
    assert len(_QR.findall(invite)) == 2  # and the hand-over link's
    preview = other(app)  # the page before the tap offers it
    preview.client.get(link)
    assert "Keep the score on this phone" in text(preview.client.get("/handover"))
    taker = other(app)
    status, where = take_over(taker, link)
    assert (status, where) == (303, f"/games/{game_id}")
    page = _led_to(taker, where)
    assert KEEPS in page
    assert "Round 1 of 20" in page
    late = other(app)
    late.client.get(link)
    used = late.client.get("/handover")
    assert used.status_code == 410
    assert "This hand-over link no longer works" in text(used)
    assert "Keep the score on this phone" not in text(used)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Another phone took over scorekeeping for this game. To keep score here again, "
            "enter the table code shown on that phone.",
        ),
        (
            "de",
            "Ein anderes Handy hat den Block dieses Spiels übernommen. Um hier wieder den Block "
            "zu führen, gib den Tischcode ein, den das andere Handy zeigt.",
        ),
    ],
)
def test_the_phone_the_score_was_taken_from_is_told_at_its_next_tap(
    phone: KeeperPhone, other_phone: KeeperPhone, app: Flask, language: str, said: str
) -> None:
    game_id = started(phone).game_id
    played(app, phone, ([0, 0, 1], [0, 0, 1]))
    code = shown_code(phone, phone.round_path(2))
    assert code is not None
    assert enter_code(other_phone, game_id, code)[0] == 303
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    with app.app_context():
        before = games.get_game(game_id)

    keep_score = f"/games/{game_id}/keep-score"
    for refused in (phone.trump(2, "red"), phone.get(f"/games/{game_id}/rounds/1/correct")):
        assert (refused.status_code, refused.headers["Location"]) == (303, keep_score)
    page = phone.get(keep_score)
    assert said in text(page)
    body = page.get_data(as_text=True)
    assert 'name="code"' in body  # the table code takes the game back
    assert f'href="/games/{game_id}/view"' in body  # or it follows the game, read only
    assert said not in text(phone.get(keep_score))  # said once
    with app.app_context():
        assert games.get_game(game_id) == before
