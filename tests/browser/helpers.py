"""Steps of a game as a scorekeeper taps them, each waiting for the page it leads to.

Every tap is a form POST that htmx sends and answers with the page it redirects to; the
helpers wait for what the new page shows (Playwright's auto-waiting ``expect``), never for
a fixed time.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

SHOTS = Path("/tmp/shots")
RULE_LABELS = {"standard": "Standard", "plus_minus_one": "Plus/Minus One", "canadian": "Canadian"}
REVEAL_LABELS = {"open": "Open", "covered": "Covered", "secret": "Secret"}
GAME_URL = re.compile(r"/games/([^/]+)/rounds/1$")


NOT_SENT = "This page cannot be sent that way"

# Every click the page receives, counted in the tab (kept across page loads): an init script.
COUNT_CLICKS = """
addEventListener("click", (event) => {
  if (!event.isTrusted) return;
  sessionStorage.setItem("clicks", String(Number(sessionStorage.getItem("clicks") || 0) + 1));
}, true);
"""


def clicks(page: Page) -> int:
    """The clicks counted (by :data:`COUNT_CLICKS`) since the last call."""
    count = int(page.evaluate("Number(sessionStorage.getItem('clicks') || 0)"))
    page.evaluate("sessionStorage.setItem('clicks', '0')")
    return count


def on_screen(target: Locator) -> Locator:
    """``target``, checked to be wholly on screen as the page stands (a click would scroll)."""
    expect(target).to_be_in_viewport(ratio=1)
    return target


def reload_shows(page: Page, heading: str | re.Pattern[str]) -> None:
    """Reload, as a player might after a tap: the same page again, nothing sent twice."""
    page.reload()
    expect(page.get_by_role("heading", name=heading, level=1)).to_be_visible()
    assert NOT_SENT not in page.content()


def shot(page: Page, name: str) -> None:
    """A screenshot of the whole page to /tmp/shots/browser-<name>.png, when SCREENSHOTS is
    set (so CI writes no files)."""
    if not os.environ.get("SCREENSHOTS"):
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"browser-{name}.png"), full_page=True)


def tap(page: Page, target: Locator) -> None:
    """Tap ``target`` and wait until the page it sends for has come back.

    The target is marked before the tap; the answer replaces it (or, morphed, drops the
    mark), so the mark's going says the answer is in, even when it looks like the page
    before (a button tapped that was already pressed).
    """
    target.evaluate("element => element.setAttribute('data-tapped', '')")
    target.click()
    expect(page.locator("[data-tapped]")).to_have_count(0)


def wait_for_the_service_worker(page: Page) -> str:
    """Its scope, once it is active and controls the page."""
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return str(scope)


def expect_fits_the_phone(page: Page) -> None:
    """The page is no wider than the phone: nothing makes it scroll (or zoom out) sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    assert width <= viewport["width"], (
        f"{page.url} is {width} px wide on a {viewport['width']} px phone"
    )


def expect_nothing_off_screen(page: Page) -> None:
    """Nothing of the page's content reaches past the phone's right edge, not even inside a
    box that scrolls sideways (which keeps the page itself narrow but hides what is off it)."""
    expect_fits_the_phone(page)
    off = page.evaluate(
        """() => [...document.querySelectorAll("main *")]
            .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5)
            .map((e) => `${e.tagName}: ${e.textContent.trim().slice(0, 40)}`)"""
    )
    assert not off, f"{page.url} reaches past the {page.viewport_size} phone: {off[:5]}"


def starts_with(label: str) -> re.Pattern[str]:
    """An accessible name that starts with ``label`` (radio labels carry a summary too)."""
    # A "/" is escaped too: Playwright passes the pattern on as a /.../ literal.
    escaped = re.escape(label).replace("/", r"\/")
    return re.compile(rf"^{escaped}\b")


def new_game(
    page: Page,
    base_url: str,
    names: list[str],
    *,
    dealer: str | None = None,
    bid_rule: str = "standard",
    reveal: str = "open",
    rounds: str | None = None,
    deck: tuple[str, ...] = (),
    screenshot: str | None = None,
) -> str:
    """Set a game up through the new-game form, from the home page; the game's id.

    ``dealer``: a player's name, or ``None`` to draw at random. ``rounds``: an option value
    of the Rounds select ("3"), or ``None`` for the full game. ``deck``: the special cards
    to check ("bomb").
    """
    page.goto(base_url + "/")
    page.get_by_role("button", name="Start a new game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    for seat, name in enumerate(names, start=1):
        field = page.get_by_label(f"Seat {seat}", exact=True)
        if field.count() == 0:
            page.get_by_role("button", name="Add a player").click()
            expect(field).to_be_visible()
        field.fill(name)
        # Leaving the field sends it: the form comes back with the name on its dealer radio.
        field.blur()
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    dealer_radio = page.get_by_role("radio", name=dealer or "Draw at random", exact=True)
    dealer_radio.check()
    page.get_by_role("radio", name=starts_with(RULE_LABELS[bid_rule])).check()
    page.get_by_role("radio", name=starts_with(REVEAL_LABELS[reveal])).check()
    if rounds is not None:
        page.get_by_label("Rounds").select_option(rounds)
    for card in deck:
        page.locator(f'input[name="special_cards"][value="{card}"]').check()
    if screenshot:
        shot(page, screenshot)
    # The first "Start the game" is the hidden default button that Enter presses.
    tap(page, page.get_by_role("button", name="Start the game").last)
    expect(page).to_have_url(GAME_URL)
    expect(page.get_by_role("heading", name=re.compile(r"^Round 1 of \d+$"))).to_be_visible()
    match = GAME_URL.search(page.url)
    assert match is not None
    return match.group(1)


def round_heading(page: Page, number: int) -> Locator:
    return page.get_by_role("heading", level=1, name=re.compile(rf"^Round {number} of \d+$"))


def set_trump(page: Page, card: str, chosen: str | None = None) -> None:
    """Tap the card turned up for trump ("red Dwarves", "Jester: no trump"); for a Wizard,
    ``card="Wizard"`` and ``chosen`` is the dealer's suit."""
    if card == "Wizard":
        tap(page, page.get_by_role("button", name="Wizard: the dealer chooses"))
        expect(page.get_by_role("heading", name=re.compile("A Wizard was turned"))).to_be_visible()
        assert chosen is not None
        tap(page, page.get_by_role("button", name=chosen, exact=True))
    else:
        tap(page, page.get_by_role("button", name=card, exact=True))
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()


def bid(page: Page, name: str, value: int) -> None:
    """Tap ``name``'s bid and wait until the page shows it: the button pressed, or (bids
    covered) the player marked as having bid, or (the last bid) the trick step."""
    tap(page, page.get_by_role("button", name=f"{name} bids {value}", exact=True))
    pressed = page.locator(f'button[aria-label="{name} bids {value}"][aria-pressed="true"]')
    covered = page.get_by_role("link", name=f"Change {name}'s bid", exact=True)
    tricks_step = page.get_by_role("heading", name="Tricks won", exact=True)
    expect(pressed.or_(covered).or_(tricks_step).first).to_be_visible()


def trick_button(page: Page, name: str, value: int) -> Locator:
    noun = "trick" if value == 1 else "tricks"
    return page.get_by_role("button", name=f"{name} won {value} {noun}", exact=True)


def tricks(page: Page, name: str, value: int) -> None:
    """Tap the tricks ``name`` won and wait until the button shows pressed."""
    button = trick_button(page, name, value)
    tap(page, button)
    expect(button).to_have_attribute("aria-pressed", "true")


def score(page: Page, number: int) -> None:
    """Tap "Score round <number>" and wait for the scored round."""
    tap(page, page.get_by_role("button", name=f"Score round {number}", exact=True))
    expect(page.get_by_role("heading", name=f"Round {number} is scored")).to_be_visible()


def all_made(page: Page, number: int) -> None:
    """Tap "Everyone made their bid" and wait for the scored round."""
    tap(page, page.get_by_role("button", name="Everyone made their bid", exact=True))
    expect(page.get_by_role("heading", name=f"Round {number} is scored")).to_be_visible()


def next_round(page: Page, number: int) -> None:
    """From a scored round, on to round ``number``: scoring leads there already (with the
    scored round's points on top); from a scored round's own screen, a tap."""
    heading = round_heading(page, number)
    if not heading.is_visible():
        tap(page, page.get_by_role("button", name=f"On to round {number}", exact=True))
    expect(heading).to_be_visible()


def open_sheet(page: Page) -> Locator:
    """Tap "Sheet" in the header bar; the sheet's table."""
    page.get_by_role("banner").get_by_role("link", name="Sheet", exact=True).click()
    expect(page.get_by_role("heading", name="The Tablet of Truth", level=1)).to_be_visible()
    return page.locator("table.sheet")


def totals_row(sheet: Locator) -> Locator:
    """The cells of the sheet's Total row (in seat order)."""
    return sheet.locator("tfoot tr").get_by_role("cell")


def result_scores(page: Page) -> dict[str, str]:
    """The scored round's points by player name, as shown."""
    rows = page.locator("table.result tbody tr")
    expect(rows.first).to_be_visible()
    scores = {}
    for row in rows.all():
        name = row.get_by_role("rowheader").inner_text().strip()
        scores[name] = row.get_by_role("cell").last.inner_text().strip()
    return scores


def seeded_game(
    page: Page,
    base_url: str,
    names: list[str],
    *,
    dealer: int = 0,
    rules: dict[str, object] | None = None,
    played: Sequence[tuple[str | None, list[int], list[int] | None]] = (),
) -> str:
    """A game set up through the JSON API, the rounds of ``played`` recorded there (each: the
    card turned, or ``None`` where no card is left to turn, the bids, the tricks or ``None``
    for a round left at its tricks step), and this
    phone given the right to keep its score with the table code; the game's id, its next
    round shown. The way into a state a test needs, for the few taps it is about."""
    api = page.request
    data: dict[str, object] = {"players": names, "first_dealer": dealer}
    if rules:
        data["rules"] = rules
    game = api.post(base_url + "/api/v1/games", data=data)
    assert game.status == 201, game.text()
    body = game.json()
    game_id = str(body["id"])
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    for number, (turned, bids, tricks) in enumerate(played, start=1):
        path = f"{base_url}/api/v1/games/{game_id}/rounds/{number}"
        if turned is not None:
            assert api.put(path + "/trump", data={"turned": turned}, headers=headers).ok
        assert api.put(path + "/bids", data={"bids": bids}, headers=headers).ok
        if tricks is not None:
            assert api.put(path + "/tricks", data={"tricks": tricks}, headers=headers).ok
    code = api.post(f"{base_url}/api/v1/games/{game_id}/table-code", headers=headers)
    assert code.status == 201, code.text()
    page.goto(f"{base_url}/games/{game_id}/keep-score")
    field = page.get_by_label("The table code, from the scorekeeper's screen")
    field.fill(code.json()["table_code"])
    tap(page, page.get_by_role("button", name="Keep score on this phone"))
    expect(page.get_by_text("This phone keeps the score of this game now.")).to_be_visible()
    return game_id
