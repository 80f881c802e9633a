"""What a page's first visit loads: Pico's styles and the app's as one file, kept a year, and
htmx only on the pages that use it (not the spectator page, which follows its stream with the
browser's own EventSource); text files compressed, the API's JSON not."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from ..keeper_phone import KeeperPhone
from .helpers import played, started

STATIC = Path(__file__).resolve().parents[2] / "static"
_LINKED = re.compile(r'<(?:link rel="stylesheet" href|script src)="(/static/[^"]+)"')
_HX = re.compile(r"\shx-(?!boost)[a-z:-]+=")


def _loads(client: FlaskClient, path: str) -> list[str]:
    response = client.get(path)
    assert response.status_code == 200, path
    return _LINKED.findall(response.get_data(as_text=True))


def test_pico_and_the_apps_styles_come_as_one_file_kept_a_year(client: FlaskClient) -> None:
    styles = [link for link in _loads(client, "/") if ".css" in link]
    assert re.fullmatch(r"/static/css/site\.css\?v=[0-9a-f]{12}", styles[0])
    response = client.get(styles[0])
    assert response.status_code == 200
    assert response.mimetype == "text/css"
    assert "max-age=31536000" in response.headers["Cache-Control"]
    body = response.get_data()
    pico = (STATIC / "vendor/pico-2.1.1.min.css").read_bytes().strip()
    app_css = (STATIC / "css/app.css").read_bytes().strip()
    assert body.startswith(pico)
    assert body.index(app_css) > len(pico)
    again = client.get(styles[0], headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    response.close()
    again.close()


def test_htmx_comes_with_the_pages_that_use_it_and_no_other(
    app: Flask, client: FlaskClient, phone: KeeperPhone
) -> None:
    started(phone, ["Ann", "Bob", "Cy"], rounds="1")
    game = f"/games/{phone.game_id}"
    with_htmx = ["/games/new", f"{game}/rounds/1", f"{game}/referee"]
    played(app, phone, ([1, 0, 0], [1, 0, 0]))
    with_htmx.append(f"{game}/rounds/1/correct")
    without = ["/", f"{game}", f"{game}/sheet", f"{game}/view", f"{game}/share", "/statistics"]
    without.append("/import")
    for path in with_htmx + without:
        page = client.get(path).get_data(as_text=True)
        loads_htmx = any("/htmx-" in link for link in _LINKED.findall(page))
        assert loads_htmx == (path in with_htmx), path
        # A page that asks htmx for something (a poll, a swap) loads it.
        assert loads_htmx or not _HX.search(page), path


def test_the_spectator_page_follows_its_stream_without_htmx(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    scripts = [link for link in _loads(client, f"/games/{game['id']}/view") if ".js" in link]
    assert [link.split("?")[0] for link in scripts] == [
        "/static/js/table.js",
        "/static/js/follow.js",
    ]
    response = client.get(scripts[1])
    assert response.mimetype == "text/javascript"
    assert "new EventSource(" in response.get_data(as_text=True)
    response.close()


def test_pages_styles_and_scripts_go_out_compressed(phone: KeeperPhone) -> None:
    page = phone.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    # The history's styles come with the home page, htmx with the new-game form.
    body = phone.get("/").get_data(as_text=True) + phone.get("/games/new").get_data(as_text=True)
    # Text files (styles, scripts, the SVG icon); PNG icons are compressed already.
    links = set(re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js|svg)\?[^"]*)"', body))
    assert len(links) >= 5
    for link in links:
        response = phone.get(link, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        assert response.headers["Content-Encoding"] == "gzip", link
        plain = phone.get(link)
        assert int(response.headers["Content-Length"]) < len(plain.get_data()) / 2, link
        response.close()
        plain.close()


def test_the_api_answers_in_plain_json_with_its_bare_etag(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"players": ["Ann", "Bob", "Cy"]}, headers={"Accept-Encoding": "gzip"}
    )
    assert "Content-Encoding" not in created.headers
    assert created.headers["ETag"] == '"1"'
