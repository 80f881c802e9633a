"""What an import may cost: games per file, audit entries per game, games per address and
day, and writes in short transactions with other requests let in between."""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorekeeper import i18n
from scorekeeper.api import import_export as api_import
from scorekeeper.errors import ImportLimitReached
from scorekeeper.extensions import db
from scorekeeper.i18n import service_message
from scorekeeper.services import import_document, import_file, importing, sharing
from scorekeeper.web import history as history_pages

from ..api_client import ApiClient
from ..conftest import migrated_sqlite_app
from ..keeper_phone import KeeperPhone, text
from ..pages.test_history import game_count


def exported(api: ApiClient) -> dict[str, Any]:
    """The export of a game with two rounds played and one corrected."""
    game_id: str = api.create(["Thomas", "Ute", "Kevin"], first_dealer=0)["id"]
    api.play_round(game_id, 1, [0, 1, 1], [0, 0, 1], turned="wizard", chosen="red")
    api.play_round(game_id, 2, [2, 0, 0], [1, 0, 1])
    api.tricks(game_id, 1, [0, 1, 0])  # a correction
    document: dict[str, Any] = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    return document


def as_file(document: dict[str, Any]) -> import_document.Document:
    """``document`` as an uploaded file, read as the import reads it."""
    return importing.read_document(io.BytesIO(json.dumps(document).encode()))


def many(one: dict[str, Any], count: int) -> dict[str, Any]:
    """``count`` copies of one game, each started a minute after the one before."""
    games = []
    for index in range(count):
        game = copy.deepcopy(one["game"])
        game["created_at"] = f"2026-01-01T{index // 60:02d}:{index % 60:02d}:00Z"
        games.append({"game": game, "audit": one["audit"]})
    return {"schema_version": 1, "games": games}


# -- Games per file and audit entries per game ----------------------------------------------


def test_a_file_of_more_games_than_one_import_takes_is_refused(app: Flask, api: ApiClient) -> None:
    count = game_count(app)
    document = many(exported(api), import_document.MAX_IMPORT_GAMES + 1)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        "Nothing was imported, as the file is refused: it holds more than 1,000 games: "
        "import them in parts."
    )
    german = api.client.post(
        "/api/v1/import", json=document, headers={"Accept-Language": "de"}
    ).get_json()["detail"]
    assert "Darin sind mehr als 1.000 Spiele: Importiere sie in Teilen." in german
    assert game_count(app) == count + 1


def test_a_game_with_more_audit_entries_than_a_game_writes_is_refused(
    app: Flask, api: ApiClient
) -> None:
    one = exported(api)
    count = game_count(app)
    assert import_file.MAX_AUDIT_ENTRIES == 500  # 20 rounds, 25 writes each
    one["audit"] = one["audit"] * (import_file.MAX_AUDIT_ENTRIES // len(one["audit"]) + 1)
    document = many(one, 2)
    response = api.client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        "Nothing was imported, as game 1 (Thomas, Ute, Kevin) is refused: its audit trail "
        "holds more than 500 entries, more than a game writes."
    )
    assert game_count(app) == count
    one["audit"] = one["audit"][: import_file.MAX_AUDIT_ENTRIES]
    assert api.client.post("/api/v1/import", json=many(one, 1)).status_code == 201


# -- Games per address and day --------------------------------------------------------------


@pytest.fixture
def limited_app(tmp_path: Path) -> Iterator[Flask]:
    """An app whose imports are limited to 5 games a day per address."""
    app = migrated_sqlite_app(tmp_path, "imports", RATELIMIT_IMPORT_GAMES="5 per day")
    yield app
    with app.app_context():
        db.engine.dispose()


def _wait(sentence: str) -> int:
    """The seconds "Try again in 24 hours." gives."""
    match = re.search(r"Try again in (\d+) hours?\.", sentence)
    assert match, sentence
    return int(match.group(1)) * 3600


def test_the_api_counts_every_imported_game_against_the_daily_limit(limited_app: Flask) -> None:
    client = limited_app.test_client()
    one = exported(ApiClient(client))
    assert client.post("/api/v1/import", json=many(one, 3)).status_code == 201
    response = client.post("/api/v1/import", json=many(one, 3))  # 6 games in a day
    assert response.status_code == 429
    problem = response.get_json()
    assert problem["type"] == "/api/v1/problems/too-many-requests"
    assert problem["detail"] == (
        "This address may import 5 games in 24 hours, and this file would go past that. "
        "Try again in 24 hours."
    )
    retry_after = int(response.headers["Retry-After"])
    assert 24 * 3600 - 60 <= retry_after <= 24 * 3600
    # The sentence's wait is Retry-After's, rounded up to the hour.
    assert 0 <= _wait(problem["detail"]) - retry_after < 3600
    with limited_app.app_context():
        before = game_count(limited_app)
    # A refused import counts nothing: the two games left may still come.
    assert client.post("/api/v1/import", json=many(one, 2)).status_code == 201
    assert game_count(limited_app) == before + 2


def test_the_page_counts_every_imported_game_against_the_daily_limit(limited_app: Flask) -> None:
    client = limited_app.test_client()
    one = exported(ApiClient(client))
    phone = KeeperPhone(client)

    def upload(count: int) -> Any:
        data = json.dumps(many(one, count)).encode()
        return client.post(
            "/import",
            data={"csrf_token": phone.csrf("/import"), "file": (io.BytesIO(data), "all.json")},
        )

    assert upload(4).status_code == 303
    response = upload(2)
    assert response.status_code == 429
    page = text(response)
    assert "This address may import 5 games in 24 hours" in page
    assert 0 <= _wait(page) - int(response.headers["Retry-After"]) < 3600


def test_an_hourly_import_limit_says_its_window_in_the_singular(tmp_path: Path) -> None:
    app = migrated_sqlite_app(tmp_path, "hourly", RATELIMIT_IMPORT_GAMES="2 per hour")
    client = app.test_client()
    one = exported(ApiClient(client))
    assert client.post("/api/v1/import", json=many(one, 2)).status_code == 201
    response = client.post("/api/v1/import", json=one)
    assert response.status_code == 429
    assert response.get_json()["detail"] == (
        "This address may import 2 games in 1 hour, and this file would go past that. "
        "Try again in 1 hour."
    )
    german = client.post("/api/v1/import", json=one, headers={"Accept-Language": "de"})
    assert "lassen sich 2 Spiele in 1 Stunde importieren" in german.get_json()["detail"]
    with app.app_context():
        db.engine.dispose()


def test_a_file_larger_than_the_whole_allowance_is_told_so_not_to_wait(
    limited_app: Flask,
) -> None:
    client = limited_app.test_client()
    one = exported(ApiClient(client))
    response = client.post("/api/v1/import", json=many(one, 6))  # 6 games, 5 a day
    assert response.status_code == 422
    assert "Retry-After" not in response.headers
    assert response.get_json()["detail"] == (
        "This file holds 6 games, more than the 5 this address may import in 24 hours: "
        "import it in parts."
    )
    german = client.post("/api/v1/import", json=many(one, 6), headers={"Accept-Language": "de"})
    assert "importiere sie in Teilen" in german.get_json()["detail"]
    # Nothing was counted: the whole allowance is still there.
    assert client.post("/api/v1/import", json=many(one, 5)).status_code == 201


def test_the_daily_import_limit_is_off_with_the_other_limits(tmp_path: Path) -> None:
    app = migrated_sqlite_app(
        tmp_path, "off", RATELIMIT_IMPORT_GAMES="1 per day", RATELIMIT_ENABLED=False
    )
    client = app.test_client()
    one = exported(ApiClient(client))
    assert client.post("/api/v1/import", json=many(one, 3)).status_code == 201
    with app.app_context():
        db.engine.dispose()
    migrated_sqlite_app(tmp_path, "on")  # the limiter is shared: on again for the next tests


def test_an_unreachable_limit_storage_lets_an_import_through(tmp_path: Path) -> None:
    """Redis down must not turn an import into a server error."""
    app = migrated_sqlite_app(tmp_path, "down", RATELIMIT_STORAGE_URI="redis://127.0.0.1:9/0")
    client = app.test_client()
    one = exported(ApiClient(client))
    assert client.post("/api/v1/import", json=many(one, 2)).status_code == 201
    with app.app_context():
        db.engine.dispose()
    migrated_sqlite_app(tmp_path, "memory")  # back to memory for the tests after this one


# -- Short transactions ----------------------------------------------------------------------


def test_an_import_writes_in_batches_with_the_write_lock_free_between_them(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = exported(ApiClient(client))
    browser = sharing.Browser("a phone")
    monkeypatch.setattr(importing, "BATCH_GAMES", 2)
    between: list[tuple[bool, int]] = []

    def pause() -> None:
        # Between batches no transaction is open, and the phone lists none of the new games.
        between.append((db.session().in_transaction(), len(importing.kept_identities(browser))))
        db.session.rollback()

    document = as_file(many(one, 5))  # the first pass pauses, too, once for so few events
    monkeypatch.setattr(importing, "pause", pause)
    with app.app_context():
        imported = importing.import_games(document, browser)
        assert len(imported.created) == 5
        assert len(importing.kept_identities(browser)) == 5
    # A pause after each game read, and after each of the three batches.
    assert between == [(False, 0)] * 8


def test_an_import_that_fails_on_the_way_leaves_no_game(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = exported(ApiClient(client))
    count = game_count(app)
    monkeypatch.setattr(importing, "BATCH_GAMES", 2)
    made = 0
    new_game_row = importing.new_game_row

    def fail_at_the_fourth(*args: Any) -> Any:
        nonlocal made
        made += 1
        if made == 4:
            raise RuntimeError("the worker is stopped")
        return new_game_row(*args)

    monkeypatch.setattr(importing, "new_game_row", fail_at_the_fourth)
    with app.app_context(), pytest.raises(RuntimeError):
        importing.import_games(as_file(many(one, 5)), sharing.Browser("a phone"))
    assert made == 4  # the first batch was written, then deleted again
    assert game_count(app) == count


def test_by_default_an_address_may_import_2000_games_a_day(tmp_path: Path) -> None:
    app = migrated_sqlite_app(tmp_path, "defaults")
    assert app.config["RATELIMIT_IMPORT_GAMES"] == "2000 per day"
    with app.app_context():
        db.engine.dispose()


# -- The limits said before the upload -------------------------------------------------------


def test_the_import_page_says_the_limits_before_the_upload(tmp_path: Path) -> None:
    app = migrated_sqlite_app(tmp_path, "limits")
    client = app.test_client()
    page = text(client.get("/import"))
    assert "A file may hold up to 1,000 games and 24 MB." in page
    assert "This address may import 2,000 games in 24 hours." in page
    german = text(client.get("/import", headers={"Accept-Language": "de"}))
    assert "Eine Datei darf bis zu 1.000 Spiele und 24 MB enthalten." in german
    assert "Von dieser Adresse lassen sich 2.000 Spiele in 24 Stunden importieren." in german
    with app.app_context():
        db.engine.dispose()


def test_the_import_page_says_the_configured_limits(tmp_path: Path) -> None:
    app = migrated_sqlite_app(
        tmp_path, "said", RATELIMIT_IMPORT_GAMES="1 per hour; 5 per 2 minutes"
    )
    page = text(app.test_client().get("/import"))
    assert "This address may import 1 game in 1 hour." in page
    assert "This address may import 5 games in 2 minutes." in page
    with app.app_context():
        db.engine.dispose()
    app = migrated_sqlite_app(tmp_path, "off", RATELIMIT_ENABLED=False)
    page = text(app.test_client().get("/import"))
    assert "A file may hold up to 1,000 games" in page
    assert "This address may import" not in page
    with app.app_context():
        db.engine.dispose()
    migrated_sqlite_app(tmp_path, "on")  # the limiter is shared: on again for the next tests


# -- Large numbers as the language writes them -----------------------------------------------


def test_a_file_over_the_daily_allowance_says_its_numbers_grouped(tmp_path: Path) -> None:
    app = migrated_sqlite_app(tmp_path, "grouped", RATELIMIT_IMPORT_GAMES="999 per day")
    client = app.test_client()
    document = many(exported(ApiClient(client)), import_document.MAX_IMPORT_GAMES)
    response = client.post("/api/v1/import", json=document)
    assert response.status_code == 422
    assert response.get_json()["detail"] == (
        "This file holds 1,000 games, more than the 999 this address may import in 24 hours: "
        "import it in parts."
    )
    german = client.post("/api/v1/import", json=document, headers={"Accept-Language": "de"})
    assert german.get_json()["detail"].startswith(
        "Diese Datei enthält 1.000 Spiele, mehr als die 999"
    )
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "This address may import 2,000 games in 24 hours, and this file would go past"),
        ("de", "Von dieser Adresse lassen sich 2.000 Spiele in 24 Stunden importieren"),
    ],
)
def test_the_daily_limit_reached_says_its_number_grouped(
    app: Flask, language: str, sentence: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        refusal = ImportLimitReached(count=2000, window=i18n.duration(24 * 3600), seconds=60)
        assert service_message(refusal).startswith(sentence)


def test_a_file_larger_than_an_import_takes_is_told_the_limit_in_mb(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file over the size limit hears the limit the page states, not "more than this page
    ever sends" (here the limit is lowered to 1 MB, so as not to send 24)."""
    monkeypatch.setattr(history_pages, "IMPORT_MAX_BYTES", 2**20)
    phone = KeeperPhone(app.test_client())
    count = game_count(app)
    for language, sentence in (
        ("en", "This file is larger than the 1 MB one import takes: import its games in parts."),
        (
            "de",
            "Diese Datei ist größer als die 1 MB, die ein Import annimmt: importiere ihre "
            "Spiele in Teilen.",
        ),
    ):
        phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        file = FileStorage(io.BytesIO(b" " * (2**20 + 1)), "all.json")
        # Encoded in memory: the test client's own encoding of a large form spills to a
        # temporary file that it leaves open when the app does not read the whole body.
        boundary, body = encode_multipart({"csrf_token": phone.csrf("/import"), "file": file})
        response = phone.client.post(
            "/import", data=body, content_type=f"multipart/form-data; boundary={boundary}"
        )
        assert response.status_code == 413
        assert sentence in text(response)
    assert game_count(app) == count


def test_the_api_tells_a_file_larger_than_an_import_takes_the_limit_in_mb(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the page does (the limit lowered to 1 MB, so as not to send 24)."""
    monkeypatch.setattr(api_import, "IMPORT_MAX_BYTES", 2**20)
    client = app.test_client()
    count = game_count(app)
    body = b'{"games": []' + b" " * 2**20 + b"}"
    for language, sentence in (
        ("en", "This file is larger than the 1 MB one import takes: import its games in parts."),
        ("de", "Diese Datei ist größer als die 1 MB, die ein Import annimmt: importiere ihre"),
    ):
        response = client.post(
            "/api/v1/import",
            data=body,
            headers={"Content-Type": "application/json", "Accept-Language": language},
        )
        assert response.status_code == 413
        problem = response.get_json()
        assert problem["type"] == "/api/v1/problems/payload-too-large"
        assert problem["detail"].startswith(sentence)
    assert game_count(app) == count
