"""Configuration from the environment, with safe defaults for a laptop."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from .database import engine_options, normalize_url


def load_secret_key(instance_path: str) -> str:
    """``SECRET_KEY`` from the environment, else one generated once and kept in the instance."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        pass
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


def default_database_url(instance_path: str) -> str:
    """A SQLite file in the instance folder."""
    return "sqlite:///" + str(Path(instance_path) / "scorekeeper.sqlite3")


def build(instance_path: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The settings: the environment (``DATABASE_URL``, ``SECRET_KEY``), then ``overrides``."""
    settings: dict[str, Any] = {
        "BABEL_DEFAULT_LOCALE": "en",
        "LANGUAGES": ["en", "de"],
        # The API's bodies are small; a larger one is refused with 413 before it is read.
        "MAX_CONTENT_LENGTH": 64 * 1024,
        # The session cookie carries this browser's device key (its edit right) and the
        # CSRF secret: signed, out of reach of scripts, not sent on cross-site requests,
        # and kept for as long as browsers keep a cookie.
        "SESSION_COOKIE_NAME": "tablet",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": timedelta(days=400),
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
        # Behind HTTPS, the cookie is sent over HTTPS only.
        "SESSION_COOKIE_SECURE": os.environ.get("SESSION_COOKIE_SECURE", "").lower()
        in ("1", "true", "yes"),
    }
    settings.update(overrides or {})
    if not settings.get("SECRET_KEY"):
        settings["SECRET_KEY"] = load_secret_key(instance_path)
    url = settings.get("SQLALCHEMY_DATABASE_URI") or os.environ.get("DATABASE_URL")
    url = normalize_url(url or default_database_url(instance_path))
    settings["SQLALCHEMY_DATABASE_URI"] = url
    settings.setdefault("SQLALCHEMY_ENGINE_OPTIONS", engine_options(url))
    return settings
