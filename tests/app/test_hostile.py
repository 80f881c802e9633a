"""Hostile input answered without a 500: odd names, odd ``next`` fields, chunked bodies."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.extensions import db
from scorekeeper.models import GameRow
from scorekeeper.web import history as web_history

from ..conftest import make_app
from ..keeper_phone import KeeperPhone, text


def game_count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(GameRow)) or 0)


def test_a_page_import_naming_a_lone_surrogate_is_refused_not_a_500(
    app: Flask, phone: KeeperPhone
) -> None:
    phone.start(["Ann", "Bob", "Cy"])
    exported = json.loads(phone.get(f"/games/{phone.game_id}/export.json").get_data())
    raw = json.dumps(exported).replace('"Ann"', '"A\\ud800nn"')
    count = game_count(app)
    response = phone.client.post(
        "/import",
        data={"csrf_token": phone.csrf("/import"), "file": (io.BytesIO(raw.encode()), "x.json")},
        content_type="multipart/form-data",
    )
    # Half a surrogate pair is no text: the file is refused as no JSON, as a file with
    # invalid UTF-8 is.
    assert response.status_code == 400
    assert "Choose a JSON file exported from the Tablet of Truth." in text(response)
    assert game_count(app) == count


def post(phone: KeeperPhone, path: str, **data: str) -> Any:
    return phone.client.post(path, data={"csrf_token": phone.csrf(), **data})


OFF_SITE = [
    "/\t/evil.example/",
    "/\n/evil.example/",
    "/\r\nSet-Cookie: a=b",
    "//evil.example/",
    "/\\evil.example/",
    "/\\/evil.example/",
    "https://evil.example/",
    "javascript:alert(1)",
    "/ /evil.example/",
    "/\x00",
    "",
]


@pytest.mark.parametrize("target", OFF_SITE)
@pytest.mark.parametrize("action", ["delete", "restore", "forget"])
def test_a_next_field_off_this_site_goes_home(phone: KeeperPhone, action: str, target: str) -> None:
    phone.start(["Ann", "Bob", "Cy"])
    if action == "restore":
        post(phone, f"/games/{phone.game_id}/delete")
    response = post(phone, f"/games/{phone.game_id}/{action}", next=target)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_language_switch_goes_home_from_a_next_field_off_this_site(
    phone: KeeperPhone, target: str
) -> None:
    phone.get("/")
    response = post(phone, "/language", language="de", next=target)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_a_next_field_on_this_site_is_followed(phone: KeeperPhone) -> None:
    phone.start(["Ann", "Bob", "Cy"])
    response = post(phone, f"/games/{phone.game_id}/delete", next="/?status=finished&q=J%C3%B6rg")
    assert response.headers["Location"] == "/?status=finished&q=J%C3%B6rg"


def test_a_deletion_never_reads_both_deleted_and_nothing_changed(
    app: Flask, phone: KeeperPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    phone.start(["Ann", "Bob", "Cy"])
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def fail(_default: str) -> Any:
        raise RuntimeError("a fault after the commit")

    monkeypatch.setattr(web_history, "back_to", fail)
    response = post(phone, f"/games/{phone.game_id}/delete")
    assert response.status_code == 500
    page = text(response)
    assert "nothing was changed" in page
    assert "deleted" not in page
    monkeypatch.undo()
    assert "The game is deleted." in text(phone.get("/"))


def test_a_read_only_sqlite_file_answers_503_with_retry_after(
    sqlite_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "read-only.sqlite3"
    shutil.copyfile(sqlite_url.removeprefix("sqlite:///"), path)
    # As a file the server may not write (root writes any file, so the test opens it so).
    read_only = make_app(f"sqlite:///file:{path}?mode=ro&uri=true")
    client = read_only.test_client()
    page = KeeperPhone(client)
    response = page.start(["Ann", "Bob", "Cy"])
    assert response.status_code == 503, text(response)
    assert response.headers["Retry-After"].isdigit()
    assert "try again" in text(response)
    api = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]})
    assert api.status_code == 503, api.get_data(as_text=True)
    assert api.headers["Retry-After"].isdigit()
    assert api.get_json()["detail"].endswith("try again in a moment.")


def chunked(client: Any, path: str, body: bytes, **headers: str) -> Any:
    """A POST whose body comes chunked, without Content-Length, as gunicorn hands it on."""
    return client.post(
        path,
        input_stream=io.BytesIO(body),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked", **headers},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_the_limit_is_413_and_changes_nothing(app: Flask) -> None:
    client = app.test_client()
    body = json.dumps({"players": ["Ann", "Bob", "Cy"]}).encode()
    padded = body + b" " * (app.config["MAX_CONTENT_LENGTH"] + 10) + b"garbage"
    response = chunked(client, "/api/v1/games", padded)
    assert response.status_code == 413, response.get_data(as_text=True)
    assert response.get_json()["type"] == "/api/v1/problems/payload-too-large"
    assert game_count(app) == 0
    # Within the limit, a chunked body is read whole, as one with Content-Length.
    assert chunked(client, "/api/v1/games", body + b" " * 1000).status_code == 201
    assert game_count(app) == 1
