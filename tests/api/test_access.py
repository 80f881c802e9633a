"""The API's identity, access and version rules (API.md: identity, versions, endpoints)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db

from ..api_client import ApiClient, refusal

NAMES = ["Thomas", "Ute", "Kevin"]
URLSAFE = re.compile(r"[A-Za-z0-9_-]+")


def _game_row(app: Flask, game_id: str) -> dict[str, Any] | None:
    with app.app_context():
        row = (
            db.session.execute(sa.text("SELECT * FROM games WHERE id = :id"), {"id": game_id})
            .mappings()
            .one_or_none()
        )
        return dict(row) if row is not None else None


def test_create_answers_201_with_location_etag_and_token(app: Flask, client: FlaskClient) -> None:
    """201, Location of the game, ETag "1", an edit token of 256 bits and an id of 128."""
    response = client.post("/api/v1/games", json={"players": NAMES, "first_dealer": 0})
    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["ETag"] == '"1"'
    assert game["version"] == 1
    assert response.headers["Location"].endswith(f"/api/v1/games/{game['id']}")
    assert game["links"]["self"] == f"/api/v1/games/{game['id']}"
    assert game["links"]["view"] == f"/games/{game['id']}/view"
    token, game_id = game["edit_token"], game["id"]
    # 43 URL-safe base64 characters carry 258 bits; 22 carry 132.
    assert URLSAFE.fullmatch(token)
    assert len(token) >= 43
    assert URLSAFE.fullmatch(game_id)
    assert len(game_id) >= 22
    assert game["status"] == "in_progress"
    assert game["current_round"] == 1
    assert game["totals"] == [0, 0, 0]
    assert game["winners"] == []
    assert [s["rank"] for s in game["standings"]] == [1, 1, 1]
    assert game["rules"] == {
        "bid_rule": "standard",
        "last_bidder_may_bid_zero": False,
        "bid_reveal": "open",
        "clairvoyance": False,
        "rounds": 20,
        "special_cards": [],
        "round_plan": "every_hand",
    }

    # The token is shown once: the game read back does not carry it.
    fetched = client.get(response.headers["Location"])
    assert fetched.status_code == 200
    assert "edit_token" not in fetched.get_json()
    assert token not in fetched.get_data(as_text=True)

    other = client.post("/api/v1/games", json={"players": NAMES}).get_json()
    assert other["id"] != game_id
    assert other["edit_token"] != token
    assert 0 <= other["first_dealer"] < 3  # drawn at random when omitted


def test_only_a_hash_of_the_edit_token_is_stored(app: Flask, api: ApiClient) -> None:
    """No column of the games table holds the token itself."""
    game = api.create(NAMES)
    token = game["edit_token"]
    row = _game_row(app, game["id"])
    assert row is not None
    stored = [str(value) for value in row.values()]
    assert not any(token in value or value in token for value in stored if len(value) >= 8)
    token_columns = [name for name in row if "token" in name]
    assert token_columns  # the hash is kept: the game can still be edited with the token
    for name in token_columns:
        assert len(str(row[name])) >= 43, name  # and it keeps the token's strength
    assert api.put(game["id"], 1, "trump", {"turned": "red"}).status_code == 200


def test_get_honours_if_none_match(api: ApiClient) -> None:
    """304 for the current version, without a body; 200 once the game has moved on."""
    game = api.create(NAMES, first_dealer=0)
    url = f"/api/v1/games/{game['id']}"
    response = api.client.get(url, headers={"If-None-Match": '"1"'})
    assert response.status_code == 304
    assert response.headers["ETag"] == '"1"'
    assert not response.get_data()
    api.trump(game["id"], 1, "red")
    response = api.client.get(url, headers={"If-None-Match": '"1"'})
    assert response.status_code == 200
    assert response.headers["ETag"] == '"2"'
    assert response.get_json()["version"] == 2


@pytest.mark.both_backends
@pytest.mark.parametrize(
    ("what", "body"),
    [
        ("trump", {"turned": "green"}),
        ("bids", {"bids": [0, None, None]}),
    ],
)
def test_stale_if_match_is_refused_and_fresh_one_accepted(
    api: ApiClient, what: str, body: dict[str, Any]
) -> None:
    """A write naming an old version: 412 and nothing changes; the current version: 200."""
    game_id = api.create(NAMES, first_dealer=0)["id"]
    api.trump(game_id, 1, "red")  # version 2
    before = api.get(game_id)
    assert before["version"] == 2
    for stale in ('"1"', '"3"', 'W/"2"', '"1", "3"'):
        response = api.put(game_id, 1, what, body, **{"If-Match": stale})
        problem = refusal(response, 412)
        assert "version 2" in problem["detail"]
        assert api.get(game_id) == before
    response = api.put(game_id, 1, what, body, **{"If-Match": '"2"'})
    assert response.status_code == 200
    assert response.get_json()["version"] == 3
    assert response.headers["ETag"] == '"3"'
    response = api.put(game_id, 1, what, body, **{"If-Match": '"7", "3"'})
    assert response.status_code == 200
    assert response.get_json()["version"] == 4


def test_each_write_answers_its_version_and_etag(api: ApiClient) -> None:
    """Each round route answers the game one version on, its ETag that version (that every
    write, corrections too, adds exactly one is the services': tests/services/
    test_use_cases.py)."""
    game_id = api.seed(NAMES)
    writes = [
        ("trump", {"turned": "wizard", "chosen": "red"}),
        ("bids", {"bids": [0, 1, 1]}),
        ("tricks", {"tricks": [0, 0, 1]}),
    ]
    for expected, (what, body) in enumerate(writes, start=2):
        response = api.put(game_id, 1, what, body)
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["version"] == expected
        assert response.headers["ETag"] == f'"{expected}"'
    assert api.get(game_id)["version"] == len(writes) + 1


def _write_requests(game_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    base = f"/api/v1/games/{game_id}"
    return [
        ("PUT", f"{base}/rounds/1/trump", {"turned": "blue"}),
        ("PUT", f"{base}/rounds/1/bids", {"bids": [0, 0, 0]}),
        ("PUT", f"{base}/rounds/1/tricks", {"tricks": [1, 0, 0]}),
        ("DELETE", base, None),
    ]


@pytest.mark.parametrize("index", range(4), ids=["trump", "bids", "tricks", "delete"])
def test_writes_need_this_games_token(api: ApiClient, index: int) -> None:
    """401 without a token (with WWW-Authenticate), 403 with another game's, 404 for none."""
    game_id, other_id = api.seed(NAMES), api.seed(NAMES)
    before = api.get(game_id)
    method, url, body = _write_requests(game_id)[index]
    client = api.client

    for headers in ({}, {"Authorization": "Basic dXNlcjpwdw=="}, {"Authorization": "Bearer "}):
        response = client.open(url, method=method, json=body, headers=headers)
        refusal(response, 401)
        assert response.headers["WWW-Authenticate"].startswith("Bearer")

    # Another game's token (made-up ones are the services': tests/services/test_use_cases.py).
    headers = {"Authorization": f"Bearer {api.tokens[other_id]}"}
    refusal(client.open(url, method=method, json=body, headers=headers), 403)
    assert api.get(game_id) == before

    method, url, body = _write_requests("NoSuchGame0000000000000")[index]
    headers = api.headers(game_id)
    refusal(client.open(url, method=method, json=body, headers=headers), 404)


def test_a_token_for_the_table_code_is_refused_once_another_takes_over(api: ApiClient) -> None:
    """One keeper at a time: the token a table code gave an app is 403 once another takes the
    score over, saying so; the game's own edit token (API.md) still writes."""
    game_id = api.seed(NAMES)
    base = f"/api/v1/games/{game_id}"
    code = api.client.post(f"{base}/table-code", headers=api.headers(game_id)).get_json()
    mine = api.client.post(f"{base}/takeover", json=code).get_json()["edit_token"]
    bearer = {"Authorization": f"Bearer {mine}"}
    code = api.client.post(f"{base}/table-code", headers=bearer).get_json()
    assert api.client.post(f"{base}/takeover", json=code).status_code == 200  # another app
    before = api.get(game_id)

    refused = api.client.put(f"{base}/rounds/1/trump", json={"turned": "red"}, headers=bearer)

    problem = refusal(refused, 403)
    assert problem["type"] == "/api/v1/problems/forbidden"
    assert problem["detail"] == (
        "Another phone took over scorekeeping for this game. To keep score here again, "
        "enter the table code shown on that phone."
    )
    assert api.get(game_id) == before
    assert api.trump(game_id, 1, "red")["version"] == before["version"] + 1


def test_unknown_game_and_rounds_are_404(api: ApiClient) -> None:
    """An unknown id, round 0 and a round past rules.rounds are not found."""
    refusal(api.client.get("/api/v1/games/AAAAAAAAAAAAAAAAAAAAAAAA"), 404)
    refusal(api.client.get("/api/v1/games/not%20an%20id"), 404)
    game_id = api.create(NAMES, first_dealer=0, rules={"rounds": 3})["id"]
    before = api.get(game_id)
    # One round outside the game per route (each number is the services': test_use_cases.py).
    for number, what, body in (
        (0, "trump", {"turned": "red"}),
        (4, "bids", {"bids": [0, 0, 0]}),
        (21, "tricks", {"tricks": [1, 0, 0]}),
    ):
        refusal(api.put(game_id, number, what, body), 404)
    assert api.get(game_id) == before


def test_delete_then_the_game_is_gone(app: Flask, api: ApiClient) -> None:
    """DELETE: 204 without a body; afterwards the game reads as unknown everywhere."""
    game_id = api.create(NAMES, first_dealer=0)["id"]
    api.trump(game_id, 1, "red")
    other_id = api.create(NAMES)["id"]
    url = f"/api/v1/games/{game_id}"

    refusal(api.client.delete(url, headers=api.headers(game_id, **{"If-Match": '"1"'})), 412)
    assert api.get(game_id)["version"] == 2

    response = api.client.delete(url, headers=api.headers(game_id, **{"If-Match": '"2"'}))
    assert response.status_code == 204
    assert not response.get_data()
    assert "Content-Type" not in response.headers  # no body, so no type for it
    refusal(api.client.get(url), 404)
    refusal(api.client.get(url, headers={"If-None-Match": '"3"'}), 404)
    refusal(api.put(game_id, 1, "bids", {"bids": [0, 0, 0]}), 404)
    refusal(api.client.delete(url, headers=api.headers(game_id)), 404)
    assert api.get(other_id)["version"] == 1  # the other game is untouched
