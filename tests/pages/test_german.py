"""The pages in German: every page walked with ``Accept-Language: de`` shows no English
message, the menu's switch overrides the browser's language, numbers and dates per locale."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html import unescape

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from scorekeeper import i18n
from scorekeeper.rules.messages import Count, RuleError

from ..app.test_catalogue import PLACEHOLDER, catalogue
from ..keeper_phone import KeeperPhone
from .helpers import correction, played, started

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.8"}


def phone_in(app: Flask, environ: dict[str, str]) -> KeeperPhone:
    client = app.test_client()
    client.environ_base.update(environ)
    return KeeperPhone(client)


def shown(response: TestResponse) -> str:
    """What a reader gets of the page: its text, and the labels and titles of its controls."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style|title)\b.*?</\1>", " ", body, flags=re.S)
    labels = re.findall(r'(?:aria-label|aria-description|title)="([^"]*)"', body)
    words = re.sub(r"<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", unescape(" ".join([words, *labels]))).strip()


def _english_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """A pattern for each English message whose German differs, its placeholders matching
    any short text. A one-word message that German uses too ("Wizard", the game) is left out."""
    german = catalogue("de")
    german_words = set()
    pairs = []
    for message in german:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for source, translation in zip(ids, strings, strict=False):
            german_words.update(re.findall(r"\w+", PLACEHOLDER.sub(" ", translation)))
            if source != translation:
                pairs.append(source)
    patterns = []
    for source in pairs:
        parts = PLACEHOLDER.split(source)[::2]  # the text between the placeholders
        literal = " ".join(parts)
        if not re.search(r"[A-Za-z]{2}", literal):
            continue
        if re.fullmatch(r"\w+", literal.strip()) and literal.strip() in german_words:
            continue
        pattern = r".{1,80}?".join(re.escape(part) for part in parts)
        patterns.append((source, re.compile(rf"(?<!\w){pattern}(?!\w)")))
    return patterns


class Walk:
    """Pages seen in German; each must hold no English message."""

    def __init__(self, phone: KeeperPhone) -> None:
        self.phone = phone
        self.patterns = _english_patterns()
        self.english: list[str] = []
        self.seen = ""

    def check(self, name: str, response: TestResponse, status: int = 200) -> str:
        assert response.status_code == status, (name, response.status_code)
        body = response.get_data(as_text=True)
        assert '<html lang="de">' in body, name
        page = shown(response)
        self.english += [f"{name}: {source!r}" for source, p in self.patterns if p.search(page)]
        self.seen += page + "\n"
        return page

    def get(self, name: str, path: str, status: int = 200) -> str:
        return self.check(name, self.phone.get(path, follow_redirects=True), status)


def test_every_page_in_german_shows_no_english_message(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    walk = Walk(phone)
    walk.get("home, no games", "/")
    walk.get("new game", "/games/new")
    walk.check("new game refused", phone.start(["Ann", "Ann", "Cy"]), 422)
    assert phone.start(["Ann", "Bob", "Cy"], bid_rule="plus_minus_one", clairvoyance="y")
    game = phone.game_id
    walk.get("trump", phone.round_path(1))
    walk.get("wizard turned", phone.round_path(1) + "?turned=wizard")
    walk.check("wizard without a suit", phone.trump(1, "wizard"), 422)
    assert phone.trump(1, "wizard", "red").status_code == 303
    walk.get("bids", phone.round_path(1))
    phone.bid(1, 1, 0)
    phone.bid(1, 2, 0)
    page = walk.get("bids with the dealer's forbidden bid", phone.round_path(1))
    assert "Ann gibt und darf nicht 1 ansagen" in page
    walk.check("forbidden bid refused", phone.bid(1, 0, 1), 422)
    phone.bid(1, 0, 0)
    walk.get("tricks", phone.round_path(1))
    walk.check("score refused", phone.score(1), 422)
    walk.get("bids changed while playing", phone.round_path(1) + "?change=bids")
    walk.get("trump changed while playing", phone.round_path(1) + "?change=trump")
    phone.tricks(1, 1, 1)
    walk.get("tricks filled in", phone.round_path(1))
    phone.score(1)
    page = walk.get("scored", phone.round_path(1))
    assert "−10" in page
    walk.get("home, a game in progress", "/")
    walk.get("sheet", f"/games/{game}/sheet")
    correct = f"/games/{game}/rounds/1/correct"
    walk.get("correction", correct)
    data = {
        "csrf_token": phone.csrf(correct),
        "version": str(phone.version(2)),
        "turned": "jester",
        **{f"bid-{seat}": "0" for seat in range(3)},
        **{f"tricks-{seat}": "1" for seat in range(3)},
    }
    walk.check("correction refused", phone.client.post(correct, data=data), 422)
    data.pop("tricks-2")
    walk.check("correction incomplete", phone.client.post(correct, data=data), 400)
    page = walk.get("correcting an unscored round", f"/games/{game}/rounds/3/correct")
    assert "Runde 3 ist noch nicht gewertet" in page
    # A covered game of one round, to its end.
    assert phone.start(["Dora", "Eve", "Finn"], bid_reveal="covered", rounds=1)
    phone.trump(1, "jester")
    phone.bid(1, 1, 1)
    walk.get("covered bids", phone.round_path(1))
    phone.bid(1, 2, 0)
    phone.bid(1, 0, 0)
    walk.get("covered tricks", phone.round_path(1))
    phone.tricks(1, 1, 1)
    phone.score(1)
    walk.get("game over", f"/games/{phone.game_id}", 200)
    walk.get("home, a finished game", "/")
    # Errors and the offline page.
    walk.get("unknown game", "/games/nothing-here", 404)
    walk.get("unknown round", f"/games/{game}/rounds/99", 404)
    walk.check("wrong method", phone.client.put("/games/new"), 405)
    walk.check("no CSRF token", phone.client.post(phone.round_path(1), data={}), 400)
    other = phone_in(app, GERMAN)
    followed = other.get(phone.round_path(1), follow_redirects=True)
    page = walk.check("another phone's round", followed)
    assert "schaut beim Spiel nur zu" in page
    walk.get("offline", "/offline")
    # Following, sharing and handing over.
    walk.get("spectator", f"/games/{game}/view")
    walk.get("invite", f"/games/{game}/share")
    share = f"/games/{game}/share"
    made = phone.client.post(
        f"/games/{game}/handover", data={"csrf_token": phone.csrf(share)}, follow_redirects=True
    )
    page = walk.check("invite with a hand-over link", made)
    link = re.search(r'id="handover-link">([^<]+)<', made.get_data(as_text=True))
    assert link, "no hand-over link shown"
    walk.check("take over", other.get(link.group(1).strip(), follow_redirects=True))
    token = other.csrf("/handover")
    taken = other.client.post("/handover", data={"csrf_token": token}, follow_redirects=True)
    walk.check("taken over", taken)
    used = other.get(link.group(1).strip(), follow_redirects=True)
    walk.check("hand-over link used up", used, 410)
    # The history: the games list, a round's history, statistics, import.
    walk.get("games list, finished", "/?status=finished")
    walk.get("games list, searched", "/?q=Ann")
    walk.get("round history", f"/games/{game}/rounds/1/history")
    walk.get("statistics", "/statistics")
    walk.get("import", "/import")

    assert walk.english == []
    for word in ("Zauberer", "Narr", "Stiche", "Ansage", "Geber", "Trumpf", "Zwerge", "Riesen"):
        assert word in walk.seen, word
    for word in ("Menschen", "Elfen"):
        assert word in walk.seen, word


def test_a_dealer_asked_to_bid_again_is_told_in_german(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    walk = Walk(phone)
    assert phone.start(["Ann", "Bob", "Cy"], bid_rule="plus_minus_one")
    phone.trump(1, "red")
    for seat in (1, 2, 0):
        phone.bid(1, seat, 0)
    tapped = phone.tap(1, action="bid", seat=1, value=1, change="bids", anchor="seat-1")
    assert tapped.status_code == 303
    page = walk.check(
        "a bid that makes the dealer bid again", phone.get(tapped.headers["Location"])
    )
    assert (
        "Bob sagt jetzt 1 an; Ann gibt und darf daher nicht bei 0 bleiben (die Ansagen "
        "ergäben zusammen 1 Stich, so viele, wie diese Runde hat), sondern muss neu ansagen."
    ) in page
    assert phone.start(["Dora", "Eve", "Finn"], bid_rule="plus_minus_one", bid_reveal="covered")
    phone.trump(1, "red")
    for seat in (0, 1):
        phone.bid(1, seat, 0)
    assert phone.bid(1, 2, 1).status_code == 303
    page = walk.get("covered bids, the dealer to bid again", phone.round_path(1))
    assert (
        "Die Ansage von Finn ist gespeichert, doch damit ergäben die Ansagen zusammen 1 Stich, "
        "so viele, wie diese Runde hat, und das verbietet die Ansageregel: Dora gibt und muss "
        "neu ansagen."
    ) in page
    assert phone.bid(1, 0, 1).status_code == 303
    phone.tricks(1, 0, 1)
    assert phone.score(1).status_code == 303
    # The correction of a covered round: the hint is about the struck-out bid, named.
    page = walk.get("covered bids corrected", f"/games/{phone.game_id}/rounds/1/correct")
    assert (
        "Dora gibt und darf nicht 0 ansagen: Die Ansagen ergäben zusammen 1 Stich, so viele, "
        "wie diese Runde hat."
    ) in page
    assert walk.english == []


def test_a_canadian_refusal_says_in_german_why_the_dealer_is_held(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    walk = Walk(phone)
    assert phone.start(["Ann", "Bob", "Cy"], bid_rule="canadian", first_dealer="0")
    played(app, phone, ([0, 1, 0], [0, 1, 0]))  # Bob leads alone, and deals round 2
    assert phone.trump(2, "red").status_code == 303
    for seat, value in ((2, 1), (0, 0)):
        assert phone.bid(2, seat, value).status_code == 303
    page = walk.get("a canadian dealer's bid struck out", phone.round_path(2))
    assert (
        "Bob gibt und darf nicht 1 ansagen: Die Ansagen ergäben zusammen 2 Stiche, so viele, "
        "wie diese Runde hat (kanadische Regel: Der Geber liegt allein in Führung)."
    ) in page
    assert walk.english == []


def test_a_correction_with_the_bomb_and_the_cloud_is_in_german(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    walk = Walk(phone)
    started(phone, ["Ann", "Bob", "Cy"], deck=["bomb", "cloud"])
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    correct = f"/games/{phone.game_id}/rounds/1/correct"
    page = walk.get("correction with the Bomb and the Cloud", correct)
    assert "Die Bombe wurde gespielt: ihr Stich geht an niemanden" in page
    assert "Keine Änderung durch die Wolke" in page
    data = correction(phone, 1, [1, 0, 0], [1, 0, 0], turned="green")
    refused = walk.check(
        "the Bomb refused", phone.client.post(correct, data={**data, "bomb": "1"}), 422
    )
    assert "Die Stiche ergeben zusammen 1, Runde 1 hat aber 0: 1 Stich zu viel" in refused
    refused = walk.check(
        "the Cloud refused", phone.client.post(correct, data={**data, "cloud": "1:down"}), 422
    )
    assert "Die Wolke ändert die Ansage 0 von Bob um eins, auf 1, nicht auf −1." in refused
    assert walk.english == []


def test_a_secret_games_cloud_says_in_german_what_it_does(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    walk = Walk(phone)
    started(phone, ["Ann", "Bob", "Cy"], deck=["cloud"], bid_reveal="secret")
    phone.trump(1, "red")
    for seat, value in ((1, 0), (2, 0), (0, 1)):
        phone.bid(1, seat, value)
    page = walk.get("secret bids, the Cloud", phone.round_path(1))
    assert "Eins weniger" in page
    assert "Eins mehr" in page
    refused = walk.check("the Cloud refused", phone.tap(1, action="cloud", value="1:down"), 422)
    assert (
        "Die Wolke ändert die Ansage von Bob um eins, nach oben oder unten, und nur auf 0 bis 1."
        in refused
    )
    assert walk.english == []


def test_a_form_that_comes_back_says_so_in_german(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    walk = Walk(phone)
    form = phone.new_game_form(["Ann", "", ""], action="refresh")
    assert phone.client.post("/games/new", data=form).status_code == 303
    walk.get("the new-game form as tapped", "/games/new")
    page = walk.get("the new-game form as it was left", "/games/new")
    assert "So ausgefüllt, wie du es auf diesem Handy verlassen hast. Neu anfangen" in page
    assert walk.english == []


def test_the_walk_finds_english_left_on_a_page(app: Flask) -> None:
    """The check itself: the English pages are full of what it looks for."""
    phone = phone_in(app, ENGLISH)
    page = shown(phone.get("/games/new"))
    found = {source for source, pattern in _english_patterns() if pattern.search(page)}
    assert {"New game", "Who deals first?", "Seat %(number)d", "Start the game"} <= found


# -- The switch in the menu ------------------------------------------------------------------


def _switch(phone: KeeperPhone, language: str, next_path: str, **extra: str) -> TestResponse:
    data = {"csrf_token": phone.csrf("/"), "language": language, "next": next_path, **extra}
    return phone.client.post("/language", data=data)


def test_the_menu_offers_the_other_language_in_its_own_name(app: Flask) -> None:
    english = phone_in(app, ENGLISH).get("/").get_data(as_text=True)
    # It shows the language's code, and is named in full (in that language) after it.
    in_german = r'<button[^>]*value="de" lang="de"[^>]*>DE<span class="visually-hidden"> Deutsch<'
    assert re.search(in_german, english)
    assert 'action="/language"' in english
    german = phone_in(app, GERMAN).get("/").get_data(as_text=True)
    in_english = r'<button[^>]*value="en" lang="en"[^>]*>EN<span class="visually-hidden"> English<'
    assert re.search(in_english, german)


def test_the_language_chosen_in_the_menu_overrides_the_browsers(app: Flask) -> None:
    phone = phone_in(app, ENGLISH)
    assert "Start a new game" in shown(phone.get("/"))
    response = _switch(phone, "de", "/games/new")
    assert response.status_code == 303
    assert response.headers["Location"] == "/games/new"
    page = phone.get("/games/new")
    assert '<html lang="de">' in page.get_data(as_text=True)
    assert "Wer gibt zuerst?" in shown(page)
    assert "Deine Spiele" in shown(phone.get("/"))
    # And back, from a browser that asks for German.
    german = phone_in(app, GERMAN)
    assert "Deine Spiele" in shown(german.get("/"))
    _switch(german, "en", "/")
    assert "Your games" in shown(german.get("/"))


def test_the_switch_changes_nothing_on_get_without_its_token_or_for_other_languages(
    app: Flask,
) -> None:
    phone = phone_in(app, ENGLISH)
    assert phone.get("/language").status_code == 405
    assert phone.get("/language?language=de").status_code == 405
    no_token = phone.client.post("/language", data={"language": "de", "next": "/"})
    assert no_token.status_code == 400
    assert _switch(phone, "fr", "/").status_code == 400
    assert "Your games" in shown(phone.get("/"))


@pytest.mark.parametrize("target", ["//evil.example/", "/\\evil.example", "https://evil.example/"])
def test_the_switch_leads_only_to_pages_of_this_site(app: Flask, target: str) -> None:
    phone = phone_in(app, ENGLISH)
    response = _switch(phone, "de", target)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


# -- Numbers and dates ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "thousands", "date"),
    [("en", "1,234", "Nov 21, 2026"), ("de", "1.234", "21.11.2026")],
)
def test_numbers_and_dates_are_written_as_the_language_writes_them(
    app: Flask, language: str, thousands: str, date: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        assert i18n.number(1234) == thousands
        assert i18n.number(-1234) == "−" + thousands  # a real minus sign, U+2212
        assert i18n.number(-10) == "−10"
        assert i18n.number(999) == "999"  # the largest number without a group
        assert i18n.number(-1000) == "−" + thousands.replace("234", "000")
        # A number no game holds, as a hand-made request may give one: written whole.
        huge = i18n.number(-(10**30))
        assert huge == "−1" + (thousands[1] + "000") * 10
        assert i18n.signed(30) == "+30"
        assert i18n.signed(0) == "0"
        assert i18n.date(datetime(2026, 11, 21, 20, 0, tzinfo=UTC)) == date


@pytest.mark.parametrize(("language", "thousands"), [("en", "1,000"), ("de", "1.000")])
def test_a_count_in_a_refusal_is_written_as_the_language_writes_it(
    app: Flask, language: str, thousands: str
) -> None:
    error = RuleError("it holds more than %(max)s games.", max=Count(1000))
    assert str(error) == "it holds more than 1,000 games."  # the English, as raised
    with app.test_request_context(headers={"Accept-Language": language}):
        assert i18n.rule_message(error) == f"it holds more than {thousands} games."


def test_the_home_page_dates_each_game_in_the_pages_language(app: Flask) -> None:
    phone = phone_in(app, GERMAN)
    assert phone.start(["Ann", "Bob", "Cy"])
    assert re.search(r"begonnen am \d{1,2}\.\d{1,2}\.\d{4}", shown(phone.get("/")))
    phone.client.environ_base.update(ENGLISH)
    assert re.search(r"started [A-Z][a-z]{2} \d{1,2}, \d{4}", shown(phone.get("/")))
