"""Links to static files with a hash of their content, so browsers may keep them a year and
still fetch a file afresh the moment it changes."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import current_app, url_for


@cache
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def asset_url(filename: str) -> str:
    """The URL of ``static/<filename>`` with its content hash."""
    static = Path(current_app.static_folder or "static")
    return url_for("static", filename=filename, v=_digest(static / filename))
