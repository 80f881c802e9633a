"""The round screen in a phone's browser: a scorekeeper's taps, and what they see."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from .helpers import (
    all_made,
    bid,
    expect_fits_the_phone,
    new_game,
    next_round,
    open_sheet,
    result_scores,
    score,
    seeded_game,
    set_trump,
    shot,
    tap,
    totals_row,
    trick_button,
    tricks,
)

if TYPE_CHECKING:
    from .conftest import Problems

SEEDS = ["Thomas", "Ute", "Kevin"]
# The minus colour a refused bid is shown in (light theme).
RED = "rgb(197, 34, 31)"


def test_the_seeds_example_scores_two_rounds_and_totals_them_on_the_sheet(
    page: Page, base_url: str
) -> None:
    new_game(page, base_url, SEEDS, dealer="Thomas", screenshot="new-game")
    expect(page.get_by_text("Thomas deals")).to_be_visible()
    expect(page.get_by_text("Ute bids and leads first")).to_be_visible()
    expect_fits_the_phone(page)
    shot(page, "trump")
    set_trump(page, "red Dwarves")
    bid(page, "Ute", 1)
    bid(page, "Kevin", 1)
    bid(page, "Thomas", 0)
    tricks(page, "Thomas", 0)
    tricks(page, "Ute", 0)
    tricks(page, "Kevin", 1)
    expect_fits_the_phone(page)
    shot(page, "tricks")
    score(page, 1)
    assert result_scores(page) == {"Ute": "−10", "Kevin": "+30", "Thomas": "+20"}
    expect_fits_the_phone(page)
    shot(page, "scored")

    next_round(page, 2)
    expect(page.get_by_text("Ute deals")).to_be_visible()
    expect(page.get_by_text("Kevin bids and leads first")).to_be_visible()
    set_trump(page, "Jester: no trump")
    bid(page, "Kevin", 0)
    bid(page, "Thomas", 2)
    bid(page, "Ute", 0)
    tricks(page, "Thomas", 1)
    tricks(page, "Ute", 0)
    tricks(page, "Kevin", 1)
    score(page, 2)
    assert result_scores(page) == {"Kevin": "−10", "Thomas": "−10", "Ute": "+20"}

    sheet = open_sheet(page)
    # Kevin leads, and the sheet says so next to his name.
    expect(sheet.locator("thead th")).to_have_text(
        ["Round", "Thomas", "Ute", re.compile(r"^Kevin\s+♛\s*leads$")]
    )
    expect(totals_row(sheet)).to_have_text(["10", "10", "20"])
    round_2 = sheet.locator("#round-2 td")
    expect(round_2.nth(0)).to_contain_text("2/1")
    expect(round_2.nth(0)).to_contain_text("−10")
    expect(round_2.nth(0)).not_to_contain_text("-10")
    expect(round_2.nth(2)).to_contain_text("−10")
    expect_fits_the_phone(page)
    shot(page, "sheet")


def test_plus_minus_one_strikes_out_the_dealers_bid_that_would_make_the_bids_add_up(
    page: Page, base_url: str
) -> None:
    new_game(page, base_url, SEEDS, dealer="Kevin", bid_rule="plus_minus_one")
    set_trump(page, "green Elves")
    bid(page, "Thomas", 0)
    bid(page, "Ute", 0)
    forbidden = page.get_by_role("button", name="Kevin may not bid 1", exact=True)
    expect(forbidden).to_be_disabled()
    expect(forbidden.locator("s")).to_have_text("1")
    expect(forbidden).to_have_css("color", RED)
    expect(forbidden).to_have_css("border-top-color", RED)
    expect(forbidden).to_have_accessible_description(re.compile("may not bid 1"))
    reason = page.locator("#seat-2 .reason")
    expect(reason).to_be_visible()
    expect(reason).to_contain_text("Kevin deals and may not bid 1")
    expect(page.get_by_role("button", name="Kevin bids 1", exact=True)).to_have_count(0)
    expect_fits_the_phone(page)
    shot(page, "bids-forbidden")
    bid(page, "Kevin", 0)
    expect(page.get_by_role("heading", name="Tricks won")).to_be_visible()
    expect(page.locator("#seat-2 legend")).to_contain_text("bid 0")


def test_a_wizard_turned_lets_the_dealer_choose_the_trump(page: Page, base_url: str) -> None:
    new_game(page, base_url, SEEDS, dealer="Ute")
    set_trump(page, "Wizard", chosen="yellow Giants")
    expect(page.locator(".round-head .trump-line")).to_contain_text(
        "yellow Giants, chosen by the dealer under a Wizard"
    )


def test_a_reload_or_the_back_button_mid_round_loses_nothing(page: Page, base_url: str) -> None:
    new_game(page, base_url, SEEDS, dealer="Thomas")
    set_trump(page, "red Dwarves")
    bid(page, "Ute", 1)
    bid(page, "Kevin", 0)
    ute_1 = page.get_by_role("button", name="Ute bids 1", exact=True)
    kevin_0 = page.get_by_role("button", name="Kevin bids 0", exact=True)

    page.reload()
    expect(ute_1).to_have_attribute("aria-pressed", "true")
    expect(kevin_0).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("status").first).to_have_text("Bids so far add up to 1, for 1 trick.")

    # Every tap replaces the page in the history: back leads out of the round, to the
    # home page, which lists the game; forward shows the round as it stands.
    page.go_back()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    game = page.get_by_role("link", name=re.compile("Thomas, Ute, Kevin"))
    expect(game).to_contain_text("Round 1 of 20")
    page.go_forward()
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
    expect(ute_1).to_have_attribute("aria-pressed", "true")
    expect(kevin_0).to_have_attribute("aria-pressed", "true")

    bid(page, "Thomas", 0)
    tricks(page, "Ute", 0)
    page.reload()
    expect(trick_button(page, "Ute", 0)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#seat-1 legend")).to_contain_text("bid 1")

    page.go_back()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    page.get_by_role("link", name=re.compile("Thomas, Ute, Kevin")).click()
    expect(page.get_by_role("heading", name="Tricks won")).to_be_visible()
    expect(trick_button(page, "Ute", 0)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#seat-2 legend")).to_contain_text("bid 0")
    expect(page.locator("#seat-0 legend")).to_contain_text("bid 0")


def test_scoring_before_the_tricks_add_up_is_refused_in_one_sentence(
    page: Page, base_url: str, problems: Problems
) -> None:
    # Chromium logs the refusal's status (422) as a console error.
    problems.allow(r"^console error: Failed to load resource: .* status of 422 ")
    new_game(page, base_url, SEEDS, dealer="Thomas")
    set_trump(page, "red Dwarves")
    bid(page, "Ute", 1)
    bid(page, "Kevin", 0)
    bid(page, "Thomas", 0)
    tricks(page, "Ute", 0)
    tricks(page, "Kevin", 0)
    # Thomas's trick is filled in from the sum; saying he took none leaves one missing.
    expect(trick_button(page, "Thomas", 1)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#seat-0")).to_contain_text("filled in from the sum")
    tricks(page, "Thomas", 0)
    missing = "The tricks add up to 0, but round 1 has 1: 1 trick is missing."
    score_form = page.locator("form.score")
    expect(score_form.get_by_role("status")).to_have_text(missing)

    tap(page, score_form.get_by_role("button", name="Score round 1"))
    expect(score_form.get_by_role("alert")).to_have_text(missing)
    expect(page.get_by_role("heading", name="Tricks won")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 1 is scored")).to_have_count(0)

    tricks(page, "Ute", 1)
    score(page, 1)
    assert result_scores(page) == {"Ute": "+30", "Kevin": "+20", "Thomas": "+20"}


def test_covered_bids_stay_hidden_until_all_are_in(page: Page, base_url: str) -> None:
    new_game(page, base_url, SEEDS, dealer="Thomas", reveal="covered")
    set_trump(page, "green Elves")
    bid(page, "Ute", 1)
    ute = page.locator("#seat-1")
    expect(ute.locator("legend")).to_contain_text("✓ has bid")
    expect(ute).not_to_have_text(re.compile(r"\d"))
    expect(page.locator("#bids [aria-pressed=true]")).to_have_count(0)
    expect(page.get_by_role("status").first).to_contain_text("1 of 3 has bid.")
    bid(page, "Kevin", 0)
    expect(page.locator("#seat-2 legend")).to_contain_text("✓ has bid")
    expect(page.locator("#bids [aria-pressed=true]")).to_have_count(0)
    bid(page, "Thomas", 0)

    # All in: the scorekeeper, who reads them out, sees them at once, without a tap: each
    # bid stands next to its player's trick buttons, and their total against the cards.
    expect(page.get_by_role("heading", name="Tricks won")).to_be_visible()
    row_bids = page.locator("#tricks .player .row-bid")
    expect(row_bids).to_have_text(["bid 1", "bid 0", "bid 0"])
    for index in range(3):
        expect(row_bids.nth(index)).to_be_in_viewport()
    expect(page.get_by_text("The bids add up to 1, for 1 trick.")).to_be_visible()


def test_a_short_game_ends_with_the_winner_and_the_standings(page: Page, base_url: str) -> None:
    # Rounds 1 and 2 recorded through the API (Ann deals): Bob +30 −10, Cy +20 −10, Ann +20 −10.
    played = [("red", [0, 1, 0], [0, 1, 0]), ("green", [1, 1, 1], [0, 0, 2])]
    seeded_game(page, base_url, ["Ann", "Bob", "Cy"], rules={"rounds": 3}, played=played)
    expect(page.get_by_role("heading", name="Round 3 of 3")).to_be_visible()
    set_trump(page, "Jester: no trump")
    expect(page.locator(".trump-line")).to_contain_text("no trump (a Jester was turned)")
    bid(page, "Ann", 0)
    bid(page, "Bob", 2)
    bid(page, "Cy", 1)
    all_made(page, 3)
    assert result_scores(page) == {"Ann": "+20", "Bob": "+40", "Cy": "+30"}

    page.get_by_role("button", name="See who won").click()
    expect(page.get_by_role("heading", name="Game over", level=1)).to_be_visible()
    expect(page.locator(".headline")).to_have_text("Bob wins with 60 points!")
    # One column on a phone: the headline under the title, the button across the page.
    title = page.get_by_role("heading", name="Game over", level=1).bounding_box()
    headline = page.locator(".headline").bounding_box()
    again = page.get_by_role("button", name="Play again, same table").bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert title is not None
    assert headline is not None
    assert again is not None
    assert headline["x"] == pytest.approx(title["x"], abs=1)
    assert headline["y"] >= title["y"] + title["height"] - 1
    assert again["width"] >= 0.9 * (width - 2 * title["x"])
    standings = page.locator(".game-over .standings-list li")
    expect(standings).to_have_text(
        [
            re.compile(r"^1\.\s+Bob\s+60$"),
            re.compile(r"^2\.\s+Cy\s+40$"),
            re.compile(r"^3\.\s+Ann\s+30$"),
        ]
    )
    expect(totals_row(page.locator("table.sheet"))).to_have_text(["30", "60", "40"])
    expect_fits_the_phone(page)
    shot(page, "game-over")

    page.get_by_role("link", name="Tablet of Truth").click()
    game = page.get_by_role("link", name=re.compile("Ann, Bob, Cy"))
    expect(game).to_contain_text("Finished · Bob won")


# -- Round 2 is round 2: taps replace the address, links name their round ----------------

#: Round 1 of Ann, Bob, Cy (Ann deals) recorded: red trump, Bob bid and won the trick.
ROUND_1 = [("red", [0, 1, 0], [0, 1, 0])]


def test_round_2s_address_survives_a_reload_a_wizard_and_change_the_bids(
    page: Page, base_url: str
) -> None:
    """Every tap replaces the address: in round 2 it names round 2, through a reload, the
    Wizard's two steps and the "Change the bids" link."""
    seeded_game(page, base_url, ["Ann", "Bob", "Cy"], rules={"rounds": 3}, played=ROUND_1)
    page.get_by_role("button", name="Wizard: the dealer chooses").click()
    expect(page.get_by_role("heading", name=re.compile("A Wizard was turned"))).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2 of 3", timeout=1000)
    page.get_by_role("button", name="yellow Giants", exact=True).click()
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible(timeout=1000)
    expect(page.locator(".trump-line")).to_contain_text("yellow Giants, chosen by the dealer")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2 of 3", timeout=1000)
    for name in ("Cy", "Ann", "Bob"):
        bid(page, name, 1)
    page.get_by_role("link", name="Change the bids").click()
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible(timeout=1000)
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 2 of 3")
    sheet = open_sheet(page)
    expect(sheet.locator("#round-1 .corrected")).to_have_count(0)


STALE = (
    "This game was changed a moment ago (on another phone or screen, or by a tap whose answer "
    "never came), so your tap was not saved: here is the game as it is now."
)


def test_a_page_made_stale_by_another_screen_says_so_in_view_and_shows_the_fresh_state(
    page: Page, base_url: str, problems: Problems
) -> None:
    """A second screen with the same right, scrolled down to the last player's tricks on a
    360 px phone, taps after the first one wrote: the refusal is said where the thumb is, the
    page shows the game as it is, and the next tap from it is accepted."""
    # Chromium logs the refusal's status (412) as a console error.
    problems.allow(r"^console error: Failed to load resource: .* status of 412 ")
    page.set_viewport_size({"width": 360, "height": 740})
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    seeded_game(page, base_url, names, played=[("red", [0] * 5, None)])
    other = page.context.new_page()
    other.set_viewport_size({"width": 360, "height": 740})
    other.goto(page.url)
    expect(other.get_by_role("heading", name="Tricks won", exact=True)).to_be_visible()

    tricks(page, "Cy", 0)
    button = trick_button(other, "Eve", 0)
    button.scroll_into_view_if_needed()
    tap(other, button)
    expect(other.get_by_role("alert")).to_have_text(STALE)
    expect(other.get_by_role("alert")).to_be_in_viewport()
    expect(trick_button(other, "Cy", 0)).to_have_attribute("aria-pressed", "true")
    # The fresh page carries the new version: the next tap from it is accepted.
    tricks(other, "Eve", 0)
    page.reload()
    expect(trick_button(page, "Eve", 0)).to_have_attribute("aria-pressed", "true")


def test_a_refused_bid_is_brought_into_view(page: Page, base_url: str, problems: Problems) -> None:
    problems.allow(r"^console error: Failed to load resource: .* status of 422 ")
    names = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"]
    new_game(page, base_url, names, dealer="Fay", bid_rule="plus_minus_one", reveal="covered")
    set_trump(page, "green Elves")
    for name in names[:-1]:
        bid(page, name, 0)
    # Fay's buttons at the very bottom of the screen, as a thumb reaches them: the refusal
    # printed under them lands below the fold unless the page brings it into view.
    button = page.get_by_role("button", name="Fay bids 1", exact=True)
    button.evaluate("element => element.scrollIntoView({block: 'end'})")
    tap(page, button)
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Fay, who deals, must bid something else")
    expect(refusal).to_be_in_viewport()


def test_the_correction_form_strikes_out_the_dealers_forbidden_bid(
    page: Page, base_url: str
) -> None:
    new_game(page, base_url, SEEDS, dealer="Thomas", bid_rule="plus_minus_one")
    set_trump(page, "blue Humans")
    bid(page, "Ute", 1)
    bid(page, "Kevin", 1)
    bid(page, "Thomas", 0)
    tricks(page, "Ute", 1)
    tricks(page, "Kevin", 0)
    score(page, 1)
    page.get_by_role("link", name="Correct round 1", exact=True).click()
    expect(page.get_by_role("heading", name="Correct round 1", level=1)).to_be_visible()
    expect(page.locator(".chip.refused")).to_have_count(0)  # 1 + 1: Thomas may bid anything

    page.get_by_role("radiogroup", name="Ute bid").get_by_role("radio", name="0").check()
    page.get_by_role("radiogroup", name="Kevin bid").get_by_role("radio", name="0").check()
    thomas = page.get_by_role("radiogroup", name="Thomas bid")
    expect(thomas.locator(".chip.refused")).to_have_text("1")
    expect(thomas.locator(".chip.refused")).to_have_css("color", RED)  # not a grey in the dark
    expect(thomas.locator(".chip.refused")).to_have_css("border-top-color", RED)
    expect(thomas).to_contain_text("Thomas deals and may not bid 1")
    # The choices made stay as they were tapped.
    ute_bid = page.get_by_role("radiogroup", name="Ute bid")
    expect(ute_bid.get_by_role("radio", name="0")).to_be_checked()
    expect(
        page.get_by_role("radiogroup", name="Kevin bid").get_by_role("radio", name="0")
    ).to_be_checked()


def test_playing_again_starts_from_the_last_table_and_a_renamed_seat_survives_a_reload(
    page: Page, base_url: str
) -> None:
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Cy", rounds="1")
    set_trump(page, "blue Humans")
    for name in ("Ann", "Bob", "Cy"):
        bid(page, name, 0)
    tricks(page, "Ann", 1)
    tricks(page, "Bob", 0)
    score(page, 1)
    tap(page, page.get_by_role("button", name="See who won"))
    tap(page, page.get_by_role("button", name="Play again, same table"))
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.get_by_label("Seat 3", exact=True)).to_have_value("Cy")
    expect(page.get_by_role("radio", name="Ann", exact=True)).to_be_checked()  # deals next
    seat = page.get_by_label("Seat 3", exact=True)
    seat.fill("Dora")  # Cy went home; Dora sits down
    seat.blur()
    expect(page.get_by_role("radio", name="Dora", exact=True)).to_be_visible()
    page.reload()
    expect(page.get_by_label("Seat 3", exact=True)).to_have_value("Dora")
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value("Ann")


def _lines_of_numbers(page: Page) -> list[list[int]]:
    """For each player's row of number buttons, how many buttons stand on each line."""
    lines: list[list[int]] = []
    for numbers in page.locator(".numbers").all():
        tops: dict[int, int] = {}
        for button in numbers.get_by_role("button").all():
            box = button.bounding_box()
            assert box is not None
            tops[round(box["y"])] = tops.get(round(box["y"]), 0) + 1
        lines.append([tops[top] for top in sorted(tops)])
    return lines


def test_round_sixs_seven_numbers_stand_in_even_lines_on_a_phone(page: Page, base_url: str) -> None:
    """Seven buttons (0 to 6) on a 360 px phone: lines of 4 and 3, not 6 and a lone 6."""
    page.set_viewport_size({"width": 360, "height": 740})
    # Rounds 1-5 recorded through the API (Ann deals round 1, so Cy deals round 6).
    played = [("red", [number, 0, 0], [number, 0, 0]) for number in range(1, 6)]
    seeded_game(page, base_url, ["Ann", "Bob", "Cy"], played=played)
    set_trump(page, "red Dwarves")
    assert _lines_of_numbers(page) == [[4, 3]] * 3
    expect_fits_the_phone(page)
    shot(page, "round-6-bids-360")
    for name, value in zip(["Bob", "Cy", "Ann"], [2, 1, 0], strict=True):
        bid(page, name, value)
    expect(page.get_by_role("heading", name="Tricks won", exact=True)).to_be_visible()
    assert _lines_of_numbers(page) == [[4, 3]] * 3
    expect_fits_the_phone(page)
    shot(page, "round-6-tricks-360")
