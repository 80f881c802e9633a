"""Every user-visible sentence can be translated: the extraction finds it, plurals too."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

from scorekeeper import api, errors
from scorekeeper.rules.variants import BID_RULES

ROOT = Path(__file__).resolve().parents[2]
# The keywords babel.cfg's extraction command names.
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "_n": (1, 2)}


def _extracted() -> set[str | tuple[str, ...]]:
    found = extract_from_dir(
        str(ROOT / "scorekeeper"), method_map=[("**.py", "python")], keywords=KEYWORDS
    )
    return {message for _file, _line, message, _comments, _context in found}


def test_babel_cfg_names_the_keywords_the_tests_extract_with() -> None:
    assert "-k _l -k _n:1,2" in (ROOT / "babel.cfg").read_text()


def test_plural_messages_are_extracted_as_pairs() -> None:
    messages = _extracted()
    assert (
        "%(name)s deals and may not bid %(bid)d: the bids would add up to the %(num)d trick "
        "of this round.",
        "%(name)s deals and may not bid %(bid)d: the bids would add up to the %(num)d tricks "
        "of this round.",
    ) in messages


def test_every_rule_and_service_message_is_extracted() -> None:
    messages = _extracted()
    for error in (
        errors.GameNotFound,
        errors.RoundNotFound,
        errors.TokenMissing,
        errors.TokenRejected,
        errors.StaleVersion,
    ):
        assert error.message in messages, error
    for people in ("Humans", "Elves", "Dwarves", "Giants"):
        assert people in messages
    for policy in BID_RULES.values():
        assert policy.summary in messages


def test_problem_titles_are_extracted() -> None:
    messages = _extracted()
    for title in api.TITLES.values():
        assert str(title) in messages  # untranslated outside a request: the message id


def test_templates_hold_no_text_outside_the_translation_function() -> None:
    # What is left of a template once its tags, its Jinja expressions and its comments are
    # gone is what it would show untranslated: only symbols and punctuation may be left.
    leftovers = {}
    for template in sorted((ROOT / "templates").rglob("*.html")):
        source = template.read_text(encoding="utf-8")
        source = re.sub(r"\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}", " ", source, flags=re.S)
        source = re.sub(r"<[^>]*>", " ", source, flags=re.S)
        words = re.findall(r"[^\W\d_]{2,}", source)
        if words:
            leftovers[template.name] = words
    assert leftovers == {}


def test_template_messages_are_extracted() -> None:
    found = extract_from_dir(
        str(ROOT / "templates"),
        method_map=[("**.html", "jinja2")],
        keywords=KEYWORDS,
    )
    messages = {message for _file, _line, message, _comments, _context in found}
    assert "Which card was turned up for trump?" in messages
    assert ("%(name)s won %(num)d trick", "%(name)s won %(num)d tricks") in messages
    assert len(messages) > 90
