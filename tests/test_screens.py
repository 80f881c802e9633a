"""What the round screen shows, asked of the rules: here, how its number buttons line up."""

from __future__ import annotations

import pytest

from scorekeeper.screens import Choice, Row


def _row(buttons: int) -> Row:
    choices = [Choice(value=value, current=False, refused=False) for value in range(buttons)]
    return Row(seat=0, name="Ann", dealer=False, bid=None, has_bid=False, choices=choices)


@pytest.mark.parametrize(
    ("round_number", "per_line", "lines"),
    [
        (1, None, [2]),
        (5, None, [6]),
        (6, 4, [4, 3]),
        (7, 4, [4, 4]),
        (10, 6, [6, 5]),
        (12, 5, [5, 5, 3]),
        (17, 6, [6, 6, 6]),
        (18, 5, [5, 5, 5, 4]),
        (20, 6, [6, 6, 6, 3]),
    ],
)
def test_number_buttons_stand_in_even_lines(
    round_number: int, per_line: int | None, lines: list[int]
) -> None:
    """A round of n cards has n + 1 buttons (0 to n); six fit a line of a 360 px phone."""
    buttons = round_number + 1
    row = _row(buttons)
    assert row.per_line == per_line
    width = per_line or buttons
    assert [min(width, buttons - start) for start in range(0, buttons, width)] == lines
