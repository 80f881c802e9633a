"""The spectators' poll served from the caches (web/live.py): the fragment rendered once
per game, version and language; and never a stale fragment after a write made through
another app (another worker or server), in each worker's memory or shared in Redis."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, template_rendered

from ..api_client import ApiClient
from ..conftest import close, make_app
from ..keeper_phone import text
from ..statements import count_statements

PLAYERS = ["Ann", "Bob", "Cy"]


def live_path(game_id: str) -> str:
    return f"/games/{game_id}/view/live"


@contextmanager
def renders(app: Flask) -> Iterator[list[str]]:
    """The names of the templates the app renders inside the block."""
    names: list[str] = []

    def record(_sender: Flask, template: Any, **_extra: Any) -> None:
        names.append(template.name)

    with template_rendered.connected_to(record, app):
        yield names


@contextmanager
def two_apps(database_url: str, **config: Any) -> Iterator[tuple[Flask, Flask]]:
    """Two apps on one database, as two workers or two servers are."""
    apps = (make_app(database_url, **config), make_app(database_url, **config))
    yield apps
    for app in apps:
        close(app)


def redis_config(redis_url: str, **extra: Any) -> dict[str, Any]:
    """Redis for the fragments, under a key prefix of this test's own."""
    return {"CACHE_REDIS_URL": redis_url, "CACHE_KEY_PREFIX": f"test-{uuid.uuid4().hex}:", **extra}


def test_a_change_is_rendered_once_for_every_follower(app: Flask, api: ApiClient) -> None:
    game_id = api.create(PLAYERS)["id"]
    followers = [app.test_client() for _ in range(6)]
    tags = [follower.get(live_path(game_id)).headers["ETag"] for follower in followers]
    api.trump(game_id, 1, "red")
    with renders(app) as rendered:
        answers = [
            follower.get(live_path(game_id), headers={"If-None-Match": tag})
            for follower, tag in zip(followers, tags, strict=True)
        ]
    assert [answer.status_code for answer in answers] == [200] * 6
    assert len({answer.get_data() for answer in answers}) == 1
    assert all("Trump: red Dwarves" in text(answer) for answer in answers)
    assert rendered.count("_live.html") == 1


def test_each_language_gets_its_own_fragment(app: Flask, api: ApiClient) -> None:
    game_id = api.create(PLAYERS)["id"]
    client = app.test_client()
    english = client.get(live_path(game_id), headers={"Accept-Language": "en"})
    german = client.get(live_path(game_id), headers={"Accept-Language": "de"})
    assert "Standings" in text(english)
    assert "Punktestand" in text(german)
    again = client.get(live_path(game_id), headers={"Accept-Language": "en"})
    assert again.get_data() == english.get_data()


def check_followers_see_each_write(writer: Flask, reader: Flask) -> None:
    """A follower polling through ``reader`` sees every write made through ``writer`` on
    its next poll, never the fragment or the 304 of the version before."""
    api = ApiClient(writer.test_client())
    game_id = api.create(PLAYERS)["id"]
    follower = reader.test_client()
    tag = follower.get(live_path(game_id)).headers["ETag"]
    assert follower.get(live_path(game_id), headers={"If-None-Match": tag}).status_code == 304
    for turned, bids, shown in (("red", [0, 1, 0], "Dwarves"), ("blue", [1, 0, 0], "Humans")):
        number = 1 if turned == "red" else 2
        api.trump(game_id, number, turned)
        changed = follower.get(live_path(game_id), headers={"If-None-Match": tag})
        assert changed.status_code == 200
        assert f"Trump: {turned} {shown}" in text(changed)
        tag = changed.headers["ETag"]
        api.bids(game_id, number, bids)
        changed = follower.get(live_path(game_id), headers={"If-None-Match": tag})
        assert changed.status_code == 200, "a write on the other app was answered 304"
        assert changed.headers["ETag"] != tag
        tag = changed.headers["ETag"]
        api.tricks(game_id, number, [number, 0, 0] if bids[0] else [0, number, 0])
        tag = follower.get(live_path(game_id), headers={"If-None-Match": tag}).headers["ETag"]
        assert tag == f'W/"live-{api.get(game_id)["version"]}-en"'


@pytest.mark.both_backends
def test_followers_on_another_worker_see_every_write(database_url: str) -> None:
    with two_apps(database_url) as (writer, reader):
        check_followers_see_each_write(writer, reader)


@pytest.mark.redis
def test_followers_on_another_server_see_every_write_through_redis(
    database_url: str, redis_url: str
) -> None:
    with two_apps(database_url, **redis_config(redis_url)) as (writer, reader):
        check_followers_see_each_write(writer, reader)


@pytest.mark.redis
def test_a_fragment_rendered_by_one_server_serves_another_through_redis(
    database_url: str, redis_url: str
) -> None:
    with two_apps(database_url, **redis_config(redis_url)) as (writer, reader):
        game_id = ApiClient(writer.test_client()).create(PLAYERS)["id"]
        first = writer.test_client().get(live_path(game_id))
        with count_statements(reader) as statements, renders(reader) as rendered:
            other = reader.test_client().get(live_path(game_id))
        assert other.status_code == 200
        assert other.get_data() == first.get_data()
        assert len(statements) == 1  # the version, then the fragment from Redis
        assert rendered == []


@pytest.mark.redis
def test_a_deleted_game_tells_the_poll_so_through_redis(database_url: str, redis_url: str) -> None:
    with two_apps(database_url, **redis_config(redis_url)) as (writer, reader):
        api = ApiClient(writer.test_client())
        game_id = api.create(PLAYERS)["id"]
        follower = reader.test_client()
        tag = follower.get(live_path(game_id)).headers["ETag"]
        deleted = api.client.delete(f"/api/v1/games/{game_id}", headers=api.headers(game_id))
        assert deleted.status_code == 204
        gone = follower.get(live_path(game_id), headers={"If-None-Match": tag})
        assert gone.status_code == 404
        assert "There is no game with this id." in text(gone)


def test_an_unreachable_redis_leaves_the_poll_working(database_url: str) -> None:
    """Redis down: every poll reads the database and renders, as without Redis."""
    config = {"CACHE_REDIS_URL": "redis://127.0.0.1:9/0"}
    with two_apps(database_url, **config) as (writer, reader):
        check_followers_see_each_write(writer, reader)
