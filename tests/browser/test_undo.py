"""Undo and redo on the round screen, at both phone sizes: each kind of write taken back with
one tap, the screen showing the round as it was before it, and put back where redo is
offered; an undo refused, in one sentence and changing nothing, after another phone wrote."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from .helpers import (
    all_made,
    bid,
    new_game,
    round_heading,
    score,
    set_trump,
    shot,
    tap,
    trick_button,
    tricks,
)

if TYPE_CHECKING:
    pass

SIZES = [(360, 740), (390, 844)]
STALE = (
    "This game was changed a moment ago (on another phone or screen, or by a tap whose answer "
    "never came), so your tap was not saved: here is the game as it is now."
)


def undo(page: Page, what: str) -> None:
    """Tap "Undo: <what>" (on screen as the page stands) and wait for the sentence saying so."""
    button = page.get_by_role("button", name=f"↶ Undo: {what}", exact=True)
    expect(button).to_be_in_viewport()
    tap(page, button)
    expect(page.get_by_role("status").filter(has_text=f"Undone: {what}.")).to_be_visible()


def redo(page: Page, what: str) -> None:
    """Tap "Redo: <what>" and wait for the sentence saying so."""
    tap(page, page.get_by_role("button", name=f"↷ Redo: {what}", exact=True))
    expect(page.get_by_role("status").filter(has_text=f"Redone: {what}.")).to_be_visible()


def trump_step(page: Page) -> None:
    """The trump step, no card tapped: the round's trump is not recorded."""
    expect(page.get_by_role("heading", name="Which card was turned up for trump?")).to_be_visible()
    expect(page.locator('#trump [aria-pressed="true"]')).to_have_count(0)


def bids_step_with_trump(page: Page, trump: str) -> None:
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
    # The suit's mark stands between the word and the card's name.
    expect(page.locator(".trump-line")).to_contain_text(re.compile(rf"Trump:\W*{trump}"))


def pressed(page: Page, label: str) -> None:
    expect(page.get_by_role("button", name=label, exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )


def not_pressed(page: Page, label: str) -> None:
    expect(page.get_by_role("button", name=label, exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )


@pytest.mark.parametrize("size", SIZES, ids=["360", "390"])
def test_each_kind_of_write_is_undone_with_one_tap_and_redone(
    page: Page, base_url: str, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")

    # A trump: undone, the trump step again with no card recorded; redone, the bids.
    set_trump(page, "red Dwarves")
    undo(page, "the trump of round 1")
    trump_step(page)
    redo(page, "the trump of round 1")
    bids_step_with_trump(page, "red Dwarves")

    # A Wizard's chosen suit, over the red trump: undone, red Dwarves again.
    page.get_by_role("link", name="Change the trump").click()
    set_trump(page, "Wizard", "green Elves")
    bids_step_with_trump(page, "green Elves")
    undo(page, "the trump of round 1")
    bids_step_with_trump(page, "red Dwarves")
    redo(page, "the trump of round 1")
    bids_step_with_trump(page, "green Elves")
    shot(page, f"undo-wizard-{size[0]}")

    # A bid: undone, no bid pressed for Bob; redone, pressed again.
    bid(page, "Bob", 1)
    undo(page, "Bob's bid in round 1")
    not_pressed(page, "Bob bids 1")
    not_pressed(page, "Bob bids 0")
    redo(page, "Bob's bid in round 1")
    pressed(page, "Bob bids 1")

    # The last bid, which leads to the tricks: undone, back to the bids with Ann to bid.
    bid(page, "Cy", 0)
    bid(page, "Ann", 1)
    expect(page.get_by_role("heading", name="Tricks won", exact=True)).to_be_visible()
    undo(page, "Ann's bid in round 1")
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
    not_pressed(page, "Ann bids 1")
    pressed(page, "Cy bids 0")
    bid(page, "Ann", 0)

    # A scoring: undone, round 1's tricks step with the tricks still tapped in.
    tricks(page, "Bob", 1)
    score(page, 1)
    expect(round_heading(page, 2)).to_be_visible()
    undo(page, "the scoring of round 1")
    expect(round_heading(page, 1)).to_be_visible()
    expect(page.get_by_role("heading", name="Tricks won", exact=True)).to_be_visible()
    expect(trick_button(page, "Bob", 1)).to_have_attribute("aria-pressed", "true")
    # Redone, the round it changed: scored, its points, and the way on.
    redo(page, "the scoring of round 1")
    expect(page.get_by_role("heading", name="Round 1 is scored")).to_be_visible()
    expect(page.locator("table.result tbody tr")).to_have_count(3)
    tap(page, page.get_by_role("button", name="On to round 2", exact=True))
    expect(round_heading(page, 2)).to_be_visible()

    # "Everyone made their bid": undone, round 2's tricks step; redone, round 2 scored.
    set_trump(page, "blue Humans")
    for name, value in (("Cy", 1), ("Ann", 0), ("Bob", 1)):
        bid(page, name, value)
    all_made(page, 2)
    expect(round_heading(page, 3)).to_be_visible()
    undo(page, "the scoring of round 2")
    expect(round_heading(page, 2)).to_be_visible()
    expect(page.get_by_role("heading", name="Tricks won", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Score round 2", exact=True)).to_be_visible()
    shot(page, f"undo-scoring-{size[0]}")
    redo(page, "the scoring of round 2")
    expect(page.get_by_role("heading", name="Round 2 is scored")).to_be_visible()
    rows = page.locator("table.result tbody tr")
    expect(rows).to_have_text(
        [
            re.compile(r"Cy\s*1\s*1\s*\+30"),
            re.compile(r"Ann\s*0\s*0\s*\+20"),
            re.compile(r"Bob\s*1\s*1\s*\+30"),
        ]
    )


def test_a_trick_count_is_undone_with_one_tap(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    set_trump(page, "red Dwarves")
    for name, value in (("Bob", 1), ("Cy", 0), ("Ann", 0)):
        bid(page, name, value)
    tricks(page, "Bob", 1)
    undo_button = page.get_by_role("button", name=re.compile("^↶ Undo: "))
    expect(undo_button).to_have_text(re.compile("Bob's tricks"), timeout=2_000)
    tap(page, undo_button)
    expect(trick_button(page, "Bob", 1)).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_role("heading", name="Tricks won", exact=True)).to_be_visible()
    expect(page.locator(".flash")).to_have_text("Undone: Bob's tricks in round 1.")
    shot(page, "undo-tricks-360")
    redo(page, "Bob's tricks in round 1")
    expect(trick_button(page, "Bob", 1)).to_have_attribute("aria-pressed", "true")


def test_after_an_undo_the_row_to_tap_again_is_on_screen(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    new_game(page, base_url, ["Ann", "Bob", "Cy", "Dee", "Eve"], dealer="Ann")
    set_trump(page, "red Dwarves")
    for name in ("Bob", "Cy", "Dee"):
        bid(page, name, 0)
    undo(page, "Dee's bid in round 1")
    expect(page.get_by_role("button", name="Dee bids 0", exact=True)).to_be_in_viewport()
