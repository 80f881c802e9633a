"""Refusals: every one a ValueError, its message a translatable template."""

from __future__ import annotations

import pytest

from scorekeeper.rules.bids import verify_bids
from scorekeeper.rules.cards import trump_from
from scorekeeper.rules.messages import (
    BidError,
    OutOfTurnError,
    RuleError,
    SetupError,
    TrickError,
    TrumpError,
)
from scorekeeper.rules.variants import BidRule

from .helpers import make_table

# -- Messages are translatable templates ---------------------------------------------------


def test_rule_error_renders_plural_template_through_ngettext() -> None:
    table = make_table(3, first_dealer=0, bid_rule=BidRule.PLUS_MINUS_ONE)  # Ute deals round 5
    with pytest.raises(BidError) as caught:
        verify_bids(table, 5, [2, 2, 1], [0, 0, 0])
    error = caught.value
    calls: list[tuple[str, str, int]] = []

    def ngettext(singular: str, plural: str, num: int) -> str:
        calls.append((singular, plural, num))
        return "%(name)s gibt und darf nicht %(bid)d ansagen: das ergäbe die %(num)d Stiche."

    def gettext(message: str) -> str:
        raise AssertionError("a plural message goes through ngettext")

    german = error.render(gettext, ngettext)
    assert german == "Ute gibt und darf nicht 2 ansagen: das ergäbe die 5 Stiche."
    assert calls == [(error.message, error.plural, 5)]
    assert "%(name)s" in error.message  # the template, not the filled-in sentence
    assert error.render() == str(error)


def test_rule_error_renders_template_through_gettext() -> None:
    with pytest.raises(TrumpError) as caught:
        trump_from("wizard", "purple")
    error = caught.value
    templates = {error.message: "Der Geber wählt eine von %(suits)s, nicht %(chosen)s."}
    german = error.render(templates.__getitem__, None)
    assert german == "Der Geber wählt eine von blue, green, red, yellow, nicht purple."
    assert str(error) == "The dealer chooses one of blue, green, red, yellow, not “purple”."


@pytest.mark.parametrize(
    ("translated", "said"),
    [
        ("Das ergäbe die %(num)d Stiche.", "Das ergäbe die 2 Stiche (Notiz)."),
        ("Das ergäbe die %(num)d Stiche. ", "Das ergäbe die 2 Stiche (Notiz)."),
        ("Das ergäbe die %(num)d Stiche…", "Das ergäbe die 2 Stiche (Notiz)…"),
        ("Das ergäbe die %(num)d Stiche", "Das ergäbe die 2 Stiche (Notiz)"),
    ],
)
def test_a_note_is_said_in_brackets_before_the_sentences_last_mark(
    translated: str, said: str
) -> None:
    error = BidError(("one %(num)d trick.", "%(num)d tricks."), num=2, note="A note")
    assert str(error) == "2 tricks (A note)."
    german = error.render({"A note": "Notiz"}.__getitem__, lambda *_args: translated)
    assert german == said


@pytest.mark.parametrize("kind", [SetupError, TrumpError, BidError, TrickError, OutOfTurnError])
def test_every_refusal_is_a_value_error(kind: type[RuleError]) -> None:
    assert issubclass(kind, RuleError)
    assert issubclass(kind, ValueError)
