"""Where a game is: the addresses its game object carries, built from the app's routes for
the request's address root (the schemas hold data only, and know no route)."""

from __future__ import annotations

from flask import url_for

from .schemas.games import GameLinks


def game_links(game_id: str) -> GameLinks:
    """The game in the API, and its spectator page (anyone with the id follows it there)."""
    return GameLinks(
        self=url_for("api.get_game", game_id=game_id),
        view=url_for("games.spectate", game_id=game_id),
    )
