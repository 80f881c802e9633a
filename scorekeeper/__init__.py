"""Tablet of Truth: the scorekeeping companion for the card game Wizard."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from flask_babel import get_locale

from . import api, assets, health, security, views
from . import config as settings
from .database import init_engine
from .extensions import babel, compress, csrf, db, migrate


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, error handlers.

    ``config`` overrides the environment; its ``INSTANCE_PATH`` moves the instance folder
    (where the default SQLite database and the generated secret key live).
    """
    app = Flask(
        __name__,
        instance_path=(config or {}).get("INSTANCE_PATH"),
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
    app.config.from_mapping(settings.build(app.instance_path, config))
    app.json.sort_keys = False  # type: ignore[attr-defined]


def register_extensions(app: Flask) -> None:
    """Bind the extensions to this app."""
    db.init_app(app)
    init_engine(app)
    migrate.init_app(app, db, directory=os.path.join(app.root_path, "..", "migrations"))
    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    compress.init_app(app)
    security.init_app(app)
    assets.read_static_files_whole(app)
    app.jinja_env.globals["asset"] = assets.asset_url
    app.jinja_env.globals["current_locale"] = lambda: str(get_locale() or "en")


def select_locale() -> str | None:
    """The best of the app's languages for the browser's Accept-Language."""
    return request.accept_languages.best_match(current_app.config["LANGUAGES"])


def register_blueprints(app: Flask) -> None:
    """The JSON API (bearer tokens only, so it needs no CSRF token) and the pages."""
    app.url_map.converters["round"] = api.RoundNumberConverter
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(views.bp)


def register_errorhandlers(app: Flask) -> None:
    """Errors under /api/ answer in problem+json, errors of pages as pages."""
    api.register_errorhandlers(app, pages=views.error_page)
