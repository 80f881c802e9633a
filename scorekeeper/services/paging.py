"""Keyset paging: where the next page of a list starts, as a short text for a link."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .ids import valid_id

_EPOCH = datetime(1970, 1, 1)
_MICROSECOND = timedelta(microseconds=1)


def cursor(moment: datetime, key: str | int) -> str:
    """Where a page starts, for a link: a stored time (in microseconds) and a row's key."""
    naive = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    return f"{(naive - _EPOCH) // _MICROSECOND}.{key}"


def read_cursor(text: str) -> tuple[datetime, str] | None:
    """The time (naive UTC, as stored) and key of a :func:`cursor`, ``None`` if it is none."""
    micros, _, key = text.partition(".")
    digits = micros.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18 and valid_id(key)):
        return None
    try:
        return _EPOCH + int(micros) * _MICROSECOND, key
    except OverflowError:  # before year 1 or after 9999
        return None
