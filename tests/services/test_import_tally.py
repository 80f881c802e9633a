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
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import Game

from ..api_client import ApiClient
from ..confidant import Confidant, text
from ..pages.test_history import game_count, shown_changes, upload

NAMES = ["Thomas", "Ute", "Kevin"]


def _tallied(api: ApiClient, winners: list[int | None], **rules: Any) -> tuple[str, dict[str, Any]]:
    """A game whose round 3 (3 cards) is being played, bids Thomas 1, Ute 2, Kevin 0, with
    ``winners`` tallied; and its export."""
    game_id = api.create(NAMES, first_dealer=0, rules=rules)["id"]
    api.play_round(game_id, 1, [0, 1, 0], [0, 1, 0])
    api.play_round(game_id, 2, [1, 1, 0], [1, 1, 0])
    api.trump(game_id, 3, "green")
    api.bids(game_id, 3, [1, 2, 0])
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


def test_a_round_being_played_keeps_its_tally_through_export_and_import(
    app: Flask, api: ApiClient
) -> None:
    original, document = _tallied(api, [1, 0])
    assert document["game"]["rounds"][2]["tally"] == [1, 0]
    # The game moves to another phone through the import page, and plays on there.
    other = Confidant(app.test_client())
    response = upload(other, document)
    assert response.status_code == 303, text(response)
    with app.app_context():
        (other.game_id,) = set(db.session.scalars(select(Game.id))) - {original}
    page = text(other.round_page(3))
    assert "Who won trick 3 of 3?" in page
    assert "Thomas 1 trick · made it" in page
    assert "Ute 1 trick · needs 1" in page
    assert "Kevin 0 tricks · made it" in page
    assert other.tap(3, action="trick", seat=1).status_code == 303
    assert "All 3 tricks are tallied." in text(other.round_page(3))


def test_the_imported_tally_counts_in_the_round_and_its_history(
    client: FlaskClient, api: ApiClient
) -> None:
    _game_id, document = _tallied(api, [1, 0], special_cards=["bomb"])
    copy_id = _copy_of(client, document)
    round3 = client.get(f"/api/v1/games/{copy_id}").get_json()["rounds"][2]
    assert (round3["state"], round3["tally"], round3["bomb"]) == ("playing", [1, 0], False)
    # The audit trail carries each tap's tally: the history says which trick went to whom.
    assert document["audit"][-1]["new"]["tally"] == [1, 0]
    changes = shown_changes(client.get(f"/games/{copy_id}/rounds/3/history"))
    assert ("Trick tallied", ["Trick 2: Thomas"]) in changes
    assert ("Trick tallied", ["Trick 1: Ute"]) in changes


def test_the_bombs_trick_tallied_to_nobody_comes_along(client: FlaskClient, api: ApiClient) -> None:
    _game_id, document = _tallied(api, [None, 1], special_cards=["bomb"])
    copy_id = _copy_of(client, document)
    round3 = client.get(f"/api/v1/games/{copy_id}").get_json()["rounds"][2]
    assert (round3["tally"], round3["bomb"]) == ([None, 1], True)


def test_a_secret_bid_round_keeps_its_tally(client: FlaskClient, api: ApiClient) -> None:
    """Secret bids are exported as null while the round is played: the copy asks for the
    bids again, and the tricks tallied wait for them."""
    _game_id, document = _tallied(api, [2], bid_reveal="secret")
    assert document["game"]["rounds"][2]["bids"] == [None, None, None]
    copy_id = _copy_of(client, document)
    round3 = client.get(f"/api/v1/games/{copy_id}").get_json()["rounds"][2]
    assert (round3["state"], round3["tally"]) == ("bidding", [2])


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
        (3, [1, 0, 1, 2], "The tally lists more tricks than round 3's 3 cards."),
        (1, [0, 0], "The tally lists more tricks than round 1's 1 card."),
        (3, [1, 3], "The tally gives trick 2 to a seat this table does not have."),
        (3, [-1], "The tally gives trick 1 to a seat this table does not have."),
        (
            3,
            [None],
            "The tally gives trick 1 to nobody, but only a Bomb's trick goes to nobody, and "
            "this game is played without the Bomb.",
        ),
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


def test_a_second_trick_to_nobody_is_refused(app: Flask, api: ApiClient) -> None:
    _game_id, document = _tallied(api, [None], special_cards=["bomb"])
    document["game"]["rounds"][2]["tally"] = [None, 0, None]
    response = _imported(api.client, document)
    assert response.status_code == 422
    assert response.get_json()["detail"].endswith(
        "is refused: The tally gives trick 3 to nobody, but only one trick a round, the "
        "Bomb's, goes to nobody."
    )


@pytest.mark.parametrize("tally", [[True], ["1"], {"0": 1}, 1])
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
    phone = Confidant(app.test_client())
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
