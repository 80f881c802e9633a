"""The printable Tablet of Truth: the largest sheets (6 players × 10 rounds, 3 players × 20
rounds, every round scored) print on one A4 page."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect


def played_through_the_api(page: Page, base_url: str, names: list[str]) -> str:
    """A whole game recorded through the JSON API; the game's id."""
    api = page.request
    game = api.post(base_url + "/api/v1/games", data={"players": names, "first_dealer": 0})
    assert game.status == 201
    body = game.json()
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    seats = len(names)
    for number in range(1, body["rules"]["rounds"] + 1):
        path = f"{base_url}/api/v1/games/{body['id']}/rounds/{number}"
        if number * seats < 60:
            assert api.put(path + "/trump", data={"turned": "red"}, headers=headers).ok
        bids = [number] + [0] * (seats - 1)
        assert api.put(path + "/bids", data={"bids": bids}, headers=headers).ok
        tricks = [number] + [0] * (seats - 1)
        assert api.put(path + "/tricks", data={"tricks": tricks}, headers=headers).ok
    return str(body["id"])


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize(
    "names",
    [
        ["Annabelle", "Bartholomew", "Cyrillia", "Dorothea", "Evangeline", "Fitzgerald"],
        ["Annabelle", "Bartholomew", "Cyrillia"],
    ],
    ids=["6 players x 10 rounds", "3 players x 20 rounds"],
)
def test_the_whole_sheet_prints_on_one_page(page: Page, base_url: str, names: list[str]) -> None:
    game_id = played_through_the_api(page, base_url, names)
    page.goto(f"{base_url}/games/{game_id}/sheet")
    expect(page.locator("table.sheet tbody tr")).to_have_count(60 // len(names))
    page.emulate_media(media="print")
    assert pdf_pages(page.pdf(format="A4")) == 1
