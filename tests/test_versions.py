"""The games' versions in Redis (versions.py): only ever raised, published by a write once
it has committed, and a publication that failed seen late by at most its expiry."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
import redis
from flask import Flask

from scorekeeper import versions
from scorekeeper.extensions import db

from .api_client import ApiClient
from .conftest import make_app

pytestmark = pytest.mark.redis

PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture
def store_app(database_url: str, redis_url: str) -> Any:
    app = make_app(
        database_url,
        CACHE_REDIS_URL=redis_url,
        CACHE_KEY_PREFIX=f"test-{uuid.uuid4().hex}:",
        LIVE_VERSION_SECONDS=1,
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def store(app: Flask) -> versions.VersionStore:
    found: versions.VersionStore = app.extensions["versions"]
    return found


def test_a_stored_version_is_only_ever_raised(store_app: Flask) -> None:
    kept = store(store_app)
    kept.raise_to({"game": 5})
    kept.raise_to({"game": 3})  # a slower writer, or a poll that read before the write
    assert kept.get("game") == 5
    kept.raise_to({"game": 6})
    assert kept.get("game") == 6


def test_a_write_publishes_its_version_once_committed(store_app: Flask) -> None:
    api = ApiClient(store_app.test_client())
    game_id = api.create(PLAYERS)["id"]
    api.trump(game_id, 1, "red")
    assert store(store_app).get(game_id) == api.get(game_id)["version"] == 2
    refused = api.put(game_id, 1, "trump", {"turned": "blue"}, **{"If-Match": '"1"'})
    assert refused.status_code == 412
    assert store(store_app).get(game_id) == 2


def test_a_rolled_back_write_publishes_nothing(store_app: Flask) -> None:
    with store_app.app_context():
        versions.written("rolled-back", 9)
        versions.discard()
        versions.publish()
    assert store(store_app).get("rolled-back") is None


def test_a_write_whose_publication_failed_is_seen_once_the_version_expires(
    store_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound: a follower sees such a write at most LIVE_VERSION_SECONDS late."""
    api = ApiClient(store_app.test_client())
    game_id = api.create(PLAYERS)["id"]
    follower = store_app.test_client()
    path = f"/games/{game_id}/view/live"
    tag = follower.get(path).headers["ETag"]  # the poll stored version 1
    kept = store(store_app)
    monkeypatch.setattr(kept, "client", redis.Redis(port=9))  # Redis went away
    api.trump(game_id, 1, "red")  # committed; its version never reaches Redis
    monkeypatch.undo()
    assert api.get(game_id)["version"] == 2
    assert kept.get(game_id) in (1, None)  # version 1 until it expires
    time.sleep(1.1)
    changed = follower.get(path, headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] == 'W/"live-2-en"'
