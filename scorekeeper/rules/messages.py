"""Refusals: each a :class:`RuleError`, its message an untranslated template the web layer
translates (``str(error)`` is the English sentence). The modules mark messages with
:func:`gettext_noop` as ``_`` and :func:`ngettext_noop` as ``_n``, the names babel extracts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark a message for translation; the web layer translates it when it is shown."""
    return message


def ngettext_noop(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for translation (extracted as ``_n:1,2``)."""
    return singular, plural


#: The minus sign every negative number is written with ("−1", not "-1").
MINUS = "\N{MINUS SIGN}"


@dataclass(frozen=True)
class Count:
    """A number a sentence states (``%(name)s`` in its message), which can be large: the web
    layer writes it as the reader's language groups digits ("1,000", "1.000"); ``str`` gives
    the English. Either way a negative number has a real minus ("−1")."""

    value: int

    def __str__(self) -> str:
        return f"{self.value:,}".replace("-", MINUS)


class RuleError(ValueError):
    """A fact the rules forbid.

    ``message`` (a pair from :func:`ngettext_noop` when the sentence depends on the number
    ``num``) is an untranslated template with ``%(name)s`` placeholders filled from
    ``params``; ``field`` names the offending input (``"bids[2]"``) when there is one.
    ``note`` is said in brackets at the sentence's end: why a variant's rule applies here.
    """

    def __init__(
        self,
        message: str | tuple[str, str],
        /,
        *,
        field: str | None = None,
        num: int | None = None,
        note: str | None = None,
        **params: object,
    ) -> None:
        if isinstance(message, tuple):
            self.message, plural = message
            self.plural: str | None = plural
        else:
            self.message, self.plural = message, None
        self.num = num
        self.field = field
        self.note = note
        self.params: dict[str, object] = params
        super().__init__(self.render())

    def render(
        self,
        gettext: Callable[[str], str] | None = None,
        ngettext: Callable[[str, str, int], str] | None = None,
        **shown: object,
    ) -> str:
        """The sentence, translated by the given functions (English without them); ``shown``
        replaces parameters by the words a page shows for them (a suit's name for its key)."""
        if self.plural is not None and self.num is not None:
            if ngettext is not None:
                template = ngettext(self.message, self.plural, self.num)
            else:
                template = self.message if self.num == 1 else self.plural
                template = gettext(template) if gettext is not None else template
        else:
            template = gettext(self.message) if gettext is not None else self.message
        sentence = template % {"num": self.num, **self.params, **shown}
        if self.note is None:
            return sentence
        # Said in brackets before the sentence's last mark: a refusal stays one sentence.
        note = gettext(self.note) if gettext is not None else self.note
        sentence = sentence.rstrip()
        end = sentence[-1:] if sentence[-1:] in ".!?…" else ""
        return f"{sentence.removesuffix(end)} ({note}){end}"


class SetupError(RuleError):
    """The game cannot be set up this way (players, names, dealer, rules)."""


class TrumpError(RuleError):
    """The trump given is not one the rules allow."""


class BidError(RuleError):
    """A bid the rules forbid."""


class TrickError(RuleError):
    """Trick counts the rules forbid."""


class OutOfTurnError(RuleError):
    """The fact comes before its time: an earlier round or step is not done yet."""
