"""An import beside the other requests of its worker: gevent's workers run every request of a
worker on one thread, and a request that waits for the network (its own body, or PostgreSQL's
answer) runs again only when the import lets the worker look at its sockets."""

from __future__ import annotations

import gevent
import pytest
from flask import Flask
from flask.testing import FlaskClient
from gevent import socket

from scorekeeper import in_flight
from scorekeeper.services import importing

from ..api_client import ApiClient
from ..pages.test_history import game_count
from .test_import_limits import as_file, exported, many


def test_a_request_waiting_for_the_network_is_served_between_an_imports_games(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    document = as_file(many(exported(ApiClient(client)), 30))
    count = game_count(app)
    monkeypatch.setattr(in_flight, "let_others_run", gevent.idle)  # as in a gevent worker
    arrives, sends = socket.socketpair()
    importing_now = True
    request.addfinalizer(arrives.close)
    request.addfinalizer(sends.close)

    def another_request() -> bool:
        """Waits for its request to arrive; whether it was served while the import ran."""
        arrives.recv(1)
        return importing_now

    waiting = gevent.spawn(another_request)
    gevent.sleep(0)  # it waits on its socket
    sends.sendall(b"x")  # and its request arrives as the import begins
    with app.app_context():
        imported = importing.import_games(document)
    importing_now = False
    assert waiting.get(timeout=5) is True
    assert len(imported.created) == 30
    assert game_count(app) == count + 30
