"""The German catalogue is whole: every message the sources mark has a German translation,
with the same placeholders, and the compiled .mo the app reads is the .po's.

When a test here fails after new messages were marked: `make translations`, translate the
messages it lists in scorekeeper/translations/de/LC_MESSAGES/messages.po, `make translations`
again (it compiles), and commit the .pot, .po and .mo.
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGUAGES = ["de"]
# As babel.cfg's extraction command (and `make translations`) names them.
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "_n": (1, 2)}
METHODS = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]")

MsgId = str | tuple[str, ...]


@cache
def extracted() -> frozenset[MsgId]:
    """Every message the sources mark, as `make translations` extracts them."""
    found = extract_from_dir(str(ROOT), method_map=METHODS, keywords=KEYWORDS)
    return frozenset(message for _file, _line, message, _comments, _context in found)


def catalogue(language: str) -> Catalog:
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def _key(message: MsgId) -> str:
    return message[0] if isinstance(message, tuple) else message


def _translated(message: Message | None) -> bool:
    if message is None or message.fuzzy:
        return False
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings)


def test_make_translations_extracts_what_the_test_extracts() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "pybabel extract -F babel.cfg -k _l -k _n:1,2" in makefile
    config = (ROOT / "babel.cfg").read_text()
    for pattern, method in METHODS:
        assert f"[{method}: {pattern}]" in config


def test_the_sources_mark_the_messages_of_rules_templates_and_forms() -> None:
    messages = {_key(message) for message in extracted()}
    assert "Humans" in messages  # the rules package, through its _() marker
    assert "%(num)d card each" in messages  # a template's ngettext
    assert "First dealer" in messages  # forms.py, lazily
    assert "No connection" in messages  # the offline page


def test_every_message_has_a_german_translation() -> None:
    for language in LANGUAGES:
        po = catalogue(language)
        missing = sorted(
            _key(message) for message in extracted() if not _translated(po.get(_key(message)))
        )
        assert missing == [], (
            f"{len(missing)} messages have no {language} translation (or a fuzzy one): run "
            "`make translations`, translate them in "
            f"scorekeeper/translations/{language}/LC_MESSAGES/messages.po, and run it again:\n"
            + "\n".join(missing)
        )


def test_plural_messages_are_translated_with_their_plurals() -> None:
    for language in LANGUAGES:
        po = catalogue(language)
        for message in extracted():
            entry = po.get(_key(message))
            if isinstance(message, tuple) and entry is not None:
                assert isinstance(entry.id, tuple), f"{message[0]!r} lost its plural in the .po"
                assert len(entry.string) == po.num_plurals, message[0]


def test_translations_keep_the_placeholders_of_their_message() -> None:
    wrong = []
    for language in LANGUAGES:
        for message in catalogue(language):
            if not message.id or not message.string:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for index, string in enumerate(strings):
                source = ids[min(index, len(ids) - 1)]
                if sorted(PLACEHOLDER.findall(string)) != sorted(PLACEHOLDER.findall(source)):
                    wrong.append(f"{language}: {source!r} → {string!r}")
                if "%" in PLACEHOLDER.sub("", string).replace("%%", ""):
                    wrong.append(f"{language}: a stray % in {string!r}")
    assert wrong == []


def test_the_compiled_catalogue_is_the_po() -> None:
    for language in LANGUAGES:
        compiled = io.BytesIO()
        write_mo(compiled, catalogue(language))
        mo_path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
        assert mo_path.read_bytes() == compiled.getvalue(), (
            f"{mo_path.relative_to(ROOT)} is not its .po compiled: run `make translations`"
        )


def test_the_po_holds_no_message_the_sources_dropped() -> None:
    keys = {_key(message) for message in extracted()}
    for language in LANGUAGES:
        stale = sorted(
            str(_key(message.id))
            for message in catalogue(language)
            if message.id and _key(message.id) not in keys
        )
        assert stale == [], "messages no source marks any more (`make translations`):\n" + (
            "\n".join(stale)
        )
