"""No hidden value in any answer (issue 33, item 4; docs/hidden-bids.md).

Two games that differ only in their hidden bids (covered before every bid is in, secret
until the round is scored) must read alike everywhere, ids and times aside: the API, the
round screen and the other pages of the keeper's phone, the spectator's page, its
fragment and its stream, the sheet, the round's history, the exports (JSON and CSV, one
game and all of a phone's), the games list and the statistics. And every write they refuse
is refused in the same words, through the API, the services and the round screen: a refusal
speaks without the hidden values. (The writes accepted or refused on a hidden bid itself, the
dealer's bid under the bid rule, the Cloud's change, "everyone made their bid", may be
accepted in one game and refused in the other, as that document says; refused in both, they
say the same.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from difflib import unified_diff
from functools import partial
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.rules.messages import RuleError
from scorekeeper.rules.specials import CloudBid
from scorekeeper.services import games, rounds, specials, undo

from ..factory import Seeded, browser_of, seed
from ..keeper_phone import KeeperPhone

ROUNDS = 4
#: Rounds played before the one whose bids are hidden: bids and tricks, seat by seat (the
#: first three seats' or all four's; the bids never add up to the tricks).
PLAYED = [([0, 0, 0, 0], [0, 1, 0, 0]), ([1, 0, 0, 0], [2, 0, 0, 0]), ([1, 1, 0, 0], [1, 1, 1, 0])]
NAMES = ["Ann", "Bob", "Cy", "Dee"]


@dataclass(frozen=True)
class Table:
    """What the two games share: everything but the hidden bids."""

    mode: str
    bid_rule: str
    seats: int
    played: int
    #: The seats that have bid in the round being played (every seat: all bids in).
    bidders: tuple[int, ...]
    bomb: bool
    #: The winners of the tricks tallied so far, once every bid is in.
    tally: tuple[int, ...]
    #: The tricks tapped in, seat by seat (``None``: not yet), once every bid is in.
    drafts: tuple[int | None, ...]
    #: The Cloud's winner and whether they bid one more (``None``: no Cloud yet).
    cloud: tuple[int, bool] | None

    @property
    def number(self) -> int:
        """The round being played, whose bids are hidden."""
        return self.played + 1


@st.composite
def tables(draw: st.DrawFn) -> tuple[Table, list[int | None], list[int | None]]:
    """A table and the bids of the round being played in each of the two games."""
    mode = draw(st.sampled_from(["covered", "secret"]))
    seats = draw(st.integers(3, 4))
    played = draw(st.integers(0, len(PLAYED)))
    number = played + 1
    # Covered bids are hidden until every bid is in; secret ones until the round is scored.
    everyone = mode == "secret" and draw(st.booleans())
    bidders = (
        tuple(range(seats))
        if everyone
        else tuple(sorted(draw(st.sets(st.integers(0, seats - 1), min_size=1, max_size=seats - 1))))
    )
    seat = st.integers(0, seats - 1)
    counts = st.none() | st.integers(0, number)
    drafts = tuple(draw(counts) for _ in range(seats)) if everyone else (None,) * seats
    tally = tuple(draw(st.lists(seat, max_size=number - 1))) if everyone else ()
    cloud = draw(st.none() | st.tuples(seat, st.booleans())) if everyone else None
    table = Table(
        mode=mode,
        bid_rule=draw(st.sampled_from(["standard", "plus_minus_one"])),
        seats=seats,
        played=played,
        bidders=bidders,
        bomb=everyone and number > 1 and draw(st.booleans()),
        tally=tally,
        drafts=drafts,
        cloud=cloud,
    )
    bid = st.integers(0, number)
    first, second = (
        [draw(bid) if seat in bidders else None for seat in range(seats)] for _ in range(2)
    )
    return table, first, second


def _set_up(app: Flask, phone: FlaskClient, table: Table, bids: list[int | None]) -> Seeded | None:
    """The table's game kept by ``phone`` with ``bids`` hidden in its round being played
    (``None``: a write of the set-up was refused: the bids by the bid rule, the Cloud's
    change by the bid it changes, …)."""
    played = [(bids[: table.seats], tricks[: table.seats]) for bids, tricks in PLAYED]
    game = seed(
        app,
        NAMES[: table.seats],
        played[: table.played],
        browser=browser_of(phone),
        rounds=ROUNDS,
        bid_reveal=table.mode,
        bid_rule=table.bid_rule,
        special_cards=["bomb", "cloud"],
        next_trump="red",
    )
    at = (game.id, game.token, table.number)
    with app.app_context():
        try:
            rounds.record_bids(*at, bids)
            if table.bomb:
                specials.record_bomb(*at, True)
            for winner in table.tally:
                rounds.record_trick_winner(*at, winner)
            for seat, count in enumerate(table.drafts):
                if count is not None:
                    rounds.save_trick_draft(*at, seat, count)
            if table.cloud is not None:
                specials.record_cloud(*at, table.cloud[0], up=table.cloud[1])
        except RuleError:
            return None
    return game


# -- Reading ------------------------------------------------------------------------------

_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?")
_CLOCK = re.compile(r"\b\d{1,2}:\d\d(:\d\d)?\b")
_TIME_ELEMENT = re.compile(r"<time\b[^>]*>[^<]*</time>")
_DATE = re.compile(r"\b\d{1,2} [A-Z][a-z]{2} \d{4}\b|\b\d{4}-\d\d-\d\d\b")
_TOKEN = re.compile(r'(name="(?:csrf_token|form_id)"[^>]*value=")[^"]*')
_NONCE = re.compile(r'nonce="[^"]*"')
_TABLE_CODE = re.compile(r"\b\d{4} \d{4}\b")
_QR = re.compile(r'<path stroke="#000" d="[^"]*"/>')


def normalised(text: str, game: Seeded) -> str:
    """An answer with what may differ between any two games written the same: the game's
    id and token, times, the forms' tokens, the table code, the QR codes of links."""
    text = text.replace(game.id, "GAME").replace(game.token, "TOKEN")
    text = _TOKEN.sub(r"\1TOKEN", text)
    text = _NONCE.sub('nonce="NONCE"', text)
    text = _TABLE_CODE.sub("CODE", text)
    text = _QR.sub("QR", text)
    text = _TIME_ELEMENT.sub("<time>TIME</time>", text)
    text = _ISO_TIME.sub("TIME", text)
    text = _DATE.sub("DATE", text)
    return _CLOCK.sub("CLOCK", text)


def answer(response: TestResponse, game: Seeded) -> tuple[Any, ...]:
    """What a read answered, normalised: status, type, where it sends, the body."""
    location = response.headers.get("Location", "")
    body = response.get_data(as_text=True)
    return (
        response.status_code,
        response.mimetype,
        normalised(location, game),
        normalised(body, game),
    )


def first_event(client: FlaskClient, path: str) -> str:
    """The stream's first event (the page as it stands), the stream then left."""
    response = client.get(path, buffered=False)
    assert response.status_code == 200, path
    try:
        for piece in response.response:
            text = piece.decode() if isinstance(piece, bytes) else piece
            if "data: " in text:
                return str(text)
    finally:
        response.close()
    raise AssertionError(f"{path} sent nothing")


def reads(app: Flask, phone: FlaskClient, game: Seeded, table: Table) -> dict[str, Any]:
    """Every read of the game, by the phone that keeps it and by a spectator's."""
    spectator = app.test_client()
    number = table.number
    at = f"/games/{game.id}"
    api = f"/api/v1/games/{game.id}"
    bearer = {"Authorization": f"Bearer {game.token}"}
    screen = f"{at}/rounds/{number}"
    kept = [
        at,
        *(f"{at}/rounds/{other}" for other in range(1, ROUNDS + 1)),
        *(f"{screen}?{query}" for query in ("change=bids", "change=trump", "turned=wizard")),
        *(f"{screen}?seat={seat}" for seat in range(table.seats)),
        *(f"{at}/rounds/{other}/correct" for other in range(1, number + 1)),
        *(f"{at}/rounds/{other}/history" for other in range(1, number + 1)),
        f"{at}/sheet",
        f"{at}/referee",
        f"{at}/share",
        f"{at}/export.csv",
        f"{at}/export.json",
        "/export.json",
        "/",
        "/statistics",
        f"{at}/view",
        f"{at}/view/live",
    ]
    seen: dict[str, Any] = {f"keeper {path}": answer(phone.get(path), game) for path in kept}
    for path in (at, f"{at}/sheet", f"{at}/view", f"{at}/view/live", f"{at}/rounds/{number}"):
        seen[f"spectator {path}"] = answer(spectator.get(path), game)
    seen[f"spectator {at}/rounds/{number}/history"] = answer(
        spectator.get(f"{at}/rounds/{number}/history"), game
    )
    for path in (api, f"{api}/export"):
        seen[f"api {path}"] = answer(spectator.get(path), game)
        seen[f"api, keeping, {path}"] = answer(spectator.get(path, headers=bearer), game)
    version = spectator.get(api).get_json()["version"]
    for shown in ("", f"live-{version - 1}-en"):
        path = f"{at}/view/events?shown={shown}&parts=round"
        seen[f"stream {path}"] = (normalised(first_event(spectator, path), game),)
    return seen


# -- Refusals ------------------------------------------------------------------------------


def refusals(app: Flask, game: Seeded, table: Table) -> dict[str, Any]:
    """Writes through the API that each game refuses: their answers, normalised."""
    client = app.test_client()
    number, seats = table.number, table.seats
    bearer = {"Authorization": f"Bearer {game.token}"}
    api = f"/api/v1/games/{game.id}"
    writes: dict[str, tuple[str, str, Any]] = {
        "the next round's trump": ("PUT", f"rounds/{number + 1}/trump", {"turned": "blue"}),
        "the next round's bids": ("PUT", f"rounds/{number + 1}/bids", {"bids": [0] * seats}),
        "tricks that do not add up": (
            "PUT",
            f"rounds/{number}/tricks",
            {"tricks": [number + 1] + [0] * (seats - 1)},
        ),
        "tricks, one too many": (
            "PUT",
            f"rounds/{number}/tricks",
            {"tricks": [number, 1] + [0] * (seats - 2)},
        ),
        "tricks, too few": ("PUT", f"rounds/{number}/tricks", {"tricks": [0]}),
        "a bid out of range": (
            "PUT",
            f"rounds/{number}/bids",
            {"bids": [number + 1] + [None] * (seats - 1)},
        ),
        "a Wizard without a suit": ("PUT", f"rounds/{number}/trump", {"turned": "wizard"}),
        "a trick to no such seat": ("POST", f"rounds/{number}/tally", {"winner": seats}),
        "redo of nothing": ("POST", "redo", None),
    }
    said = {}
    for name, (method, path, body) in writes.items():
        response = client.open(f"{api}/{path}", method=method, json=body, headers=bearer)
        assert response.status_code >= 400, name
        said[name] = answer(response, game)
    return said


def _refusal(app: Flask, game: Seeded, number: int, write: Callable[[], object]) -> str | None:
    """The write's refusal in words; accepted (``None``), it is taken back again."""
    with app.app_context():
        before = games.get_game(game.id).drafts.get(number)
        try:
            write()
        except RuleError as refused:
            return str(refused)
        _take_back(game, number, before)
    return None


def _take_back(game: Seeded, number: int, drafts: tuple[int | None, ...] | None) -> None:
    """Undo the write just accepted, and put the counts tapped in back as they were (undoing
    a scoring leaves its tricks tapped in): the game reads as before, and the other game of
    the pair, which refused the write, reads the same."""
    undo.undo(game.id, game.token)
    now = games.get_game(game.id).drafts.get(number)
    for seat, count in enumerate(drafts or (None,) * len(now or ())):
        if now is not None and now[seat] != count:
            rounds.save_trick_draft(game.id, game.token, number, seat, count)


def hidden_writes(game: Seeded, table: Table) -> list[tuple[str, Callable[[], object]]]:
    """Writes accepted or refused on a hidden bid itself: the dealer's bid (the bid rule
    looks at the others' hidden bids), the Cloud's change, "everyone made their bid"."""
    at = (game.id, game.token, table.number)
    dealer = (table.number - 1) % table.seats  # the first dealer is seat 0
    writes: list[tuple[str, Callable[[], object]]] = [
        (f"the dealer bids {bid}", partial(rounds.record_bid, *at, dealer, bid))
        for bid in range(table.number + 1)
    ]
    writes += [
        (
            f"the Cloud, seat {seat} {'up' if up else 'down'}",
            partial(specials.record_cloud, *at, seat, up=up),
        )
        for seat in range(table.seats)
        for up in (False, True)
    ]
    tricks = [table.number - table.bomb] + [0] * (table.seats - 1)
    writes += [
        (
            f"tricks, the Cloud changing seat {seat}'s bid to {bid}",
            partial(rounds.record_tricks, *at, tricks, bomb=table.bomb, cloud=CloudBid(seat, bid)),
        )
        for seat in range(table.seats)
        for bid in range(table.number + 2)
    ]
    writes.append(("everyone made their bid", partial(rounds.score_round, *at, all_made=True)))
    return writes


def same_refusals(app: Flask, first: Seeded, second: Seeded, table: Table) -> None:
    """The hidden writes tried on both games (one accepted is undone again): those both
    refuse, refused in the same words."""
    for (name, once), (_, twice) in zip(
        hidden_writes(first, table), hidden_writes(second, table), strict=True
    ):
        said = _refusal(app, first, table.number, once), _refusal(app, second, table.number, twice)
        if None not in said:
            assert said[0] == said[1], name


def same_taps(
    app: Flask, phones: tuple[FlaskClient, ...], pair: tuple[Seeded, ...], table: Table
) -> None:
    """The round screen's taps that write on a hidden bid, by each keeper's phone, in turn
    until one game accepts one (taken back again, it leaves a redo the other game has not):
    refused by both, the screens they answer with are the same."""
    dealer = (table.number - 1) % table.seats
    taps: dict[str, dict[str, Any]] = {
        "everyone made their bid": {"action": "all_made"},
        "score": {"action": "score"},
        **{
            f"the dealer bids {bid}": {"action": "bid", "seat": dealer, "value": bid}
            for bid in range(table.number + 1)
        },
    }
    keepers = [KeeperPhone(phone) for phone in phones]
    for keeper_phone, game in zip(keepers, pair, strict=True):
        keeper_phone.game_id = game.id
    for name, fields in taps.items():
        with app.app_context():
            before = {game.id: games.get_game(game.id).drafts.get(table.number) for game in pair}
        answers = [keeper_phone.tap(table.number, **fields) for keeper_phone in keepers]
        accepted = [response.status_code == 303 for response in answers]
        if any(accepted):
            with app.app_context():
                for game, undone in zip(pair, accepted, strict=True):
                    if undone:
                        _take_back(game, table.number, before[game.id])
            return
        same(
            *({name: answer(response, game)} for response, game in zip(answers, pair, strict=True))
        )


# Each example plays two games and reads some forty answers of each (about a second): an
# eighth of the profile's examples, and no shrinking, which took minutes here; a failure
# names the read or the refusal and shows the table drawn.
@settings(
    max_examples=max(5, settings().max_examples // 8),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(drawn=tables())
def test_two_games_that_differ_only_in_hidden_bids_read_alike(
    app: Flask, drawn: tuple[Table, list[int | None], list[int | None]]
) -> None:
    table, first_bids, second_bids = drawn
    app.config["LIVE_STREAM_SECONDS"] = 0.05
    phones = (app.test_client(), app.test_client())
    first = _set_up(app, phones[0], table, first_bids)
    second = _set_up(app, phones[1], table, second_bids)
    assume(first is not None)  # the bid rule refused neither game's bids
    assume(second is not None)
    assert first is not None
    assert second is not None
    same(reads(app, phones[0], first, table), reads(app, phones[1], second, table))
    same(refusals(app, first, table), refusals(app, second, table))
    same_taps(app, phones, (first, second), table)
    same_refusals(app, first, second, table)


def same(first: dict[str, Any], second: dict[str, Any]) -> None:
    """Each answer the same in both games, read by read (named by its address, the game's
    id left out)."""
    assert len(first) == len(second)
    for (name, seen), (_, other) in zip(first.items(), second.items(), strict=True):
        lines = ["\n".join(map(str, part)).splitlines() for part in (seen, other)]
        assert seen == other, f"{name}:\n" + "\n".join(list(unified_diff(*lines, n=1))[:40])
