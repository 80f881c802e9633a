"""Tables: the recorded facts only. Scores, totals and standings are derived by the rules."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, ForeignKeyConstraint, Index, String, false
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import JSON

from .extensions import db
from .rules.cards import Suit, Turned
from .rules.table import NAME_MAX_LENGTH, search_key
from .rules.variants import BidReveal, BidRule, RoundPlan


def _one_of(column: str, values: type[StrEnum]) -> CheckConstraint:
    """The stored strings mirror the rules' enums, even against a write past the services."""
    quoted = ", ".join(f"'{value}'" for value in values)
    return CheckConstraint(f"{column} IN ({quoted})", name=column)


def _children(order_by: str) -> Any:
    """Rows owned by their parent, in order, deleted with it (by the database's cascade)."""
    return relationship(order_by=order_by, cascade="all, delete-orphan", passive_deletes=True)


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class GameRow(db.Model):  # type: ignore[name-defined,misc]
    """One game: its rules, first dealer, version and the hash of its edit token."""

    __tablename__ = "games"
    __table_args__ = (
        # The games list (newest activity first) and the purge of deleted games.
        Index("ix_games_updated_at", "updated_at"),
        Index("ix_games_deleted_at", "deleted_at"),
        _one_of("bid_rule", BidRule),
        _one_of("bid_reveal", BidReveal),
        _one_of("round_plan", RoundPlan),
        CheckConstraint("round_count >= 1", name="round_count"),
        CheckConstraint("first_dealer >= 0", name="first_dealer"),
        CheckConstraint("version >= 1", name="version"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: SHA-256 of the edit token, hex: the token itself is never stored.
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    #: Grows by one with every write; the ETag of the game.
    version: Mapped[int] = mapped_column(default=1)
    first_dealer: Mapped[int]
    bid_rule: Mapped[str] = mapped_column(String(16))
    last_bidder_may_bid_zero: Mapped[bool] = mapped_column(default=False)
    bid_reveal: Mapped[str] = mapped_column(String(8))
    clairvoyance: Mapped[bool] = mapped_column(default=False)
    #: Rounds to play: the full count or fewer.
    round_count: Mapped[int]
    #: Which hands the rounds deal: ``every_hand`` (1, 2, 3, ...) or ``odd_hands``.
    round_plan: Mapped[str] = mapped_column(String(16), default="every_hand")
    #: The special cards in the deck, their names comma-separated ("" for none).
    special_cards: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Set when the game is deleted; a deleted game reads as unknown.
    deleted_at: Mapped[datetime | None]

    players: Mapped[list[PlayerRow]] = _children("PlayerRow.seat")
    rounds: Mapped[list[RoundRow]] = _children("RoundRow.number")


#: Case folding writes a letter as up to three ("ΐ"): a name's key fits in three times its length.
SEARCH_NAME_LENGTH = 3 * NAME_MAX_LENGTH


def _search_name(context: Any) -> str:
    return search_key(str(context.get_current_parameters()["name"]))


class PlayerRow(db.Model):  # type: ignore[name-defined,misc]
    """A player by seat, clockwise from seat 0."""

    __tablename__ = "players"
    __table_args__ = (CheckConstraint("seat >= 0", name="seat"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    #: The name case-folded (:func:`rules.table.search_key`), what the games list searches:
    #: written with the name on every insert, by the ORM or a bulk insert alike.
    search_name: Mapped[str] = mapped_column(String(SEARCH_NAME_LENGTH), default=_search_name)


class RoundRow(db.Model):  # type: ignore[name-defined,misc]
    """A round that has facts: its trump (the card turned and the suit it gives)."""

    __tablename__ = "rounds"
    __table_args__ = (
        CheckConstraint("number >= 1", name="number"),
        _one_of("trump_turned", Turned),
        _one_of("trump_suit", Suit),
        CheckConstraint("cloud_bid >= 0", name="cloud_bid"),
        CheckConstraint("(cloud_seat IS NULL) = (cloud_bid IS NULL)", name="cloud"),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True)
    #: The card turned up; ``None`` until recorded.
    trump_turned: Mapped[str | None] = mapped_column(String(8), default=None)
    #: The trump suit; ``None`` for no trump.
    trump_suit: Mapped[str | None] = mapped_column(String(8), default=None)
    #: When the round was last written again after it had been scored; ``None``: never.
    corrected_at: Mapped[datetime | None]
    #: The winner of each trick tallied while the round is played, in order: a seat, or
    #: ``null`` for nobody (a Bomb's trick); ``None``: no trick tallied.
    tally: Mapped[list[int | None] | None] = mapped_column(JSON(none_as_null=True), default=None)
    #: Whether the Bomb was played (its trick goes to nobody).
    bomb: Mapped[bool] = mapped_column(default=False)
    #: The Cloud's change: the seat that won its trick and the bid it changed to.
    cloud_seat: Mapped[int | None] = mapped_column(default=None)
    cloud_bid: Mapped[int | None] = mapped_column(default=None)

    entries: Mapped[list[EntryRow]] = _children("EntryRow.seat")


class EntryRow(db.Model):  # type: ignore[name-defined,misc]
    """One player's facts in one round: the bid and the tricks won (``None``: not yet)."""

    __tablename__ = "entries"
    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "round_number"],
            ["rounds.game_id", "rounds.number"],
            ondelete="CASCADE",
            name="fk_entries_round",
        ),
        ForeignKeyConstraint(
            ["game_id", "seat"],
            ["players.game_id", "players.seat"],
            ondelete="CASCADE",
            name="fk_entries_player",
        ),
        # Statistics group a browser's entries by game and seat, with each round's number
        # (the pattern of exact bids): covered by this index, in its order.
        Index("ix_entries_game_seat_round", "game_id", "seat", "round_number", "bid", "tricks"),
        CheckConstraint("bid >= 0", name="bid"),
        CheckConstraint("tricks >= 0", name="tricks"),
        CheckConstraint("draft_tricks >= 0", name="draft_tricks"),
    )

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    round_number: Mapped[int] = mapped_column(primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    bid: Mapped[int | None]
    tricks: Mapped[int | None]
    #: Tricks tapped in on a phone while the round is played, before they add up and are
    #: saved as ``tricks``: kept so that a reload loses nothing. Never scored.
    draft_tricks: Mapped[int | None]


class KeeperRow(db.Model):  # type: ignore[name-defined,misc]
    """A keeper: a browser (by the hash of its cookie's key) that keeps the score of a game."""

    __tablename__ = "keepers"

    browser_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class EndedKeeperRow(db.Model):  # type: ignore[name-defined,misc]
    """A browser that kept the score of a game until another browser (or app) took it over:
    its next write is told so, and how to take the game back. A browser has a keeper row or an
    ended one for a game, never both."""

    __tablename__ = "ended_keepers"

    browser_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    ended_at: Mapped[datetime] = mapped_column(default=utcnow)


class HandoverRow(db.Model):  # type: ignore[name-defined,misc]
    """A link (its token's hash) handing the right to keep score to one browser, once."""

    __tablename__ = "handovers"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    #: When the link was redeemed (it works once, until ``expires_at``); ``None``: not yet.
    used_at: Mapped[datetime | None]


class ChangeRow(db.Model):  # type: ignore[name-defined,misc]
    """One write to a round (the audit trail), in the transaction of the write it records."""

    __tablename__ = "round_changes"
    __table_args__ = (
        # A round's history, a page at a time, the latest first: read in the index's order.
        Index("ix_round_changes_game_round_time", "game_id", "round_number", "changed_at", "id"),
        # The undo stack (services/stack.py): a game's last row, and the change on top of one.
        Index("ix_round_changes_game_id", "game_id", "id"),
        Index("ix_round_changes_game_below", "game_id", "below", "id"),
        CheckConstraint("round_number >= 1", name="round_number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int]
    #: What wrote: ``trump``, ``bids``, ``tally``, ``draft`` (a trick count tapped in),
    #: ``tricks``, ``score``, ``specials``, ``correction`` (any write to a round already
    #: scored), ``import``, or ``undo`` and ``redo`` (services/undo.py).
    kind: Mapped[str] = mapped_column(String(16))
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The facts before and after: ``{"trump": {"turned", "suit"} | None, "bids": [...] | None,
    #: "tricks": [...] | None}``.
    old: Mapped[dict[str, object] | None] = mapped_column(JSON, default=None)
    new: Mapped[dict[str, object] | None] = mapped_column(JSON, default=None)
    #: The undo stack (services/stack.py). On a write: the change under it on the stack
    #: (``None``: none, or an import's row, where undo stops).
    below: Mapped[int | None] = mapped_column(default=None)
    #: On an ``undo`` or ``redo`` row: the change it takes back or puts back.
    reverts: Mapped[int | None] = mapped_column(default=None)
    #: The round being played as far as the changes on the stack up to this one reach (the
    #: round after one scored); on an undo or redo, as the last write left it.
    reached: Mapped[int | None] = mapped_column(default=None)
    #: Whether the round was marked corrected before this write (an undo gives it back).
    corrected_before: Mapped[bool] = mapped_column(default=False, server_default=false())


class TableCodeRow(db.Model):  # type: ignore[name-defined,misc]
    """A game's table code (only its keyed hash), and the count of wrong guesses at it in the
    current window, which bounds how fast anyone can guess."""

    __tablename__ = "table_codes"
    __table_args__ = (CheckConstraint("failures >= 0", name="failures"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: HMAC-SHA-256 of the code, keyed with the app's secret key, hex.
    code_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Wrong codes tried since ``window_started_at``, from any address.
    failures: Mapped[int] = mapped_column(default=0)
    window_started_at: Mapped[datetime] = mapped_column(default=utcnow)
