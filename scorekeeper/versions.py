"""The games' versions kept in Redis, where every worker and every server reads them without
a database transaction: the spectator page's poll (``web/live.py``) answers "unchanged"
from here. Only with ``CACHE_REDIS_URL`` set; without it the poll reads the version from
the database (one statement), which is always right.

Kept right by every write: a write records the version it gives a game (:func:`written`),
and ``services.loading.write_transaction`` publishes what its transaction wrote once it has
committed (:func:`publish`), or drops it on a rollback (:func:`discard`). A stored version
is only ever raised, in one Redis script, so neither a slower writer nor a poll that read
the database just before a write can put an older one back. Each expires after
``LIVE_VERSION_SECONDS``: a write that commits and then fails to publish (Redis unreachable
at that moment) reaches the followers at most that much later than it would otherwise, when
the poll reads the database again. Redis unreachable: the poll reads the database.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import Flask, current_app

from .extensions import db

log = logging.getLogger(__name__)

#: Set the key to ARGV[1] unless it holds a version at least as high; it expires in ARGV[2] s.
_RAISE = """
local stored = tonumber(redis.call('GET', KEYS[1]))
if stored == nil or stored < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
return 0
"""

#: ``db.session.info``'s key for the versions the current transaction wrote.
_WRITTEN = "versions_written"

#: Seconds a poll waits for Redis before it reads the database instead.
TIMEOUT = 0.5


class VersionStore:
    """The versions in one Redis database, under ``prefix`` + the game's id."""

    def __init__(self, url: str, prefix: str, seconds: int) -> None:
        self.client = redis.Redis.from_url(
            url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
        )
        self.prefix = prefix
        self.seconds = seconds
        self._raise: Any = self.client.register_script(_RAISE)

    def get(self, game_id: str) -> int | None:
        """The game's stored version; ``None`` when unknown or Redis is unreachable."""
        try:
            value: bytes | None = self.client.get(self.prefix + game_id)  # type: ignore[assignment]
        except redis.RedisError as error:
            log.warning("the versions in Redis cannot be read: %s", error)
            return None
        return int(value) if value is not None else None

    def raise_to(self, versions: dict[str, int]) -> None:
        """Store these versions where they are higher than the stored ones."""
        try:
            for game_id, version in versions.items():
                keys, args = [self.prefix + game_id], [version, self.seconds]
                self._raise(keys=keys, args=args, client=self.client)
        except redis.RedisError as error:
            log.warning("the versions in Redis cannot be written: %s", error)


def init_app(app: Flask) -> None:
    """The app's version store, when ``CACHE_REDIS_URL`` names a Redis server."""
    url = app.config.get("CACHE_REDIS_URL")
    if url and app.config["LIVE_VERSION_SECONDS"] > 0:
        prefix = f"{app.config['CACHE_KEY_PREFIX']}version:"
        app.extensions["versions"] = VersionStore(url, prefix, app.config["LIVE_VERSION_SECONDS"])


def _store() -> VersionStore | None:
    store: VersionStore | None = current_app.extensions.get("versions")
    return store


def known(game_id: str) -> int | None:
    """The game's version as stored, ``None`` when it has to be read from the database."""
    store = _store()
    return store.get(game_id) if store is not None else None


def remember(game_id: str, version: int) -> None:
    """Store a version just read from the database (a newer one stored meanwhile stays)."""
    if (store := _store()) is not None:
        store.raise_to({game_id: version})


def written(game_id: str, version: int) -> None:
    """Note that the current write transaction gives the game ``version``."""
    db.session.info.setdefault(_WRITTEN, {})[game_id] = version


def publish() -> None:
    """Store the versions the transaction that just committed wrote."""
    versions: dict[str, int] = db.session.info.pop(_WRITTEN, {})
    if versions and (store := _store()) is not None:
        store.raise_to(versions)


def discard() -> None:
    """Forget the versions of a transaction rolled back."""
    db.session.info.pop(_WRITTEN, None)
