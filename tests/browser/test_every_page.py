"""The new-game form's timing in the browser: a double tap on "Start the game" making one
game, and the form keeping every name typed and starting whatever order its answers come
in. Every page's CSP violations and the reload after every form POST are checked in the
walk of every screen (test_qualities.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

if TYPE_CHECKING:
    from .conftest import Problems


@pytest.mark.parametrize("size", [(360, 740), (390, 844)], ids=["360", "390"])
def test_a_double_tap_on_start_makes_one_game(
    page: Page, base_url: str, problems: Problems, size: tuple[int, int]
) -> None:
    # The second tap cancels the navigation the first one started: the browser aborts
    # whatever of it is still on its way (the first POST, the page it leads to, that page's
    # files). What counts is below: one game, its round screen shown.
    problems.allow(r"request failed: .*: net::ERR_ABORTED$")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(base_url + "/games/new")
    for seat, name in enumerate(["Dee", "Eli", "Flo"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    start = page.get_by_role("button", name="Start the game").last
    start.dblclick()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 1 of \d+$"))).to_be_visible()
    page.goto(base_url + "/?q=Dee")
    expect(page.locator("ul.games > li")).to_have_count(1)


def hold_setup_posts(page: Page, which: Callable[[str], bool]) -> list[Route]:
    """Hold back the new-game form's POSTs whose body ``which`` picks (a test answers them
    later, or never); the others go through."""
    held: list[Route] = []

    def route(route: Route) -> None:
        request = route.request
        if request.method == "POST" and which(request.post_data or ""):
            held.append(route)
        else:
            route.continue_()

    page.route("**/games/new", route)
    return held


def refreshes(body: str) -> bool:
    """A name (or round plan) sent on leaving its field, for the form to come back."""
    return "action=refresh" in body


def test_a_late_answer_on_the_new_game_form_never_wipes_a_name_typed_since(
    page: Page, base_url: str
) -> None:
    # Each name sent on leaving its field comes back as the whole form. On a slow phone
    # network the answer for seat 1 can come in after the one for seat 2: held back here,
    # it must not put seat 2 back to empty (the table would then start with a name missing).
    held = hold_setup_posts(page, lambda body: refreshes(body) and "names-1=&" in body)
    page.goto(base_url + "/games/new")
    for seat, name in enumerate(["Dee", "Eli", "Flo"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Seat 3", exact=True).blur()
    page.wait_for_timeout(500)  # time for the later answers to come in first, if sent
    assert len(held) == 1
    held[0].fulfill(response=held[0].fetch())
    for name in ["Dee", "Eli", "Flo"]:
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    for seat, name in enumerate(["Dee", "Eli", "Flo"], start=1):
        expect(page.get_by_label(f"Seat {seat}", exact=True)).to_have_value(name)


def test_a_refused_refresh_keeps_the_new_game_form_and_says_why(
    page: Page, base_url: str, problems: Problems
) -> None:
    # The browser's session is lost (cookies cleared), so the next name sent is refused as a
    # page too old to send (400): the form stays as typed, and the refusal is said.
    problems.allow(r"^console error: Failed to load resource: .* status of 400 ")
    page.goto(base_url + "/games/new")
    page.get_by_label("Seat 1", exact=True).fill("Dee")
    page.get_by_label("Seat 1", exact=True).blur()
    expect(page.get_by_role("radio", name="Dee", exact=True)).to_be_visible()
    page.context.clear_cookies()
    page.get_by_label("Seat 2", exact=True).fill("Eli")
    page.get_by_label("Seat 2", exact=True).blur()
    expect(page.locator("#connection")).to_have_text(re.compile(r"^This page was too old"))
    expect(page.get_by_role("heading", name="New game", level=1)).to_be_visible()
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value("Dee")
    expect(page.get_by_label("Seat 2", exact=True)).to_have_value("Eli")


def test_start_goes_through_while_a_name_is_still_on_its_way(
    page: Page, base_url: str, problems: Problems
) -> None:
    # Tapping "Start the game" straight after typing the last name sends that name first (the
    # field is left). On a slow network its answer is still out when Start is tapped: the
    # start must not wait behind it, nor be dropped. Here the names' answers never come.
    problems.allow(r"request failed: POST .*/games/new: net::ERR_ABORTED$")
    held = hold_setup_posts(page, refreshes)
    page.goto(base_url + "/games/new")
    for seat, name in enumerate(["Gus", "Hal", "Ida"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").last.click()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 1 of \d+$"))).to_be_visible()
    assert held, "the names were sent on leaving their fields"


def test_a_name_changed_while_start_is_on_its_way_is_not_sent_after_it(
    page: Page, base_url: str
) -> None:
    # On a slow network the form stays in view after "Start the game" is tapped. A name
    # changed then waits behind the start; once the game's page has replaced the form, it
    # must not be sent, or the next new-game form would come back "as you left it".
    page.goto(base_url + "/games/new")
    for seat, name in enumerate(["Jo", "Kai", "Lu"], start=1):
        field = page.get_by_label(f"Seat {seat}", exact=True)
        field.fill(name)
        field.blur()
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    starts = hold_setup_posts(page, lambda body: not refreshes(body))
    names_sent: list[str] = []
    page.on(
        "request",
        lambda request: refreshes(request.post_data or "") and names_sent.append(request.url),
    )
    page.get_by_role("button", name="Start the game").last.click()
    page.get_by_label("Seat 1", exact=True).fill("Joe")
    page.get_by_label("Seat 1", exact=True).blur()
    for _ in range(50):  # the start reaches the route while Playwright handles events
        if starts:
            break
        page.wait_for_timeout(100)
    assert len(starts) == 1
    starts[0].continue_()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 1 of \d+$"))).to_be_visible()
    page.wait_for_timeout(500)  # time for a name waiting behind the start to be sent, if it is
    assert names_sent == []
    page.unroute("**/games/new")
    page.goto(base_url + "/games/new")
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value("")
    expect(page.get_by_text("Filled in as you left it on this phone.")).to_have_count(0)


def test_the_new_game_form_takes_no_tap_while_one_of_its_buttons_is_on_its_way(
    page: Page, base_url: str
) -> None:
    # A seat's button (add, remove, move up) comes back as the whole form, with the names as
    # they were sent. On a slow network a name typed meanwhile would be lost, and a second
    # button tapped would cancel the first: until the answer is in, the form takes no tap.
    page.goto(base_url + "/games/new")
    seat_one = page.get_by_label("Seat 1", exact=True)
    seat_one.fill("Mo")
    seat_one.blur()
    expect(page.get_by_role("radio", name="Mo", exact=True)).to_be_visible()
    adds = hold_setup_posts(page, lambda body: "action=add" in body)
    page.get_by_role("button", name="Add a player").click()
    page.wait_for_timeout(300)  # the tap's answer is held: the form shows it is busy
    assert len(adds) == 1
    with pytest.raises(PlaywrightTimeout):
        page.get_by_label("Seat 2", exact=True).click(trial=True, timeout=1000)
    with pytest.raises(PlaywrightTimeout):
        page.get_by_role("button", name="Move seat 3 up").click(trial=True, timeout=1000)
    adds[0].continue_()
    expect(page.get_by_label("Seat 4", exact=True)).to_be_visible()
    page.get_by_label("Seat 2", exact=True).click(trial=True)
    expect(seat_one).to_have_value("Mo")
