"""Racing phones: 100 pairs of writes on the same version of one game, through the API and
through the round screen's form, on each backend: one wins, the other is told (412), and
no acknowledged write is ever missing."""

from __future__ import annotations

import pytest
from flask import Flask

from ..racing import Counts, race_api, race_forms

# The outcome depends on the backend: run on both (docs/development.md).
pytestmark = pytest.mark.both_backends

PAIRS = 100


def assert_every_loser_told(counts: Counts) -> None:
    assert counts.other == []
    assert counts.silent_overwrites == 0
    assert counts.winners == PAIRS
    assert counts.losers_told == PAIRS


def test_racing_api_writes_one_wins_the_other_is_told(app: Flask) -> None:
    assert_every_loser_told(race_api(app, PAIRS))


def test_racing_form_taps_one_wins_the_other_is_told(app: Flask) -> None:
    assert_every_loser_told(race_forms(app, PAIRS))
