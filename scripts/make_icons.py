"""Render the app's icons (static/icons/*.png) from their SVG sources with Chromium.

Run once after changing an SVG, and commit the PNGs:

    .venv/bin/python scripts/make_icons.py

It drives Debian's Chromium (``$CHROMIUM``, default ``/usr/bin/chromium``) with Playwright,
as the browser tests do; Playwright's own browser download is never used.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
# (source, size, target): "any" icons keep their rounded corners; maskable ones fill the
# square (the platform cuts its own shape) and the home-screen icon of iOS may not be clear.
RENDERS = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 192, "icon-maskable-192.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon-maskable.svg", 180, "apple-touch-icon.png"),
]
PAGE = """<!doctype html><html><head><style>
html,body{margin:0;background:transparent}img{display:block;width:%(size)dpx;height:%(size)dpx}
</style></head><body><img src="data:image/svg+xml;base64,%(svg)s"></body></html>"""


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        try:
            for source, size, target in RENDERS:
                svg = base64.b64encode((ICONS / source).read_bytes()).decode()
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(PAGE % {"size": size, "svg": svg})
                page.locator("img").screenshot(path=str(ICONS / target), omit_background=True)
                page.close()
                print(f"{target}: {size}×{size} from {source}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
