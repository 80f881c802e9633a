"""Links to static files with a hash of their content, so browsers may keep them a year and
still fetch a file afresh the moment it changes."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Flask, Response, current_app, request, url_for

# The app shell: every static file base.html links, which the service worker keeps for
# offline use (pwa.py). A file linked by the pages belongs here; a test holds them equal.
SHELL = (
    "vendor/pico-2.1.1.min.css",
    "css/app.css",
    # Linked only by the pages that use them (in their bodies), kept for offline use too.
    "css/history.css",
    "css/live.css",
    "css/referee.css",
    "vendor/htmx-4.0.1.min.js",
    "js/table.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/apple-touch-icon.png",
)


@cache
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def asset_url(filename: str) -> str:
    """The URL of ``static/<filename>`` with its content hash."""
    static = Path(current_app.static_folder or "static")
    return url_for("static", filename=filename, v=_digest(static / filename))


def init_app(app: Flask) -> None:
    """Links with content hashes in templates (``asset``); static files read whole."""
    app.jinja_env.globals["asset"] = asset_url

    # Static files (a few dozen KB) are read whole and closed, so Flask-Compress, which leaves
    # a streamed body alone, compresses them. Registered after it, so it runs before it.
    @app.after_request
    def read_whole(response: Response) -> Response:
        if request.endpoint != "static" or not response.direct_passthrough:
            return response
        body = response.response
        try:
            data = b"".join(body)  # type: ignore[arg-type]
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        response.direct_passthrough = False
        response.set_data(data)
        return response
