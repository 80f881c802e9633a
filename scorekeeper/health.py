"""``GET /healthz`` answers without touching the database: for a load balancer's health
check, and the no-op route the benchmarks measure the app's other requests against."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """The process is up and serving requests."""
    response = jsonify(status="ok")
    response.headers["Cache-Control"] = "no-store"
    return response
