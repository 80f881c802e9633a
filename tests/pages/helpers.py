"""What the page tests share: a game started through the new-game form, and reading a page's
seats, its pressed buttons and the phone's device key."""

from __future__ import annotations

import re

from ..confidant import Confidant, text


def started(phone: Confidant, names: list[str] | None = None, **choices: object) -> Confidant:
    response = phone.start(names, **choices)
    assert response.status_code == 303, text(response)
    return phone


def seat_values(body: str) -> list[str]:
    return re.findall(r'name="names-\d" value="([^"]*)"', body)


def pressed(body: str, label: str) -> bool:
    return bool(re.search(rf'aria-pressed="true"[^>]*aria-label="{re.escape(label)}"', body))


def device_key(phone: Confidant) -> str:
    with phone.client.session_transaction() as session:
        key: str = session["device"]
    return key
