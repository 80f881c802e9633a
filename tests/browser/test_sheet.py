"""The sheet on a phone, six players in round 10: every player's column in sight at 360 px,
long names whole words; the dealer's D slides under the round column when the sheet is
scrolled sideways, and a bid the Cloud changed stays on one line."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect

from .helpers import all_made, bid, open_sheet, seeded_game, shot, tap
from .test_qualities import NARROW

SIX = ["Annabelle", "Bartholomäus", "Cy", "Dorothea", "Eve", "Fitzgerald"]


def in_round_ten(page: Page, base_url: str) -> str:
    """Six players through the JSON API, rounds 1–9 scored (in round 3 the Cloud took Cy's bid
    from 2 to 1), round 10 bidding; the game's id. Fitzgerald leads (♛ in the last column);
    Annabelle deals rounds 1 and 7."""
    api = page.request
    rules = {"special_cards": ["cloud"]}
    game = api.post(
        base_url + "/api/v1/games", data={"players": SIX, "first_dealer": 0, "rules": rules}
    )
    body = game.json()
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    for number in range(1, 11):
        path = f"{base_url}/api/v1/games/{body['id']}/rounds/{number}"
        assert api.put(path + "/trump", data={"turned": "red"}, headers=headers).ok
        if number == 10:
            break
        made = [0, 0, 2, 0, 0, 1] if number == 3 else [0, 0, 0, 0, 0, number]
        assert api.put(path + "/bids", data={"bids": made}, headers=headers).ok
        tricks = (
            {"tricks": made, "cloud": {"seat": 2, "bid": 1}} if number == 3 else {"tricks": made}
        )
        assert api.put(path + "/tricks", data=tricks, headers=headers).ok
    return str(body["id"])


def test_the_sheet_at_360_px_keeps_the_dealers_mark_and_the_clouds_bid_readable(
    page: Page, base_url: str
) -> None:
    """One sheet, three checks: a bid the Cloud changed stays on one line, the dealer's D
    leaves the widest bid readable, and slides under the round column when the sheet is
    scrolled sideways (on a narrower screen still)."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base_url}/games/{in_round_ten(page, base_url)}/view")

    cells = page.locator("table.sheet #round-3 td .bt")
    expect(cells.nth(2)).to_contain_text("2→1☁")
    # As tall as the round's other bids and tricks, which take one line each.
    heights = cells.evaluate_all("cells => cells.map((cell) => cell.offsetHeight)")
    assert len(set(heights)) == 1, heights
    shot(page, "spectator-cloud-360")

    # Cy deals round 3, where the Cloud's "2→1☁/2" is the widest bid of the column.
    cell = page.locator("table.sheet #round-3 td.dealer")
    expect(cell.locator(".bt")).to_contain_text("2→1☁")
    mark, bid = cell.locator(".dealer-mark").bounding_box(), cell.locator(".bt").bounding_box()
    assert mark is not None
    assert bid is not None
    assert mark["x"] >= bid["x"] + bid["width"], "the D is drawn over the bid"

    # On a folded phone's cover screen (280 px) six columns no longer fit: scroll the sheet
    # sideways until round 1's D (Annabelle's cell) lies under the round column: the round's
    # number is drawn there, not the D.
    page.set_viewport_size({"width": 280, "height": 740})
    under, on_top = page.evaluate(
        """() => {
        const box = (e) => e.getBoundingClientRect();
        const mark = document.querySelector("#round-1 .dealer-mark");
        const column = document.querySelector("#round-1 th");
        mark.scrollIntoView({block: "center"});
        mark.closest(".sheet-wrap").scrollLeft += box(mark).left - box(column).left - 10;
        const x = box(mark).left + box(mark).width / 2, y = box(mark).top + box(mark).height / 2;
        return [x > box(column).left && x < box(column).right,
                column.contains(document.elementFromPoint(x, y))];
    }"""
    )
    assert under, "the sheet did not scroll round 1's D under the round column"
    assert on_top, "round 1's D is drawn over the round column"


# Long names, German ones too; Bartholomäus, last, leads; Bartholomew, first, is far behind.
LONG = ["Bartholomew", "Maximiliane", "Friedrich-Wilhelm", "Annemarie Louise", "Konstantin"]
LONG_SIX = [*LONG, "Bartholomäus"]

# The sheet's columns that reach past its box, and whether the box scrolls sideways.
OUT_OF_SIGHT = """() => {
  const wrap = document.querySelector(".sheet-wrap");
  const edge = wrap.getBoundingClientRect().right;
  const cut = [...wrap.querySelectorAll("thead th, tfoot td, .leader")]
    .filter((cell) => cell.getBoundingClientRect().right > edge + 0.5)
    .map((cell) => cell.textContent.trim());
  return {cut, sideways: wrap.scrollWidth > wrap.clientWidth,
          page: document.documentElement.scrollWidth > innerWidth};
}"""

# The words of the names shown (the sheet's head, the standings) that are split over lines.
SPLIT_WORDS = """() => {
  const split = [];
  for (const box of document.querySelectorAll(".sheet .name, .standings-list li")) {
    const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (range.getClientRects().length > 1) split.push(word[0]);
      }
    }
  }
  return split;
}"""


def in_sight(page: Page, screen: str) -> list[str]:
    """What keeps the screen's sheet from showing every player's total and the leader."""
    page.locator(".sheet-wrap").scroll_into_view_if_needed()
    sight = page.evaluate(OUT_OF_SIGHT)
    found = [f"{screen}: out of sight: {cell}" for cell in sight["cut"]]
    found += [f"{screen}: the sheet scrolls sideways"] if sight["sideways"] else []
    found += [f"{screen}: the page is wider than the phone"] if sight["page"] else []
    found += [f"{screen}: {word} split over lines" for word in page.evaluate(SPLIT_WORDS)]
    return found


def test_six_long_names_show_every_total_and_the_leader_at_360_px(
    browser: Browser, base_url: str
) -> None:
    """Six players with long names on a 360 px phone, on every page with the sheet (the sheet,
    the spectator's page, game over), in English and in German: each player's total and the
    leader's crown in sight without scrolling sideways, and no name split in the middle of a
    word, in the standings (the round screen's too) as well."""
    context = browser.new_context(**NARROW)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    found: list[str] = []
    try:
        # Rounds 1-9: Bartholomew bids them all and wins none, Bartholomäus makes them all.
        played = [("red", [n, 0, 0, 0, 0, n], [0, 0, 0, 0, 0, n]) for n in range(1, 10)]
        game_id = seeded_game(page, base_url, LONG_SIX, played=played)
        page.locator("details.standings summary").click()
        found += [f"round screen: {word} split" for word in page.evaluate(SPLIT_WORDS)]
        open_sheet(page)
        found += in_sight(page, "the sheet")
        shot(page, "sheet-six-long-360")
        page.goto(f"{base_url}/games/{game_id}/view")
        found += in_sight(page, "the spectator's sheet")
        page.goto(f"{base_url}/games/{game_id}/rounds/10")
        # Round 10 (every card dealt, no trump): Bartholomäus bids and wins all ten.
        for legend in page.locator("form.player legend").all_inner_texts():
            name = next(name for name in LONG_SIX if legend.startswith(name))
            bid(page, name, 10 if name == "Bartholomäus" else 0)
        all_made(page, 10)
        tap(page, page.get_by_role("button", name="See who won"))
        expect(page.get_by_role("heading", name="Game over")).to_be_visible()
        found += in_sight(page, "game over")
        page.get_by_role("button", name="DE Deutsch").click()
        expect(page.get_by_role("heading", name="Spielende")).to_be_visible()
        found += in_sight(page, "game over, German")
        shot(page, "game-over-six-long-de-360")
        page.goto(f"{base_url}/games/{game_id}/view")
        found += in_sight(page, "the spectator's sheet, German")
    finally:
        context.close()
    assert found == [], "\n".join(found)
