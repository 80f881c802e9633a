"""Tablet of Truth: the scorekeeping companion for the card game Wizard."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import click
from flask import Flask, current_app, request, session

from . import address, api, assets, health, i18n, in_flight, push, pwa, security
from . import config as settings
from .database import init_engine
from .extensions import babel, cache, compress, csrf, db, migrate
from .services import history as history_service
from .web import common, games, referee, rounds, sharing
from .web import history as history_pages


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides the environment, its ``INSTANCE_PATH`` moves the
    instance folder (the default SQLite database and the generated secret key)."""
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
    register_commands(app)
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
    cache.init_app(app)
    push.init_app(app)
    security.init_app(app)
    assets.init_app(app)
    i18n.init_app(app)
    app.wsgi_app = in_flight.REQUESTS.counted(app.wsgi_app)  # type: ignore[assignment,method-assign]


def select_locale() -> str | None:
    """The language chosen in the menu, else the best for the browser's Accept-Language."""
    languages = current_app.config["LANGUAGES"]
    chosen = session.get(common.LANGUAGE_KEY)
    if isinstance(chosen, str) and chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages)


def register_blueprints(app: Flask) -> None:
    """The JSON API (bearer tokens only: no CSRF token) and the pages, a blueprint per area."""
    app.url_map.converters["round"] = api.RoundNumberConverter
    csrf.exempt(api.bp)
    for area in (api, health, games, rounds, referee, sharing, history_pages, pwa):
        app.register_blueprint(area.bp)


def register_errorhandlers(app: Flask) -> None:
    """Errors under /api/ answer in problem+json, errors of pages as pages."""
    api.register_errorhandlers(app, pages=common.error_page)


def register_commands(app: Flask) -> None:
    """The app's ``flask`` commands."""
    app.cli.add_command(address.address_command)

    @app.cli.command("purge-deleted")
    @click.option(
        "--days",
        default=history_service.RESTORE_DAYS,
        show_default=True,
        type=click.IntRange(min=0),
        help="Purge the games deleted more than this many days ago.",
    )
    def purge_deleted(days: int) -> None:
        """Delete for good the games deleted more than DAYS days ago (they can no longer be
        restored)."""
        count = history_service.purge_deleted(days)
        click.echo(f"Purged {count} deleted game{'' if count == 1 else 's'}.")
