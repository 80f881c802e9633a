"""What the round screen shows, asked of the rules: here, how its number buttons line up."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.web.screens import NumberButton, Row

APP_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "app.css"


def _row(buttons: int) -> Row:
    choices = [NumberButton(value=value, current=False, refused=False) for value in range(buttons)]
    return Row(seat=0, name="Ann", dealer=False, bid=None, has_bid=False, choices=choices)


@pytest.mark.parametrize(
    ("round_number", "per_line"),
    [
        (1, None),  # 0 and 1: one line
        (5, None),  # 0 to 5: six, one line
        (6, 4),  # seven: 4 and 3, not 6 and a lone 6
        (7, 4),  # eight: 4 and 4
        (8, 5),  # nine: 5 and 4
        (10, 6),  # eleven: 6 and 5
        (12, 5),  # thirteen: 5, 5 and 3 (not 6, 6 and 1)
        (17, 6),  # eighteen: 6, 6 and 6
        (18, 5),  # nineteen: 5, 5, 5 and 4 (not 6, 6, 6 and 1)
        (20, 6),  # twenty-one: 6, 6, 6 and 3
    ],
)
def test_number_buttons_stand_in_even_lines(round_number: int, per_line: int | None) -> None:
    """A round of n cards has n + 1 buttons (0 to n); six fit a line of a 360 px phone."""
    assert _row(round_number + 1).per_line == per_line


def test_each_line_width_holds_its_buttons_and_no_more() -> None:
    """The classes' widths follow the buttons' size and gap: n of them fit, n + 1 do not."""
    css = APP_CSS.read_text()
    tap, gap = (
        float(found.group(1))
        for found in (
            re.search(r"--tap:([\d.]+)rem", css),
            re.search(r"\.numbers\{[^}]*gap:([\d.]+)rem", css),
        )
        if found is not None
    )
    widths = {int(n): float(rem) for n, rem in re.findall(r"\.c(\d)\{max-width:([\d.]+)rem\}", css)}
    used = {_row(buttons).per_line for buttons in range(1, 22)} - {None}
    assert set(widths) == used
    for count, width in widths.items():
        assert count * tap + (count - 1) * gap <= width < (count + 1) * tap + count * gap
