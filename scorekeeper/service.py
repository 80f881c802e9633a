"""The use cases: load, authorize, check with the rules, write in one transaction.

Every write runs in one transaction that locks the game (``SELECT ... FOR UPDATE`` on
PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite), checks the caller's expected version, asks the
rules whether the new facts are allowed, writes them and bumps the game's version. Two
writers on one game therefore wait for each other; a writer whose ``If-Match`` went stale
while it waited is refused. A round's write with the game's edit token first tries without
the lock: decided on the version this process knows, it is written only if the game is still
at that version (one guarded statement), and made again under the lock if not.

Views and API handlers call these functions and never touch the session themselves. They
get :class:`GameSnapshot` values back, never ORM objects: a write builds its answer from the
facts it read and wrote, without reading them again, and each process keeps the latest
snapshot of a game (:class:`SnapshotCache`) until its row changes. The facts of a game are
read and written in SQLAlchemy Core (:mod:`.store`)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import ColumnElement, Connection, delete, func, select, update
from sqlalchemy.orm import Session, selectinload

from . import errors, rules, store
from .database import WRITE_OPTION
from .errors import (
    GameNotFound,
    HandoverInvalid,
    NotKeeper,
    RoundNotFound,
    ServiceError,
    StaleVersion,
    TokenMissing,
    TokenRejected,
)
from .extensions import db
from .models import Game, Grant, Handover, Player, Round, utcnow
from .rules import _
from .store import StoredEntry, StoredGame, StoredRound

GAME_ID_BYTES = 18  # 144 random bits, 24 URL-safe characters
EDIT_TOKEN_BYTES = 32  # 256 random bits
MAX_ID_LENGTH = 32  # the width of games.id
_ID_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
#: Games whose latest version a process keeps derived (a few KB each).
SNAPSHOT_CACHE_SIZE = 1024


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
    return _read(game_id)[1]


def valid_id(game_id: str) -> bool:
    # Ids are URL-safe base64; anything else (NUL bytes, which PostgreSQL refuses in text,
    # or overlong strings) cannot be a game and is not sent to the database.
    return len(game_id) <= MAX_ID_LENGTH and _ID_CHARS.issuperset(game_id) and bool(game_id)


class SnapshotCache:
    """The latest games read or written by this process, by id and version.

    A game's facts at one version never change (every write bumps the version), so a game
    whose row is still as seen before is not read or derived again: one statement instead of
    two, and no evaluation by the rules. Only committed versions are kept.
    """

    def __init__(self, size: int = SNAPSHOT_CACHE_SIZE) -> None:
        self.size = size
        self._games: OrderedDict[str, tuple[StoredGame, GameSnapshot]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, head: StoredGame) -> tuple[StoredGame, GameSnapshot] | None:
        """The game known with this row (``head``: the game's row and players just read)."""
        with self._lock:
            found = self._games.get(head.id)
            # The whole row is compared, not only the version: a row changed behind the
            # service's back is read again all the same.
            if found is None or replace(found[0], rounds={}) != head:
                return None
            self._games.move_to_end(head.id)
            return found

    def latest(self, game_id: str) -> tuple[StoredGame, GameSnapshot] | None:
        """The latest version of the game this process knows, without asking the database
        whether it is still the latest (a write made on it says so: see ``_edit_round``)."""
        with self._lock:
            found = self._games.get(game_id)
            if found is not None:
                self._games.move_to_end(game_id)
            return found

    def put(self, stored: StoredGame, snapshot: GameSnapshot) -> None:
        with self._lock:
            known = self._games.get(stored.id)
            if known is not None and known[0].version > stored.version:
                return  # a later version is known already
            self._games[stored.id] = (stored, snapshot)
            self._games.move_to_end(stored.id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)


def _cache() -> SnapshotCache:
    cache = current_app.extensions.get("scorekeeper.snapshots")
    if cache is None:
        cache = current_app.extensions.setdefault("scorekeeper.snapshots", SnapshotCache())
    return cache  # type: ignore[no-any-return]


def _read(game_id: str, *, lock: bool = False) -> tuple[StoredGame, GameSnapshot]:
    """The game's stored facts and what they give: one statement when this process knows
    the game's version already, else two (the first locks the game with ``lock``)."""
    if not valid_id(game_id):
        raise GameNotFound()
    connection = db.session.connection()
    head = store.read_head(connection, game_id, lock=lock)
    if head is None:
        raise GameNotFound()
    cache = _cache()
    known = cache.get(head)
    if known is not None:
        return known
    stored = store.read_facts(connection, head)
    if stored is None:
        raise GameNotFound()
    snapshot = _snapshot_of(stored)
    cache.put(stored, snapshot)
    return stored, snapshot


def _load(game_id: str, *, for_update: bool) -> Game:
    """The game's row as an ORM object, for the use cases that change more than its facts."""
    if not valid_id(game_id):
        raise GameNotFound()
    statement = (
        select(Game)
        .where(Game.id == game_id, Game.deleted_at.is_(None))
        .execution_options(populate_existing=True)
    )
    if for_update:
        statement = statement.with_for_update()
    game = db.session.scalars(statement).one_or_none()
    if game is None:
        raise GameNotFound()
    return game


def game_table(game: Game) -> rules.Table:
    return store.table_of(game, tuple(player.name for player in game.players))


def _stored(game: Game) -> StoredGame:
    """An ORM game (with its players and rounds) as stored facts."""
    return StoredGame(
        id=game.id,
        version=game.version,
        edit_token_hash=game.edit_token_hash,
        created_at=store.aware(game.created_at),
        updated_at=store.aware(game.updated_at),
        table=game_table(game),
        rounds={
            round_row.number: StoredRound(
                number=round_row.number,
                trump_turned=round_row.trump_turned,
                trump_suit=round_row.trump_suit,
                corrected_at=(
                    store.aware(round_row.corrected_at)
                    if round_row.corrected_at is not None
                    else None
                ),
                entries=tuple(
                    StoredEntry(entry.bid, entry.tricks, entry.draft_tricks)
                    for entry in round_row.entries
                ),
            )
            for round_row in game.rounds
        },
    )


def snapshot(game: Game) -> GameSnapshot:
    return _snapshot_of(_stored(game))


def _snapshot_of(stored: StoredGame) -> GameSnapshot:
    """What the stored facts give."""
    rounds = stored.rounds.values()
    return GameSnapshot(
        id=stored.id,
        version=stored.version,
        created_at=stored.created_at,
        updated_at=stored.updated_at,
        view=rules.evaluate(stored.table, {kept.number: kept.record() for kept in rounds}),
        drafts={
            kept.number: tuple(entry.draft for entry in kept.entries)
            for kept in rounds
            if any(entry.draft is not None for entry in kept.entries)
        },
        corrected=frozenset(kept.number for kept in rounds if kept.corrected_at),
    )


# -- Writing -------------------------------------------------------------------------------


@contextmanager
def write_transaction() -> Iterator[None]:
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
def _editing(
    game_id: str, token: Credential, if_match: Collection[int] | None, number: int | None = None
) -> Iterator[tuple[Connection, StoredGame, GameSnapshot]]:
    """Lock the game for writing after checking the credential, the round ``number`` if
    one is given, and the expected version.

    The caller writes through the connection it is given, and bumps the version with it.
    """
    if not token:
        raise TokenMissing()
    with write_transaction():
        stored, snapshot = _read(game_id, lock=True)
        _check_edit(stored, token, number, if_match)
        yield db.session.connection(), stored, snapshot
        # Objects the session loaded before this write would now be out of date.
        db.session.expire_all()


def _check_edit(
    stored: StoredGame, token: str | Device, number: int | None, if_match: Collection[int] | None
) -> None:
    """Raise unless ``token`` may edit the game, it has round ``number`` (if one is given)
    and is at a version ``if_match`` names, in that order: a round the game does not have
    is 404 before a stale 412."""
    _verify_token(stored.id, stored.edit_token_hash, token)
    if number is not None:
        _check_round_number(stored.table.rules.rounds, number)
    if if_match is not None and stored.version not in if_match:
        raise StaleVersion(version=stored.version)


class _RoundEdit:
    """One round being changed by a use case, on the game locked for it."""

    def __init__(self, stored: StoredGame, snapshot: GameSnapshot, number: int) -> None:
        self.game = stored
        self.number = number
        self.snapshot = snapshot
        self.view = self.snapshot.view
        self.before = stored.rounds.get(number)
        #: The round as it will be written (``StoredRound`` values are replaced, never changed).
        self.round = self.before or StoredRound(number)
        self.now = utcnow()
        self.change: store.Change | None = None

    @property
    def seats(self) -> int:
        return self.game.table.seats

    @property
    def scored(self) -> bool:
        """Whether the round was scored before this write."""
        return self.view.round(self.number).state is rules.RoundState.SCORED

    def mark_if_correction(self) -> None:
        if self.scored:
            self.round = replace(self.round, corrected_at=self.now)

    def audit(self, kind: str) -> None:
        """Keep this write in the audit trail; a write to a round already scored is a
        correction, whichever use case made it."""
        before = self.before or StoredRound(self.number)
        self.change = store.Change(
            kind="correction" if self.scored else kind,
            old=facts_json(before.record()),
            new=facts_json(self.round.record()),
        )

    def result(self) -> GameSnapshot:
        """The game as this write left it (called once it is committed)."""
        game = self.game
        saved = replace(
            game,
            version=game.version + 1,
            updated_at=self.now,
            rounds={**game.rounds, self.number: self.round},
        )
        snapshot = _snapshot_of(saved)
        _cache().put(saved, snapshot)
        return snapshot


def _edit_round(
    game_id: str,
    token: Credential,
    number: int,
    if_match: Collection[int] | None,
    change: Callable[[_RoundEdit], None],
) -> GameSnapshot:
    """Make ``change`` to round ``number`` of the game and write it; the game as it left it.

    A write with the game's edit token is first decided on the version this process knows
    and written only if the game is still at it (no read, no lock, no waiting while the
    rules decide: the write transaction holds just the writing). Otherwise, or when the
    game moved on meanwhile, or when ``change`` refuses (so the refusal is the stored
    game's), the game is locked and read, and ``change`` is made on it.
    """
    edit = _unlocked_edit(game_id, token, number, if_match, change)
    if edit is None:
        with _editing(game_id, token, if_match, number) as (connection, stored, snapshot):
            edit = _RoundEdit(stored, snapshot, number)
            change(edit)
            if not _write(connection, edit):
                raise RuntimeError("a write under the game's lock found the game changed")
    return edit.result()


def _unlocked_edit(
    game_id: str,
    token: Credential,
    number: int,
    if_match: Collection[int] | None,
    change: Callable[[_RoundEdit], None],
) -> _RoundEdit | None:
    """The edit made and written on the version of the game this process knows, or ``None``
    when it cannot be: the game is not known here, the checks or ``change`` refuse on that
    version (the refusal is then given from the game as stored, under its lock), or the
    game moved on (nothing is then written)."""
    if not isinstance(token, str) or not token:
        return None  # a browser's right is asked of the database under the lock
    known = _cache().latest(game_id)
    if known is None:
        return None
    stored, snapshot = known
    edit = _RoundEdit(stored, snapshot, number)
    try:
        _check_edit(stored, token, number, if_match)
        change(edit)
    except (rules.RuleError, ServiceError):
        return None
    return edit if _write_alone(edit) else None


def _write_alone(edit: _RoundEdit) -> bool:
    """Write ``edit`` in a transaction of its own, on a connection of its own (the ORM's
    session has nothing to do here); whether the game was still at the version the edit was
    made on (when not, nothing is written).

    Its one statement on PostgreSQL runs in autocommit: it is a transaction by itself, and
    BEGIN and COMMIT cost no round trips of their own.
    """
    engine = db.engine
    options: dict[str, object] = {WRITE_OPTION: True}
    if engine.dialect.name == "postgresql":
        options["isolation_level"] = "AUTOCOMMIT"
    with (
        engine.connect().execution_options(**options) as connection,
        connection.begin() as transaction,
    ):
        if _write(connection, edit):
            return True
        transaction.rollback()
        return False


def _write(connection: Connection, edit: _RoundEdit) -> bool:
    """Write what ``edit`` changed, if the game is still at the version it was made on."""
    return store.write_round(
        connection, edit.game, edit.before, edit.round, now=edit.now, change=edit.change
    )


def authorize(game_id: str, token: Credential, number: int | None = None) -> None:
    """Raise unless ``token`` may edit game ``game_id`` (which has round ``number``).

    The write use cases check the token again inside their transaction; this lets a
    caller refuse a stranger before it even reads the request.
    """
    if not token:
        raise TokenMissing()
    if not valid_id(game_id):
        raise GameNotFound()
    found = store.read_credentials(db.session.connection(), game_id)
    if found is None:
        raise GameNotFound()
    token_hash, rounds = found
    _verify_token(game_id, token_hash, token)
    if number is not None:
        _check_round_number(rounds, number)


def _verify_token(game_id: str, token_hash: str, token: str | Device) -> None:
    if isinstance(token, Device):
        if not has_grant(game_id, token):
            raise NotKeeper()
        return
    # Compare hashes in constant time: the stored hash is all the database knows.
    if not hmac.compare_digest(hash_token(token), token_hash):
        raise TokenRejected()


def has_grant(game_id: str, device: Device) -> bool:
    # Asked of the database each time: a write checks the grant again inside its
    # transaction, after the lock, in case it was revoked meanwhile.
    return store.has_grant(db.session.connection(), game_id, device.hash)


def can_edit(game_id: str, device: Device | None) -> bool:
    """Whether this browser keeps the score of game ``game_id``."""
    return device is not None and valid_id(game_id) and has_grant(game_id, device)


def _check_round_number(rounds: int, number: int) -> None:
    if not 1 <= number <= rounds:
        raise RoundNotFound(rounds=rounds, round=number)


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
    with write_transaction():
        db.session.add(game)
        if device is not None:
            db.session.add(Grant(device_hash=device.hash, game_id=game.id, created_at=now))
    stored = StoredGame(
        id=game.id,
        version=game.version,
        edit_token_hash=game.edit_token_hash,
        created_at=now,
        updated_at=now,
        table=table,
    )
    return NewGame(game=_snapshot_of(stored), edit_token=token)


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

    def change(edit: _RoundEdit) -> None:
        if not scored_too:
            rules.verify_not_scored(edit.view, number)
        rules.verify_trump_turn(edit.view, number)
        edit.round = edit.round.with_trump(rules.trump_from(turned, chosen))
        edit.mark_if_correction()
        edit.audit("trump")

    return _edit_round(game_id, token, number, if_match, change)


def record_bids(
    game_id: str,
    token: Credential,
    number: int,
    bids: Sequence[int | None],
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or replace) the bids of round ``number``; ``None`` is a bid not made yet."""

    def change(edit: _RoundEdit) -> None:
        rules.verify_bids_turn(edit.view, number, bids)
        edit.round = edit.round.with_entries(edit.seats, bid=bids)
        edit.mark_if_correction()
        edit.audit("bids")

    return _edit_round(game_id, token, number, if_match, change)


@dataclass(frozen=True)
class BidRecorded:
    """One bid recorded: the game as it left it, and why the dealer's bid was taken back when
    the new bid left it forbidden (``None``: it was not)."""

    game: GameSnapshot
    dealer_bids_again: rules.BidError | None = None


def record_bid(
    game_id: str,
    token: Credential,
    number: int,
    seat: int,
    bid: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> BidRecorded:
    """Record (``None``: take back) one player's bid in round ``number``, keeping the others,
    while the round is not yet scored (a scored round is corrected as a whole). A dealer's
    bid that the new bid leaves forbidden is taken back, for the dealer to bid again."""
    again: rules.BidError | None = None

    def change(edit: _RoundEdit) -> None:
        nonlocal again
        view = edit.view
        rules.verify_not_scored(view, number)
        _verify_seat(view.table, seat)
        changed = rules.change_bid(view, number, seat, bid)
        edit.round = edit.round.with_entries(edit.seats, bid=changed.bids)
        again = changed.dealer_bids_again
        edit.mark_if_correction()
        edit.audit("bids")

    game = _edit_round(game_id, token, number, if_match, change)
    return BidRecorded(game, again)


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

    def change(edit: _RoundEdit) -> None:
        rules.verify_tricks_turn(edit.view, number, tricks)
        _write_tricks(edit, tricks)
        edit.mark_if_correction()
        edit.audit("tricks")

    return _edit_round(game_id, token, number, if_match, change)


def _write_tricks(edit: _RoundEdit, tricks: Sequence[int]) -> None:
    """The round's tricks, which score it; the drafts tapped in give way to them."""
    edit.round = edit.round.with_entries(edit.seats, tricks=tricks, draft=(None,) * edit.seats)


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

    def change(edit: _RoundEdit) -> None:
        view = edit.view
        if not edit.scored:
            raise rules.OutOfTurnError(
                _("Round %(round)d is not scored yet, so there is nothing to correct."),
                round=number,
            )
        rules.verify_bids_turn(view, number, bids)
        rules.verify_tricks_turn(view, number, tricks)
        if turned is not None:
            rules.verify_trump_turn(view, number)
            edit.round = edit.round.with_trump(rules.trump_from(turned, chosen))
        edit.round = edit.round.with_entries(edit.seats, bid=bids, tricks=tricks)
        edit.mark_if_correction()
        edit.audit("correction")

    return _edit_round(game_id, token, number, if_match, change)


def delete_game(
    game_id: str, token: Credential, *, if_match: Collection[int] | None = None
) -> None:
    """Delete a game: it reads as unknown from now on (its facts are kept, marked deleted)."""
    with _editing(game_id, token, if_match) as (connection, stored, _):
        store.mark_deleted(connection, stored, utcnow())


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

    def change(edit: _RoundEdit) -> None:
        view = edit.view
        rules.verify_trick_draft_turn(view, number)
        _verify_seat(view.table, seat)
        if count is not None:
            rules.verify_trick_count(view.table, number, seat, count)
        edit.round = edit.round.with_entry(edit.seats, seat, draft=count)

    return _edit_round(game_id, token, number, if_match, change)


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

    def change(edit: _RoundEdit) -> None:
        view = edit.view
        rules.verify_trick_draft_turn(view, number)
        round_view = view.round(number)
        if all_made:
            tricks = rules.all_made_tricks(number, round_view.bids or ())
        else:
            tricks = rules.complete_draft(view.table, number, edit.snapshot.draft(number))
        rules.verify_tricks_turn(view, number, tricks)
        _write_tricks(edit, tricks)
        edit.audit("score")

    return _edit_round(game_id, token, number, if_match, change)


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
    return [snapshot(game) for game in db.session.scalars(statement)]


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
HANDOVER_MINUTES = errors.HANDOVER_MINUTES
HANDOVER_LIFETIME = timedelta(minutes=HANDOVER_MINUTES)


def game_version(game_id: str) -> int:
    """The game's version, in one query: what a page polling for changes compares."""
    if not valid_id(game_id):
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
    with write_transaction():
        # Locked as "only this phone keeps score" locks it: a phone whose right is being
        # taken away meanwhile waits, then is refused, rather than leaving a link behind.
        game = _load(game_id, for_update=True)
        _verify_token(game.id, game.edit_token_hash, device)
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
    if row is None or row.used_at is not None or store.aware(row.expires_at) <= utcnow():
        raise HandoverInvalid()
    return get_game(row.game_id)


def redeem_handover(token: str, device: Device) -> str:
    """Use a hand-over token up: ``device`` gets the right to keep score; the game's id.

    Two browsers redeeming one token at once: the game row is locked first, then the token
    is claimed by a conditional update, so exactly one of them wins.
    """
    token_hash = hash_token(token)
    now = utcnow()
    with write_transaction():
        game_id = db.session.scalar(
            select(Handover.game_id).where(Handover.token_hash == token_hash)
        )
        if game_id is None:
            raise HandoverInvalid()
        _load(game_id, for_update=True)
        claimed = db.session.execute(
            update(Handover)
            .where(Handover.token_hash == token_hash, *_still_works(now))
            .values(used_at=now)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise HandoverInvalid()
        if not has_grant(game_id, device):
            db.session.add(Grant(device_hash=device.hash, game_id=game_id, created_at=now))
    return game_id


def other_keepers(game_id: str, device: Device | None) -> int:
    """How many other browsers keep the score of the game."""
    statement = select(func.count()).where(Grant.game_id == game_id)
    if device is not None:
        statement = statement.where(Grant.device_hash != device.hash)
    return db.session.scalar(statement) or 0


def open_handovers(game_id: str) -> int:
    """How many hand-over links of the game still work (not used, not expired)."""
    statement = select(func.count()).where(Handover.game_id == game_id, *_still_works(utcnow()))
    return db.session.scalar(statement) or 0


def _still_works(now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The conditions on a hand-over link that still works at ``now``: not used, not expired."""
    return (Handover.used_at.is_(None), Handover.expires_at > now)


def revoke_other_keepers(game_id: str, device: Device | None) -> int:
    """Take the right to keep score from every other browser, and void the hand-over links
    not yet used; the number of browsers that lost it. The API's edit token stays valid."""
    if device is None:
        raise NotKeeper()
    with write_transaction():
        game = _load(game_id, for_update=True)
        _verify_token(game.id, game.edit_token_hash, device)
        revoked = db.session.execute(
            delete(Grant).where(Grant.game_id == game_id, Grant.device_hash != device.hash)
        )
        db.session.execute(
            delete(Handover).where(Handover.game_id == game_id, Handover.used_at.is_(None))
        )
    return int(revoked.rowcount)  # type: ignore[attr-defined]
