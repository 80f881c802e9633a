"""The table code: the scorekeeper's screen shows it, another phone that follows the game
enters it to keep score (nothing prepared before), a new code voids the old one, and wrong
codes are limited per game (in the database) and per address (the rate limiter)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import errors, models
from scorekeeper.extensions import db
from scorekeeper.i18n import service_message
from scorekeeper.services import sharing, table_codes

from ..conftest import migrated_sqlite_app
from ..keeper_phone import KeeperPhone, text
from ..pages.test_sharing import can_keep_score, other, started
from .test_concurrency import race

_CODE = re.compile(r'id="table-code">([0-9 ]+)<')


def shown_code(phone: KeeperPhone, path: str) -> str | None:
    """The table code a page shows this phone, if any."""
    page = phone.get(path)
    assert page.status_code == 200, text(page)
    match = _CODE.search(page.get_data(as_text=True))
    return match.group(1) if match else None


def enter_code(taker: KeeperPhone, game_id: str, code: str) -> tuple[int, str]:
    """Tap "Keep score on this phone" with ``code``; the answer's status and where it leads
    (or the refusal the page it leads to shows)."""
    token = taker.csrf(f"/games/{game_id}/view")
    answer = taker.client.post(
        f"/games/{game_id}/keep-score", data={"csrf_token": token, "code": code}
    )
    location = answer.headers.get("Location", "")
    if location.endswith("/keep-score"):
        return answer.status_code, text(taker.get(location))
    return answer.status_code, location or text(answer)


@pytest.fixture
def keeper(client: FlaskClient) -> KeeperPhone:
    phone = KeeperPhone(client)
    started(phone)
    return phone


# -- The code ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["48210937", "4821 0937", " 4821-0937 ", "4821\u00a00937"])
def test_a_code_is_read_with_spaces_or_dashes(typed: str) -> None:
    assert table_codes.normalize(typed) == "48210937"
    assert table_codes.grouped("48210937") == "4821 0937"


@pytest.mark.parametrize("typed", ["", "1234567", "123456789", "4821 093x", "٤٨٢١٠٩٣٧", "1" * 500])
def test_a_malformed_code_is_refused_in_one_sentence(typed: str) -> None:
    with pytest.raises(errors.TableCodeMalformed, match="A table code is 8 digits"):
        table_codes.normalize(typed)


def test_only_a_keyed_hash_of_the_code_is_stored(app: Flask, keeper: KeeperPhone) -> None:
    code = shown_code(keeper, keeper.round_path(1))
    assert code is not None
    assert len(code) == 9
    digits = code.replace(" ", "")
    with app.app_context():
        rows = db.session.execute(sa.text("SELECT * FROM table_codes")).all()
    assert len(rows) == 1
    assert all(digits not in str(value) for value in rows[0])
    assert table_codes.code_hash(keeper.game_id, digits, "test-secret") in rows[0]
    # Another secret key gives another hash: the database alone cannot be tried through.
    assert table_codes.code_hash(keeper.game_id, digits, "other") not in rows[0]


# -- Taking over ---------------------------------------------------------------------------


def test_the_round_screen_and_the_invite_page_show_the_same_code(keeper: KeeperPhone) -> None:
    on_round = shown_code(keeper, keeper.round_path(1))
    assert on_round is not None
    assert shown_code(keeper, f"/games/{keeper.game_id}/share") == on_round
    assert shown_code(keeper, keeper.round_path(1)) == on_round  # made once, then kept


def test_a_follower_takes_over_with_the_code_after_the_keeper_is_gone(
    app: Flask, keeper: KeeperPhone
) -> None:
    code = shown_code(keeper, keeper.round_path(1))
    assert code is not None
    keeper.client.delete_cookie("tablet")  # the phone's browser data is cleared
    assert not can_keep_score(app, keeper, keeper.game_id)
    taker = other(app)
    assert "Keep score on this phone" in text(taker.get(f"/games/{keeper.game_id}/view"))
    status, where = enter_code(taker, keeper.game_id, code)
    assert (status, where) == (303, f"/games/{keeper.game_id}")
    assert can_keep_score(app, taker, keeper.game_id)
    # The code is used up: the new keeper's screen shows a new one, for the table to hear.
    assert shown_code(taker, keeper.round_path(1)) not in (None, code)


def test_a_wrong_code_is_refused_and_changes_nothing(app: Flask, keeper: KeeperPhone) -> None:
    code = shown_code(keeper, keeper.round_path(1))
    assert code is not None
    wrong = f"{(int(code.replace(' ', '')) + 1) % 10**8:08d}"
    taker = other(app)
    status, page = enter_code(taker, keeper.game_id, wrong)
    assert status == 303
    assert "This is not the table code of this game" in page
    status, page = enter_code(taker, keeper.game_id, "12")
    assert "A table code is 8 digits" in page
    assert not can_keep_score(app, taker, keeper.game_id)
    with app.app_context():
        assert (
            db.session.scalar(sa.select(models.TableCodeRow.failures)) == 1
        )  # malformed: no guess


def test_a_new_code_voids_the_old_one(app: Flask, keeper: KeeperPhone) -> None:
    old = shown_code(keeper, keeper.round_path(1))
    answer = keeper.client.post(
        f"/games/{keeper.game_id}/table-code",
        data={"csrf_token": keeper.csrf(f"/games/{keeper.game_id}/share"), "back": "share"},
    )
    assert answer.status_code == 303
    assert answer.headers["Location"] == f"/games/{keeper.game_id}/share"
    new = shown_code(keeper, answer.headers["Location"])
    assert new is not None
    assert new != old
    assert old is not None
    assert "not the table code" in enter_code(other(app), keeper.game_id, old)[1]
    assert enter_code(other(app), keeper.game_id, new)[0] == 303


def test_a_keeper_who_does_not_know_the_code_is_offered_a_new_one(keeper: KeeperPhone) -> None:
    assert shown_code(keeper, keeper.round_path(1)) is not None
    # The keeper's session loses its codes (it keeps the newest games' only), not its right.
    with keeper.client.session_transaction() as session:
        session.pop("table_codes")
    page = text(keeper.get(keeper.round_path(1)))
    assert "Show a new table code" in page
    assert _CODE.search(page) is None


def test_a_spectator_cannot_make_a_new_code(app: Flask, keeper: KeeperPhone) -> None:
    stranger = other(app)
    token = stranger.csrf(f"/games/{keeper.game_id}/view")
    answer = stranger.client.post(f"/games/{keeper.game_id}/table-code", data={"csrf_token": token})
    assert answer.status_code == 403


def test_taking_the_right_back_voids_the_code(app: Flask, keeper: KeeperPhone) -> None:
    code = shown_code(keeper, keeper.round_path(1))
    assert code is not None
    keeper.client.post(
        f"/games/{keeper.game_id}/revoke",
        data={"csrf_token": keeper.csrf(f"/games/{keeper.game_id}/share")},
    )
    assert "no table code yet" in enter_code(other(app), keeper.game_id, code)[1]
    renewed = shown_code(keeper, keeper.round_path(1))
    assert renewed is not None
    assert renewed != code
    assert "not the table code" in enter_code(other(app), keeper.game_id, code)[1]


def test_an_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/games/nope/keep-score").status_code == 404


# -- The limits ----------------------------------------------------------------------------


def _make_code(app: Flask, game_id: str) -> str:
    with app.app_context():
        hashed = db.session.scalar(sa.select(models.GameRow.edit_token_hash))
        assert hashed
        db.session.add(models.KeeperRow(browser_hash=sharing.Browser("k").hash, game_id=game_id))
        db.session.commit()
        code = table_codes.first_code(game_id, sharing.Browser("k"), "test-secret")
    assert code is not None
    return code


def test_a_game_takes_only_so_many_wrong_codes_an_hour_from_all_addresses(
    app: Flask, keeper: KeeperPhone
) -> None:
    code = _make_code(app, keeper.game_id)
    wrong = f"{(int(code) + 1) % 10**8:08d}"
    with app.app_context():
        for _ in range(table_codes.GUESSES_PER_WINDOW):
            with pytest.raises(errors.TableCodeWrong):
                table_codes.redeem(keeper.game_id, wrong, "test-secret", sharing.Browser("x"))
        with pytest.raises(errors.TableCodeGuessesSpent) as spent:
            table_codes.redeem(keeper.game_id, code, "test-secret", sharing.Browser("x"))
        assert 3500 < int(spent.value.headers["Retry-After"]) <= 3601
        with app.test_request_context():
            said = service_message(spent.value)
        # Retry-After's seconds, rounded up: 3,600 is an hour, a second less 60 minutes.
        assert said in (
            "Too many wrong table codes were entered for this game. Try again in 60 minutes.",
            "Too many wrong table codes were entered for this game. Try again in 1 hour.",
        )
        assert not sharing.is_keeper(keeper.game_id, sharing.Browser("x"))
        # An hour later the window starts again and the right code works.
        db.session.execute(
            sa.update(models.TableCodeRow).values(
                window_started_at=models.utcnow() - table_codes.GUESS_WINDOW - timedelta(1)
            )
        )
        db.session.commit()
        taken = table_codes.redeem(keeper.game_id, code, "test-secret", sharing.Browser("x"))
        assert taken.game_id == keeper.game_id
        assert sharing.is_keeper(keeper.game_id, sharing.Browser("x"))


def test_the_page_says_when_the_game_takes_codes_again(app: Flask, keeper: KeeperPhone) -> None:
    code = shown_code(keeper, keeper.round_path(1))
    assert code is not None
    with app.app_context():
        db.session.execute(
            sa.update(models.TableCodeRow).values(failures=table_codes.GUESSES_PER_WINDOW)
        )
        db.session.commit()
    _status, page = enter_code(other(app), keeper.game_id, code)
    assert "Too many wrong table codes were entered for this game" in page


def test_one_address_is_limited_across_games(tmp_path: Path) -> None:
    app = migrated_sqlite_app(tmp_path, "codes", RATELIMIT_TABLE_CODE="2 per minute")
    client = app.test_client()
    game_id = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()["id"]
    answers = [
        client.post(f"/api/v1/games/{game_id}/takeover", json={"table_code": "12345678"})
        for _ in range(3)
    ]
    assert [a.status_code for a in answers] == [403, 403, 429]
    assert answers[2].headers["Retry-After"]


# -- The API -------------------------------------------------------------------------------


def test_an_app_shows_a_new_code_and_another_app_takes_over_with_it(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()
    game_id, edit = created["id"], {"Authorization": f"Bearer {created['edit_token']}"}
    assert client.post(f"/api/v1/games/{game_id}/table-code").status_code == 401
    wrong_token = {"Authorization": "Bearer nope"}
    assert (
        client.post(f"/api/v1/games/{game_id}/table-code", headers=wrong_token).status_code == 403
    )
    made = client.post(f"/api/v1/games/{game_id}/table-code", headers=edit)
    assert made.status_code == 201
    code = made.get_json()["table_code"]
    assert re.fullmatch(r"[0-9]{8}", code)
    taken = client.post(
        f"/api/v1/games/{game_id}/takeover", json={"table_code": f"{code[:4]} {code[4:]}"}
    )
    assert taken.status_code == 200
    body = taken.get_json()
    assert body["id"] == game_id
    assert len(body["edit_token"]) >= 43
    mine = {"Authorization": f"Bearer {body['edit_token']}"}
    trump = client.put(
        f"/api/v1/games/{game_id}/rounds/1/trump", json={"turned": "red"}, headers=mine
    )
    assert trump.status_code == 200
    # A new code voids the old one.
    assert client.post(f"/api/v1/games/{game_id}/table-code", headers=mine).status_code == 201
    again = client.post(f"/api/v1/games/{game_id}/takeover", json={"table_code": code})
    assert again.status_code == 403
    assert again.get_json()["detail"].startswith("This is not the table code of this game")


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Table code rejected"), ("de", "Tischcode abgelehnt")]
)
def test_a_refused_table_code_is_titled_for_the_table_code(
    client: FlaskClient, language: str, title: str
) -> None:
    """Not "Edit token rejected": no edit token was sent; the code, missing or wrong, is."""
    created = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()
    takeover = f"/api/v1/games/{created['id']}/takeover"
    headers = {"Accept-Language": language}
    for made in (False, True):  # no code yet, then a wrong one
        if made:
            edit = {"Authorization": f"Bearer {created['edit_token']}"}
            client.post(f"/api/v1/games/{created['id']}/table-code", headers=edit)
        answer = client.post(takeover, json={"table_code": "00000000"}, headers=headers)
        assert answer.status_code == 403
        problem = answer.get_json()
        assert problem["type"] == "/api/v1/problems/table-code-rejected"
        assert problem["title"] == title


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"table_code": "12"}, 422),
        ({"table_code": 12345678}, 400),
        ({"table_code": "12345678", "x": 1}, 422),
        ({}, 422),
    ],
)
def test_a_bad_takeover_body_is_refused(client: FlaskClient, body: object, status: int) -> None:
    created = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()
    answer = client.post(f"/api/v1/games/{created['id']}/takeover", json=body)
    assert answer.status_code == status
    assert client.post("/api/v1/games/unknown/takeover", json=body).status_code == 404


def test_the_api_says_when_a_game_takes_codes_again(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()
    edit = {"Authorization": f"Bearer {created['edit_token']}"}
    client.post(f"/api/v1/games/{created['id']}/table-code", headers=edit)
    with app.app_context():
        db.session.execute(
            sa.update(models.TableCodeRow).values(failures=table_codes.GUESSES_PER_WINDOW)
        )
        db.session.commit()
    answer = client.post(f"/api/v1/games/{created['id']}/takeover", json={"table_code": "12345678"})
    assert answer.status_code == 429
    assert answer.get_json()["type"] == "/api/v1/problems/too-many-requests"
    assert 3500 < int(answer.headers["Retry-After"]) <= 3601
    assert answer.get_json()["detail"] in (
        "Too many wrong table codes were entered for this game. Try again in 60 minutes.",
        "Too many wrong table codes were entered for this game. Try again in 1 hour.",
    )


@pytest.mark.parametrize(
    ("seconds", "language", "said"),
    [
        (1, "en", "Try again in 1 second."),
        (60, "en", "Try again in 1 minute."),
        (61, "en", "Try again in 2 minutes."),
        (3600, "en", "Try again in 1 hour."),
        (60, "de", "Versuch es in 1 Minute noch einmal."),
        (3000, "de", "Versuch es in 50 Minuten noch einmal."),
    ],
)
def test_the_wait_for_table_codes_is_said_as_retry_after_says_it(
    app: Flask, seconds: int, language: str, said: str
) -> None:
    spent = errors.TableCodeGuessesSpent(seconds)
    assert spent.headers["Retry-After"] == str(seconds)
    with app.test_request_context(headers={"Accept-Language": language}):
        assert service_message(spent).endswith(f". {said}")


def test_guesses_at_once_from_many_clients_never_pass_the_games_limit(
    app: Flask, client: FlaskClient
) -> None:
    created = client.post("/api/v1/games", json={"players": ["A", "B", "C"]}).get_json()
    edit = {"Authorization": f"Bearer {created['edit_token']}"}
    code = client.post(f"/api/v1/games/{created['id']}/table-code", headers=edit).get_json()
    wrong = f"{(int(code['table_code']) + 1) % 10**8:08d}"

    def guess(other: FlaskClient) -> int:
        path = f"/api/v1/games/{created['id']}/takeover"
        return other.post(path, json={"table_code": wrong}).status_code

    extra = 6
    statuses = race(app, [guess] * (table_codes.GUESSES_PER_WINDOW + extra))
    assert sorted(statuses) == [403] * table_codes.GUESSES_PER_WINDOW + [429] * extra
    with app.app_context():
        failures = db.session.scalar(sa.select(models.TableCodeRow.failures))
    assert failures == table_codes.GUESSES_PER_WINDOW
