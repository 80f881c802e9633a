"""The referee page through the test client: every tap a plain link (no JavaScript needed),
the answer in one sentence, the game's trump and players filled in, refusals, and nothing
recorded."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ..keeper_phone import KeeperPhone, text
from ..statements import count_statements
from .helpers import started

HOUSE_EXAMPLE = "/referee?trump=red&reading=house&card=red-8&card=yellow-7&card=jester&card=wizard"


def link(page: TestResponse, name: str, nth: int = 0) -> str:
    """The address of the ``nth`` link called ``name`` (its text or its aria-label)."""
    body = page.get_data(as_text=True)
    found = []
    for match in re.finditer(r"<a href=\"([^\"]+)\"([^>]*)>(.*?)</a>", body, re.S):
        href, attributes, inner = match.groups()
        label = re.search(r'aria-label="([^"]*)"', attributes)
        inner = re.sub(r'<span aria-hidden="true">.*?</span>', "", inner)
        shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", inner)).strip()
        if name in ((unescape(label.group(1)) if label else None), unescape(shown)):
            found.append(unescape(href))
    if len(found) <= nth:
        raise AssertionError(f"no link {name!r}")
    return found[nth]


def verdict(page: TestResponse) -> str:
    match = re.search(r'<p class="verdict" role="status">(.*?)</p>', page.get_data(as_text=True))
    assert match
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", match.group(1)))).strip()


def test_the_empty_referee_asks_for_the_lead(client: FlaskClient) -> None:
    page = client.get("/referee")
    assert page.status_code == 200
    assert "No card played yet: tap the first card, the lead." in text(page)
    assert verdict(page) == ""
    assert "Bomb" not in text(page)  # the special cards wait behind their toggle


def test_a_trick_tapped_card_by_card_without_javascript(client: FlaskClient) -> None:
    page = client.get("/referee")
    for name in ("yellow Giants", "yellow Giants 7", "Jester", "red Dwarves", "red Dwarves 8"):
        page = client.get(link(page, name))
        assert page.status_code == 200
    # The suit tabs only choose the numbers shown; no trump was chosen yet.
    assert verdict(page) == "Player 1 wins: the highest card of the suit led."
    page = client.get(link(page, "red Dwarves", nth=1))  # the trump
    assert verdict(page) == "Player 3 wins: the highest trump."
    page = client.get(link(page, "Wizard"))
    assert verdict(page) == "Player 4 wins: the first Wizard played."
    # The first suited card, yellow, is no trump: the house rule leaves the Wizard its value.
    page = client.get(link(page, "House rule"))
    assert verdict(page) == "Player 4 wins: the first Wizard played."
    assert "reading=house" in link(page, "Jester")


def test_seed_002s_example_under_the_house_rule_and_the_standard_reading(
    client: FlaskClient,
) -> None:
    page = client.get(HOUSE_EXAMPLE)
    assert verdict(page) == (
        "Player 1 wins: the highest trump, as a trump for the first suited card makes the "
        "Wizards worthless in this trick (house rule)."
    )
    standard = client.get(link(page, "Standard"))
    assert verdict(standard) == "Player 4 wins: the first Wizard played."
    assert 'class="winner"' in standard.get_data(as_text=True)


def test_the_answer_in_german(client: FlaskClient) -> None:
    page = client.get(HOUSE_EXAMPLE, headers={"Accept-Language": "de"})
    assert verdict(page).startswith("Spieler 1 gewinnt: der höchste Trumpf")
    assert "Wer gewinnt den Stich?" in text(page)


def test_a_card_played_is_not_offered_again(client: FlaskClient) -> None:
    page = client.get("/referee?trump=red&suit=red&card=red-8")
    body = page.get_data(as_text=True)
    assert '<span class="spent" aria-disabled="true" aria-label="red Dwarves 8">8</span>' in body
    assert link(page, "red Dwarves 9")
    with pytest.raises(AssertionError):
        link(page, "red Dwarves 8")


def test_a_full_trick_takes_no_more_cards(client: FlaskClient) -> None:
    six = "&".join(f"card=blue-{n}" for n in range(1, 7))
    page = client.get(f"/referee?trump=red&{six}")
    assert verdict(page) == "Player 6 wins: the highest card of the suit led."
    with pytest.raises(AssertionError):
        link(page, "Wizard")


def test_take_back_and_new_trick(client: FlaskClient) -> None:
    page = client.get(HOUSE_EXAMPLE)
    back = client.get(link(page, "Take back the last card"))
    assert verdict(back) == "Player 1 wins: the highest trump."
    fresh = client.get(link(page, "New trick"))
    assert "No card played yet" in text(fresh)
    assert "trump=red" in link(fresh, "Wizard")  # the trump and reading stay


def test_the_special_cards_behind_their_toggle(client: FlaskClient) -> None:
    page = client.get(
        link(client.get("/referee?suit=green"), "Special cards of the anniversary editions")
    )
    for name in ("Bomb", "Dragon", "Fairy", "Cloud 9¾ (green Elves)", "Juggler 7½ (green Elves)"):
        assert link(page, name)
    page = client.get(link(page, "Dragon"))
    page = client.get(link(page, "Shapeshifter as a Wizard"))
    assert verdict(page) == "Player 1 wins: the Dragon beats every card, Wizards too."
    bomb = client.get(link(page, "Bomb"))
    assert verdict(bomb) == (
        "Nobody wins: the Bomb was played, and Player 1, who would have won, leads next."
    )


@pytest.mark.parametrize(
    ("query", "sentence"),
    [
        # The address's words (each rule's sentence is tests/rules/test_judge.py's).
        ("reading=lax", "A reading is one of standard, house, not “lax”."),
        ("card=red-x", "A suited card needs its number, 1 to 13."),
    ],
)
def test_an_address_no_link_makes_is_refused_in_one_sentence(
    client: FlaskClient, query: str, sentence: str
) -> None:
    page = client.get(f"/referee?{query}")
    assert page.status_code == 422
    refusal = re.search(r'<p class="refusal" id="refusal" role="alert">(.*?)</p>', page.text)
    assert refusal
    assert unescape(refusal.group(1)).startswith(sentence)


def test_the_referee_page_records_and_reads_nothing(app: Flask, client: FlaskClient) -> None:
    with count_statements(app) as statements:
        assert client.get(HOUSE_EXAMPLE).status_code == 200
    assert statements == []


# -- Opened from a game ----------------------------------------------------------------------


def test_from_a_game_the_trump_and_the_players_in_seat_order_from_the_leader(
    phone: KeeperPhone,
) -> None:
    started(phone)
    assert phone.trump(1, "green").status_code == 303
    round_page = phone.round_page(1)
    page = phone.get(link(round_page, "Who wins the trick? Ask the referee"))
    assert page.status_code == 200
    assert 'aria-pressed="true"><span aria-hidden="true">▲</span> green Elves' in page.text
    # Thomas deals round 1, so Ute leads: she, Kevin, Thomas.
    page = phone.get(link(page, "Wizard"))
    assert verdict(page) == "So far: Ute wins: the first Wizard played."
    page = phone.get(link(page, "Jester"))
    page = phone.get(link(page, "Jester"))
    assert verdict(page) == "Ute wins: the first Wizard played."
    with pytest.raises(AssertionError):
        link(page, "Wizard")  # three players: the trick is full
    nxt = phone.get(link(page, "Next trick: Ute leads"))
    assert "No card played yet" in text(nxt)
    kevin = phone.get(link(nxt, "Kevin"))
    kevin = phone.get(link(kevin, "Jester"))
    kevin = phone.get(link(kevin, "Wizard"))
    assert verdict(kevin) == "So far: Thomas wins: the first Wizard played."


def test_the_spectator_page_links_to_the_referee_of_the_current_round(
    phone: KeeperPhone, app: Flask
) -> None:
    started(phone)
    phone.trump(1, "blue")
    follower = app.test_client()
    spectate = follower.get(f"/games/{phone.game_id}/view")
    page = follower.get(link(spectate, "Who wins the trick? Ask the referee"))
    assert page.status_code == 200
    assert "Round 1 of 20 · Thomas, Ute, Kevin" in text(page)
    assert "trump=blue" in link(page, "Wizard")


def test_the_referee_of_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    assert client.get("/games/nothing-here-at-all/referee").status_code == 404


def test_from_a_game_the_referee_offers_that_games_special_cards_at_once(
    phone: KeeperPhone,
) -> None:
    started(phone, deck=["bomb", "werewolf"])
    assert phone.trump(1, "green").status_code == 303
    page = phone.get(link(phone.round_page(1), "Who wins the trick? Ask the referee"))
    assert link(page, "Bomb")  # the deck's Bomb, without a tap on the toggle
    for absent in ("Dragon", "Fairy", "Cloud 9¾ (green Elves)", "Shapeshifter as a Wizard"):
        with pytest.raises(AssertionError):
            link(page, absent)
    hidden = phone.get(link(page, "Special cards of the anniversary editions"))
    with pytest.raises(AssertionError):
        link(hidden, "Bomb")
    bomb = phone.get(link(page, "Bomb"))
    assert verdict(bomb).startswith("So far: Nobody wins: the Bomb was played")


def test_from_a_game_without_special_cards_the_referee_offers_none(phone: KeeperPhone) -> None:
    started(phone)
    assert phone.trump(1, "green").status_code == 303
    page = phone.get(link(phone.round_page(1), "Who wins the trick? Ask the referee"))
    assert "Special cards of the anniversary editions" not in text(page)
    with pytest.raises(AssertionError):
        link(page, "Bomb")
