"""The table joins in: a spectator's phone follows the keeper's live (and catches up after
the stream drops), and the chart draws the running totals."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, Route, expect

from .helpers import bid, new_game, next_round, score, set_trump, shot, tap
from .helpers import tricks as tap_tricks

if TYPE_CHECKING:
    from .conftest import Problems

NAMES = ["Ann", "Bob", "Cy"]
STREAM = re.compile(r"/view/events\?")
#: A change reaches a following phone within the sweep's half second, and its rendering.
WITHIN_MS = 2_000
LEGEND = [("Bob", 50), ("Ann", 10), ("Cy", 10)]  # highest total first


def live_bid(page: Page, name: str) -> str:
    """The bid a spectator's page shows for ``name`` in the current round."""
    row = page.locator("table.live-round tbody tr").filter(
        has=page.get_by_role("rowheader", name=re.compile(rf"^{name}\b"))
    )
    return row.locator("td.bid").inner_text().strip()


def test_a_bid_shows_on_the_spectators_phone_within_2_s_and_a_quiet_stream_blanks_nothing(
    page: Page, other_page: Page, base_url: str
) -> None:
    game_id = new_game(page, base_url, NAMES, dealer="Ann")
    spectator = other_page
    # The page opens the game's stream as it loads, and holds it.
    with spectator.expect_response(lambda r: bool(STREAM.search(r.url)) and r.status == 200):
        spectator.goto(f"{base_url}/games/{game_id}/view")
    expect(spectator.get_by_role("heading", name="Round 1 of 20")).to_be_visible()
    spectator.wait_for_timeout(1_500)  # three sweeps without a change: nothing is swapped
    expect(spectator.get_by_role("heading", name="Round 1 of 20")).to_be_visible()
    expect(spectator.get_by_role("heading", name="Standings")).to_be_visible()
    expect(spectator.get_by_text("Waiting for the card turned up for trump.")).to_be_visible()

    set_trump(page, "red Dwarves")
    trump_line = spectator.locator(".current .trump-line")
    expect(trump_line).to_contain_text("red Dwarves", timeout=WITHIN_MS)
    # A screen reader hears what changed, from a live region the updates leave in place.
    announced = spectator.locator("#announce[aria-live=polite]")
    expect(announced).to_have_text("Round 1 of 20 The players are bidding.")
    bid(page, "Bob", 1)  # a change within the round: only the round is sent
    expect(spectator.locator("table.live-round tr[data-seat='1'] td.bid")).to_have_text(
        "1", timeout=WITHIN_MS
    )
    assert live_bid(spectator, "Cy") == "–"
    shot(spectator, "spectator")
    # Within a round the page is sent only the round's section and row of the sheet: put in
    # place, the page reads as a reload does.
    followed = spectator.locator("#live").inner_html()
    assert "1/–" in spectator.locator("#round-1").inner_text()
    spectator.reload()
    assert spectator.locator("#live").inner_html() == followed


def test_a_dropped_stream_says_so_and_the_page_catches_up_once_back(
    page: Page, other_page: Page, base_url: str, problems: Problems
) -> None:
    game_id = new_game(page, base_url, NAMES, dealer="Ann")
    spectator = other_page
    with spectator.expect_response(lambda r: bool(STREAM.search(r.url)) and r.status == 200):
        spectator.goto(f"{base_url}/games/{game_id}/view")
    problems.allow(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|network")
    spectator.context.set_offline(True)
    # The stream ends (every 4 s in these tests) and cannot be opened again.
    notice = spectator.locator("#connection")
    expect(notice).to_contain_text(
        "No connection: this page shows what it last received", timeout=10_000
    )
    set_trump(page, "red Dwarves")  # while the spectator's phone is away
    spectator.context.set_offline(False)
    # htmx tries again after 0.5 s, 1 s, 2 s, … at most 10 s apart.
    trump_line = spectator.locator(".current .trump-line")
    expect(trump_line).to_contain_text("red Dwarves", timeout=15_000)
    expect(notice).to_be_hidden()


def test_a_page_refused_a_stream_asks_every_few_seconds_and_says_nothing_alarming(
    page: Page, other_page: Page, base_url: str, problems: Problems
) -> None:
    game_id = new_game(page, base_url, NAMES, dealer="Ann")
    spectator = other_page
    # Every worker holds its ceiling of streams: each ask for one is refused, as the server
    # refuses it (tests/app/test_push.py).
    refusals: list[str] = []

    def full(route: Route) -> None:
        refusals.append(route.request.url)
        body = "<p>This server sends live updates to as many phones as it can.</p>"
        route.fulfill(
            status=503, headers={"Retry-After": "60"}, content_type="text/html", body=body
        )

    spectator.route(STREAM, full)
    problems.allow(r"503|text/event-stream")
    spectator.goto(f"{base_url}/games/{game_id}/view")
    expect(spectator.get_by_role("heading", name="Round 1 of 20")).to_be_visible()
    set_trump(page, "red Dwarves")
    # Asked every 3 s: the change shows within one ask and its rendering.
    trump_line = spectator.locator(".current .trump-line")
    expect(trump_line).to_contain_text("red Dwarves", timeout=5_000)
    bid(page, "Bob", 1)
    expect(spectator.locator("table.live-round tr[data-seat='1'] td.bid")).to_have_text(
        "1", timeout=5_000
    )
    expect(spectator.locator("#connection")).to_be_hidden()
    assert len(refusals) >= 2  # and a stream is asked for again, less often each time
    # Once a stream is let in again (asked for at most a minute apart), the page follows it.
    spectator.unroute(STREAM)
    with spectator.expect_response(
        lambda r: bool(STREAM.search(r.url)) and r.status == 200, timeout=20_000
    ):
        pass
    bid(page, "Cy", 0)
    expect(spectator.locator("table.live-round tr[data-seat='2'] td.bid")).to_have_text(
        "0", timeout=WITHIN_MS
    )


def play_round(
    page: Page, number: int, trump: str, bids: dict[str, int], tricks: dict[str, int]
) -> None:
    """Round ``number`` on the keeper's phone: the trump, the bids in bid order, the
    tricks tapped in (the last filled in from the sum), then scored."""
    set_trump(page, trump)
    for name, value in bids.items():
        bid(page, name, value)
    for name, value in tricks.items():
        tap_tricks(page, name, value)
    score(page, number)


def _chart_totals(page: Page) -> dict[str, int]:
    """Each line's end, read back through the y axis: the total it is drawn at, by name."""
    ticks = page.locator(".chart-svg text.y-tick")
    values = [int(v or 0) for v in ticks.evaluate_all("ts => ts.map(t => t.dataset.value)")]
    ys = [float(y) for y in ticks.evaluate_all("ts => ts.map(t => t.getAttribute('y'))")]
    (v0, y0), (v1, y1) = (values[0], ys[0]), (values[-1], ys[-1])
    lines = page.locator(".chart-svg g.player-line")
    found = {}
    for line in lines.all():
        name = line.get_attribute("data-name") or ""
        points = (line.locator("polyline").get_attribute("points") or "").split()
        y_end = float(points[-1].split(",")[1])
        found[name] = round(v0 + (y_end - y0) * (v1 - v0) / (y1 - y0))
    return found


def test_the_chart_has_a_line_per_player_ending_at_their_totals(
    page: Page, other_page: Page, base_url: str
) -> None:
    game_id = new_game(page, base_url, NAMES, dealer="Ann", rounds="2")
    # Bob +30, Cy +20, Ann +20
    play_round(page, 1, "red Dwarves", bids={"Bob": 1, "Cy": 0, "Ann": 0}, tricks={"Bob": 1})
    other_page.goto(f"{base_url}/games/{game_id}/view")
    assert _chart_totals(other_page) == {"Ann": 20, "Bob": 30, "Cy": 20}

    next_round(page, 2)
    # Cy −10, Ann −10, Bob +20
    bids = {"Cy": 0, "Ann": 2, "Bob": 0}
    play_round(page, 2, "Jester: no trump", bids=bids, tricks={"Cy": 1, "Ann": 1})
    tap(page, page.get_by_role("button", name="See who won"))
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expected = {"Ann": 10, "Bob": 50, "Cy": 10}
    assert _chart_totals(page) == expected
    # Reached by a boosted link, the page still gets the chart's styles: three colours.
    strokes = page.locator(".chart-svg polyline").evaluate_all(
        "lines => lines.map(line => getComputedStyle(line).stroke)"
    )
    assert len(set(strokes)) == 3
    assert "none" not in strokes
    legend = page.locator(".chart-legend li")
    expect(legend).to_have_text(
        [re.compile(r"Bob\s+50"), re.compile(r"Ann\s+10"), re.compile(r"Cy\s+10")]
    )
    chart = page.get_by_role("img", name="The running totals, round by round")
    expect(chart).to_be_visible()
    shot(page, "game-over-chart")

    # The spectator's page follows to the end, and on: a correction of a scored round after
    # the game reaches it too.
    expect(
        other_page.locator("#live").get_by_text("Game over: Bob wins with 50 points!")
    ).to_be_visible(timeout=WITHIN_MS)
    assert _chart_totals(other_page) == expected

    # "Ann made her bid in round 2 after all": Ann 2 tricks (+40), Cy none (+20).
    page.get_by_role("link", name="Correct round 2", exact=True).click()
    expect(page.get_by_role("heading", name="Correct round 2", level=1)).to_be_visible()
    page.get_by_role("radiogroup", name="Ann won").get_by_role("radio", name="2").check()
    page.get_by_role("radiogroup", name="Cy won").get_by_role("radio", name="0").check()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("status")).to_contain_text("Round 2 is corrected")

    expect(
        other_page.locator("#live").get_by_text("Game over: Ann wins with 60 points!")
    ).to_be_visible(timeout=WITHIN_MS)
    expect(other_page.locator(".chart-legend li")).to_have_text(
        [re.compile(r"Ann\s+60"), re.compile(r"Bob\s+50"), re.compile(r"Cy\s+40")]
    )
    assert _chart_totals(other_page) == {"Ann": 60, "Bob": 50, "Cy": 40}
    expect(other_page.locator("table.sheet #round-2 .corrected")).to_have_count(1)
