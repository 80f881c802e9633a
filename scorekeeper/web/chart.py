"""The score chart: each player's running total after every round, as the points of an SVG
drawn on the server (no chart JavaScript), and the statistics' sparklines. Pure functions of
the totals; the templates (``_chart.html``, ``statistics.html``) only lay the shapes out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

#: The drawing's size in SVG units; it scales to the width of the phone.
WIDTH = 360
HEIGHT = 220
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 10, 30

#: Per player (by seat), a dash pattern and a marker shape besides a colour (``.p0``…``.p5``
#: in app.css, none of them a suit's colour), so colour is never the only cue.
DASHES = ("none", "9 4", "2 3", "10 3 2 3", "5 3", "14 4 2 4 2 4")
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "cross")
MARKER_SIZE = 4.5
#: The corners of the markers drawn as polygons, about their centre, in units of their size.
CORNERS = {
    "square": ((-1, -1), (1, -1), (1, 1), (-1, 1)),
    "triangle": ((0, -1.2), (1.1, 0.8), (-1.1, 0.8)),
    "triangle-down": ((0, 1.2), (1.1, -0.8), (-1.1, -0.8)),
    "diamond": ((0, -1.3), (1, 0), (0, 1.3), (-1, 0)),
}
#: Gridline steps a person reads easily; the first that needs at most MAX_TICKS lines.
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)
MAX_TICKS = 6


class Tick(NamedTuple):
    """A labelled value on an axis and where it is drawn."""

    value: int
    position: float


class Line(NamedTuple):
    """One player's running totals from round 0 (everyone at 0) to the last round scored,
    and how the line is drawn: colour class number (``p0``…``p5``), dash pattern, markers."""

    seat: int
    name: str
    total: int
    points: tuple[tuple[float, float], ...]
    #: The points as an SVG ``points`` attribute.
    polyline: str
    style: int
    dash: str
    #: The marker at the line's end, and at the legend's key, as SVG paths.
    marker: str
    key_marker: str


@dataclass(frozen=True)
class Chart:
    """The whole drawing: the plot's box, the axes' ticks and a line per player."""

    lines: tuple[Line, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def nice_step(low: int, high: int) -> int:
    """The gridline step for values from ``low`` to ``high`` (``low <= 0 <= high``)."""
    for step in STEPS:
        if math.ceil(high / step) - math.floor(low / step) <= MAX_TICKS - 1:
            return step
    span = high - low
    return int(10 ** math.ceil(math.log10(span / (MAX_TICKS - 1))))


def score_chart(players: Sequence[str], totals: Sequence[Sequence[int]], rounds: int) -> Chart:
    """The chart of ``totals`` (the totals after each scored round, in seat order) for a game
    of ``rounds`` rounds: x from round 0 to ``rounds``, y spanning every total and 0."""
    history = [tuple(0 for _ in players), *(tuple(row) for row in totals)]
    values = [value for row in history for value in row]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(low, high)
    bottom_value = math.floor(low / step) * step
    top_value = max(math.ceil(high / step) * step, bottom_value + step)
    plot_bottom, plot_top = HEIGHT - BOTTOM, TOP
    plot_left, plot_right = LEFT, WIDTH - RIGHT

    def x_of(number: int) -> float:
        return round(plot_left + (plot_right - plot_left) * number / max(rounds, 1), 2)

    def y_of(value: int) -> float:
        share = (value - bottom_value) / (top_value - bottom_value)
        return round(plot_bottom - (plot_bottom - plot_top) * share, 2)

    lines = []
    for seat, name in enumerate(players):
        points = tuple((x_of(number), y_of(row[seat])) for number, row in enumerate(history))
        style = seat % len(DASHES)
        lines.append(
            Line(
                seat=seat,
                name=name,
                total=history[-1][seat],
                points=points,
                polyline=" ".join(f"{x:g},{y:g}" for x, y in points),
                style=style,
                dash=DASHES[style],
                marker=marker_path(MARKERS[style], *points[-1]),
                key_marker=marker_path(MARKERS[style], 20, 7),
            )
        )
    y_ticks = tuple(Tick(value, y_of(value)) for value in range(bottom_value, top_value + 1, step))
    x_ticks = tuple(Tick(number, x_of(number)) for number in round_ticks(rounds))
    return Chart(lines=tuple(lines), y_ticks=y_ticks, x_ticks=x_ticks)


def round_ticks(rounds: int) -> list[int]:
    """The rounds labelled on the x axis: every one up to 10, else every 2nd, 3rd, …, at most
    10 labels, the last round always the last of them."""
    step = max(1, math.ceil(rounds / 10))
    ticks = list(range(step, rounds + 1, step)) if step > 1 else list(range(1, rounds + 1))
    if ticks[-1] != rounds:
        # The last round replaces a label too close to it to be read apart.
        ticks[-1] = rounds
    return ticks


def marker_path(shape: str, x: float, y: float, size: float = MARKER_SIZE) -> str:
    """A marker of ``shape`` centred on (``x``, ``y``), as an SVG path."""
    s = size
    if shape == "circle":
        return f"M{x - s:g},{y:g}a{s:g},{s:g} 0 1,0 {2 * s:g},0a{s:g},{s:g} 0 1,0 {-2 * s:g},0Z"
    if shape == "cross":  # two bars
        t = s * 0.35
        return (
            f"M{x - s:g},{y - t:g}H{x + s:g}V{y + t:g}H{x - s:g}Z"
            f"M{x - t:g},{y - s:g}H{x + t:g}V{y + s:g}H{x - t:g}Z"
        )
    corners = ((x + dx * s, y + dy * s) for dx, dy in CORNERS[shape])
    return "M" + "L".join(f"{round(cx, 2):g},{round(cy, 2):g}" for cx, cy in corners) + "Z"


# -- Sparklines: a player's final totals on the statistics page ---------------------------

SPARK_WIDTH = 120
SPARK_HEIGHT = 32
SPARK_MARGIN = 2


@dataclass(frozen=True)
class Sparkline:
    """A player's totals as a small line chart: SVG points in a ``width`` × ``height`` box,
    the zero line's height (if it crosses), and the values the label names."""

    points: str
    zero: float | None
    first: int
    last: int
    low: int
    high: int
    count: int
    width: int = SPARK_WIDTH
    height: int = SPARK_HEIGHT


def sparkline(values: Sequence[int]) -> Sparkline | None:
    """The line through ``values`` (oldest first) scaled into the box, level through the middle
    when they are all alike; ``None`` for fewer than two (one game has no course to show)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    inner = SPARK_HEIGHT - 2 * SPARK_MARGIN
    step = (SPARK_WIDTH - 2 * SPARK_MARGIN) / (len(values) - 1)

    def y(value: int) -> float:
        share = (value - low) / (high - low) if high > low else 0.5
        return round(SPARK_MARGIN + inner - share * inner, 1)

    points = " ".join(
        f"{round(SPARK_MARGIN + index * step, 1)},{y(value)}" for index, value in enumerate(values)
    )
    return Sparkline(
        points=points,
        zero=y(0) if low < 0 < high else None,
        first=values[0],
        last=values[-1],
        low=low,
        high=high,
        count=len(values),
    )
