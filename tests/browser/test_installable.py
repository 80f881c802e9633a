"""The app as a phone installs it: the service worker registers, the pages open offline from
the phone's copy (or the offline page), and the screen stays on during a round. The
manifest's words are checked in tests/pages/test_pwa.py."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect

from .conftest import PHONE
from .helpers import (
    bid,
    new_game,
    open_sheet,
    score,
    set_trump,
    tap,
    tricks,
    wait_for_the_service_worker,
)

if TYPE_CHECKING:
    from .conftest import Problems


def test_the_service_worker_registers_for_the_whole_app(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    assert wait_for_the_service_worker(page) == base_url + "/"
    shell = page.evaluate(
        """async () => {
          const names = await caches.keys();
          const shell = await caches.open(names.find((name) => name.startsWith("shell-")));
          return (await shell.keys()).map((request) => new URL(request.url).pathname
            + new URL(request.url).search);
        }"""
    )
    # The shell holds the very files the page links, with their content hashes.
    linked = page.evaluate(
        """() => [...document.querySelectorAll(
            "link[rel=stylesheet], script[src], link[rel=icon], link[rel=apple-touch-icon]")]
          .map((el) => new URL(el.href || el.src).pathname + new URL(el.href || el.src).search)"""
    )
    assert set(linked) <= set(shell)
    assert "/offline" in shell


def test_offline_a_visited_page_opens_from_the_phone_and_another_says_offline(
    page: Page, base_url: str, problems: Problems
) -> None:
    problems.allow(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED")
    page.goto(base_url + "/")
    wait_for_the_service_worker(page)
    game = new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    set_trump(page, "red Dwarves")
    page.reload()
    expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.get_by_role("heading", name="Round 1 of 20")).to_be_visible()
        expect(page.get_by_role("heading", name="Bids", exact=True)).to_be_visible()
        # Styled from the phone's copy of the app shell, as online.
        assert page.evaluate("getComputedStyle(document.querySelector('.brand')).fontWeight")
        assert page.evaluate("document.styleSheets.length") >= 1
        page.goto(f"{base_url}/games/{game}/sheet")
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page).to_have_url(f"{base_url}/games/{game}/sheet")
        expect(page.get_by_role("button", name="To your games")).to_be_visible()
    finally:
        page.context.set_offline(False)
    # Back online, the page comes from the server again.
    page.goto(f"{base_url}/games/{game}/sheet")
    expect(page.get_by_role("heading", name="The Tablet of Truth")).to_be_visible()


def test_offline_a_link_to_a_page_never_kept_keeps_its_address_for_a_reload_online(
    page: Page, base_url: str, problems: Problems
) -> None:
    """The offline page answers at the address of the page asked for (htmx follows the link
    and writes the answer's URL in the address bar), so the reload it advises brings that
    page once the phone is online again, not the offline page once more."""
    problems.allow(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED")
    page.goto(base_url + "/")
    wait_for_the_service_worker(page)
    game = new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    page.context.set_offline(True)
    page.get_by_role("banner").get_by_role("link", name="Sheet", exact=True).click()
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page).to_have_url(f"{base_url}/games/{game}/sheet")
    page.context.set_offline(False)
    page.reload()
    expect(page.get_by_role("heading", name="The Tablet of Truth", level=1)).to_be_visible()


KEPT_COPY = (
    "No connection: this is the copy this phone kept from the last visit; "
    "reload once the phone is back online."
)


def test_offline_a_page_from_the_phones_copy_says_so(
    page: Page, base_url: str, problems: Problems
) -> None:
    """The sheet kept from a visit before the trump was set, opened offline by its link
    (htmx) and by a reload: the notice says it is the phone's copy; back online, the page
    from the server shows no notice."""
    problems.allow(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED")
    page.goto(base_url + "/")
    wait_for_the_service_worker(page)
    game = new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    notice = page.locator("#connection")
    open_sheet(page)
    expect(notice).to_be_hidden()
    page.goto(f"{base_url}/games/{game}/rounds/1")
    set_trump(page, "red Dwarves")
    page.context.set_offline(True)
    open_sheet(page)
    expect(notice).to_have_text(KEPT_COPY)
    expect(notice).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="The Tablet of Truth", level=1)).to_be_visible()
    expect(notice).to_have_text(KEPT_COPY)
    expect(notice).to_be_visible()
    page.context.set_offline(False)
    page.reload()
    expect(page.get_by_role("heading", name="The Tablet of Truth", level=1)).to_be_visible()
    expect(notice).to_be_hidden()


def test_offline_a_german_round_screen_from_the_phones_copy_says_so_and_covers_nothing(
    page: Page, base_url: str, problems: Problems
) -> None:
    """In German (longer words), on the walkthrough's phone (360×740), six players: the
    notice says it in German, and the page's last button scrolls up above it."""
    problems.allow(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR_FAILED")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(base_url + "/")
    wait_for_the_service_worker(page)
    new_game(page, base_url, ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"], dealer="Ann")
    set_trump(page, "red Dwarves")
    tap(page, page.get_by_role("button", name="Deutsch"))
    expect(page.get_by_role("heading", name="Ansagen", exact=True)).to_be_visible()
    page.context.set_offline(True)
    page.reload()
    notice = page.locator("#connection")
    expect(notice).to_have_text(
        "Keine Verbindung: Das ist die gespeicherte Kopie vom letzten Besuch; lade die Seite "
        "neu, sobald das Handy wieder online ist."
    )
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator("main button").last.bounding_box()
    assert last is not None
    assert last["y"] + last["height"] <= notice.bounding_box()["y"]


def test_the_offline_page_opened_online_leads_to_the_home_page(page: Page, base_url: str) -> None:
    """An address bar left at /offline (where an older worker let htmx put it), reloaded
    once online, shows the home page, not the offline page's claim that the phone is
    offline."""
    page.goto(base_url + "/")
    wait_for_the_service_worker(page)
    page.goto(base_url + "/offline")
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    expect(page).to_have_url(base_url + "/")


WAKE_LOCK_STUB = """
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request: async (type) => {
    const sentinel = new EventTarget();
    sentinel.released = false;
    sentinel.release = async () => {
      sentinel.released = true;
      sentinel.dispatchEvent(new Event("release"));
    };
    window.wakeLocks.push({type, sentinel});
    return sentinel;
  },
}});
"""

HELD = "window.wakeLocks.filter((lock) => !lock.sentinel.released).map((lock) => lock.type)"


def test_the_screen_stays_on_while_a_round_is_in_progress(page: Page, base_url: str) -> None:
    page.context.add_init_script(WAKE_LOCK_STUB)
    page.goto(base_url + "/")
    assert page.evaluate(HELD) == []
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann", rounds="1")
    page.wait_for_function(f"{HELD}.length === 1")
    assert page.evaluate(HELD) == ["screen"]
    set_trump(page, "blue Humans")
    for name in ("Bob", "Cy", "Ann"):
        bid(page, name, 0)
    tricks(page, "Bob", 1)
    assert page.evaluate(HELD) == ["screen"], "one lock, kept through the taps"
    score(page, 1)
    # The round is over: the screen may sleep again.
    page.wait_for_function(f"{HELD}.length === 0")


def test_a_tap_without_a_connection_says_it_may_not_be_saved(
    page: Page, base_url: str, problems: Problems
) -> None:
    problems.allow(r"request failed: POST .*/rounds/1")
    problems.allow(r"Failed to fetch|ERR_INTERNET_DISCONNECTED")
    new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
    set_trump(page, "blue Humans")
    page.context.set_offline(True)
    page.get_by_role("button", name="Bob bids 1", exact=True).click()
    notice = page.locator("#connection")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(
        "No connection, so that tap might not have been saved: tap again once the phone is back "
        "online."
    )
    # The notice covers nothing for good: the page's last button scrolls up above it, on a
    # screen too short for the whole page.
    page.set_viewport_size({"width": 390, "height": 480})
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator("main button").last
    assert last.bounding_box()["y"] + last.bounding_box()["height"] <= notice.bounding_box()["y"]
    # Back online, the notice goes: it no longer covers the row to tap again.
    page.context.set_offline(False)
    expect(notice).to_be_hidden()
    bid(page, "Bob", 1)
    page.reload()
    expect(page.get_by_role("button", name="Bob bids 1", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )


def test_a_rounds_history_shows_its_times_in_the_phones_zone_and_language(
    browser: Browser, base_url: str
) -> None:
    phone = {**PHONE, "locale": "de-DE", "timezone_id": "Pacific/Auckland"}
    context = browser.new_context(**phone)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(base_url + "/")
        tap(page, page.get_by_role("button", name="English"))
        game_id = new_game(page, base_url, ["Ann", "Bob", "Cy"], dealer="Ann")
        set_trump(page, "blue Humans")
        tap(page, page.get_by_role("button", name="Deutsch"))
        page.goto(f"{base_url}/games/{game_id}/rounds/1/history")
        time = page.locator("time[data-local]").first
        written = time.get_attribute("datetime")
        assert written is not None
        local = datetime.fromisoformat(written).astimezone(ZoneInfo("Pacific/Auckland"))
        expect(time).to_have_text(f"{local:%d.%m.%Y}, {local:%H:%M}")
    finally:
        context.close()
