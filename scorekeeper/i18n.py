"""Messages of the rules and the service, translated for the request's language."""

from __future__ import annotations

import decimal
import math
from datetime import datetime
from typing import Any

import flask_babel
from babel import Locale
from flask import Flask, Response, current_app
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context

from . import errors
from .database import is_connection_lost, is_lock_timeout, is_read_only
from .rules.cards import Suit
from .rules.messages import MINUS, Count, RuleError


def gettext(message: str, **params: Any) -> str:
    """``message`` translated, its ``%(name)s`` placeholders filled from ``params``."""
    return str(flask_babel.gettext(message, **params))


def rule_message(error: RuleError, *, api: bool = False) -> str:
    """The rule's sentence in the request's language; ``api``: it lists the suits by the
    values a client sends ("blue, green"), which a page names instead."""
    translations = get_translations()
    shown = {}
    if "suits" in error.params and not api:
        # The API's keys ("blue, green") would be English on a page: name the suits instead.
        shown["suits"] = ", ".join(suit_label(suit) for suit in Suit)
    suit = error.params.get("suit")
    if isinstance(suit, Suit):
        shown["suit"] = suit_label(suit)  # a card's suit: "red Dwarves", "rote Zwerge"
    shown.update(_counts(error.params))
    return error.render(translations.ugettext, translations.ungettext, **shown)


def _counts(params: dict[str, object]) -> dict[str, str]:
    """The :class:`Count` parameters of a sentence, as the language writes numbers."""
    return {key: number(value.value) for key, value in params.items() if isinstance(value, Count)}


def suit_label(suit: Suit) -> str:
    """A suit by colour and people: "red Dwarves" (a translation may reorder the two)."""
    colour, people = gettext(suit.colour), gettext(suit.people)
    # Translators: a suit by its colour and its people, as in "red Dwarves"
    return gettext("%(colour)s %(people)s", colour=colour, people=people)


def service_message(error: errors.ServiceError, *, api: bool = False) -> str:
    """The service's sentence in the request's language (a rule's refusal quoted in it, too,
    as :func:`rule_message` says it), and the wait, when the refusal has one."""
    params = {
        key: rule_message(value, api=api) if isinstance(value, RuleError) else value
        for key, value in error.params.items()
    }
    said = gettext(error.message, **(params | _counts(params)))
    return said if error.wait is None else f"{said} {wait_sentence(error.wait)}"


def wait_sentence(seconds: int) -> str:
    """How long to wait, as ``Retry-After`` says it: in seconds, minutes or hours, rounded
    up, so that trying again then works ("Try again in 1 minute.")."""
    if seconds < 60:
        return str(
            flask_babel.ngettext(
                "Try again in %(num)d second.", "Try again in %(num)d seconds.", seconds
            )
        )
    if seconds < 3600:
        minutes = math.ceil(seconds / 60)
        return str(
            flask_babel.ngettext(
                "Try again in %(num)d minute.", "Try again in %(num)d minutes.", minutes
            )
        )
    hours = math.ceil(seconds / 3600)
    return str(
        flask_babel.ngettext("Try again in %(num)d hour.", "Try again in %(num)d hours.", hours)
    )


def unavailable_message(error: Exception) -> str | None:
    """The sentence for a database error a retry may cure (503), else ``None`` (a fault: 500)."""
    if is_lock_timeout(error):
        return gettext("The database is busy: try again in a moment.")
    if is_connection_lost(error):
        return gettext("The database could not be reached: try again in a moment.")
    if is_read_only(error):
        return gettext("The database takes no changes at the moment: try again in a moment.")
    return None


def duration(seconds: int) -> str:
    """A window of time in whole hours, else minutes, else seconds: "24 hours", "1 minute"."""
    if seconds % 3600 == 0:
        return str(flask_babel.ngettext("%(num)d hour", "%(num)d hours", seconds // 3600))
    if seconds % 60 == 0:
        return str(flask_babel.ngettext("%(num)d minute", "%(num)d minutes", seconds // 60))
    return str(flask_babel.ngettext("%(num)d second", "%(num)d seconds", seconds))


def number(value: int) -> str:
    """A whole number as the language writes it ("1,234" / "1.234"), with a real minus: "−10"."""
    size = abs(value)
    # Below 1,000 no language groups digits: the common case skips babel's formatting.
    if size < 1000:
        digits = str(size)
    else:  # babel works within the decimal context's 28 digits: add the number's own
        with decimal.localcontext(prec=28 + len(str(size))):
            digits = str(flask_babel.format_decimal(size))
    return f"{MINUS}{digits}" if value < 0 else digits


def signed(value: int) -> str:
    """A score with its sign: "+30", "−10", "0"."""
    return f"+{number(value)}" if value > 0 else number(value)


def moment(value: datetime) -> str:
    """A day and time in UTC as the language writes it (the page's script shows local time)."""
    return str(flask_babel.format_datetime(value, "medium", rebase=False))


def date(value: datetime) -> str:
    """A day as the language writes it ("Nov 21, 2026" / "21.11.2026")."""
    return str(flask_babel.format_date(value, "medium"))


def current_locale() -> str:
    """The request's language code: "en", "de"."""
    return str(get_locale() or "en")


def other_languages() -> list[tuple[str, str]]:
    """The app's other languages, each with its name in itself: [("de", "Deutsch")]."""
    current = current_locale()
    return [
        (code, _native_name(code)) for code in current_app.config["LANGUAGES"] if code != current
    ]


def _native_name(code: str) -> str:
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def init_app(app: Flask) -> None:
    """Messages, numbers, dates, the language and its menu in templates; each page says its
    language."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=_template_gettext, ngettext=_template_ngettext, newstyle=True
    )
    app.context_processor(lambda: {TRANSLATIONS: get_translations()})
    app.jinja_env.filters.update(number=number, signed=signed, date=date, datetime=moment)
    app.jinja_env.globals.update(current_locale=current_locale, other_languages=other_languages)
    app.after_request(content_language)


# A page's messages are translated by the catalogue its render looked up once: a round screen
# says some fifty, and Flask-Babel's own template callables look the request's catalogue up
# anew for each (docs/performance.md, "Where a write goes").
TRANSLATIONS = "_translations"


def _catalogue(context: Context) -> Any:
    """The render's catalogue; a template rendered without the context processor's (none
    here yet) looks it up."""
    return context.get(TRANSLATIONS) or get_translations()


@pass_context
def _template_gettext(context: Context, message: str) -> str:
    return str(_catalogue(context).ugettext(message))


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, count: int) -> str:
    return str(_catalogue(context).ungettext(singular, plural, count))


def content_language(response: Response) -> Response:
    """A page's language in its headers (the worker keeps its offline page in the latest's)."""
    if response.mimetype in ("text/html", "application/manifest+json"):
        response.headers.setdefault("Content-Language", current_locale())
    return response
