"""The trick tally at the table: the scorekeeper taps each trick's winner, and a follower's
phone (another browser context) shows the tricks so far and what each player still needs
within two seconds, through the spectator page's stream."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Locator, Page, expect

from .helpers import (
    all_made,
    bid,
    expect_fits_the_phone,
    new_game,
    next_round,
    set_trump,
    shot,
    tap,
)

NAMES = ["Ann", "Bob", "Cy"]
#: A change reaches a following phone within the sweep's half second, and its rendering.
WITHIN_MS = 2_000


def winner_button(page: Page, name: str) -> Locator:
    return page.locator("#tally").get_by_role("button", name=re.compile(rf"^{name}\b"))


def test_the_tally_shows_on_a_followers_phone_within_2_s(
    page: Page, other_page: Page, base_url: str
) -> None:
    game_id = new_game(page, base_url, NAMES, dealer="Ann")
    set_trump(page, "red Dwarves")
    for name, value in (("Bob", 1), ("Cy", 0), ("Ann", 0)):
        bid(page, name, value)
    all_made(page, 1)
    next_round(page, 2)
    set_trump(page, "blue Humans")
    for name, value in (("Cy", 1), ("Ann", 0), ("Bob", 0)):  # Bob deals round 2
        bid(page, name, value)
    # Folded until the first tap: a table that counts at the end keeps the tricks step.
    expect(page.get_by_role("heading", name="Who won trick 1 of 2?")).to_be_hidden()
    page.get_by_text("Tally each trick as it falls").click()
    expect(page.get_by_role("heading", name="Who won trick 1 of 2?")).to_be_visible()

    spectator = other_page
    spectator.goto(f"{base_url}/games/{game_id}/view")
    expect(spectator.get_by_role("heading", name="Round 2 of 20")).to_be_visible()

    tap(page, winner_button(page, "Cy"))
    expect(page.get_by_role("heading", name="Who won trick 2 of 2?")).to_be_visible()
    expect(winner_button(page, "Cy")).to_contain_text("1 trick · no more tricks")
    row = spectator.locator("table.live-round tr[data-seat='2']")
    expect(row.locator("td.won")).to_have_text("1", timeout=WITHIN_MS)
    expect(row.locator("td.need")).to_have_text("no more tricks")
    expect(spectator.locator("#live").get_by_text("Tricks played: 1 of 2.")).to_be_visible()
    shot(page, "tally-round")
    shot(spectator, "tally-live")

    tap(page, winner_button(page, "Ann"))
    expect(page.locator("#tally summary")).to_have_text("All 2 tricks are tallied.")
    ann = spectator.locator("table.live-round tr[data-seat='0']")
    expect(ann.locator("td.need")).to_have_text("1 over", timeout=WITHIN_MS)
    # The tricks step came filled in: scoring is one more tap.
    tap(page, page.get_by_role("button", name="Score round 2", exact=True))
    expect(page.get_by_role("heading", name="Round 2 is scored")).to_be_visible()


@pytest.mark.parametrize("width", [360, 390])
def test_long_names_wrap_in_the_tally_and_nothing_scrolls_sideways(
    page: Page, base_url: str, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    names = ["Anna", "Bernd", "Carla", "Wolfensberger", "Kartenkoenigin2024xyz", "Fritz"]
    new_game(page, base_url, names, dealer="Anna")
    set_trump(page, "red Dwarves")
    for name in names[1:] + names[:1]:
        bid(page, name, 0)
    page.get_by_text("Tally each trick as it falls").click()
    expect(winner_button(page, "Kartenkoenigin2024xyz")).to_be_visible()
    expect_fits_the_phone(page)
    shot(page, f"tally-long-names-{width}")
    for name in names:  # each button within the page, two a line
        box = winner_button(page, name).bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= width
