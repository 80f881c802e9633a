"""The pages of a game: the language menu, a new game, the game, its sheet, and the
spectator page that follows it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Any

from flask import (
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import ngettext
from werkzeug.exceptions import BadRequest
from werkzeug.wrappers import Response
from wtforms.fields.choices import SelectChoice

from .. import errors, security
from ..i18n import gettext, rule_message, service_message
from ..rules.messages import SetupError
from ..rules.table import MAX_PLAYERS, MIN_PLAYERS, NAME_MAX_LENGTH, full_game_rounds
from ..rules.variants import BID_RULES, REVEALS, BidReveal, BidRule
from ..services import games, ids
from . import live, screens
from .common import LANGUAGE_KEY, Page, back_to, current_browser, keeps_score, page_blueprint
from .following import remember_followed
from .forms import DECK_CHOICES, FULL_GAME, PLAN_CHOICES, RANDOM_DEALER, NewGameForm, small_number

bp = page_blueprint("games", __name__)


# -- The language --------------------------------------------------------------------------


@bp.post("/language")
def language() -> Page:
    """Switch the pages' language for this browser (over its Accept-Language), back to the
    page the switch was tapped on."""
    chosen = request.form.get("language", "")
    if chosen not in current_app.config["LANGUAGES"]:
        raise BadRequest()
    session[LANGUAGE_KEY] = chosen
    session.permanent = True
    return back_to(url_for("history.home"))


# -- A new game ----------------------------------------------------------------------------


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
    carried: list[str] = []
    if request.method == "GET":
        again = _setup_again(request.args.get("again"))
        remembered = None if again else _remembered_setup()
        # Said when the form comes back as this browser left it with a name typed in (not
        # after a tap on the form itself, which answers with this page).
        editing = session.pop(EDITING_KEY, False)
        restored = (
            not editing
            and remembered is not None
            and any(name.strip() for name in remembered.seat_names())
        )
        form = again or remembered or form
        if again:
            carried = _carried_over(again)
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
            _remember_setup(_setup_of(form))
            status = 422
        else:
            # Every tap on the form is remembered and answered with the form's page, so a
            # reload (or the back button) shows it as it is and sends nothing again.
            _remember_setup(_rearranged(_setup_of(form), action))
            session[EDITING_KEY] = True
            return redirect(url_for(".new_game"), 303)
    return _render_new_game(form, status, restored=restored, carried=carried)


SETUP_KEY = "setup"
EDITING_KEY = "setup_editing"


def _remember_setup(setup: dict[str, Any]) -> None:
    setup["names"] = [name[: NAME_MAX_LENGTH * 2] for name in setup["names"]]
    session[SETUP_KEY] = setup


def _carried_over(form: NewGameForm) -> list[str]:
    """The settings of a form filled in for the player that differ from a new game's, said in
    words, so that none is carried over unseen (a short game, covered bids)."""
    said = []
    rounds = form.round_count()
    if rounds is not None:
        said.append(ngettext("%(num)d round only", "%(num)d rounds only", rounds))
    policy = BID_RULES.get(form.bid_rule.data)
    if policy is not None and form.bid_rule.data != BidRule.STANDARD:
        said.append(gettext(policy.title))
    if form.last_bidder_may_bid_zero.data:
        said.append(gettext("the dealer may always bid 0"))
    if form.bid_reveal.data in REVEALS and form.bid_reveal.data != BidReveal.OPEN:
        said.append(screens.reveal_words(BidReveal(form.bid_reveal.data)))
    if form.clairvoyance.data:
        said.append(gettext("Clairvoyance in round 1"))
    return said


def form_game_id(browser_key: str, form_id: str) -> str:
    """The id of the game a new-game form starts: the same for the same form sent twice by
    the same browser (a double tap), unguessable from the form alone (keyed by the app's
    secret and the browser's key)."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, f"{browser_key}\0{form_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[: ids.GAME_ID_BYTES]).decode()


_FORM_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def _setup_of(form: NewGameForm) -> dict[str, Any]:
    """The form's choices as plain values (what the session keeps)."""
    fields = {key: value for key, value in form.data.items() if key != "csrf_token"}
    return {**fields, "names": form.seat_names()}


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
        if key != "names" and (isinstance(value, str | bool | None) or key == "special_cards")
    }
    return _form_of({**fields, "names": names[:MAX_PLAYERS]})


def _setup_again(game_id: str | None) -> NewGameForm | None:
    """The form set up as game ``game_id`` was, for the same table to play again: the same
    seats and rules, the first deal passing to the next seat (``None``: no such game)."""
    if not game_id:
        return None
    try:
        table = games.get_game(game_id).table
    except errors.ServiceError:
        return None
    full = table.rules.rounds == full_game_rounds(table.seats, table.rules.round_plan)
    return _form_of(
        {
            "names": list(table.players),
            "first_dealer": str((table.first_dealer + 1) % table.seats),
            "bid_rule": table.rules.bid_rule.value,
            "last_bidder_may_bid_zero": table.rules.last_bidder_may_bid_zero,
            "bid_reveal": table.rules.bid_reveal.value,
            "clairvoyance": table.rules.clairvoyance,
            "rounds": FULL_GAME if full else str(table.rules.rounds),
            "special_cards": list(table.rules.specials),
            "round_plan": table.rules.round_plan.value,
        }
    )


def _form_of(setup: dict[str, Any]) -> NewGameForm:
    """The new-game form showing ``setup``."""
    return NewGameForm(formdata=None, **setup)


def _start_game(form: NewGameForm) -> Response | None:
    if not form.validate() or not _understood(form):
        form.form_errors.append(gettext("Some of the choices were not understood: check them."))
        return None
    browser = current_browser(create=True)
    assert browser is not None
    form_id = request.form.get("form_id", "")
    game_id = form_game_id(browser.key, form_id) if _FORM_ID.fullmatch(form_id) else None
    try:
        created = games.create_game(
            form.seat_names(),
            first_dealer=form.dealer_seat(),
            bid_rule=form.bid_rule.data,
            last_bidder_may_bid_zero=bool(form.last_bidder_may_bid_zero.data),
            bid_reveal=form.bid_reveal.data,
            clairvoyance=bool(form.clairvoyance.data),
            rounds=form.round_count(),
            special_cards=form.specials(),
            round_plan=form.plan(),
            browser=browser,
            game_id=game_id,
        )
    except errors.GameExists:
        # The same form sent again (a double tap): on to the game the first one started.
        return redirect(url_for(".game", game_id=game_id), 303)
    except SetupError as error:
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


def _attach_setup_error(form: NewGameForm, error: SetupError) -> None:
    message = rule_message(error)
    player = _PLAYER_FIELD.fullmatch(error.field or "")
    if player and int(player[1]) < len(form.names.entries):
        form.names.entries[int(player[1])].errors = [message]
    elif error.field == "rules.rounds":
        form.rounds.errors = [message]
    else:
        form.form_errors.append(message)


_PLAYER_FIELD = re.compile(r"players\[([0-9]+)\]")


def _rearranged(setup: dict[str, Any], action: str) -> dict[str, Any]:
    """The setup with a seat added, removed or moved up; the chosen dealer stays the same
    person, and a number of rounds chosen for another table size goes back to the full game."""
    names: list[str] = setup["names"]
    dealer = _form_of(setup).dealer_seat()
    order = list(range(len(names)))
    verb, _sep, argument = action.partition("-")
    seat = small_number(argument)
    seat = -1 if seat is None else seat
    if verb == "add" and len(names) < MAX_PLAYERS:
        order.append(-1)
    elif verb == "remove" and 0 <= seat < len(names) and len(names) > MIN_PLAYERS:
        order.pop(seat)
    elif verb == "up" and 0 < seat < len(names):
        order[seat - 1], order[seat] = order[seat], order[seat - 1]
    new_names = [names[old] if old >= 0 else "" for old in order]
    new_dealer = RANDOM_DEALER
    if dealer is not None and dealer in order:
        new_dealer = str(order.index(dealer))
    rounds = setup["rounds"] if len(order) == len(names) else None
    return {**setup, "names": new_names, "first_dealer": new_dealer, "rounds": rounds or FULL_GAME}


def _render_new_game(
    form: NewGameForm, status: int, *, restored: bool = False, carried: list[str] | None = None
) -> Response:
    seats = len(form.names.entries)
    full = full_game_rounds(min(max(seats, MIN_PLAYERS), MAX_PLAYERS), form.plan())
    form.rounds.choices = [
        SelectChoice(FULL_GAME, gettext("Full game: %(rounds)d rounds", rounds=full)),
        *[SelectChoice(str(count)) for count in range(1, full)],
    ]
    body = render_template(
        "new_game.html",
        form=form,
        # The browser's key made now, so a form sent twice at once names the same one.
        suggestions=games.known_names(current_browser(create=True)),
        policies=BID_RULES,
        reveals=REVEALS,
        deck_choices=DECK_CHOICES,
        plan_choices=PLAN_CHOICES,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        max_name=NAME_MAX_LENGTH,
        restored=restored,
        carried=carried or [],
        # A new id for each showing of the form: sent twice, it starts one game.
        form_id=secrets.token_urlsafe(16),
    )
    return make_response(body, status)


# -- A game --------------------------------------------------------------------------------


@bp.get("/games/<game_id>")
def game(game_id: str) -> Page:
    """The game as it stands: the round to play, or the final standings."""
    snapshot = games.get_game(game_id)
    current = snapshot.view.current_round
    if not keeps_score(game_id):
        return redirect(url_for(".spectate", game_id=game_id), 303)
    if current is None:
        return render_template("game_over.html", game=snapshot, keeper=keeps_score(game_id))
    return redirect(url_for("rounds.round_screen", game_id=game_id, number=current), 303)


@bp.get("/games/<game_id>/sheet")
def sheet(game_id: str) -> Page:
    """The Tablet of Truth: every round × every player. Anyone with the game's id may read it."""
    snapshot = games.get_game(game_id)
    keeper = keeps_score(game_id)
    if not keeper:
        remember_followed(game_id)
    return render_template("sheet.html", game=snapshot, keeper=keeper)


# -- Following a game ----------------------------------------------------------------------


@bp.get("/games/<game_id>/view")
def spectate(game_id: str) -> Page:
    """The game for everyone at the table (its id is the capability to read it): standings,
    the round being played, the chart and the sheet; it updates by itself, and no control
    on it changes the game. Without JavaScript, a reload shows the current state."""
    snapshot = games.get_game(game_id)
    remember_followed(game_id)
    tag = live.tag(snapshot.version)
    return render_template("spectate.html", game=snapshot, live_tag=tag, **live.context(snapshot))


@bp.get("/games/<game_id>/view/events")
def spectate_events(game_id: str) -> Response:
    """The spectator page's stream (Server-Sent Events): the changing part of the page
    again each time the game changes, found by this worker's sweep (push.py, web/live.py).
    The page names the version it shows (``shown``, then ``Last-Event-ID``), and with
    ``parts=round`` takes a change within the round being played as that round alone.
    Refused before anything is read when the worker holds its ceiling of streams (503: the
    page asks at ``spectate_live`` instead) or the address its cap (429)."""
    slot = live.admit()
    try:
        version = games.game_version(game_id)
        shown = request.headers.get("Last-Event-ID") or request.args.get("shown", "")
        parts = request.args.get("parts") == "round"
        return live.stream(slot, game_id, version, shown, _gone, rounds=parts)
    except errors.GameNotFound:
        slot.end()
        return make_response(_gone(), 404)
    except BaseException:
        slot.end()
        raise


@bp.get("/games/<game_id>/view/live")
def spectate_live(game_id: str) -> Response:
    """The changing part of the spectator page, for a client that asks rather than follows
    the stream: 304 while the game's version (and the language) is the one it holds, after
    one statement; the fragment of a new version is rendered once and served
    to every follower (web/live.py)."""
    try:
        version = games.game_version(game_id)
        etag = live.tag(version)
        if request.if_none_match.contains_weak(etag):
            response = Response(status=304)
        else:
            made = live.fragment(game_id, version)
            response = make_response(made.body)
            etag = live.tag(made.version)
    except errors.GameNotFound:
        return make_response(_gone(), 404)
    # Weak: the compressed and the plain body are the same page (Flask-Compress leaves weak
    # tags as they are). The fragment is the same for every viewer but its language.
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    return response


def _gone() -> str:
    """What the page shows in place of a game that is gone."""
    return render_template("_live_gone.html", message=service_message(errors.GameNotFound()))
