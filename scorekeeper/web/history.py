"""The pages of a browser's history: its games list, deleting and restoring games,
forgetting followed ones, exports (CSV, JSON, everything), import, a round's history and the
players' statistics."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import closing
from decimal import ROUND_HALF_UP, Decimal

import flask_babel
from flask import flash, make_response, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError, validate_csrf
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms.validators import ValidationError

from .. import errors, export, i18n, security
from ..extensions import csrf
from ..i18n import gettext, service_message
from ..rules.cards import TrumpCard
from ..rules.game import GameStatus
from ..rules.messages import MINUS
from ..rules.specials import only_one_recorded
from ..rules.table import NAME_MAX_LENGTH
from ..rules.variants import Special
from ..services import audit, games, history, import_document, importing
from ..services import statistics as statistics_service
from ..services.import_document import IMPORT_MAX_BYTES, MAX_IMPORT_GAMES
from . import chart, screens, sheet_csv
from .common import Page, back_to, current_browser, keeps_score, page_blueprint
from .following import followed_ids, forget_followed

bp = page_blueprint("history", __name__)


def _back_home() -> Page:
    return back_to(url_for(".home"))


# -- The games list ------------------------------------------------------------------------


STATUS_FILTERS = ("", GameStatus.IN_PROGRESS.value, GameStatus.FINISHED.value)


@bp.get("/")
def home() -> Page:
    """The games this browser keeps or follows, newest activity first: filtered by status,
    searched by player name, a page at a time ("older games"); deleted games to restore."""
    browser = current_browser()
    status = request.args.get("status", "")
    status = status if status in STATUS_FILTERS else ""
    search = request.args.get("q", "")[:NAME_MAX_LENGTH]
    before = request.args.get("before", "")
    # An older link's "shown" (up to 1,000) is held to the bound.
    shown = request.args.get("shown", default=history.GAMES_PAGE, type=int)
    shown = max(history.GAMES_PAGE, min(shown, history.MAX_GAMES_SHOWN))
    listing = history.game_list(
        browser, followed_ids(), status=status, search=search, before=before, limit=shown
    )
    return render_template(
        "home.html",
        listing=listing,
        status=status,
        search=search,
        before=before,
        deleted=history.deleted_games(browser),
        filtered=bool(status or search.strip()),
        restore_days=history.RESTORE_DAYS,
    )


# -- Delete, restore, forget ---------------------------------------------------------------


@bp.post("/games/<game_id>/delete")
def delete_game(game_id: str) -> Page:
    """Delete a game this browser keeps; it can be restored for 30 days."""
    games.delete_game(game_id, current_browser())
    flash(
        gettext(
            "The game is deleted. You can restore it from this list for %(days)d days.",
            days=history.RESTORE_DAYS,
        )
    )
    return _back_home()


@bp.post("/games/<game_id>/restore")
def restore_game(game_id: str) -> Page:
    """Undo the deletion of a game."""
    history.restore_game(game_id, current_browser())
    flash(gettext("The game is back in your list."))
    return _back_home()


@bp.post("/games/<game_id>/forget")
def forget_game(game_id: str) -> Page:
    """Stop listing a game this browser only follows (the game itself stays)."""
    forget_followed(game_id)
    flash(gettext("The game is no longer listed here."))
    return _back_home()


# -- Exports -------------------------------------------------------------------------------


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Page:
    """The game as a spreadsheet: one row per player per round."""
    game = games.get_game(game_id)
    return export.download(
        sheet_csv.game_csv(game), export.filename(game, "csv"), "text/csv", bom=True
    )


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Page:
    """The game as JSON: the API's game object and its audit trail."""
    game = games.get_game(game_id)
    body = export.json_text(export.one_game_document(game))
    return export.download(body, export.filename(game, "json"), "application/json")


@bp.get("/export.json")
def export_all() -> Page:
    """Every game this browser keeps, in one JSON file, sent as it is read."""
    body = export.many_games_text(history.kept_ids(current_browser()))
    return export.download(body, export.filename(None, "json"), "application/json")


# -- Import --------------------------------------------------------------------------------


@bp.route("/import", methods=["GET", "POST"])
# An import counts as one start, and its games count against the import limit (in the view).
@security.limited("RATELIMIT_CREATE_GAME", scope=security.CREATE_GAME, methods=["POST"])
def import_games() -> Page:
    """Bring games back from a JSON export: all of them, each round checked, or none."""
    # The browser's key is given with the form (in its cookie), so that a form sent twice
    # is sent by one browser, whose imports wait for each other.
    browser = current_browser(create=True)
    error = None
    status = 200
    headers: Mapping[str, str] = {}
    if request.method == "POST":
        request.max_content_length = IMPORT_MAX_BYTES
        try:
            token = request.form.get("csrf_token")
        except RequestEntityTooLarge:
            # The limit in the words the page says it in, not the generic "more than this
            # page ever sends".
            error = service_message(errors.ImportTooLarge(size=_import_megabytes()))
            body = render_template("import.html", error=error, limits=_import_limits())
            return make_response(body, 413)
        try:
            validate_csrf(token)
        except ValidationError as invalid:
            raise CSRFError(str(invalid)) from None
        upload = request.files.get("file")
        try:
            document = importing.read_document(upload.stream) if upload is not None else None
        except import_document.NotJson:
            document = None
        if document is not None and document.top == "null":  # no export, as no file is
            document.close()
            document = None
        if document is None:
            error = gettext("Choose a JSON file exported from the Tablet of Truth.")
            status = 400
        else:
            try:
                with closing(document):
                    security.spend_import(import_document.count_games(document))
                    created = importing.import_games(document, browser)
            except errors.ServiceError as refusal:
                error = service_message(refusal)
                status = refusal.status
                headers = refusal.headers
            else:
                flash(_imported_message(created))
                return redirect(url_for(".home"), 303)
    body = render_template("import.html", error=error, limits=_import_limits())
    return make_response(body, status, dict(headers))


def _import_limits() -> list[str]:
    """What one file may hold, and how many games an address may import, as configured."""
    said = [
        gettext(
            "A file may hold up to %(games)s games and %(size)s MB.",
            games=i18n.number(MAX_IMPORT_GAMES),
            size=_import_megabytes(),
        )
    ]
    for amount, seconds in security.import_windows():
        said.append(
            flask_babel.ngettext(
                "This address may import %(games)s game in %(window)s.",
                "This address may import %(games)s games in %(window)s.",
                amount,
                games=i18n.number(amount),
                window=i18n.duration(seconds),
            )
        )
    return said


def _import_megabytes() -> str:
    """The largest file an import takes, in whole megabytes, as the language writes them."""
    return i18n.number(IMPORT_MAX_BYTES // 2**20)


def _imported_message(imported: importing.Imported) -> str:
    """What an import did, in a sentence or two."""
    if not imported.created and not imported.restorable:
        return gettext("Nothing was imported: every game of the file is already here.")
    said: str = (
        flask_babel.ngettext(
            "Imported: %(games)s game, with a new address.",
            "Imported: %(games)s games, each with a new address.",
            len(imported.created),
            games=i18n.number(len(imported.created)),
        )
        if imported.created
        else gettext("Nothing was imported.")
    )
    if imported.already_kept:
        said += " " + flask_babel.ngettext(
            "%(games)s game of the file is already here and was left as it is.",
            "%(games)s games of the file are already here and were left as they are.",
            imported.already_kept,
            games=i18n.number(imported.already_kept),
        )
    if imported.restorable:
        said += " " + flask_babel.ngettext(
            "%(games)s game of the file was deleted on this phone: restore it from "
            "“Recently deleted” below.",
            "%(games)s games of the file were deleted on this phone: restore them from "
            "“Recently deleted” below.",
            imported.restorable,
            games=i18n.number(imported.restorable),
        )
    return said


# The CSRF token is checked in the view, once the larger limit for the file is set.
csrf.exempt(f"{__name__}.import_games")


# -- A round's history ---------------------------------------------------------------------


@bp.get("/games/<game_id>/rounds/<round:number>/history")
def round_history(game_id: str, number: int) -> Page:
    """The writes to one round, the latest first, a page at a time: when, what, and its
    facts before and after."""
    game = games.get_game(game_id)
    view = game.round(number)
    before = request.args.get("before", "")
    page = audit.round_changes(game, number, before)
    return render_template(
        "round_history.html",
        game=game,
        round=view,
        number=number,
        changes=page.changes,
        older=page.older,
        before=before,
        keeper=keeps_score(game_id),
        kinds=_kind_labels(only_one_recorded(game.table)),
        shown=shown_value,
    )


def shown_value(value: audit.Value) -> str:
    """A fact of a round's history in words: the trump, a number, "hidden" for a bid made but
    hidden, "–" for one not made (or tricks not yet counted)."""
    if value is None:
        return "–"
    if value is audit.HIDDEN:
        return gettext("hidden")
    if isinstance(value, TrumpCard):
        return screens.trump_label(value)
    return str(value)


def _kind_labels(only: Special | None) -> dict[str, str]:
    """What each kind of write did; the special cards' as the game's deck has them."""
    if only is Special.BOMB:
        specials = gettext("Bomb recorded")
    elif only is Special.CLOUD:
        specials = gettext("Cloud recorded")
    else:
        specials = gettext("Bomb or Cloud recorded")
    return {
        "trump": gettext("Trump recorded"),
        "bids": gettext("Bids recorded"),
        "tally": gettext("Trick tallied"),
        "draft": gettext("Tricks tapped in"),
        "tricks": gettext("Tricks recorded"),
        "score": gettext("Round scored"),
        "correction": gettext("Corrected"),
        "specials": specials,
        "import": gettext("Imported"),
        "undo": gettext("Undone"),
        "redo": gettext("Redone"),
    }


# -- Statistics ----------------------------------------------------------------------------


@bp.get("/statistics")
@security.limited("RATELIMIT_STATISTICS")
def statistics() -> Page:
    """Every player of the games this browser keeps: wins, scores, bids; pairs; sparklines."""
    stats = statistics_service.statistics(current_browser())
    return render_template(
        "statistics.html",
        stats=stats,
        sparkline=chart.sparkline,
        percent=percent,
        decimal=decimal,
    )


def percent(value: float | None) -> str:
    """A share as a whole percentage ("67 %"), or a dash when there is nothing to share."""
    if value is None:
        return "–"
    return str(flask_babel.format_percent(_half_up(Decimal(repr(value)).scaleb(2), 0).scaleb(-2)))


def decimal(value: float | None) -> str:
    """An average to one decimal, or a dash."""
    if value is None:
        return "–"
    rounded = _half_up(Decimal(repr(value)), 1)
    digits = str(flask_babel.format_decimal(abs(rounded), format="#,##0.0"))
    return f"{MINUS}{digits}" if rounded < 0 else digits


def _half_up(value: Decimal, places: int) -> Decimal:
    """``value`` to ``places`` decimals, a half away from zero as people round (12.5 is 13,
    −6.25 is −6.3); Babel would round it to the even digit (12, −6.2). The value is taken
    as written (``repr``), so 0.145 is 14.5 %, not the float's 14.4999…"""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
