"""Tablet of Truth: the scorekeeping companion for the card game Wizard."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from . import api
from . import config as settings
from .database import engine_options, init_engine, normalize_url
from .extensions import babel, csrf, db, migrate


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, error handlers."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    configure(app, config)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    return app


def configure(app: Flask, config: Mapping[str, Any] | None) -> None:
    """Settings from the environment, overridden by ``config`` (tests pass theirs)."""
    app.config.from_mapping(
        JSON_SORT_KEYS=False,
        BABEL_DEFAULT_LOCALE="en",
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.config.from_mapping(settings.from_environment(app.instance_path))
    if config:
        app.config.from_mapping(config)
        url = normalize_url(app.config["SQLALCHEMY_DATABASE_URI"])
        app.config["SQLALCHEMY_DATABASE_URI"] = url
        if "SQLALCHEMY_ENGINE_OPTIONS" not in config:
            app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(url)
    app.json.sort_keys = False  # type: ignore[attr-defined]


def register_extensions(app: Flask) -> None:
    """Bind the extensions to this app."""
    db.init_app(app)
    init_engine(app)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "..", "migrations"))
    babel.init_app(app)
    csrf.init_app(app)


def register_blueprints(app: Flask) -> None:
    """The JSON API (bearer tokens only, so it needs no CSRF token)."""
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp)


def register_errorhandlers(app: Flask) -> None:
    """Errors under /api/ answer in problem+json; the API module installs the handlers."""
    api.register_errorhandlers(app)
