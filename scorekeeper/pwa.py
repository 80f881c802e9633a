"""The app on a phone's home screen: the manifest, the offline page, and the service worker,
rendered so that it keeps the pages' very links and its version changes with any of them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask_babel import force_locale
from markupsafe import escape
from werkzeug.wrappers import Response as BaseResponse

from . import assets
from .i18n import current_locale, gettext

bp = Blueprint("pwa", __name__)

#: The icons a phone may put on its home screen: file, size, purpose.
ICONS = (
    ("icons/icon-192.png", 192, "any"),
    ("icons/icon-512.png", 512, "any"),
    ("icons/icon-maskable-192.png", 192, "maskable"),
    ("icons/icon-maskable-512.png", 512, "maskable"),
)
NO_CACHE = {"Cache-Control": "no-cache"}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: name, icons, standalone display."""
    name = gettext("Tablet of Truth")
    document = {
        "name": name,
        "short_name": name,
        "description": gettext("The scorekeeping companion for the card game Wizard."),
        "lang": current_locale(),
        "start_url": url_for("history.home"),
        "scope": url_for("history.home"),
        "display": "standalone",
        "orientation": "portrait",
        # Pico's page background (the splash screen) and the icon's (the browser's bar).
        "background_color": "#ffffff",
        "theme_color": "#1b2a4a",
        "icons": [
            {
                "src": assets.asset_url(filename),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for filename, size, purpose in ICONS
        ],
    }
    body = json.dumps(document, ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/manifest+json", headers=NO_CACHE)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker: keeps the app shell, fetches pages network-first."""
    shell = shell_urls()
    kept = kept_notices()
    body = render_template(
        "sw.js", version=_version(shell), shell=shell, offline=url_for(".offline"), kept=kept
    )
    # Browsers check for a new worker at least daily; no-cache makes every check real.
    headers = NO_CACHE | {"Service-Worker-Allowed": "/"}
    return Response(body, mimetype="text/javascript", headers=headers)


def kept_notices() -> dict[str, str]:
    """By language, the HTML notice the worker writes into a page it answers from its copy."""
    notices = {}
    for language in current_app.config["LANGUAGES"]:
        with force_locale(language):
            sentence = gettext(
                "No connection: this is the copy this phone kept from the last visit; "
                "reload once the phone is back online."
            )
        notices[language] = str(escape(sentence))
    return notices


def shell_urls() -> list[str]:
    """The app shell: the static files the pages link (with hashes), manifest, offline page."""
    return [
        *(assets.asset_url(filename) for filename in assets.SHELL),
        url_for(".manifest"),
        url_for(".offline"),
    ]


def _version(shell: list[str]) -> str:
    """Changes with any file of the shell, the worker's own code or the offline page."""
    digest = hashlib.sha256("\n".join(shell).encode())
    templates = Path(current_app.root_path, current_app.template_folder or "templates")
    for name in ("sw.js", "offline.html", "base.html"):
        digest.update((templates / name).read_bytes())
    return digest.hexdigest()[:16]


@bp.get("/offline")
def offline() -> BaseResponse:
    """What the worker shows offline for a page it never kept; opened as a page (an older
    worker let htmx write /offline in the address bar), the home page instead."""
    if request.headers.get("Sec-Fetch-Mode") == "navigate":
        return redirect(url_for("history.home"), 303)
    response = Response(render_template("offline.html"), headers=NO_CACHE)
    response.vary.add("Sec-Fetch-Mode")  # a page load is sent home instead
    return response
