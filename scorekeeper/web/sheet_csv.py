"""A game's sheet as CSV, for a spreadsheet: one row per player per round begun, in the
request's language, as the sheet page reads it (hidden bids empty)."""

from __future__ import annotations

import csv
import io

from babel.numbers import get_decimal_symbol
from flask_babel import get_locale

from ..i18n import gettext
from ..rules.game import RoundState
from ..rules.variants import Special
from ..services import loading
from . import screens

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def guarded(text: str) -> str:
    """A text cell (never a number) with an apostrophe before what would start a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def csv_delimiter() -> str:
    """The language's list separator: ";" where the decimal mark is "," (as Excel expects)."""
    return ";" if get_decimal_symbol(get_locale()) == "," else ","


def game_csv(game: loading.GameSnapshot) -> str:
    """One row per player per round begun (hidden bids empty), in the request's language."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=csv_delimiter(), lineterminator="\r\n")
    # The Cloud's and the Bomb's columns only for a game with them in the deck.
    deck = game.table.rules.special_cards
    cloud, bomb = Special.CLOUD in deck, Special.BOMB in deck
    extra = [gettext("bid changed by the Cloud")] * cloud + [gettext("the Bomb was played")] * bomb
    writer.writerow(
        [
            gettext("round"),
            gettext("cards"),
            gettext("dealer"),
            gettext("trump"),
            gettext("player"),
            gettext("bid"),
            gettext("tricks"),
            gettext("score"),
            gettext("running total"),
            *extra,
        ]
    )
    players = game.table.players
    for row in screens.sheet_rows(game):
        view = row.view
        if view.state in (RoundState.WAITING, RoundState.TRUMP):
            continue
        for seat, cell in enumerate(row.cells):
            writer.writerow(
                [
                    view.number,
                    view.cards,
                    guarded(players[view.dealer]),
                    screens.trump_label(view.trump) if view.trump else "",
                    guarded(players[seat]),
                    # csv writes None as an empty cell: a fact not yet recorded.
                    cell.bid,
                    cell.tricks,
                    cell.score,
                    cell.total,
                    *([cell.cloud] if cloud else []),
                    *([gettext("yes") if view.bomb else ""] if bomb else []),
                ]
            )
    return out.getvalue()
