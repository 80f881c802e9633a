"""Who keeps a game's score: edit tokens, keepers (browsers), hand-over links, and the check
every write makes under the game's lock. One browser (or app) keeps the score at a time:
taking it over, by a hand-over link or the table code, ends every other keeper's right."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete, exists, func, insert, literal, select, update

from .. import errors
from ..errors import (
    HandoverInvalid,
    KeeperReplaced,
    NotKeeper,
    StaleVersion,
    TokenMissing,
    TokenRejected,
)
from ..extensions import db
from ..models import EndedKeeperRow, GameRow, HandoverRow, KeeperRow, TableCodeRow, utcnow
from ..rules.table import Table
from .ids import valid_id
from .loading import GameSnapshot, aware, check_round_number, live_game, load_game
from .transaction import write_transaction

#: The stored hash of a table code taken back: no code's hash (those are 64 hex digits).
VOID_CODE = ""
HANDOVER_TOKEN_BYTES = 32  # 256 random bits, as edit tokens
HANDOVER_MINUTES = errors.HANDOVER_MINUTES
HANDOVER_LIFETIME = timedelta(minutes=HANDOVER_MINUTES)


@dataclass(frozen=True)
class Browser:
    """A browser, known by the random key in its signed cookie (only its hash is stored)."""

    key: str

    @property
    def hash(self) -> str:
        """The hash the database knows the browser by."""
        return hash_token(self.key)


#: Who asks to write: an edit token (the API), a browser (the pages), or nobody.
KeeperProof = str | Browser | None


def hash_token(token: str) -> str:
    """SHA-256 of an edit token; the token has 256 random bits, so no salt or stretching."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def is_keeper(game_id: str, browser: Browser | None) -> bool:
    """Whether this browser keeps the score of game ``game_id`` (a write asks again under the
    lock)."""
    if browser is None or not valid_id(game_id):
        return False
    mine = (KeeperRow.game_id == game_id, KeeperRow.browser_hash == browser.hash)
    return bool(db.session.scalar(select(exists().where(*mine))))


def taken_over(game_id: str, browser: Browser) -> bool:
    """Whether another browser (or app) took the right to keep the game's score from this one."""
    statement = select(
        exists().where(
            EndedKeeperRow.game_id == game_id, EndedKeeperRow.browser_hash == browser.hash
        )
    )
    return bool(db.session.scalar(statement))


def not_keeper(game_id: str, browser: Browser | None) -> NotKeeper:
    """The refusal for a browser that does not keep the game's score: when another took the
    right over from it, it says so, and how to take it back."""
    if browser is not None and valid_id(game_id) and taken_over(game_id, browser):
        return KeeperReplaced(game_id)
    return NotKeeper()


def verify_keeper(game_id: str, token_hash: str, proof: str | Browser) -> None:
    """Raise unless ``proof`` (an edit token, or a browser) keeps the game's score. A bearer
    token is the game's edit token or one a table code was exchanged for (kept as a keeper, by
    its hash)."""
    if isinstance(proof, Browser):
        if not is_keeper(game_id, proof):
            raise not_keeper(game_id, proof)
    # Compare hashes in constant time: the stored hash is all the database knows.
    elif not hmac.compare_digest(hash_token(proof), token_hash) and not is_keeper(
        game_id, bearer := Browser(proof)
    ):
        raise KeeperReplaced(game_id) if taken_over(game_id, bearer) else TokenRejected()


def authorize(game_id: str, proof: KeeperProof, number: int | None = None) -> None:
    """Raise unless ``proof`` keeps the score of game ``game_id`` (which has round ``number``):
    a stranger is refused before the request is read (the write checks again)."""
    if not proof:
        raise TokenMissing()
    token_hash, rounds = live_game(game_id, GameRow.edit_token_hash, GameRow.round_count)
    verify_keeper(game_id, token_hash, proof)
    if number is not None:
        check_round_number(rounds, number)


@contextmanager
def as_keeper(
    game_id: str,
    proof: KeeperProof,
    if_match: Collection[int] | None,
    number: int | None = None,
    values: Callable[[Table], None] | None = None,
) -> Iterator[GameSnapshot]:
    """The game, locked in a write transaction, once ``proof`` is its keeper, it has round
    ``number``, ``values`` accepts the request's values (those no version of the game makes
    right) and it is at a version ``if_match`` names, checked in that order (404, 422, 412)."""
    if not proof:
        raise TokenMissing()
    with write_transaction():
        game = load_game(game_id, lock=True)
        verify_keeper(game.id, game.edit_token_hash, proof)
        if number is not None:
            check_round_number(game.table.rules.rounds, number)
        if values is not None:
            values(game.table)
        if if_match is not None and game.version not in if_match:
            raise StaleVersion(version=game.version)
        yield game
        # Objects the session loaded before this write would now be out of date.
        db.session.expire_all()


def create_handover(game_id: str, browser: Browser | None) -> str:
    """A token, made by a browser that keeps the score, that hands the right to keep it to
    another browser, once, for :data:`HANDOVER_LIFETIME` (only its hash is stored)."""
    token = secrets.token_urlsafe(HANDOVER_TOKEN_BYTES)
    now = utcnow()
    with _keeping(game_id, browser):
        # Links that can no longer be used are of no use to keep.
        db.session.execute(
            delete(HandoverRow).where(HandoverRow.game_id == game_id, HandoverRow.expires_at <= now)
        )
        db.session.add(
            HandoverRow(
                token_hash=hash_token(token),
                game_id=game_id,
                created_at=now,
                expires_at=now + HANDOVER_LIFETIME,
            )
        )
    return token


@contextmanager
def _keeping(game_id: str, browser: Browser | None) -> Iterator[Browser]:
    """A write transaction on the game, locked, once ``browser`` keeps its score: a browser
    whose right is being taken away meanwhile waits, then is refused."""
    if browser is None:
        raise NotKeeper()
    with write_transaction():
        lock_game(game_id)
        if not is_keeper(game_id, browser):
            raise not_keeper(game_id, browser)
        yield browser


def lock_game(game_id: str) -> str:
    """Lock the game's row (undeleted) for the rest of the write transaction; the hash of its
    edit token."""
    return str(live_game(game_id, GameRow.edit_token_hash, lock=True).edit_token_hash)


def handover_game(token: str) -> GameSnapshot:
    """The game a hand-over token would hand over, without using it up."""
    row = db.session.get(HandoverRow, hash_token(token))
    if row is None or row.used_at is not None or aware(row.expires_at) <= utcnow():
        raise HandoverInvalid()
    return load_game(row.game_id)


def redeem_handover(token: str, browser: Browser) -> str:
    """Use a hand-over token up: ``browser`` takes the right to keep score over (:func:`take_over`);
    the game's id. Of two browsers redeeming it at once, one wins: the token is claimed by a
    conditional update."""
    token_hash = hash_token(token)
    now = utcnow()
    with write_transaction():
        game_id = db.session.scalar(
            select(HandoverRow.game_id).where(HandoverRow.token_hash == token_hash)
        )
        if game_id is None:
            raise HandoverInvalid()
        lock_game(game_id)
        claimed = db.session.execute(
            update(HandoverRow)
            .where(HandoverRow.token_hash == token_hash, *_still_works(now))
            .values(used_at=now)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            raise HandoverInvalid()
        take_over(game_id, browser, now)
    return game_id


def take_over(game_id: str, browser: Browser, now: datetime) -> None:
    """Make ``browser`` the one keeper of the game, in the caller's write transaction, the game
    locked: every other keeper's right ends (:func:`only_keeper`), and this browser's ended one is
    forgotten."""
    only_keeper(game_id, browser, now)
    if not is_keeper(game_id, browser):
        mine = (EndedKeeperRow.game_id == game_id, EndedKeeperRow.browser_hash == browser.hash)
        db.session.execute(delete(EndedKeeperRow).where(*mine))
        db.session.add(KeeperRow(browser_hash=browser.hash, game_id=game_id, created_at=now))


def other_keepers(game_id: str, browser: Browser | None) -> int:
    """How many other browsers keep the score of the game."""
    statement = select(func.count()).where(KeeperRow.game_id == game_id)
    if browser is not None:
        statement = statement.where(KeeperRow.browser_hash != browser.hash)
    return db.session.scalar(statement) or 0


def open_handovers(game_id: str) -> int:
    """How many hand-over links of the game still work (not used, not expired)."""
    statement = select(func.count()).where(HandoverRow.game_id == game_id, *_still_works(utcnow()))
    return db.session.scalar(statement) or 0


def _still_works(now: datetime) -> tuple[ColumnElement[bool], ...]:
    """A hand-over link that still works at ``now``: not used, not expired."""
    return (HandoverRow.used_at.is_(None), HandoverRow.expires_at > now)


def revoke_other_keepers(game_id: str, browser: Browser | None) -> int:
    """Take the right to keep score from every other browser (:func:`only_keeper`), asked by
    a browser that keeps it; the number of browsers that lost it."""
    with _keeping(game_id, browser) as keeper:
        return only_keeper(game_id, keeper, utcnow())


def only_keeper(game_id: str, keeper: Browser, now: datetime) -> int:
    """End the right of every keeper of the game but ``keeper`` (each ended one is kept, so
    that its browser's next write is told why it is refused), and void the hand-over links not yet
    used and the table code, which the others may know (the API's edit token stays valid;
    the keeper is shown a new code, and the wrong guesses counted stay counted); the number of
    keepers that lost it. In the caller's write transaction, the game locked."""
    others = (KeeperRow.game_id == game_id, KeeperRow.browser_hash != keeper.hash)
    ended = select(
        KeeperRow.browser_hash, KeeperRow.game_id, literal(now, EndedKeeperRow.ended_at.type)
    )
    db.session.execute(
        insert(EndedKeeperRow).from_select(
            ["browser_hash", "game_id", "ended_at"], ended.where(*others)
        )
    )
    revoked = db.session.execute(delete(KeeperRow).where(*others))
    db.session.execute(
        delete(HandoverRow).where(HandoverRow.game_id == game_id, HandoverRow.used_at.is_(None))
    )
    # The code is void; its row, with the wrong guesses counted so far, stays.
    db.session.execute(
        update(TableCodeRow).where(TableCodeRow.game_id == game_id).values(code_hash=VOID_CODE)
    )
    return int(revoked.rowcount)  # type: ignore[attr-defined]
