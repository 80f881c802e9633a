"""The pages that share a game: the invitation (the view link and its QR code), handing the
scorekeeping over to another phone or taking it back, and the table code."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import ngettext
from sqlalchemy.exc import DBAPIError
from werkzeug.wrappers import Response

from .. import errors, qr, security
from ..database import is_read_only
from ..i18n import gettext, service_message
from ..services import games, loading, sharing, table_codes
from .common import Page, current_browser, page_blueprint

bp = page_blueprint("sharing", __name__)


HANDOVER_KEY = "handover"
#: The session's table codes this browser knows, by game: only a hash is stored, so the
#: browser that made (or entered) a code is the one that can show it.
CODES_KEY = "table_codes"
#: Games whose code the session remembers (the newest).
CODES_KEPT = 8
#: The hand-over link this browser made last, shown on the invite page while it works.
MADE_KEY = "handover_made"


@bp.get("/games/<game_id>/share")
def share(game_id: str) -> Page:
    """Invite the table (the view link and its QR code); for the scorekeeper also handing the
    scorekeeping over to another phone, and taking it back from every other phone."""
    return _render_share(games.get_game(game_id), handover_link=_made_link(game_id))


@bp.post("/games/<game_id>/handover")
@security.limited("RATELIMIT_HAND_OVER", spent=security.succeeded)
def create_handover(game_id: str) -> Page:
    """Make a one-time link (15 minutes) that hands scorekeeping over to another phone. The
    server keeps only its hash; the link itself goes back to the invite page in this
    browser's signed session, so that page reloads cleanly and shows it while it works."""
    token = sharing.create_handover(game_id, current_browser())
    session[MADE_KEY] = {"game": game_id, "token": token}
    return redirect(url_for(".share", game_id=game_id), 303)


def _made_link(game_id: str) -> str | None:
    """The hand-over link this browser made for ``game_id``, while it still works."""
    made = session.get(MADE_KEY)
    if not isinstance(made, dict) or made.get("game") != game_id:
        return None
    token = made.get("token")
    try:
        if not isinstance(token, str) or sharing.handover_game(token).id != game_id:
            raise errors.HandoverInvalid()
    except errors.HandoverInvalid:
        session.pop(MADE_KEY, None)
        return None
    return url_for(".handover", token=token, _external=True)


def _render_share(snapshot: loading.GameSnapshot, handover_link: str | None = None) -> Page:
    browser = current_browser()
    keeper = sharing.is_keeper(snapshot.id, browser)
    view_link = url_for("games.spectate", game_id=snapshot.id, _external=True)
    return render_template(
        "share.html",
        game=snapshot,
        keeper=keeper,
        view_link=view_link,
        view_qr=qr.qr_svg(view_link, gettext("QR code of the link to follow the game")),
        handover_link=handover_link,
        handover_qr=qr.qr_svg(handover_link, gettext("QR code of the hand-over link"))
        if handover_link
        else None,
        minutes=sharing.HANDOVER_MINUTES,
        others=sharing.other_keepers(snapshot.id, browser) if keeper else 0,
        open_links=sharing.open_handovers(snapshot.id) if keeper else 0,
        guesses=table_codes.GUESSES_PER_WINDOW,
    )


@bp.post("/games/<game_id>/revoke")
def revoke(game_id: str) -> Response:
    """Take the right to keep score from every other phone (and void unused hand-over links)."""
    count = sharing.revoke_other_keepers(game_id, current_browser())
    flash(
        ngettext(
            "%(num)d other phone can no longer keep score.",
            "%(num)d other phones can no longer keep score.",
            count,
        )
    )
    return redirect(url_for(".share", game_id=game_id), 303)


@bp.get("/handover/<token>")
def handover(token: str) -> Response:
    """A hand-over link: its token goes into this browser's signed session, and the address
    bar (and history) get a clean address without it. Nothing is used up yet: a link preview
    fetching this address takes nothing away."""
    session[HANDOVER_KEY] = token[:100]
    return redirect(url_for(".take_over"), 303)


@bp.route("/handover", methods=["GET", "POST"])
@security.limited("RATELIMIT_HAND_OVER", methods=["POST"], spent=security.succeeded)
def take_over() -> Page:
    """Asks before this phone takes over the scorekeeping; the tap uses the link up."""
    token = session.get(HANDOVER_KEY)
    try:
        if not isinstance(token, str) or not token:
            raise errors.HandoverInvalid()
        if request.method == "GET":
            return render_template("handover.html", game=sharing.handover_game(token))
        browser = current_browser(create=True)
        assert browser is not None
        game_id = sharing.redeem_handover(token, browser)
    except errors.HandoverInvalid:
        session.pop(HANDOVER_KEY, None)
        raise
    session.pop(HANDOVER_KEY, None)
    flash(gettext("This phone keeps the score of this game now."))
    return redirect(url_for("games.game", game_id=game_id), 303)


# -- The table code ------------------------------------------------------------------------


def _secret() -> str | bytes:
    return current_app.secret_key or ""


def _remember_code(game_id: str, code: str | None) -> None:
    """Keep ``code`` (or forget the game's) in the session, for the newest games only."""
    known = session.get(CODES_KEY)
    codes = {k: v for k, v in known.items() if k != game_id} if isinstance(known, dict) else {}
    if code is not None:
        codes[game_id] = code
    session[CODES_KEY] = dict(list(codes.items())[-CODES_KEPT:])


@bp.app_template_global("table_code")
def table_code(game_id: str) -> str | None:
    """The game's table code, grouped to be read aloud, for a browser that keeps its score:
    the one it knows, or a first one made now; ``None`` when the game has a code this browser
    does not know (it may show a new one)."""
    browser = current_browser()
    if browser is None:
        return None
    known = session.get(CODES_KEY)
    code = known.get(game_id) if isinstance(known, dict) else None
    code = code if isinstance(code, str) else None
    current = table_codes.is_current(game_id, code, _secret())
    if current and code is not None:
        return table_codes.grouped(code)
    if code is not None:
        _remember_code(game_id, None)
    if current is None and (made := _first_code(game_id, browser)):
        _remember_code(game_id, made)
        return table_codes.grouped(made)
    return None


def _first_code(game_id: str, browser: sharing.Browser) -> str | None:
    """A first table code, or ``None`` while the database takes no writes: the page is shown
    without one, and the next one made once it does."""
    try:
        return table_codes.first_code(game_id, browser, _secret())
    except DBAPIError as error:
        if is_read_only(error):
            return None
        raise


@bp.post("/games/<game_id>/table-code")
def new_table_code(game_id: str) -> Response:
    """Show a new table code; the old one no longer works."""
    code = table_codes.new_code(game_id, current_browser(), _secret())
    _remember_code(game_id, code)
    flash(gettext("A new table code: the old one no longer works."))
    if request.form.get("back") == "round":
        return redirect(url_for("games.game", game_id=game_id), 303)
    return redirect(url_for(".share", game_id=game_id), 303)


@bp.route("/games/<game_id>/keep-score", methods=["GET", "POST"])
@security.limited("RATELIMIT_TABLE_CODE", scope=table_codes.LIMIT_SCOPE, methods=["POST"])
def keep_score(game_id: str) -> Page:
    """Keep the score on this phone with the table code the scorekeeper's screen shows (the
    scorekeeper's phone no longer can). A refusal comes back to this page, so a reload never
    sends the code again; so does a phone another took the scorekeeping over from."""
    snapshot = games.get_game(game_id)
    if request.method == "GET":
        return render_template(
            "handover.html", game=snapshot, by_code=True, digits=table_codes.DIGITS
        )
    code = request.form.get("code", "")
    try:
        table_codes.redeem(game_id, code, _secret(), current_browser(create=True))
    except (
        errors.TableCodeMalformed,
        errors.TableCodeWrong,
        errors.TableCodeMissing,
        errors.TableCodeGuessesSpent,
    ) as error:
        flash(service_message(error), "error")
        return redirect(url_for(".keep_score", game_id=game_id), 303)
    # The code is used up: the round screen it leads to shows this phone a new one.
    flash(gettext("This phone keeps the score of this game now."))
    return redirect(url_for("games.game", game_id=game_id), 303)
