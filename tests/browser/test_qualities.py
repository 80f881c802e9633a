"""Every screen at both phone sizes (360 and 390 px wide), in light and in dark, in one walk:
nothing wider than the phone, every control named for a screen reader, every target at least
44 × 44 px, and no violation that axe-core (the accessibility engine, bundled by
axe-playwright-python) finds: contrast, names, roles, landmarks; no Content-Security-Policy
violation, a reload after every form POST showing the page again, the round's taps counted,
and the next control in view. Then layouts that need a game of their own."""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect

from .helpers import (
    COUNT_CLICKS,
    all_made,
    bid,
    clicks,
    new_game,
    on_screen,
    open_sheet,
    reload_shows,
    round_heading,
    score,
    seeded_game,
    set_trump,
    shot,
    tap,
    tricks,
    wait_for_the_service_worker,
)
from .test_csp import listen_for_violations

if TYPE_CHECKING:
    from .conftest import Problems

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
    """The screen's controls (named, 44 × 44 px), its width, and axe-core's violations."""
    problems = page.evaluate(AUDIT)
    # Run in the page by the test driver, not as a <script> tag: the app's CSP refuses
    # inline scripts, and axe-core is the test's tool, not the page's.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(axe_source())
    problems += page.evaluate(AXE_RUN)
    return [f"{screen}: {problem}" for problem in problems]


def check(page: Page, screen: str) -> list[str]:
    """:func:`audit` of the screen as it stands, in light and in dark (switched in place)."""
    found: list[str] = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        found += audit(page, f"{screen} ({scheme})")
    return found


def check_offline(page: Page, base_url: str, sheet: str, heading: str, language: str) -> list[str]:
    """The offline page, as the service worker shows it for a page the phone never kept, and
    the sheet from the phone's copy, which says so."""
    page.context.set_offline(True)
    try:
        page.goto(base_url + "/games/nothing-here")
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        found = check(page, f"offline{language}")
        page.goto(sheet)
        expect(page.locator("#connection")).to_be_visible()
        return found + check(page, f"sheet from the phone's copy{language}")
    finally:
        page.context.set_offline(False)


def undo_in_view(page: Page, what: str) -> None:
    """After a write, its "Undo" is on screen where the thumb is."""
    expect(page.get_by_role("button", name=f"↶ Undo: {what}", exact=True)).to_be_in_viewport()


@pytest.mark.parametrize("size", [(360, 740), (390, 844)], ids=["360", "390"])
def test_every_screen_at_phone_size_in_light_and_dark(
    page: Page, other_page: Page, base_url: str, problems: Problems, size: tuple[int, int]
) -> None:
    """One walk through every screen: each checked by :func:`check`, each form POST
    reloaded, no CSP violation nor console error, the round's taps counted by the page
    (four players: six a round, one more per miss), the next control in view."""
    problems.allow(r"status of 422 .*/games/new")  # the refused start, on purpose
    # A name's answer still out when a button is tapped is dropped: the tap sends the name too.
    problems.allow(r"request failed: (GET|POST) .*/games/new: net::ERR_ABORTED$")
    problems.allow(r"status of 404 .*/games/nothing-here")  # the page not found, on purpose
    problems.allow(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED")  # offline
    for phone in (page, other_page):
        phone.set_viewport_size({"width": size[0], "height": size[1]})
    page.context.add_init_script(COUNT_CLICKS)
    violations = listen_for_violations(page)
    theirs = listen_for_violations(other_page)
    found: list[str] = []

    page.goto(base_url + "/")
    found += check(page, "home")
    wait_for_the_service_worker(page)
    page.get_by_role("button", name="Start a new game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    found += check(page, "new game")
    # The new-game form: its taps (add a seat, move one, a refused start) and a reload each.
    page.get_by_label("Seat 1", exact=True).fill("Ann")
    tap(page, page.get_by_role("button", name="Add a player"))
    reload_shows(page, "New game")
    tap(page, page.get_by_role("button", name="Move seat 2 up"))
    reload_shows(page, "New game")
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_role("alert").first).to_be_visible()
    found += check(page, "new game refused")
    reload_shows(page, "New game")
    shot(page, f"new-game-refused-{size[0]}")
    tap(page, page.get_by_role("button", name="Start afresh"))

    # Ann deals. The Canadian rule: a dealer who leads alone may not make the bids add up.
    names = ["Ann", "Bob", "Cy", "Dee"]
    game_id = new_game(page, base_url, names, dealer="Ann", bid_rule="canadian", rounds="3")
    found += check(page, "trump")
    set_trump(page, "red Dwarves")
    undo_in_view(page, "the trump of round 1")
    tap(page, page.get_by_role("button", name="↶ Undo: the trump of round 1"))
    reload_shows(page, "Round 1 of 3")
    expect(page.get_by_role("button", name="↷ Redo: the trump of round 1")).to_be_visible()
    clicks(page)

    # Round 1: everyone made their bid; six taps.
    set_trump(page, "red Dwarves")
    for name, value in (("Bob", 1), ("Cy", 0), ("Dee", 0), ("Ann", 0)):
        bid(page, name, value)
        undo_in_view(page, f"{name}'s bid in round 1")
    all_made(page, 1)
    # The points of round 1 and round 2's trump step, on one screen.
    expect(round_heading(page, 2)).to_be_visible()
    expect(page.locator("table.result tbody tr")).to_have_count(4)
    on_screen(page.get_by_role("button", name="blue Humans", exact=True))
    undo_in_view(page, "the scoring of round 1")
    assert clicks(page) == 6
    found += check(page, "scored")
    reload_shows(page, "Round 2 of 3")

    # Round 2: a Wizard turned (one more tap), Cy missed (one more).
    tap(page, page.get_by_role("button", name="Wizard: the dealer chooses"))
    expect(page.get_by_role("heading", name=re.compile("A Wizard was turned"))).to_be_visible()
    found += check(page, "wizard")
    tap(page, page.get_by_role("button", name="green Elves", exact=True))
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
    undo_in_view(page, "the trump of round 2")
    taps = clicks(page)
    reload_shows(page, "Round 2 of 3")
    for name, value in (("Cy", 1), ("Dee", 0), ("Ann", 0)):
        bid(page, name, value)
        undo_in_view(page, f"{name}'s bid in round 2")
    # Bob deals and leads alone: his 1 would make the bids add up to the 2 cards.
    expect(page.get_by_role("button", name="Bob may not bid 1", exact=True)).to_be_disabled()
    taps += clicks(page)
    standings = page.locator("details.standings summary")
    standings.click()
    found += check(page, "bids with a forbidden bid, standings open")
    standings.click()
    clicks(page)  # not taps of the round's
    bid(page, "Bob", 0)
    undo_in_view(page, "Bob's bid in round 2")
    found += check(page, "tricks")
    tricks(page, "Cy", 2)
    others_made(page)
    expect(round_heading(page, 3)).to_be_visible()
    undo_in_view(page, "the scoring of round 2")
    assert taps + clicks(page) == 8
    # The statistics of a game in progress (once a game is finished, axe-core finds the head
    # to head table's region named as its section is: landmark-unique).
    page.goto(base_url + "/")
    tap(page, page.get_by_role("link", name="Statistics"))
    expect(page.get_by_role("heading", name="Statistics", level=1)).to_be_visible()
    found += check(page, "statistics")
    page.goto(f"{base_url}/games/{game_id}")

    # Round 3's trump step in German (longer words), then two missed: two more taps.
    tap(page, page.get_by_role("button", name="Deutsch"))
    expect(page.get_by_role("heading", name="Runde 3 von 3", level=1)).to_be_visible()
    found += check(page, "round 3 trump, German")
    tap(page, page.get_by_role("button", name="English"))
    expect(round_heading(page, 3)).to_be_visible()
    clicks(page)
    set_trump(page, "Jester: no trump")
    for name, value in (("Dee", 1), ("Ann", 1), ("Bob", 1), ("Cy", 0)):
        bid(page, name, value)
    tricks(page, "Dee", 0)
    tricks(page, "Ann", 2)
    others_made(page)
    expect(page.get_by_role("heading", name="Round 3 is scored")).to_be_visible()
    undo_in_view(page, "the scoring of round 3")
    assert clicks(page) == 8
    expect(page.locator("table.result tbody tr")).to_have_text(
        [
            re.compile(r"Dee\s*1\s*0\s*−10"),
            re.compile(r"Ann\s*1\s*2\s*−10"),
            re.compile(r"Bob\s*1\s*1\s*\+30"),
            re.compile(r"Cy\s*0\s*0\s*\+20"),
        ]
    )
    tap(page, on_screen(page.get_by_role("button", name="See who won")))
    expect(page.get_by_role("heading", name="Game over", level=1)).to_be_visible()
    expect(page.get_by_role("banner").get_by_role("link", name="Sheet")).to_be_visible()
    found += check(page, "game over")
    shot(page, f"game-over-{size[0]}")

    # The sheet, a correction (saved, reloaded), the round's history.
    sheet = open_sheet(page)
    expect(sheet.locator(".wizard-mark")).to_have_count(1)
    found += check(page, "sheet")
    shot(page, f"sheet-{size[0]}")
    tap(page, page.get_by_role("link", name="Correct round 1", exact=True))
    expect(page.get_by_role("heading", name="Correct round 1")).to_be_visible()
    found += check(page, "correction")
    page.get_by_role("radio", name="Jester: no trump").check()  # "it was a Jester"
    tap(page, page.get_by_role("button", name="Save the correction"))
    reload_shows(page, "The Tablet of Truth")
    tap(page, page.get_by_role("link", name="Correct round 1 (already corrected)", exact=True))
    expect(page.get_by_role("heading", name="Correct round 1")).to_be_visible()
    tap(page, page.get_by_role("link", name="History of round 1", exact=True))
    expect(page.get_by_role("heading", name="History of round 1")).to_be_visible()
    found += check(page, "round history")

    # The games list: delete and restore, each reloaded; import, the referee.
    page.goto(base_url + "/")
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    page.locator("details.delete summary").first.click()
    expect(page.get_by_role("button", name="Delete this game")).to_be_visible()
    found += check(page, "games list, delete opened")
    shot(page, f"home-{size[0]}")
    tap(page, page.get_by_role("button", name="Delete this game"))
    reload_shows(page, "Your games")
    tap(page, page.get_by_role("button", name=re.compile("^Restore")))
    reload_shows(page, "Your games")
    expect(page.locator("ul.games > li")).to_have_count(1)
    page.goto(base_url + "/import")
    expect(page.get_by_role("heading", name="Import games")).to_be_visible()
    found += check(page, "import")
    page.goto(f"{base_url}/games/{game_id}/referee?card=red-7&card=wizard")
    expect(page.get_by_role("heading", name="Who wins the trick?", level=1)).to_be_visible()
    found += check(page, "referee")
    page.goto(f"{base_url}/games/{game_id}/view")
    expect(page.get_by_text("Game over: Bob wins")).to_be_visible()
    found += check(page, "spectator")
    shot(page, f"spectator-{size[0]}")

    # Invite: a hand-over link (it survives a reload), a new table code, the language menu.
    page.goto(f"{base_url}/games/{game_id}/share")
    tap(page, page.get_by_role("button", name="Make a hand-over link"))
    link = page.locator("#handover-link").inner_text()
    found += check(page, "invite with a hand-over link")
    shot(page, f"invite-{size[0]}")
    reload_shows(page, "Invite the table")
    expect(page.locator("#handover-link")).to_have_text(link)
    page.goto(link)
    expect(page.get_by_role("heading", name="Take over scorekeeping")).to_be_visible()
    found += check(page, "hand-over")
    page.goto(f"{base_url}/games/{game_id}/share")
    old_code = page.locator("#table-code").inner_text()
    tap(page, page.get_by_role("button", name="Show a new table code"))
    reload_shows(page, "Invite the table")
    code = page.locator("#table-code").inner_text()
    assert code != old_code
    tap(page, page.get_by_role("button", name="Deutsch"))
    reload_shows(page, "Mitspieler einladen")
    found += check(page, "invite, German")
    tap(page, page.get_by_role("button", name="English"))
    reload_shows(page, "Invite the table")

    # Another phone: a wrong table code, then the right one.
    other_page.goto(f"{base_url}/games/{game_id}/keep-score")
    found += check(other_page, "keep score")
    field = other_page.get_by_label("The table code, from the scorekeeper's screen")
    field.fill("00000000" if code.replace(" ", "") != "00000000" else "11111111")
    tap(other_page, other_page.get_by_role("button", name="Keep score on this phone"))
    expect(other_page.get_by_role("alert")).to_contain_text("not the table code")
    found += check(other_page, "keep score refused")
    reload_shows(other_page, "Take over scorekeeping")
    field.fill(code)
    tap(other_page, other_page.get_by_role("button", name="Keep score on this phone"))
    expect(other_page.get_by_text("This phone keeps the score of this game now.")).to_be_visible()
    reload_shows(other_page, "Game over")
    # The phone it was taken from: its next tap is refused, and it is led to take it back.
    tap(page, page.get_by_role("button", name="Only this phone keeps score"))
    expect(page.get_by_role("alert")).to_contain_text("Another phone took over scorekeeping")
    found += check(page, "taken over")
    reload_shows(page, "Take over scorekeeping")

    page.goto(base_url + "/games/nothing-here")
    found += check(page, "not found")
    sheet_path = f"{base_url}/games/{game_id}/sheet"
    found += check_offline(page, base_url, sheet_path, "No connection", "")

    # German words are longer: the screens again, in German.
    page.goto(base_url + "/")
    tap(page, page.get_by_role("button", name="Deutsch"))
    for screen, path in [
        ("home", "/"),
        ("new game", "/games/new"),
        ("round 1 scored", f"/games/{game_id}/rounds/1"),
        ("game over", f"/games/{game_id}"),
        ("sheet", f"/games/{game_id}/sheet"),
        ("correction", f"/games/{game_id}/rounds/1/correct"),
        ("spectator", f"/games/{game_id}/view"),
    ]:
        page.goto(base_url + path)
        found += check(page, f"{screen}, German")
    found += check_offline(page, base_url, sheet_path, "Keine Verbindung", ", German")
    assert found == [], "\n".join(found)
    assert violations == []
    assert theirs == []


def others_made(page: Page) -> None:
    tap(page, page.get_by_role("button", name="Everyone else made their bid", exact=True))


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
