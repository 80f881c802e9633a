"""The service layer, called directly: one transaction per use case, versions, tokens, locks."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import errors
from scorekeeper.extensions import db
from scorekeeper.rules.cards import Suit, TrumpCard, Turned
from scorekeeper.rules.game import GameStatus, GameView, RoundState
from scorekeeper.rules.messages import BidError, OutOfTurnError, RuleError, TrickError, TrumpError
from scorekeeper.rules.referee import verify_trump_turn
from scorekeeper.services import games, loading, rounds, sharing

from ..factory import PLAYERS, Seeded, play, seed

DATA_TABLES = {
    "games",
    "players",
    "rounds",
    "entries",
    "keepers",
    "ended_keepers",
    "handovers",
    "round_changes",
    "table_codes",
}
DERIVED_WORDS = ("score", "total", "standing", "rank", "winner", "point")


def read(app: Flask, game_id: str) -> loading.GameSnapshot:
    """The game as the database holds it, read in an app context (and session) of its own."""
    with app.app_context():
        return games.get_game(game_id)


@pytest.fixture
def game(app: Flask) -> Seeded:
    """A 3-player game: round 1 scored, round 2 with its trump and one bid of three."""
    return seed(
        app,
        played=[([0, 1, 0], [0, 1, 0])],
        turned="blue",
        next_trump="red",
        next_bids=[1, None, None],
    )


def sqlite_path(database_url: str) -> str:
    return database_url.removeprefix("sqlite:///")


# -- Versions ------------------------------------------------------------------------------


@pytest.mark.both_backends
def test_each_write_bumps_the_version_by_one_and_the_update_time(app: Flask) -> None:
    with app.app_context():
        created = games.create_game(PLAYERS, first_dealer=0)
        game = Seeded(created.game.id, created.edit_token)
        first = created.game
        writes: list[Callable[[], loading.GameSnapshot]] = [
            lambda: rounds.record_trump(game.id, game.token, 1, "wizard", "green"),
            lambda: rounds.record_bids(game.id, game.token, 1, [1, None, None]),
            lambda: rounds.record_bids(game.id, game.token, 1, [1, 0, 0]),
            lambda: rounds.record_trump(game.id, game.token, 1, "jester"),
            lambda: rounds.record_tricks(game.id, game.token, 1, [1, 0, 0]),
            lambda: rounds.correct_round(
                game.id,
                game.token,
                1,
                turned="red",
                chosen=None,
                bids=[0, 0, 0],
                tricks=[0, 0, 1],
            ),
        ]
    assert first.version == 1
    assert first.updated_at == first.created_at
    previous = first
    for write in writes:
        with app.app_context():
            snapshot = write()
        assert snapshot.version == previous.version + 1
        assert snapshot.updated_at > previous.updated_at
        assert snapshot.created_at == first.created_at
        assert read(app, game.id) == snapshot
        previous = snapshot
    assert previous.version == 1 + len(writes)


# -- Refused writes change nothing ---------------------------------------------------------

Refusal = Callable[[Seeded, str], object]

REFUSALS: dict[str, tuple[Refusal, type[Exception]]] = {
    "bid out of range": (
        lambda g, _other: rounds.record_bids(g.id, g.token, 2, [1, 3, None]),
        BidError,
    ),
    "bids of the wrong length": (
        lambda g, _other: rounds.record_bids(g.id, g.token, 2, [1, 0]),
        RuleError,
    ),
    "Wizard trump without a suit": (
        lambda g, _other: rounds.record_trump(g.id, g.token, 2, "wizard"),
        TrumpError,
    ),
    "tricks before every bid": (
        lambda g, _other: rounds.record_tricks(g.id, g.token, 2, [1, 1, 0]),
        OutOfTurnError,
    ),
    "trump of a round after an unscored one": (
        lambda g, _other: rounds.record_trump(g.id, g.token, 3, "blue"),
        OutOfTurnError,
    ),
    "tricks correction not adding up": (
        lambda g, _other: rounds.record_tricks(g.id, g.token, 1, [1, 1, 0]),
        TrickError,
    ),
    "correcting a round not scored": (
        lambda g, _other: rounds.correct_round(
            g.id, g.token, 2, turned="red", chosen=None, bids=[1, 0, 0], tricks=[1, 1, 0]
        ),
        OutOfTurnError,
    ),
    # The new trump is fine, the tricks are not: the trump must not stay changed either.
    "correction with a good trump and bad tricks": (
        lambda g, _other: rounds.correct_round(
            g.id, g.token, 1, turned="yellow", chosen=None, bids=[1, 0, 0], tricks=[1, 1, 1]
        ),
        TrickError,
    ),
    "stale If-Match": (
        lambda g, _other: rounds.record_trump(g.id, g.token, 2, "green", if_match={1, 4}),
        errors.StaleVersion,
    ),
    "another game's token": (
        lambda g, other: rounds.record_trump(g.id, other, 2, "green"),
        errors.TokenRejected,
    ),
    "no token": (
        lambda g, _other: rounds.record_trump(g.id, None, 2, "green"),
        errors.TokenMissing,
    ),
    "round beyond the game": (
        lambda g, _other: rounds.record_trump(g.id, g.token, 21, "green"),
        errors.RoundNotFound,
    ),
    "delete with a stale If-Match": (
        lambda g, _other: games.delete_game(g.id, g.token, if_match={2}),
        errors.StaleVersion,
    ),
    "delete with another game's token": (
        lambda g, other: games.delete_game(g.id, other),
        errors.TokenRejected,
    ),
}


@pytest.mark.both_backends
@pytest.mark.parametrize("case", REFUSALS)
def test_a_refused_write_changes_nothing(app: Flask, game: Seeded, case: str) -> None:
    refuse, error = REFUSALS[case]
    other = seed(app)
    before = read(app, game.id)
    assert before.version == 6

    with app.app_context(), pytest.raises(error):
        refuse(game, other.token)

    assert read(app, game.id) == before
    assert read(app, other.id).version == 1


def test_the_app_context_goes_on_after_a_refused_write(app: Flask, game: Seeded) -> None:
    # The session is usable after a refusal, and the next write starts from the stored facts.
    with app.app_context():
        with pytest.raises(TrickError):
            rounds.correct_round(
                game.id,
                game.token,
                1,
                turned="yellow",
                chosen=None,
                bids=[1, 0, 0],
                tricks=[1, 1, 1],
            )
        after = rounds.record_bids(game.id, game.token, 2, [1, 0, None])
    assert after.version == 7
    assert after.view.round(1).trump == TrumpCard(Turned.BLUE, Suit.BLUE)
    assert read(app, game.id) == after


# -- Tokens, unknown games and rounds ------------------------------------------------------


@pytest.mark.parametrize("token", [None, ""])
def test_a_write_without_a_token_is_refused(app: Flask, game: Seeded, token: str | None) -> None:
    with app.app_context():
        with pytest.raises(errors.TokenMissing):
            sharing.authorize(game.id, token)
        with pytest.raises(errors.TokenMissing):
            rounds.record_bids(game.id, token, 2, [1, 0, None])
        with pytest.raises(errors.TokenMissing):
            games.delete_game(game.id, token)


def test_a_token_of_another_game_or_a_made_up_one_is_rejected(app: Flask, game: Seeded) -> None:
    other = seed(app)
    with app.app_context():
        sharing.authorize(game.id, game.token)
        for token in (other.token, game.token + "x", game.token[:-1]):
            with pytest.raises(errors.TokenRejected):
                sharing.authorize(game.id, token)
            with pytest.raises(errors.TokenRejected):
                rounds.record_bids(game.id, token, 2, [1, 0, None])


def test_an_unknown_game_is_not_found(app: Flask, game: Seeded) -> None:
    with app.app_context():
        for game_id in ("no-such-game", game.id.upper(), ""):
            with pytest.raises(errors.GameNotFound):
                games.get_game(game_id)
            with pytest.raises(errors.GameNotFound):
                sharing.authorize(game_id, game.token)
            with pytest.raises(errors.GameNotFound):
                rounds.record_trump(game_id, game.token, 2, "green")


@pytest.mark.parametrize("number", [0, -1, 21, 1000])
def test_a_round_outside_the_game_is_not_found(app: Flask, game: Seeded, number: int) -> None:
    with app.app_context():
        with pytest.raises(errors.RoundNotFound) as raised:
            rounds.record_bids(game.id, game.token, number, [0, 0, 0])
        with pytest.raises(errors.RoundNotFound):
            rounds.correct_round(
                game.id,
                game.token,
                number,
                turned="red",
                chosen=None,
                bids=[0, 0, 0],
                tricks=[1, 0, 0],
            )
    assert f"rounds 1 to 20, so there is no round {number}" in str(raised.value)


# -- Corrections ---------------------------------------------------------------------------


def test_correct_round_replaces_trump_bids_and_tricks_at_once(app: Flask) -> None:
    game = seed(app)
    with app.app_context():
        play(game, 1, [0, 1, 0], [0, 1, 0])
        play(game, 2, [1, 1, 0], [1, 1, 0], turned="red")
        rounds.record_trump(game.id, game.token, 3, "green")
        before = games.get_game(game.id)

        after = rounds.correct_round(
            game.id,
            game.token,
            1,
            turned="wizard",
            chosen="yellow",
            bids=[1, 0, 0],
            tricks=[1, 0, 0],
        )

    assert after.version == before.version + 1
    corrected = after.view.round(1)
    assert corrected.trump == TrumpCard(Turned.WIZARD, Suit.YELLOW)
    assert corrected.bids == (1, 0, 0)
    assert corrected.tricks == (1, 0, 0)
    assert corrected.scores == [30, 20, 20]
    # Later rounds stay as recorded; their totals follow the correction.
    assert after.view.round(2).trump == before.view.round(2).trump
    assert after.view.round(2).bids == before.view.round(2).bids
    assert after.view.round(2).tricks == before.view.round(2).tricks
    assert after.view.round(2).scores == before.view.round(2).scores == [30, 30, 20]
    assert after.view.round(3).trump == before.view.round(3).trump
    assert after.view.round(3).state is RoundState.BIDDING
    assert after.view.round(2).totals_before == [30, 20, 20]
    assert after.view.totals == [60, 50, 40]
    assert read(app, game.id) == after


def test_correct_round_refuses_a_round_not_scored(app: Flask, game: Seeded) -> None:
    before = read(app, game.id)
    with app.app_context():
        for number in (2, 3):
            with pytest.raises(OutOfTurnError, match="not scored yet"):
                rounds.correct_round(
                    game.id,
                    game.token,
                    number,
                    turned="red",
                    chosen=None,
                    bids=[0, 0, 0],
                    tricks=[0, 0, number],
                )
    assert read(app, game.id) == before


def test_correct_round_of_the_round_that_deals_every_card(app: Flask) -> None:
    # Six players: round 10 deals all 60 cards, so it has no trump to correct.
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    game = seed(app, players, [([0] * 6, [n, 0, 0, 0, 0, 0]) for n in range(1, 10)])
    with app.app_context():
        rounds.record_bids(game.id, game.token, 10, [2, 2, 2, 2, 1, 0])
        scored = rounds.record_tricks(game.id, game.token, 10, [2, 2, 2, 2, 1, 1])
        assert scored.view.status is GameStatus.FINISHED

        with pytest.raises(OutOfTurnError):
            rounds.correct_round(
                game.id,
                game.token,
                10,
                turned="blue",
                chosen=None,
                bids=[2, 2, 2, 2, 1, 1],
                tricks=[2, 2, 2, 2, 1, 1],
            )
        corrected = rounds.correct_round(
            game.id,
            game.token,
            10,
            turned=None,
            chosen=None,
            bids=[2, 2, 2, 2, 1, 1],
            tricks=[2, 2, 2, 2, 1, 1],
        )

    assert corrected.version == scored.version + 1
    assert corrected.view.round(10).trump == TrumpCard.NO_CARD_LEFT
    assert corrected.view.round(10).scores == [40, 40, 40, 40, 30, 30]
    assert read(app, game.id) == corrected


def test_a_second_game_with_a_chosen_id_is_refused(app: Flask) -> None:
    with app.test_request_context():
        games.create_game(["Ann", "Bob", "Cy"], game_id="x" * 24)
        with pytest.raises(errors.GameExists):
            games.create_game(["Dan", "Eve", "Fay"], game_id="x" * 24)
        assert games.get_game("x" * 24).table.players == ("Ann", "Bob", "Cy")


# -- Deleting ------------------------------------------------------------------------------


def test_a_deleted_game_reads_and_writes_as_unknown(app: Flask, game: Seeded) -> None:
    other = seed(app)
    with app.app_context():
        assert games.delete_game(game.id, game.token, if_match={6}) is None
    with app.app_context():
        with pytest.raises(errors.GameNotFound):
            games.get_game(game.id)
        with pytest.raises(errors.GameNotFound):
            sharing.authorize(game.id, game.token)
        with pytest.raises(errors.GameNotFound):
            rounds.record_bids(game.id, game.token, 2, [1, 0, None])
        with pytest.raises(errors.GameNotFound):
            games.delete_game(game.id, game.token)
    assert read(app, other.id).version == 1


# -- What is stored ------------------------------------------------------------------------


def test_only_the_sha256_of_the_edit_token_is_stored(app: Flask, game: Seeded) -> None:
    assert len(game.token) >= 43  # 256 random bits, URL-safe base64
    assert len(game.id) >= 22  # 128 random bits
    with app.app_context():
        stored = {
            table: [tuple(row) for row in db.session.execute(sa.text(f"SELECT * FROM {table}"))]
            for table in sorted(DATA_TABLES)
        }
        token_hash = db.session.execute(
            sa.text("SELECT edit_token_hash FROM games WHERE id = :id"), {"id": game.id}
        ).scalar_one()
    assert token_hash == hashlib.sha256(game.token.encode()).hexdigest()
    assert stored["entries"], "the fixture's game has facts stored"
    for rows in stored.values():
        for row in rows:
            for value in row:
                assert game.token not in str(value)


def test_no_score_or_total_is_stored(app: Flask) -> None:
    model_columns = {
        f"{table.name}.{column.name}"
        for table in db.metadata.tables.values()
        for column in table.columns
    }
    with app.app_context():
        inspector = sa.inspect(db.engine)
        assert set(inspector.get_table_names()) - {"alembic_version"} == DATA_TABLES
        stored_columns = {
            f"{table}.{column['name']}"
            for table in DATA_TABLES
            for column in inspector.get_columns(table)
        }
    assert stored_columns == model_columns
    assert "entries.bid" in stored_columns
    assert "entries.tricks" in stored_columns
    derived = [name for name in stored_columns if any(w in name for w in DERIVED_WORDS)]
    assert derived == []


def test_foreign_keys_are_enforced(app: Flask) -> None:
    with app.app_context():
        with pytest.raises(sa.exc.IntegrityError):
            db.session.execute(
                sa.text("INSERT INTO players (game_id, seat, name) VALUES ('nope', 0, 'X')")
            )
        db.session.rollback()


# -- SQLite: WAL, foreign keys, IMMEDIATE writes -------------------------------------------


def test_sqlite_connections_use_wal_and_foreign_keys(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as first, db.engine.connect() as second:
        for connection in (first, second):
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 1000


def test_a_sqlite_write_holds_the_write_lock_from_its_start_while_reads_go_on(
    app: Flask, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = seed(app)
    seen: dict[str, object] = {}
    check_trump = verify_trump_turn

    def probe(view: GameView, number: int) -> None:
        # Called inside the write transaction, after the write has only read the game.
        other = sqlite3.connect(sqlite_path(database_url), timeout=0.05, isolation_level=None)
        try:
            try:
                other.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                seen["second writer"] = str(error)
            else:
                seen["second writer"] = "got the write lock"
                other.execute("ROLLBACK")
            seen["reader sees version"] = other.execute(
                "SELECT version FROM games WHERE id = ?", (game.id,)
            ).fetchone()[0]
        finally:
            other.close()
        check_trump(view, number)

    monkeypatch.setattr(rounds, "verify_trump_turn", probe)
    with app.app_context():
        written = rounds.record_trump(game.id, game.token, 1, "green")

    assert seen == {"second writer": "database is locked", "reader sees version": 1}
    assert written.version == 2
    assert read(app, game.id) == written


def test_a_sqlite_write_waits_for_another_writer_instead_of_failing(
    app: Flask, database_url: str
) -> None:
    game = seed(app)
    outcome: dict[str, object] = {}

    def write() -> None:
        with app.app_context():
            try:
                outcome["game"] = rounds.record_trump(game.id, game.token, 1, "green")
            except Exception as error:  # reported by the assertions below
                outcome["error"] = error

    other = sqlite3.connect(sqlite_path(database_url), isolation_level=None)
    thread = threading.Thread(target=write)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE games SET first_dealer = 1 WHERE id = ?", (game.id,))
        thread.start()
        thread.join(0.5)
        waited = thread.is_alive()
        read_meanwhile = read(app, game.id)
        other.execute("COMMIT")
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()
        thread.join(10)

    assert waited, "the service write did not wait for the other writer's lock"
    assert read_meanwhile.version == 1
    assert read_meanwhile.table.first_dealer == 0  # the other writer had not committed yet
    assert "error" not in outcome, outcome
    written = outcome["game"]
    assert isinstance(written, loading.GameSnapshot)
    assert written.version == 2
    assert written.table.first_dealer == 1  # the write read the game after the other's commit
    assert read(app, game.id) == written


@pytest.mark.postgres
def test_a_hand_over_link_asked_for_while_the_right_is_revoked_waits_and_is_refused(
    app: Flask, database_url: str
) -> None:
    browser = sharing.Browser("the-scorekeepers-phone")
    with app.app_context():
        game_id = games.create_game(PLAYERS, first_dealer=0, browser=browser).game.id
    outcome: dict[str, object] = {}

    def make_link() -> None:
        with app.app_context():
            try:
                outcome["token"] = sharing.create_handover(game_id, browser)
            except Exception as error:  # reported by the assertions below
                outcome["error"] = error

    # Another phone's "only this phone keeps score", caught between its lock and its commit.
    engine = sa.create_engine(database_url)
    thread = threading.Thread(target=make_link)
    try:
        with engine.connect() as revoker:
            lock = sa.text("SELECT id FROM games WHERE id = :g FOR UPDATE")
            revoker.execute(lock, {"g": game_id})
            revoker.execute(sa.text("DELETE FROM keepers WHERE game_id = :g"), {"g": game_id})
            thread.start()
            thread.join(0.5)
            waited = thread.is_alive()
            revoker.commit()
        thread.join(10)
        with engine.connect() as reader:
            links = reader.scalar(
                sa.text("SELECT count(*) FROM handovers WHERE game_id = :g"), {"g": game_id}
            )
    finally:
        engine.dispose()

    assert waited, "the hand-over link did not wait for the revocation's lock"
    assert isinstance(outcome.get("error"), errors.NotKeeper), outcome
    assert links == 0


# -- A write's answer is the game as stored ------------------------------------------------


def test_every_write_answers_the_game_as_read_afresh_through_corrections(app: Flask) -> None:
    """Each write answers the whole game as its stored facts give it: after corrections,
    take-backs, drafts and a round scored again (which move the totals and, under the
    Canadian rule, the forbidden bids of the rounds after them)."""
    game = seed(app, bid_rule="canadian")
    g, t = game.id, game.token
    writes: list[Callable[[], object]] = [
        lambda: play(game, 1, [1, 0, 0], [1, 0, 0], turned="red"),
        lambda: play(game, 2, [0, 1, 0], [1, 1, 0], turned="blue"),
        lambda: rounds.record_trump(g, t, 3, "green"),
        lambda: rounds.record_bids(g, t, 3, [1, None, None]),
        lambda: rounds.record_tricks(g, t, 1, [0, 1, 0]),  # a correction: every total moves
        lambda: rounds.record_bid(g, t, 3, 1, 2).game,
        lambda: rounds.record_bids(g, t, 2, [0, 1, 1]),  # a correction of round 2's bids
        lambda: rounds.record_tricks(g, t, 1, [1, 0, 0]),  # and round 1 back as it was
        lambda: rounds.record_bid(g, t, 3, 2, 0).game,
        lambda: rounds.save_trick_draft(g, t, 3, 0, 1),
        lambda: rounds.save_trick_draft(g, t, 3, 1, 2),
        lambda: rounds.score_round(g, t, 3),
        lambda: rounds.correct_round(
            g, t, 2, turned="wizard", chosen="yellow", bids=[0, 1, 0], tricks=[0, 2, 0]
        ),
    ]
    totals = set()
    for write in writes:
        with app.app_context():
            answer = write()
        assert isinstance(answer, loading.GameSnapshot)
        assert read(app, g) == answer
        totals.add(tuple(answer.view.totals))
    assert len(totals) >= 4  # the corrections did move the totals
    assert answer.corrected == {1, 2}
    assert answer.view.current_round == 4
