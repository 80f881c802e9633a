"""What the page areas share (scorekeeper/web/common.py): every area's pages are fetched
afresh by the back button, every area answers its errors as a page, and a tap another phone
overtook comes back to the page it was made on."""

from __future__ import annotations

import pytest
from flask import Flask

from ..keeper_phone import KeeperPhone, text
from .helpers import correction, played, started

STALE = (
    "This game was changed a moment ago (on another phone or screen, or by a tap whose answer "
    "never came), so your tap was not"
)


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
def test_every_area_s_pages_are_never_stored(phone: KeeperPhone, path: str) -> None:
    started(phone)
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
        "/games/nosuchgame",
        "/games/{game}/rounds/21",  # a round the game does not have
        "/nowhere",
    ],
)
def test_an_unknown_game_is_a_page_saying_so_in_every_area(phone: KeeperPhone, path: str) -> None:
    started(phone)
    response = phone.get(path.format(game=phone.game_id))
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    if path.startswith("/games/"):  # an area's (an address of no area's is not marked)
        assert response.headers["Cache-Control"] == "no-store"
    assert "To your games" in text(response)


def test_a_stale_correction_comes_back_to_the_correction_form(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone)
    played(app, phone, ([0, 1, 1], [0, 0, 1]))
    path = f"/games/{phone.game_id}/rounds/1/correct"
    data = correction(phone, 1, [0, 0, 0], [1, 0, 0])
    phone.trump(2, "green")  # another tap moves the game's version on
    response = phone.client.post(path, data=data)
    assert response.status_code == 303
    assert response.headers["Location"].endswith(path)
    page = phone.get(path)
    assert STALE in text(page)
    assert "✎ corrected" not in text(phone.get(f"/games/{phone.game_id}/sheet"))


def test_a_form_without_its_token_is_refused_as_a_page(phone: KeeperPhone) -> None:
    started(phone)
    path = f"/games/{phone.game_id}/delete"
    response = phone.client.post(path, data={"csrf_token": "forged"})
    assert response.status_code == 400
    assert "This page was too old to send" in text(response)
    assert phone.get(f"/games/{phone.game_id}/sheet").status_code == 200  # not deleted
