"""A phone that keeps score, without a browser: the Flask test client driving the keeper's
pages the way a phone does (CSRF token and version taken from the page, every tap a form POST).

A tap is one request, as on a phone: the helper keeps the session's CSRF token and the
game's version (read from the last round screen it was shown, counted up by each write the
server accepted). A test in which another phone or the API writes too passes the version
it means, or reads the round screen again."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

_CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')
_VERSION = re.compile(r'name="version" value="(\d+)"')


def text(response: TestResponse) -> str:
    """The page's text without tags, whitespace collapsed, entities decoded."""
    return words(response.get_data(as_text=True))


def words(body: str) -> str:
    """The text of this HTML without tags, whitespace collapsed, entities decoded."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body))).strip()


class KeeperPhone:
    """One phone keeping score."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.game_id = ""
        self._csrf: str | None = None
        self._versions: dict[str, int] = {}

    # -- pages -----------------------------------------------------------------------------

    def get(self, path: str, **kwargs: Any) -> TestResponse:
        response = self.client.get(path, **kwargs)
        if self.game_id and path.startswith(f"/games/{self.game_id}/rounds/"):
            match = _VERSION.search(response.get_data(as_text=True))
            if match:
                self._versions[self.game_id] = int(match.group(1))
        return response

    def csrf(self, path: str = "/games/new") -> str:
        """The session's CSRF token: read once from ``path``, then kept."""
        if self._csrf is None or path != "/games/new":
            match = _CSRF.search(self.get(path).get_data(as_text=True))
            assert match, f"no CSRF token on {path}"
            self._csrf = match.group(1)
        return self._csrf

    def new_game_form(self, names: list[str], **choices: Any) -> dict[str, Any]:
        form: dict[str, Any] = {"csrf_token": self.csrf()}
        for seat, name in enumerate(names):
            form[f"names-{seat}"] = name
        form.update(
            {
                "first_dealer": "0",
                "bid_rule": "standard",
                "bid_reveal": "open",
                "rounds": "full",
                "action": "start",
            }
        )
        form.update({key: str(value) for key, value in choices.items()})
        return form

    def start(self, names: list[str] | None = None, **choices: Any) -> TestResponse:
        """Start a game through the new-game form; remembers its id."""
        response = self.client.post(
            "/games/new", data=self.new_game_form(names or ["Thomas", "Ute", "Kevin"], **choices)
        )
        if response.status_code == 303:
            self.game_id = response.headers["Location"].rsplit("/", 1)[-1]
        return response

    def round_path(self, number: int) -> str:
        return f"/games/{self.game_id}/rounds/{number}"

    def round_page(self, number: int, query: str = "") -> TestResponse:
        return self.get(self.round_path(number) + query)

    def version(self, number: int) -> int:
        """The game's version as the round screen shows it now."""
        body = self.round_page(number).get_data(as_text=True)
        match = _VERSION.search(body)
        assert match, "the round page carries no version"
        return int(match.group(1))

    def known_version(self, number: int) -> int:
        """The version this phone last saw, or the round screen's when it has seen none."""
        known = self._versions.get(self.game_id)
        return known if known is not None else self.version(number)

    # -- taps ------------------------------------------------------------------------------

    def tap(self, number: int, version: int | None = None, **fields: Any) -> TestResponse:
        """One form POST from the round screen, with the session's CSRF token and the version
        the phone last saw, or ``version``. Without ``version``, a tap told the game moved on
        (412: another phone, a correction or the API wrote) is made again on the screen that
        answer shows, as the keeper would."""
        response = self._post_tap(number, version, fields)
        if version is None and response.status_code == 412:
            response = self._post_tap(number, None, fields)
        return response

    def _post_tap(self, number: int, version: int | None, fields: dict[str, Any]) -> TestResponse:
        shown = version if version is not None else self.known_version(number)
        data = {"csrf_token": self.csrf(), "version": str(shown)}
        data.update({key: str(value) for key, value in fields.items()})
        response = self.client.post(self.round_path(number), data=data)
        match = _VERSION.search(response.get_data(as_text=True))
        if response.status_code == 303:
            self._versions[self.game_id] = shown + 1
        elif match:  # a refusal shows the screen again, at the game's version
            self._versions[self.game_id] = int(match.group(1))
        else:
            self._versions.pop(self.game_id, None)
        return response

    def trump(self, number: int, turned: str, chosen: str | None = None) -> TestResponse:
        fields = {"action": "trump", "turned": turned}
        if chosen:
            fields["chosen"] = chosen
        return self.tap(number, **fields)

    def bid(self, number: int, seat: int, value: int | str) -> TestResponse:
        return self.tap(number, action="bid", seat=seat, value=value, anchor=f"seat-{seat}")

    def tricks(self, number: int, seat: int, value: int | str) -> TestResponse:
        return self.tap(number, action="tricks", seat=seat, value=value, anchor=f"seat-{seat}")

    def score(self, number: int) -> TestResponse:
        return self.tap(number, action="score")

    def play(
        self, number: int, bids: list[int], tricks: list[int], turned: str = "green"
    ) -> TestResponse:
        """A whole round by seat; every tap must be accepted."""
        assert self.trump(number, turned).status_code == 303
        for seat, bid in enumerate(bids):
            assert self.bid(number, seat, bid).status_code == 303
        for seat, count in enumerate(tricks[:-1]):
            assert self.tricks(number, seat, count).status_code == 303
        response = self.score(number)
        assert response.status_code == 303, text(response)
        return response


def without_language_switch(body: str) -> str:
    """A page's HTML without the menu's language switch (the one form every page has), so a
    test can ask whether the page offers any control of the game."""
    return re.sub(r'<form[^>]*action="/language".*?</form>', "", body, flags=re.S)
