"""The sheet on a phone, six players in round 10: the dealer's D slides under the round column
when the sheet is scrolled sideways, and a bid the Cloud changed stays on one line."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from .helpers import shot

SIX = ["Annabelle", "Bartholomäus", "Cy", "Dorothea", "Eve", "Fitzgerald"]


def in_round_ten(page: Page, base_url: str) -> str:
    """Six players through the JSON API, rounds 1–9 scored (in round 3 the Cloud took Cy's bid
    from 2 to 1), round 10 bidding; the game's id. Fitzgerald leads (♛ in the last column);
    Annabelle deals rounds 1 and 7."""
    api = page.request
    rules = {"special_cards": ["cloud"]}
    game = api.post(
        base_url + "/api/v1/games", data={"players": SIX, "first_dealer": 0, "rules": rules}
    )
    body = game.json()
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    for number in range(1, 11):
        path = f"{base_url}/api/v1/games/{body['id']}/rounds/{number}"
        assert api.put(path + "/trump", data={"turned": "red"}, headers=headers).ok
        if number == 10:
            break
        made = [0, 0, 2, 0, 0, 1] if number == 3 else [0, 0, 0, 0, 0, number]
        assert api.put(path + "/bids", data={"bids": made}, headers=headers).ok
        tricks = (
            {"tricks": made, "cloud": {"seat": 2, "bid": 1}} if number == 3 else {"tricks": made}
        )
        assert api.put(path + "/tricks", data=tricks, headers=headers).ok
    return str(body["id"])


def test_the_sheet_at_360_px_keeps_the_dealers_mark_and_the_clouds_bid_readable(
    page: Page, base_url: str
) -> None:
    """One sheet, three checks: a bid the Cloud changed stays on one line, the dealer's D
    leaves the widest bid readable, and slides under the round column when the sheet is
    scrolled sideways."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base_url}/games/{in_round_ten(page, base_url)}/view")

    cells = page.locator("table.sheet #round-3 td .bt")
    expect(cells.nth(2)).to_contain_text("2→1☁")
    # As tall as the round's other bids and tricks, which take one line each.
    heights = cells.evaluate_all("cells => cells.map((cell) => cell.offsetHeight)")
    assert len(set(heights)) == 1, heights
    shot(page, "spectator-cloud-360")

    # Cy deals round 3, where the Cloud's "2→1☁/2" is the widest bid of the column.
    cell = page.locator("table.sheet #round-3 td.dealer")
    expect(cell.locator(".bt")).to_contain_text("2→1☁")
    mark, bid = cell.locator(".dealer-mark").bounding_box(), cell.locator(".bt").bounding_box()
    assert mark is not None
    assert bid is not None
    assert mark["x"] >= bid["x"] + bid["width"], "the D is drawn over the bid"

    # Scroll the sheet sideways until round 1's D (Annabelle's cell) lies under the round
    # column: the round's number is drawn there, not the D.
    under, on_top = page.evaluate(
        """() => {
        const box = (e) => e.getBoundingClientRect();
        const mark = document.querySelector("#round-1 .dealer-mark");
        const column = document.querySelector("#round-1 th");
        mark.scrollIntoView({block: "center"});
        mark.closest(".sheet-wrap").scrollLeft += box(mark).left - box(column).left - 10;
        const x = box(mark).left + box(mark).width / 2, y = box(mark).top + box(mark).height / 2;
        return [x > box(column).left && x < box(column).right,
                column.contains(document.elementFromPoint(x, y))];
    }"""
    )
    assert under, "the sheet did not scroll round 1's D under the round column"
    assert on_top, "round 1's D is drawn over the round column"
