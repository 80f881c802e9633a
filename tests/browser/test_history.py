"""History in the browser: the largest sheets (6 players × 10 rounds, 3 players × 20 rounds,
every round scored) print on one A4 page, an exported game comes back through the import
page, and a round's history reads on a narrow phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Page, expect

from .helpers import expect_nothing_off_screen, shot


def played_through_the_api(page: Page, base_url: str, names: list[str]) -> str:
    """A whole game recorded through the JSON API; the game's id."""
    api = page.request
    game = api.post(base_url + "/api/v1/games", data={"players": names, "first_dealer": 0})
    assert game.status == 201
    body = game.json()
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    seats = len(names)
    for number in range(1, body["rules"]["rounds"] + 1):
        path = f"{base_url}/api/v1/games/{body['id']}/rounds/{number}"
        if number * seats < 60:
            assert api.put(path + "/trump", data={"turned": "red"}, headers=headers).ok
        bids = [number] + [0] * (seats - 1)
        assert api.put(path + "/bids", data={"bids": bids}, headers=headers).ok
        tricks = [number] + [0] * (seats - 1)
        assert api.put(path + "/tricks", data={"tricks": tricks}, headers=headers).ok
    return str(body["id"])


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.parametrize(
    "names",
    [
        ["Annabelle", "Bartholomew", "Cyrillia", "Dorothea", "Evangeline", "Fitzgerald"],
        ["Annabelle", "Bartholomew", "Cyrillia"],
    ],
    ids=["6 players x 10 rounds", "3 players x 20 rounds"],
)
def test_the_whole_sheet_prints_on_one_page(page: Page, base_url: str, names: list[str]) -> None:
    game_id = played_through_the_api(page, base_url, names)
    page.goto(f"{base_url}/games/{game_id}/sheet")
    expect(page.locator("table.sheet tbody tr")).to_have_count(60 // len(names))
    page.emulate_media(media="print")
    assert pdf_pages(page.pdf(format="A4")) == 1


def test_an_exported_game_is_imported_from_the_import_page(
    page: Page, base_url: str, tmp_path: Path
) -> None:
    game_id = played_through_the_api(page, base_url, ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"])
    exported = page.request.get(f"{base_url}/games/{game_id}/export.json")
    assert exported.headers["content-disposition"].startswith("attachment")
    file = tmp_path / "export.json"
    file.write_bytes(exported.body())
    page.goto(base_url + "/")
    page.get_by_role("link", name="Import").click()
    expect(page.get_by_role("heading", name="Import games")).to_be_visible()
    page.get_by_label("Exported file").set_input_files(str(file))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_text("Imported: 1 game, with a new address.")).to_be_visible()
    page.get_by_role("link", name=re.compile("^Ann, Bob, Cy, Dan, Eve, Fay")).click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator("table.sheet tfoot")).to_contain_text("Total")


def test_the_head_to_head_table_fits_a_narrow_phone_in_german(
    page: Page, base_url: str, tmp_path: Path
) -> None:
    names = ["Charlotte-Marie", "Bartholomäus", "Cy", "Dan"]
    game_id = played_through_the_api(page, base_url, names)
    file = tmp_path / "export.json"
    file.write_bytes(page.request.get(f"{base_url}/games/{game_id}/export.json").body())
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(base_url + "/import")
    page.get_by_label("Exported file").set_input_files(str(file))
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.get_by_text("Imported: 1 game, with a new address.")).to_be_visible()
    page.get_by_role("button", name="Deutsch").click()
    page.goto(base_url + "/statistics")
    table = page.locator("table.h2h")
    expect(table).to_contain_text("Bartholomäus – Charlotte-Marie")
    # Every column in sight, "Vorn" (who ended ahead) too: nothing to scroll sideways for.
    region = page.locator("div[role=region]", has=table)
    assert table.evaluate("t => t.scrollWidth") <= region.evaluate("r => r.clientWidth")


def test_a_rounds_history_reads_on_a_narrow_phone_in_english_and_german(
    page: Page, base_url: str
) -> None:
    """Eight changes to one round, on a 360 px phone: each change says what it changed in a
    line or two, and nothing reaches past the screen's edge."""
    names = ["Charlotte-Marie", "Bartholomäus", "Ute", "Kevin"]
    api = page.request
    game = api.post(base_url + "/api/v1/games", data={"players": names, "first_dealer": 0})
    body = game.json()
    headers = {"Authorization": f"Bearer {body['edit_token']}"}
    path = f"{base_url}/api/v1/games/{body['id']}/rounds/1"
    writes = [
        ("trump", {"turned": "wizard", "chosen": "yellow"}),
        ("bids", {"bids": [1, 0, 0, 1]}),
        ("tricks", {"tricks": [1, 0, 0, 0]}),
        ("bids", {"bids": [0, 1, 0, 1]}),
        ("tricks", {"tricks": [0, 1, 0, 0]}),
        ("trump", {"turned": "jester"}),
        ("bids", {"bids": [0, 0, 1, 1]}),
        ("tricks", {"tricks": [0, 0, 0, 1]}),
    ]
    for what, data in writes:
        assert api.put(f"{path}/{what}", data=data, headers=headers).ok
    # Read as a spectator does (this browser holds no right to change the game).
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{base_url}/games/{body['id']}/rounds/1/history")
    expect(page.get_by_role("heading", name="History of round 1", level=1)).to_be_visible()
    changes = page.locator("section.change")
    expect(changes).to_have_count(len(writes))
    newest = changes.first
    expect(newest.get_by_role("heading", level=2)).to_contain_text("Corrected")
    expect(newest.get_by_role("listitem")).to_have_text(
        ["Bartholomäus: tricks 1 → 0", "Kevin: tricks 0 → 1"]
    )
    expect(changes.nth(1).get_by_role("listitem")).to_have_text(
        ["Bartholomäus: bid 1 → 0", "Ute: bid 0 → 1"]
    )
    expect(changes.last.get_by_role("listitem")).to_have_text(
        ["Trump: yellow Giants, chosen by the dealer under a Wizard"]
    )
    expect_nothing_off_screen(page)
    shot(page, "round-history-360-en")

    page.get_by_role("button", name="Deutsch").click()
    expect(page.get_by_role("heading", name="Verlauf von Runde 1", level=1)).to_be_visible()
    expect(page.locator("section.change").first.get_by_role("listitem").first).to_have_text(
        "Bartholomäus: Stiche 1 → 0"
    )
    expect_nothing_off_screen(page)
    shot(page, "round-history-360-de")
