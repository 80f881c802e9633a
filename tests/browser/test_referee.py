"""The referee page in Chromium at phone size: two of seed 002's example tricks (one the
readings agree on, one they do not) tapped card by card and answered in both readings, in
English and in German (all ten are judged in tests/rules/test_judge.py); opened from a round; every
control thumb-sized and named at 360 px, and not one CSP violation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE
from .helpers import new_game, set_trump, shot, tap
from .test_csp import listen_for_violations
from .test_qualities import NARROW, audit

if TYPE_CHECKING:
    from .conftest import Problems

# Seed 002's examples, red trump: the cards, the winner under its house rule, the standard one.
SEED_002 = [
    (["W", "yellow 7", "J", "red 8"], 1, 1),
    (["red 8", "yellow 7", "J", "W"], 1, 4),
    (["yellow 7", "red 8", "J", "W"], 4, 4),
    (["J", "red 8", "yellow 7", "W"], 2, 4),
    (["J", "red 8", "red 11", "W"], 3, 4),
    (["green 11", "green 12", "J", "green 5"], 2, 2),
    (["green 13", "green 2", "red 1", "green 5"], 3, 3),
    (["J", "green 2", "green 1", "blue 13"], 2, 2),
    (["green 13", "red 1", "green 1", "red 3"], 4, 4),
    (["green 13", "red 1", "W", "blue 3"], 3, 3),
]
WORDS = {
    "en": {
        "blue": "blue Humans",
        "green": "green Elves",
        "red": "red Dwarves",
        "yellow": "yellow Giants",
        "W": "Wizard",
        "J": "Jester",
        "tabs": "Suit of the numbers below",
        "trump": "Trump",
        "house": "House rule",
        "standard": "Standard",
        "new": "New trick",
        "wins": "Player {n} wins: ",
    },
    "de": {
        "blue": "blaue Menschen",
        "green": "grüne Elfen",
        "red": "rote Zwerge",
        "yellow": "gelbe Riesen",
        "W": "Zauberer",
        "J": "Narr",
        "tabs": "Farbe der Zahlen darunter",
        "trump": "Trumpf",
        "house": "Hausregel",
        "standard": "Standard",
        "new": "Neuer Stich",
        "wins": "Spieler {n} gewinnt: ",
    },
}


@pytest.fixture(params=["en", "de"])
def phone(
    request: pytest.FixtureRequest, browser: Browser, problems: Problems
) -> Iterator[tuple[Page, dict[str, str]]]:
    """A 390 × 844 phone whose browser asks for English or German, and that language's words."""
    context = browser.new_context(**PHONE, locale=request.param)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("console", lambda m: problems.seen.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.seen.append(str(error)))
    try:
        yield page, WORDS[request.param]
    finally:
        context.close()
    assert problems.unexpected() == []


def play(page: Page, words: dict[str, str], card: str) -> None:
    """Tap one card: a Wizard or a Jester, or a suit's tab and then its number."""
    if card in ("W", "J"):
        tap(page, page.get_by_role("button", name=words[card], exact=True))
        return
    suit, number = card.split()
    tabs = page.get_by_role("navigation", name=words["tabs"])
    tap(page, tabs.get_by_role("button", name=words[suit], exact=True))
    tap(page, page.get_by_role("button", name=f"{words[suit]} {number}", exact=True))


def test_seed_002s_tricks_tapped_card_by_card_and_answered_in_both_readings(
    phone: tuple[Page, dict[str, str]], base_url: str
) -> None:
    page, words = phone
    violations = listen_for_violations(page)
    page.goto(base_url + "/referee")
    trump = page.get_by_role("navigation", name=words["trump"])
    tap(page, trump.get_by_role("button", name=words["red"], exact=True))
    verdict = page.locator(".verdict")
    for cards, house, standard in SEED_002[:2]:
        tap(page, page.get_by_role("button", name=words["house"], exact=True))
        for card in cards:
            play(page, words, card)
        expect(verdict).to_contain_text(words["wins"].format(n=house))
        tap(page, page.get_by_role("button", name=words["standard"], exact=True))
        expect(verdict).to_contain_text(words["wins"].format(n=standard))
        # htmx replaced the address as it went: a reload shows the same trick.
        assert "card=" in page.url
        tap(page, page.get_by_role("button", name=words["new"], exact=True))
        expect(page.locator(".trick")).to_have_count(0)
    assert violations == []


def test_opened_from_the_round_with_its_trump_and_players(page: Page, base_url: str) -> None:
    violations = listen_for_violations(page)
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    set_trump(page, "green Elves")
    tap(page, page.get_by_role("link", name="Who wins the trick? Ask the referee"))
    expect(page.get_by_role("heading", name="Who wins the trick?")).to_be_visible()
    trump = page.get_by_role("navigation", name="Trump")
    expect(trump.get_by_role("button", name="green Elves")).to_have_attribute(
        "aria-pressed", "true"
    )
    play(page, WORDS["en"], "green 3")
    play(page, WORDS["en"], "J")
    play(page, WORDS["en"], "green 9")
    # Ann deals, so Bob leads: Bob, Cy, Ann.
    expect(page.locator(".verdict")).to_have_text("Ann wins: the highest trump.")
    tap(page, page.get_by_role("button", name="Next trick: Ann leads"))
    expect(page.get_by_role("button", name="Ann", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    shot(page, "referee-from-a-round")
    assert violations == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_referee_fits_a_narrow_phone_with_named_thumb_sized_controls(
    browser: Browser, base_url: str, scheme: str
) -> None:
    context = browser.new_context(**NARROW, color_scheme=scheme)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    found: list[str] = []
    try:
        page.goto(base_url + "/referee")
        found += audit(page, "referee, empty")
        page.goto(
            base_url + "/referee?trump=red&reading=house&specials=1&suit=green"
            "&card=jester&card=green-11&card=cloud-green&card=wizard&card=bomb"
        )
        expect(page.locator(".verdict")).to_contain_text(re.compile("Nobody wins"))
        found += audit(page, "referee, a Bomb's trick, special cards shown")
        shot(page, f"referee-{scheme}")
        page.goto(base_url + "/referee?trump=blue&card=blue-1&card=wizard", timeout=10_000)
        page.get_by_role("button", name="Deutsch").click()
        expect(page.get_by_role("heading", name="Wer gewinnt den Stich?")).to_be_visible()
        found += audit(page, "referee, German")
    finally:
        context.close()
    assert found == []


def test_the_verdict_stays_in_view_whatever_is_tapped_on_a_narrow_phone(
    browser: Browser, base_url: str
) -> None:
    """The reading, the trump and the cards are tapped far below the verdict at 360 × 740:
    after each tap the verdict, which answers it, is on screen."""
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(base_url + "/referee?trump=red&card=red-8&card=yellow-7&card=jester")
        verdict = page.locator(".verdict")
        words = WORDS["en"]
        play(page, words, "W")
        expect(verdict).to_contain_text("Player 4 wins: ")
        tap(page, page.get_by_role("button", name=words["house"], exact=True))
        expect(verdict).to_contain_text("Player 1 wins: ")
        expect(verdict).to_be_in_viewport()
        shot(page, "referee-house-360")
        trump = page.get_by_role("navigation", name=words["trump"])
        tap(page, trump.get_by_role("button", name=words["green"], exact=True))
        expect(verdict).to_contain_text("Player 4 wins: ")
        expect(verdict).to_be_in_viewport()
        tap(page, page.get_by_role("button", name="Take back the last card"))
        expect(verdict).to_contain_text("Player 1 wins: ")
        expect(verdict).to_be_in_viewport()
    finally:
        context.close()
