"""What the page tests share: a game started through the new-game form (with special cards in
the deck when asked), rounds recorded through the services, a correction form as a phone
sends it, and reading a page's seats, one
player's row, its pressed buttons and the phone's browser key."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from scorekeeper.services import rounds, sharing

from ..keeper_phone import KeeperPhone, text

NAMES = ["Thomas", "Ute", "Kevin"]
_VERSION = re.compile(r'name="version" value="(\d+)"')


def started(
    phone: KeeperPhone,
    names: list[str] | None = None,
    *,
    deck: list[str] | None = None,
    **choices: Any,
) -> KeeperPhone:
    """A game started through the new-game form, ``deck`` its special cards."""
    form = phone.new_game_form(names or NAMES, **choices)
    if deck is not None:
        form["special_cards"] = deck
    response = phone.client.post("/games/new", data=form)
    assert response.status_code == 303, text(response)
    phone.game_id = response.headers["Location"].rsplit("/", 1)[-1]
    return phone


def played(
    app: Flask,
    phone: KeeperPhone,
    *hands: tuple[list[int], list[int]],
    turned: str = "green",
    first: int = 1,
) -> None:
    """Rounds ``first``, ``first + 1``, … recorded through the services for this phone, each
    hand its (bids, tricks) by seat, under ``turned``: a game brought on without taps."""
    browser = sharing.Browser(browser_key(phone))
    with app.test_request_context():
        for number, (bids, tricks) in enumerate(hands, first):
            rounds.record_trump(phone.game_id, browser, number, turned)
            rounds.record_bids(phone.game_id, browser, number, bids)
            rounds.record_tricks(phone.game_id, browser, number, tricks)


def correction(
    phone: KeeperPhone, number: int, bids: list[int], tricks: list[int], **fields: Any
) -> dict[str, Any]:
    """The correction form of round ``number`` as sent: its token and version, these bids and
    tricks, the trump blue unless ``fields`` say otherwise."""
    path = f"/games/{phone.game_id}/rounds/{number}/correct"
    version = _VERSION.search(phone.get(path).get_data(as_text=True))
    assert version, "the correction form carries no version"
    return {
        "csrf_token": phone.csrf(path),
        "version": version.group(1),
        "turned": "blue",
        **{f"bid-{seat}": str(bid) for seat, bid in enumerate(bids)},
        **{f"tricks-{seat}": str(count) for seat, count in enumerate(tricks)},
        **{key: str(value) for key, value in fields.items()},
    }


def seat_values(body: str) -> list[str]:
    return re.findall(r'name="names-\d" value="([^"]*)"', body)


def row(body: str, seat: int) -> str:
    """One player's row of the round screen."""
    found = body[body.index(f'id="seat-{seat}"') :]
    return found[: found.index("</form>")]


def pressed(body: str, label: str) -> bool:
    return bool(re.search(rf'aria-pressed="true"[^>]*aria-label="{re.escape(label)}"', body))


def browser_key(phone: KeeperPhone) -> str:
    with phone.client.session_transaction() as session:
        key: str = session["device"]
    return key
