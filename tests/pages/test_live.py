"""The spectator page: what it shows, how its stream and its fragment answer, what they cost."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.services.history import FOLLOWED_MAX
from scorekeeper.web import following

from ..api_client import ApiClient
from ..factory import browser_of, seed
from ..keeper_phone import KeeperPhone, text, without_language_switch, words
from ..statements import count_statements
from .helpers import played, started
from .test_history import correct


def live_path(game_id: str) -> str:
    return f"/games/{game_id}/view/live"


def test_the_view_link_of_the_api_is_the_spectator_page(
    client: FlaskClient, other_phone: KeeperPhone
) -> None:
    game = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    page = other_phone.get(game["links"]["view"])
    assert page.status_code == 200
    assert "Ann, Bob, Cy" in text(page)
    assert "Round 1 of 20" in text(page)


def test_the_spectator_page_shows_the_round_and_no_control_to_change_it(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    phone.trump(1, "red")
    phone.bid(1, 1, 1)
    for viewer in (other_phone, phone):  # the scorekeeper sees the same page
        body = without_language_switch(viewer.get(f"/games/{game_id}/view").get_data(as_text=True))
        assert "<form" not in body
        assert "<button" not in body
        assert "/correct" not in body
        assert "Thomas deals" in text(viewer.get(f"/games/{game_id}/view"))
        assert "Trump: red Dwarves" in text(viewer.get(f"/games/{game_id}/view"))
        assert re.search(r'data-seat="1"><th scope="row">Ute</th>\s*<td class="bid">1</td>', body)


@pytest.mark.parametrize("reveal", ["covered", "secret"])
def test_hidden_bids_stay_hidden_from_the_spectator(
    phone: KeeperPhone, other_phone: KeeperPhone, reveal: str
) -> None:
    game_id = started(phone, bid_reveal=reveal).game_id
    phone.trump(1, "red")
    phone.bid(1, 1, 1)
    body = other_phone.get(live_path(game_id)).get_data(as_text=True)
    assert re.search(r'data-seat="1"><th scope="row">Ute</th>\s*<td class="bid"><span', body)
    assert "has bid" in body
    assert '<td class="bid">1</td>' not in body


@pytest.mark.both_backends
def test_an_unchanged_poll_is_answered_304_for_one_sql_statement(
    app: Flask, phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    first = other_phone.get(live_path(game_id))
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert "Accept-Language" in first.headers["Vary"]
    with count_statements(app) as statements:
        again = other_phone.get(live_path(game_id), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == etag
    assert len(statements) <= 1, statements


def test_a_poll_leaves_the_session_cookie_alone(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    page = other_phone.get(f"/games/{game_id}/view")
    assert "Set-Cookie" in page.headers  # the page remembers the game followed
    poll = other_phone.get(live_path(game_id))
    assert "Set-Cookie" not in poll.headers
    # The fragment's language may come from the browser or from the menu's switch (kept in
    # the session cookie); the validator names the language, so a switch is never answered 304.
    assert "Accept-Language" in poll.headers["Vary"]
    assert other_phone.get(f"/games/{game_id}/view").headers.get("Set-Cookie")  # pages renew it


def test_a_change_gives_the_poll_a_new_body_and_tag(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    etag = other_phone.get(live_path(game_id)).headers["ETag"]
    phone.trump(1, "green")
    changed = other_phone.get(live_path(game_id), headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "Trump: green Elves" in text(changed)
    # The tag names the version the fragment shows.
    version = ApiClient(other_phone.client).get(game_id)["version"]
    assert changed.headers["ETag"] == f'W/"live-{version}-en"'


def test_the_tag_differs_by_language(app: Flask, phone: KeeperPhone) -> None:
    game_id = started(phone).game_id
    app.config["LANGUAGES"] = ["en", "de"]
    client = app.test_client()
    english = client.get(live_path(game_id), headers={"Accept-Language": "en"})
    german = client.get(live_path(game_id), headers={"Accept-Language": "de"})
    assert english.headers["ETag"] != german.headers["ETag"]
    stale = client.get(
        live_path(game_id),
        headers={"Accept-Language": "de", "If-None-Match": english.headers["ETag"]},
    )
    assert stale.status_code == 200


def stream_of(page: TestResponse) -> str:
    """The address of the stream the page follows."""
    found = re.search(r'data-follow="([^"]+)"', page.get_data(as_text=True))
    assert found, "the page follows no stream"
    return unescape(found.group(1))


def test_a_finished_game_is_still_followed(
    app: Flask, phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone, rounds="1").game_id
    played(app, phone, ([0, 0, 1], [0, 0, 1]))
    page = other_phone.get(f"/games/{game_id}/view")
    body = page.get_data(as_text=True)
    # The stream names the version the page shows, so that it sends only what is newer.
    shown = f"live-{ApiClient(other_phone.client).get(game_id)['version']}-en"
    assert stream_of(page) == f"/games/{game_id}/view/events?shown={shown}&parts=round"
    assert "Kevin wins with 30 points!" in text(page)
    assert body.count('class="player-line') == 3


def test_a_correction_after_the_game_reaches_the_spectator(
    app: Flask, phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone, rounds="1").game_id
    played(app, phone, ([0, 0, 1], [0, 0, 1]))
    address = live_path(game_id)
    headers = {"If-None-Match": other_phone.get(address).headers["ETag"]}
    unchanged = other_phone.get(address, headers=headers)
    assert unchanged.status_code == 304
    assert unchanged.data == b""

    # "Ute bid 1 and took the trick, not Kevin": Thomas 20, Ute 30, Kevin −10.
    correct(phone, 1, bids=[0, 1, 1], tricks=[0, 1, 0])
    fresh = other_phone.get(address, headers=headers)
    assert fresh.status_code == 200
    assert "Game over: Ute wins with 30 points!" in text(fresh)
    assert "Kevin wins" not in text(fresh)
    assert "Total 20 30 −10" in text(fresh)
    assert "✎ corrected" in text(fresh)
    headers = {"If-None-Match": fresh.headers["ETag"]}
    assert other_phone.get(address, headers=headers).status_code == 304


@pytest.mark.parametrize("game_id", ["nope", "x" * 40, "bad%00id", "%E2%82%AC"])
def test_an_unknown_game_is_a_404_on_both_addresses(other_phone: KeeperPhone, game_id: str) -> None:
    assert other_phone.get(f"/games/{game_id}/view").status_code == 404
    assert other_phone.get(live_path(game_id), headers={"If-None-Match": "*"}).status_code == 404


def test_a_garbled_validator_gets_the_fragment(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    for tag in ('W/"', "\x00", '"live-1-en', "x" * 5000):
        assert (
            other_phone.get(live_path(game_id), headers={"If-None-Match": tag}).status_code == 200
        )


def test_a_followed_game_is_remembered_most_recent_last_and_capped(app: Flask) -> None:
    with app.test_request_context():
        from flask import session

        for number in range(FOLLOWED_MAX + 5):
            following.remember_followed(f"game{number}")
        following.remember_followed("game7")
        followed = session[following.FOLLOWED_KEY]
    assert followed[-1] == "game7"
    assert followed[-2] == f"game{FOLLOWED_MAX + 4}"
    assert len(followed) == FOLLOWED_MAX
    assert len(set(followed)) == len(followed)


def test_opening_the_spectator_page_remembers_the_game(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    other_phone.get(f"/games/{game_id}/view")
    with other_phone.client.session_transaction() as session:
        assert session[following.FOLLOWED_KEY] == [game_id]


def test_a_deleted_game_tells_the_poll_so(client: FlaskClient, other_phone: KeeperPhone) -> None:
    game = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    etag = other_phone.get(live_path(game["id"])).headers["ETag"]
    client.delete(
        f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['edit_token']}"}
    )
    gone = other_phone.get(live_path(game["id"]), headers={"If-None-Match": etag})
    assert gone.status_code == 404
    body = gone.get_data(as_text=True)
    assert body.strip().startswith('<div id="live">')
    assert "There is no game with this id." in body
    assert "hx-trigger" not in body


def _won_column(body: str) -> list[str]:
    """The spectator's "won" column of the round being played, in seat order."""
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for _, cell in sorted(
            re.findall(r'<tr data-seat="(\d)">.*?<td class="won">(.*?)</td>', body, flags=re.S)
        )
    ]


def test_the_spectators_tricks_so_far_are_the_counts_tapped_in_over_the_tally(
    app: Flask, phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    """Counts tapped in by hand are what is scored: the won column shows them, as the round
    screen's "Tricks so far" counts them, not the tally's, in every language."""
    played_rounds = [([0, 1, 0], [0, 1, 0]), ([1, 1, 0], [1, 1, 0])]
    phone.game_id = seed(
        app, played=played_rounds, browser=browser_of(phone), next_trump="red", next_bids=[1, 1, 0]
    ).id
    for _ in range(2):
        assert phone.tap(3, action="trick", seat=0).status_code == 303
    live = live_path(phone.game_id)
    assert _won_column(other_phone.get(live).get_data(as_text=True)) == ["2", "0", "0"]
    for seat, count in enumerate((1, 1, 0)):
        assert phone.tricks(3, seat, count).status_code == 303
    assert "Tricks so far: 2 of 3." in text(phone.round_page(3))
    for language, played_words in (("en", "Tricks played: 2 of 3."), ("de", "Gespielte Stiche")):
        body = other_phone.get(live, headers={"Accept-Language": language}).get_data(as_text=True)
        assert played_words in words(body), language
        assert _won_column(body) == ["1", "1", "0"], language
        # What each still needs is told against the tally, which no longer counts.
        assert '<td class="need' not in body, language


def test_the_spectator_sees_the_tricks_as_they_are_entered(
    phone: KeeperPhone, other_phone: KeeperPhone
) -> None:
    game_id = started(phone).game_id
    phone.trump(1, "red")
    for seat, value in enumerate([0, 1, 0]):
        phone.bid(1, seat, value)
    phone.tricks(1, 1, 1)
    body = other_phone.get(live_path(game_id)).get_data(as_text=True)
    assert "The tricks are being played." in text(other_phone.get(live_path(game_id)))
    assert re.search(r'<td class="bid">1</td>\s*<td class="won">1</td>', body)
