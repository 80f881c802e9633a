"""What the page areas share: this browser's key, the page blueprint, the edit check,
the helpers every template gets, and the error page.

Every write is a POST with a CSRF token and the version of the game the page showed, answered
with a redirect (a reload never sends it twice; a round screen's tap sent by htmx gets the next
screen itself) or with the page and the refusal beside the control. A keeper is known by a
random browser key in the signed, HttpOnly, SameSite=Lax session cookie; the database keeps
only its hash."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from .. import errors, i18n, security
from ..i18n import gettext, rule_message, service_message
from ..rules.messages import RuleError
from ..services import games, sharing
from . import screens, tally

# The session's key stays "device": phones that keep score carry it, and a new one ends their right.
BROWSER_KEY = "device"
BROWSER_KEY_BYTES = 32

Page = Response | str


def page_blueprint(name: str, import_name: str) -> Blueprint:
    """A blueprint of pages: every answer it gives is fetched afresh by the back button, and
    every template it renders gets the helpers."""
    bp = Blueprint(name, import_name)
    bp.after_request(no_store)
    bp.context_processor(helpers)
    return bp


# -- The browser ---------------------------------------------------------------------------


def current_browser(*, create: bool = False) -> sharing.Browser | None:
    """This browser, by the key in its session cookie. With ``create`` (it is about to
    become a keeper, or may), it is made if missing, and the cookie is sent again, to be
    kept for another ``PERMANENT_SESSION_LIFETIME``."""
    key = session.get(BROWSER_KEY)
    if create:
        if not isinstance(key, str) or not key:
            key = secrets.token_urlsafe(BROWSER_KEY_BYTES)
            session[BROWSER_KEY] = key
        session.permanent = True  # marks the session changed: the cookie goes out again
    elif not isinstance(key, str) or not key:
        return None
    return sharing.Browser(key)


def no_store(response: Response) -> Response:
    """Pages show live state: the back button fetches them afresh, never a stale copy."""
    response.headers.setdefault("Cache-Control", "no-store")
    return response


#: The session's key for the language chosen in the menu (the factory's locale selector reads it).
LANGUAGE_KEY = "language"


def local_path(target: str) -> str | None:
    """``target`` when it is a path on this site, else ``None``: it starts with one "/"
    and holds no backslash, space or control character (a browser drops a tab or a newline
    and reads a backslash as "/", so "/", a tab, "/evil.example/" would be another site)."""
    if (
        target.startswith("/")
        and not target.startswith("//")
        and "\\" not in target
        and target.isprintable()
        and not any(character.isspace() for character in target)
    ):
        return target
    return None


def back_to(default: str) -> Response:
    """A redirect to the form's ``next`` when it is a path on this site, else to ``default``."""
    return redirect(local_path(request.form.get("next", "")) or default, 303)


def keeps_score(game_id: str) -> bool:
    """Whether this browser keeps the score of ``game_id``."""
    return sharing.is_keeper(game_id, current_browser())


def helpers() -> dict[str, Any]:
    """The functions the page templates lay a game out with."""
    return {
        "trump_label": screens.trump_label,
        "suit_label": i18n.suit_label,
        "symbols": screens.SUIT_SYMBOLS,
        "leaders": screens.leaders,
        "signed": i18n.signed,
        "points": i18n.number,
        "winner_names": screens.winner_names,
        "sheet_rows": screens.sheet_rows,
        "standings_after": screens.standings_after,
        "score_chart": screens.score_chart,
        "variant_summary": screens.variant_summary,
        "tally_board": tally.board,
    }


# -- Errors --------------------------------------------------------------------------------


def error_page(error: Exception) -> Response:
    """An error as a page: one plain sentence and a way on."""
    status = 500
    message = gettext("Something went wrong on the server, and nothing was changed.")
    headers: Mapping[str, str] = {}  # a refusal's own, such as its Retry-After
    if isinstance(error, CSRFError):
        status = 400
        message = gettext(
            "This page was too old to send, so nothing was saved: reload it and tap again."
        )
    elif isinstance(error, errors.StaleVersion):
        return _stale()
    elif isinstance(error, errors.KeeperReplaced):
        # Not a dead end: the page to take the game back on, which also leads to following it.
        flash(service_message(error), "error")
        return redirect(url_for("sharing.keep_score", game_id=error.game_id), 303)
    elif isinstance(error, errors.ServiceError):
        # A page asks for no bearer token, so a missing right is 403 there, not 401.
        status = 403 if error.status == 401 else error.status
        message = service_message(error)
        headers = error.headers
    elif isinstance(error, RuleError):
        status = 422
        message = rule_message(error)
    elif isinstance(error, DBAPIError) and (unavailable := i18n.unavailable_message(error)):
        status = 503
        message = unavailable
        current_app.logger.warning("database unavailable: %s", error)  # as the API logs it
    elif isinstance(error, HTTPException) and (error.code or 500) < 500:
        status = error.code or 500
        message = {
            404: gettext("There is no page at this address."),
            405: gettext("This page cannot be sent that way."),
            413: gettext("That was more than this page ever sends."),
            429: security.wait_message(),
        }.get(status, gettext("This request cannot be handled as it was sent."))
    body = render_template("error.html", message=message, status=status)
    response = make_response(body, status)
    response.headers.update(headers)
    if status == 503 and "Retry-After" not in response.headers:
        response.headers["Retry-After"] = "1"  # as the API says it (api/problems.py)
    return response


def _stale() -> Response:
    """Another phone wrote first: say so, and show the game as it is now (the round screen's
    actions show it themselves, with their 412)."""
    flash_stale()
    args = request.view_args or {}
    games.get_game(args.get("game_id", ""))
    if args.get("number") is None:
        return redirect(url_for("games.game", game_id=args.get("game_id", "")), 303)
    return redirect(url_for(request.endpoint or "games.game", **args), 303)


def flash_stale() -> None:
    """Say that another phone wrote first, so the tap was not saved."""
    flash(
        gettext(
            "This game was changed a moment ago (on another phone or screen, or by a tap whose "
            "answer never came), so your tap was not saved: here is the game as it is now."
        ),
        "error",
    )
