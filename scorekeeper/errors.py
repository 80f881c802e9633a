"""The refusals of the use cases, each with the HTTP status and problem type it is answered
with: the API answers them as problem+json, the pages as an error page, both from here."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from .rules.messages import Count
from .rules.messages import gettext_noop as _

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")

#: Minutes a hand-over link works.
HANDOVER_MINUTES = 15

#: Digits of a table code.
TABLE_CODE_DIGITS = 8

#: The problem type (API.md) each status is answered with, unless a refusal names its own.
PROBLEMS = {
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    410: "gone",
    412: "stale-version",
    413: "payload-too-large",
    422: "rule-violation",
    429: "too-many-requests",
    500: "server-error",
    503: "unavailable",
}


class ServiceError(Exception):
    """A request the service refuses for a reason outside the game's rules; each subclass's
    message says which (a deleted game is no game)."""

    status = 500
    message: str = ""
    #: Headers the answer carries (a class's, or one refusal's own).
    headers: Mapping[str, str] = MappingProxyType({})
    #: Seconds to wait before trying again, when the refusal has one (:class:`WaitRequired`).
    wait: int | None = None

    def __init__(self, **params: object) -> None:
        # A text quoted from a request (an imported name) may hold a lone surrogate, which
        # no page or body can be encoded with: it is shown as U+FFFD, "�".
        self.params = {
            key: _LONE_SURROGATE.sub("\N{REPLACEMENT CHARACTER}", value)
            if isinstance(value, str)
            else value
            for key, value in params.items()
        }
        super().__init__(self.message % self.params)

    @property
    def problem(self) -> str:
        """The problem type the API answers with."""
        return PROBLEMS[self.status]


class GameNotFound(ServiceError):
    status = 404
    message = _("There is no game with this id.")


class RoundNotFound(ServiceError):
    status = 404
    message = _("This game has rounds 1 to %(rounds)d, so there is no round %(round)d.")


class GameExists(ServiceError):
    """A page's form sent again: the game it started is there already (pages only)."""

    status = 409
    message = _("This game was started already.")


class TokenMissing(ServiceError):
    status = 401
    headers: Mapping[str, str] = MappingProxyType({"WWW-Authenticate": "Bearer"})
    message = _("Changing a game needs its edit token.")


class TokenRejected(ServiceError):
    status = 403
    message = _("This edit token does not belong to this game, so it cannot change it.")


class NotKeeper(TokenRejected):
    message = _(
        "This phone does not keep the score of this game, so it cannot change it: "
        "only a phone the scorekeeper handed it to can."
    )


class KeeperReplaced(NotKeeper):
    """A browser (or app) that kept the score until another took it over: the pages lead it
    to the game's keep-score page (``game_id``), where it can take the game back."""

    message = _(
        "Another phone took over scorekeeping for this game. To keep score here again, "
        "enter the table code shown on that phone."
    )

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id


class HandoverInvalid(ServiceError):
    status = 410
    message = _(
        "This hand-over link no longer works (each link works once, for %(minutes)d minutes): "
        "ask the scorekeeper for a new one."
    )

    def __init__(self) -> None:
        super().__init__(minutes=HANDOVER_MINUTES)


class TableCodeMalformed(ServiceError):
    status = 422
    message = _(
        "A table code is %(digits)d digits, as the scorekeeper's screen shows it: "
        "check it and enter it again."
    )

    def __init__(self) -> None:
        super().__init__(digits=TABLE_CODE_DIGITS)


class TableCodeWrong(ServiceError):
    status = 403
    problem = "table-code-rejected"
    message = _(
        "This is not the table code of this game: ask the scorekeeper to read it out again."
    )


class TableCodeMissing(TableCodeWrong):
    message = _(
        "This game has no table code yet: it appears on the scorekeeper's round screen "
        "and invite page."
    )


class WaitRequired(ServiceError):
    """A refusal that passes once the client has waited ``seconds``: the wait is said after
    the message, in the rate limits' words (:func:`i18n.service_message`), and as
    ``Retry-After``, both from this one number."""

    status = 429

    def __init__(self, seconds: int, **params: object) -> None:
        super().__init__(**params)
        self.wait = max(1, seconds)
        self.headers = {"Retry-After": str(self.wait)}


class TableCodeGuessesSpent(WaitRequired):
    """The game takes no table code until its window of guesses ends in ``seconds``."""

    message = _("Too many wrong table codes were entered for this game.")


class TooManyStreams(WaitRequired):
    """The address follows as many games at once as a worker lets one address follow."""

    message = _("Too many live views are open from your address at once.")


class StreamsFull(WaitRequired):
    """The worker holds as many streams as it can serve (``LIVE_STREAMS_PER_WORKER``): the page
    asks every few seconds instead, and for a stream again after the wait."""

    status = 503
    message = _("This server sends live updates to as many phones as it can.")


class StaleVersion(ServiceError):
    status = 412
    message = _(
        "The game has changed since the version you saw (it is now at version %(version)d): "
        "load it again and retry."
    )


class ImportLimitReached(WaitRequired):
    """An import of more games than the client address may still import in the window."""

    message = _(
        "This address may import %(count)s games in %(window)s, and this file would go past that."
    )

    def __init__(self, *, count: int, window: str, seconds: int) -> None:
        super().__init__(seconds, count=Count(count), window=window)


class ImportTooLarge(ServiceError):
    """A file larger than one import takes (``size``: the limit in MB, as the import page
    states it)."""

    status = 413
    message = _(
        "This file is larger than the %(size)s MB one import takes: import its games in parts."
    )


class ImportOverLimit(ServiceError):
    """A file of more games than the client address may import in a whole window: no wait
    would let it in."""

    status = 422
    message = _(
        "This file holds %(games)s games, more than the %(count)s this address may import in "
        "%(window)s: import it in parts."
    )

    def __init__(self, *, games: int, count: int, window: str) -> None:
        super().__init__(games=Count(games), count=Count(count), window=window)


class ImportRefused(ServiceError):
    status = 422
    message = _("Nothing was imported, as the file is refused: %(reason)s")


class GameImportRefused(ServiceError):
    status = 422
    message = _("Nothing was imported, as game %(game)s is refused: %(reason)s")


class RoundImportRefused(ServiceError):
    status = 422
    message = _("Nothing was imported, as round %(round)d of game %(game)s is refused: %(reason)s")
