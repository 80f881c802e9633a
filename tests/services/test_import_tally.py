"""The trick tally through an export and an import: a round being played keeps the tricks
tallied so far, a tally the rules refuse is refused naming its game and round (nothing is
imported), and a file exported before the tally was carried still imports."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ..api_client import ApiClient
from ..factory import game_count
from ..keeper_phone import KeeperPhone, text
from ..pages.test_history import upload

NAMES = ["Thomas", "Ute", "Kevin"]


def _tallied(api: ApiClient, winners: list[int | None], **rules: Any) -> tuple[str, dict[str, Any]]:
    """A game whose round 3 (3 cards) is being played, bids Thomas 1, Ute 2, Kevin 0, with
    ``winners`` tallied; and its export."""
    played = [([0, 1, 0], [0, 1, 0]), ([1, 1, 0], [1, 1, 0])]
    game_id = api.seed(NAMES, played, next_trump="green", next_bids=[1, 2, 0], **rules)
    for winner in winners:
        response = api.client.post(
            f"/api/v1/games/{game_id}/rounds/3/tally",
            json={"winner": winner},
            headers=api.headers(game_id),
        )
        assert response.status_code == 200, response.get_json()
    document: dict[str, Any] = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    return game_id, document


def _imported(client: FlaskClient, document: dict[str, Any]) -> TestResponse:
    return client.post("/api/v1/import", json=document)


def _copy_of(client: FlaskClient, document: dict[str, Any]) -> str:
    response = _imported(client, document)
    assert response.status_code == 201, response.get_json()
    game_id: str = response.get_json()["games"][0]["id"]
    return game_id


@pytest.mark.parametrize(
    ("winners", "rules", "state"),
    [
        ([1, 0], {}, "playing"),
        ([None, 1], {"special_cards": ["bomb"]}, "playing"),  # the Bomb's trick to nobody
        # Secret bids are exported as null while the round is played: the copy asks for the
        # bids again, and the tricks tallied wait for them.
        ([2], {"bid_reveal": "secret"}, "bidding"),
    ],
    ids=["plain", "bomb", "secret"],
)
def test_a_round_being_played_keeps_its_tally_and_its_trail_through_export_and_import(
    api: ApiClient, winners: list[int | None], rules: dict[str, Any], state: str
) -> None:
    """How the round screen and its history show the tally is tests/pages/test_tally.py's."""
    _game_id, document = _tallied(api, winners, **rules)
    assert document["game"]["rounds"][2]["tally"] == winners
    copy_id = _copy_of(api.client, document)
    round3 = api.get(copy_id)["rounds"][2]
    assert (round3["state"], round3["tally"]) == (state, winners)
    trail = api.client.get(f"/api/v1/games/{copy_id}/export").get_json()["audit"]
    assert [entry["new"]["tally"] for entry in trail if entry["kind"] == "tally"] == [
        winners[: n + 1] for n in range(len(winners))
    ]


def test_the_copy_plays_on_with_its_tally(api: ApiClient) -> None:
    _game_id, document = _tallied(api, [1, 0])
    response = _imported(api.client, document)
    assert response.status_code == 201, response.get_json()
    (created,) = response.get_json()["games"]
    answer = api.client.post(
        f"/api/v1/games/{created['id']}/rounds/3/tally",
        json={"winner": 1},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["rounds"][2]["tally"] == [1, 0, 1]


def test_a_file_exported_before_the_tally_imports_without_one(
    client: FlaskClient, api: ApiClient
) -> None:
    _game_id, document = _tallied(api, [1, 0])
    for round_ in document["game"]["rounds"]:
        del round_["tally"]
    for entry in document["audit"]:
        for side in (entry["old"], entry["new"]):
            if side is not None:
                side.pop("tally", None)
    copy_id = _copy_of(client, document)
    round3 = client.get(f"/api/v1/games/{copy_id}").get_json()["rounds"][2]
    assert (round3["state"], round3["tally"]) == ("playing", [])


@pytest.mark.parametrize(
    ("number", "tally", "reason"),
    [
        # The tally's own refusals are the rules' (tests/rules/test_tally.py): one example.
        (3, [1, 0, 1, 2], "The tally lists more tricks than round 3's 3 cards."),
        (4, [0], "its tally is given before every bid is in."),
    ],
)
def test_a_tally_that_cannot_be_is_refused_naming_game_and_round(
    app: Flask, api: ApiClient, number: int, tally: list[int | None], reason: str
) -> None:
    _game_id, document = _tallied(api, [1])
    document["game"]["rounds"][number - 1]["tally"] = tally
    count = game_count(app)
    response = _imported(api.client, document)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        f"Nothing was imported, as round {number} of game 1 (Thomas, Ute, Kevin) is refused: "
        f"{reason}"
    )
    assert game_count(app) == count


@pytest.mark.parametrize("tally", [["1"], 1])
def test_a_tally_that_is_no_list_of_seats_is_refused(
    app: Flask, api: ApiClient, tally: Any
) -> None:
    _game_id, document = _tallied(api, [])
    document["game"]["rounds"][2]["tally"] = tally
    count = game_count(app)
    response = _imported(api.client, document)
    assert response.status_code == 422
    detail = response.get_json()["detail"]
    assert "round 3 of game 1 (Thomas, Ute, Kevin) is refused: game.rounds[2].tally" in detail
    assert game_count(app) == count


def test_an_audit_entry_with_an_impossible_tally_is_refused(app: Flask, api: ApiClient) -> None:
    _game_id, document = _tallied(api, [1])
    bad = copy.deepcopy(document)
    bad["audit"][-1]["new"]["tally"] = [7]
    response = _imported(api.client, bad)
    assert response.status_code == 422
    assert response.get_json()["detail"].endswith(
        f"is refused: audit[{len(bad['audit']) - 1}] holds facts that are not a round's."
    )


def test_the_import_page_refuses_an_impossible_tally_in_german(app: Flask, api: ApiClient) -> None:
    _game_id, document = _tallied(api, [1])
    document["game"]["rounds"][2]["tally"] = [1, 5]
    phone = KeeperPhone(app.test_client())
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    count = game_count(app)
    response = upload(phone, json.loads(json.dumps(document)))
    assert response.status_code == 422
    assert (
        "Es wurde nichts importiert, denn Runde 3 von Spiel 1 (Thomas, Ute, Kevin) wird "
        "abgelehnt: Stich 2 ist einem Platz zugezählt, den es an diesem Tisch nicht gibt."
    ) in text(response)
    assert game_count(app) == count


def test_the_tally_of_a_file_is_in_the_openapi_document(api: ApiClient) -> None:
    schemas = api.client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    for name in ("RoundFile", "Facts", "FactsFile"):
        assert "tally" in schemas[name]["properties"], name
    assert "tally" not in schemas["RoundFile"].get("required", [])
    assert (
        "checked as a tally written live is"
        in schemas["RoundFile"]["properties"]["tally"]["description"]
    )
