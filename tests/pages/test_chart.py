"""The score chart's shapes: a line per player through the running totals, axes a person
reads easily, and cues besides colour."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.web import chart


def y_value(drawing: chart.Chart, y: float) -> float:
    """The total drawn at height ``y``, read back through the y axis's ticks."""
    first, last = drawing.y_ticks[0], drawing.y_ticks[-1]
    share = (y - first.position) / (last.position - first.position)
    return first.value + share * (last.value - first.value)


def test_each_line_starts_at_zero_and_passes_through_the_running_totals() -> None:
    totals = [[20, -10, 30], [10, 10, 20]]  # the seeds' example game after rounds 1 and 2
    drawing = chart.score_chart(["Thomas", "Ute", "Kevin"], totals, rounds=20)
    assert [line.name for line in drawing.lines] == ["Thomas", "Ute", "Kevin"]
    for line in drawing.lines:
        assert len(line.points) == 3
        xs = [x for x, _y in line.points]
        assert xs == sorted(xs)
        assert xs[0] == drawing.left
        drawn = [round(y_value(drawing, y)) for _x, y in line.points]
        assert drawn == [0, totals[0][line.seat], totals[1][line.seat]]
    assert [line.total for line in drawing.lines] == [10, 10, 20]


def test_the_last_round_of_the_game_is_the_right_edge() -> None:
    drawing = chart.score_chart(["A", "B", "C"], [[20, 20, 20]] * 3, rounds=3)
    assert drawing.lines[0].points[-1][0] == drawing.right
    half = chart.score_chart(["A", "B", "C"], [[20, 20, 20]] * 3, rounds=6)
    assert half.lines[0].points[-1][0] == pytest.approx((half.left + half.right) / 2)


def test_the_y_axis_spans_every_total_and_zero_in_round_steps() -> None:
    drawing = chart.score_chart(["A", "B", "C"], [[-30, 40, 0], [-60, 170, 20]], rounds=20)
    values = [tick.value for tick in drawing.y_ticks]
    assert values[0] <= -60
    assert values[-1] >= 170
    assert 0 in values
    assert len(values) <= chart.MAX_TICKS + 1
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) == 1
    assert steps.pop() in chart.STEPS
    positions = [tick.position for tick in drawing.y_ticks]
    assert positions == sorted(positions, reverse=True)  # higher totals are drawn higher
    assert positions[0] == drawing.bottom
    assert positions[-1] == drawing.top


def test_a_game_without_points_still_has_an_axis() -> None:
    drawing = chart.score_chart(["A", "B", "C"], [], rounds=20)
    assert [tick.value for tick in drawing.y_ticks] == [0, 10]
    # Every line is one point: round 0, at 0 points, the axis's lowest tick.
    assert all(line.points == ((drawing.left, drawing.bottom),) for line in drawing.lines)


@pytest.mark.parametrize(
    ("rounds", "labels"),
    [
        (1, [1]),
        (3, [1, 2, 3]),
        (10, list(range(1, 11))),
        (12, [2, 4, 6, 8, 10, 12]),
        (15, [2, 4, 6, 8, 10, 12, 15]),
        (20, [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]),
    ],
)
def test_the_rounds_are_labelled_at_most_ten_times_ending_with_the_last(
    rounds: int, labels: list[int]
) -> None:
    assert chart.round_ticks(rounds) == labels


def test_six_players_differ_in_colour_dash_and_marker() -> None:
    drawing = chart.score_chart([f"P{i}" for i in range(6)], [[0] * 6], rounds=10)
    assert len({line.style for line in drawing.lines}) == 6
    assert len({line.dash for line in drawing.lines}) == 6
    shapes = {chart.MARKERS[line.style] for line in drawing.lines}
    assert len(shapes) == 6
    assert len({line.marker for line in drawing.lines}) == 6


@pytest.mark.parametrize(
    ("low", "high", "step"), [(0, 0, 10), (-10, 40, 10), (-10, 50, 20), (0, 180, 50)]
)
def test_nice_steps(low: int, high: int, step: int) -> None:
    assert chart.nice_step(low, high) == step


def test_huge_totals_still_get_at_most_six_lines() -> None:
    step = chart.nice_step(-90_000, 250_000)
    assert (250_000 - -90_000) / step <= chart.MAX_TICKS
