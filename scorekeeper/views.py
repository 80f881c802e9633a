"""The Confidant's pages: forms → service → templates.

Every write is a POST with a CSRF token and the version of the game the page showed, and
answers with a redirect to the page (so a reload never sends it twice), or with the page
again and the refusal next to the control. The edit right is a random device key in the
signed, HttpOnly, SameSite=Lax session cookie; the database keeps only its hash.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.sessions import SessionMixin
from flask_babel import get_locale, ngettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import BadRequest, HTTPException
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from . import errors, history, i18n, qr, rules, screens, security
from .following import followed_ids, remember_followed
from .forms import (
    FULL_GAME,
    RANDOM_DEALER,
    NewGameForm,
    SeatForm,
    TrumpForm,
    VersionedForm,
    small_number,
)
from .i18n import gettext, rule_message, service_message
from .services import games, loading, rounds, sharing

bp = Blueprint("pages", __name__)

DEVICE_KEY = "device"
DEVICE_KEY_BYTES = 32

Page = Response | str


# -- The browser ---------------------------------------------------------------------------


def current_device(*, create: bool = False) -> sharing.Device | None:
    """This browser's device key from its session cookie (made on first need)."""
    key = session.get(DEVICE_KEY)
    if not isinstance(key, str) or not key:
        if not create:
            return None
        key = secrets.token_urlsafe(DEVICE_KEY_BYTES)
        session[DEVICE_KEY] = key
        session.permanent = True
    return sharing.Device(key)


class SessionInterface(security.SessionInterface):
    """Flask's signed session cookie, left alone by the spectator page's poll: a poll neither
    reads nor changes the session, so renewing the cookie on each poll (every 3 s, on every
    phone) would only cost a signature and a Set-Cookie header."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if request.endpoint == "pages.spectate_live":
            return session.modified
        return super().should_set_cookie(app, session)


@bp.after_request
def no_store(response: Response) -> Response:
    """Pages show live state: the back button fetches them afresh, never a stale copy."""
    response.headers.setdefault("Cache-Control", "no-store")
    return response


# -- The language --------------------------------------------------------------------------

LANGUAGE_KEY = "language"


@bp.post("/language")
def language() -> Page:
    """Switch the pages' language for this browser (over its Accept-Language), back to the
    page the switch was tapped on."""
    chosen = request.form.get("language", "")
    if chosen not in current_app.config["LANGUAGES"]:
        raise BadRequest()
    session[LANGUAGE_KEY] = chosen
    session.permanent = True
    target = request.form.get("next", "")
    # Only a path of this site: never another site's address ("//host", "/\\host").
    if not _LOCAL_PATH.fullmatch(target):
        target = url_for(".home")
    return redirect(target, 303)


_LOCAL_PATH = re.compile(r"/(?![/\\])[^\s\\]*")


# -- Home and a new game -------------------------------------------------------------------


STATUS_FILTERS = ("", rules.GameStatus.IN_PROGRESS.value, rules.GameStatus.FINISHED.value)


@bp.get("/")
def home() -> Page:
    """The games this browser keeps or follows, newest activity first: filtered by status,
    searched by player name, a page at a time ("show more"); deleted games to restore."""
    device = current_device()
    status = request.args.get("status", "")
    status = status if status in STATUS_FILTERS else ""
    search = request.args.get("q", "")[: rules.NAME_MAX_LENGTH]
    shown = request.args.get("shown", default=history.GAMES_PAGE, type=int)
    shown = max(history.GAMES_PAGE, min(shown, history.MAX_GAMES_SHOWN))
    listing = history.game_list(device, followed_ids(), status=status, search=search, limit=shown)
    return render_template(
        "home.html",
        listing=listing,
        status=status,
        search=search,
        shown=shown,
        more=shown + history.GAMES_PAGE,
        deleted=history.deleted_games(device),
        filtered=bool(status or search.strip()),
        restore_days=history.RESTORE_DAYS,
        **_helpers(),
    )


@bp.route("/games/new", methods=["GET", "POST"])
@security.limited(
    "RATELIMIT_CREATE_GAME",
    scope=security.CREATE_GAME,
    methods=["POST"],
    when=lambda: request.form.get("action", "start") == "start",
)
def new_game() -> Page:
    """Set up a game: seats, first dealer, variant; seats are added, removed and moved by
    tapping, the page coming back from the server each time."""
    form = NewGameForm()
    status = 200
    restored = False
    if request.method == "GET":
        again = _setup_again(request.args.get("again"))
        remembered = None if again else _remembered_setup()
        # Said when the form comes back as this browser left it with a name typed in.
        restored = remembered is not None and any(name.strip() for name in remembered.seat_names())
        form = again or remembered or form
    else:
        action = request.form.get("action", "start")
        if action == "clear":
            # "Start afresh": the form as on a first visit.
            session.pop(SETUP_KEY, None)
            return redirect(url_for(".new_game"), 303)
        if action == "start":
            response = _start_game(form)
            if isinstance(response, Response):
                session.pop(SETUP_KEY, None)
                return response
            status = 422
        else:
            setup = _rearranged(_setup_of(form), action)
            form = _form_of(setup)
            # Every tap on the form comes here: remember it, so a reload loses nothing.
            setup["names"] = [name[: rules.NAME_MAX_LENGTH * 2] for name in setup["names"]]
            session[SETUP_KEY] = setup
    return _render_new_game(form, status, restored=restored)


SETUP_KEY = "setup"


def _setup_of(form: NewGameForm) -> dict[str, Any]:
    """The form's choices as plain values (what the session keeps)."""
    return {
        "names": form.seat_names(),
        "first_dealer": form.first_dealer.data,
        "bid_rule": form.bid_rule.data,
        "last_bidder_may_bid_zero": bool(form.last_bidder_may_bid_zero.data),
        "bid_reveal": form.bid_reveal.data,
        "clairvoyance": bool(form.clairvoyance.data),
        "rounds": form.rounds.data,
    }


def _remembered_setup() -> NewGameForm | None:
    """The form as this browser last left it, if it was left unfinished."""
    setup = session.get(SETUP_KEY)
    if not isinstance(setup, dict):
        return None
    names = setup.get("names")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return None
    fields = {
        key: value
        for key, value in setup.items()
        if key != "names" and isinstance(value, str | bool | None)
    }
    return _form_of({**fields, "names": names[: rules.MAX_PLAYERS]})


def _setup_again(game_id: str | None) -> NewGameForm | None:
    """The form set up as game ``game_id`` was, for the same table to play again: the same
    seats and rules, the first deal passing to the next seat (``None``: no such game)."""
    if not game_id:
        return None
    try:
        table = games.get_game(game_id).table
    except errors.ServiceError:
        return None
    full = table.rules.rounds == rules.full_game_rounds(table.seats)
    return _form_of(
        {
            "names": list(table.players),
            "first_dealer": str((table.first_dealer + 1) % table.seats),
            "bid_rule": table.rules.bid_rule.value,
            "last_bidder_may_bid_zero": table.rules.last_bidder_may_bid_zero,
            "bid_reveal": table.rules.bid_reveal.value,
            "clairvoyance": table.rules.clairvoyance,
            "rounds": FULL_GAME if full else str(table.rules.rounds),
        }
    )


def _form_of(setup: dict[str, Any]) -> NewGameForm:
    """The new-game form showing ``setup``."""
    return NewGameForm(formdata=None, **setup)


def _start_game(form: NewGameForm) -> Response | None:
    if not form.validate() or not _understood(form):
        form.form_errors.append(gettext("Some of the choices were not understood: check them."))
        return None
    try:
        created = games.create_game(
            form.seat_names(),
            first_dealer=form.dealer_seat(),
            bid_rule=form.bid_rule.data,
            last_bidder_may_bid_zero=bool(form.last_bidder_may_bid_zero.data),
            bid_reveal=form.bid_reveal.data,
            clairvoyance=bool(form.clairvoyance.data),
            rounds=form.round_count(),
            device=current_device(create=True),
        )
    except rules.SetupError as error:
        _attach_setup_error(form, error)
        return None
    return redirect(url_for(".game", game_id=created.game.id), 303)


def _understood(form: NewGameForm) -> bool:
    """Whether every choice is one the page offers (a crafted form is refused, never guessed)."""
    seats = sum(1 for key in request.form if key.startswith("names-"))
    dealer = form.first_dealer.data
    rounds = form.rounds.data
    return (
        seats == len(form.names.entries)
        and (dealer == RANDOM_DEALER or form.dealer_seat() is not None)
        and (rounds == FULL_GAME or form.round_count() is not None)
    )


def _attach_setup_error(form: NewGameForm, error: rules.SetupError) -> None:
    message = rule_message(error)
    field = error.field or ""
    if field.startswith("players[") and field.endswith("]"):
        seat = int(field[len("players[") : -1])
        if seat < len(form.names.entries):
            form.names.entries[seat].errors = [message]
            return
    if field == "rules.rounds":
        form.rounds.errors = [message]
        return
    form.form_errors.append(message)


def _rearranged(setup: dict[str, Any], action: str) -> dict[str, Any]:
    """The setup with a seat added, removed or moved up; the chosen dealer stays the same
    person, and a number of rounds chosen for another table size goes back to the full game."""
    names: list[str] = setup["names"]
    dealer = _form_of(setup).dealer_seat()
    order = list(range(len(names)))
    verb, _sep, argument = action.partition("-")
    seat = int(argument) if argument.isdigit() else -1
    if verb == "add" and len(names) < rules.MAX_PLAYERS:
        order.append(-1)
    elif verb == "remove" and 0 <= seat < len(names) and len(names) > rules.MIN_PLAYERS:
        order.pop(seat)
    elif verb == "up" and 0 < seat < len(names):
        order[seat - 1], order[seat] = order[seat], order[seat - 1]
    new_names = [names[old] if old >= 0 else "" for old in order]
    new_dealer = RANDOM_DEALER
    if dealer is not None and dealer in order:
        new_dealer = str(order.index(dealer))
    rounds = setup["rounds"] if len(order) == len(names) else None
    return {**setup, "names": new_names, "first_dealer": new_dealer, "rounds": rounds or FULL_GAME}


def _render_new_game(form: NewGameForm, status: int, *, restored: bool = False) -> Response:
    seats = len(form.names.entries)
    full = rules.full_game_rounds(min(max(seats, rules.MIN_PLAYERS), rules.MAX_PLAYERS))
    form.rounds.choices = [
        SelectChoice(FULL_GAME, gettext("Full game: %(rounds)d rounds", rounds=full)),
        *[SelectChoice(str(count)) for count in range(1, full)],
    ]
    body = render_template(
        "new_game.html",
        form=form,
        suggestions=games.known_names(current_device()),
        policies=rules.BID_RULES,
        reveals=rules.REVEALS,
        min_players=rules.MIN_PLAYERS,
        max_players=rules.MAX_PLAYERS,
        max_name=rules.NAME_MAX_LENGTH,
        restored=restored,
    )
    return make_response(body, status)


# -- A game --------------------------------------------------------------------------------


@bp.get("/games/<game_id>")
def game(game_id: str) -> Page:
    """The game as it stands: the round to play, or the final standings."""
    snapshot = games.get_game(game_id)
    current = snapshot.view.current_round
    if not _editable(game_id):
        return redirect(url_for(".spectate", game_id=game_id), 303)
    if current is None:
        return render_template(
            "game_over.html", game=snapshot, editable=_editable(game_id), **_helpers()
        )
    return redirect(url_for(".round_screen", game_id=game_id, number=current), 303)


@bp.get("/games/<game_id>/sheet")
def sheet(game_id: str) -> Page:
    """The Tablet of Truth: every round × every player. Anyone with the game's id may read it."""
    snapshot = games.get_game(game_id)
    editable = _editable(game_id)
    if not editable:
        remember_followed(game_id)
    return render_template("sheet.html", game=snapshot, editable=editable, **_helpers())


def _editable(game_id: str) -> bool:
    return sharing.can_edit(game_id, current_device())


def _helpers() -> dict[str, Any]:
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
    }


# -- Following a game ----------------------------------------------------------------------

# How often the spectator page asks whether the game changed: while it is played, and once
# it is over (a scored round may still be corrected, and the table should see the new totals;
# nothing else changes then, so a slower pace does).
POLL_SECONDS = 3
POLL_SECONDS_OVER = 10


@bp.get("/games/<game_id>/view")
def spectate(game_id: str) -> Page:
    """The game for everyone at the table (its id is the capability to read it): standings,
    the round being played, the chart and the sheet; it updates by itself, and no control
    on it changes the game. Without JavaScript, a reload shows the current state."""
    snapshot = games.get_game(game_id)
    remember_followed(game_id)
    return render_template("spectate.html", game=snapshot, **_live_context(snapshot))


@bp.get("/games/<game_id>/view/live")
def spectate_live(game_id: str) -> Response:
    """The changing part of the spectator page, which the page polls: 304 while the game's
    version (and the language) is the one the page shows, for the cost of one query."""
    try:
        etag = _live_etag(games.game_version(game_id))
    except errors.GameNotFound as error:
        body = render_template("_live_gone.html", message=service_message(error))
        return make_response(body, 404)
    if request.if_none_match.contains_weak(etag):
        return _live_headers(Response(status=304), etag)
    snapshot = games.get_game(game_id)
    context = _live_context(snapshot)
    response = make_response(render_template("_live.html", game=snapshot, **context))
    return _live_headers(response, context["etag"])


def _live_etag(version: int) -> str:
    """The fragment's validator: the game's version and the language it is written in."""
    return f"live-{version}-{get_locale() or 'en'}"


def _live_context(snapshot: loading.GameSnapshot) -> dict[str, Any]:
    etag = _live_etag(snapshot.version)
    number = snapshot.view.current_round
    return {
        "etag": etag,
        # The page sends the validator itself: a 304 then reaches htmx, which swaps nothing.
        "poll_headers": {"If-None-Match": f'W/"{etag}"'},
        "poll_seconds": POLL_SECONDS if number else POLL_SECONDS_OVER,
        "current": snapshot.view.round(number) if number else None,
        **_helpers(),
    }


def _live_headers(response: Response, etag: str) -> Response:
    # Weak: the compressed and the plain body are the same page (Flask-Compress leaves weak
    # tags as they are). The fragment is the same for every viewer but its language.
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    return response


# -- Sharing the game ----------------------------------------------------------------------

HANDOVER_KEY = "handover"


@bp.get("/games/<game_id>/share")
def share(game_id: str) -> Page:
    """Invite the table (the view link and its QR code); for the scorekeeper also handing the
    scorekeeping over to another phone, and taking it back from every other phone."""
    return _render_share(games.get_game(game_id))


@bp.post("/games/<game_id>/handover")
@security.limited("RATELIMIT_HAND_OVER")
def create_handover(game_id: str) -> Page:
    """Make a one-time link (15 minutes) that hands scorekeeping over to another phone; shown
    once, on the page this answers with, never stored."""
    token = sharing.create_handover(game_id, current_device())
    link = url_for(".handover", token=token, _external=True)
    return _render_share(games.get_game(game_id), handover_link=link)


def _render_share(snapshot: loading.GameSnapshot, handover_link: str | None = None) -> Page:
    device = current_device()
    editable = sharing.can_edit(snapshot.id, device)
    view_link = url_for(".spectate", game_id=snapshot.id, _external=True)
    return render_template(
        "share.html",
        game=snapshot,
        editable=editable,
        view_link=view_link,
        view_qr=qr.qr_svg(view_link, gettext("QR code of the link to follow the game")),
        handover_link=handover_link,
        handover_qr=qr.qr_svg(handover_link, gettext("QR code of the hand-over link"))
        if handover_link
        else None,
        minutes=sharing.HANDOVER_MINUTES,
        others=sharing.other_keepers(snapshot.id, device) if editable else 0,
        open_links=sharing.open_handovers(snapshot.id) if editable else 0,
        **_helpers(),
    )


@bp.post("/games/<game_id>/revoke")
def revoke(game_id: str) -> Response:
    """Take the right to keep score from every other phone (and void unused hand-over links)."""
    count = sharing.revoke_other_keepers(game_id, current_device())
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
@security.limited("RATELIMIT_HAND_OVER", methods=["POST"])
def take_over() -> Page:
    """Asks before this phone takes over the scorekeeping; the tap uses the link up."""
    token = session.get(HANDOVER_KEY)
    try:
        if not isinstance(token, str) or not token:
            raise errors.HandoverInvalid()
        if request.method == "GET":
            return render_template("handover.html", game=sharing.handover_game(token))
        game_id = sharing.redeem_handover(token, _device())
    except errors.HandoverInvalid:
        session.pop(HANDOVER_KEY, None)
        raise
    session.pop(HANDOVER_KEY, None)
    flash(gettext("This phone keeps the score of this game now."))
    return redirect(url_for(".game", game_id=game_id), 303)


def _device() -> sharing.Device:
    device = current_device(create=True)
    assert device is not None
    return device


# -- The round screen ----------------------------------------------------------------------


@bp.get("/games/<game_id>/rounds/<round:number>")
def round_screen(game_id: str, number: int) -> Page:
    """One round, one step at a time: trump, bids, tricks, then its scores."""
    snapshot = games.get_game(game_id)
    snapshot.round(number)  # an unknown round is a 404
    if not _editable(game_id):
        flash(gettext("This phone follows the game: only the scorekeeper's phone changes it."))
        return redirect(url_for(".spectate", game_id=game_id), 303)
    return _render_round(snapshot, number, notice=_notice(game_id, number))


def _render_round(
    snapshot: loading.GameSnapshot,
    number: int,
    *,
    status: int = 200,
    error: rules.RuleError | None = None,
    notice: tuple[str, str] | None = None,
) -> Response:
    """The round screen (or, for a round still waiting, a redirect to the current one);
    ``notice`` is a sentence to show at one row, with that row's field."""
    view = snapshot.round(number)
    if view.state is rules.RoundState.WAITING:
        if error is not None:
            flash(rule_message(error), "error")
        return redirect(url_for(".game", game_id=snapshot.id), 303)
    change = request.values.get("change")
    if error is not None and (error.field or "").startswith("bids"):
        change = "bids"
    wizard = request.args.get("turned") == rules.Turned.WIZARD.value
    step = _step(snapshot, number, change, wizard=wizard)
    # A refusal about one row (or the trick total) is shown next to it, any other on top.
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
        open_seat=request.args.get("seat", type=int),
        bid_rows=screens.bid_rows(snapshot, number),
        trick_rows=screens.trick_rows(snapshot, number),
        trick_hint=screens.trick_hint(snapshot, number),
        tricks_so_far=screens.tricks_so_far(snapshot, number),
        can_all_make=screens.can_all_make(snapshot, number),
        suits=list(rules.Suit),
        error=rule_message(error) if error is not None else None,
        error_field=field,
        notice_field=notice[0] if notice else None,
        notice=notice[1] if notice else None,
        **_helpers(),
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
    if change == "bids" and view.state is rules.RoundState.PLAYING:
        return "bids"
    return _STEPS[view.state]


_CHANGEABLE_TRUMP = (rules.RoundState.BIDDING, rules.RoundState.PLAYING)
_STEPS = {
    rules.RoundState.TRUMP: "trump",
    rules.RoundState.BIDDING: "bids",
    rules.RoundState.PLAYING: "tricks",
    rules.RoundState.SCORED: "scored",
}


@bp.post("/games/<game_id>/rounds/<round:number>")
def round_action(game_id: str, number: int) -> Page:
    """A tap on the round screen: trump, a bid, a trick count, or scoring the round."""
    device = current_device()
    if not sharing.can_edit(game_id, device) or device is None:
        games.get_game(game_id)  # an unknown game is a 404, not a 403
        raise errors.NotKeeper()
    action = request.form.get("action", "")
    handler = _ACTIONS.get(action)
    if handler is None:
        return _refused(game_id, number, gettext("This page sent something it never sends."))
    try:
        handler(game_id, number, device)
    except _FormInvalid:
        return _refused(game_id, number, gettext("This page sent something it never sends."))
    except rules.RuleError as error:
        snapshot = games.get_game(game_id)
        return _render_round(snapshot, number, status=_refusal_status(error), error=error)
    anchor = request.form.get("anchor", "")
    change = "bids" if request.form.get("change") == "bids" else None
    target = url_for(".round_screen", game_id=game_id, number=number, change=change)
    if action in ("score", "all_made"):
        return redirect(target, 303)
    return redirect(target + (f"#{anchor}" if _ANCHOR.fullmatch(anchor) else ""), 303)


_ANCHOR = re.compile(r"seat-[0-9]")
_ROW_FIELD = re.compile(r"(bids|tricks)\[[0-9]\]|tricks")


def _refusal_status(error: rules.RuleError) -> int:
    """409 for a step out of turn, 422 for a value the rules forbid (as the API answers)."""
    return 409 if isinstance(error, rules.OutOfTurnError) else 422


class _FormInvalid(Exception):
    """The form's fields could not be read as the page sends them."""


def _form(form_class: type[VersionedForm]) -> Any:
    form = form_class()
    if not form.validate():
        raise _FormInvalid()
    return form


def _if_match(form: VersionedForm) -> set[int]:
    return {form.version.data}


def _trump(game_id: str, number: int, device: sharing.Device) -> None:
    form = _form(TrumpForm)
    rounds.record_trump(
        game_id,
        device,
        number,
        form.turned.data,
        form.chosen.data or None,
        if_match=_if_match(form),
        scored_too=False,
    )


def _bid(game_id: str, number: int, device: sharing.Device) -> None:
    form = _form(SeatForm)
    recorded = rounds.record_bid(
        game_id, device, number, form.seat.data, form.value.data, if_match=_if_match(form)
    )
    again = recorded.dealer_bids_again
    if again is not None:
        # Said once, on the screen the tap leads to, at the seat tapped (its field).
        session[_NOTICE] = [game_id, number, again.field, rule_message(again)]


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


def _tricks(game_id: str, number: int, device: sharing.Device) -> None:
    form = _form(SeatForm)
    rounds.save_trick_draft(
        game_id, device, number, form.seat.data, form.value.data, if_match=_if_match(form)
    )


def _score(game_id: str, number: int, device: sharing.Device) -> None:
    form = _form(VersionedForm)
    rounds.score_round(game_id, device, number, if_match=_if_match(form))


def _all_made(game_id: str, number: int, device: sharing.Device) -> None:
    form = _form(VersionedForm)
    rounds.score_round(game_id, device, number, all_made=True, if_match=_if_match(form))


_ACTIONS: dict[str, Callable[[str, int, sharing.Device], None]] = {
    "trump": _trump,
    "bid": _bid,
    "tricks": _tricks,
    "score": _score,
    "all_made": _all_made,
}


def _refused(game_id: str, number: int, message: str, status: int = 400) -> Response:
    """The page again, fresh, with a message that nothing was saved."""
    snapshot = games.get_game(game_id)
    snapshot.round(number)  # an unknown round is a 404
    flash(message, "error")
    return _render_round(snapshot, number, status=status)


# -- Correcting a scored round -------------------------------------------------------------


@bp.route("/games/<game_id>/rounds/<round:number>/correct", methods=["GET", "POST"])
def correct(game_id: str, number: int) -> Page:
    """Reopen a scored round: change its trump, bids or tricks under the same checks."""
    snapshot = games.get_game(game_id)
    view = snapshot.round(number)
    if not _editable(game_id):
        raise errors.NotKeeper()
    if view.state is not rules.RoundState.SCORED:
        flash(gettext("Round %(round)d is not scored yet: play it first.", round=number))
        return redirect(url_for(".game", game_id=game_id), 303)
    values = Correction(
        turned=view.trump.turned.value if view.trump else "",
        chosen=view.trump.suit.value if view.trump and view.trump.suit else "",
        bids=list(view.bids or ()),
        tricks=list(view.tricks or ()),
    )
    error = None
    error_field = None
    status = 200
    if request.method == "POST" and request.form.get("action") == "refresh":
        # A bid tapped on the form: it comes back with the dealer's forbidden bid marked.
        values = _correction_values(snapshot, number)
    elif request.method == "POST":
        form = VersionedForm()
        recorded, values = values, _correction_values(snapshot, number)
        if form.validate() and _same_facts(snapshot, number, recorded, values):
            # Saved as it was: no write, so no ✎ and no entry in the round's history.
            flash(gettext("Nothing was changed in round %(round)d.", round=number))
            return redirect(url_for(".sheet", game_id=game_id) + f"#round-{number}", 303)
        try:
            bids, tricks = values.bids, values.tricks
            if not form.validate() or None in bids or None in tricks:
                raise _FormInvalid()
            rounds.correct_round(
                game_id,
                current_device(),
                number,
                turned=None if snapshot.table.deals_every_card(number) else values.turned,
                chosen=values.chosen or None,
                bids=[bid or 0 for bid in bids],
                tricks=[count or 0 for count in tricks],
                if_match=_if_match(form),
            )
        except _FormInvalid:
            error = gettext("Choose a bid and the tricks for every player.")
            status = 400
        except rules.RuleError as rule_error:
            error = rule_message(rule_error)
            error_field = rule_error.field
            status = _refusal_status(rule_error)
        else:
            flash(gettext("Round %(round)d is corrected; every total is recomputed.", round=number))
            return redirect(url_for(".sheet", game_id=game_id) + f"#round-{number}", 303)
    body = render_template(
        "correct.html",
        game=snapshot,
        round=view,
        number=number,
        values=values,
        forbidden=screens.forbidden_in_correction(snapshot, number, values.bids),
        suits=list(rules.Suit),
        error=error,
        error_field=error_field if error_field in _correction_fields(snapshot) else None,
        **_helpers(),
    )
    return make_response(body, status)


def _correction_fields(snapshot: loading.GameSnapshot) -> set[str]:
    seats = range(snapshot.table.seats)
    return {"turned", "chosen", *(f"bids[{s}]" for s in seats), *(f"tricks[{s}]" for s in seats)}


@dataclass
class Correction:
    """A round's facts as the correction form holds them (``None``: not chosen)."""

    turned: str
    chosen: str
    bids: list[int | None]
    tricks: list[int | None]


def _same_facts(
    snapshot: loading.GameSnapshot, number: int, recorded: Correction, sent: Correction
) -> bool:
    """Whether the correction form was sent with the round's facts as recorded."""

    def facts(values: Correction) -> tuple[object, ...]:
        if snapshot.table.deals_every_card(number):
            trump: tuple[str, str] = ("", "")  # no trump to give: the form has no field
        else:
            wizard = values.turned == rules.Turned.WIZARD.value
            trump = (values.turned, values.chosen if wizard else "")
        return (*trump, values.bids, values.tricks)

    return facts(recorded) == facts(sent)


def _correction_values(snapshot: loading.GameSnapshot, number: int) -> Correction:
    form = request.form
    seats = snapshot.table.seats

    def numbers(prefix: str) -> list[int | None]:
        return [small_number(form.get(f"{prefix}-{seat}")) for seat in range(seats)]

    turned = form.get("turned", "")
    return Correction(
        turned=turned,
        chosen=form.get("chosen", "") if turned == rules.Turned.WIZARD.value else "",
        bids=numbers("bid"),
        tricks=numbers("tricks"),
    )


# -- Errors --------------------------------------------------------------------------------


def error_page(error: Exception) -> Response:
    """An error as a page: one plain sentence and a way on."""
    status = 500
    message = gettext("Something went wrong on the server, and nothing was changed.")
    if isinstance(error, CSRFError):
        status = 400
        message = gettext(
            "This page was too old to send, so nothing was saved: reload it and tap again."
        )
    elif isinstance(error, errors.StaleVersion):
        return _stale()
    elif isinstance(error, errors.ServiceError):
        # A page asks for no bearer token, so a missing right is 403 there, not 401.
        status = 403 if error.status == 401 else error.status
        message = service_message(error)
    elif isinstance(error, rules.RuleError):
        status = 422
        message = rule_message(error)
    elif isinstance(error, DBAPIError) and (unavailable := i18n.unavailable_message(error)):
        status = 503
        message = unavailable
    elif isinstance(error, HTTPException) and (error.code or 500) < 500:
        status = error.code or 500
        message = {
            404: gettext("There is no page at this address."),
            405: gettext("This page cannot be sent that way."),
            413: gettext("That was more than this page ever sends."),
            429: gettext(
                "Too many requests came from this address: wait a minute, then try again."
            ),
        }.get(status, gettext("This request cannot be handled as it was sent."))
    body = render_template("error.html", message=message, status=status)
    return make_response(body, status)


def _stale() -> Response:
    """Another phone wrote first: say so, and show the game as it is now."""
    flash(
        gettext(
            "This game was changed a moment ago, on another phone or screen, so your tap was not "
            "saved: "
            "here is the game as it is now."
        ),
        "error",
    )
    game_id = (request.view_args or {}).get("game_id", "")
    number = (request.view_args or {}).get("number")
    snapshot = games.get_game(game_id)
    if number is not None and request.endpoint == "pages.round_action":
        return _render_round(snapshot, number, status=412)
    target = url_for(".game", game_id=game_id)
    if number is not None:
        target = url_for(request.endpoint or ".game", game_id=game_id, number=number)
    return redirect(target, 303)
