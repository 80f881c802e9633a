"""What the spectator page's poll costs: the game's version from the version store when
there is one (``versions.py``), else one statement; and the live fragment rendered once per
game, version and language, then served to every follower from the cache (Flask-Caching:
each worker's memory, or Redis shared by every worker and server with ``CACHE_REDIS_URL``).

A fragment is a function of the game's version and the language alone (the version grows
with every write, and the fragment shows nothing of the viewer), so a cached one is never
out of date: a new version is a new key. A cache that cannot be reached is a cache miss.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import redis
from flask import request
from flask_babel import get_locale

from .. import versions
from ..extensions import cache
from ..services import games

#: A rendered fragment: the version it shows and its HTML.
Fragment = tuple[int, str]


def current_version(game_id: str) -> int:
    """The game's version: stored, else read from the database (and stored for the next
    poll); :class:`errors.GameNotFound` for a game that is not there."""
    version = versions.known(game_id)
    if version is None:
        version = games.game_version(game_id)
        versions.remember(game_id, version)
    return version


def _key(game_id: str, version: int) -> str:
    return f"live/{request.script_root}/{game_id}/{version}/{get_locale() or 'en'}"


def fragment(game_id: str, version: int, render: Callable[[], Fragment]) -> Fragment:
    """The game's fragment at ``version`` from the cache, else ``render()``-ed and kept (under
    the version it shows, which is newer when the stored version lagged behind)."""
    try:
        found: Fragment | None = cache.get(_key(game_id, version))
    except redis.RedisError:
        found = None
    if found is not None:
        return found
    made = render()
    with contextlib.suppress(redis.RedisError):
        cache.set(_key(game_id, made[0]), made)
    return made
