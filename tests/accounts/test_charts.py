"""The rating-history chart's geometry (pure)."""

from __future__ import annotations

import pytest

from accounts.charts import HEIGHT, LEFT, PAD, WIDTH, rating_chart

pytestmark = pytest.mark.pure


def points(chart_points: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in chart_points.split())]


def test_no_chart_without_a_rated_game() -> None:
    assert rating_chart([]) is None
    assert rating_chart([1500]) is None


def test_points_span_the_chart_and_higher_ratings_are_higher_up() -> None:
    chart = rating_chart([1500, 1562.4, 1540, 1601])
    assert chart is not None
    xy = points(chart.points)
    assert len(xy) == 4
    assert xy[0][0] == LEFT
    assert xy[-1][0] == WIDTH - PAD
    assert all(PAD <= y <= HEIGHT - PAD for _x, y in xy)
    assert xy[3][1] < xy[1][1] < xy[2][1] < xy[0][1]  # SVG y grows downwards
    assert (chart.low, chart.high, chart.first, chart.last, chart.games) == (1500, 1601, 1500, 1601, 3)
    assert (chart.last_x, chart.last_y) == xy[-1]
    assert chart.high_y == PAD
    assert chart.low_y == HEIGHT - PAD


def test_a_flat_history_is_drawn_in_the_middle() -> None:
    chart = rating_chart([1500, 1500, 1500])
    assert chart is not None
    assert {y for _x, y in points(chart.points)} == {HEIGHT / 2}
