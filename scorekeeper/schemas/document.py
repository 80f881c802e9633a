"""The export document (one game or many, with audit trails), what an import takes and answers."""

from __future__ import annotations

import json
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..rules import cards
from ..rules.game import RoundRecord
from ..rules.table import MIN_PLAYERS
from .games import Cloud, Game, Model, Timestamp, Trump

#: Audit entries one game of a document holds: at most 20 rounds (60 cards, 3 players), each
#: written 8 times (trump, 3 bids, 3 trick counts, the scoring), and 17 corrections of every
#: round (more players play fewer rounds). An export carries the latest as many; an import
#: takes no more.
MAX_AUDIT_ENTRIES = cards.DECK_SIZE // MIN_PLAYERS * 25


SCHEMA_VERSION: Literal[1] = 1
#: What wrote to a round (see :class:`models.ChangeRow`).
Kind = Literal[
    "trump",
    "bids",
    "tally",
    "draft",
    "tricks",
    "score",
    "correction",
    "specials",
    "import",
    "undo",
    "redo",
]
KINDS: tuple[str, ...] = get_args(Kind)


class Facts(Model):
    """A round's recorded facts, as the audit trail keeps them before and after a write and
    the export writes them: the one codec of that JSON. ``bomb`` and ``cloud`` only where
    the Bomb was played or the Cloud changed a bid, ``tally`` only once a trick is tallied,
    so a game without them exports as it did before."""

    trump: Trump | None
    bids: list[int | None] | None
    tricks: list[int] | None
    bomb: bool = Field(default=False, exclude_if=lambda bomb: not bomb)
    cloud: Cloud | None = Field(default=None, exclude_if=lambda cloud: cloud is None)
    tally: list[Annotated[int, Field(ge=0)] | None] = Field(
        default_factory=list,
        exclude_if=lambda tally: not tally,
        description="The winner of each trick tallied so far (a seat; null: nobody, a "
        "Bomb's trick); left out when no trick is tallied.",
    )
    drafts: list[Annotated[int, Field(ge=0)] | None] | None = Field(
        default=None,
        exclude_if=lambda drafts: drafts is None,
        description="The trick counts tapped in before the round is scored, by seat (null: "
        "none yet), where a write changed them.",
    )

    @classmethod
    def of(cls, record: RoundRecord) -> Facts:
        """The facts of a record (its ``drafts``: the counts tapped in, where a write
        changed them)."""
        cloud, drafts = record.cloud, record.drafts
        return cls(
            trump=Trump.of(record.trump),
            bids=None if record.bids is None else list(record.bids),
            tricks=None if record.tricks is None else list(record.tricks),
            bomb=record.bomb,
            cloud=None if cloud is None else Cloud(seat=cloud.seat, bid=cloud.bid),
            tally=list(record.tally),
            drafts=None if drafts is None else list(drafts),
        )

    def record(self) -> RoundRecord:
        """The facts as the rules' record."""
        trump = self.trump
        return RoundRecord(
            trump=None if trump is None else cards.TrumpCard(trump.turned, trump.suit),
            bids=None if self.bids is None else tuple(self.bids),
            tricks=None if self.tricks is None else tuple(self.tricks),
            bomb=self.bomb,
            cloud=None if self.cloud is None else self.cloud.rules(),
            tally=tuple(self.tally),
            drafts=None if self.drafts is None else tuple(self.drafts),
        )

    @classmethod
    def stored(cls, record: RoundRecord | None) -> dict[str, object] | None:
        """A record as an audit row keeps it: as the export writes it, ``drafts`` always
        there (null: the write changed no count tapped in)."""
        if record is None:
            return None
        facts = cls.of(record)
        return facts.model_dump(mode="json") | {"drafts": facts.drafts}

    @classmethod
    def read(cls, stored: object) -> RoundRecord | None:
        """An audit row's facts back as a record; ``None`` for none, or for what no write
        stores. A row written before ``drafts`` was always stored reads as one without."""
        try:  # as JSON, where the cards are read from their names
            return None if stored is None else cls.model_validate_json(json.dumps(stored)).record()
        except ValidationError:
            return None


class TappedIn(Model):
    """The trick counts tapped in so far in a round not yet scored, by seat (null: none yet)."""

    round: int = Field(ge=1)
    tricks: list[Annotated[int, Field(ge=0)] | None]


def _none_tapped(drafts: list[TappedIn]) -> bool:
    return not drafts


class AuditEntry(Model):
    """One write to a round: when, which kind, its facts before and after. Bids the reveal
    mode still hides read null."""

    round: int = Field(ge=1)
    kind: Kind
    at: Timestamp
    old: Facts | None
    new: Facts | None


class ExportedGame(Model):
    """One game of an export: the game object, its audit trail and, for the round being
    played, the trick counts tapped in so far (left out when none are)."""

    game: Game
    audit: list[AuditEntry]
    drafts: list[TappedIn] = Field(default_factory=list, exclude_if=_none_tapped)


class OneGameExport(Model):
    """The export of one game."""

    schema_version: Literal[1]
    exported_at: Timestamp
    game: Game
    audit: list[AuditEntry]
    drafts: list[TappedIn] = Field(default_factory=list, exclude_if=_none_tapped)


class ManyGamesExport(Model):
    """The export of every game a browser keeps."""

    schema_version: Literal[1]
    exported_at: Timestamp
    games: list[ExportedGame]


class Loose(BaseModel):
    """An object of a file to import: strict JSON types; the fields the import derives
    again (ids, states, standings, links) are ignored, whatever they hold."""

    model_config = ConfigDict(strict=True)


class TrumpFile(Loose):
    """A round's trump in a file to import: the rules read the card and the suit."""

    turned: str
    suit: str | None = None


class PlayerFile(Loose):
    """A player of a file to import."""

    seat: int
    name: str


class CloudFile(Loose):
    """The Cloud's change in a file to import."""

    seat: int
    bid: int


class RulesFile(Loose):
    """A game's options in a file to import: each one named, as every export writes them."""

    bid_rule: str
    last_bidder_may_bid_zero: bool
    bid_reveal: str
    clairvoyance: bool
    rounds: int
    special_cards: list[str] = []
    round_plan: str = "every_hand"


class FactsFile(Loose):
    """A round's facts before or after a write, in a file to import."""

    trump: TrumpFile | None = None
    bids: list[int | None] | None = None
    tricks: list[int | None] | None = None
    bomb: bool = False
    cloud: CloudFile | None = None
    tally: list[int | None] | None = None
    drafts: list[int | None] | None = None


class AuditFile(Loose):
    """One write of the audit trail in a file to import; without ``at``, it is dated now."""

    round: int
    kind: str
    at: str | None = None
    old: FactsFile | None = None
    new: FactsFile | None = None


class RoundFile(Loose):
    """A round of a file to import: the facts the rules replay, and the scores to compare."""

    number: int
    trump: TrumpFile | None = None
    bids: list[int | None] | None = None
    tricks: list[int] | None = None
    scores: list[int] | None = None
    bomb: bool = False
    cloud: CloudFile | None = None
    tally: list[int | None] | None = Field(
        default=None,
        description="The winner of each trick tallied, in the order they fell (a seat; "
        "null: nobody, the Bomb's trick), checked as a tally written live is; files "
        "exported without it import with no trick tallied.",
    )


class GameFile(Loose):
    """The game object of a file to import (as GET returns it): its table and its rounds,
    each replayed through the rules; without ``created_at`` the game is started now."""

    players: list[PlayerFile]
    first_dealer: int
    rules: RulesFile
    rounds: list[RoundFile]
    created_at: str | None = None
    updated_at: str | None = None
    totals: list[int] | None = None


class TappedInFile(Loose):
    """The trick counts tapped in so far in a round of a file to import."""

    round: int
    tricks: list[int | None]


class GameExport(Loose):
    """One game of a file to import: the game object, its audit trail and the trick counts
    tapped in (files exported before them import with none)."""

    game: GameFile
    audit: list[AuditFile] | None = None
    drafts: list[TappedInFile] | None = None


class Export(BaseModel):
    """A file to import: one game (``game`` and ``audit``) or many (``games``)."""

    schema_version: Literal[1]
    exported_at: Timestamp | None = None
    game: GameFile | None = None
    audit: list[AuditFile] | None = None
    drafts: list[TappedInFile] | None = None
    games: list[GameExport] | None = None


class ImportLinks(Model):
    """Where a new game is."""

    self: str
    view: str


class ImportedGame(Model):
    """A game the import started."""

    id: str
    edit_token: str = Field(description="The new game's edit token, shown only here.")
    links: ImportLinks


class ImportResult(Model):
    """The games an import started."""

    games: list[ImportedGame]
