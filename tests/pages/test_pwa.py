"""The manifest, the service worker and the offline page as the server sends them."""

from __future__ import annotations

import json
import re
import struct

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import assets


@pytest.fixture
def plain(app: Flask) -> FlaskClient:
    return app.test_client()


def _worker(client: FlaskClient) -> tuple[str, list[str], str]:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    body = response.get_data(as_text=True)
    version = re.search(r"const VERSION = (\"[0-9a-f]+\");", body)
    shell = re.search(r"const SHELL = (\[.*?\]);", body)
    assert version
    assert shell
    return json.loads(version.group(1)), json.loads(shell.group(1)), body


def test_the_worker_keeps_every_file_the_pages_link(plain: FlaskClient) -> None:
    _version, shell, _body = _worker(plain)
    page = plain.get("/").get_data(as_text=True)
    linked = re.findall(r'<(?:link rel="[^"]+"|script) (?:src|href)="(/[^"]+)"', page)
    assert "/manifest.webmanifest" in linked
    assert len(linked) >= 7
    assert set(linked) <= set(shell)
    assert "/offline" in shell
    for path in shell:
        assert plain.get(path).status_code == 200, path


def test_a_changed_file_gives_the_worker_a_new_version(
    plain: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, shell, _body = _worker(plain)
    monkeypatch.setattr(assets, "_digest", lambda path: "0123456789ab")
    after, new_shell, _body = _worker(plain)
    assert after != before
    assert new_shell != shell


def test_the_worker_leaves_writes_and_the_api_to_the_network(plain: FlaskClient) -> None:
    _version, _shell, body = _worker(plain)
    assert 'request.method !== "GET"' in body
    assert 'url.pathname.startsWith("/api/")' in body


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_with_icons_and_a_standalone_display(
    plain: FlaskClient,
) -> None:
    page = plain.get("/").get_data(as_text=True)
    href = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert href
    response = plain.get(href.group(1))
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Tablet of Truth"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        image = plain.get(icon["src"])
        assert image.status_code == 200, icon
        width, height = _png_size(image.get_data())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', page)
    assert touch
    assert _png_size(plain.get(touch.group(1)).get_data()) == (180, 180)
    for scheme in ("light", "dark"):
        color = rf'<meta name="theme-color" content="#[0-9a-f]{{6}}" media="[^"]*{scheme}[^"]*">'
        assert re.search(color, page), scheme


def test_the_manifest_and_the_offline_page_come_in_the_phones_language(
    plain: FlaskClient,
) -> None:
    german = {"Accept-Language": "de"}
    manifest = plain.get("/manifest.webmanifest", headers=german)
    body = json.loads(manifest.get_data(as_text=True))
    assert body["name"] == "Block der Wahrheit"
    assert body["lang"] == "de"
    assert manifest.headers["Content-Language"] == "de"
    offline = plain.get("/offline", headers=german)
    assert offline.status_code == 200
    assert offline.headers["Content-Language"] == "de"
    assert "Keine Verbindung" in offline.get_data(as_text=True)


def test_the_offline_page_opened_as_a_page_online_leads_home(plain: FlaskClient) -> None:
    # An address bar that shows /offline (an older worker let htmx write it there), reloaded
    # with the server answering: the offline page would say the phone is offline.
    opened = plain.get("/offline", headers={"Sec-Fetch-Mode": "navigate"})
    assert opened.status_code == 303
    assert opened.headers["Location"] == "/"
    # The worker fetches it to keep it (no navigation): the page itself.
    kept = plain.get("/offline", headers={"Sec-Fetch-Mode": "cors"})
    assert kept.status_code == 200
    assert "No connection" in kept.get_data(as_text=True)
    assert "Sec-Fetch-Mode" in kept.headers["Vary"]  # a cache must not answer a page load


def test_the_worker_says_a_kept_copy_is_one_in_every_language(plain: FlaskClient) -> None:
    _version, _shell, body = _worker(plain)
    kept = re.search(r"const KEPT = (\{.*?\});", body)
    assert kept
    sentences = json.loads(kept.group(1))
    assert sentences["en"].startswith("No connection: this is the copy this phone kept")
    assert sentences["de"].startswith("Keine Verbindung: Das ist die gespeicherte Kopie")
    # One worker for every phone, whatever its language.
    assert plain.get("/sw.js", headers={"Accept-Language": "de"}).get_data(as_text=True) == body


def test_the_offline_page_fetched_by_the_worker_leaves_a_pending_message(
    plain: FlaskClient,
) -> None:
    # The worker refreshes its copy of /offline in the background, with the phone's cookies,
    # at any moment: between a write and the page that says what it did, say.
    with plain.session_transaction() as session:
        session["_flashes"] = [("success", "Only this phone keeps score now.")]
    offline = plain.get("/offline")
    assert offline.status_code == 200
    assert "Only this phone keeps score now." not in offline.get_data(as_text=True)
    home = plain.get("/")
    assert "Only this phone keeps score now." in home.get_data(as_text=True)
