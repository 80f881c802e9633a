"""The scorekeeper as a phone: a browser holding the round screen. It starts a game through
the new-game page and plays every round by sending the screen's own forms as htmx sends a
boosted form (the form's fields and the button tapped, the CSRF token and the version from
the page, the session cookie, htmx's headers), one request a tap, and reads the next form
from each answer. What a keeper was told (the version, the trumps, bids and tricks of its
acknowledged taps) is compared with the database afterwards (bench/traffic.py's verify)."""

from __future__ import annotations

import asyncio
import gzip
import random
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from .client import Answer, Pool

# A trump is one tap: a suit or the Jester (a Wizard is a link to the dealer's choice first).
TURNED = ("blue", "green", "red", "yellow", "jester")
TAPS_A_ROUND = 6  # about: the trump, three bids, two trick counts and Score, or everyone made it
MADE = 0.5  # the share of rounds in which everyone made their bid (one tap for the tricks)
# What a phone's browser sends with every request besides the page's own.
BROWSER = {
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-GB,en;q=0.9",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile",
}


class OldServer(RuntimeError):
    """The server answered a tap with a redirect: a commit before "Every tap counts once"
    (a tap was a POST, its 303 and a GET); measure it with ``--keeper api``."""


@dataclass
class Form:
    """One form of a page, as the browser would send it."""

    action: str
    id: str
    next: bool  # data-next: the row the screen points the keeper to
    fields: dict[str, str] = field(default_factory=dict)  # hidden, checked, typed in
    buttons: list[tuple[str, str]] = field(default_factory=list)  # enabled submit buttons


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.open: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.open = Form(found.get("action", ""), found.get("id", ""), "data-next" in found)
            self.forms.append(self.open)
            return
        name, kind = found.get("name", ""), found.get("type", "")
        if self.open is None or not name or "disabled" in found:
            return
        if tag == "input" and (kind in ("hidden", "text", "") or "checked" in found):
            self.open.fields[name] = found.get("value", "")
        elif tag == "button" and kind in ("submit", ""):
            self.open.buttons.append((name, found.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.open = None


def forms_of(page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


def text_of(answer: Answer) -> str:
    """The body as the browser reads it (pages go out compressed)."""
    body, coding = answer.body, answer.headers.get("content-encoding", "")
    if coding == "gzip":
        body = gzip.decompress(body)
    elif coding == "deflate":
        body = zlib.decompress(body)
    elif coding == "br":
        import brotli  # noqa: PLC0415  (Flask-Compress's, only when the server chose it)

        body = brotli.decompress(body)
    elif coding == "zstd":
        from backports import zstd  # noqa: PLC0415  (Flask-Compress's before Python 3.14)

        body = zstd.decompress(body)
    elif coding:
        raise RuntimeError(f"a page in an encoding the bench cannot read: {coding}")
    return body.decode()


@dataclass
class Plan:
    """How a round goes: the bids, and the tricks (None: everyone made their bid)."""

    bids: list[int]
    tricks: list[int] | None
    counted: int = 0  # trick counts tapped


class Phone:
    """One table's scorekeeper: the phone's cookies, the screen it shows, what it was told."""

    def __init__(self, pool: Pool, rng: random.Random, players: list[str]) -> None:
        self.pool = pool
        self.rng = rng
        self.players = players
        self.cookies: dict[str, str] = {}
        self.lock = asyncio.Lock()  # a tap waits for the last one's screen, as on the phone
        self.game_id = ""
        self.url = ""  # the address bar
        self.forms: list[Form] = []
        self.version = -1  # the game's version on the screen shown
        self.told: dict[int, list[Any]] = {}  # round: [trump turned, bids, tricks once scored]
        self.plans: dict[int, Plan] = {}
        self.stale = False  # the last tap failed: the screen shown may not be the game's

    # -- requests ------------------------------------------------------------------------

    def _headers(self, source: str | None) -> dict[str, str]:
        """A navigation's headers, or (``source``: the form's htmx name) a boosted form's."""
        headers = dict(BROWSER)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if source is None:
            return headers | {"Accept": "text/html,application/xhtml+xml"}
        here = f"http://127.0.0.1:{self.pool.port}{self.url}"
        # htmx 4's own headers for a boosted form (its target is the body), and fetch's.
        return headers | {
            "Accept": "text/html",
            "HX-Request": "true",
            "HX-Source": source,
            "HX-Current-URL": here,
            "HX-Boosted": "true",
            "HX-Target": "body",
            "HX-Request-Type": "full",
            "Origin": f"http://127.0.0.1:{self.pool.port}",
            "Referer": here,
        }

    async def _send(self, method: str, path: str, source: str | None, form: Any = None) -> Answer:
        answer = await self.pool.request(method, path, self._headers(source), form=form)
        for cookie in answer.cookies:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            if "max-age=0" in cookie.lower() or not value:
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value
        return answer

    def _show(self, answer: Answer, where: str) -> None:
        self.url = where
        self.forms = forms_of(text_of(answer))
        versions = [f.fields["version"] for f in self.forms if "version" in f.fields]
        self.version = int(versions[0]) if versions else self.version

    async def _follow(self, answer: Answer, source: str | None) -> Answer:
        """Where a redirect leads, as fetch follows it (a GET with the same headers)."""
        while answer.status in (302, 303):
            where = answer.headers["location"]
            answer = await self._send("GET", where, source)
            self.url = where
        return answer

    async def start(self) -> str:
        """A new game through the new-game page; its id. The phone then shows round 1."""
        page = await self._send("GET", "/games/new", None)
        self.url = "/games/new"
        setup = next((f for f in forms_of(text_of(page)) if "form_id" in f.fields), None)
        if page.status != 200 or setup is None:
            raise RuntimeError(f"GET /games/new: {page.status}, no new-game form")
        data = dict(setup.fields)
        data |= {f"names-{seat}": name for seat, name in enumerate(self.players)}
        data |= {"first_dealer": "0", "bid_rule": "standard", "bid_reveal": "open"}
        data |= {"rounds": "full", "action": "start"}
        answer = await self._send("POST", setup.action, "form", data)
        if answer.status != 303:
            raise RuntimeError(f"POST /games/new: {answer.status} {answer.body[:200]!r}")
        self.game_id = answer.headers["location"].rstrip("/").rsplit("/", 1)[-1]
        answer = await self._follow(answer, "form")
        if answer.status != 200:
            raise RuntimeError(f"the first round screen: {answer.status}")
        self._show(answer, self.url)
        self.told, self.plans = {}, {}
        return self.game_id

    async def reload(self) -> None:
        """The game's page again (after a tap that failed): its current screen."""
        answer = await self._follow(await self._send("GET", f"/games/{self.game_id}", None), None)
        if answer.status != 200:
            raise RuntimeError(f"GET the game: {answer.status}")
        self._show(answer, self.url)

    # -- taps ----------------------------------------------------------------------------

    def next_tap(self) -> tuple[Form, tuple[str, str]] | None:
        """The form and button the keeper taps next on this screen; None once the game is
        over (no step of a round left on it)."""
        by_action: dict[str, list[Form]] = {}
        for form in self.forms:
            by_action.setdefault(form.fields.get("action", ""), []).append(form)
        number = self.round
        if "trump" in by_action:
            form = by_action["trump"][0]
            turned = [b for b in form.buttons if b[0] == "turned" and b[1] in TURNED]
            return form, self.rng.choice(turned)
        if bids := by_action.get("bid"):
            form = next((f for f in bids if f.next), bids[0])
            cards = max(int(value) for f in bids for _, value in f.buttons)
            plan = self.plans.setdefault(number, self._plan(cards))
            seat = int(form.fields["seat"])
            values = [value for _, value in form.buttons]
            if str(plan.bids[seat]) not in values:  # a bid the rule forbids: another one
                plan.bids[seat], plan.tricks = int(self.rng.choice(values)), None
            return form, ("value", str(plan.bids[seat]))
        if "score" in by_action:
            counts = by_action.get("tricks", [])
            plan = self.plans.setdefault(number, self._plan(len(counts[0].buttons) - 1))
            if plan.tricks is None and "all_made" in by_action and plan.counted == 0:
                return by_action["all_made"][0], ("", "")
            if plan.tricks is None:
                plan.tricks = self._split(len(counts[0].buttons) - 1)
            if plan.counted < len(counts) - 1:  # top to bottom; the last filled from the sum
                row = counts[plan.counted]
                return row, ("value", str(plan.tricks[int(row.fields["seat"])]))
            return by_action["score"][0], ("", "")
        return None

    def _split(self, cards: int) -> list[int]:
        tricks = [0] * len(self.players)
        for _ in range(cards):
            tricks[self.rng.randrange(len(tricks))] += 1
        return tricks

    def _plan(self, cards: int) -> Plan:
        if self.rng.random() < MADE:
            return Plan(self._split(cards), None)
        return Plan([self.rng.randint(0, cards) for _ in self.players], self._split(cards))

    @property
    def round(self) -> int:
        path = self.url.split("#", 1)[0].split("?", 1)[0]
        return int(path.rsplit("/rounds/", 1)[1]) if "/rounds/" in path else 0

    async def tap(self, form: Form, button: tuple[str, str]) -> Answer:
        """Send the form with ``button`` tapped; the screen the answer shows is shown."""
        data = dict(form.fields)
        if button[0]:
            data[button[0]] = button[1]
        source = f"form#{form.id}" if form.id else "form"
        number = self.round
        answer = await self._send("POST", form.action, source, data)
        if answer.status in (302, 303):
            raise OldServer(
                f"a tap answered {answer.status} (a redirect): this server predates "
                "'Every tap counts once'; measure it with --keeper api"
            )
        if answer.status != 200:
            raise RuntimeError(f"tap {data.get('action')}: {answer.status} {answer.body[:120]!r}")
        self._show(answer, answer.headers.get("hx-replace-url", self.url))
        self._record(number, data)
        return answer

    def _record(self, number: int, data: dict[str, str]) -> None:
        """What the keeper was told by an accepted tap."""
        told = self.told.setdefault(number, [None, [None] * len(self.players), None])
        plan = self.plans.get(number)
        action = data.get("action")
        if action == "trump":
            told[0] = data["turned"]
        elif action == "bid":
            told[1][int(data["seat"])] = int(data["value"])
        elif action == "tricks" and plan is not None:
            plan.counted += 1
        elif action == "all_made":
            told[2] = list(told[1])
        elif action == "score" and plan is not None and plan.tricks is not None:
            told[2] = list(plan.tricks)  # the last count filled in from the sum

    def facts(self) -> list[tuple[Any, ...]]:
        """What the keeper was told, round by round (the rounds it tapped on)."""
        return [
            (n, t[0], list(t[1]), list(t[2]) if t[2] is not None else None)
            for n, t in sorted(self.told.items())
        ]


def stored_facts(game: dict[str, Any], told: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The stored game seen as its keeper saw it: the rounds it tapped on, the trump where it
    chose one, the tricks once it scored."""
    rounds = {r["number"]: r for r in game["rounds"]}
    seen = []
    for number, turned, told_bids, tricks in told:
        stored = rounds.get(number, {})
        trump = stored.get("trump") or {}
        bids = stored.get("bids") or [None] * len(told_bids)
        seen.append(
            (
                number,
                trump.get("turned") if turned is not None else None,
                bids,
                stored.get("tricks") if tricks is not None else None,
            )
        )
    return seen
