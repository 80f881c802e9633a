"""Fewer taps on the round screen, at both phone sizes: the next control on screen without
scrolling (6 players, round 10), and undo. A round's taps, counted by the page itself, are
counted in the walk of every screen (test_qualities.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect

from .helpers import (
    all_made,
    bid,
    new_game,
    on_screen,
    round_heading,
    seeded_game,
    set_trump,
    tap,
    trick_button,
    tricks,
)

SIZES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]


@pytest.fixture(params=SIZES, ids=lambda size: f"{size['width']}x{size['height']}")
def phone(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(viewport=request.param, has_touch=True, is_mobile=True)
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"]


def test_the_next_control_is_on_screen_without_scrolling_in_round_ten(
    phone: Page, base_url: str
) -> None:
    page = phone
    # Rounds 1-7 recorded through the API (Ann deals round 1); 8 and 9 tapped here.
    played = [("blue", [number] + [0] * 5, [number] + [0] * 5) for number in range(1, 8)]
    seeded_game(page, base_url, SIX, played=played)
    for number in (8, 9):
        set_trump(page, "blue Humans")
        order = [SIX[(number + offset) % 6] for offset in range(6)]
        for seat, name in enumerate(order):
            bid(page, name, number if seat == 0 else 0)
        all_made(page, number)
        expect(round_heading(page, number + 1)).to_be_visible()
        if number < 9:  # the next round's first tap, its trump, on screen with the points
            on_screen(page.get_by_role("button", name="Wizard: the dealer chooses", exact=True))
            expect(page.get_by_role("heading", name=f"Round {number} is scored")).to_be_attached()
    # Round 10, the last, deals every card (no trump to turn): Dee deals, Eve bids first.
    order = [SIX[(10 + offset) % 6] for offset in range(6)]
    for name, value in zip(order, (2, 2, 2, 2, 1, 0), strict=True):
        label = f"{name} bids {value}"
        on_screen(page.get_by_role("button", name=label, exact=True))
        # The row to fill in next is marked.
        next_row = page.locator("[data-next]")
        expect(next_row.get_by_role("button", name=label, exact=True)).to_have_count(1)
        bid(page, name, value)
    # The bids' total against the cards stays in view on the tricks step.
    tally = page.get_by_text("The bids add up to 9, for 10 tricks.")
    for name, value in zip(order[:5], (2, 2, 2, 2, 1), strict=True):
        on_screen(tally)
        on_screen(trick_button(page, name, value))
        tricks(page, name, value)
    on_screen(tally)
    # Opened afresh (from the games list, back from the sheet), it shows the next control too.
    page.goto(page.url)
    score_button = on_screen(page.get_by_role("button", name="Score round 10", exact=True))
    tap(page, score_button)
    expect(page.get_by_role("heading", name="Round 10 is scored")).to_be_visible()
    on_screen(page.get_by_role("button", name="See who won"))


def test_undo_takes_back_the_last_tap_and_redo_puts_it_back(phone: Page, base_url: str) -> None:
    page = phone
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    set_trump(page, "red Dwarves")
    bid(page, "Bob", 1)
    tap(page, on_screen(page.get_by_role("button", name="↶ Undo: Bob's bid in round 1")))
    expect(page.get_by_text("Undone: Bob's bid in round 1.")).to_be_visible()
    expect(page.locator('button[aria-label="Bob bids 1"]')).to_have_attribute(
        "aria-pressed", "false"
    )
    tap(page, page.get_by_role("button", name="↷ Redo: Bob's bid in round 1"))
    expect(page.locator('button[aria-label="Bob bids 1"]')).to_have_attribute(
        "aria-pressed", "true"
    )
