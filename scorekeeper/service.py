"""The use cases: load, authorize, check with the rules, write in one transaction.

Every write runs in one transaction that locks the game (``SELECT ... FOR UPDATE`` on
PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), checks the caller's expected version, asks the
rules whether the new facts are allowed, writes them and bumps the game's version. Two
writers on one game therefore wait for each other; a writer whose ``If-Match`` went stale
while it waited is refused. Views and API handlers call these functions and never touch the
session themselves. They get :class:`GameSnapshot` values back, never ORM objects (the
session keeps objects loaded after commit, so a snapshot is built without reloading).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session, joinedload, selectinload

from . import rules
from .database import WRITE_OPTION
from .extensions import db
from .models import Entry, Game, Grant, Handover, Player, Round, RoundChange, utcnow
from .rules import _

GAME_ID_BYTES = 18  # 144 random bits, 24 URL-safe characters
EDIT_TOKEN_BYTES = 32  # 256 random bits
MAX_ID_LENGTH = 32  # the width of games.id
_ID_CHARS = frozenset(string.ascii_letters + string.digits + "-_")


class ServiceError(Exception):
    """A request the service refuses for a reason outside the game's rules."""

    message: str = ""

    def __init__(self, **params: object) -> None:
        self.params = params
        super().__init__(self.message % params)


class GameNotFound(ServiceError):
    """No game has this id (or it was deleted)."""

    message = _("There is no game with this id.")


class RoundNotFound(ServiceError):
    """The game has no round of this number."""

    message = _("This game has rounds 1 to %(rounds)d, so there is no round %(round)d.")


class TokenMissing(ServiceError):
    """A write came without an edit token."""

    message = _("Changing a game needs its edit token.")


class TokenRejected(ServiceError):
    """A write came with a token that is not this game's."""

    message = _("This edit token does not belong to this game, so it cannot change it.")


class NotKeeper(TokenRejected):
    """A browser without the edit right tried to change a game."""

    message = _(
        "This phone does not keep the score of this game, so it cannot change it: "
        "only a phone the scorekeeper handed it to can."
    )


class HandoverInvalid(ServiceError):
    """A hand-over link that is unknown, used already, or expired."""

    message = _(
        "This hand-over link no longer works (each link works once, for %(minutes)d minutes): "
        "ask the scorekeeper for a new one."
    )

    def __init__(self) -> None:
        super().__init__(minutes=HANDOVER_MINUTES)


class StaleVersion(ServiceError):
    """The caller's version of the game is out of date."""

    message = _(
        "The game has changed since the version you saw (it is now at version %(version)d): "
        "load it again and retry."
    )


@dataclass(frozen=True)
class GameSnapshot:
    """A game at one version: its stored facts and everything the rules derive from them."""

    id: str
    version: int
    created_at: datetime
    updated_at: datetime
    view: rules.GameView
    #: Tricks tapped in so far, by round, for rounds being played (``None``: not yet).
    drafts: Mapping[int, tuple[int | None, ...]] = field(default_factory=dict)
    #: The rounds written again after they were scored.
    corrected: frozenset[int] = frozenset()

    @property
    def table(self) -> rules.Table:
        """Players, first dealer and rules."""
        return self.view.table

    def round(self, number: int) -> rules.RoundView:
        """Round ``number``, or :class:`RoundNotFound` when the game has no such round."""
        _check_round_number(self.table.rules.rounds, number)
        return self.view.round(number)

    def draft(self, number: int) -> tuple[int | None, ...]:
        """The tricks tapped in so far in round ``number`` (``None``: not yet)."""
        return self.drafts.get(number, (None,) * self.table.seats)


@dataclass(frozen=True)
class NewGame:
    """A created game and its edit token, which is shown only this once."""

    game: GameSnapshot
    edit_token: str


@dataclass(frozen=True)
class Device:
    """A browser, known by the random key in its signed cookie (only its hash is stored)."""

    key: str

    @property
    def hash(self) -> str:
        """The hash the database knows the browser by."""
        return hash_token(self.key)


#: Who asks to write: an edit token (the API), a browser (the pages), or nobody.
Credential = str | Device | None


def hash_token(token: str) -> str:
    """SHA-256 of an edit token; the token has 256 random bits, so no salt or stretching."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# -- Reading -------------------------------------------------------------------------------


def get_game(game_id: str) -> GameSnapshot:
    """The game with this id."""
    return _snapshot(_load(game_id, for_update=False))


def _valid_id(game_id: str) -> bool:
    # Ids are URL-safe base64; anything else (NUL bytes, which PostgreSQL refuses in text,
    # or overlong strings) cannot be a game and is not sent to the database.
    return len(game_id) <= MAX_ID_LENGTH and _ID_CHARS.issuperset(game_id) and bool(game_id)


def _load(game_id: str, *, for_update: bool, with_facts: bool = True) -> Game:
    if not _valid_id(game_id):
        raise GameNotFound()
    statement = (
        select(Game)
        .where(Game.id == game_id, Game.deleted_at.is_(None))
        .execution_options(populate_existing=True)
    )
    if with_facts:
        # Two statements whatever the game's length: the game with its players (a handful of
        # rows, written once with the game), then its rounds with their entries. Under a
        # lock the second is a statement of its own on purpose: in READ COMMITTED it reads
        # what the writer we may have waited for committed, where the locking statement
        # itself sees other tables as they were before the wait.
        statement = statement.options(
            joinedload(Game.players),
            selectinload(Game.rounds).joinedload(Round.entries),
        )
    if for_update:
        # Only the game's row is locked: every writer of a game takes this lock first.
        statement = statement.with_for_update(of=Game)
    game = db.session.scalars(statement).unique().one_or_none()
    if game is None:
        raise GameNotFound()
    return game


def _table(game: Game) -> rules.Table:
    return rules.Table(
        players=tuple(player.name for player in game.players),
        first_dealer=game.first_dealer,
        rules=rules.GameRules(
            rounds=game.round_count,
            bid_rule=rules.BidRule(game.bid_rule),
            last_bidder_may_bid_zero=game.last_bidder_may_bid_zero,
            bid_reveal=rules.BidReveal(game.bid_reveal),
            clairvoyance=game.clairvoyance,
        ),
    )


def _record(round_row: Round) -> rules.RoundRecord:
    trump = None
    if round_row.trump_turned is not None:
        suit = rules.Suit(round_row.trump_suit) if round_row.trump_suit else None
        trump = rules.Trump(rules.Turned(round_row.trump_turned), suit)
    entries = round_row.entries
    bids = tuple(entry.bid for entry in entries) if entries else None
    tricks: tuple[int, ...] | None = None
    if entries and all(entry.tricks is not None for entry in entries):
        tricks = tuple(entry.tricks or 0 for entry in entries)
    return rules.RoundRecord(trump=trump, bids=bids, tricks=tricks)


def _snapshot(game: Game) -> GameSnapshot:
    table = _table(game)
    records = {round_row.number: _record(round_row) for round_row in game.rounds}
    drafts = {
        round_row.number: tuple(entry.draft_tricks for entry in round_row.entries)
        for round_row in game.rounds
        if any(entry.draft_tricks is not None for entry in round_row.entries)
    }
    return GameSnapshot(
        id=game.id,
        version=game.version,
        created_at=_aware(game.created_at),
        updated_at=_aware(game.updated_at),
        view=rules.evaluate(table, records),
        drafts=drafts,
        corrected=frozenset(r.number for r in game.rounds if r.corrected_at is not None),
    )


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# -- Writing -------------------------------------------------------------------------------


@contextmanager
def _write_transaction() -> Iterator[None]:
    """One write transaction: commit on success, roll back on any error."""
    session = db.session()
    current = session.get_transaction()
    if current is not None and (not current.is_active or _needs_write_begin(session)):
        # Only reads can have happened before a use case starts. SQLite's write transaction
        # has to begin afresh (BEGIN IMMEDIATE takes the write lock); PostgreSQL's goes on
        # in the reads' transaction (READ COMMITTED: the locking read and every read after
        # it see the latest commit), which spares a ROLLBACK and a BEGIN.
        session.rollback()
    if not session.in_transaction():
        session.connection(execution_options={WRITE_OPTION: True})
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise


def _needs_write_begin(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


@contextmanager
def _editing(game_id: str, token: Credential, if_match: Collection[int] | None) -> Iterator[Game]:
    """Lock the game for writing after checking the credential and the expected version."""
    if not token:
        raise TokenMissing()
    with _write_transaction():
        game = _load(game_id, for_update=True)
        _verify_token(game, token)
        if if_match is not None and game.version not in if_match:
            raise StaleVersion(version=game.version)
        yield game
        game.version += 1
        game.updated_at = utcnow()


def authorize(game_id: str, token: Credential, number: int | None = None) -> None:
    """Raise unless ``token`` may edit game ``game_id`` (which has round ``number``).

    The write use cases check the token again inside their transaction; this lets a
    caller refuse a stranger before it even reads the request.
    """
    if not token:
        raise TokenMissing()
    game = _load(game_id, for_update=False, with_facts=False)
    _verify_token(game, token)
    if number is not None:
        _verify_round(game, number)


def _verify_token(game: Game, token: str | Device) -> None:
    if isinstance(token, Device):
        if not _has_grant(game.id, token):
            raise NotKeeper()
        return
    # Compare hashes in constant time: the stored hash is all the database knows.
    if not hmac.compare_digest(hash_token(token), game.edit_token_hash):
        raise TokenRejected()


def _has_grant(game_id: str, device: Device) -> bool:
    # Asked of the database each time, never of the session's memory: a write checks the
    # grant again inside its transaction, after the lock, in case it was revoked meanwhile.
    grant = db.session.get(Grant, (device.hash, game_id), populate_existing=True)
    return grant is not None


def can_edit(game_id: str, device: Device | None) -> bool:
    """Whether this browser keeps the score of game ``game_id``."""
    return device is not None and _valid_id(game_id) and _has_grant(game_id, device)


def _verify_round(game: Game, number: int) -> None:
    _check_round_number(game.round_count, number)


def _check_round_number(rounds: int, number: int) -> None:
    if not 1 <= number <= rounds:
        raise RoundNotFound(rounds=rounds, round=number)


def _round_row(game: Game, number: int) -> Round:
    for round_row in game.rounds:
        if round_row.number == number:
            return round_row
    round_row = Round(number=number)
    game.rounds.append(round_row)
    return round_row


def _set_trump(round_row: Round, trump: rules.Trump) -> None:
    round_row.trump_turned = trump.turned.value
    round_row.trump_suit = trump.suit.value if trump.suit else None


def _mark_if_correction(view: rules.GameView, round_row: Round) -> None:
    if view.round(round_row.number).state is rules.RoundState.SCORED:
        round_row.corrected_at = utcnow()


def facts_json(record: rules.RoundRecord) -> dict[str, object]:
    """A round's recorded facts as the audit trail keeps them."""
    trump = record.trump
    return {
        "trump": None
        if trump is None
        else {"turned": trump.turned.value, "suit": trump.suit.value if trump.suit else None},
        "bids": list(record.bids) if record.bids is not None else None,
        "tricks": list(record.tricks) if record.tricks is not None else None,
    }


def _audit(
    game: Game, round_row: Round, kind: str, before: dict[str, object], view: rules.GameView
) -> None:
    """Keep this write to the round in the audit trail, in the write's own transaction; a
    write to a round already scored is a correction, whichever use case made it."""
    if view.round(round_row.number).state is rules.RoundState.SCORED:
        kind = "correction"
    db.session.add(
        RoundChange(
            game_id=game.id,
            round_number=round_row.number,
            kind=kind,
            changed_at=utcnow(),
            old=before,
            new=facts_json(_record(round_row)),
        )
    )


def _entries(game: Game, round_row: Round) -> list[Entry]:
    if not round_row.entries:
        round_row.entries.extend(
            Entry(game_id=game.id, seat=player.seat) for player in game.players
        )
    return list(round_row.entries)


def create_game(
    names: Sequence[str],
    *,
    first_dealer: int | None = None,
    bid_rule: str = rules.BidRule.STANDARD,
    last_bidder_may_bid_zero: bool = False,
    bid_reveal: str = rules.BidReveal.OPEN,
    clairvoyance: bool = False,
    rounds: int | None = None,
    device: Device | None = None,
) -> NewGame:
    """Start a game; a missing first dealer is drawn at random.

    A ``device`` (the browser that starts the game) gets the edit right with it.
    """
    players = rules.clean_names(names)
    if first_dealer is None:
        first_dealer = secrets.randbelow(len(players))
    table = rules.Table(
        players=players,
        first_dealer=first_dealer,
        rules=rules.GameRules(
            rounds=rounds if rounds is not None else rules.full_game_rounds(len(players)),
            bid_rule=rules.parse_bid_rule(bid_rule),
            last_bidder_may_bid_zero=last_bidder_may_bid_zero,
            bid_reveal=rules.parse_bid_reveal(bid_reveal),
            clairvoyance=clairvoyance,
        ),
    )
    token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    now = utcnow()
    game = Game(
        id=secrets.token_urlsafe(GAME_ID_BYTES),
        edit_token_hash=hash_token(token),
        version=1,
        first_dealer=table.first_dealer,
        bid_rule=table.rules.bid_rule.value,
        last_bidder_may_bid_zero=table.rules.last_bidder_may_bid_zero,
        bid_reveal=table.rules.bid_reveal.value,
        clairvoyance=table.rules.clairvoyance,
        round_count=table.rules.rounds,
        created_at=now,
        updated_at=now,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(players)],
    )
    with _write_transaction():
        db.session.add(game)
        if device is not None:
            db.session.add(Grant(device_hash=device.hash, game_id=game.id, created_at=now))
    return NewGame(game=_snapshot(game), edit_token=token)


def record_trump(
    game_id: str,
    token: Credential,
    number: int,
    turned: str,
    chosen: str | None = None,
    *,
    if_match: Collection[int] | None = None,
    scored_too: bool = True,
) -> GameSnapshot:
    """Record (or change) the card turned in round ``number`` and the trump it gives.

    ``scored_too=False`` refuses a round already scored (the pages correct those as a whole).
    """
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        view = _snapshot(game).view
        if not scored_too:
            rules.verify_not_scored(view, number)
        rules.verify_trump_turn(view, number)
        round_row = _round_row(game, number)
        before = facts_json(_record(round_row))
        _set_trump(round_row, rules.trump_from(turned, chosen))
        _mark_if_correction(view, round_row)
        _audit(game, round_row, "trump", before, view)
    return _snapshot(game)


def record_bids(
    game_id: str,
    token: Credential,
    number: int,
    bids: Sequence[int | None],
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or replace) the bids of round ``number``; ``None`` is a bid not made yet."""
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        view = _snapshot(game).view
        rules.verify_bids_turn(view, number, bids)
        round_row = _round_row(game, number)
        before = facts_json(_record(round_row))
        for entry, bid in zip(_entries(game, round_row), bids, strict=True):
            entry.bid = bid
        _mark_if_correction(view, round_row)
        _audit(game, round_row, "bids", before, view)
    return _snapshot(game)


def record_bid(
    game_id: str,
    token: Credential,
    number: int,
    seat: int,
    bid: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (``None``: take back) one player's bid in round ``number``, keeping the others,
    while the round is not yet scored (a scored round is corrected as a whole)."""
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        view = _snapshot(game).view
        rules.verify_not_scored(view, number)
        _verify_seat(view.table, seat)
        bids = list(view.round(number).bids or (None,) * view.table.seats)
        bids[seat] = bid
        rules.verify_bids_turn(view, number, bids)
        round_row = _round_row(game, number)
        before = facts_json(_record(round_row))
        _entries(game, round_row)[seat].bid = bid
        _mark_if_correction(view, round_row)
        _audit(game, round_row, "bids", before, view)
    return _snapshot(game)


def _verify_seat(table: rules.Table, seat: int) -> None:
    if not 0 <= seat < table.seats:
        raise rules.SetupError(
            _("There is no seat %(seat)d at this table."), field="seat", seat=seat
        )


def record_tricks(
    game_id: str,
    token: Credential,
    number: int,
    tricks: Sequence[int],
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or correct) the tricks won in round ``number``, which scores it."""
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        view = _snapshot(game).view
        rules.verify_tricks_turn(view, number, tricks)
        round_row = _round_row(game, number)
        before = facts_json(_record(round_row))
        _write_tricks(game, round_row, tricks)
        _mark_if_correction(view, round_row)
        _audit(game, round_row, "tricks", before, view)
    return _snapshot(game)


def _write_tricks(game: Game, round_row: Round, tricks: Sequence[int]) -> None:
    """The round's tricks, which score it; the drafts tapped in give way to them."""
    for entry, count in zip(_entries(game, round_row), tricks, strict=True):
        entry.tricks = count
        entry.draft_tricks = None


def correct_round(
    game_id: str,
    token: Credential,
    number: int,
    *,
    turned: str | None,
    chosen: str | None,
    bids: Sequence[int],
    tricks: Sequence[int],
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Replace a scored round's trump, bids and tricks at once, under the same checks.

    ``turned`` is ``None`` for the round that deals every card (it has no trump to give).
    Later rounds stay as recorded; every total is derived anew.
    """
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        view = _snapshot(game).view
        if view.round(number).state is not rules.RoundState.SCORED:
            raise rules.OutOfTurnError(
                _("Round %(round)d is not scored yet, so there is nothing to correct."),
                round=number,
            )
        round_row = _round_row(game, number)
        before = facts_json(_record(round_row))
        rules.verify_bids_turn(view, number, bids)
        rules.verify_tricks_turn(view, number, tricks)
        if turned is not None:
            rules.verify_trump_turn(view, number)
            _set_trump(round_row, rules.trump_from(turned, chosen))
        for entry, bid, count in zip(_entries(game, round_row), bids, tricks, strict=True):
            entry.bid = bid
            entry.tricks = count
        round_row.corrected_at = utcnow()
        _audit(game, round_row, "correction", before, view)
    return _snapshot(game)


def delete_game(
    game_id: str, token: Credential, *, if_match: Collection[int] | None = None
) -> None:
    """Delete a game: it reads as unknown from now on (its facts are kept, marked deleted)."""
    with _editing(game_id, token, if_match) as game:
        game.deleted_at = utcnow()


def save_trick_draft(
    game_id: str,
    token: Credential,
    number: int,
    seat: int,
    count: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Keep the tricks one player won, tapped in while round ``number`` is played (``None``
    clears them). Drafts are never scored: :func:`record_tricks` saves the round."""
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        view = _snapshot(game).view
        rules.verify_trick_draft_turn(view, number)
        _verify_seat(view.table, seat)
        if count is not None:
            rules.verify_trick_count(view.table, number, seat, count)
        _entries(game, _round_row(game, number))[seat].draft_tricks = count
    return _snapshot(game)


def score_round(
    game_id: str,
    token: Credential,
    number: int,
    *,
    all_made: bool = False,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Score round ``number`` from the tricks tapped in (the one missing count filled in from
    the sum), or, with ``all_made``, with every player having made their bid."""
    with _editing(game_id, token, if_match) as game:
        _verify_round(game, number)
        snapshot = _snapshot(game)
        view = snapshot.view
        rules.verify_trick_draft_turn(view, number)
        round_view = view.round(number)
        if all_made:
            tricks = rules.all_made_tricks(number, round_view.bids or ())
        else:
            tricks = rules.complete_draft(view.table, number, snapshot.draft(number))
        rules.verify_tricks_turn(view, number, tricks)
        round_row = _round_row(game, number)
        before = facts_json(_record(round_row))
        _write_tricks(game, round_row, tricks)
        _audit(game, round_row, "score", before, view)
    return _snapshot(game)


# -- A browser's games ---------------------------------------------------------------------

KEPT_GAMES_SHOWN = 50


def kept_games(device: Device | None, limit: int | None = KEPT_GAMES_SHOWN) -> list[GameSnapshot]:
    """The games this browser keeps the score of, the most recently changed first (all of
    them with ``limit=None``)."""
    if device is None:
        return []
    statement = (
        select(Game)
        .join(Grant, Grant.game_id == Game.id)
        .where(Grant.device_hash == device.hash, Game.deleted_at.is_(None))
        .order_by(Game.updated_at.desc(), Game.id)
        .limit(limit)
        .options(
            selectinload(Game.players),
            selectinload(Game.rounds).selectinload(Round.entries),
        )
    )
    return [_snapshot(game) for game in db.session.scalars(statement)]


def known_names(device: Device | None, limit: int = 60) -> list[str]:
    """Player names from the games this browser keeps, most recent games first, each once."""
    if device is None:
        return []
    statement = (
        select(Player.name, Game.updated_at)
        .join(Game, Game.id == Player.game_id)
        .join(Grant, Grant.game_id == Game.id)
        .where(Grant.device_hash == device.hash, Game.deleted_at.is_(None))
        .order_by(Game.updated_at.desc(), Player.seat)
        .limit(limit * 6)
    )
    names: dict[str, str] = {}
    for name, _updated in db.session.execute(statement):
        names.setdefault(name.casefold(), name)
    return list(names.values())[:limit]


# -- Sharing the game ----------------------------------------------------------------------

HANDOVER_TOKEN_BYTES = 32  # 256 random bits, as edit tokens
HANDOVER_MINUTES = 15
HANDOVER_LIFETIME = timedelta(minutes=HANDOVER_MINUTES)


def game_version(game_id: str) -> int:
    """The game's version, in one query: what a page polling for changes compares."""
    if not _valid_id(game_id):
        raise GameNotFound()
    version = db.session.scalar(
        select(Game.version).where(Game.id == game_id, Game.deleted_at.is_(None))
    )
    if version is None:
        raise GameNotFound()
    return version


def create_handover(game_id: str, device: Device | None) -> str:
    """A one-time token that hands the right to keep score of the game to another browser.

    Only a browser that keeps the score may make one. The token works once, for
    :data:`HANDOVER_LIFETIME`; only its hash is stored.
    """
    if device is None:
        raise NotKeeper()
    token = secrets.token_urlsafe(HANDOVER_TOKEN_BYTES)
    now = utcnow()
    with _write_transaction():
        game = _load(game_id, for_update=False, with_facts=False)
        _verify_token(game, device)
        # Links that can no longer be used are of no use to keep.
        db.session.execute(
            delete(Handover).where(Handover.game_id == game_id, Handover.expires_at <= now)
        )
        db.session.add(
            Handover(
                token_hash=hash_token(token),
                game_id=game_id,
                created_at=now,
                expires_at=now + HANDOVER_LIFETIME,
            )
        )
    return token


def handover_game(token: str) -> GameSnapshot:
    """The game a hand-over token would hand over, without using it up."""
    row = db.session.get(Handover, hash_token(token))
    if row is None or row.used_at is not None or _aware(row.expires_at) <= utcnow():
        raise HandoverInvalid()
    return get_game(row.game_id)


def redeem_handover(token: str, device: Device) -> str:
    """Use a hand-over token up: ``device`` gets the right to keep score; the game's id.

    Two browsers redeeming one token at once: the game row is locked first, then the token
    is claimed by a conditional update, so exactly one of them wins.
    """
    token_hash = hash_token(token)
    now = utcnow()
    with _write_transaction():
        game_id = db.session.scalar(
            select(Handover.game_id).where(Handover.token_hash == token_hash)
        )
        if game_id is None:
            raise HandoverInvalid()
        _load(game_id, for_update=True, with_facts=False)
        claimed = db.session.execute(
            update(Handover)
            .where(
                Handover.token_hash == token_hash,
                Handover.used_at.is_(None),
                Handover.expires_at > now,
            )
            .values(used_at=now)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise HandoverInvalid()
        if not _has_grant(game_id, device):
            db.session.add(Grant(device_hash=device.hash, game_id=game_id, created_at=now))
    return game_id


def other_keepers(game_id: str, device: Device | None) -> int:
    """How many other browsers keep the score of the game."""
    statement = select(func.count()).where(Grant.game_id == game_id)
    if device is not None:
        statement = statement.where(Grant.device_hash != device.hash)
    return db.session.scalar(statement) or 0


def revoke_other_keepers(game_id: str, device: Device | None) -> int:
    """Take the right to keep score from every other browser, and void the hand-over links
    not yet used; the number of browsers that lost it. The API's edit token stays valid."""
    if device is None:
        raise NotKeeper()
    with _write_transaction():
        game = _load(game_id, for_update=True, with_facts=False)
        _verify_token(game, device)
        revoked = db.session.execute(
            delete(Grant).where(Grant.game_id == game_id, Grant.device_hash != device.hash)
        )
        db.session.execute(
            delete(Handover).where(Handover.game_id == game_id, Handover.used_at.is_(None))
        )
    return int(revoked.rowcount)  # type: ignore[attr-defined]
