"""The app on a phone's home screen: the web app manifest, the service worker, the offline
page.

The service worker is rendered by a route, so its list of files to keep (the app shell) is
made of the very links the pages use (:data:`assets.SHELL`, with their content hashes), and
its version changes whenever one of them does: a deploy replaces the old worker and its
cache. It is served from the root, so its scope is the whole app.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import (
    Blueprint,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale, get_locale
from markupsafe import escape
from werkzeug.wrappers import Response

from . import assets
from .i18n import gettext

bp = Blueprint("pwa", __name__)

# Pico's page background, light and dark: the colour of the browser's bar and splash screen.
THEME_LIGHT = "#ffffff"
THEME_DARK = "#13171f"
ICON_BACKGROUND = "#1b2a4a"
MANIFEST_TYPE = "application/manifest+json"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: name, icons, standalone display."""
    name = gettext("Tablet of Truth")
    body = {
        "name": name,
        "short_name": name,
        "description": gettext("The scorekeeping companion for the card game Wizard."),
        "lang": str(get_locale() or "en"),
        "start_url": url_for("history.home"),
        "scope": url_for("history.home"),
        "display": "standalone",
        "orientation": "portrait",
        "background_color": THEME_LIGHT,
        "theme_color": ICON_BACKGROUND,
        "icons": [
            _icon("icons/icon-192.png", 192, "any"),
            _icon("icons/icon-512.png", 512, "any"),
            _icon("icons/icon-maskable-192.png", 192, "maskable"),
            _icon("icons/icon-maskable-512.png", 512, "maskable"),
        ],
    }
    response = make_response(json.dumps(body, ensure_ascii=False, indent=1))
    response.mimetype = MANIFEST_TYPE
    response.headers["Cache-Control"] = "no-cache"
    return response


def _icon(filename: str, size: int, purpose: str) -> dict[str, str]:
    return {
        "src": assets.asset_url(filename),
        "sizes": f"{size}x{size}",
        "type": "image/png",
        "purpose": purpose,
    }


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker: keeps the app shell, fetches pages network-first."""
    shell = shell_urls()
    offline_url = url_for(".offline")
    body = render_template(
        "sw.js",
        version=_version(shell),
        shell=shell,
        offline=offline_url,
        kept=kept_notices(),
    )
    response = make_response(body)
    response.mimetype = "text/javascript"
    # Browsers check for a new worker at least daily; no-cache makes every check real.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


def kept_notices() -> dict[str, str]:
    """The sentence a page answered offline from the phone's copy shows, as HTML, by
    language: the worker writes it into the page's notice, in the page's language."""
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
    """The app shell: every static file the pages link (with its hash), the manifest and the
    offline page."""
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
def offline() -> Response:
    """What the service worker shows for a page it never kept, while the phone is offline.

    Opened as a page, the server answering, it would say the phone is offline: it leads to
    the home page instead. (An older worker let htmx write /offline in the address bar; a
    phone that kept that address reloads it once back online.) The worker fetches it to
    keep, not as a page.
    """
    if request.headers.get("Sec-Fetch-Mode") == "navigate":
        return redirect(url_for("history.home"), 303)
    response = make_response(render_template("offline.html"))
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Sec-Fetch-Mode")  # a page load is sent home instead
    return response
