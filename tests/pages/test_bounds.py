"""Every list and export bounded: the games list a page at a time, a round's history a page
at a time, "export everything" streamed, a game's export capped; the search's input."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import export
from scorekeeper.extensions import db
from scorekeeper.models import ChangeRow, PlayerRow, utcnow
from scorekeeper.schemas.document import SCHEMA_VERSION, ManyGamesExport
from scorekeeper.schemas.games import timestamp
from scorekeeper.services import audit, games, history, paging

from ..factory import browser_of, seed
from ..keeper_phone import KeeperPhone, text


def started(
    phone: KeeperPhone, names: list[str], played: list[tuple[list[int], list[int]]] | None = None
) -> str:
    """A game of ``names`` kept by this phone, seeded through the services; ``played`` scored."""
    app = phone.client.application
    phone.game_id = seed(app, names, played or [], browser=browser_of(phone)).id
    return phone.game_id


def link(response: Any, label: str) -> str | None:
    found = re.search(rf'href="([^"]+)"[^>]*>{label}<', response.get_data(as_text=True))
    return unescape(found.group(1)) if found else None


def listed(response: Any) -> list[str]:
    return re.findall(r"<strong>(P\d+), Bob, Cy</strong>", response.get_data(as_text=True))


def test_the_games_list_pages_through_every_game_once(
    phone: KeeperPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "GAMES_PAGE", 4)
    for number in range(10):
        started(phone, [f"P{number}", "Bob", "Cy"])
    seen, path, pages = [], "/", 0
    while path:
        response = phone.get(path)
        assert response.status_code == 200
        seen += listed(response)
        pages += 1
        path = link(response, "Older games")
    assert seen == [f"P{number}" for number in reversed(range(10))]
    assert pages == 3


def test_a_shown_beyond_the_bound_is_held_to_it(
    phone: KeeperPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "GAMES_PAGE", 2)
    monkeypatch.setattr(history, "MAX_GAMES_SHOWN", 3)
    for number in range(5):
        started(phone, [f"P{number}", "Bob", "Cy"])
    response = phone.get("/?shown=1000")
    assert listed(response) == ["P4", "P3", "P2"]
    assert link(response, "Older games")


@pytest.mark.parametrize("before", ["nonsense", "-", "99999999999999999.x", "1.a b", "%00"])
def test_an_unreadable_page_link_shows_the_newest_games(phone: KeeperPhone, before: str) -> None:
    started(phone, ["P0", "Bob", "Cy"])
    response = phone.get("/", query_string={"before": before})
    assert response.status_code == 200
    assert listed(response) == ["P0"]


def test_a_cursor_reads_back_as_it_was_written() -> None:
    moment = utcnow().replace(tzinfo=None)
    assert paging.read_cursor(paging.cursor(moment, "abc")) == (moment, "abc")
    early = moment.replace(year=1)
    assert paging.read_cursor(paging.cursor(early, 7)) == (early, "7")


@pytest.mark.parametrize("needle", ["\x00", "Ann\x00", "A\nnn", "\x1b", "\x7f"])
def test_a_control_character_finds_nothing_and_is_never_a_wildcard(
    phone: KeeperPhone, needle: str
) -> None:
    started(phone, ["Ann", "Bob", "Cy"])
    response = phone.get("/", query_string={"q": needle})
    assert response.status_code == 200
    assert "No game matches." in text(response)
    assert "Ann, Bob, Cy" not in text(response)


def test_the_search_folds_case_as_unicode_does(phone: KeeperPhone) -> None:
    started(phone, ["Straße", "Bob", "Cy"])
    started(phone, ["STRASSE", "Eve", "Finn"])
    started(phone, ["A_b", "Dora", "Gus"])
    for needle in ("strasse", "STRASSE", "Straße", "STRAẞE", "aße"):
        found = text(phone.get("/", query_string={"q": needle}))
        assert "Straße, Bob, Cy" in found, needle
        assert "STRASSE, Eve, Finn" in found, needle
        assert "A_b, Dora, Gus" not in found, needle
    found = text(phone.get("/", query_string={"q": "_"}))  # LIKE's "_" is a letter here
    assert "A_b, Dora, Gus" in found
    assert "Straße, Bob, Cy" not in found


def test_every_insert_writes_the_search_name(app: Flask) -> None:
    with app.app_context():
        created = games.create_game(["Straße", "İlker", "ΟΔΟΣ"])
        names = db.session.scalars(
            sa.select(PlayerRow.search_name)
            .where(PlayerRow.game_id == created.game.id)
            .order_by(PlayerRow.seat)
        ).all()
    assert names == ["strasse", "ilker", "οδοσ"]


def add_changes(app: Flask, game_id: str, count: int, number: int = 1) -> None:
    """``count`` writes to round ``number``, a second apart, each naming its order in tricks."""
    start = utcnow() - timedelta(days=1)
    rows = [
        {
            "game_id": game_id,
            "round_number": number,
            "kind": "bids",
            "changed_at": start + timedelta(seconds=n),
            "old": None,
            "new": {"trump": None, "bids": [n, 0, 0], "tricks": None},
        }
        for n in range(count)
    ]
    with app.app_context():
        db.session.execute(sa.insert(ChangeRow), rows)
        db.session.commit()


def test_a_rounds_history_is_shown_a_page_at_a_time(
    app: Flask, phone: KeeperPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit, "CHANGES_PAGE", 4)
    game_id = started(phone, ["Ann", "Bob", "Cy"])
    add_changes(app, game_id, 10)
    path: str | None = f"/games/{game_id}/rounds/1/history"
    seen = []
    while path:
        response = phone.get(path)
        assert response.status_code == 200
        seen += [int(bid) for bid in re.findall(r"Ann: bid (\d+)", text(response))]
        path = link(response, "Earlier changes")
    assert seen == list(reversed(range(10)))  # the latest first, each once
    assert link(response, "Latest changes")


def test_a_games_export_carries_its_latest_writes_only(
    app: Flask, phone: KeeperPhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit, "AUDIT_EXPORTED", 5)
    game_id = started(phone, ["Ann", "Bob", "Cy"])
    add_changes(app, game_id, 12)
    for path in (f"/games/{game_id}/export.json", f"/api/v1/games/{game_id}/export"):
        trail = phone.get(path).get_json()["audit"]
        assert [entry["new"]["bids"][0] for entry in trail] == [7, 8, 9, 10, 11], path
    everything = phone.get("/export.json").get_json()["games"]
    assert [entry["new"]["bids"][0] for entry in everything[0]["audit"]] == [7, 8, 9, 10, 11]


@pytest.mark.parametrize("count", [0, 1, 5])
def test_export_everything_is_streamed_in_the_same_bytes(
    app: Flask, phone: KeeperPhone, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    monkeypatch.setattr(history, "EXPORT_CHUNK", 2)
    for number in range(count):
        started(phone, [f"P{number}", "Bob", "Cy"], [([0, 0, 1], [0, 0, 1])])
    response = phone.get("/export.json")
    assert response.is_streamed
    body = response.get_data(as_text=True)
    exported_at = json.loads(body)["exported_at"]
    with app.test_request_context():
        snapshots = [games.get_game(game_id) for game_id in history.kept_ids(browser(phone))]
        trails = audit.audit_trails(snapshots)
        document = ManyGamesExport(
            schema_version=SCHEMA_VERSION,
            exported_at=exported_at,
            games=[export.game_export(game, trails[game.id]) for game in snapshots],
        )
        expected = export.json_text(document.model_dump(mode="json"))
    assert body == expected
    assert len(json.loads(body)["games"]) == count
    assert timestamp(utcnow())[:4] == exported_at[:4]


def browser(phone: KeeperPhone) -> Any:
    with phone.client.session_transaction() as session:
        key = session.get("device")
    return history.sharing.Browser(key) if key else None
