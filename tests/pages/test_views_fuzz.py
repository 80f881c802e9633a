"""Whatever a form sends, the pages answer without a server error and change nothing they
should not: hypothesis-made bodies for the new-game form, the round screen and the
correction form, in a game with every special card in the deck."""

from __future__ import annotations

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.variants import Special
from scorekeeper.services import games

from ..keeper_phone import KeeperPhone
from .helpers import started

# One database for all examples (SQLite: each example is a request, not a new schema).

FIELD_NAMES = st.sampled_from(
    [
        "action",
        "seat",
        "value",
        "version",
        "turned",
        "chosen",
        "change",
        "anchor",
        "names-0",
        "names-1",
        "names-2",
        "names-3",
        "names-7",
        "first_dealer",
        "bid_rule",
        "bid_reveal",
        "rounds",
        "clairvoyance",
        "last_bidder_may_bid_zero",
        "special_cards",
        "round_plan",
    ]
)
VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "-1",
            "7",
            "99999999999999999999",
            "١",
            "²",  # a digit to str.isdigit(), none to int()
            "²:up",
            "up-²",
            "remove-²",
            "bid",
            "trump",
            "tricks",
            "score",
            "all_made",
            "trick",
            "nobody",
            "start",
            "add",
            "remove-0",
            "up-2",
            "up-99999999999999999999",
            "wizard",
            "red",
            "none",
            "random",
            "full",
            "bids",
            "seat-1",
            "bomb",
            "cloud",
            "werewolf",
            "dragon",
            "odd",
            "0:up",
            "1:down",
            "2:up",
            "9:down",
            "-1:up",
            "1:sideways",
            "javascript:alert(1)",
            "\x00",
        ]
    ),
    st.text(max_size=40),
)
FORMS = st.dictionaries(FIELD_NAMES, VALUES, max_size=8)


@pytest.fixture
def table(phone: KeeperPhone) -> KeeperPhone:
    """The phone keeping a game with every special card in the deck, round 1's trump set."""
    started(phone, deck=[special.value for special in Special])
    phone.trump(1, "green")
    return phone


@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(form=FORMS)
def test_the_new_game_form_never_fails_on_the_server(table: KeeperPhone, form: dict) -> None:
    form = {"csrf_token": table.csrf(), **form}
    response = table.client.post("/games/new", data=form)
    assert response.status_code in (200, 303, 400, 422), response.status_code
    if response.status_code == 303:
        assert response.headers["Location"].startswith("/games/")
        assert table.client.get(response.headers["Location"]).status_code in (200, 303)


@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(form=FORMS, number=st.sampled_from([1, 2, 20]))
def test_the_round_screen_never_fails_on_the_server(
    table: KeeperPhone, app: Flask, form: dict, number: int
) -> None:
    form = {"csrf_token": table.csrf(), **form}
    with app.app_context():
        before = games.get_game(table.game_id)
    response = table.client.post(table.round_path(number), data=form)
    assert response.status_code in (200, 303, 400, 409, 412, 422), response.status_code
    with app.app_context():
        after = games.get_game(table.game_id)
    if response.status_code != 303:
        assert after.version == before.version  # a refusal changes nothing
    assert "javascript:" not in response.headers.get("Location", "")


CORRECTION_FIELDS = st.sampled_from(
    [
        *("action", "version", "turned", "chosen"),
        *("bid-0", "bid-1", "bid-2", "bid-5"),
        *("tricks-0", "tricks-1", "tricks-2", "tricks-9"),
        *("bomb", "cloud"),
    ]
)
CORRECTIONS = st.dictionaries(CORRECTION_FIELDS, VALUES, max_size=10)


@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(form=CORRECTIONS, number=st.sampled_from([1, 2, 20]))
def test_the_correction_form_never_fails_on_the_server(
    table: KeeperPhone, app: Flask, form: dict, number: int
) -> None:
    with app.app_context():
        if games.get_game(table.game_id).view.current_round == 1:
            for seat in range(3):
                table.bid(1, seat, 0)
            table.tricks(1, 0, 1)
            table.tricks(1, 1, 0)
            table.score(1)
        before = games.get_game(table.game_id)
    form = {"csrf_token": table.csrf(), **form}
    response = table.client.post(f"{table.round_path(number)}/correct", data=form)
    assert response.status_code in (200, 303, 400, 409, 412, 422), response.status_code
    with app.app_context():
        after = games.get_game(table.game_id)
    if response.status_code != 303:
        assert after.version == before.version  # a refusal changes nothing
