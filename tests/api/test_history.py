"""Export and import through the JSON API (every answer checked against the OpenAPI document)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import rounds

from ..api_client import ApiClient
from ..factory import Seeded, game_count, play


def played(api: ApiClient) -> str:
    """A game seeded through the services: round 1 under a Wizard (red), round 2, then round
    1's tricks corrected."""
    game_id = api.seed(
        ["Thomas", "Ute", "Kevin"], [([0, 1, 1], [0, 0, 1])], turned="wizard", chosen="red"
    )
    with api.client.application.app_context():
        game = Seeded(game_id, api.tokens[game_id])
        play(game, 2, [2, 0, 0], [1, 0, 1], turned="blue")
        rounds.record_tricks(game_id, game.token, 1, [0, 1, 0])  # a correction
    return game_id


def test_the_export_is_the_game_object_and_its_audit_trail(api: ApiClient) -> None:
    game_id = played(api)
    response = api.client.get(f"/api/v1/games/{game_id}/export")
    assert response.status_code == 200
    document = response.get_json()
    assert document["schema_version"] == 1
    assert document["game"] == api.get(game_id)
    kinds = [entry["kind"] for entry in document["audit"] if entry["round"] == 1]
    assert kinds == ["trump", "bids", "tricks", "correction"]
    correction = document["audit"][-1]
    assert correction["old"]["tricks"] == [0, 0, 1]
    assert correction["new"]["tricks"] == [0, 1, 0]


def test_an_import_gives_new_games_with_new_tokens_and_the_same_totals(api: ApiClient) -> None:
    game_id = played(api)
    exported = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    response = api.client.post("/api/v1/import", json=exported)
    assert response.status_code == 201
    (created,) = response.get_json()["games"]
    assert created["id"] != game_id
    copy = api.get(created["id"])
    original = api.get(game_id)
    for key in ("players", "rules", "rounds", "totals", "standings", "current_round"):
        assert copy[key] == original[key], key
    api.tokens[created["id"]] = created["edit_token"]
    assert api.trump(created["id"], 3, "blue")["rounds"][2]["state"] == "bidding"
    # The old token does not open the copy.
    stranger = api.client.put(
        f"/api/v1/games/{created['id']}/rounds/3/bids",
        json={"bids": [0, None, None]},
        headers=api.headers(game_id),
    )
    assert stranger.status_code == 403


def test_an_import_of_many_games_is_all_or_nothing(app: Flask, api: ApiClient) -> None:
    games = [api.client.get(f"/api/v1/games/{played(api)}/export").get_json() for _ in range(2)]
    many: dict[str, Any] = {
        "schema_version": 1,
        "games": [{"game": g["game"], "audit": g["audit"]} for g in games],
    }
    many["games"][1]["game"]["rounds"][0]["tricks"] = [1, 1, 0]  # 2 tricks in a 1-card round
    count = game_count(app)
    response = api.client.post("/api/v1/import", json=many)
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["detail"].startswith(
        "Nothing was imported, as round 1 of game 2 (Thomas, Ute, Kevin) is refused:"
    )
    assert game_count(app) == count
    many["games"].pop()
    assert api.client.post("/api/v1/import", json=many).status_code == 201
    assert game_count(app) == count + 1


def test_import_refuses_what_is_not_json(client: FlaskClient) -> None:
    assert (
        client.post("/api/v1/import", data="{", content_type="application/json").status_code == 400
    )
    assert client.post("/api/v1/import", data="x", content_type="text/plain").status_code == 415
    response = client.post("/api/v1/import", data=json.dumps([1]), content_type="application/json")
    assert response.status_code == 400


def test_the_export_of_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    assert client.get("/api/v1/games/nothing-here/export").status_code == 404


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        (
            ("game", "rounds", 1, "bids", 0),
            "x",
            "round 2 of game 1 (Thomas, Ute, Kevin) is refused: "
            "game.rounds[1].bids[0] must be a whole number.",
        ),
        (
            ("game", "rules", "clairvoyance"),
            1,
            "game 1 (Thomas, Ute, Kevin) is refused: "
            "game.rules.clairvoyance must be true or false.",
        ),
        (
            ("game", "players", 0, "name"),
            7,
            "game 1 (7, Ute, Kevin) is refused: game.players[0].name must be a string.",
        ),
        (
            ("game", "rounds", 0, "trump", "turned"),
            "joker",
            "round 1 of game 1 (Thomas, Ute, Kevin) is refused: The turned card is one of",
        ),
        (
            ("audit", 1, "kind"),
            "guess",
            "game 1 (Thomas, Ute, Kevin) is refused: audit[1] names no round of this game or no "
            "kind of change.",
        ),
        (
            ("audit", 0, "new", "trump", "turned"),
            "joker",
            "game 1 (Thomas, Ute, Kevin) is refused: audit[0] holds facts that are not a round's.",
        ),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused_in_the_apps_words(
    app: Flask, api: ApiClient, path: tuple[Any, ...], value: Any, reason: str
) -> None:
    document = api.client.get(f"/api/v1/games/{played(api)}/export").get_json()
    node = document
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    count = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert response.get_json()["detail"].startswith(f"Nothing was imported, as {reason}")
    assert game_count(app) == count


def test_a_file_with_keys_the_import_does_not_read_is_imported(app: Flask, api: ApiClient) -> None:
    """What the import derives again or does not know is left aside, as before: a player's
    unknown key, an audit entry without its time."""
    document = api.client.get(f"/api/v1/games/{played(api)}/export").get_json()
    document["game"]["players"][0]["age"] = 7
    del document["audit"][0]["at"]
    count = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 201, response.get_json()
    assert game_count(app) == count + 1


def test_a_file_without_its_rules_named_is_refused(app: Flask, api: ApiClient) -> None:
    """Every export names each rule; a file without one is not taken with a default."""
    document = api.client.get(f"/api/v1/games/{played(api)}/export").get_json()
    del document["game"]["rules"]["bid_rule"]
    count = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert "game.rules.bid_rule is missing" in response.get_json()["detail"]
    assert game_count(app) == count


def test_a_start_before_the_year_1_in_utc_is_read_as_no_start(app: Flask, api: ApiClient) -> None:
    """A time the file gives that UTC cannot hold is taken as no time, as a malformed one
    is: the game is imported, started now, instead of the server failing."""
    document = api.client.get(f"/api/v1/games/{played(api)}/export").get_json()
    document["game"]["created_at"] = "0001-01-01T00:00:00+01:00"
    document["audit"][0]["at"] = "0001-01-01T00:00:00+01:00"
    count = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 201, response.get_json()
    assert game_count(app) == count + 1
    imported = api.client.get(response.get_json()["games"][0]["links"]["self"]).get_json()
    assert not imported["created_at"].startswith("0001")


def test_a_corrected_canadian_game_imports_back_with_the_same_sheet(
    app: Flask, api: ApiClient
) -> None:
    # Round 2's bids add up, allowed as Bob (who deals) did not lead alone; round 1 is then
    # corrected so that he does. The bids stay as recorded, and the file imports back.
    game_id: str = api.create(["Ann", "Bob", "Cy"], first_dealer=0, rules={"bid_rule": "canadian"})[
        "id"
    ]
    api.play_round(game_id, 1, [0, 0, 0], [1, 0, 0], turned="wizard", chosen="red")
    api.play_round(game_id, 2, [1, 1, 0], [1, 0, 1])
    api.bids(game_id, 1, [1, 0, 0])
    api.tricks(game_id, 1, [0, 0, 1])  # Ann -10, Bob 20, Cy -10: Bob leads alone
    original = api.get(game_id)
    exported = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    response = api.client.post("/api/v1/import", json=exported)
    assert response.status_code == 201, response.get_json()
    copy = api.get(response.get_json()["games"][0]["id"])
    for key in ("rounds", "totals", "standings"):
        assert copy[key] == original[key], key
    # Its export imports back too; a forged bid that no standings allowed is still refused.
    again = api.client.get(f"/api/v1/games/{copy['id']}/export").get_json()
    assert api.client.post("/api/v1/import", json=again).status_code == 201
    forged = {"schema_version": 1, "game": exported["game"], "audit": []}
    assert api.client.post("/api/v1/import", json=forged).status_code == 422
