"""Inviting the table and handing the scorekeeping over: the invite page, one-time hand-over
links, and taking the right back from every other phone."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import models
from scorekeeper.services import sharing

from ..factory import browser_of, second_keeper, seed
from ..keeper_phone import KeeperPhone, text, without_language_switch
from .helpers import started

TAKER = sharing.Browser("the-taking-phone")
_HANDOVER_LINK = re.compile(r'id="handover-link">([^<]+)<')


def other(app: Flask) -> KeeperPhone:
    return KeeperPhone(app.test_client())


def handover_link(phone: KeeperPhone) -> str:
    """Tap "Make a hand-over link" on the invite page; the link it shows."""
    token = phone.csrf(f"/games/{phone.game_id}/share")
    made = phone.client.post(f"/games/{phone.game_id}/handover", data={"csrf_token": token})
    # Answered with a redirect to the invite page, which shows the link (a reload too).
    assert made.status_code == 303, text(made)
    assert made.headers["Location"] == f"/games/{phone.game_id}/share"
    page = phone.get(made.headers["Location"])
    assert page.status_code == 200
    match = _HANDOVER_LINK.search(page.get_data(as_text=True))
    assert match, "no hand-over link on the page"
    return unescape(match.group(1))


def take_over(taker: KeeperPhone, link: str) -> tuple[int, str]:
    """Open the link, then tap "Keep the score on this phone"; the answer's status and text."""
    opened = taker.client.get(link)
    assert opened.status_code == 303
    assert opened.headers["Location"] == "/handover"
    confirm = taker.client.get("/handover")
    if confirm.status_code != 200:
        return confirm.status_code, text(confirm)
    token = taker.csrf("/handover")
    answer = taker.client.post("/handover", data={"csrf_token": token})
    return answer.status_code, answer.headers.get("Location", "") or text(answer)


def can_keep_score(app: Flask, phone: KeeperPhone, game_id: str) -> bool:
    page = phone.client.get(f"/games/{game_id}/rounds/1")
    return page.status_code == 200


# -- Invite ----------------------------------------------------------------------------------


def test_the_invite_page_shows_the_view_link_and_its_qr_code(phone: KeeperPhone) -> None:
    game_id = started(phone).game_id
    page = phone.get(f"/games/{game_id}/share")
    body = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f"http://localhost/games/{game_id}/view" in body
    svg = re.search(r"<svg role=\"img\"[^>]*class=\"qr\".*?</svg>", body, re.S)
    assert svg, "no QR code"
    assert "style=" not in svg.group(0)
    assert 'fill="#fff"' in svg.group(0)  # the light quiet zone, even in dark mode
    assert "Make a hand-over link" in body
    assert "Follow the game: read only" in text(page)  # the code says what it is for


def test_taking_the_right_back_is_offered_only_when_there_is_something_to_take(
    phone: KeeperPhone, app: Flask
) -> None:
    game_id = started(phone).game_id
    page = text(phone.get(f"/games/{game_id}/share"))
    assert "No other phone can keep the score of this game." in page
    assert "Only this phone keeps score" not in page

    handover_link(phone)
    page = text(phone.get(f"/games/{game_id}/share"))
    assert "No other phone can keep the score of this game. 1 hand-over link still works." in page
    assert "Only this phone keeps score" in page

    second_keeper(app, game_id, TAKER)
    page = text(phone.get(f"/games/{game_id}/share"))
    assert "1 other phone can keep the score of this game." in page
    assert "Only this phone keeps score" in page


def test_a_spectator_sees_the_invite_but_no_hand_over(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    page = other_phone.get(f"/games/{game_id}/share")
    assert page.status_code == 200
    body = without_language_switch(page.get_data(as_text=True))
    assert f"/games/{game_id}/view" in body
    assert "<form" not in body


# -- Handing over ----------------------------------------------------------------------------


def test_a_hand_over_link_works_once_and_only_for_the_first_phone(
    phone: KeeperPhone, app: Flask
) -> None:
    game_id = started(phone).game_id
    link = handover_link(phone)
    assert link.startswith("http://localhost/handover/")
    taker, late = other(app), other(app)
    assert not can_keep_score(app, taker, game_id)
    status, where = take_over(taker, link)
    assert (status, where) == (303, f"/games/{game_id}")
    assert can_keep_score(app, taker, game_id)
    taker.game_id = game_id
    assert taker.trump(1, "red").status_code == 303
    status, message = take_over(late, link)
    assert status == 410
    assert "This hand-over link no longer works" in message
    assert not can_keep_score(app, late, game_id)


def test_the_confirmation_page_changes_nothing(phone: KeeperPhone, app: Flask) -> None:
    # A messenger's link preview opens the link: the link must still work for the phone.
    game_id = started(phone).game_id
    link = handover_link(phone)
    preview = other(app)
    preview.client.get(link)
    page = preview.client.get("/handover")
    assert "Take over scorekeeping" in text(page)
    assert not can_keep_score(app, preview, game_id)
    assert take_over(other(app), link)[0] == 303


def test_posting_without_a_link_or_with_a_made_up_one_is_refused(other_phone: KeeperPhone) -> None:
    answer = other_phone.client.post("/handover", data={"csrf_token": other_phone.csrf()})
    assert answer.status_code == 410
    status, message = take_over(other_phone, "/handover/nope")
    assert status == 410
    assert "This hand-over link no longer works" in message


def test_only_the_scorekeeper_makes_hand_over_links(
    phone: KeeperPhone, app: Flask, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    stranger = other_phone
    refused = stranger.client.post(
        f"/games/{game_id}/handover", data={"csrf_token": stranger.csrf()}
    )
    assert refused.status_code == 403
    without_csrf = phone.client.post(f"/games/{game_id}/handover")
    assert without_csrf.status_code == 400
    with app.app_context():
        assert models.db.session.query(models.HandoverRow).count() == 0


# -- Taking the right back ---------------------------------------------------------------------


def test_taking_the_right_back_says_how_many_phones_lost_it(phone: KeeperPhone, app: Flask) -> None:
    game_id = seed(app, browser=browser_of(phone)).id
    phone.game_id = game_id
    second_keeper(app, game_id, TAKER)
    assert "1 other phone can keep the score of this game." in text(
        phone.get(f"/games/{game_id}/share")
    )

    revoked = phone.client.post(
        f"/games/{game_id}/revoke", data={"csrf_token": phone.csrf(f"/games/{game_id}/share")}
    )
    assert revoked.status_code == 303
    page = text(phone.get(revoked.headers["Location"]))
    assert "1 other phone can no longer keep score." in page
    assert "No other phone can keep the score of this game." in page
    assert can_keep_score(app, phone, game_id)
    with app.app_context():
        assert not sharing.is_keeper(game_id, TAKER)


def test_a_spectator_cannot_revoke(
    phone: KeeperPhone, app: Flask, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    stranger = other_phone
    answer = stranger.client.post(f"/games/{game_id}/revoke", data={"csrf_token": stranger.csrf()})
    assert answer.status_code == 403
    assert can_keep_score(app, phone, game_id)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(token=st.one_of(st.text(max_size=300), st.integers(), st.none(), st.lists(st.text())))
def test_any_token_in_the_session_is_refused_without_a_server_error(
    other_phone: KeeperPhone, token: object
) -> None:
    taker = other_phone  # one phone for every example: its session's token is replaced
    with taker.client.session_transaction() as session:
        session["handover"] = token
    assert taker.client.get("/handover").status_code == 410
    with taker.client.session_transaction() as session:
        session["handover"] = token
    answer = taker.client.post("/handover", data={"csrf_token": taker.csrf()})
    assert answer.status_code == 410


def test_the_invite_page_shows_the_link_made_on_reload_while_it_works(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    link = handover_link(phone)
    reloaded = phone.get(f"/games/{game_id}/share").get_data(as_text=True)
    assert unescape(_HANDOVER_LINK.search(reloaded).group(1)) == link  # type: ignore[union-attr]
    assert take_over(other_phone, link)[0] == 303
    # Used up: the page no longer shows it.
    page = phone.get(f"/games/{game_id}/share").get_data(as_text=True)
    assert _HANDOVER_LINK.search(page) is None
