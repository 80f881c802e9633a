"""Take the README's two phone screenshots (docs/round-screen.png, docs/standings.png).

Start the app first, then play a short 4-player game through its pages and photograph it:

    make run HOST=127.0.0.1 PORT=5077 &
    .venv/bin/python scripts/screenshots.py http://127.0.0.1:5077

It drives Debian's Chromium (``$CHROMIUM``, default ``/usr/bin/chromium``) with Playwright
at a phone's size, as the browser tests do; Playwright's own browser download is never used.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from playwright.sync_api import Locator, Page, expect, sync_playwright

DOCS = Path(__file__).resolve().parents[1] / "docs"
PLAYERS = ["Ute", "Thomas", "Kevin", "Anna"]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
# Each scored round: (trump card, bids, tricks), in seat order; round n deals n cards, and
# the dealer's bid never makes the bids add up to n (Plus/Minus One).
ROUNDS = [
    ("red Dwarves", [1, 1, 0, 0], [0, 1, 0, 0]),
    ("Jester: no trump", [1, 0, 1, 1], [1, 0, 1, 0]),
    ("blue Humans", [1, 1, 0, 0], [1, 1, 1, 0]),
    ("green Elves", [2, 0, 1, 0], [2, 0, 1, 1]),
]


def tap(page: Page, target: Locator) -> None:
    """Tap ``target`` and wait until the answer has replaced it."""
    target.evaluate("element => element.setAttribute('data-tapped', '')")
    target.click()
    expect(page.locator("[data-tapped]")).to_have_count(0)


def new_game(page: Page, base_url: str) -> None:
    """Set the table up through the new-game form: Plus/Minus One, bids open."""
    page.goto(base_url + "/")
    page.get_by_role("button", name="Start a new game").click()
    for seat, name in enumerate(PLAYERS, start=1):
        field = page.get_by_label(f"Seat {seat}", exact=True)
        if field.count() == 0:
            page.get_by_role("button", name="Add a player").click()
        field.fill(name)
        field.blur()
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    page.get_by_role("radio", name=PLAYERS[0], exact=True).check()
    page.get_by_role("radio", name=re.compile(r"^Plus\/Minus One\b")).check()
    page.get_by_role("radio", name=re.compile(r"^Open\b")).check()
    tap(page, page.get_by_role("button", name="Start the game").last)
    expect(page.get_by_role("heading", name=re.compile(r"^Round 1 of \d+$"))).to_be_visible()


def play_round(page: Page, number: int, trump: str, bids: list[int], tricks: list[int]) -> None:
    """Trump, bids, tricks and the score of one round, then on to the next."""
    tap(page, page.get_by_role("button", name=trump, exact=True))
    bidders = PLAYERS[number % 4 :] + PLAYERS[: number % 4]  # the dealer's left bids first
    for name in bidders:
        label = f"{name} bids {bids[PLAYERS.index(name)]}"
        tap(page, page.get_by_role("button", name=label, exact=True))
    for name, won in zip(PLAYERS, tricks, strict=True):
        noun = "trick" if won == 1 else "tricks"
        tap(page, page.get_by_role("button", name=f"{name} won {won} {noun}", exact=True))
    tap(page, page.get_by_role("button", name=f"Score round {number}", exact=True))
    tap(page, page.get_by_role("button", name=f"On to round {number + 1}", exact=True))


def main(base_url: str) -> None:
    DOCS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS
        )
        try:
            context = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                has_touch=True,
                is_mobile=True,
            )
            context.set_default_timeout(15_000)
            page = context.new_page()
            new_game(page, base_url)
            for number, (trump, bids, tricks) in enumerate(ROUNDS, start=1):
                play_round(page, number, trump, bids, tricks)
            # Round 5: trump turned, every bid but the dealer's (Ute's) made, so the bid she
            # may not make is struck out with its reason.
            tap(page, page.get_by_role("button", name="yellow Giants", exact=True))
            for name, value in (("Thomas", 1), ("Kevin", 2), ("Anna", 1)):
                tap(page, page.get_by_role("button", name=f"{name} bids {value}", exact=True))
            page.screenshot(path=str(DOCS / "round-screen.png"))
            page.get_by_role("banner").get_by_role("link", name="Sheet", exact=True).click()
            expect(page.get_by_role("heading", name="The Tablet of Truth", level=1)).to_be_visible()
            page.screenshot(path=str(DOCS / "standings.png"))
        finally:
            browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:5077")
