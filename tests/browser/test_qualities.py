"""Every screen at 360 px wide, in light and in dark: nothing wider than the phone, every
control named for a screen reader, every target at least 44 × 44 px, and no violation that
axe-core (the accessibility engine, bundled by axe-playwright-python) finds: contrast, names,
roles, landmarks."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect

from .helpers import (
    bid,
    new_game,
    open_sheet,
    score,
    seeded_game,
    set_trump,
    shot,
    tap,
    tricks,
    wait_for_the_service_worker,
)

NARROW = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}

# What a screen offers a thumb: links, buttons, fields, and the labels of radios/checkboxes.
AUDIT = """() => {
  const problems = [];
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden"
      && !el.closest("[aria-hidden=true]") && !el.closest("details:not([open]) > :not(summary)");
  };
  const nameOf = (el) => (el.getAttribute("aria-label")
    || (el.labels ? [...el.labels].map((label) => label.textContent).join(" ") : "")
    || el.textContent || el.getAttribute("title") || "").trim();
  const controls = "a[href], button, input:not([type=hidden]), select, summary, [role=button]";
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el)) continue;
    const name = nameOf(el);
    if (!name) problems.push("a control without a name: " + el.outerHTML.slice(0, 90));
    const target = el.matches("input[type=radio], input[type=checkbox]")
      ? (el.closest("label") || el) : el;
    const box = target.getBoundingClientRect();
    if (box.width < 44 || box.height < 44) {
      problems.push(`a ${Math.round(box.width)}×${Math.round(box.height)} px target: ${name}`);
    }
  }
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) problems.push(`the page is ${width} px wide`);
  return problems;
}"""


AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .map((v) => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes
    .map((node) => `${node.target} ${node.html} ${node.failureSummary}`).join("; "))"""


@cache
def axe_source() -> str:
    return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def audit(page: Page, screen: str) -> list[str]:
    problems = page.evaluate(AUDIT)
    # Run in the page by the test driver, not as a <script> tag: the app's CSP refuses
    # inline scripts, and axe-core is the test's tool, not the page's.
    page.evaluate(axe_source())
    problems += page.evaluate(AXE_RUN)
    return [f"{screen}: {problem}" for problem in problems]


def audit_offline(page: Page, base_url: str, sheet: str, heading: str, language: str) -> list[str]:
    """The offline page, as the service worker shows it for a page the phone never kept, and
    the sheet from the phone's copy, which says so."""
    page.context.set_offline(True)
    try:
        page.goto(base_url + "/games/nothing-here")
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        found = audit(page, f"offline{language}")
        page.goto(sheet)
        expect(page.locator("#connection")).to_be_visible()
        return found + audit(page, f"sheet from the phone's copy{language}")
    finally:
        page.context.set_offline(False)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_fits_a_narrow_phone_with_named_thumb_sized_controls(
    browser: Browser, base_url: str, scheme: str
) -> None:
    context = browser.new_context(**NARROW, color_scheme=scheme)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    found: list[str] = []
    try:
        page.goto(base_url + "/")
        found += audit(page, "home")
        wait_for_the_service_worker(page)
        page.get_by_role("button", name="Start a new game").click()
        expect(page.get_by_role("heading", name="New game")).to_be_visible()
        found += audit(page, "new game")
        game_id = new_game(
            page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann", bid_rule="plus_minus_one"
        )
        found += audit(page, "trump")
        tap(page, page.get_by_role("button", name="Wizard: the dealer chooses"))
        expect(page.get_by_role("heading", name=re.compile("A Wizard was turned"))).to_be_visible()
        found += audit(page, "wizard")
        tap(page, page.get_by_role("button", name="yellow Giants", exact=True))
        expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
        bid(page, "Bob", 0)
        bid(page, "Cy", 0)
        page.get_by_text("Standings").click()
        found += audit(page, "bids with a forbidden bid, standings open")
        bid(page, "Ann", 0)
        found += audit(page, "tricks")
        tricks(page, "Bob", 1)
        tricks(page, "Cy", 0)
        score(page, 1)
        found += audit(page, "scored")
        open_sheet(page)
        found += audit(page, "sheet")
        tap(page, page.get_by_role("link", name="Correct round 1"))
        expect(page.get_by_role("heading", name="Correct round 1")).to_be_visible()
        found += audit(page, "correction")
        correction = page.url
        page.get_by_role("radio", name="Jester: no trump").check()  # "it was a Jester"
        tap(page, page.get_by_role("button", name="Save the correction"))
        expect(page.get_by_role("heading", name="The Tablet of Truth", level=1)).to_be_visible()
        tap(page, page.get_by_role("link", name="Correct round 1 (already corrected)", exact=True))
        expect(page.get_by_role("heading", name="Correct round 1")).to_be_visible()
        tap(page, page.get_by_role("link", name="History of round 1", exact=True))
        expect(page.get_by_role("heading", name="History of round 1")).to_be_visible()
        found += audit(page, "round history")
        page.goto(base_url + "/")
        expect(page.get_by_role("heading", name="Your games")).to_be_visible()
        page.locator("details.delete summary").first.click()
        expect(page.get_by_role("button", name="Delete this game")).to_be_visible()
        found += audit(page, "games list, delete opened")
        tap(page, page.get_by_role("link", name="Statistics"))
        expect(page.get_by_role("heading", name="Statistics", level=1)).to_be_visible()
        found += audit(page, "statistics")
        page.goto(base_url + "/import")
        expect(page.get_by_role("heading", name="Import games")).to_be_visible()
        found += audit(page, "import")
        page.goto(f"{base_url}/games/{game_id}/view")
        expect(page.get_by_role("heading", name="Round 2 of 20")).to_be_visible()
        found += audit(page, "spectator")
        shot(page, f"spectator-{scheme}")
        page.goto(f"{base_url}/games/{game_id}/share")
        tap(page, page.get_by_role("button", name="Make a hand-over link"))
        found += audit(page, "invite with a hand-over link")
        shot(page, f"invite-{scheme}")
        page.goto(page.locator("#handover-link").inner_text())
        expect(page.get_by_role("heading", name="Take over scorekeeping")).to_be_visible()
        found += audit(page, "hand-over")
        page.goto(base_url + "/games/nothing-here")
        found += audit(page, "not found")
        sheet = correction.replace("/rounds/1/correct", "/sheet")
        found += audit_offline(page, base_url, sheet, "No connection", "")
        # German words are longer: the same screens again, in German.
        tap(page, page.get_by_role("button", name="Deutsch"))
        for screen, path in [
            ("home", "/"),
            ("new game", "/games/new"),
            ("round 1 scored", correction.removesuffix("/correct")),
            ("round 2 trump", correction.replace("/rounds/1/correct", "/rounds/2")),
            ("sheet", sheet),
            ("correction", correction),
            ("spectator", f"/games/{game_id}/view"),
            ("invite", f"/games/{game_id}/share"),
        ]:
            page.goto(path if path.startswith("http") else base_url + path)
            found += audit(page, f"{screen}, German")
        found += audit_offline(page, base_url, sheet, "Keine Verbindung", ", German")
    finally:
        context.close()
    assert found == []


def test_game_over_fits_a_narrow_phone(browser: Browser, base_url: str) -> None:
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        new_game(page, base_url, ["Annabelle", "Bob", "Cy", "Dan", "Eve", "Fay"], rounds="1")
        set_trump(page, "blue Humans")
        names = [text.split()[0] for text in page.locator("form.player legend").all_inner_texts()]
        for name in names:
            bid(page, name, 0)
        tricks(page, names[0], 1)
        for name in names[1:-1]:
            tricks(page, name, 0)
        score(page, 1)
        tap(page, page.get_by_role("button", name="See who won"))
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
        found = audit(page, "game over")
    finally:
        context.close()
    assert found == []


LINES_OF_THE_NAME = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector("header .brand"));
  return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
}"""


def test_a_round_screen_keeps_the_apps_name_on_one_line_on_a_narrow_phone(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
        expect(page.get_by_role("link", name="Sheet")).to_be_visible()
        # The language switch shows its code, and is named by it and the language's name.
        expect(page.get_by_role("button", name="DE Deutsch", exact=True)).to_be_visible()
        assert page.evaluate(LINES_OF_THE_NAME) == 1
    finally:
        context.close()


COLUMNS_CUT_OFF = """() => {
  const edge = document.querySelector(".sheet-wrap").getBoundingClientRect().right;
  return [...document.querySelectorAll("table.sheet thead th")]
    .filter((cell) => cell.getBoundingClientRect().right > edge + 0.5)
    .map((cell) => cell.innerText.split("\\n")[0]);
}"""


def test_a_sheet_with_corrected_rounds_shows_five_players_on_a_phone(
    browser: Browser, base_url: str
) -> None:
    """Correcting rounds does not widen the Round column (one target per round: the number,
    marked ✎, with the trump under it), nor do co-leaders widen theirs (♛ under the name):
    five players still fit a 390 px phone."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        # Rounds 1 and 2 recorded through the API, every bid 0 and missed by the first bidder.
        played = [("red", [0] * 5, [0, 1, 0, 0, 0]), ("red", [0] * 5, [0, 0, 2, 0, 0])]
        names = ["Annika", "Bob", "Cyrus", "Dagmar", "Eve"]
        seeded_game(page, base_url, names, rules={"rounds": 3}, played=played)
        sheet = open_sheet(page)
        for number in (1, 2):
            tap(page, page.get_by_role("link", name=f"Correct round {number}", exact=True))
            page.get_by_role("radio", name="Jester: no trump").check()  # "it was a Jester"
            tap(page, page.get_by_role("button", name="Save the correction"))
            expect(
                sheet.get_by_role("link", name=f"Correct round {number} (already corrected)")
            ).to_be_visible()
        shot(page, "sheet-corrected-390")
        assert page.evaluate(COLUMNS_CUT_OFF) == []
    finally:
        context.close()


def test_the_trump_line_wraps_as_text_does_with_its_change_link(
    browser: Browser, base_url: str
) -> None:
    """A long trump (a Wizard's, chosen) puts "change" on a second line; the link keeps a
    thumb-sized target without pushing that line a target's height down."""
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        new_game(page, base_url, ["Annika", "Bartholomew", "Cy"], dealer="Bartholomew")
        set_trump(page, "Wizard", "yellow Giants")
        line = page.locator(".trump-line")
        lines = line.evaluate(
            "(p) => Math.round(p.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(p).lineHeight))"
        )
        assert lines == 2
        assert audit(page, "bids, a Wizard's trump") == []
    finally:
        context.close()


TOTALS_IN_VIEW = """() => {
  const wrap = document.querySelector(".sheet-wrap");
  wrap.scrollTop = 0;
  const box = wrap.getBoundingClientRect();
  const totals = document.querySelector("table.sheet tfoot td").getBoundingClientRect();
  return {
    scrolls: wrap.scrollHeight > wrap.clientHeight,
    inBox: totals.top >= box.top && totals.bottom <= box.bottom + 0.5,
    onScreen: box.bottom <= window.innerHeight + 0.5,
  };
}"""


def test_a_long_sheet_keeps_names_leader_and_totals_in_sight_on_a_phone(
    browser: Browser, base_url: str
) -> None:
    """Twenty rounds and a long name on a 360 px phone: the long name wraps instead of
    pushing a player off the screen, the line above says who is ahead, and the Total row
    stays in sight at the bottom of the sheet while its rounds scroll."""
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        names = ["Annemarie-Louise-Sophie", "Bob", "Cy"]
        new_game(page, base_url, names, dealer="Cy")
        set_trump(page, "blue Humans")
        for name in names:
            bid(page, name, 1 if name == "Bob" else 0)
        tricks(page, "Annemarie-Louise-Sophie", 0)
        tricks(page, "Bob", 1)
        score(page, 1)
        sheet = open_sheet(page)
        expect(page.get_by_text("Round 2 of 20 · Bob is ahead")).to_be_visible()
        assert page.evaluate(COLUMNS_CUT_OFF) == []
        sheet.scroll_into_view_if_needed()
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        shot(page, "sheet-long-360")
        assert page.evaluate(TOTALS_IN_VIEW) == {"scrolls": True, "inBox": True, "onScreen": True}
    finally:
        context.close()
