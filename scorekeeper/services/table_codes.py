"""The table code: a short code the scorekeeper's screen shows and the table can read aloud,
which any phone that follows the game can enter to keep its score, with nothing prepared
before (``docs/design.md``). Only a keyed hash of it is stored, and wrong guesses are
counted per game under the game's lock, so the limit holds across every worker."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from ..errors import (
    TABLE_CODE_DIGITS,
    TableCodeGuessesSpent,
    TableCodeMalformed,
    TableCodeMissing,
    TableCodeWrong,
    TokenMissing,
)
from ..extensions import db
from ..models import TableCodeRow, utcnow
from .ids import EDIT_TOKEN_BYTES
from .loading import aware
from .sharing import (
    VOID_CODE,
    Browser,
    KeeperProof,
    is_keeper,
    lock_game,
    take_over,
    verify_keeper,
)
from .transaction import write_transaction

DIGITS = TABLE_CODE_DIGITS
#: Wrong codes a game takes per window, from all addresses together; then it refuses every
#: code, the right one too, until the window ends.
GUESSES_PER_WINDOW = 10
GUESS_WINDOW = timedelta(hours=1)
#: The rate limit's scope per address (``RATELIMIT_TABLE_CODE``): the page and the API share it.
LIMIT_SCOPE = "table-code"

#: Characters a person may type between the digits (as the screen groups them, or a dash).
_SEPARATORS = str.maketrans("", "", " -.\u00a0\u202f")


@dataclass(frozen=True)
class TakenOver:
    """A successful table code: the game, and the bearer token an app was given (``None``
    when a browser took the right)."""

    game_id: str
    token: str | None = None


def normalize(code: str) -> str:
    """The code's digits, as typed with spaces or dashes; :class:`TableCodeMalformed` when it
    is not :data:`DIGITS` ASCII digits."""
    digits = code.translate(_SEPARATORS) if len(code) <= 4 * DIGITS else ""
    if len(digits) != DIGITS or not (digits.isascii() and digits.isdigit()):
        raise TableCodeMalformed()
    return digits


def grouped(code: str) -> str:
    """The code as the screen shows it, in groups of four digits: easy to read aloud."""
    return " ".join(code[start : start + 4] for start in range(0, len(code), 4))


def code_hash(game_id: str, code: str, secret: str | bytes) -> str:
    """HMAC-SHA-256 of the game's code, keyed with the app's secret key: the database alone
    gives no way to try the codes through."""
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, f"table-code:{game_id}:{code}".encode(), hashlib.sha256).hexdigest()


def _random_code() -> str:
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


def _store(game_id: str, secret: str | bytes) -> str:
    """A new code for the game (the old one is void); the wrong guesses so far still count."""
    code = _random_code()
    now = utcnow()
    row = db.session.get(TableCodeRow, game_id)
    if row is None:
        row = TableCodeRow(game_id=game_id, window_started_at=now)
        db.session.add(row)
    row.code_hash = code_hash(game_id, code, secret)
    row.created_at = now
    return code


def new_code(game_id: str, proof: KeeperProof, secret: str | bytes) -> str:
    """A new table code, made by whoever may keep the score; the old one no longer works."""
    if not proof:
        raise TokenMissing()
    with write_transaction():
        token_hash = lock_game(game_id)
        verify_keeper(game_id, token_hash, proof)
        return _store(game_id, secret)


def is_current(game_id: str, code: str | None, secret: str | bytes) -> bool | None:
    """Whether ``code`` is the game's table code now; ``None`` when the game has none (one
    read)."""
    stored = db.session.scalar(
        select(TableCodeRow.code_hash).where(TableCodeRow.game_id == game_id)
    )
    if stored is None or stored == VOID_CODE:
        return None
    return code is not None and hmac.compare_digest(stored, code_hash(game_id, code, secret))


def first_code(game_id: str, browser: Browser, secret: str | bytes) -> str | None:
    """A table code for a game that has none yet, made for a browser that keeps its score
    (the round screen shows it unasked); ``None`` when the game has one already, which this
    browser does not know (it may show a new one)."""
    with write_transaction():
        lock_game(game_id)
        row = db.session.get(TableCodeRow, game_id)
        if not is_keeper(game_id, browser) or (row is not None and row.code_hash != VOID_CODE):
            return None
        return _store(game_id, secret)


def redeem(
    game_id: str, code: str, secret: str | bytes, browser: Browser | None = None
) -> TakenOver:
    """Take the right to keep the score over with the table code: ``browser`` gets it, or else
    an app gets a bearer token of its own; every other keeper loses it, and the code is used up
    (:func:`sharing.take_over`: the new keeper's screen shows a new one). A wrong code counts
    against the game's guesses."""
    digits = normalize(code)
    now = utcnow()
    with write_transaction():
        lock_game(game_id)
        row = db.session.get(TableCodeRow, game_id, populate_existing=True)
        if row is None:
            raise TableCodeMissing()
        if aware(row.window_started_at) + GUESS_WINDOW <= now:
            row.window_started_at, row.failures = now, 0
        if row.code_hash == VOID_CODE and row.failures < GUESSES_PER_WINDOW:
            raise TableCodeMissing()
        window_ends = aware(row.window_started_at) + GUESS_WINDOW
        if row.failures >= GUESSES_PER_WINDOW:
            raise TableCodeGuessesSpent(int((window_ends - now).total_seconds()) + 1)
        right = hmac.compare_digest(row.code_hash, code_hash(game_id, digits, secret))
        if right:
            token = None
            if browser is None:
                token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
                browser = Browser(token)
            take_over(game_id, browser, now)
            return TakenOver(game_id, token)
        # The wrong guess is counted in this transaction, which commits before the refusal.
        row.failures += 1
    raise TableCodeWrong()
