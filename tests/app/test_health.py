"""``GET /healthz``: the process answers, without asking the database."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from ..statements import count_statements


def test_healthz_answers_ok_in_json_without_a_query(app: Flask, client: FlaskClient) -> None:
    with count_statements(app) as statements:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store"
    assert statements == []
