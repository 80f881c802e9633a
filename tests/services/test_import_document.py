"""An export file read as a stream, game by game: refused as a whole file was before (no
JSON, no export, a game refused after others were written: nothing changes), and read as
the standard library reads JSON (a key given twice, UTF-16, a byte order mark)."""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from flask import Flask

from scorekeeper.services import import_document, importing

from ..api_client import ApiClient
from ..pages.test_history import game_count
from .test_import_limits import exported, many


def post(api: ApiClient, body: bytes) -> Any:
    return api.client.post(
        "/api/v1/import", data=body, headers={"Content-Type": "application/json"}
    )


def _games_text(document: dict[str, Any]) -> str:
    return json.dumps(document["games"])


def test_a_game_refused_after_batches_were_written_leaves_no_game(
    app: Flask, api: ApiClient
) -> None:
    one = exported(api)
    document = many(one, 2 * importing.BATCH_GAMES + 5)
    document["games"][-1]["game"]["totals"] = [1, 2, 3]  # the last game's totals are wrong
    count = game_count(app)
    response = post(api, json.dumps(document).encode())
    assert response.status_code == 422
    assert response.get_json()["detail"].startswith(
        f"Nothing was imported, as game {2 * importing.BATCH_GAMES + 5} (Thomas, Ute, Kevin) "
        "is refused: "
    )
    assert game_count(app) == count


@pytest.mark.parametrize(
    "spoiled",
    [
        lambda text: text[:-1],  # cut off before its end
        lambda text: text + " x",  # garbage behind it
        lambda text: text.replace('"games":', '"games" ', 1),  # a colon missing
        lambda text: text[:-2] + ", NaN]}",  # a constant JSON does not have
    ],
)
def test_a_file_that_is_no_json_after_valid_games_is_refused_and_changes_nothing(
    app: Flask, api: ApiClient, spoiled: Any
) -> None:
    document = many(exported(api), 3)
    count = game_count(app)
    response = post(api, spoiled(json.dumps(document)).encode())
    assert response.status_code == 400
    assert response.get_json()["detail"] == "The body is not valid JSON."
    assert game_count(app) == count


def test_only_the_last_games_list_of_a_key_given_twice_is_imported(
    app: Flask, api: ApiClient
) -> None:
    one = exported(api)
    first, second = many(one, 3), many(one, 1)
    second["games"][0]["game"]["created_at"] = "2025-06-01T12:00:00Z"
    body = (
        f'{{"schema_version": 1, "games": {_games_text(first)}, "games.item": 7, '
        f'"games": {_games_text(second)}, "games.item": {{"game": 1}}}}'
    )
    count = game_count(app)
    response = post(api, body.encode())
    assert response.status_code == 201, response.get_json()
    assert len(response.get_json()["games"]) == 1
    assert game_count(app) == count + 1
    (new,) = response.get_json()["games"]
    assert api.client.get(f"/api/v1/games/{new['id']}").get_json()["created_at"] == (
        "2025-06-01T12:00:00Z"
    )


@pytest.mark.parametrize(
    "name",
    [
        "A\\ud800nn",  # half a pair, which yajl would read as "?"
        "A\\ud800\\u0041nn",  # a high half before no low one
        "A\\udc00nn",  # the low half alone
    ],
)
def test_half_a_surrogate_pair_is_refused_as_no_json(app: Flask, api: ApiClient, name: str) -> None:
    raw = json.dumps(exported(api)).replace('"Thomas"', f'"{name}"')
    count = game_count(app)
    response = post(api, raw.encode())
    assert response.status_code == 400
    assert response.get_json()["detail"] == "The body is not valid JSON."
    assert game_count(app) == count


@pytest.mark.parametrize(
    "name",
    [
        "Thomas \U0001f9d9",  # written as a pair of escapes
        "Thomas\\ud800",  # a backslash, then "ud800": no escape
    ],
)
def test_a_pair_of_surrogate_escapes_or_a_backslash_before_u_is_imported(
    api: ApiClient, name: str
) -> None:
    one = exported(api)
    one["game"]["players"][0]["name"] = name
    body = json.dumps(one, ensure_ascii=True)
    response = post(api, body.encode())
    assert response.status_code == 201, response.get_json()
    (new,) = response.get_json()["games"]
    players = api.client.get(f"/api/v1/games/{new['id']}").get_json()["players"]
    assert players[0]["name"] == name


def test_a_games_list_given_as_an_object_is_refused(app: Flask, api: ApiClient) -> None:
    one = exported(api)
    body = f'{{"schema_version": 1, "games": {{"item": {json.dumps(one)}}}}}'
    response = post(api, body.encode())
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        "Nothing was imported, as the file is refused: games must be a list."
    )


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32-le"])
def test_a_file_in_another_unicode_encoding_is_imported(
    app: Flask, api: ApiClient, encoding: str
) -> None:
    one = exported(api)
    one["game"]["players"][0]["name"] = "Jürgen"
    count = game_count(app)
    response = post(api, json.dumps(one, ensure_ascii=False).encode(encoding))
    assert response.status_code == 201, response.get_json()
    (new,) = response.get_json()["games"]
    players = api.client.get(f"/api/v1/games/{new['id']}").get_json()["players"]
    assert players[0]["name"] == "Jürgen"
    assert game_count(app) == count + 1


def test_a_file_nested_deeper_than_any_export_is_refused_as_no_json(
    app: Flask, api: ApiClient
) -> None:
    one = exported(api)
    depth = import_document.MAX_DEPTH
    one["game"]["notes"] = "@"
    body = json.dumps(one).replace('"@"', "[" * depth + "]" * depth)
    response = post(api, body.encode())
    assert response.status_code == 400
    assert response.get_json()["detail"] == "The body is not valid JSON."
    # Nesting well within the bound is read (the field itself is ignored).
    body = json.dumps(one).replace('"@"', "[" * 100 + "]" * 100)
    assert post(api, body.encode()).status_code == 201


@pytest.mark.parametrize(
    "value",
    ["0." + "9" * 8_000_000, json.dumps("x" * 8_000_000), json.dumps('ä"\\' * 800_000)],
    ids=["number", "string", "escapes"],
)
def test_a_file_holding_a_value_longer_than_any_export_is_refused_at_once(
    app: Flask, api: ApiClient, value: str
) -> None:
    """The parser lexes a value again from its start with each read of the file it runs
    over into: one of 8 MB held the worker for seconds, a number for up to half a minute
    (one of 23 MB past gunicorn's 30 s, which then killed it with every stream it served)."""
    one = exported(api)
    one["game"]["notes"] = "@"
    body = json.dumps(one).replace('"@"', value)
    started = time.monotonic()
    response = post(api, body.encode())
    assert time.monotonic() - started < 2
    assert response.status_code == 400
    assert response.get_json()["detail"] == "The body is not valid JSON."
    # Values far longer than any export's are read (the field itself is ignored).
    for short in ("0." + "9" * 17, json.dumps('ä"\\' * 5_000)):
        assert post(api, json.dumps(one).replace('"@"', short).encode()).status_code == 201


@pytest.mark.parametrize("listed", [False, True], ids=["game", "games"])
def test_a_game_of_more_values_than_any_export_holds_is_refused_before_it_is_read(
    app: Flask, api: ApiClient, listed: bool
) -> None:
    """A game is read whole: one holding 7.6 million empty strings (23 MB) took a worker's
    memory past 1.4 GB and held it for 16 s."""
    one = exported(api)
    count = game_count(app)
    values = import_document.GAME_BLOCKS * import_document.EVENTS_PER_BLOCK
    for notes, status in ((values // 2, 201), (values + 2 * import_document.EVENTS_PER_BLOCK, 422)):
        one["game"]["notes"] = [""] * notes  # ignored, as any field the export has not
        document = many(one, 3) if listed else one
        response = post(api, json.dumps(document).encode())
        assert response.status_code == status
    assert response.get_json()["detail"] == (
        "Nothing was imported, as the file is refused: one of its games is larger than any "
        "the Tablet of Truth exports."
    )
    assert game_count(app) == count + (3 if listed else 1)


@pytest.mark.parametrize(
    ("body", "status", "detail"),
    [
        (b"", 400, "The body is not valid JSON."),
        (b"null", 400, "The body must be a JSON object."),
        (b"[1, 2]", 400, "The body must be a JSON object."),
        (
            b'{"schema_version": 2, "games": []}',
            422,
            "Nothing was imported, as the file is refused: it is not a file this version of "
            "the Tablet of Truth exported.",
        ),
        (
            b'{"schema_version": 1, "games": []}',
            422,
            "Nothing was imported, as the file is refused: it holds no game.",
        ),
        (
            b'{"schema_version": 1}',
            422,
            "Nothing was imported, as the file is refused: it holds no game.",
        ),
        (
            b'{"schema_version": {"v": 1}, "game": {}}',
            422,
            "Nothing was imported, as the file is refused: it is not a file this version of "
            "the Tablet of Truth exported.",
        ),
    ],
)
def test_a_file_that_is_no_export_is_refused_as_a_whole(
    app: Flask, api: ApiClient, body: bytes, status: int, detail: str
) -> None:
    response = post(api, body)
    assert response.status_code == status
    assert response.get_json()["detail"] == detail


@pytest.mark.parametrize(
    ("what", "values", "reason"),
    [
        ("tricks", [], "Give the tricks of each of the 3 players, in seat order, not 0."),
        ("bids", [0, 1], "Give one bid for each of the 3 players, in seat order, not 2."),
    ],
)
def test_a_round_with_a_value_too_few_is_refused_in_the_rules_words(
    app: Flask, api: ApiClient, what: str, values: list[int], reason: str
) -> None:
    game_id = api.create(["Ann", "Bob", "Cy"], first_dealer=0)["id"]
    api.play_round(game_id, 1, [0, 1, 0], [0, 1, 0])
    document = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    document["game"]["rounds"][0][what] = values
    count = game_count(app)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        f"Nothing was imported, as round 1 of game 1 (Ann, Bob, Cy) is refused: {reason}"
    )
    assert game_count(app) == count


def test_a_file_of_few_long_values_lets_other_requests_run_as_it_is_read() -> None:
    # 40 strings of 10,000 escaped "ä" (2.4 MB): few parser events, a lot to decode.
    text = b",".join([b'"' + b"\\u00e4" * 10_000 + b'"'] * 40)
    body = b'{"schema_version": 1, "game": {"id": [' + text + b"]}}"
    pauses = [0]

    def pause() -> None:
        pauses[-1] += 1

    document = import_document.read(io.BytesIO(body), pause)
    pauses.append(0)
    for _game in document.games():
        pass
    # Other requests get a turn at least every 64 KB the parser reads, in each pass.
    reads = len(body) // (64 * 1024)
    assert pauses[0] >= reads  # the outline
    assert pauses[1] >= reads  # the games
