"""Security (OWASP ASVS 5.0 level 1, and the cheap level 2 items): headers on every response,
the session cookie, the reverse proxy, rate limits in memory and in Redis, no state change
on GET."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.extensions import db

from ..api_client import ApiClient
from ..conftest import migrated_sqlite_app
from ..keeper_phone import KeeperPhone, text

PLAYERS = {"players": ["Ann", "Bob", "Cy"]}


def _app(tmp_path: Path, **config: Any) -> Flask:
    """An app on a migrated SQLite copy, with ``config`` as given (limits at their defaults
    unless ``config`` names them)."""
    return migrated_sqlite_app(tmp_path, "security", **config)


@pytest.fixture
def limited_app(tmp_path: Path) -> Iterator[Flask]:
    """An app whose game creation is limited to 3 per minute per address."""
    app = _app(tmp_path, RATELIMIT_CREATE_GAME="3 per minute")
    yield app
    with app.app_context():
        db.engine.dispose()


# -- Headers -------------------------------------------------------------------------------


def _responses(client: FlaskClient, api: ApiClient) -> dict[str, TestResponse]:
    game = api.create(["Ann", "Bob", "Cy"])
    page = client.get("/")
    css = re.search(r'href="(/static/[^"]+\.css[^"]*)"', page.get_data(as_text=True))
    assert css
    return {
        "page": page,
        "new game form": client.get("/games/new"),
        "error page": client.get("/no/such/page"),
        "static file": client.get(css.group(1)),
        "API game": client.get(f"/api/v1/games/{game['id']}"),
        "API problem": client.get("/api/v1/games/unknown"),
        "health": client.get("/healthz"),
    }


def test_every_response_carries_the_security_headers(client: FlaskClient, api: ApiClient) -> None:
    for what, response in _responses(client, api).items():
        headers = response.headers
        csp = headers.get("Content-Security-Policy", "")
        directives = dict(
            [*part.strip().split(" ", 1), ""][:2] for part in csp.split(";") if part.strip()
        )
        assert directives.get("default-src") == "'self'", what
        assert directives.get("script-src") == "'self'", what
        assert directives.get("style-src") == "'self'", what
        assert directives.get("frame-ancestors") == "'none'", what
        assert directives.get("object-src") == "'none'", what
        assert "unsafe-inline" not in csp, what
        assert "unsafe-eval" not in csp, what
        assert headers.get("X-Content-Type-Options") == "nosniff", what
        assert headers.get("Referrer-Policy") == "strict-origin-when-cross-origin", what
        assert headers.get("X-Frame-Options") == "DENY", what
        # Plain HTTP: no HSTS (a browser would ignore it, and a laptop serves no HTTPS).
        assert "Strict-Transport-Security" not in headers, what


def test_hsts_is_sent_over_https_only(client: FlaskClient) -> None:
    secure = client.get("/", base_url="https://tablet.example")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/").headers


def test_the_pages_hold_no_inline_script_style_or_handler(client: FlaskClient) -> None:
    """The CSP forbids them; a page that had one would break in the browser."""
    phone = KeeperPhone(client)
    assert phone.start(["Ann", "Bob", "Cy"]).status_code == 303
    phone.trump(1, "wizard", "red")
    phone.bid(1, 1, 0)
    pages = ["/", "/games/new", phone.round_path(1), f"/games/{phone.game_id}/sheet"]
    for path in pages:
        body = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), path
        assert not re.search(r"<style\b", body), path
        assert not re.search(r"\sstyle=", body), path
        assert not re.search(r"\son[a-z]+=", body), path
        assert "javascript:" not in body, path


# -- The session cookie --------------------------------------------------------------------


def _cookie(response: TestResponse) -> str:
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("tablet=")]
    assert cookies, "the response set no session cookie"
    return cookies[0]


def _start(client: FlaskClient, **kwargs: Any) -> TestResponse:
    """Start a game through the form, fetched and sent the same way (``kwargs``)."""
    page = client.get("/games/new", **kwargs).get_data(as_text=True)
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
    assert token
    form = KeeperPhone(client).new_game_form(["Ann", "Bob", "Cy"])
    form["csrf_token"] = token.group(1)
    return client.post("/games/new", data=form, **kwargs)


def test_the_session_cookie_is_httponly_lax_and_not_secure_over_http(client: FlaskClient) -> None:
    cookie = _cookie(_start(client))
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_a_response_that_changes_nothing_leaves_the_cookie_alone(client: FlaskClient) -> None:
    """A slow answer that sent the cookie back would put an older copy over a newer one (a
    message for the next page, a keeper just made): only a change sends it."""
    assert _start(client).status_code == 303
    for path in ("/", "/static/js/table.js", "/offline", "/manifest.webmanifest", "/sw.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert not response.headers.getlist("Set-Cookie"), path


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    app = _app(tmp_path)
    assert app.config["SESSION_COOKIE_SECURE"] == "auto"
    base = "https://tablet.example"
    # Over HTTPS, a browser sends the page it came from (Flask-WTF checks it is this site).
    response = _start(app.test_client(), base_url=base, headers={"Referer": base + "/games/new"})
    assert response.status_code == 303
    cookie = _cookie(response)
    assert "Secure" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


@pytest.mark.parametrize(("setting", "expected"), [("true", True), ("false", False), ("", "auto")])
def test_session_cookie_secure_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, expected: object
) -> None:
    monkeypatch.setenv("SESSION_COOKIE_SECURE", setting)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    assert app.config["SESSION_COOKIE_SECURE"] == expected


def test_secure_true_marks_the_cookie_secure_even_over_http(tmp_path: Path) -> None:
    app = _app(tmp_path, SESSION_COOKIE_SECURE=True)
    assert "Secure" in _cookie(_start(app.test_client()))


# -- Behind a reverse proxy ----------------------------------------------------------------

FORWARDED_HTTPS = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.7",
    "Referer": "https://localhost/games/new",
}


def test_without_proxyfix_forwarded_headers_are_not_trusted(tmp_path: Path) -> None:
    app = _app(tmp_path)
    response = app.test_client().get("/", headers=FORWARDED_HTTPS)
    assert "Strict-Transport-Security" not in response.headers


def test_behind_a_proxy_its_scheme_gives_hsts_and_a_secure_cookie(tmp_path: Path) -> None:
    app = _app(tmp_path, PROXY_FIX_X_FOR=1, PROXY_FIX_X_PROTO=1)
    client = app.test_client()
    page = client.get("/", headers=FORWARDED_HTTPS)
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure" in _cookie(_start(client, headers=FORWARDED_HTTPS))


def test_behind_a_proxy_that_mounts_it_under_a_prefix_the_games_links_carry_it(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path, PROXY_FIX_X_PREFIX=1)
    client = app.test_client()
    created = client.post(
        "/api/v1/games",
        json={"players": ["Ann", "Bob", "Cy"]},
        headers={"X-Forwarded-Prefix": "/tablet"},
    )
    game_id = created.get_json()["id"]
    assert created.get_json()["links"] == {
        "self": f"/tablet/api/v1/games/{game_id}",
        "view": f"/tablet/games/{game_id}/view",
    }
    assert created.headers["Location"] == f"/tablet/api/v1/games/{game_id}"
    for prefix in ("", "/other/place", "/tablet"):
        game = client.get(f"/api/v1/games/{game_id}", headers={"X-Forwarded-Prefix": prefix})
        assert game.get_json()["links"] == {
            "self": f"{prefix}/api/v1/games/{game_id}",
            "view": f"{prefix}/games/{game_id}/view",
        }


def test_proxyfix_counts_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROXY_FIX_X_FOR", "1")
    monkeypatch.setenv("PROXY_FIX_X_PROTO", "2")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    assert app.config["PROXY_FIX_X_FOR"] == 1
    assert app.config["PROXY_FIX_X_PROTO"] == 2
    assert app.config["PROXY_FIX_X_HOST"] == 0
    monkeypatch.setenv("PROXY_FIX_X_FOR", "many")
    with pytest.raises(ValueError, match="PROXY_FIX_X_FOR must be a number"):
        create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})


# -- Rate limits ---------------------------------------------------------------------------


def test_defaults_limit_game_creation_and_hand_over(tmp_path: Path) -> None:
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    assert app.config["RATELIMIT_ENABLED"] is True
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert app.config["RATELIMIT_CREATE_GAME"] == "10 per minute; 100 per day"
    assert app.config["RATELIMIT_HAND_OVER"] == "20 per minute"
    assert app.config["RATELIMIT_STATISTICS"] == "10 per minute"


def _said(wait: int) -> str:
    """A wait within a minute as the message says it."""
    return "1 minute" if wait == 60 else f"{wait} second" + ("s" if wait > 1 else "")


def test_the_api_refuses_a_fourth_game_a_minute_with_429(limited_app: Flask) -> None:
    client = limited_app.test_client()
    for _ in range(3):
        assert client.post("/api/v1/games", json=PLAYERS).status_code == 201
    response = client.post("/api/v1/games", json=PLAYERS)
    assert response.status_code == 429
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["type"] == "/api/v1/problems/too-many-requests"
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60
    assert (
        body["detail"] == f"Too many requests came from this address. Try again in {_said(wait)}."
    )
    # Reading is not limited.
    assert client.get("/api/v1/openapi.json").status_code == 200


def test_the_page_refuses_a_fourth_game_a_minute_with_a_page(limited_app: Flask) -> None:
    client = limited_app.test_client()
    for _ in range(3):
        assert _start(client).status_code == 303
    # Setting a table up (adding, removing, moving seats) is not starting a game.
    phone = KeeperPhone(client)
    for _ in range(5):
        form = phone.new_game_form(["Ann", "Bob", "Cy"], action="add")
        assert client.post("/games/new", data=form).status_code == 303
    assert client.get("/games/new").status_code == 200
    response = _start(client)
    assert response.status_code == 429
    assert response.mimetype == "text/html"
    wait = int(response.headers["Retry-After"])
    assert f"Too many requests came from this address. Try again in {_said(wait)}." in text(
        response
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Too many requests came from this address. Try again in 24 hours."),
        ("de", "Von dieser Adresse kamen zu viele Anfragen. Versuch es in 24 Stunden noch einmal."),
    ],
)
def test_after_the_daily_limit_the_wait_is_said_in_hours(
    tmp_path: Path, language: str, said: str
) -> None:
    app = _app(tmp_path, RATELIMIT_CREATE_GAME="1 per day")
    client = app.test_client()
    headers = {"Accept-Language": language}
    assert client.post("/api/v1/games", json=PLAYERS, headers=headers).status_code == 201
    api = client.post("/api/v1/games", json=PLAYERS, headers=headers)
    assert api.status_code == 429
    assert int(api.headers["Retry-After"]) > 23 * 3600
    assert api.get_json()["detail"] == said
    page = _start(client, headers=headers)
    assert page.status_code == 429
    assert said in text(page)
    with app.app_context():
        db.engine.dispose()


def test_the_page_and_the_api_share_one_count(limited_app: Flask) -> None:
    client = limited_app.test_client()
    assert _start(client).status_code == 303
    assert client.post("/api/v1/games", json=PLAYERS).status_code == 201
    assert _start(client).status_code == 303
    assert client.post("/api/v1/games", json=PLAYERS).status_code == 429


def test_limits_count_per_client_address_behind_a_proxy(tmp_path: Path) -> None:
    app = _app(tmp_path, RATELIMIT_CREATE_GAME="2 per minute", PROXY_FIX_X_FOR=1)
    client = app.test_client()

    def create(address: str) -> int:
        headers = {"X-Forwarded-For": address}
        return client.post("/api/v1/games", json=PLAYERS, headers=headers).status_code

    assert [create("198.51.100.1") for _ in range(3)] == [201, 201, 429]
    assert [create("198.51.100.2") for _ in range(3)] == [201, 201, 429]


def test_hand_over_links_are_limited_per_address(tmp_path: Path) -> None:
    app = _app(tmp_path, RATELIMIT_HAND_OVER="2 per minute")
    phone = KeeperPhone(app.test_client())
    assert phone.start(["Thomas", "Ute", "Kevin"]).status_code == 303

    def make_link() -> TestResponse:
        token = phone.csrf(f"/games/{phone.game_id}/share")
        return phone.client.post(f"/games/{phone.game_id}/handover", data={"csrf_token": token})

    assert [make_link().status_code for _ in range(3)] == [303, 303, 429]
    refused = make_link()
    assert "Too many requests came from this address" in text(refused)
    # Opening the invite page is not limited.
    assert phone.client.get(f"/games/{phone.game_id}/share").status_code == 200


def test_a_hand_over_post_that_makes_no_link_spends_nothing(tmp_path: Path) -> None:
    app = _app(tmp_path, RATELIMIT_HAND_OVER="2 per minute")
    keeper, stranger = KeeperPhone(app.test_client()), KeeperPhone(app.test_client())
    assert keeper.start(["Thomas", "Ute", "Kevin"]).status_code == 303
    token = stranger.csrf()
    for _ in range(5):  # no link in the session, or not the keeper: refused, not counted
        assert stranger.client.post("/handover", data={"csrf_token": token}).status_code == 410
        made = stranger.client.post(f"/games/{keeper.game_id}/handover", data={"csrf_token": token})
        assert made.status_code == 403
    share = keeper.csrf(f"/games/{keeper.game_id}/share")
    link = keeper.client.post(f"/games/{keeper.game_id}/handover", data={"csrf_token": share})
    assert link.status_code == 303
    with app.app_context():
        db.engine.dispose()


def test_the_statistics_page_is_limited_per_address(tmp_path: Path) -> None:
    """Totalling every kept game costs the server a second at 10,000 games: a script reloading
    it is turned away, with the sentence and the wait."""
    app = _app(tmp_path, RATELIMIT_STATISTICS="2 per minute")
    phone = KeeperPhone(app.test_client())
    assert phone.start(["Thomas", "Ute", "Kevin"]).status_code == 303
    statuses = [phone.client.get("/statistics").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = phone.client.get("/statistics")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "Too many requests came from this address" in text(refused)
    # The other pages are not counted with it.
    assert phone.client.get("/").status_code == 200
    with app.app_context():
        db.engine.dispose()


def test_limits_can_be_switched_off(tmp_path: Path) -> None:
    app = _app(tmp_path, RATELIMIT_CREATE_GAME="1 per minute", RATELIMIT_ENABLED=False)
    client = app.test_client()
    assert [client.post("/api/v1/games", json=PLAYERS).status_code for _ in range(3)] == [201] * 3
    # Switch them on again for the apps of the tests after this one (the limiter is shared).
    _app(tmp_path / "again")


def test_an_unreachable_limit_storage_lets_games_start(tmp_path: Path) -> None:
    """Redis down must not turn starting a game into a server error."""
    app = _app(tmp_path, RATELIMIT_STORAGE_URI="redis://127.0.0.1:9/0")
    client = app.test_client()
    assert client.post("/api/v1/games", json=PLAYERS).status_code == 201
    assert _start(client).status_code == 303
    _app(tmp_path / "memory")  # back to memory for the tests after this one


@pytest.mark.redis
def test_two_workers_share_their_counts_through_redis(tmp_path: Path, redis_url: str) -> None:
    import redis

    # A fresh address per run, so counts left by an earlier run cannot interfere.
    address = f"192.0.2.{uuid.uuid4().int % 250 + 1}-{uuid.uuid4().hex[:8]}"
    config = {
        "RATELIMIT_STORAGE_URI": redis_url,
        "RATELIMIT_CREATE_GAME": "3 per minute",
    }
    first = _app(tmp_path / "one", **config)
    second = _app(tmp_path / "two", **config)
    environ = {"REMOTE_ADDR": address}

    def create(app: Flask) -> int:
        response = app.test_client().post("/api/v1/games", json=PLAYERS, environ_base=environ)
        return response.status_code

    assert [create(first), create(second), create(first), create(second)] == [
        201,
        201,
        201,
        429,
    ]
    keys = redis.Redis.from_url(redis_url).keys(f"*{address}*")
    assert keys, "the counts are not kept in Redis"
    for app in (first, second):
        with app.app_context():
            db.engine.dispose()
    _app(tmp_path / "memory")  # back to memory for the tests after this one


# -- No state change on GET ----------------------------------------------------------------


def _dump(app: Flask) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every row of every table, in a stable order."""
    with app.app_context():
        metadata = sa.MetaData()
        metadata.reflect(db.engine)
        with db.engine.connect() as connection:
            return [
                (
                    name,
                    sorted(
                        (tuple(row) for row in connection.execute(sa.select(table))),
                        key=repr,
                    ),
                )
                for name, table in sorted(metadata.tables.items())
            ]


def test_no_get_route_changes_the_database(app: Flask, client: FlaskClient) -> None:
    phone = KeeperPhone(client)
    assert phone.start(["Ann", "Bob", "Cy"]).status_code == 303
    phone.play(1, [1, 0, 0], [1, 0, 0])
    phone.trump(2, "wizard", "red")
    phone.bid(2, 0, 1)
    game_id = phone.game_id
    api = ApiClient(client)
    finished = api.create(["Dora", "Eve", "Finn"], rules={"rounds": 1})
    api.play_round(finished["id"], 1, [1, 0, 0], [1, 0, 0])
    static = re.search(r'href="/static/([^"?]+)', client.get("/").get_data(as_text=True))
    assert static
    values = {"game_id": [game_id, finished["id"], "unknown"], "number": [1, 2, 3, 21]}
    queries = ["", "?change=bids", "?change=trump", "?turned=wizard", "?seat=1"]
    visited: set[str] = set()
    # The keeper's phone, and a phone that only follows the game.
    stranger = app.test_client()
    before = _dump(app)
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or set()):
            continue
        if rule.endpoint == "static":
            paths = [f"/static/{static.group(1)}"]
        else:
            paths = [""]
            for argument in sorted(rule.arguments):
                paths = [
                    re.sub(rf"<(?:[a-z]+:)?{argument}>", str(value), path or rule.rule)
                    for path in paths
                    for value in values.get(argument, ["unknown"])
                ]
            paths = [path or rule.rule for path in paths]
        for path in paths:
            for query in queries:
                for phone_client in (client, stranger):
                    response = phone_client.get(path + query)
                    assert response.status_code < 500, (path + query, response.status_code)
                    response.close()
        visited.add(rule.endpoint)
    assert _dump(app) == before
    expected = {
        "history.home",
        "games.new_game",
        "rounds.round_screen",
        "rounds.correct",
        "games.sheet",
        "games.game",
        "api.get_game",
        "api.openapi",
        "health.healthz",
        "static",
    }
    assert expected <= visited
