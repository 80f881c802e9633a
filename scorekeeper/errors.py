"""The refusals of the use cases, each with the HTTP status and problem type it is answered
with: the API answers them as problem+json, the pages as an error page, both from here."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from .rules.messages import gettext_noop as _

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")

#: Minutes a hand-over link works.
HANDOVER_MINUTES = 15

#: The problem type (API.md) each status is answered with.
PROBLEMS = {
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    410: "gone",
    412: "stale-version",
    422: "rule-violation",
    500: "server-error",
}


class ServiceError(Exception):
    """A request the service refuses for a reason outside the game's rules; each subclass's
    message says which (a deleted game is no game)."""

    status = 500
    message: str = ""
    headers: ClassVar[Mapping[str, str]] = {}

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
    headers: ClassVar[Mapping[str, str]] = {"WWW-Authenticate": "Bearer"}
    message = _("Changing a game needs its edit token.")


class TokenRejected(ServiceError):
    status = 403
    message = _("This edit token does not belong to this game, so it cannot change it.")


class NotKeeper(TokenRejected):
    message = _(
        "This phone does not keep the score of this game, so it cannot change it: "
        "only a phone the scorekeeper handed it to can."
    )


class HandoverInvalid(ServiceError):
    status = 410
    message = _(
        "This hand-over link no longer works (each link works once, for %(minutes)d minutes): "
        "ask the scorekeeper for a new one."
    )

    def __init__(self) -> None:
        super().__init__(minutes=HANDOVER_MINUTES)


class StaleVersion(ServiceError):
    status = 412
    message = _(
        "The game has changed since the version you saw (it is now at version %(version)d): "
        "load it again and retry."
    )


class ImportRefused(ServiceError):
    status = 422
    message = _("Nothing was imported, as the file is refused: %(reason)s")


class GameImportRefused(ServiceError):
    status = 422
    message = _("Nothing was imported, as game %(game)s is refused: %(reason)s")


class RoundImportRefused(ServiceError):
    status = 422
    message = _("Nothing was imported, as round %(round)d of game %(game)s is refused: %(reason)s")
