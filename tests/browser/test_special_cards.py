"""The special cards at the table, as a scorekeeper taps them on a phone (390×844): a Werewolf
trump, a Bomb round scored with tricks adding up to the cards minus one, a Cloud's changed bid
on the sheet (the exports' in tests/api/test_specials.py); in English, and a Bomb round in
German. The correction of a round with six players at 360 px: the Bomb ticked, refused, then
the Cloud's change; and a secret-bids round's Cloud, in words, refused for a bid of 0."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE
from .helpers import (
    all_made,
    bid,
    new_game,
    open_sheet,
    result_scores,
    round_heading,
    score,
    shot,
    tap,
    tricks,
)
from .test_qualities import NARROW, audit

NAMES = ["Ann", "Bob", "Cy"]


def test_a_werewolf_trump_a_bomb_round_and_a_clouds_change(page: Page, base_url: str) -> None:
    deck = ("bomb", "cloud", "werewolf")
    game_id = new_game(
        page, base_url, NAMES, dealer="Ann", deck=deck, screenshot="specials-new-game"
    )

    # Round 1: the Werewolf's holder names red.
    tap(page, page.get_by_role("button", name="Werewolf: its holder names the trump"))
    expect(page.get_by_role("heading", name=re.compile("^The Werewolf"))).to_be_visible()
    shot(page, "specials-werewolf")
    tap(page, page.get_by_role("button", name="red Dwarves", exact=True))
    expect(page.get_by_text("red Dwarves, named by the Werewolf's holder")).to_be_visible()
    for name, value in (("Bob", 0), ("Cy", 0), ("Ann", 1)):
        bid(page, name, value)
    tricks(page, "Ann", 1)
    score(page, 1)
    expect(round_heading(page, 2)).to_be_visible()

    # Round 2 (2 cards): the Bomb takes one trick, the Cloud takes Ann from 1 down to 0.
    tap(page, page.get_by_role("button", name="yellow Giants", exact=True))
    for name, value in (("Cy", 1), ("Ann", 1), ("Bob", 0)):
        bid(page, name, value)
    bomb = page.get_by_role("button", name=re.compile("^The Bomb was played"))
    tap(page, bomb)
    expect(bomb).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("Tricks so far: 0 of 1.")).to_be_visible()
    page.get_by_text("The Cloud: who won its trick changes their bid by one").click()
    tap(page, page.get_by_role("button", name="Ann bids one less", exact=True))
    expect(page.get_by_text("The Cloud: Ann bids 0 instead")).to_be_visible()
    tricks(page, "Ann", 1)
    # The other two are filled in from the sum: one trick in all, not two.
    expect(page.get_by_text("Tricks so far: 1 of 1.")).to_be_visible()
    shot(page, "specials-tricks")
    score(page, 2)
    assert result_scores(page) == {"Ann": "−10", "Bob": "+20", "Cy": "−10"}

    sheet = open_sheet(page)
    round_two = sheet.locator("#round-2")
    expect(round_two).to_contain_text("the Bomb was played")
    expect(round_two.get_by_role("cell").first).to_contain_text("1→0")
    expect(sheet.locator("#round-1")).to_contain_text("named by the Werewolf's holder")
    shot(page, "specials-sheet")

    # The correction of round 1 shows the trump the Werewolf's holder named, to change it.
    page.goto(f"{base_url}/games/{game_id}/rounds/1/correct")
    named = page.get_by_role("group", name="Under a Wizard or the Werewolf, the trump chosen")
    expect(named).to_be_visible()
    expect(named.get_by_role("radio", name="red Dwarves")).to_be_checked()


@pytest.fixture
def german(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**PHONE, locale="de-DE")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_a_bomb_round_in_german(german: Page, base_url: str) -> None:
    page = german
    page.goto(base_url + "/games/new")
    for seat, name in enumerate(NAMES):
        field = page.locator(f'input[name="names-{seat}"]')
        field.fill(name)
        field.blur()
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    page.get_by_role("radio", name=NAMES[0], exact=True).check()
    page.locator('input[name="special_cards"][value="bomb"]').check()
    shot(page, "specials-new-game-de")
    tap(page, page.locator('button[name="action"][value="start"]').last)
    expect(page.get_by_role("heading", level=1, name=re.compile(r"^Runde 1 von"))).to_be_visible()

    tap(page, page.get_by_role("button", name="Bombe: kein Trumpf", exact=True))
    expect(page.get_by_text("kein Trumpf (die Bombe wurde aufgedeckt)")).to_be_visible()
    for name, value in (("Bob", 0), ("Cy", 0), ("Ann", 0)):
        tap(page, page.get_by_role("button", name=f"{name} sagt {value} an", exact=True))
    expect(page.get_by_role("heading", name="Gemachte Stiche", exact=True)).to_be_visible()
    # The deck's one Bomb was turned up: none is left to play in this round.
    expect(page.get_by_role("button", name=re.compile("^Die Bombe wurde gespielt"))).to_have_count(
        0
    )
    tap(page, page.get_by_role("button", name="Bob hat 1 Stich gemacht", exact=True))
    shot(page, "specials-tricks-de")
    tap(page, page.get_by_role("button", name="Runde 1 werten", exact=True))
    expect(page.get_by_role("heading", name="Runde 1 ist gewertet")).to_be_visible()
    assert result_scores(page) == {"Ann": "+20", "Bob": "−10", "Cy": "+20"}


SIX = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"]


@pytest.fixture
def narrow(browser: Browser) -> Iterator[Page]:
    """A phone 360 px wide (touch), in a context of its own."""
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_a_correction_marks_the_bomb_and_the_clouds_change_on_a_narrow_phone(
    narrow: Page, base_url: str
) -> None:
    page = narrow
    found: list[str] = []
    game_id = new_game(page, base_url, SIX, dealer="Ann", deck=("bomb", "cloud"))
    tap(page, page.get_by_role("button", name="blue Humans", exact=True))
    for name in SIX[1:] + SIX[:1]:
        bid(page, name, 1 if name == "Bob" else 0)
    all_made(page, 1)
    sheet = open_sheet(page)
    expect(sheet.locator("#round-1")).not_to_contain_text("the Bomb was played")
    tap(page, page.get_by_role("link", name="Correct round 1", exact=True))
    expect(page.get_by_role("heading", name="Correct round 1", level=1)).to_be_visible()
    found += audit(page, "correction with the Bomb and the Cloud")
    cloud = page.get_by_role("group", name=re.compile("^The Cloud"))
    expect(cloud.get_by_role("radio", name="No change by the Cloud")).to_be_checked()

    # The Bomb was played: Bob's trick went to nobody. Saved with his trick, refused.
    bomb = page.get_by_role("checkbox", name=re.compile("^The Bomb was played"))
    bomb.check()
    tap(page, page.get_by_role("button", name="Save the correction"))
    refusal = page.locator("#bomb-refusal")
    expect(refusal).to_have_text(
        "The tricks add up to 1, but round 1 has 0: 1 trick too many "
        "(the Bomb was played: its trick goes to nobody)."
    )
    expect(bomb).to_be_checked()
    found += audit(page, "correction refused by the Bomb")
    shot(page, "specials-correction-refused")

    # No Bomb after all: Bob had bid 0, won the trick with the Cloud, and went up to 1.
    bob = cloud.get_by_role("radio", name="Bob bids one more", exact=True)
    expect(bob).to_have_count(0)  # a bid of 1 in a round of 1 card cannot go up
    page.get_by_role("radiogroup", name="Bob bid").get_by_role("radio", name="0").check()
    expect(bob).to_be_visible()  # the form came back with Bob's bid of 0
    one_more = page.get_by_role("radio", name="Bob bids one more", exact=True)
    expect(cloud.locator("label.chip", has=one_more)).to_have_text("0→1")
    expect(bomb).to_be_checked()
    bomb.uncheck()
    bob.check()
    found += audit(page, "correction with the Cloud's change")
    tap(page, page.get_by_role("button", name="Save the correction"))
    expect(page.get_by_role("status")).to_contain_text("Round 1 is corrected")
    round_one = page.locator("table.sheet #round-1")
    expect(round_one).not_to_contain_text("the Bomb was played")
    expect(round_one.get_by_role("cell").nth(1)).to_contain_text("0→1")  # Bob
    expect(round_one.get_by_role("cell").nth(1)).to_contain_text("30")

    tap(page, page.get_by_role("button", name="Deutsch"))
    page.goto(f"{base_url}/games/{game_id}/rounds/1/correct")
    expect(page.get_by_role("heading", name="Runde 1 korrigieren", level=1)).to_be_visible()
    found += audit(page, "correction with the Bomb and the Cloud, German")
    assert found == []


def test_a_secret_games_cloud_says_what_it_does_on_a_narrow_phone(
    narrow: Page, base_url: str
) -> None:
    page = narrow
    found: list[str] = []
    game_id = new_game(page, base_url, SIX, dealer="Ann", reveal="secret", deck=("cloud",))
    tap(page, page.get_by_role("button", name="blue Humans", exact=True))
    for name in SIX[1:] + SIX[:1]:
        bid(page, name, 1 if name == "Bob" else 0)
    page.get_by_text("The Cloud: who won its trick changes their bid by one").click()
    cy_less = page.get_by_role("button", name="Cy bids one less", exact=True)
    expect(cy_less).to_have_text("One less")
    expect(page.get_by_role("button", name="Cy bids one more", exact=True)).to_have_text("One more")
    found += audit(page, "secret bids, the Cloud open")
    shot(page, "specials-secret-cloud")

    # Cy bid 0: the Cloud cannot take that lower, and nothing is recorded.
    tap(page, cy_less)
    refusal = page.get_by_role("alert")
    expect(refusal).to_have_text(
        "The Cloud changes Cy's bid by one, up or down, and only to 0 to 1."
    )
    expect(refusal).to_be_in_viewport()
    # ... and not under the tally that stays at the top while the rows scroll.
    bar, said = page.locator(".tally.sticky").bounding_box(), refusal.bounding_box()
    assert bar is not None
    assert said is not None
    assert said["y"] >= bar["y"] + bar["height"] - 1
    expect(page.locator("details.special summary")).to_contain_text(
        "The Cloud: who won its trick changes their bid by one"
    )
    found += audit(page, "secret bids, the Cloud refused")
    bob_less = page.get_by_role("button", name="Bob bids one less", exact=True)
    tap(page, bob_less)
    expect(bob_less).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Bob bids one more")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(page.get_by_text("The Cloud: Bob's bid is changed")).to_be_visible()

    tap(page, page.get_by_role("button", name="Deutsch"))
    page.goto(f"{base_url}/games/{game_id}/rounds/1")
    expect(page.get_by_role("button", name="Cy sagt eins weniger an")).to_have_text("Eins weniger")
    found += audit(page, "secret bids, the Cloud, German")
    assert found == []
