"""The committed migrations build exactly the schema the models declare, on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from flask.testing import FlaskCliRunner
from flask_migrate import downgrade, upgrade
from sqlalchemy import select
from sqlalchemy.dialects import sqlite

from scorekeeper.extensions import db, migrate
from scorekeeper.models import ChangeRow
from scorekeeper.services import games, rounds, sharing, undo

from ..conftest import make_app
from ..factory import seed

# The outcome depends on the backend: run on both (docs/development.md).
pytestmark = pytest.mark.both_backends


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    """An engine of its own on the test database (the app's engine stays untouched)."""
    engine = sa.create_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def fresh_sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty SQLite file: no tables, no migration run yet."""
    app = make_app(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    yield app
    with app.app_context():
        db.engine.dispose()


def schema_differences(engine: sa.Engine, metadata: sa.MetaData = db.metadata) -> list[Any]:
    """What autogenerate would put in a new migration: empty when models and database agree."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences: list[Any] = compare_metadata(context, metadata)
    return differences


def check_constraint_names(engine: sa.Engine) -> dict[str, set[str]]:
    """Check constraints by table, as the database has them (autogenerate does not compare them)."""
    inspector = sa.inspect(engine)
    return {
        table: {str(check["name"]) for check in inspector.get_check_constraints(table)}
        for table in db.metadata.tables
    }


def head_revision(app: Flask) -> str:
    with app.app_context():
        head = ScriptDirectory.from_config(migrate.get_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: sa.Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def user_tables(engine: sa.Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names()) - {"alembic_version"}


def test_migrated_schema_matches_the_models(app: Flask, engine: sa.Engine) -> None:
    assert current_revision(engine) == head_revision(app)
    assert schema_differences(engine) == []
    assert check_constraint_names(engine) == {
        name: {
            str(constraint.name)
            for constraint in table.constraints
            if isinstance(constraint, sa.CheckConstraint)
        }
        for name, table in db.metadata.tables.items()
    }


def test_the_comparison_notices_drift(engine: sa.Engine) -> None:
    # A model with a column the migrations lack, and a column type changed, must not pass.
    drifted = sa.MetaData(naming_convention=db.metadata.naming_convention)
    for table in db.metadata.sorted_tables:
        table.to_metadata(drifted)
    drifted.tables["games"].append_column(sa.Column("nickname", sa.String(40), nullable=True))
    players = drifted.tables["players"]
    players.c.name.type = sa.String(200)

    differences = schema_differences(engine, drifted)

    assert ("add_column", None, "games", drifted.tables["games"].c.nickname) in differences
    assert any(
        isinstance(change, list) and change[0][0] == "modify_type" and change[0][3] == "name"
        for change in differences
    ), differences


def test_fresh_sqlite_database_built_by_the_migrations_matches_the_models(
    fresh_sqlite_app: Flask,
) -> None:
    with fresh_sqlite_app.app_context():
        assert user_tables(db.engine) == set()
        upgrade()
        assert user_tables(db.engine) == set(db.metadata.tables)
        assert schema_differences(db.engine) == []


def test_downgrade_to_base_and_upgrade_again(app: Flask, engine: sa.Engine) -> None:
    with app.app_context():
        downgrade(revision="base")
        assert user_tables(engine) == set()
        assert current_revision(engine) is None
        upgrade()
        db.engine.dispose()
    assert user_tables(engine) == set(db.metadata.tables)
    assert current_revision(engine) == head_revision(app)
    assert schema_differences(engine) == []
    with app.app_context():
        created = games.create_game(["Ann", "Bob", "Cy"])
        assert games.get_game(created.game.id).version == 1


def test_cli_upgrade_creates_the_schema_then_does_nothing(fresh_sqlite_app: Flask) -> None:
    runner = fresh_sqlite_app.test_cli_runner()
    first = runner.invoke(args=["db", "upgrade"])
    assert first.exit_code == 0, first.output
    assert "Running upgrade  -> 0001_initial" in first.output
    with fresh_sqlite_app.app_context():
        assert user_tables(db.engine) == set(db.metadata.tables)
        game_id = games.create_game(["Ann", "Bob", "Cy"]).game.id

    again = runner.invoke(args=["db", "upgrade"])

    assert again.exit_code == 0, again.output
    assert "Running upgrade" not in again.output
    with fresh_sqlite_app.app_context():
        assert games.get_game(game_id).version == 1
        assert current_revision(db.engine) == head_revision(fresh_sqlite_app)
        assert schema_differences(db.engine) == []


def test_cli_upgrade_of_a_migrated_database_keeps_its_games(app: Flask) -> None:
    with app.app_context():
        game_id = games.create_game(["Ann", "Bob", "Cy"]).game.id

    for _ in range(2):
        result = app.test_cli_runner().invoke(args=["db", "upgrade"])
        assert result.exit_code == 0, result.output
        assert "Running upgrade" not in result.output

    with app.app_context():
        assert games.get_game(game_id).version == 1
        assert current_revision(db.engine) == head_revision(app)


def test_flask_db_upgrade_leaves_the_schema_at_the_newest_migration(
    app: Flask, runner: FlaskCliRunner
) -> None:
    # What `make run` does on every start: on a migrated database it changes nothing.
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        version = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert version == head_revision(app)


def test_no_index_or_check_is_built_on_lower() -> None:
    # On SQLite the app's lower() is Python's (database.py: it folds every alphabet). An index
    # or a CHECK built on lower() would be read another way by any other SQLite client.
    built = [
        str(sa.schema.CreateTable(table).compile(dialect=sqlite.dialect()))
        for table in db.metadata.tables.values()
    ]
    built += [
        str(sa.schema.CreateIndex(index).compile(dialect=sqlite.dialect()))
        for table in db.metadata.tables.values()
        for index in table.indexes
    ]
    assert len(built) > len(db.metadata.tables)  # the indexes are there
    assert [statement for statement in built if "lower(" in statement.lower()] == []


def _stack_columns(game_id: str) -> list[tuple[Any, ...]]:
    columns = (ChangeRow.kind, ChangeRow.below, ChangeRow.reverts, ChangeRow.reached)
    statement = select(*columns, ChangeRow.corrected_before).where(ChangeRow.game_id == game_id)
    return [tuple(row) for row in db.session.execute(statement.order_by(ChangeRow.id))]


def test_the_undo_stack_of_rows_written_before_it_is_filled_in_by_replaying_them(
    app: Flask,
) -> None:
    game = seed(app, played=[([0, 1, 0], [0, 1, 0]), ([1, 0, 1], [1, 0, 1])], rounds=3)
    with app.app_context():
        rounds.record_trump(game.id, game.token, 3, "red")
        rounds.correct_round(
            game.id, game.token, 1, turned="blue", chosen=None, bids=[0, 1, 0], tricks=[0, 1, 0]
        )
        for tap in (undo.undo, undo.undo, undo.redo, undo.undo):
            tap(game.id, game.token)
        rounds.record_trump(game.id, game.token, 3, "green")
        undo.undo(game.id, game.token)
        written = _stack_columns(game.id)
        found = undo.reversible(games.get_game(game.id))
        db.session.remove()
        downgrade(revision="0010_ended_grants")
        upgrade()
        assert _stack_columns(game.id) == written
        assert undo.reversible(games.get_game(game.id)) == found
    assert written[-1][0] == "undo"
    assert found.undo is not None
    assert found.redo is not None


def _hashes(table: str) -> set[tuple[str, str]]:
    column = "device_hash" if "grants" in table else "browser_hash"
    rows = db.session.execute(sa.text(f"SELECT {column}, game_id FROM {table}"))
    return {(str(hash_), str(game_id)) for hash_, game_id in rows}


def test_the_keepers_of_games_written_before_the_rename_keep_and_lose_what_they_had(
    app: Flask,
) -> None:
    old, new = sharing.Browser("the first phone"), sharing.Browser("the phone that took over")
    game = seed(app, browser=old)
    with app.app_context():
        sharing.redeem_handover(sharing.create_handover(game.id, old), new)
        db.session.remove()
        downgrade(revision="0011_undo_stack")
        assert _hashes("grants") == {(new.hash, game.id)}
        assert _hashes("ended_grants") == {(old.hash, game.id)}
        db.session.remove()
        upgrade()
        assert _hashes("keepers") == {(new.hash, game.id)}
        assert _hashes("ended_keepers") == {(old.hash, game.id)}
        assert sharing.is_keeper(game.id, new)
        assert not sharing.is_keeper(game.id, old)
        assert sharing.taken_over(game.id, old)
        rounds.record_trump(game.id, new, 1, "red")
        assert games.get_game(game.id).version == 2
