"""POST /api/v1/referee: who wins a trick, and why, in the request's language; each card kind,
both readings, seed 002's examples, and every refusal in one sentence with its field."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.api import openapi_document

from ..statements import count_statements

Z: dict[str, Any] = {"kind": "wizard"}
N: dict[str, Any] = {"kind": "jester"}
BOMB: dict[str, Any] = {"kind": "bomb"}
DRAGON: dict[str, Any] = {"kind": "dragon"}
FAIRY: dict[str, Any] = {"kind": "fairy"}
NAMES = ["Thomas", "Ute", "Kevin", "Anna"]


def card(suit: str, number: int) -> dict[str, Any]:
    return {"kind": "suited", "suit": suit, "number": number}


def ask(client: FlaskClient, body: dict[str, Any], language: str = "en") -> Any:
    return client.post("/api/v1/referee", json=body, headers={"Accept-Language": language})


def judged(
    client: FlaskClient,
    cards: list[dict[str, Any]],
    trump: str | None = "red",
    reading: str = "standard",
    **extra: Any,
) -> dict[str, Any]:
    response = ask(client, {"trump": trump, "reading": reading, "cards": cards, **extra})
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def refused(client: FlaskClient, body: dict[str, Any], status: int = 422) -> dict[str, Any]:
    response = ask(client, body)
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    problem: dict[str, Any] = response.get_json()
    return problem


# Seed 002's example tricks, red trump: the winner under its house rule, and the standard one.
SEED_002 = [
    ([Z, card("yellow", 7), N, card("red", 8)], 0, 0),
    ([card("red", 8), card("yellow", 7), N, Z], 0, 3),
    ([card("yellow", 7), card("red", 8), N, Z], 3, 3),
    ([N, card("red", 8), card("yellow", 7), Z], 1, 3),
    ([N, card("red", 8), card("red", 11), Z], 2, 3),
    ([card("green", 11), card("green", 12), N, card("green", 5)], 1, 1),
    ([card("green", 13), card("green", 2), card("red", 1), card("green", 5)], 2, 2),
    ([N, card("green", 2), card("green", 1), card("blue", 13)], 1, 1),
    ([card("green", 13), card("red", 1), card("green", 1), card("red", 3)], 3, 3),
    ([card("green", 13), card("red", 1), Z, card("blue", 3)], 2, 2),
]


@pytest.mark.parametrize(("cards", "house", "standard"), SEED_002)
def test_seed_002_examples_in_both_readings(
    client: FlaskClient, cards: list[dict[str, Any]], house: int, standard: int
) -> None:
    assert judged(client, cards, reading="house")["winner"] == house
    assert judged(client, cards)["winner"] == standard


def test_the_answer_names_the_winner_and_why(client: FlaskClient) -> None:
    answer = judged(client, [card("red", 13), Z, card("blue", 2)], players=NAMES[:3])
    assert answer == {
        "winner": 1,
        "leads_next": 1,
        "reason": "first_wizard",
        "message": "Ute wins: the first Wizard played.",
    }


def test_without_names_the_players_are_numbered(client: FlaskClient) -> None:
    answer = judged(client, [card("red", 2), card("red", 9)], trump=None)
    assert answer["message"] == "Player 2 wins: the highest card of the suit led."


def test_the_answer_is_in_the_requests_language(client: FlaskClient) -> None:
    body = {"trump": "red", "cards": [card("red", 13), Z], "players": NAMES[:3]}
    assert ask(client, body, "de").get_json()["message"] == (
        "Ute gewinnt: der erste gespielte Zauberer."
    )
    answer = ask(client, {"trump": None, "cards": [card("red", 2), card("red", 9)]}, "de")
    assert answer.get_json()["message"].startswith("Spieler 2 gewinnt")


def test_the_house_rule_makes_wizards_worthless_after_a_trump_lead(client: FlaskClient) -> None:
    answer = judged(client, [card("red", 8), Z], reading="house")
    assert (answer["winner"], answer["reason"]) == (0, "wizards_worthless")
    assert "(house rule)" in answer["message"]


@pytest.mark.parametrize(
    ("cards", "trump", "winner", "reason"),
    [
        ([card("blue", 3), card("blue", 12)], None, 1, "highest_led"),
        ([card("blue", 13), card("red", 2)], "red", 1, "highest_trump"),
        ([N, N, N], "red", 0, "first_jester"),
        ([N, card("green", 5), card("green", 9)], None, 2, "highest_led"),
        ([card("red", 13), DRAGON, Z], "red", 1, "dragon"),
        ([DRAGON, Z, FAIRY], "red", 2, "fairy"),
        ([FAIRY, N], None, 1, "jester_over_fairy"),
        ([FAIRY], None, 0, "fairy_alone"),
        ([card("red", 9), {"kind": "cloud", "suit": "red"}], None, 1, "highest_led"),
        ([card("red", 8), {"kind": "juggler", "suit": "red"}], None, 0, "highest_led"),
        ([card("blue", 7), {"kind": "juggler", "suit": "blue"}], None, 1, "highest_led"),
        ([card("red", 2), {"kind": "shapeshifter", "played_as": "wizard"}], "red", 1, None),
        ([{"kind": "shapeshifter", "played_as": "jester"}, card("red", 2)], None, 1, None),
    ],
)
def test_each_card_kind(
    client: FlaskClient,
    cards: list[dict[str, Any]],
    trump: str | None,
    winner: int,
    reason: str | None,
) -> None:
    answer = judged(client, cards, trump=trump)
    assert answer["winner"] == winner
    assert reason is None or answer["reason"] == reason


def test_the_shapeshifter_as_a_wizard_is_said_so(client: FlaskClient) -> None:
    answer = judged(client, [card("red", 2), {"kind": "shapeshifter", "played_as": "wizard"}])
    assert answer["reason"] == "shapeshifter_wizard"


def test_a_bombs_trick_goes_to_nobody_and_the_would_be_winner_leads(client: FlaskClient) -> None:
    answer = judged(client, [card("blue", 13), BOMB, card("red", 2)], players=NAMES[:3])
    assert answer["winner"] is None
    assert answer["leads_next"] == 2
    assert answer["message"] == (
        "Nobody wins: the Bomb was played, and Kevin, who would have won, leads next."
    )


def test_the_referee_records_and_reads_nothing(app: Flask, client: FlaskClient) -> None:
    with count_statements(app) as statements:
        judged(client, [card("red", 2), Z])
    assert statements == []


@pytest.mark.parametrize(
    ("body", "field", "detail"),
    [
        ({"cards": [Z]}, "trump", "The field trump is missing."),
        (
            {"trump": "purple", "cards": [Z]},
            "trump",
            "A suit is one of blue, green, red, yellow, not “purple”.",
        ),
        (
            {"trump": None, "reading": "lax", "cards": [Z]},
            "reading",
            "A reading is one of standard, house, not “lax”.",
        ),
        ({"trump": None, "cards": []}, "cards", "A trick needs at least one card."),
        (
            {"trump": None, "cards": [N] * 3 + [card("red", n) for n in range(1, 5)]},
            "cards",
            "A trick has at most 6 cards, one for each player.",
        ),
        (
            {"trump": None, "cards": [Z, {"kind": "werewolf"}]},
            "cards[1]",
            "The Werewolf is never played in a trick: its holder swaps it for the turned card "
            "before the bids.",
        ),
        (
            {"trump": None, "cards": [Z, {"kind": "unicorn"}]},
            "cards[1]",
            "A card is one of suited, wizard, jester, bomb, cloud, werewolf, juggler, dragon, "
            "fairy, shapeshifter, not “unicorn”.",
        ),
        (
            {"trump": None, "cards": [card("red", 14)]},
            "cards[0]",
            "A suited card's number is 1 to 13, not 14.",
        ),
        (
            {"trump": None, "cards": [{"kind": "shapeshifter"}]},
            "cards[0]",
            "The Shapeshifter is played as a Wizard or as a Jester: say which.",
        ),
        (
            {"trump": None, "cards": [card("red", 8), card("red", 8)]},
            "cards[1]",
            "The red Dwarves 8 is played twice, but the deck holds one.",
        ),
        (
            {"trump": None, "cards": [Z, Z, Z, Z], "players": NAMES[:3]},
            "players",
            "Name a player for each card played, the leader first.",
        ),
        (
            {"trump": None, "cards": [Z], "players": ["Ann", " ", "Cy"]},
            "players[1]",
            "Player 2 has no name: give every player a name of 1 to 24 characters.",
        ),
        (
            {"trump": None, "cards": [Z], "seat": 2},
            "seat",
            "seat is not a field here; the fields are trump, reading, cards, players.",
        ),
    ],
)
def test_refusals_in_one_sentence_with_the_field(
    client: FlaskClient, body: dict[str, Any], field: str, detail: str
) -> None:
    problem = refused(client, body)
    assert problem["detail"] == detail
    assert problem["errors"] == [{"field": field, "message": detail}]


def test_a_refusal_in_the_requests_language(client: FlaskClient) -> None:
    body = {"trump": None, "cards": [card("red", 8), card("red", 8)]}
    problem = ask(client, body, "de").get_json()
    assert problem["detail"] == (
        "Die rote Zwerge 8 wurde zweimal gespielt, aber das Spiel enthält sie nur einmal."
    )


def test_a_value_of_the_wrong_json_type_is_malformed(client: FlaskClient) -> None:
    problem = refused(client, {"trump": None, "cards": [{"kind": "suited", "number": "7"}]}, 400)
    assert problem["errors"][0]["field"] == "cards[0].number"
    assert refused(client, {"trump": 3, "cards": [Z]}, 400)["errors"][0]["field"] == "trump"


def test_a_body_that_is_not_json_is_refused(client: FlaskClient) -> None:
    response = client.post("/api/v1/referee", data="trump=red")
    assert response.status_code == 415


def test_the_openapi_document_declares_the_referee() -> None:
    document = openapi_document()
    operation = document["paths"]["/api/v1/referee"]["post"]
    assert operation["operationId"] == "referee"
    assert "security" not in operation
    assert set(operation["responses"]) == {"200", "400", "413", "415", "422"}
    schemas = document["components"]["schemas"]
    assert schemas["RefereeBody"]["required"] == ["trump", "cards"]
    assert "shapeshifter" in schemas["CardBody"]["properties"]["kind"]["enum"]
    assert set(schemas["Judgement"]["properties"]) == {
        "winner",
        "leads_next",
        "reason",
        "message",
    }
