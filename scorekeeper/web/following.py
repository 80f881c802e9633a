"""The games this browser follows (reads without keeping them), in its signed session.

``session["followed"]`` is a list of game ids, newest last, at most
:data:`history.FOLLOWED_MAX`. The spectator view records a game with
:func:`remember_followed`; the games list reads them with :func:`followed_ids`.
"""

from __future__ import annotations

from flask import session

from ..services.history import FOLLOWED_MAX

FOLLOWED_KEY = "followed"


def followed_ids() -> list[str]:
    """The ids of the games this browser follows, newest last."""
    ids = session.get(FOLLOWED_KEY)
    if not isinstance(ids, list):
        return []
    return [game_id for game_id in ids if isinstance(game_id, str)][-FOLLOWED_MAX:]


def remember_followed(game_id: str) -> None:
    """Remember that this browser follows ``game_id`` (moved to the end if known)."""
    ids = [known for known in followed_ids() if known != game_id]
    ids.append(game_id)
    session[FOLLOWED_KEY] = ids[-FOLLOWED_MAX:]
    session.permanent = True


def forget_followed(game_id: str) -> None:
    """Stop listing ``game_id`` among the followed games."""
    ids = followed_ids()
    if game_id in ids:
        session[FOLLOWED_KEY] = [known for known in ids if known != game_id]
