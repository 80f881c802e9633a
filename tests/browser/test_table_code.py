"""The table code in the browser, at 360×740 and 390×844: the scorekeeper's phone loses its data,
another phone that follows the game enters the code its screen showed and keeps the score;
a wrong code is refused, and after a game's allowance of wrong codes every code is."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from scorekeeper.services.table_codes import GUESSES_PER_WINDOW

from .helpers import expect_fits_the_phone, new_game, set_trump, shot

SIZES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]


def keep_score(page: Page, code: str, *, opened: bool = False) -> None:
    """Enter ``code`` on the "Keep score on this phone" page (opened first from the spectator
    page) and wait for the page the answer leads to."""
    if not opened:
        page.get_by_role("link", name="Keep score on this phone").click()
    page.get_by_label("The table code, from the scorekeeper's screen").fill(code)
    with page.expect_response(lambda r: r.request.method == "GET" and "/games/" in r.url):
        page.get_by_role("button", name="Keep score on this phone").click()


@pytest.mark.parametrize("size", SIZES, ids=["360", "390"])
def test_a_follower_takes_over_after_the_keepers_cookies_are_cleared(
    page: Page, other_page: Page, base_url: str, size: dict[str, int]
) -> None:
    page.set_viewport_size(size)
    other_page.set_viewport_size(size)
    game_id = new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    code = page.locator("#table-code").inner_text()
    assert re.fullmatch(r"\d{4} \d{4}", code)
    expect(page.locator("#table-code")).to_be_visible()
    expect_fits_the_phone(page)
    shot(page, f"table-code-round-{size['width']}")
    other_page.goto(f"{base_url}/games/{game_id}/view")

    page.context.clear_cookies()  # the scorekeeper's phone loses its data
    page.goto(f"{base_url}/games/{game_id}")
    expect(page).to_have_url(re.compile(r"/view$"))  # now only a follower

    keep_score(other_page, code.replace(" ", ""))
    expect(other_page.get_by_text("This phone keeps the score of this game now.")).to_be_visible()
    expect(other_page.get_by_role("heading", name=re.compile(r"^Round 1 of"))).to_be_visible()
    expect(other_page.locator("#table-code")).to_have_text(code)
    set_trump(other_page, "blue Humans")  # and it records
    shot(other_page, f"table-code-taken-over-{size['width']}")


@pytest.mark.parametrize("size", SIZES, ids=["360", "390"])
def test_a_wrong_code_is_refused_then_the_game_takes_no_more(
    page: Page, other_page: Page, base_url: str, size: dict[str, int]
) -> None:
    page.set_viewport_size(size)
    other_page.set_viewport_size(size)
    game_id = new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    code = page.locator("#table-code").inner_text().replace(" ", "")
    wrong = f"{(int(code) + 1) % 10**8:08d}"
    other_page.goto(f"{base_url}/games/{game_id}/view")
    keep_score(other_page, wrong)
    expect(other_page.get_by_role("alert")).to_contain_text(
        "This is not the table code of this game"
    )
    expect_fits_the_phone(other_page)
    for _ in range(GUESSES_PER_WINDOW - 1):
        keep_score(other_page, wrong, opened=True)
        expect(other_page.get_by_role("alert")).to_contain_text("not the table code")
    keep_score(other_page, code, opened=True)
    expect(other_page.get_by_role("alert")).to_contain_text(
        "Too many wrong table codes were entered for this game"
    )
    shot(other_page, f"table-code-limited-{size['width']}")
    other_page.goto(f"{base_url}/games/{game_id}")
    expect(other_page).to_have_url(re.compile(r"/view$"))
