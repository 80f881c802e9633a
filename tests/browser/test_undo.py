"""Undo and redo on the round screen at phone size: a trick count taken back and put back
with one tap each, and the row to tap again on screen after an undo. That each kind of
write's Undo is in view after its tap is checked in the walk of every screen
(test_qualities.py); what an undo does, in tests/services/test_undo.py."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from .helpers import (
    bid,
    new_game,
    set_trump,
    shot,
    tap,
    trick_button,
    tricks,
)

if TYPE_CHECKING:
    pass


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
