"""The spectator page's stream (push.py, web/live.py): each follower is sent the fragment of
every new version, whichever worker or server made the write, within the sweep's period;
nothing while the page shows the current version; the end of a game that is gone; and one
statement per sweep, however many phones follow."""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import cache

from ..api_client import ApiClient
from ..keeper_phone import words
from ..statements import count_statements
from .test_web_live import PLAYERS, two_apps

#: Fast enough for a test: a sweep every 50 ms, a stream of at most 2 s.
FAST = {"LIVE_CHECK_SECONDS": 0.05, "LIVE_STREAM_SECONDS": 2}


def events_path(game_id: str, shown: str = "", parts: str = "") -> str:
    asked = {"shown": shown, "parts": parts}
    query = urlencode({name: value for name, value in asked.items() if value})
    return f"/games/{game_id}/view/events" + (f"?{query}" if query else "")


def events(client: FlaskClient, path: str, **headers: str) -> Iterator[dict[str, str]]:
    """The stream's events as they arrive: each a dict of its fields (``data`` joined)."""
    answer = client.get(path, headers=headers, buffered=False)
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-cache"
    try:
        for piece in answer.response:
            text = piece.decode() if isinstance(piece, bytes) else piece
            for block in text.split("\n\n"):
                fields: dict[str, str] = {}
                for line in block.splitlines():
                    name, _, value = line.partition(": ")
                    fields[name] = f"{fields[name]}\n{value}" if name in fields else value
                if fields.keys() & {"data", "event"}:  # not a comment, nor the retry time
                    yield fields
    finally:
        answer.close()


def later(seconds: float, action: object) -> None:
    """Run ``action()`` in ``seconds``, on another thread (while the stream is read here)."""
    threading.Timer(seconds, action).start()  # type: ignore[arg-type]


@pytest.mark.both_backends
def test_a_follower_is_sent_each_write_made_on_another_worker(database_url: str) -> None:
    with two_apps(database_url, **FAST) as (writer, reader):
        api = ApiClient(writer.test_client())
        game = api.create(PLAYERS)
        game_id = game["id"]
        shown = f"live-{game['version']}-en"
        stream = events(reader.test_client(), events_path(game_id, shown))
        later(0.2, lambda: api.trump(game_id, 1, "red"))
        first = next(stream)
        assert first["id"] == f"live-{game['version'] + 1}-en"
        assert "Trump: red Dwarves" in words(first["data"])
        later(0.2, lambda: api.bids(game_id, 1, [0, 1, 0]))
        second = next(stream)
        assert second["id"] == f"live-{game['version'] + 2}-en"
        assert "The tricks are being played." in words(second["data"])


def test_a_page_that_shows_the_current_version_is_sent_nothing_until_a_change(
    app: Flask, api: ApiClient
) -> None:
    app.config.update(FAST | {"LIVE_STREAM_SECONDS": 0.5})
    game = api.create(PLAYERS)
    current = f"live-{game['version']}-en"
    assert list(events(app.test_client(), events_path(game["id"], current))) == []
    # Connecting again names the last event's id, which wins over the page's.
    older = f"live-{game['version'] - 1}-en" if game["version"] else "none"
    again = events(app.test_client(), events_path(game["id"], older), **{"Last-Event-ID": current})
    assert list(again) == []


def test_a_page_behind_is_sent_the_current_version_at_once(app: Flask, api: ApiClient) -> None:
    app.config.update(FAST)
    game_id = api.create(PLAYERS)["id"]
    shown = f"live-{api.get(game_id)['version']}-en"
    api.trump(game_id, 1, "blue")
    stream = events(app.test_client(), events_path(game_id, shown), **{"Accept-Language": "de"})
    first = next(stream)
    assert first["id"] == f"live-{api.get(game_id)['version']}-de"
    assert "Trumpf: ● blaue Menschen" in words(first["data"])


def test_a_deleted_game_ends_the_stream_with_a_sentence(app: Flask, api: ApiClient) -> None:
    app.config.update(FAST)
    game = api.create(PLAYERS)
    shown = f"live-{game['version']}-en"
    stream = events(app.test_client(), events_path(game["id"], shown))
    later(
        0.2,
        lambda: api.client.delete(f"/api/v1/games/{game['id']}", headers=api.headers(game["id"])),
    )
    gone = list(stream)
    assert "There is no game with this id." in words(gone[0]["data"])
    assert gone[1] == {"event": "gone"}
    answer = app.test_client().get(events_path(game["id"]))
    assert answer.status_code == 404
    assert "There is no game with this id." in answer.get_data(as_text=True)


@pytest.mark.both_backends
def test_one_statement_a_sweep_however_many_phones_follow(app: Flask, api: ApiClient) -> None:
    app.config.update(FAST | {"LIVE_STREAM_SECONDS": 1})
    game = api.create(PLAYERS)
    shown = f"live-{game['version']}-en"
    with count_statements(app) as statements:
        readers = [
            threading.Thread(
                target=lambda: list(events(app.test_client(), events_path(game["id"], shown)))
            )
            for _ in range(6)
        ]
        started = time.monotonic()
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        sweeps = (time.monotonic() - started) / FAST["LIVE_CHECK_SECONDS"]
    # Each stream reads the version once as it connects; then one statement a sweep.
    assert len(statements) <= 6 + sweeps + 1
    assert len(statements) < 6 * sweeps / 2


def test_a_closed_app_sweeps_no_more(app: Flask, api: ApiClient) -> None:
    app.config.update(FAST)
    game = api.create(PLAYERS)
    stream = events(app.test_client(), events_path(game["id"], f"live-{game['version']}-en"))
    reader = threading.Thread(target=lambda: list(stream))
    reader.start()  # a phone follows the game: the sweep runs
    time.sleep(0.2)
    app.extensions["push"].close()
    with count_statements(app) as statements:
        time.sleep(5 * FAST["LIVE_CHECK_SECONDS"])
        assert reader.is_alive()  # the phone still follows, and nothing sweeps for it
    reader.join()
    assert statements == []


def test_an_address_holds_only_so_many_streams_at_once(app: Flask, api: ApiClient) -> None:
    app.config.update(FAST | {"RATELIMIT_LIVE_STREAMS": 2})
    path = events_path(api.create(PLAYERS)["id"])
    client = app.test_client()
    held = [client.get(path, buffered=False) for _ in range(2)]
    assert [answer.status_code for answer in held] == [200, 200]
    refused = client.get(path, headers={"Accept-Language": "de"})
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "30"
    assert (
        "Von deiner Adresse aus sind zu viele Live-Ansichten zugleich offen. "
        "Versuch es in 30 Sekunden noch einmal." in words(refused.get_data(as_text=True))
    )
    # Another address is let in; and once a stream ends, this address is let in again. (A
    # stream holds its request's context on this thread: they are closed last one first.)
    elsewhere = client.get(path, buffered=False, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert elsewhere.status_code == 200
    elsewhere.close()
    held.pop().close()
    again = client.get(path, buffered=False)
    assert again.status_code == 200
    again.close()
    held.pop().close()


def test_a_worker_holds_only_its_ceiling_of_streams_from_all_addresses(
    app: Flask, api: ApiClient
) -> None:
    app.config.update(FAST | {"LIVE_STREAMS_PER_WORKER": 2, "RATELIMIT_ENABLED": False})
    path = events_path(api.create(PLAYERS)["id"])
    client = app.test_client()
    held = [
        client.get(path, buffered=False, environ_base={"REMOTE_ADDR": f"192.0.2.{host}"})
        for host in (1, 2)
    ]
    assert [answer.status_code for answer in held] == [200, 200]
    # A third phone, from an address of its own, is refused at once: no statement is run.
    with count_statements(app) as statements:
        refused = client.get(
            path, headers={"Accept-Language": "de"}, environ_base={"REMOTE_ADDR": "192.0.2.3"}
        )
    assert statements == []
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "60"
    assert (
        "Dieser Server schickt so vielen Handys Live-Updates, wie er kann. "
        "Versuch es in 1 Minute noch einmal." in words(refused.get_data(as_text=True))
    )
    held.pop().close()  # one phone leaves: its place is free for the next
    again = client.get(path, buffered=False, environ_base={"REMOTE_ADDR": "192.0.2.3"})
    assert again.status_code == 200
    again.close()
    held.pop().close()


def test_without_rate_limits_an_address_holds_any_number_of_streams(
    app: Flask, api: ApiClient
) -> None:
    app.config.update(FAST | {"RATELIMIT_LIVE_STREAMS": 1, "RATELIMIT_ENABLED": False})
    path = events_path(api.create(PLAYERS)["id"])
    held = [app.test_client().get(path, buffered=False) for _ in range(3)]
    assert [answer.status_code for answer in held] == [200, 200, 200]
    while held:
        held.pop().close()


SECTION = re.compile(r'<section class="current" id="current".*?</section>', re.S)
ROW = re.compile(r'<tr id="(round-\d+)".*?</tr>', re.S)


def patched(page: str, event: str) -> str:
    """The page with the event's round section and sheet row in place of its own, as the
    page's script puts them (each must have its place)."""
    page, found = SECTION.subn(lambda _: SECTION.findall(event)[0], page)
    assert found == 1
    rows = list(ROW.finditer(event))
    assert len(rows) == 1
    row = rows[0]
    place = re.compile(rf'<tr id="{row.group(1)}".*?</tr>', re.S)
    page, found = place.subn(lambda _: row.group(0), page)
    assert found == 1
    return page


def follow(
    app: Flask, game_id: str, shown: str, parts: str = "round"
) -> queue.Queue[dict[str, str]]:
    """The stream's events, as a page that puts rounds in place follows it, in a queue."""
    arrived: queue.Queue[dict[str, str]] = queue.Queue()
    stream = events(app.test_client(), events_path(game_id, shown, parts))
    threading.Thread(target=lambda: [arrived.put(event) for event in stream], daemon=True).start()
    return arrived


def test_a_follower_sent_only_the_round_sees_what_a_reload_shows(
    app: Flask, api: ApiClient
) -> None:
    app.config.update(FAST | {"LIVE_STREAM_SECONDS": 30})
    game = api.create(PLAYERS, rules={"rounds": 3})
    game_id = game["id"]
    spectator = app.test_client()

    def fresh() -> str:
        return spectator.get(f"/games/{game_id}/view/live").get_data(as_text=True).strip()

    page = fresh()
    arrived = follow(app, game_id, f"live-{game['version']}-en")
    kinds = []
    writes = [
        lambda: api.trump(game_id, 1, "red"),
        lambda: api.bids(game_id, 1, [None, 1, None]),  # one bid, then the others
        lambda: api.bids(game_id, 1, [0, 1, 0]),
        lambda: api.tricks(game_id, 1, [0, 1, 0]),  # scored: the totals change
        lambda: api.trump(game_id, 2, "blue"),
        lambda: api.bids(game_id, 2, [1, 0, 0]),
        lambda: api.tricks(game_id, 1, [1, 0, 0]),  # round 1 corrected: its row changes
        lambda: api.trump(game_id, 2, "green"),
    ]
    for write in writes:
        version = write()["version"]
        event = arrived.get(timeout=5)
        assert event["id"] == f"live-{version}-en"
        kinds.append(event.get("event", "whole"))
        if event.get("event") == "round":
            assert "Standings" not in words(event["data"])  # a fraction of the whole
            page = patched(page, event["data"])
        else:
            page = event["data"]
        assert page == fresh()
        cache.clear()  # long after: the stream still knows what its page shows
    # The round scored and the correction of an earlier round send the whole.
    assert kinds == ["round", "round", "round", "whole", "round", "round", "whole", "round"]


def test_a_page_that_cannot_put_a_round_in_place_is_sent_the_whole(
    app: Flask, api: ApiClient
) -> None:
    app.config.update(FAST)
    game = api.create(PLAYERS)
    app.test_client().get(f"/games/{game['id']}/view/live")  # its version is known
    arrived = follow(app, game["id"], f"live-{game['version']}-en", parts="")
    api.trump(game["id"], 1, "red")
    event = arrived.get(timeout=5)
    assert "event" not in event
    assert "Standings" in words(event["data"])


def test_a_tag_no_page_sends_is_the_whole_and_the_stream_goes_on(
    app: Flask, api: ApiClient
) -> None:
    app.config.update(FAST)
    game = api.create(PLAYERS)
    for shown in ["live-²-en", "live-" + "9" * 5000 + "-en", f"live-{game['version']}-xx"]:
        event = next(events(app.test_client(), events_path(game["id"], shown, "round")))
        assert event["id"] == f"live-{game['version']}-en"
        assert "Standings" in words(event["data"])
