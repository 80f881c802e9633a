"""The round screens: one round a step at a time (trump, bids, tricks, its scores), the taps
on them, and the correction of a scored round."""

from __future__ import annotations

import re
from typing import Any

from flask import flash, make_response, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from .. import errors
from ..i18n import gettext, rule_message
from ..rules.cards import Suit, Turned
from ..rules.game import RoundState
from ..rules.messages import OutOfTurnError, RuleError, SetupError
from ..rules.variants import Special
from ..services import games, loading, rounds, sharing, specials, undo
from . import correction, screens
from .common import (
    Page,
    back_to,
    current_browser,
    flash_stale,
    keeps_score,
    local_path,
    page_blueprint,
)
from .correction import NO_CLOUD, cloud_tap
from .forms import SeatForm, SpecialForm, TrumpForm, VersionedForm

bp = page_blueprint("rounds", __name__)

# -- The round screen ----------------------------------------------------------------------


@bp.get("/games/<game_id>/rounds/<round:number>")
def round_screen(game_id: str, number: int) -> Page:
    """One round, one step at a time: trump, bids, tricks, then its scores."""
    snapshot = games.get_game(game_id)
    snapshot.round(number)  # an unknown round is a 404
    if not keeps_score(game_id):
        flash(gettext("This phone follows the game: only the scorekeeper's phone changes it."))
        return redirect(url_for("games.spectate", game_id=game_id), 303)
    return _render_round(snapshot, number, notice=_notice(game_id, number))


def _render_round(
    snapshot: loading.GameSnapshot,
    number: int,
    *,
    status: int = 200,
    error: RuleError | None = None,
    notice: tuple[str, str] | None = None,
) -> Response:
    """The round screen (or, for a round still waiting, a redirect to the current one);
    ``notice`` is a sentence to show at one row, with that row's field."""
    view = snapshot.round(number)
    if view.state is RoundState.WAITING:
        if error is not None:
            flash(rule_message(error), "error")
        return redirect(url_for("games.game", game_id=snapshot.id), 303)
    change = request.values.get("change")
    if error is not None and (error.field or "").startswith("bids"):
        change = "bids"
    wizard = request.args.get("turned") == Turned.WIZARD.value
    werewolf = request.args.get("turned") == Turned.WEREWOLF.value and (
        Special.WEREWOLF in snapshot.table.rules.special_cards
    )
    step = _step(snapshot, number, change, wizard=wizard or werewolf)
    # A refusal about one row (the trick total, the Cloud) is shown next to it, any other on top.
    field = error.field if error is not None else None
    if field and not _ROW_FIELD.fullmatch(field):
        field = None
    body = render_template(
        "round.html",
        game=snapshot,
        round=view,
        number=number,
        step=step,
        wizard=wizard and step == "trump",
        werewolf=werewolf and step == "trump",
        open_seat=request.args.get("seat", type=int),
        bid_rows=screens.bid_rows(snapshot, number),
        trick_rows=screens.trick_rows(snapshot, number),
        trick_hint=screens.trick_hint(snapshot, number),
        tricks_so_far=screens.tricks_so_far(snapshot, number),
        can_all_make=screens.can_all_make(snapshot, number),
        reversible=screens.reversible(snapshot),
        previous=screens.previous_result(snapshot, number, step, wizard=wizard or werewolf),
        suits=list(Suit),
        error=rule_message(error) if error is not None else None,
        error_field=field,
        notice_field=notice[0] if notice else None,
        notice=notice[1] if notice else None,
    )
    response = make_response(body, status)
    if error is not None:
        # The refusal may sit below the fold: bring it into view.
        response.headers["HX-Reswap"] = "innerHTML show:top showTarget:#refusal"
    return response


def _step(snapshot: loading.GameSnapshot, number: int, change: str | None, *, wizard: bool) -> str:
    """Which step the screen shows: the round's state, or an earlier step being changed."""
    view = snapshot.view.round(number)
    trump_changeable = view.state in _CHANGEABLE_TRUMP and not snapshot.table.deals_every_card(
        number
    )
    if trump_changeable and (wizard or change == "trump"):
        return "trump"
    if change == "bids" and view.state is RoundState.PLAYING:
        return "bids"
    return _STEPS[view.state]


_CHANGEABLE_TRUMP = (RoundState.BIDDING, RoundState.PLAYING)
_STEPS = {
    RoundState.TRUMP: "trump",
    RoundState.BIDDING: "bids",
    RoundState.PLAYING: "tricks",
    RoundState.SCORED: "scored",
}


@bp.post("/games/<game_id>/rounds/<round:number>")
def round_action(game_id: str, number: int) -> Page:
    """A tap on the round screen: trump, a bid, a trick's winner, a trick count, or scoring
    the round."""
    browser = current_browser()
    if not sharing.is_keeper(game_id, browser) or browser is None:
        games.get_game(game_id)  # an unknown game is a 404, not a 403
        raise sharing.not_keeper(game_id, browser)
    action = request.form.get("action", "")
    form_class = _FORMS.get(action)
    form = form_class() if form_class is not None else None
    if form is None or not form.validate():
        snapshot = games.get_game(game_id)
        snapshot.round(number)  # an unknown round is a 404
        flash(gettext("This page sent something it never sends."), "error")
        return _render_round(snapshot, number, status=400)
    try:
        number, written = _record(action, form, game_id, number, browser)
    except RuleError as error:
        snapshot = games.get_game(game_id)
        return _render_round(snapshot, number, status=_refusal_status(error), error=error)
    except errors.StaleVersion:
        # Another phone wrote first: this screen again as the game is now.
        flash_stale()
        return _render_round(games.get_game(game_id), number, status=412)
    anchor = request.form.get("anchor", "")
    change = "bids" if request.form.get("change") == "bids" else None
    target = url_for(".round_screen", game_id=game_id, number=number, change=change)
    if action in ("trick", "nobody") and local_path(request.form.get("next", "")):
        return back_to(target)  # the referee goes on with the next trick
    if action not in ("score", "all_made", "undo", "redo") and _ANCHOR.fullmatch(anchor):
        target += f"#{anchor}"
    if request.headers.get("HX-Request") != "true":
        return redirect(target, 303)  # without JavaScript: a reload never sends it twice
    # htmx swaps the next screen in from this answer: one request a tap, not a redirect and
    # a reload; the address bar shows the screen's own address. The write's own snapshot is
    # the game as it now is: no second read.
    response = _render_round(written, number, notice=_notice(game_id, number))
    response.headers["HX-Replace-Url"] = target
    return response


_ANCHOR = re.compile(r"seat-[0-9]")
_ROW_FIELD = re.compile(r"(bids|tricks)\[[0-9]\]|tricks|cloud\.(seat|bid)")
_CORRECTION_FIELD = re.compile(r"turned|chosen|(bids|tricks)\[[0-9]\]|tricks|bomb|cloud(\.\w+)?")
#: The form each tap on the round screen sends.
_FORMS: dict[str, type[VersionedForm]] = {
    "trump": TrumpForm,
    "bid": SeatForm,
    "tricks": SeatForm,
    "trick": SeatForm,
    "nobody": VersionedForm,
    "bomb": SpecialForm,
    "cloud": SpecialForm,
    "score": VersionedForm,
    "all_made": VersionedForm,
    "undo": VersionedForm,
    "redo": VersionedForm,
}


def _refusal_status(error: RuleError) -> int:
    """409 for a step out of turn, 422 for a value the rules forbid (as the API answers)."""
    return 409 if isinstance(error, OutOfTurnError) else 422


def _record(
    action: str, form: Any, game_id: str, number: int, browser: sharing.Browser
) -> tuple[int, loading.GameSnapshot]:
    """Record the tap ``action``, sent with ``form``, at the version the page showed; the
    round to show next (an undo shows the round it changed) and the game as the write left
    it."""
    if_match = {form.version.data}
    if action in ("undo", "redo"):
        reverse = undo.redo if action == "redo" else undo.undo
        reversed_ = reverse(game_id, browser, if_match=if_match)
        flash(screens.reversed_sentence(reversed_.game, reversed_.step, redone=action == "redo"))
        return reversed_.step.round, reversed_.game
    if action == "trump":
        game = rounds.record_trump(
            game_id,
            browser,
            number,
            form.turned.data,
            form.chosen.data or None,
            if_match=if_match,
            scored_too=False,
        )
    elif action == "bid":
        recorded = rounds.record_bid(
            game_id, browser, number, form.seat.data, form.value.data, if_match=if_match
        )
        game, again = recorded.game, recorded.dealer_bids_again
        if again is not None:
            # Said once, on the screen the tap leads to, at the seat tapped (its field).
            session[_NOTICE] = [game_id, number, again.field, rule_message(again)]
    elif action == "tricks":
        game = rounds.save_trick_draft(
            game_id, browser, number, form.seat.data, form.value.data, if_match=if_match
        )
    elif action in ("trick", "nobody"):
        winner = form.seat.data if action == "trick" else None
        game = rounds.record_trick_winner(game_id, browser, number, winner, if_match=if_match)
    elif action == "bomb":
        value = form.value.data == "1"
        game = specials.record_bomb(game_id, browser, number, value, if_match=if_match)
    elif action == "cloud":
        tap = cloud_tap(form.value.data)
        if tap is None and form.value.data != NO_CLOUD:
            raise SetupError(_CLOUD_TAP)
        seat, up = tap or (None, False)
        game = specials.record_cloud(game_id, browser, number, seat, up=up, if_match=if_match)
    else:
        game = rounds.score_round(
            game_id, browser, number, all_made=action == "all_made", if_match=if_match
        )
        if number < game.table.rules.rounds:
            return number + 1, game  # its points are shown with the next round's first step
    return number, game


_CLOUD_TAP = "This page sent something it never sends."

#: The session's key for a sentence the next round screen shows at one row.
_NOTICE = "round_notice"


def _notice(game_id: str, number: int) -> tuple[str, str] | None:
    """The sentence left for this round's screen (taken from the session), with its field."""
    if _NOTICE not in session:
        return None  # no write of the session cookie on every screen
    saved = session.pop(_NOTICE)
    if isinstance(saved, list) and saved[:2] == [game_id, number] and len(saved) == 4:
        return str(saved[2]), str(saved[3])
    return None


# -- Correcting a scored round -------------------------------------------------------------


@bp.route("/games/<game_id>/rounds/<round:number>/correct", methods=["GET", "POST"])
def correct(game_id: str, number: int) -> Page:
    """Reopen a scored round: change its trump, bids, tricks, the Bomb and the Cloud under the
    same checks."""
    snapshot = games.get_game(game_id)
    view = snapshot.round(number)
    if not keeps_score(game_id):
        raise sharing.not_keeper(game_id, current_browser())
    if view.state is not RoundState.SCORED:
        flash(gettext("Round %(round)d is not scored yet: play it first.", round=number))
        return redirect(url_for("games.game", game_id=game_id), 303)
    recorded = correction.recorded(snapshot, number)
    values = recorded
    if request.method == "POST":
        values = correction.sent(snapshot, request.form, recorded)
    error = None
    error_field = None
    status = 200
    sheet = url_for("games.sheet", game_id=game_id) + f"#round-{number}"
    # "refresh": a bid tapped on the form, which comes back with the dealer's forbidden bid.
    if request.method == "POST" and request.form.get("action") != "refresh":
        form = VersionedForm()
        if not form.validate() or not values.complete:
            error = gettext("Choose a bid and the tricks for every player.")
            status = 400
        elif not values.cloud_valid():
            error = gettext("This page sent something it never sends.")
            status = 400
        elif correction.unchanged(snapshot, number, recorded, values):
            # Saved as it was: no write, so no ✎ and no entry in the round's history.
            flash(gettext("Nothing was changed in round %(round)d.", round=number))
            return redirect(sheet, 303)
        else:
            try:
                rounds.correct_round(
                    game_id,
                    current_browser(),
                    number,
                    turned=None if snapshot.table.deals_every_card(number) else values.turned,
                    chosen=values.chosen or None,
                    bids=[bid or 0 for bid in values.bids],
                    tricks=[count or 0 for count in values.tricks],
                    specials=(values.bomb, values.cloud_change()),
                    if_match={form.version.data},
                )
            except RuleError as rule_error:
                error = rule_message(rule_error)
                error_field = rule_error.field
                status = _refusal_status(rule_error)
            else:
                flash(
                    gettext(
                        "Round %(round)d is corrected; every total is recomputed.", round=number
                    )
                )
                return redirect(sheet, 303)
    body = render_template(
        "correct.html",
        game=snapshot,
        round=view,
        number=number,
        values=values,
        forbidden=screens.forbidden_in_correction(snapshot, number, values.bids),
        suits=list(Suit),
        error=error,
        error_field=error_field if _CORRECTION_FIELD.fullmatch(error_field or "") else None,
    )
    return make_response(body, status)
