"""Configuration from the environment, with safe defaults for a laptop."""

from __future__ import annotations

import os
import secrets
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
    try:
        # O_EXCL: when two workers start at once, only one writes; the other reads its key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="utf-8").strip()
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key)
    return key


def from_environment(instance_path: str) -> dict[str, Any]:
    """The settings that come from the environment (``DATABASE_URL``, ``SECRET_KEY``)."""
    default_db = "sqlite:///" + str(Path(instance_path) / "scorekeeper.sqlite3")
    url = normalize_url(os.environ.get("DATABASE_URL") or default_db)
    return {
        "SECRET_KEY": load_secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": engine_options(url),
    }
