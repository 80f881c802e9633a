"""What the page areas share (scorekeeper/web/common.py): every area's pages are fetched
afresh by the back button, every area answers its errors as a page, and a tap another phone
overtook comes back to the page it was made on."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from ..confidant import Confidant, text

STALE = (
    "This game was changed a moment ago (on another phone or screen, or by a tap whose answer "
    "never came), so your tap was not"
)


@pytest.fixture
def phone(client: FlaskClient) -> Confidant:
    confidant = Confidant(client)
    assert confidant.start(["Thomas", "Ute", "Kevin"]).status_code == 303
    return confidant


@pytest.mark.parametrize(
    "path",
    [
        "/games/new",  # games
        "/games/{game}/sheet",  # games
        "/games/{game}/view",  # games
        "/games/{game}/rounds/1",  # rounds
        "/games/{game}/share",  # sharing
        "/",  # history
        "/statistics",  # history
        "/import",  # history
    ],
)
def test_every_area_s_pages_are_never_stored(phone: Confidant, path: str) -> None:
    response = phone.get(path.format(game=phone.game_id))
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    "path",
    [
        "/games/nosuchgame/sheet",  # games
        "/games/nosuchgame/rounds/1",  # rounds
        "/games/nosuchgame/share",  # sharing
        "/games/nosuchgame/rounds/1/history",  # history
    ],
)
def test_an_unknown_game_is_a_page_saying_so_in_every_area(phone: Confidant, path: str) -> None:
    response = phone.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-store"
    assert "To your games" in text(response)


def test_a_stale_correction_comes_back_to_the_correction_form(phone: Confidant) -> None:
    phone.play(1, [0, 1, 1], [0, 0, 1])
    path = f"/games/{phone.game_id}/rounds/1/correct"
    form = phone.get(path).get_data(as_text=True)
    stale = re.search(r'name="version" value="(\d+)"', form)
    assert stale
    phone.trump(2, "green")  # another tap moves the game's version on
    data = {
        "csrf_token": phone.csrf(path),
        "version": stale.group(1),
        "turned": "blue",
        **{f"bid-{seat}": "0" for seat in range(3)},
        "tricks-0": "1",
        "tricks-1": "0",
        "tricks-2": "0",
    }
    response = phone.client.post(path, data=data)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(path)
    page = phone.get(path)
    assert STALE in text(page)
    assert "✎ corrected" not in text(phone.get(f"/games/{phone.game_id}/sheet"))


def test_a_form_without_its_token_is_refused_as_a_page(phone: Confidant) -> None:
    path = f"/games/{phone.game_id}/delete"
    response = phone.client.post(path, data={"csrf_token": "forged"})
    assert response.status_code == 400
    assert "This page was too old to send" in text(response)
    assert phone.get(f"/games/{phone.game_id}/sheet").status_code == 200  # not deleted
