"""A game's id and edit token: how long they are, and what an id can be at all."""

from __future__ import annotations

import string

GAME_ID_BYTES = 18  # 144 random bits, 24 URL-safe characters
EDIT_TOKEN_BYTES = 32  # 256 random bits
MAX_ID_LENGTH = 32  # the width of games.id
_ID_CHARS = frozenset(string.ascii_letters + string.digits + "-_")


def valid_id(game_id: str) -> bool:
    """Whether ``game_id`` can be a game's id at all: NUL bytes (which PostgreSQL refuses in
    text) or overlong strings are not sent to the database."""
    return len(game_id) <= MAX_ID_LENGTH and _ID_CHARS.issuperset(game_id) and bool(game_id)
