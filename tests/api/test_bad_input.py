"""Bad requests to every endpoint: the status API.md names, a problem document with a
sentence a person understands, and nothing changed. Then hypothesis throws arbitrary JSON
at PUT bids: never a 500, and a refused write leaves the game as it was."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.extensions import db

from ..api_client import ApiClient

NAMES = ["Thomas", "Ute", "Kevin"]
UNSET: Any = object()
FORM = "application/x-www-form-urlencoded"
BASIC_AUTH = {"Authorization": "Basic dXNlcjpwdw=="}


@dataclass(frozen=True)
class Case:
    """One bad request: to ``endpoint``, with a JSON value or raw bytes, and its status."""

    endpoint: str  # create, trump, bids, tricks, delete, get
    name: str
    status: int
    json: Any = UNSET
    data: str | bytes | None = None
    content_type: str | None = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    auth: str = "own"  # own, none, other
    game: str = "own"  # own, or a literal id
    round: str = "1"
    field: str | None = None  # the errors[0].field expected, when there is one

    @property
    def id(self) -> str:
        return f"{self.endpoint}-{self.name}"


def _body_cases(endpoint: str, valid: dict[str, Any], key: str) -> list[Case]:
    """Cases about the body itself, the same for every endpoint that takes JSON."""
    text = json.dumps(valid)
    return [
        Case(endpoint, "truncated-json", 400, data=text[:-3]),
        Case(endpoint, "empty-body", 400, data=""),
        Case(endpoint, "single-quotes", 400, data=text.replace('"', "'")),
        Case(endpoint, "trailing-comma", 400, data=text[:-1] + ",}"),
        Case(endpoint, "json-array", 400, json=[valid]),
        Case(endpoint, "json-string", 400, json=text),
        Case(endpoint, "json-number", 400, data="42"),
        Case(endpoint, "json-null", 400, data="null"),
        Case(endpoint, "json-true", 400, data="true"),
        Case(endpoint, "NaN", 400, data=f'{{"{key}": NaN}}'),
        Case(endpoint, "Infinity", 400, data=f'{{"{key}": Infinity}}'),
        Case(endpoint, "minus-Infinity", 400, data=f'{{"{key}": [-Infinity, 0, 0]}}'),
        Case(endpoint, "deep-nesting", 400, data=f'{{"{key}": {"[" * 25000}{"]" * 25000}}}'),
        Case(endpoint, "invalid-utf8", 400, data=b'{"' + key.encode() + b'": "\xff\xfe"}'),
        Case(endpoint, "oversized", 413, data=text[:-1] + ', "x": "' + "a" * 70_000 + '"}'),
        Case(endpoint, "text-plain", 415, data=text, content_type="text/plain"),
        Case(endpoint, "form", 415, data="players=a", content_type=FORM),
        Case(endpoint, "no-content-type", 415, data=text, content_type=None),
        Case(endpoint, "unknown-key", 422, json={**valid, "colour": "red"}, field="colour"),
        Case(endpoint, "empty-object", 422, json={}, field=key),
    ]


CREATE_OK: dict[str, Any] = {"players": NAMES, "first_dealer": 0}


def _create(name: str, status: int, body: dict[str, Any], field: str | None = None) -> Case:
    return Case("create", name, status, json=body, field=field)


def _rules(name: str, status: int, rules: Any, field: str | None = None) -> Case:
    return _create(name, status, {**CREATE_OK, "rules": rules}, field)


CREATE_CASES = [
    *_body_cases("create", CREATE_OK, "players"),
    _create("players-string", 400, {"players": "Thomas, Ute, Kevin"}, "players"),
    _create("players-null", 400, {"players": None}, "players"),
    _create("players-object", 400, {"players": {"0": "Thomas"}}, "players"),
    _create("player-int", 400, {"players": ["Thomas", 2, "Kevin"]}, "players[1]"),
    _create("player-bool", 400, {"players": ["Thomas", "Ute", True]}, "players[2]"),
    _create("player-null", 400, {"players": [None, "Ute", "Kevin"]}, "players[0]"),
    _create("player-nested", 400, {"players": [["Thomas"], "Ute", "Kevin"]}, "players[0]"),
    _create("player-object", 400, {"players": [{"name": "T"}, "Ute", "Kevin"]}, "players[0]"),
    _create("player-lone-surrogate", 422, {"players": ["Thomas", "Ute", "\ud800"]}, "players[2]"),
    _create("no-players", 422, {"players": []}, "players"),
    _create("two-players", 422, {"players": ["Thomas", "Ute"]}, "players"),
    _create("seven-players", 422, {"players": [f"P{n}" for n in range(7)]}, "players"),
    _create("same-name-other-case", 422, {"players": ["Ute", "Kevin", "UTE"]}, "players[2]"),
    _create("same-name-after-trim", 422, {"players": ["Ute", "Kevin", "  Ute "]}, "players[2]"),
    _create("empty-name", 422, {"players": ["Thomas", "", "Kevin"]}, "players[1]"),
    _create("blank-name", 422, {"players": ["Thomas", "Ute", "   "]}, "players[2]"),
    _create("name-25-chars", 422, {"players": ["Thomas", "U" * 25, "Kevin"]}, "players[1]"),
    _create(
        "same-name-composed-and-decomposed",
        422,
        {"players": ["Jos\u00e9", "Jose\u0301", "Kevin"]},
        "players[1]",
    ),
    _create("name-with-nul", 422, {"players": ["Thomas", "U\x00te", "Kevin"]}, "players[1]"),
    _create("name-with-newline-only", 422, {"players": ["Thomas", "\n", "Kevin"]}, "players[1]"),
    _create("missing-players", 422, {"first_dealer": 0}, "players"),
    _create("dealer-string", 400, {**CREATE_OK, "first_dealer": "0"}, "first_dealer"),
    _create("dealer-bool", 400, {**CREATE_OK, "first_dealer": True}, "first_dealer"),
    _create("dealer-float", 400, {**CREATE_OK, "first_dealer": 1.5}, "first_dealer"),
    _create("dealer-integral-float", 400, {**CREATE_OK, "first_dealer": 1.0}, "first_dealer"),
    _create("dealer-list", 400, {**CREATE_OK, "first_dealer": [0]}, "first_dealer"),
    _create("dealer-object", 400, {**CREATE_OK, "first_dealer": {"seat": 0}}, "first_dealer"),
    _create("dealer-3-of-3", 422, {**CREATE_OK, "first_dealer": 3}, "first_dealer"),
    _create("dealer-negative", 422, {**CREATE_OK, "first_dealer": -1}, "first_dealer"),
    _create("dealer-huge", 422, {**CREATE_OK, "first_dealer": 10**30}, "first_dealer"),
    _create("dealer-2-pow-63", 422, {**CREATE_OK, "first_dealer": 2**63}, "first_dealer"),
    _create("unknown-top-key", 422, {**CREATE_OK, "rounds": 5}, "rounds"),
    _rules("rules-string", 400, "standard", "rules"),
    _rules("rules-list", 400, [], "rules"),
    _rules("rules-unknown-key", 422, {"bid_rules": "canadian"}, "rules.bid_rules"),
    _rules("bid-rule-unknown", 422, {"bid_rule": "plus_minus_two"}, "rules.bid_rule"),
    _rules("bid-rule-capitalised", 422, {"bid_rule": "Canadian"}, "rules.bid_rule"),
    _rules("bid-rule-int", 400, {"bid_rule": 1}, "rules.bid_rule"),
    _rules("bid-rule-null", 400, {"bid_rule": None}, "rules.bid_rule"),
    _rules("bid-reveal-unknown", 422, {"bid_reveal": "hidden"}, "rules.bid_reveal"),
    _rules("bid-reveal-list", 400, {"bid_reveal": ["open"]}, "rules.bid_reveal"),
    _rules("zero-string", 400, {"last_bidder_may_bid_zero": "yes"}),
    _rules("zero-int", 400, {"last_bidder_may_bid_zero": 1}),
    _rules("zero-null", 400, {"last_bidder_may_bid_zero": None}),
    _rules("clairvoyance-int", 400, {"clairvoyance": 0}, "rules.clairvoyance"),
    _rules("rounds-string", 400, {"rounds": "5"}, "rules.rounds"),
    _rules("rounds-float", 400, {"rounds": 2.5}, "rules.rounds"),
    _rules("rounds-bool", 400, {"rounds": True}, "rules.rounds"),
    _rules("rounds-zero", 422, {"rounds": 0}, "rules.rounds"),
    _rules("rounds-past-full", 422, {"rounds": 21}, "rules.rounds"),
    _rules("rounds-huge", 422, {"rounds": 10**40}, "rules.rounds"),
]

TRUMP_OK: dict[str, Any] = {"turned": "blue"}


def _trump(name: str, status: int, body: Any, field: str | None = None) -> Case:
    return Case("trump", name, status, json=body, field=field)


TRUMP_CASES = [
    *_body_cases("trump", TRUMP_OK, "turned"),
    _trump("turned-int", 400, {"turned": 1}, "turned"),
    _trump("turned-null", 400, {"turned": None}, "turned"),
    _trump("turned-list", 400, {"turned": ["blue"]}, "turned"),
    _trump("turned-object", 400, {"turned": {"suit": "blue"}}, "turned"),
    _trump("turned-none", 422, {"turned": "none"}, "turned"),
    _trump("turned-unknown", 422, {"turned": "purple"}, "turned"),
    _trump("turned-capitalised", 422, {"turned": "Blue"}, "turned"),
    _trump("turned-empty", 422, {"turned": ""}, "turned"),
    _trump("wizard-without-chosen", 422, {"turned": "wizard"}, "chosen"),
    _trump("wizard-chosen-null", 422, {"turned": "wizard", "chosen": None}, "chosen"),
    _trump("wizard-chosen-jester", 422, {"turned": "wizard", "chosen": "jester"}, "chosen"),
    _trump("wizard-chosen-unknown", 422, {"turned": "wizard", "chosen": "gold"}, "chosen"),
    _trump("wizard-chosen-int", 400, {"turned": "wizard", "chosen": 2}, "chosen"),
    _trump("chosen-without-wizard", 422, {"turned": "blue", "chosen": "red"}, "chosen"),
    _trump("chosen-with-jester", 422, {"turned": "jester", "chosen": "red"}, "chosen"),
    _trump("only-chosen", 422, {"chosen": "red"}, "turned"),
    _trump("suit-key", 422, {"turned": "blue", "suit": "blue"}, "suit"),
    Case("trump", "round-0", 404, json=TRUMP_OK, round="0"),
    Case("trump", "round-4-of-3", 404, json=TRUMP_OK, round="4"),
    Case("trump", "round-word", 404, json=TRUMP_OK, round="one"),
    Case("trump", "round-negative", 404, json=TRUMP_OK, round="-1"),
    Case("trump", "round-2-waits", 409, json=TRUMP_OK, round="2"),
]


def _bids(name: str, status: int, bids: Any, field: str | None = None) -> Case:
    return Case("bids", name, status, json={"bids": bids}, field=field)


BIDS_CASES = [
    *_body_cases("bids", {"bids": [0, 0, 0]}, "bids"),
    _bids("bids-string", 400, "0, 0, 0", "bids"),
    _bids("bids-null", 400, None, "bids"),
    _bids("bids-int", 400, 0, "bids"),
    _bids("bids-object", 400, {"0": 0, "1": 0, "2": 0}, "bids"),
    _bids("bid-string", 400, [0, "0", 0], "bids[1]"),
    _bids("bid-true", 400, [True, 0, 0], "bids[0]"),
    _bids("bid-false", 400, [0, 0, False], "bids[2]"),
    _bids("bid-float", 400, [0, 0.5, 0], "bids[1]"),
    _bids("bid-integral-float", 400, [0, 0, 1.0], "bids[2]"),
    _bids("bid-nested-list", 400, [[0], 0, 0], "bids[0]"),
    _bids("bid-object", 400, [0, {"bid": 0}, 0], "bids[1]"),
    _bids("too-few", 422, [0, 0], "bids"),
    _bids("too-many", 422, [0, 0, 0, 0], "bids"),
    _bids("empty-list", 422, [], "bids"),
    _bids("negative", 422, [0, -1, 0], "bids[1]"),
    _bids("more-than-cards", 422, [0, 0, 2], "bids[2]"),
    _bids("huge", 422, [10**30, 0, 0], "bids[0]"),
    _bids("2-pow-63", 422, [0, 2**63, None], "bids[1]"),
    _bids("forbidden-dealer-bid", 422, [1, 0, 0], "bids[0]"),
    Case("bids", "unknown-key", 422, json={"bids": [0, 0, 0], "round": 1}, field="round"),
    Case("bids", "tricks-key", 422, json={"tricks": [1, 0, 0]}, field="tricks"),
    Case("bids", "round-0", 404, json={"bids": [0, 0, 0]}, round="0"),
    Case("bids", "round-leading-zero", 404, json={"bids": [0, 0, 0]}, round="01"),
    Case("bids", "round-arabic-indic-digit", 404, json={"bids": [0, 0, 0]}, round="%D9%A1"),
    Case("bids", "round-4-of-3", 404, json={"bids": [0, 0, 0]}, round="4"),
    Case("bids", "round-2-waits", 409, json={"bids": [0, 0, 0]}, round="2"),
]


def _tricks(name: str, status: int, tricks: Any, field: str | None = None) -> Case:
    return Case("tricks", name, status, json={"tricks": tricks}, field=field)


TRICKS_CASES = [
    *_body_cases("tricks", {"tricks": [1, 0, 0]}, "tricks"),
    _tricks("tricks-string", 400, "1 0 0", "tricks"),
    _tricks("tricks-null", 400, None, "tricks"),
    _tricks("trick-null", 400, [1, None, 0], "tricks[1]"),
    _tricks("trick-string", 400, ["1", 0, 0], "tricks[0]"),
    _tricks("trick-bool", 400, [True, 0, 0], "tricks[0]"),
    _tricks("trick-float", 400, [0.5, 0.5, 0], "tricks[0]"),
    _tricks("trick-nested", 400, [0, 0, [1]], "tricks[2]"),
    _tricks("too-few", 422, [1, 0], "tricks"),
    _tricks("too-many", 422, [1, 0, 0, 0], "tricks"),
    _tricks("sum-too-small", 422, [0, 0, 0], "tricks"),
    _tricks("sum-too-large", 422, [1, 1, 0], "tricks"),
    _tricks("negative", 422, [1, -1, 1], "tricks[1]"),
    _tricks("more-than-cards", 422, [2, 0, 0], "tricks[0]"),
    _tricks("huge", 422, [0, 0, 10**30], "tricks[2]"),
    Case("tricks", "round-0", 404, json={"tricks": [1, 0, 0]}, round="0"),
    Case("tricks", "round-2-waits", 409, json={"tricks": [1, 1, 0]}, round="2"),
]

# Access and versions, for every write endpoint.
ACCESS_CASES = [
    case
    for endpoint, body in (
        ("trump", TRUMP_OK),
        ("bids", {"bids": [0, 0, 0]}),
        ("tricks", {"tricks": [1, 0, 0]}),
        ("delete", UNSET),
    )
    for case in (
        Case(endpoint, "no-token", 401, json=body, auth="none"),
        Case(endpoint, "basic-auth", 401, json=body, auth="none", headers=BASIC_AUTH),
        Case(endpoint, "other-games-token", 403, json=body, auth="other"),
        Case(endpoint, "unknown-game", 404, json=body, game="AAAAAAAAAAAAAAAAAAAAAAAA"),
        Case(endpoint, "id-with-nul", 404, json=body, game="AAAA%00AAAA"),
        Case(endpoint, "id-with-quote", 404, json=body, game="x'%20OR%20'1'='1"),
        Case(endpoint, "stale-if-match", 412, json=body, headers={"If-Match": '"1"'}),
        Case(endpoint, "weak-if-match", 412, json=body, headers={"If-Match": 'W/"3"'}),
        Case(endpoint, "garbage-if-match", 412, json=body, headers={"If-Match": "three"}),
        Case(endpoint, "huge-if-match", 412, json=body, headers={"If-Match": f'"{"9" * 5000}"'}),
        Case(endpoint, "empty-if-match", 412, json=body, headers={"If-Match": '""'}),
        Case(endpoint, "stale-and-empty", 412, json=body, headers={"If-Match": '"1", ""'}),
    )
]

GET_CASES = [
    Case("get", "unknown-game", 404, game="AAAAAAAAAAAAAAAAAAAAAAAA"),
    Case("get", "id-with-nul", 404, game="AAAA%00AAAA"),
    Case("get", "id-non-ascii", 404, game="%C3%A9t%C3%A9"),
    Case("get", "id-very-long", 404, game="A" * 2000),
    Case("get", "post-to-a-game", 405, json={}, headers={"X-Method": "POST"}),
    Case("get", "patch-a-game", 405, json={}, headers={"X-Method": "PATCH"}),
]

CASES = [*CREATE_CASES, *TRUMP_CASES, *BIDS_CASES, *TRICKS_CASES, *ACCESS_CASES, *GET_CASES]


def _playing_game(api: ApiClient) -> str:
    """A Plus/Minus One game of 3 rounds whose round 1 is playing (trump and bids in)."""
    # Few rounds: small answers, fast.
    return api.seed(
        NAMES, bid_rule="plus_minus_one", rounds=3, next_trump="red", next_bids=[0, 0, 0]
    )


def _count_games(app: Flask) -> int:
    with app.app_context():
        return int(db.session.execute(sa.text("SELECT count(*) FROM games")).scalar_one())


def _send(api: ApiClient, game_id: str | None, case: Case) -> TestResponse:
    headers = {}
    if case.auth == "own" and game_id is not None:
        headers["Authorization"] = f"Bearer {api.tokens[game_id]}"
    elif case.auth == "other":
        other_id = api.create(NAMES, rules={"rounds": 1})["id"]
        headers["Authorization"] = f"Bearer {api.tokens[other_id]}"
    headers.update(case.headers)
    method = headers.pop("X-Method", None)
    path_id = game_id if case.game == "own" else case.game
    if case.endpoint == "create":
        method, url = "POST", "/api/v1/games"
    elif case.endpoint in ("delete", "get"):
        method = method or case.endpoint.upper()
        url = f"/api/v1/games/{path_id}"
    else:
        method, url = "PUT", f"/api/v1/games/{path_id}/rounds/{case.round}/{case.endpoint}"
    kwargs: dict[str, Any] = {"method": method, "headers": headers}
    if case.json is not UNSET:
        kwargs["json"] = case.json
    elif case.data is not None:
        kwargs["data"] = case.data
        if case.content_type is not None:
            kwargs["content_type"] = case.content_type
    return api.client.open(url, **kwargs)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_request(app: Flask, api: ApiClient, case: Case) -> None:
    """The status API.md names, a problem document with a sentence, and nothing changed."""
    # A create needs no game: that none was made is checked by counting the rows.
    game_id = None if case.endpoint == "create" else _playing_game(api)
    before = api.get(game_id) if game_id is not None else None
    games = _count_games(app)
    response = _send(api, game_id, case)
    assert response.status_code == case.status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["status"] == case.status
    detail = problem["detail"]
    assert len(detail.split()) >= 3, detail
    assert detail.rstrip().endswith("."), detail
    if case.field is not None:
        assert problem["errors"][0]["field"] == case.field
    if case.status == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    if game_id is not None:
        assert api.get(game_id) == before
    assert _count_games(app) == games + (case.auth == "other")


# -- Arbitrary JSON at PUT bids ------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=15,
)
bid_lists = st.lists(st.none() | st.integers(min_value=-2, max_value=3), max_size=5)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"bids": bid_lists}),
    st.fixed_dictionaries({"bids": json_values}),
    st.dictionaries(st.sampled_from(["bids", "tricks", "turned", "x"]), bid_lists | json_values),
)


@pytest.fixture
def game_id(api: ApiClient) -> str:
    """The game the examples write to (one for all of them: its state carries over)."""
    return _playing_game(api)


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(body=bodies, number=st.sampled_from([1, 2]), if_match=st.sampled_from([None, 0, -1]))
def test_put_bids_never_fails_on_arbitrary_json(
    api: ApiClient, game_id: str, body: Any, number: int, if_match: int | None
) -> None:
    """Any JSON: 200, 400, 409, 412 or 422, never 500; unless 200 the game is unchanged."""
    before = api.get(game_id)
    headers = {}
    if if_match is not None:  # 0: the current version; -1: the one before
        headers["If-Match"] = f'"{before["version"] + if_match}"'
    response = api.client.put(
        f"/api/v1/games/{game_id}/rounds/{number}/bids",
        data=json.dumps(body),
        content_type="application/json",
        headers=api.headers(game_id, **headers),
    )
    assert response.status_code in {200, 400, 409, 412, 422}, response.get_data(as_text=True)
    after = api.get(game_id)
    if response.status_code != 200:
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["detail"].strip()
        assert after == before
        return
    assert number == 1
    assert if_match != -1
    assert after["version"] == before["version"] + 1
    # Nothing but nulls is no bid yet, which reads null (API.md: "null until started").
    written = None if all(bid is None for bid in body["bids"]) else body["bids"]
    assert after["rounds"][0]["bids"] == written
    assert after["rounds"][1:] == before["rounds"][1:]


def test_too_many_bids_for_a_scored_round_are_refused(api: ApiClient) -> None:
    """A correction with a list longer than the table: 422 naming the list, nothing changed."""
    game_id = api.create(NAMES, first_dealer=0, rules={"rounds": 3})["id"]
    api.play_round(game_id, 1, [0, 1, 1], [0, 0, 1], turned="red")
    before = api.get(game_id)
    for bids in ([0, 1, 1, None], [0, 1, None, None, None, None, None]):
        response = api.put(game_id, 1, "bids", {"bids": bids})
        assert response.status_code == 422
        problem = response.get_json()
        assert problem["errors"][0]["field"] == "bids"
        assert problem["detail"] == (
            f"Give one bid for each of the 3 players, in seat order, not {len(bids)}."
        )
    assert api.get(game_id) == before


def test_a_negative_count_is_refused_before_a_stale_version(api: ApiClient) -> None:
    """Below the range as over it, in the rules' words: 422 whatever the version."""
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0)["id"]
    api.trump(game_id, 1, "red")
    for what, body, where, detail in (
        ("bids", {"bids": [None, -1, None]}, "bids[1]", "Bob can bid 0 to 1, not −1."),
        ("bids", {"bids": [None, 2, None]}, "bids[1]", "Bob can bid 0 to 1, not 2."),
        ("tricks", {"tricks": [0, -2, 3]}, "tricks[1]", "Bob can win 0 to 1 tricks, not −2."),
    ):
        response = api.put(game_id, 1, what, body, **{"If-Match": '"1"'})  # stale: it is 2
        assert response.status_code == 422, response.get_json()
        problem = response.get_json()
        assert problem["detail"] == f"In round 1 {detail}"
        assert problem["errors"] == [{"field": where, "message": problem["detail"]}]
    assert api.get(game_id)["version"] == 2  # nothing written
