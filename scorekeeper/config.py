"""Configuration from the environment, with safe defaults for a laptop."""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from .database import engine_options, normalize_url

#: The ProxyFix settings (see security.py): environment variables of the same names.
PROXY_FIX_KEYS = tuple(f"PROXY_FIX_X_{name}" for name in ("FOR", "PROTO", "HOST", "PORT", "PREFIX"))

#: The words a switch in the environment is turned on or off with.
YES_NO = dict.fromkeys(("1", "true", "yes"), True) | dict.fromkeys(("0", "false", "no"), False)


def _env(key: str, default: str = "") -> str:
    """A setting from the environment, ``default`` when unset or empty."""
    return os.environ.get(key) or default


def _count(key: str, what: str = "proxies", default: str = "0") -> int:
    """A count of ``what`` from the environment (``default`` when unset)."""
    value = _env(key).strip() or default
    if not value.isdigit():
        raise ValueError(f"{key} must be a number of {what}, not {value!r}")
    return int(value)


def load_secret_key(instance_path: str) -> str:
    """``SECRET_KEY`` from the environment, else one generated once and kept in the instance."""
    if key := _env("SECRET_KEY"):
        return key
    path = Path(instance_path) / "secret_key"
    with contextlib.suppress(FileNotFoundError):
        return path.read_text(encoding="utf-8").strip()
    key = secrets.token_hex(32)
    # Written to a private temporary file, then linked into place: a worker starting at the
    # same moment sees either no key file or a whole one, and link() never overwrites.
    fd, temporary = tempfile.mkstemp(dir=instance_path, prefix=".secret_key.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key)
        try:
            os.link(temporary, path)
        except FileExistsError:
            return path.read_text(encoding="utf-8").strip()
    finally:
        os.unlink(temporary)
    return key


def build(instance_path: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The settings: the environment (``DATABASE_URL``, ``SECRET_KEY``), then ``overrides``."""
    settings: dict[str, Any] = {
        "BABEL_DEFAULT_LOCALE": "en",
        "LANGUAGES": ["en", "de"],
        # The API's bodies are small; a larger one is refused with 413 before it is read.
        "MAX_CONTENT_LENGTH": 64 * 1024,
        # The session cookie carries this browser's key (what makes it a keeper) and the
        # CSRF secret: signed, out of reach of scripts, not sent on cross-site requests,
        # and kept for as long as browsers keep a cookie.
        "SESSION_COOKIE_NAME": "tablet",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": timedelta(days=400),
        # Sent only when it changes (a new game, a followed game, a message for the next
        # page), so that a response which changes nothing (a style, a poll, the service
        # worker's fetches) never puts an older copy back over a newer one in the browser.
        "SESSION_REFRESH_EACH_REQUEST": False,
        # A round can take an hour: a page's CSRF token lasts as long as its session.
        "WTF_CSRF_TIME_LIMIT": None,
        # Static files are linked with a hash of their content, so they can be kept long.
        "SEND_FILE_MAX_AGE_DEFAULT": 365 * 24 * 3600,
        # Pages, styles and scripts go out compressed; the API's JSON is left as it is, so
        # its ETags stay the bare version numbers API.md promises.
        "COMPRESS_MIMETYPES": ["text/html", "text/css", "text/javascript", "image/svg+xml"],
        "COMPRESS_MIN_SIZE": 512,
        # Only whole bodies are compressed; static files are read whole (see assets.py).
        "COMPRESS_STREAMS": False,
        # The cookie is sent over HTTPS only when the page came over HTTPS ("auto"; see
        # security.py), or always ("true"), or never ("false": plain HTTP on a laptop).
        "SESSION_COOKIE_SECURE": YES_NO.get(_env("SESSION_COOKIE_SECURE").strip().lower(), "auto"),
        # How many reverse proxies in front set X-Forwarded-For, -Proto, -Host, -Port,
        # -Prefix (werkzeug's ProxyFix); 0, the default, trusts none of these headers.
        **{key: _count(key) for key in PROXY_FIX_KEYS},
        # Rate limits per client address (Flask-Limiter). In memory by default: each
        # worker process counts alone; several workers share counts through Redis
        # (RATELIMIT_STORAGE_URI=redis://host:6379/0).
        "RATELIMIT_ENABLED": YES_NO.get(_env("RATELIMIT_ENABLED").lower()) is not False,
        "RATELIMIT_STORAGE_URI": _env("RATELIMIT_STORAGE_URI", "memory://"),
        "RATELIMIT_KEY_PREFIX": "tablet",
        # A storage that cannot be reached (Redis down) lets requests through rather than
        # failing them: the limits are a brake, not a gate.
        "RATELIMIT_SWALLOW_ERRORS": True,
        # Starting games (the page and the API share the count) and, at merge, opening a
        # hand-over link: enough for any table, too few for a script.
        "RATELIMIT_CREATE_GAME": _env("RATELIMIT_CREATE_GAME", "10 per minute; 100 per day"),
        "RATELIMIT_HAND_OVER": _env("RATELIMIT_HAND_OVER", "20 per minute"),
        # Entering a table code, per address (page and API together); each game also takes
        # only a few wrong codes an hour from all addresses (services/table_codes.py).
        "RATELIMIT_TABLE_CODE": _env("RATELIMIT_TABLE_CODE", "5 per minute; 20 per hour"),
        # Games one client address may import, counted in games (an import is also one
        # start above): two exports of everything a phone keeps a day.
        "RATELIMIT_IMPORT_GAMES": _env("RATELIMIT_IMPORT_GAMES", "2000 per day"),
        # The statistics page, which totals every game the browser keeps (a second at
        # 10,000 games): a reload every few seconds, not a stranger's hundreds.
        "RATELIMIT_STATISTICS": _env("RATELIMIT_STATISTICS", "10 per minute"),
        # Streams of the spectator page one address may hold open at once, in each worker
        # (push.py): a pub's tables behind one router, not a stranger's thousands; 0: no cap.
        "RATELIMIT_LIVE_STREAMS": _count("RATELIMIT_LIVE_STREAMS", "streams", "100"),
        # Streams one worker holds at once, from every address (push.py); past it the page
        # polls. Each costs 32 KiB and 73 µs of CPU a change sent (bench/streams.py): 4,000
        # hold 128 MiB, /healthz and writes keep their p95 with the ceiling reached, and two
        # workers follow the six spectators of 1,333 tables. 0: no ceiling.
        "LIVE_STREAMS_PER_WORKER": _count("LIVE_STREAMS_PER_WORKER", "streams", "4000"),
        # The spectators' live fragment, rendered once per game, version and language, and
        # kept in each worker's memory; with CACHE_REDIS_URL in Redis, which every worker and
        # server then shares (web/live.py).
        "CACHE_REDIS_URL": _env("CACHE_REDIS_URL"),
        "CACHE_KEY_PREFIX": "tablet:",
        # A fragment is asked for within a second or two of its change (then a newer one;
        # a stream remembers the past of what it sent), so it is kept 30 s. In memory at
        # most 5,000: over that, each keeping first looks through
        # them all for the expired ones.
        "CACHE_DEFAULT_TIMEOUT": 30,
        "CACHE_THRESHOLD": 5000,
        # The spectator page follows a stream: each worker reads the followed games'
        # versions every LIVE_CHECK_SECONDS (push.py: its pace sets the followers' delay and
        # the size of each burst of changes sent), and a stream ends after
        # LIVE_STREAM_SECONDS, when the page connects again (web/live.py).
        "LIVE_CHECK_SECONDS": 0.25,
        "LIVE_STREAM_SECONDS": 600,
    }
    settings.update(overrides or {})
    shared = "RedisCache" if settings["CACHE_REDIS_URL"] else "SimpleCache"
    settings.setdefault("CACHE_TYPE", _env("CACHE_TYPE", shared))
    if not settings.get("SECRET_KEY"):
        settings["SECRET_KEY"] = load_secret_key(instance_path)
    url = settings.get("SQLALCHEMY_DATABASE_URI") or _env("DATABASE_URL")
    url = normalize_url(url or f"sqlite:///{Path(instance_path) / 'scorekeeper.sqlite3'}")
    settings["SQLALCHEMY_DATABASE_URI"] = url
    settings.setdefault("SQLALCHEMY_ENGINE_OPTIONS", engine_options(url))
    return settings
