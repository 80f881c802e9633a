"""A thin client for the JSON API, used by the tests that play games over HTTP."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from .factory import PLAYERS, Played, seed


class ApiClient:
    """Creates games and records rounds through ``/api/v1``, keeping each game's token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.tokens: dict[str, str] = {}

    def create(self, players: list[str], **body: Any) -> dict[str, Any]:
        """Create a game (201 expected) and remember its token."""
        response = self.client.post("/api/v1/games", json={"players": players, **body})
        assert response.status_code == 201, response.get_json()
        game: dict[str, Any] = response.get_json()
        self.tokens[game["id"]] = game["edit_token"]
        return game

    def seed(
        self, players: Sequence[str] = PLAYERS, played: Sequence[Played] = (), **options: Any
    ) -> str:
        """A game seeded through the services (tests/factory.py), its rounds ``played``; its
        id, its token remembered: for tests of another route than the game's creation."""
        game = seed(self.client.application, players, played, **options)
        self.tokens[game.id] = game.token
        return game.id

    def headers(self, game_id: str, **extra: str) -> dict[str, str]:
        """The bearer header of the game, plus ``extra``."""
        return {"Authorization": f"Bearer {self.tokens[game_id]}", **extra}

    def get(self, game_id: str) -> dict[str, Any]:
        """The game (200 expected)."""
        response = self.client.get(f"/api/v1/games/{game_id}")
        assert response.status_code == 200, response.get_json()
        game: dict[str, Any] = response.get_json()
        return game

    def put(self, game_id: str, number: int, what: str, body: Any, **headers: str) -> TestResponse:
        """PUT ``body`` to round ``number``'s ``what`` (trump, bids or tricks)."""
        return self.client.put(
            f"/api/v1/games/{game_id}/rounds/{number}/{what}",
            json=body,
            headers=self.headers(game_id, **headers),
        )

    def ok(self, game_id: str, number: int, what: str, body: Any) -> dict[str, Any]:
        """PUT that must succeed; returns the game."""
        response = self.put(game_id, number, what, body)
        assert response.status_code == 200, response.get_json()
        game: dict[str, Any] = response.get_json()
        return game

    def trump(self, game_id: str, number: int, turned: str, chosen: str | None = None) -> Any:
        """Record the trump of a round (200 expected)."""
        body = {"turned": turned} if chosen is None else {"turned": turned, "chosen": chosen}
        return self.ok(game_id, number, "trump", body)

    def bids(self, game_id: str, number: int, bids: list[int | None]) -> dict[str, Any]:
        """Record bids (200 expected)."""
        return self.ok(game_id, number, "bids", {"bids": bids})

    def tricks(self, game_id: str, number: int, tricks: list[int]) -> dict[str, Any]:
        """Record tricks (200 expected)."""
        return self.ok(game_id, number, "tricks", {"tricks": tricks})

    def play_round(
        self,
        game_id: str,
        number: int,
        bids: list[int],
        tricks: list[int],
        turned: str = "blue",
        chosen: str | None = None,
    ) -> dict[str, Any]:
        """Trump (unless the round deals every card), bids and tricks of one round."""
        game = self.get(game_id)
        if game["rounds"][number - 1]["state"] == "trump":
            self.trump(game_id, number, turned, chosen)
        self.bids(game_id, number, bids)
        return self.tricks(game_id, number, tricks)


def refusal(response: TestResponse, status: int) -> dict[str, Any]:
    """A refusal with ``status``: a problem document (RFC 9457) whose ``detail`` is said in
    one sentence; returns the document."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    document: dict[str, Any] = response.get_json()
    assert document["status"] == status
    assert document["detail"].strip().endswith("."), document["detail"]
    return document
