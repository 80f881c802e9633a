"""Links to static files with a hash of their content, so browsers may keep them a year and
still fetch a file afresh the moment it changes; and the one bundle: Pico's styles and the
app's, served as one file (``css/site.css``), a request fewer on every page."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Flask, Response, current_app, request, url_for

#: Static files served as one, under a name of their own in ``static/``: a request fewer on
#: every page's first visit (the budget: docs/performance.md). Pico comes first, as it came
#: before the app's styles in two links. ``read.css``: the spectator page's, with the Pico
#: build that leaves out what only forms use (static/vendor/VENDOR.md).
BUNDLES = {
    "css/site.css": ("vendor/pico-2.1.1.min.css", "css/app.css"),
    "css/read.css": ("vendor/pico-2.1.1.read.min.css", "css/app.css"),
}

# The app shell: every static file base.html links, which the service worker keeps for
# offline use (pwa.py). A file linked by the pages belongs here; a test holds them equal.
SHELL = (
    "css/site.css",
    "css/read.css",
    # Linked only by the pages that use them (in their bodies), kept for offline use too.
    "css/history.css",
    "css/live.css",
    "css/referee.css",
    "vendor/htmx-4.0.1.min.js",
    "js/table.js",
    "js/follow.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/apple-touch-icon.png",
)


@cache
def _digest(path: Path) -> str:
    return hashlib.sha256(_read(path)).hexdigest()[:12]


def _read(path: Path) -> bytes:
    """A static file's bytes; a bundle's: its parts, each ending with a line break."""
    name = next((name for name in BUNDLES if path.as_posix().endswith(f"/{name}")), None)
    if name is None:
        return path.read_bytes()
    static = path.parents[name.count("/")]
    return b"".join((static / part).read_bytes().rstrip(b"\n") + b"\n" for part in BUNDLES[name])


def asset_url(filename: str) -> str:
    """The URL of ``static/<filename>`` (or of a bundle) with its content hash."""
    static = Path(current_app.static_folder or "static")
    return url_for("static", filename=filename, v=_digest(static / filename))


def init_app(app: Flask) -> None:
    """Links with content hashes in templates (``asset``); bundles served under ``static/``;
    static files read whole."""
    app.jinja_env.globals["asset"] = asset_url

    def static(filename: str) -> Response:
        if filename not in BUNDLES:
            return app.send_static_file(filename)
        response = Response(
            _read(Path(app.static_folder or "static", filename)), mimetype="text/css"
        )
        response.cache_control.public = True
        response.cache_control.max_age = app.get_send_file_max_age(filename)
        response.add_etag()
        response.make_conditional(request)
        return response

    app.view_functions["static"] = static

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
