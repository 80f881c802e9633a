"""History that lasts: the games list, the audit trail, exports and import, deleting and
restoring, the purge command, and the players' statistics (through the pages)."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timedelta, timezone
from html import unescape
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import GameRow, utcnow
from scorekeeper.services import audit as audit_service
from scorekeeper.services import games, rounds
from scorekeeper.services import history as history_service

from ..api_client import ApiClient
from ..factory import browser_of, finished, game_count, play, seed
from ..keeper_phone import KeeperPhone, text
from ..statements import count_statements


def started(phone: KeeperPhone, names: list[str] | None = None, **choices: object) -> str:
    response = phone.start(names, **choices)
    assert response.status_code == 303, text(response)
    return phone.game_id


def post(phone: KeeperPhone, path: str, **data: str) -> Any:
    return phone.client.post(path, data={"csrf_token": phone.csrf(), **data})


def correct(phone: KeeperPhone, number: int, bids: list[int], tricks: list[int]) -> Any:
    path = f"/games/{phone.game_id}/rounds/{number}/correct"
    form = phone.get(path).get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', form)
    assert version
    data = {"csrf_token": phone.csrf(path), "version": version.group(1), "turned": "blue"}
    for seat, (bid, count) in enumerate(zip(bids, tricks, strict=True)):
        data[f"bid-{seat}"] = str(bid)
        data[f"tricks-{seat}"] = str(count)
    response = phone.client.post(path, data=data)
    assert response.status_code == 303, text(response)
    return response


# -- The audit trail -----------------------------------------------------------------------


def test_the_sheet_links_a_corrected_round_to_its_history(app: Flask, phone: KeeperPhone) -> None:
    """One target per round on the sheet: the keeper's round number opens the correction,
    which links the round's history; a spectator's opens the history of a corrected round."""
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    phone.play(2, [2, 0, 0], [1, 0, 1])
    correct(phone, 1, [0, 0, 1], [0, 0, 1])
    base = f"/games/{phone.game_id}"
    link = f"{base}/rounds/1/history"

    sheet = phone.get(f"{base}/sheet").get_data(as_text=True)
    corrected = 'aria-label="Correct round 1 (already corrected)"'
    assert f'href="{base}/rounds/1/correct" {corrected}' in sheet
    assert f'href="{base}/rounds/2/correct" aria-label="Correct round 2"' in sheet
    assert "/history" not in sheet  # no second target beside the number
    correction = phone.get(f"{base}/rounds/1/correct").get_data(as_text=True)
    assert f'href="{link}"' in correction
    assert "✎ corrected" in text(phone.get(f"{base}/rounds/1/correct"))
    assert "✎" not in text(phone.get(f"{base}/rounds/2/correct"))

    spectator = app.test_client().get(f"{base}/view").get_data(as_text=True)
    assert f'href="{link}" aria-label="History of round 1 (corrected)"' in spectator
    assert f"{base}/rounds/2/history" not in spectator  # round 2 never corrected
    assert "/correct" not in spectator

    page = text(phone.get(link))
    assert "History of round 1" in page
    assert "Corrected" in page
    assert "Ute: bid 1 → 0" in page


def shown_changes(response: Any) -> list[tuple[str, list[str]]]:
    """A round's history as read: each change, newest first, as its heading (what wrote,
    without its time) and its lines."""
    body = response.get_data(as_text=True)
    changes = []
    for section in re.findall(r'<section class="change".*?</section>', body, flags=re.S):
        heading = re.search(r"<h2[^>]*>(.*?)</h2>", section, flags=re.S)
        assert heading is not None
        kind = re.sub(r"<time.*?</time>", "", heading.group(1), flags=re.S)
        lines = [line for _tag, line in re.findall(r"<(li|p)>(.*?)</\1>", section, flags=re.S)]
        changes.append((_words(kind).rstrip(" ·"), [_words(line) for line in lines]))
    return changes


def _words(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def test_each_change_shows_only_what_it_changed_newest_first(
    app: Flask, phone: KeeperPhone
) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    correct(phone, 1, [0, 0, 1], [0, 0, 1])  # the trump green → blue, Ute's bid 1 → 0
    assert shown_changes(phone.get(f"/games/{phone.game_id}/rounds/1/history")) == [
        ("Corrected", ["Trump: green Elves → blue Humans", "Ute: bid 1 → 0"]),
        ("Round scored", ["Thomas: tricks 0", "Ute: tricks 0", "Kevin: tricks 1"]),
        ("Tricks tapped in", ["Ute: tricks tapped in 0"]),
        ("Tricks tapped in", ["Thomas: tricks tapped in 0"]),
        ("Bids recorded", ["Kevin: bid 1"]),
        ("Bids recorded", ["Ute: bid 1"]),
        ("Bids recorded", ["Thomas: bid 0"]),
        ("Trump recorded", ["Trump: green Elves"]),
    ]


def test_a_change_of_a_bid_and_its_tricks_is_one_line_and_the_new_value_stands_out(
    api: ApiClient,
) -> None:
    game_id = api.create(["Thomas", "Ute", "Kevin"], first_dealer=0)["id"]
    api.play_round(game_id, 1, [0, 1, 1], [0, 0, 1])
    api.bids(game_id, 1, [0, 0, 1])
    api.tricks(game_id, 1, [0, 1, 0])
    api.trump(game_id, 2, "wizard", "red")
    api.trump(game_id, 2, "wizard", "red")  # the same card again: a write that changes nothing
    page = api.client.get(f"/games/{game_id}/rounds/1/history")
    assert shown_changes(page)[:2] == [
        ("Corrected", ["Ute: tricks 0 → 1", "Kevin: tricks 1 → 0"]),
        ("Corrected", ["Ute: bid 1 → 0"]),
    ]
    assert "bid 1 → <strong>0</strong>" in page.get_data(as_text=True)
    assert shown_changes(api.client.get(f"/games/{game_id}/rounds/2/history")) == [
        ("Trump recorded", ["Nothing changed."]),
        ("Trump recorded", ["Trump: red Dwarves, chosen by the dealer under a Wizard"]),
    ]
    exported = api.client.get(f"/api/v1/games/{game_id}/export").get_json()
    copy = api.client.post("/api/v1/import", json=exported).get_json()["games"][0]["id"]
    imported = shown_changes(api.client.get(f"/games/{copy}/rounds/1/history"))
    # An import records everything at once: each player's bid and tricks on one line.
    assert imported[:2] == [
        (
            "Imported",
            [
                "Trump: blue Humans",
                "Thomas: bid 0, tricks 0",
                "Ute: bid 0, tricks 1",
                "Kevin: bid 1, tricks 0",
            ],
        ),
        ("Corrected", ["Ute: tricks 0 → 1", "Kevin: tricks 1 → 0"]),
    ]


@pytest.mark.parametrize("reveal", ["covered", "secret"])
def test_a_bid_not_made_reads_a_dash_and_a_made_one_stays_hidden(
    app: Flask, phone: KeeperPhone, reveal: str
) -> None:
    """The history shows who has bid, as the round screen does, never a bid the reveal mode
    still hides; a player who has not bid is "–", never "hidden"."""
    started(phone, ["Thomas", "Ute", "Kevin", "Anna"], bid_rule="plus_minus_one", bid_reveal=reveal)
    path = f"/games/{phone.game_id}/rounds/1/history"
    phone.trump(1, "green")
    phone.bid(1, 1, 1)  # Ute, hidden; nobody else has bid
    with app.test_request_context():
        (_trump, ute) = audit_service.audit_trail(games.get_game(phone.game_id), 1)
    assert ute.new is not None
    assert [ute.new.bid(seat) for seat in range(4)] == [None, audit_service.HIDDEN, None, None]
    assert shown_changes(phone.get(path))[0] == ("Bids recorded", ["Ute: bid hidden"])
    assert text(phone.get(path)).count("hidden") == 1

    phone.bid(1, 1, 0)  # Ute changes her hidden bid: what it was and is stays hidden
    assert shown_changes(phone.get(path))[0] == (
        "Bids recorded",
        ["Nothing to show until the bids are revealed."],
    )
    phone.bid(1, 0, 1)  # Thomas deals, unseen
    phone.bid(1, 2, 0)
    # Anna's 0 would make the bids add up to the 1 trick: Thomas's 1 is taken back.
    assert phone.bid(1, 3, 0).status_code == 303
    page = phone.get(path)
    assert shown_changes(page)[0] == (
        "Bids recorded",
        ["Thomas: bid hidden → –", "Anna: bid hidden"],
    )
    assert not re.search(r"bid [01]", text(page))

    phone.bid(1, 0, 0)  # all in: covered bids are revealed, secret ones once scored
    if reveal == "secret":
        assert not re.search(r"bid [01]", text(phone.get(path)))
        assert phone.tricks(1, 0, 1).status_code == 303
        assert phone.score(1).status_code == 303
    page = phone.get(path)
    assert "hidden" not in text(page)
    assert [lines for kind, lines in shown_changes(page) if kind == "Bids recorded"] == [
        ["Thomas: bid 0"],
        ["Thomas: bid 1 → –", "Anna: bid 0"],
        ["Kevin: bid 0"],
        ["Thomas: bid 1"],
        ["Ute: bid 1 → 0"],
        ["Ute: bid 1"],
    ]


def test_the_history_of_an_unknown_round_is_a_404(phone: KeeperPhone) -> None:
    started(phone)
    assert phone.get(f"/games/{phone.game_id}/rounds/21/history").status_code == 404
    assert phone.get("/games/nothing-here/rounds/1/history").status_code == 404


# -- Export --------------------------------------------------------------------------------


def test_csv_has_one_row_per_player_per_round_and_guards_names_not_numbers(
    phone: KeeperPhone,
) -> None:
    started(phone, ["=SUM(A1)", "Ute", "@Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    response = phone.get(f"/games/{phone.game_id}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(r'attachment; filename="tablet-of-truth-[\w-]+\.csv"', disposition)
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbf")  # a BOM: Excel reads UTF-8
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == [
        "round",
        "cards",
        "dealer",
        "trump",
        "player",
        "bid",
        "tricks",
        "score",
        "running total",
    ]
    assert rows[1:] == [
        ["1", "1", "'=SUM(A1)", "green Elves", "'=SUM(A1)", "0", "0", "20", "20"],
        ["1", "1", "'=SUM(A1)", "green Elves", "Ute", "1", "0", "-10", "-10"],
        ["1", "1", "'=SUM(A1)", "green Elves", "'@Kevin", "1", "1", "30", "30"],
    ]


def test_csv_in_german_has_german_words_and_semicolons_for_german_spreadsheets(
    phone: KeeperPhone,
) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-DE,de;q=0.9"
    body = phone.get(f"/games/{phone.game_id}/export.csv").get_data().decode("utf-8-sig")
    assert body.splitlines()[0] == (
        "Runde;Karten;Geber;Trumpf;Spieler;Ansage;Stiche;Punkte;Punktestand"
    )
    rows = list(csv.reader(io.StringIO(body), delimiter=";"))
    assert rows[1] == ["1", "1", "Thomas", "grüne Elfen", "Thomas", "0", "0", "20", "20"]


def test_json_export_is_the_api_game_object_plus_the_audit_trail(phone: KeeperPhone) -> None:
    started(phone, ["Thomas", "Ute", "Kevin"], first_dealer="0")
    phone.play(1, [0, 1, 1], [0, 0, 1])
    response = phone.get(f"/games/{phone.game_id}/export.json")
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    document = json.loads(response.get_data())
    assert document["schema_version"] == 1
    api_game = phone.get(f"/api/v1/games/{phone.game_id}").get_json()
    assert document["game"] == api_game
    assert [entry["kind"] for entry in document["audit"]] == [
        "trump",
        "bids",
        "bids",
        "bids",
        "draft",
        "draft",
        "score",
    ]
    assert document["audit"][-1]["new"]["tricks"] == [0, 0, 1]


def test_export_everything_holds_every_kept_game(phone: KeeperPhone) -> None:
    first = started(phone, ["Ann", "Bob", "Cy"])
    second = started(phone, ["Dora", "Eve", "Finn"])
    document = json.loads(phone.get("/export.json").get_data())
    assert document["schema_version"] == 1
    assert {item["game"]["id"] for item in document["games"]} == {first, second}


# -- Import --------------------------------------------------------------------------------


IMPORTED = ["Thomas", "Ute", "Kevin"]


def kept(
    app: Flask,
    phone: KeeperPhone,
    played: list[tuple[list[int], list[int]]] | None = None,
    bid_rule: str = "standard",
    names: list[str] = IMPORTED,
) -> str:
    """A game of ``names`` kept by this phone, seeded through the services, ``played`` scored
    (Thomas deals first); the phone's game from now on."""
    phone.game_id = seed(app, names, played or [], browser=browser_of(phone), bid_rule=bid_rule).id
    return phone.game_id


def upload(phone: KeeperPhone, document: Any) -> Any:
    data = json.dumps(document).encode() if not isinstance(document, bytes) else document
    return phone.client.post(
        "/import",
        data={"csrf_token": phone.csrf("/import"), "file": (io.BytesIO(data), "export.json")},
        content_type="multipart/form-data",
    )


def sheet_text(phone: KeeperPhone, game_id: str) -> str:
    return text(phone.get(f"/games/{game_id}/sheet")).split("Tap a round")[0]


def test_export_then_import_gives_the_same_sheet_and_totals(app: Flask, phone: KeeperPhone) -> None:
    original = kept(app, phone, [([0, 1, 1], [0, 0, 1]), ([2, 0, 0], [1, 0, 1])], "canadian")
    browser = browser_of(phone)
    with app.app_context():
        rounds.correct_round(
            original, browser, 1, turned="blue", chosen=None, bids=[0, 0, 1], tricks=[0, 0, 1]
        )
        rounds.record_trump(original, browser, 3, "yellow")
        rounds.record_bid(original, browser, 3, 1, 2)
    exported = json.loads(phone.get(f"/games/{original}/export.json").get_data())
    other = KeeperPhone(app.test_client())  # the game moves to another phone
    response = upload(other, exported)
    assert response.status_code == 303, text(response)
    assert "Imported: 1 game, with a new address." in text(other.get("/"))
    with app.app_context():
        ids = set(db.session.scalars(select(GameRow.id)))
    (copy,) = ids - {original}
    assert sheet_text(other, copy) == sheet_text(phone, original)
    assert "✎" in sheet_text(other, copy)  # the correction came along with the audit trail
    before = phone.get(f"/api/v1/games/{original}").get_json()
    after = other.get(f"/api/v1/games/{copy}").get_json()
    for key in ("players", "first_dealer", "rules", "rounds", "totals", "standings", "status"):
        assert after[key] == before[key], key
    # The importing phone keeps the copy: it can play on.
    other.game_id = copy
    assert other.bid(3, 2, 0).status_code == 303


def test_a_file_imported_again_starts_no_game_twice(app: Flask, phone: KeeperPhone) -> None:
    first = kept(app, phone, [([0, 1, 1], [0, 0, 1])])
    kept(app, phone, names=["Dora", "Eve", "Finn"])
    backup = json.loads(phone.get("/export.json").get_data())
    # The phone that keeps both games: nothing to import.
    count = game_count(app)
    assert upload(phone, backup).status_code == 303
    assert "Nothing was imported: every game of the file is already here." in text(phone.get("/"))
    assert game_count(app) == count
    # Another phone takes the file twice: the games once, though one was played on between.
    other = KeeperPhone(app.test_client())
    assert upload(other, backup).status_code == 303
    assert "Imported: 2 games, each with a new address." in text(other.get("/"))
    assert game_count(app) == count + 2
    copy = next(
        game["game"]["id"]
        for game in other.get("/export.json").get_json()["games"]
        if game["game"]["players"][0]["name"] == "Thomas"
    )
    other.game_id = copy
    other.trump(2, "red")
    document = phone.get(f"/games/{first}/export.json").get_json()
    document["games"] = [{"game": document.pop("game"), "audit": document.pop("audit")}]
    document["games"].append(backup["games"][1])
    fresh = kept(app, phone, names=["Gus", "Hal", "Ida"])
    document["games"].append(phone.get(f"/games/{fresh}/export.json").get_json())
    count = game_count(app)
    assert upload(other, document).status_code == 303
    assert (
        "Imported: 1 game, with a new address. 2 games of the file are already here and were "
        "left as they are."
    ) in text(other.get("/"))
    assert game_count(app) == count + 1
    assert other.get(f"/api/v1/games/{copy}").get_json()["rounds"][1]["trump"] is not None


def test_a_game_deleted_here_is_not_imported_again_but_pointed_to(
    app: Flask, phone: KeeperPhone
) -> None:
    deleted = kept(app, phone, [([0, 1, 1], [0, 0, 1])])
    kept(app, phone, names=["Dora", "Eve", "Finn"])
    backup = json.loads(phone.get("/export.json").get_data())
    assert post(phone, f"/games/{deleted}/delete").status_code == 303
    count = game_count(app)
    assert upload(phone, backup).status_code == 303
    assert (
        "Nothing was imported. 1 game of the file is already here and was left as it is. "
        "1 game of the file was deleted on this phone: restore it from “Recently deleted” "
        "below."
    ) in text(phone.get("/"))
    assert game_count(app) == count
    # Restored, it is the one game with these players, at its own address.
    assert post(phone, f"/games/{deleted}/restore").status_code == 303
    games = phone.get("/export.json").get_json()["games"]
    assert [game["game"]["id"] for game in games].count(deleted) == 1
    assert len(games) == 2


def test_a_new_phone_sending_its_first_import_twice_starts_the_games_once(
    app: Flask, phone: KeeperPhone
) -> None:
    # A phone that never kept a game opens the import page, then a double tap sends the form
    # twice with the cookie that page gave: both requests are the same phone's.
    kept(app, phone)
    backup = json.loads(phone.get("/export.json").get_data())
    new = KeeperPhone(app.test_client())
    token = new.csrf("/import")
    name = app.config["SESSION_COOKIE_NAME"]
    cookie = new.client.get_cookie(name)
    assert cookie is not None
    twin = app.test_client()
    twin.set_cookie(name, cookie.value)
    count = game_count(app)
    for client in (new.client, twin):
        data = {"csrf_token": token, "file": (io.BytesIO(json.dumps(backup).encode()), "b.json")}
        assert client.post("/import", data=data).status_code == 303
    assert game_count(app) == count + 1
    assert "Nothing was imported: every game of the file is already here." in text(twin.get("/"))


def test_a_start_time_with_an_offset_is_the_same_moment_and_the_same_game(
    app: Flask, phone: KeeperPhone
) -> None:
    kept(app, phone)
    document = phone.get(f"/games/{phone.game_id}/export.json").get_json()
    moment = datetime.fromisoformat(document["game"]["created_at"].replace("Z", "+00:00"))
    shifted = moment.astimezone(timezone(timedelta(hours=2))).isoformat()  # 2 h later, +02:00
    document["game"]["created_at"] = shifted
    other = KeeperPhone(app.test_client())
    assert upload(other, document).status_code == 303
    (copy,) = [game["game"] for game in other.get("/export.json").get_json()["games"]]
    assert copy["created_at"] == moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    count = game_count(app)
    assert upload(other, document).status_code == 303
    assert "Nothing was imported: every game of the file is already here." in text(other.get("/"))
    assert game_count(app) == count


def test_games_without_a_start_time_are_all_imported(app: Flask, phone: KeeperPhone) -> None:
    kept(app, phone)
    item = phone.get(f"/games/{phone.game_id}/export.json").get_json()
    del item["game"]["created_at"]
    document = {"schema_version": 1, "games": [item, item]}
    other = KeeperPhone(app.test_client())
    count = game_count(app)
    assert upload(other, document).status_code == 303
    assert "Imported: 2 games, each with a new address." in text(other.get("/"))
    assert game_count(app) == count + 2


def test_a_tampered_score_refuses_the_whole_file_naming_game_and_round(
    app: Flask, phone: KeeperPhone
) -> None:
    kept(app, phone, [([0, 1, 1], [0, 0, 1]), ([2, 0, 0], [1, 0, 1])])
    document = json.loads(phone.get("/export.json").get_data())
    good = document["games"][0]
    bad = json.loads(json.dumps(good))
    bad["game"]["rounds"][1]["scores"][0] = 40
    document["games"] = [good, bad]
    count = game_count(app)
    response = upload(phone, document)
    assert response.status_code == 422
    assert (
        "Nothing was imported, as round 2 of game 2 (Thomas, Ute, Kevin) is refused: the scores "
        "in the file do not follow from its bids and tricks."
    ) in text(response)
    assert game_count(app) == count


def test_a_bid_the_rules_forbid_refuses_the_file_with_the_rules_reason(
    app: Flask, phone: KeeperPhone
) -> None:
    kept(app, phone, [([0, 0, 0], [1, 0, 0])], "plus_minus_one")
    document = json.loads(phone.get(f"/games/{phone.game_id}/export.json").get_data())
    round_one = document["game"]["rounds"][0]
    round_one["bids"] = [0, 1, 0]  # they add up to the 1 trick: Thomas, who deals, may not
    round_one["scores"] = None
    document["game"]["totals"] = None
    count = game_count(app)
    response = upload(phone, document)
    assert response.status_code == 422
    assert (
        "round 1 of game 1 (Thomas, Ute, Kevin) is refused: Thomas deals and may not bid 0"
        in text(response)
    )
    assert game_count(app) == count


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (b"{not json", "Choose a JSON file exported from the Tablet of Truth."),
        (
            {"schema_version": 2, "games": []},
            "it is not a file this version of the Tablet of Truth exported.",
        ),
        ({"schema_version": 1}, "it holds no game."),
        (
            {"schema_version": 1, "game": []},
            "Nothing was imported, as game 1 is refused: game is not a JSON",
        ),
        (
            {"schema_version": 1, "game": {"players": [{"seat": 0, "name": "A"}]}},
            "Nothing was imported, as game 1 (A) is refused:",
        ),
    ],
)
def test_a_broken_file_is_refused_with_a_reason(
    app: Flask, phone: KeeperPhone, document: Any, message: str
) -> None:
    started(phone)
    count = game_count(app)
    response = upload(phone, document)
    assert response.status_code in (400, 422)
    assert message in text(response)
    assert game_count(app) == count


def test_an_import_without_its_csrf_token_is_refused(app: Flask, phone: KeeperPhone) -> None:
    response = phone.client.post(
        "/import",
        data={"file": (io.BytesIO(b"{}"), "export.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    assert game_count(app) == 0


# -- The games list ------------------------------------------------------------------------


@pytest.mark.both_backends
def test_the_list_filters_by_status_and_searches_player_names(
    app: Flask, phone: KeeperPhone
) -> None:
    finished(app, browser_of(phone), ["Ann", "Bob", "Cy"], [([1, 0, 0], [1, 0, 0])])
    seed(app, ["Dora", "Eve", "Finn"], browser=browser_of(phone))
    assert "Ann, Bob, Cy" in text(phone.get("/?status=finished"))
    assert "Dora, Eve, Finn" not in text(phone.get("/?status=finished"))
    assert "Ann, Bob, Cy" not in text(phone.get("/?status=in_progress"))
    assert "Dora, Eve, Finn" in text(phone.get("/?status=in_progress"))
    found = text(phone.get("/?q=eVe"))
    assert "Dora, Eve, Finn" in found
    assert "Ann, Bob, Cy" not in found
    assert "No game matches." in text(phone.get("/?q=%25"))


def test_the_list_shows_newest_activity_first_and_more_on_request(
    app: Flask, phone: KeeperPhone
) -> None:
    browser = browser_of(phone)
    ids = [
        seed(app, [f"P{n}", "Bob", "Cy"], browser=browser).id
        for n in range(history_service.GAMES_PAGE + 1)
    ]
    with app.test_request_context():
        rounds.record_trump(ids[0], browser_of(phone), 1, "red")  # the oldest moves up
    page = text(phone.get("/"))
    assert page.index("P0, Bob") < page.index(f"P{history_service.GAMES_PAGE}, Bob")
    assert "P1, Bob" not in page
    assert "Back to the newest" not in page
    older = text(phone.get(older_link(phone.get("/"))))
    assert "P1, Bob" in older
    assert "P0, Bob" not in older
    assert "Older games" not in older
    assert "Back to the newest" in older


def older_link(response: Any, label: str = "Older games") -> str:
    """The address of a page's link to the next page of a list."""
    found = re.search(rf'href="([^"]+)"[^>]*>{label}<', response.get_data(as_text=True))
    assert found, f"no link {label!r}"
    return unescape(found.group(1))


def test_a_followed_game_is_listed_read_only_and_can_be_forgotten(
    app: Flask, phone: KeeperPhone
) -> None:
    keeper = KeeperPhone(app.test_client())
    game_id = started(keeper, ["Ann", "Bob", "Cy"])
    phone.get(f"/games/{game_id}/sheet")  # opening the sheet follows the game
    page = phone.get("/")
    assert "Following" in text(page)
    assert "Ann, Bob, Cy" in text(page)
    # It opens on its live page (standings, the round, the sheet), which updates by itself.
    assert f'href="/games/{game_id}/view"' in page.get_data(as_text=True)
    assert f"/games/{game_id}/delete" not in page.get_data(as_text=True)
    response = post(phone, f"/games/{game_id}/forget")
    assert response.status_code == 303
    assert "Ann, Bob, Cy" not in text(phone.get("/"))
    assert "Ann, Bob, Cy" in text(keeper.get("/"))  # the game itself stays


def test_a_deleted_game_leaves_the_list_and_can_be_restored(phone: KeeperPhone) -> None:
    game_id = started(phone, ["Ann", "Bob", "Cy"])
    response = post(phone, f"/games/{game_id}/delete")
    assert response.status_code == 303
    page = text(phone.get("/"))
    assert "You can restore it from this list for 30 days." in page
    assert "Recently deleted" in page
    # The last day, written as the page's other dates are ("Dec 22, 2026").
    last_day = utcnow() + timedelta(days=30)
    assert f"Can be restored until {last_day:%b} {last_day.day}, {last_day.year}" in page
    assert phone.get(f"/games/{game_id}/sheet").status_code == 404
    assert post(phone, f"/games/{game_id}/restore").status_code == 303
    assert "Recently deleted" not in text(phone.get("/"))
    assert phone.get(f"/games/{game_id}/sheet").status_code == 200


def test_another_phone_can_neither_delete_nor_restore(app: Flask, phone: KeeperPhone) -> None:
    game_id = started(phone, ["Ann", "Bob", "Cy"])
    stranger = KeeperPhone(app.test_client())
    stranger.get("/")
    assert post(stranger, f"/games/{game_id}/delete").status_code == 403
    post(phone, f"/games/{game_id}/delete")
    assert post(stranger, f"/games/{game_id}/restore").status_code in (403, 404)
    assert phone.get(f"/games/{game_id}/sheet").status_code == 404


# -- Statistics ----------------------------------------------------------------------------


def play_short_game(
    app: Flask, phone: KeeperPhone, names: list[str], played: list[tuple[list[int], list[int]]]
) -> str:
    """A finished game of ``names``, seeded through the services for this phone."""
    return finished(app, browser_of(phone), names, played)


@pytest.mark.both_backends
def test_the_statistics_page_shows_the_players_and_the_head_to_head_table(
    app: Flask, phone: KeeperPhone
) -> None:
    """The values are the service's (tests/services/test_statistics.py): here, how the page
    words them."""
    # Game 1: Ann 60, Bob 10, Cy 50 → Ann wins. Game 2: ann 20, BOB 20, Cy -10: shared.
    play_short_game(
        app, phone, ["Ann", "Bob", "Cy"], [([0, 1, 1], [0, 0, 1]), ([2, 0, 0], [2, 0, 0])]
    )
    play_short_game(app, phone, ["ann", "BOB", "Cy"], [([0, 0, 0], [0, 0, 1])])
    page = text(phone.get("/statistics"))
    assert "Head to head" in page
    assert re.search(r"\bAnn – Bob 2 1 : 0 1 tie", page, re.IGNORECASE)  # game 2 shared
    assert re.search(r"\bAnn – Cy 2 2 : 0 Bob\b", page, re.IGNORECASE)  # no tie, no word
    assert "Longest run of exact bids" in page
    assert "Final totals of the last 2 games" in page  # what the little line shows
    assert "finished)" not in page  # every game is finished: the count says it all
    assert 'aria-label="Players"' not in phone.get("/statistics").get_data(as_text=True)
    browser = browser_of(phone)
    seed(app, ["Ann", "Bob", "Cy"], [([0, 0, 0], [0, 0, 1])], browser=browser)  # in progress
    seed(app, ["Dee", "Ann", "Bob"], [([0, 0, 0], [0, 0, 1])], browser=browser)  # Dee's first
    page = text(phone.get("/statistics"))
    assert re.search(
        r"\bann Final totals of the last 2 games Games 4 \(2 finished\) Wins 2 Win rate 100",
        page,
        re.IGNORECASE,
    )
    assert "Dee Games 1 (0 finished) Wins – Win rate –" in page
    body = phone.get("/statistics").get_data(as_text=True)
    assert 'aria-label="Players"' in body  # four players: a way to jump to each
    assert 'href="#player-4"' in body
    # Each landmark its own name: the section is "Head to head", its scrolling table not.
    regions = re.findall(r'role="region" aria-label="([^"]+)"', body)
    headings = re.findall(r'<h2 id="[^"]+">([^<]+)</h2>', body)
    assert regions == ["Head to head table"]
    assert not set(regions) & set(headings)


def test_statistics_before_a_round_is_scored_say_what_is_missing(
    app: Flask, phone: KeeperPhone
) -> None:
    assert "No games yet on this phone: the statistics fill in" in text(phone.get("/statistics"))
    game = seed(app, browser=browser_of(phone))
    page = text(phone.get("/statistics"))
    assert "No games yet" not in page  # the game is there, on the games list
    assert "No round scored yet on this phone: the statistics fill in as you play." in page
    with app.app_context():
        play(game, 1, [0, 0, 0], [0, 0, 1])
    page = text(phone.get("/statistics"))
    assert "No round scored yet" not in page
    assert "Ann Games 1 (0 finished)" in page


@pytest.mark.both_backends
def test_statistics_round_a_half_away_from_zero_as_people_do(
    app: Flask, phone: KeeperPhone
) -> None:
    # Ann makes her bid in 1 round of 8: 12.5 %, shown as 13 % (as a calculator shows it);
    # her average score, (20 − 7 × 10) / 8 = −6.25, as −6.3.
    play_short_game(app, phone, ["Ann", "Bob", "Cy"], [([0, 0, 0], [0, 0, 1])])
    for _ in range(7):
        play_short_game(app, phone, ["Ann", "Bob", "Cy"], [([1, 0, 0], [0, 0, 1])])
    page = text(phone.get("/statistics"))
    assert re.search(
        r"\bAnn Final totals of the last 8 games Games 8 .* Average score −6.3 .*"
        r" Bid accuracy 13% \(1/8\)",
        page,
    )


@pytest.mark.both_backends
def test_statistics_cost_the_same_statements_for_2_and_20_games(
    app: Flask, phone: KeeperPhone
) -> None:
    for _ in range(2):
        play_short_game(app, phone, ["Ann", "Bob", "Cy"], [([0, 0, 1], [0, 0, 1])])
    with count_statements(app) as two:
        assert phone.get("/statistics").status_code == 200
    for _ in range(18):
        play_short_game(app, phone, ["Ann", "Bob", "Dan"], [([0, 1, 0], [0, 1, 0])])
    with count_statements(app) as twenty:
        page = phone.get("/statistics")
    assert "Dan" in text(page)
    assert len(two) == len(twenty), (two, twenty)


def test_the_sparkline_is_an_svg_with_an_accessible_name(app: Flask, phone: KeeperPhone) -> None:
    play_short_game(app, phone, ["Ann", "Bob", "Cy"], [([0, 0, 1], [0, 0, 1])])
    # One game has no course to draw (a lone level line looked like a rule).
    assert '<svg class="sparkline"' not in phone.get("/statistics").get_data(as_text=True)
    play_short_game(app, phone, ["Ann", "Bob", "Cy"], [([1, 0, 0], [0, 0, 1])])
    body = phone.get("/statistics").get_data(as_text=True)
    assert '<svg class="sparkline"' in body
    label = "Final totals of Ann's last 2 games, oldest first: from 20 to −10, lowest −10"
    assert f'role="img" aria-label="{label}, highest 20"' in body
    # Bob scored 20 in both: level, through the middle of the box.
    assert 'points="2.0,16.0 118.0,16.0"' in body
