"""The keeper's wait after a tap on a phone network: Chromium, at phone size, with 300 ms of
round-trip latency emulated (its network conditions), plays rounds on the round screen of a
checkout served by gunicorn on SQLite. Each tap's wait runs, on the page's clock, from the
tap until the next screen is drawn (htmx's last event of a swap); the requests it took are
counted.

``python -m bench.tap_wait [--checkout PATH] [--rounds N]``: PATH another checkout with its
own ``.venv`` (an older commit, to compare). Needs Playwright and Debian's Chromium."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from tests.browser.conftest import CHROMIUM_ARGS

from .server import commit_of, fresh_database, serving

ROOT = Path(__file__).resolve().parents[1]
LATENCY_MS = 300
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
NAMES = ["Ann", "Bob", "Cy"]
WAIT = """
addEventListener("click", () => { window.tapStart = performance.now(); }, true);
document.addEventListener("htmx:after:settle", () => {
  window.tapWait = performance.now() - window.tapStart;
});
"""


def measure(checkout: Path, rounds: int) -> tuple[list[float], list[int]]:
    """Each tap's wait (ms) and request count over ``rounds`` rounds of three players, five
    taps a round (trump, three bids, everyone made it)."""
    # Imported here: `make bench` runs without Playwright's browser too (run() says so).
    from playwright.sync_api import expect, sync_playwright  # noqa: PLC0415

    waits: list[float] = []
    requests: list[int] = []
    with fresh_database(checkout, "sqlite") as url, serving(checkout, url) as server:
        base = f"http://127.0.0.1:{server.port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
            )
            # The page's own clock, from the tap to the next screen drawn (not the driver's).
            context.add_init_script(WAIT)
            page = context.new_page()
            sent: list[str] = []
            # The requests a tap waits for (not the icon a swapped page's head asks again).
            page.on(
                "request",
                lambda request: (
                    sent.append(request.url)
                    if request.resource_type in ("document", "fetch")
                    else None
                ),
            )
            page.goto(base + "/games/new")
            for seat, name in enumerate(NAMES):
                page.locator(f"#names-{seat}").fill(name)
            page.locator("input[name=first_dealer][value='0']").check()
            page.locator("button.wide[name=action][value=start]").click()
            expect(page.get_by_role("heading", name="Round 1 of 20")).to_be_visible()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": LATENCY_MS,
                    "downloadThroughput": -1,
                    "uploadThroughput": -1,
                },
            )

            def tap(selector: str) -> None:
                target = page.locator(selector)
                target.evaluate("element => element.setAttribute('data-tapped', '')")
                sent.clear()
                target.click()
                expect(page.locator("[data-tapped]")).to_have_count(0, timeout=20_000)
                waits.append(page.evaluate("tapWait"))
                requests.append(len(sent))

            for number in range(1, rounds + 1):
                tap("button[name=turned][value=blue]")
                # The first bidder bids every trick, the others none; all make it.
                for offset in range(1, len(NAMES) + 1):
                    seat = (number - 1 + offset) % len(NAMES)
                    tap(f"#seat-{seat} button[value='{number if offset == 1 else 0}']")
                tap("form:has(input[value=all_made]) button")
            browser.close()
    return waits, requests


def run(checkout: Path = ROOT, rounds: int = 3) -> list[tuple[str, str]]:
    if not os.path.isfile(CHROMIUM):
        return [("tap wait at 300 ms latency", f"skipped: no Chromium at {CHROMIUM}")]
    waits, requests = measure(checkout, rounds)
    return [
        (
            f"tap wait at {LATENCY_MS} ms latency ({commit_of(checkout)}, {len(waits)} taps)",
            f"median {statistics.median(waits):.0f} ms, max {max(waits):.0f} ms, "
            f"{statistics.mean(requests):.1f} requests a tap",
        )
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args(argv)
    for what, figure in run(options.checkout.resolve(), options.rounds):
        print(f"{what}: {figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
